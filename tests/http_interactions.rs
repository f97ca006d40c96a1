//! `komadai serve --http`: the real binary as Discord's interactions
//! endpoint. The fake Discord of `common/fake_discord.rs` serves the REST
//! API (follow-ups, threads, DMs) and shapes the interactions; the test signs
//! them with a test key (Ed25519, as Discord does) and POSTs them to the bot,
//! then records the HTTP reply as the interaction's first answer so that the
//! fake's helpers read it like a REST callback. No gateway is involved.

use crate::fake_discord;

use crate::endpoint;

use std::time::Duration;

use ed25519_dalek::{Signer, SigningKey};
use endpoint::{free_port, opt, Endpoint, WAIT};
use fake_discord::{Call, Fake, APP_ID, CHANNEL};
use hyper::Client;
use serde_json::{json, Value};

const ALICE: u64 = 100_000_000_000_000_001;
const BOB: u64 = 100_000_000_000_000_002;

/// A move in `channel`; its answer.
async fn play(ep: &Endpoint, fake: &Fake, user: u64, channel: u64, mv: &str) -> Call {
    let id = fake.command(
        user,
        "en-US",
        channel,
        "move",
        json!([opt("move", 3, json!(mv))]),
    );
    ep.answer(fake, &id).await.call
}

/// The endpoint end to end: the signature gate, PING, a challenge accepted
/// with its button, moves with their boards, autocomplete, /healthz,
/// /metrics, and SIGTERM.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_over_signed_http_interactions() {
    let fake = Fake::start().await;
    let ep = Endpoint::start(&fake, &[]).await;

    // The commands were registered for the application the bot looked up.
    let registered = fake
        .wait_for(WAIT, |calls| {
            calls
                .iter()
                .find(|c| c.method == "PUT" && c.path == format!("/applications/{APP_ID}/commands"))
                .cloned()
        })
        .await;
    assert!(registered.is_some(), "the commands were registered");

    // The signature gate: nothing unsigned or wrongly signed gets in.
    let ping = br#"{"type":1,"id":"1","application_id":"1","token":"t","version":1}"#.to_vec();
    let calls_before = fake.calls().len();
    let r = ep.post(ping.clone(), None).await;
    assert_eq!(r.status, 401, "unsigned: {}", r.text());
    let r = ep
        .post(ping.clone(), Some(("00".repeat(64), "1764590000".into())))
        .await;
    assert_eq!(r.status, 401, "zero signature: {}", r.text());
    let stranger = SigningKey::from_bytes(&[1u8; 32]);
    let r = ep.signed(&stranger, ping.clone()).await;
    assert_eq!(r.status, 401, "signed by another key: {}", r.text());
    // A signed command with its body changed after signing.
    let id = fake.command(ALICE, "en-US", CHANNEL, "games", json!([]));
    let body = fake.payload(&id).to_string();
    let ts = "1764590000";
    let sig = hex::encode(
        endpoint::bot_key()
            .sign(format!("{ts}{body}").as_bytes())
            .to_bytes(),
    );
    let tampered = body.replace("\"games\"", "\"board\"").into_bytes();
    let r = ep.post(tampered, Some((sig, ts.into()))).await;
    assert_eq!(r.status, 401, "tampered: {}", r.text());
    assert_eq!(
        fake.calls().len(),
        calls_before,
        "a refused request did no work"
    );

    // PING → PONG.
    let r = ep.signed(&endpoint::bot_key(), ping).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let pong: Value = serde_json::from_slice(&r.body).expect("json");
    assert_eq!(pong, json!({"type": 1}));

    // More than 1 MiB is refused, from the declared length alone.
    assert_eq!(ep.status_of_declared_post((1 << 20) + 1), 413);
    assert_eq!(ep.status_of_declared_post(1 << 34), 413);

    // alice challenges bob.
    let id = fake.command(
        ALICE,
        "en-US",
        CHANNEL,
        "challenge",
        json!([
            opt("member", 6, json!(BOB.to_string())),
            opt("color", 3, json!("sente")),
            opt("rated", 5, json!(false))
        ]),
    );
    let a = ep.answer(&fake, &id).await;
    assert_eq!(a.first_kind, 4, "answered in the HTTP body");
    let c = a.call;
    assert!(!c.ephemeral(), "{}", c.content());
    assert!(
        c.content().contains(&format!("<@{BOB}>")),
        "{}",
        c.content()
    );
    let accept_id = c
        .buttons()
        .into_iter()
        .find(|b| b.starts_with("accept:"))
        .expect("an Accept button");

    // bob accepts with the button: the board comes in the HTTP body
    // (multipart), and the game's thread is opened over REST.
    let id = fake.button(BOB, "en-US", CHANNEL, &accept_id);
    let a = ep.answer(&fake, &id).await;
    assert!(a.call.has_png(), "the game start shows the board");
    assert_eq!(
        a.call.message()["embeds"][0]["image"]["url"],
        "attachment://board.png",
        "{}",
        a.call.message()
    );
    let threads = format!("/channels/{CHANNEL}/threads");
    let thread: u64 = fake
        .wait_for(WAIT, |calls| {
            calls
                .iter()
                .find(|c| c.method == "POST" && c.path == threads && c.ok())?;
            calls
                .iter()
                .find(|c| {
                    c.method == "POST"
                        && c.path.starts_with("/channels/8")
                        && c.path.ends_with("/messages")
                        && c.has_png()
                })
                .and_then(|c| c.path.split('/').nth(2)?.parse().ok())
        })
        .await
        .expect("the board was posted in the game's thread");

    // Autocomplete of a move in the thread.
    let id = fake.autocomplete(
        ALICE,
        "en-US",
        thread,
        "move",
        json!([{"name": "move", "type": 3, "value": "", "focused": true}]),
    );
    let a = ep.answer(&fake, &id).await;
    assert_eq!(a.call.kind(), 8);
    let choices = a.call.json["data"]["choices"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(!choices.is_empty() && choices.len() <= 25, "{choices:?}");

    // Moves in the thread, each answered with the board.
    for (user, mv) in [(ALICE, "7g7f"), (BOB, "3c3d"), (ALICE, "2g2f")] {
        let c = play(&ep, &fake, user, thread, mv).await;
        assert!(!c.ephemeral(), "{mv}: {}", c.content());
        assert!(c.has_png(), "{mv}: a move reply shows the board");
        assert_eq!(
            c.message()["attachments"][0]["filename"],
            "board.png",
            "{}",
            c.message()
        );
    }
    // Out of turn: a refusal only alice sees, without a board.
    let c = play(&ep, &fake, ALICE, thread, "8h2b").await;
    assert!(c.ephemeral(), "{}", c.content());
    assert!(!c.has_png());

    let r = ep.get("/healthz").await.expect("healthz");
    assert_eq!((r.status, r.text().as_str()), (200, "ok"));
    // An interaction is counted once its answer has been sent, so an
    // answer can reach the client before its count is in, and a quick
    // refusal can be counted before the slower move answered just before
    // it: scrape until all four moves are counted (or five seconds have
    // passed).
    let counted = |metrics: &str, kind: &str, command: &str, outcome: &str| {
        metrics
            .lines()
            .find(|l| {
                l.starts_with("komadai_interactions_total{")
                    && l.contains(&format!("kind=\"{kind}\""))
                    && l.contains(&format!("command=\"{command}\""))
                    && l.contains(&format!("outcome=\"{outcome}\""))
            })
            .map(|l| l.rsplit(' ').next().unwrap_or("").to_string())
    };
    let scrape_until = std::time::Instant::now() + Duration::from_secs(5);
    let metrics = loop {
        let r = ep.get("/metrics").await.expect("metrics");
        assert_eq!(r.status, 200);
        let m = r.text();
        let all_moves = counted(&m, "command", "move", "refused").is_some()
            && counted(&m, "command", "move", "ok").as_deref() == Some("3");
        if all_moves || std::time::Instant::now() >= scrape_until {
            break m;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let line = |kind: &str, command: &str, outcome: &str| counted(&metrics, kind, command, outcome);
    assert_eq!(
        line("command", "move", "ok").as_deref(),
        Some("3"),
        "{metrics}"
    );
    assert_eq!(
        line("command", "move", "refused").as_deref(),
        Some("1"),
        "{metrics}"
    );
    assert_eq!(
        line("component", "accept", "ok").as_deref(),
        Some("1"),
        "{metrics}"
    );
    assert_eq!(
        line("unknown", "none", "bad_signature").as_deref(),
        Some("4"),
        "{metrics}"
    );
    assert!(
        metrics.contains("komadai_interaction_seconds_bucket{kind=\"command\""),
        "{metrics}"
    );
    // Read from the app at the scrape: nothing due, one engine thread each.
    for want in [
        "komadai_due_notices 0",
        "komadai_pending_computer_replies 0",
        "komadai_engine_threads{pool=\"game\"} 1",
        "komadai_engine_jobs{pool=\"analysis\",state=\"queued\"} 0",
        "komadai_db_connections{state=\"in_use\"}",
        "komadai_db_waits_total",
    ] {
        assert!(
            metrics.lines().any(|l| l.starts_with(want)),
            "{want}: {metrics}"
        );
    }

    // Structured logs: each interaction's lines carry its id, name and
    // user, and the game once the answer names one.
    let log = ep.sigterm().await;
    let answered = log
        .lines()
        .find(|l| l.contains("answered") && l.contains("name=move") && l.contains("game=1"))
        .unwrap_or_else(|| panic!("no structured line for a move: {log}"));
    assert!(answered.contains("interaction{id="), "{answered}");
    assert!(
        answered.contains(&format!("user={ALICE}")) || answered.contains(&format!("user={BOB}")),
        "{answered}"
    );
}

/// With `--defer-ms 0` every command is deferred in the HTTP body (type 5)
/// and its answer arrives as a REST edit with the interaction token — the
/// gateway path's `after_defer`, unchanged.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_answers_are_deferred_in_the_body_and_edited_over_rest() {
    let fake = Fake::start().await;
    let ep = Endpoint::start(&fake, &["--defer-ms", "0"]).await;
    let id = fake.command(
        ALICE,
        "en-US",
        CHANNEL,
        "challenge",
        json!([
            opt("member", 6, json!(BOB.to_string())),
            opt("rated", 5, json!(false))
        ]),
    );
    let a = ep.answer(&fake, &id).await;
    assert_eq!(a.first_kind, 5, "deferred in the HTTP body");
    assert_eq!(a.call.method, "PATCH", "{:?}", a.call.path);
    assert_eq!(
        a.call.path,
        format!("/webhooks/{APP_ID}/token-{id}/messages/@original")
    );
    assert!(
        a.call.content().contains(&format!("<@{BOB}>")),
        "{}",
        a.call.content()
    );
    ep.sigterm().await;
}

/// Runs the binary with `args` (a token and no API base); its exit status
/// and standard error.
fn refused(args: &[&str], public_key: Option<&str>) -> (bool, String) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_komadai"));
    cmd.args(args)
        .env("DISCORD_TOKEN", "fake-token")
        .env("DISCORD_API_BASE", "http://127.0.0.1:9")
        .env_remove("DISCORD_PUBLIC_KEY")
        .env_remove("KOMADAI_HTTP")
        .env_remove("KOMADAI_METRICS")
        .env_remove("KOMADAI_DB")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    if let Some(k) = public_key {
        cmd.env("DISCORD_PUBLIC_KEY", k);
    }
    let out = cmd.output().expect("komadai runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// Nonsense is refused before anything starts, with a reason.
#[test]
fn nonsense_serve_arguments_are_refused_with_a_reason() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("never.db");
    let db = db.to_str().expect("utf-8 path");
    let cases: &[(&[&str], Option<&str>, &str)] = &[
        (
            &["serve", "--shards", "2..4", "--total", "4"],
            None,
            "--total 4 has shards 0..3",
        ),
        (
            &["serve", "--shards", "3..1", "--total", "4"],
            None,
            "after the last",
        ),
        (&["serve", "--shards", "0..1"], None, "--total"),
        (&["serve", "--total", "2"], None, "--shards"),
        (
            &["serve", "--shards", "zero..1", "--total", "2"],
            None,
            "not a shard number",
        ),
        (
            &["serve", "--shards", "1", "--total", "2"],
            None,
            "FROM..TO",
        ),
        (
            &["serve", "--shards", "0..0", "--total", "0"],
            None,
            "is not in",
        ),
        (
            &[
                "serve",
                "--http",
                "127.0.0.1:0",
                "--shards",
                "0..0",
                "--total",
                "1",
            ],
            None,
            "cannot be used with",
        ),
        (
            &["serve", "--http", "127.0.0.1:0"],
            None,
            "DISCORD_PUBLIC_KEY",
        ),
        (&["serve", "--http", "127.0.0.1:0"], Some("abc"), "not hex"),
        (
            &["serve", "--http", "127.0.0.1:0"],
            Some(&"00".repeat(16)),
            "expected 32",
        ),
    ];
    for (args, key, want) in cases {
        let mut args = args.to_vec();
        args.extend(["--db", db]);
        let (ok, err) = refused(&args, *key);
        assert!(!ok, "{args:?} was accepted");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    assert!(!std::path::Path::new(db).exists(), "nothing was started");
}

/// `--shards 1..2 --total 3` identifies exactly shards 1 and 2 of 3, and
/// `--metrics` serves /healthz and /metrics beside the gateway.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shard_range_identifies_only_its_shards() {
    let fake = Fake::start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let metrics = format!("127.0.0.1:{}", free_port());
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_komadai"))
        .args([
            "serve",
            "--shards",
            "1..2",
            "--total",
            "3",
            "--metrics",
            &metrics,
        ])
        .arg("--db")
        .arg(dir.path().join("bot.db"))
        .env("DISCORD_TOKEN", "fake-token")
        .env("DISCORD_API_BASE", fake.base())
        .env_remove("DEV_GUILD_ID")
        .env_remove("KOMADAI_HTTP")
        .env_remove("KOMADAI_METRICS")
        .stdout(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("komadai starts");
    // serenity waits about 5 s between two shards' IDENTIFYs.
    assert!(
        fake.wait_sessions(2, Duration::from_secs(30)).await,
        "two sessions: {:?}",
        fake.identified_shards()
    );
    let mut shards = fake.identified_shards();
    shards.sort_by_key(|s| s[0].as_u64());
    assert_eq!(shards, vec![json!([1, 3]), json!([2, 3])]);
    let client = Client::new();
    // /healthz says ok once both shards are connected (READY after the
    // IDENTIFY the fake counted).
    let end = std::time::Instant::now() + WAIT;
    loop {
        let r = client
            .get(format!("http://{metrics}/healthz").parse().expect("uri"))
            .await
            .expect("the metrics server answers");
        let status = r.status().as_u16();
        let body = hyper::body::to_bytes(r.into_body()).await.expect("body");
        let body = String::from_utf8_lossy(&body).to_string();
        if status == 200 {
            assert_eq!(body, "ok");
            break;
        }
        assert_eq!(status, 503, "{body}");
        assert!(body.starts_with("gateway: "), "{body}");
        assert!(std::time::Instant::now() < end, "{body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for (path, want) in [
        ("/healthz", "ok"),
        ("/metrics", ""),
        ("/nowhere", "not found"),
    ] {
        let r = client
            .get(format!("http://{metrics}{path}").parse().expect("uri"))
            .await
            .expect("the metrics server answers");
        let status = r.status().as_u16();
        let body = hyper::body::to_bytes(r.into_body()).await.expect("body");
        let body = String::from_utf8_lossy(&body);
        let ok = if path == "/nowhere" { 404 } else { 200 };
        assert_eq!(status, ok, "{path}: {body}");
        assert!(body.starts_with(want), "{path}: {body}");
    }
    let _ = child.start_kill();
    let _ = child.wait().await;
}
