//! The Discord bot end to end: the real `komadai::discord::run` (serenity
//! 0.12.5) against a fake Discord on 127.0.0.1 that speaks REST and the
//! gateway, sends interactions shaped like Discord's and records the answers.

use crate::fake_discord;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use fake_discord::{Call, Fake, Fault, CHANNEL};
use komadai::app::{App, Clock, ManualClock, SeededDice};
use komadai::discord::{run, BotConfig};
use komadai::shogi::{Move, Position};
use komadai::store::Store;
use komadai::tsume::puzzles::shipped;
use komadai::tsume::MateSolver;
use serde_json::{json, Value};

const ALICE: u64 = 100_000_000_000_000_001;
const BOB: u64 = 100_000_000_000_000_002;
const CAROL: u64 = 100_000_000_000_000_003;
const WAIT: Duration = Duration::from_secs(20);
const START: i64 = 1_798_545_600;

struct Bot {
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<Result<(), komadai::discord::BotError>>,
}

async fn start_bot(fake: &Fake, db: &Path, clock: Arc<dyn Clock>, sessions: usize) -> Bot {
    start_bot_with(fake, db, clock, sessions, komadai::discord::DEFER_AFTER).await
}

async fn start_bot_with(
    fake: &Fake,
    db: &Path,
    clock: Arc<dyn Clock>,
    sessions: usize,
    defer_after: Duration,
) -> Bot {
    let store = Store::open(db).expect("open store");
    let app = Arc::new(App::new(store, clock, Arc::new(SeededDice::new(7))));
    // As `komadai serve` does before connecting.
    app.load_puzzles().expect("the shipped puzzles load");
    let config = BotConfig {
        token: "fake-token".into(),
        api_base: Some(fake.base()),
        dev_guild: None,
        tick_every: Duration::from_millis(200),
        defer_after,
    };
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(run(config, app, async move {
        let _ = rx.await;
    }));
    assert!(
        fake.wait_sessions(sessions, WAIT).await,
        "the bot did not connect to the fake gateway"
    );
    Bot { stop, task }
}

impl Bot {
    async fn shutdown(self) {
        let _ = self.stop.send(());
        let done = tokio::time::timeout(WAIT, self.task).await;
        assert!(
            matches!(done, Ok(Ok(Ok(())))),
            "the bot did not stop cleanly: {done:?}"
        );
    }
}

async fn answer(fake: &Fake, id: &str) -> Call {
    let a = fake.answer(id, WAIT).await.expect("no answer");
    assert!(
        a.latency < Duration::from_secs(3),
        "answered after {:?}",
        a.latency
    );
    a.call
}

fn opt(name: &str, kind: u64, value: Value) -> Value {
    json!({"name": name, "type": kind, "value": value})
}

/// A seeded game from the start that ends in checkmate, as USI moves.
fn mating_game() -> Vec<String> {
    let mut best: Option<Vec<String>> = None;
    for seed in 0..300u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for _ in 0..120 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mate = legal.iter().copied().find(|&m| pos.after(m).is_checkmate());
            let forcing: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| pos.gives_check(m) || pos.is_capture(m))
                .collect();
            let m = match mate {
                Some(m) => m,
                None if !forcing.is_empty() && rng.u8(..4) > 0 => {
                    forcing[rng.usize(..forcing.len())]
                }
                None => legal[rng.usize(..legal.len())],
            };
            moves.push(m.to_string());
            pos.play_unchecked(m);
            if pos.is_checkmate() {
                if best.as_ref().is_none_or(|b| moves.len() < b.len()) {
                    best = Some(moves.clone());
                }
                break;
            }
        }
    }
    best.expect("a mating game")
}

/// alice challenges bob (alice is Sente); returns the challenge's Accept id.
async fn challenge(fake: &Fake, alice: u64, bob: u64, locale: &str) -> String {
    let id = fake.command(
        alice,
        locale,
        CHANNEL,
        "challenge",
        json!([
            opt("member", 6, json!(bob.to_string())),
            opt("color", 3, json!("sente")),
            opt("rated", 5, json!(false))
        ]),
    );
    let a = answer(fake, &id).await;
    assert!(!a.ephemeral(), "{}", a.content());
    assert!(
        a.content().contains(&format!("<@{bob}>")),
        "{}",
        a.content()
    );
    a.buttons()
        .into_iter()
        .find(|b| b.starts_with("accept:"))
        .expect("an Accept button")
}

/// bob presses Accept; returns the game's thread id.
async fn accept(fake: &Fake, bob: u64, accept_id: &str) -> String {
    let before = fake.calls().len();
    let id = fake.button(bob, "en-US", CHANNEL, accept_id);
    let a = answer(fake, &id).await;
    assert!(!a.ephemeral(), "{}", a.content());
    assert!(a.has_png(), "the game start shows the board");
    // The deadline is a Discord timestamp, shown in each reader's own time
    // zone, with the time left beside it.
    let text = a.content();
    assert!(
        text.contains(":f> (<t:") && text.contains(":R>).") && !text.contains("UTC"),
        "{text}"
    );
    assert_eq!(
        a.message()["embeds"][0]["image"]["url"],
        "attachment://board.png",
        "{}",
        a.message()
    );
    let thread = thread_opened(fake, before).await;
    // The challenge's own message now says who accepted it, and its
    // buttons can no longer be pressed.
    let original = format!("/token-{id}/messages/@original");
    let settled = fake
        .wait_for(WAIT, |calls| {
            calls
                .iter()
                .find(|c| c.method == "PATCH" && c.path.ends_with(&original))
                .cloned()
        })
        .await
        .expect("the challenge's message is edited");
    assert!(
        settled.content().contains("accepted by"),
        "{}",
        settled.content()
    );
    let buttons: Vec<&Value> = settled.message()["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().into_iter().flatten())
        .collect();
    assert!(
        buttons.len() == 3 && buttons.iter().all(|b| b["disabled"] == true),
        "{}",
        settled.message()
    );
    thread
}

/// After the answer to a new game, the bot opens a thread (in the fake,
/// its ids start with 8) and posts the board there: the thread's id.
async fn thread_opened(fake: &Fake, before: usize) -> String {
    let threads = format!("/channels/{CHANNEL}/threads");
    let posted = fake
        .wait_for(WAIT, |calls| {
            let new = calls.get(before..).unwrap_or_default();
            if !new.iter().any(|c| c.method == "POST" && c.path == threads) {
                return None;
            }
            new.iter()
                .find(|c| {
                    c.method == "POST"
                        && c.path.starts_with("/channels/8")
                        && c.path.ends_with("/messages")
                        && c.has_png()
                })
                .map(|c| c.path.split('/').nth(2).unwrap_or("").to_string())
        })
        .await;
    posted.expect("board posted in the game thread")
}

/// alice (Sente) challenges bob, who accepts: the new game's thread.
async fn game_thread(fake: &Fake, locale: &str) -> u64 {
    let accept_id = challenge(fake, ALICE, BOB, locale).await;
    accept(fake, BOB, &accept_id).await.parse().expect("thread")
}

/// Sends a slash command and returns its answer.
async fn command(
    fake: &Fake,
    user: u64,
    locale: &str,
    channel: u64,
    name: &str,
    options: Value,
) -> Call {
    let id = fake.command(user, locale, channel, name, options);
    answer(fake, &id).await
}

/// The messages Discord accepted in `channel`.
fn messages_in(calls: &[Call], channel: &str) -> Vec<Call> {
    let path = format!("/channels/{channel}/messages");
    calls
        .iter()
        .filter(|c| c.method == "POST" && c.path == path && c.ok())
        .cloned()
        .collect()
}

fn temp_db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bot.db");
    (dir, path)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registration_payload_is_valid_and_localised() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    let put = fake
        .wait_for(WAIT, |calls| {
            calls
                .iter()
                .find(|c| c.method == "PUT" && c.path.ends_with("/commands"))
                .cloned()
        })
        .await
        .expect("commands registered");
    let list = put.json.as_array().cloned().unwrap_or_default();
    let names: Vec<&str> = list.iter().filter_map(|c| c["name"].as_str()).collect();
    for want in [
        "challenge",
        "move",
        "board",
        "games",
        "resign",
        "abort",
        "takeback",
        "declare",
        "count",
        "export",
        "settings",
        "stats",
        "leaderboard",
        "play",
        "hint",
        "danger",
        "analyze",
        "help",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    let valid = |s: &str| {
        (1..=32).contains(&s.chars().count())
            && s.chars()
                .all(|c| c == '-' || c == '_' || c.is_alphanumeric())
            && s.to_lowercase() == s
    };
    for c in &list {
        let name = c["name"].as_str().unwrap_or("");
        assert!(valid(name), "{name}");
        let desc = c["description"].as_str().unwrap_or("");
        assert!((1..=100).contains(&desc.chars().count()), "{name}");
        let de = c["name_localizations"]["de"].as_str().unwrap_or("");
        assert!(valid(de), "{name}: German name {de:?}");
        let de_desc = c["description_localizations"]["de"].as_str().unwrap_or("");
        assert!(
            (1..=100).contains(&de_desc.chars().count()),
            "{name}: German description"
        );
        let options = c["options"].as_array().cloned().unwrap_or_default();
        assert!(options.len() <= 25);
        for o in &options {
            assert!(valid(o["name"].as_str().unwrap_or("")), "{o}");
            assert!(o["name_localizations"]["de"].is_string(), "{o}");
            assert!(o["description_localizations"]["de"].is_string(), "{o}");
            let choices = o["choices"].as_array().cloned().unwrap_or_default();
            assert!(choices.len() <= 25);
            assert!(o["autocomplete"] != true || choices.is_empty(), "{o}");
            for ch in &choices {
                assert!(ch["name_localizations"]["de"].is_string(), "{ch}");
            }
        }
    }
    let mv = list.iter().find(|c| c["name"] == "move").expect("move");
    assert_eq!(mv["options"][0]["autocomplete"], true);

    // /help names every registered command, in the reader's language and
    // under the name their client shows; it fits one message.
    for (locale, key) in [("en-US", None), ("de", Some("de"))] {
        let a = command(&fake, ALICE, locale, CHANNEL, "help", json!([])).await;
        let text = a.content();
        assert!(a.ephemeral() && text.chars().count() <= 2000, "{text}");
        for c in &list {
            let name = match key {
                Some(k) => c["name_localizations"][k].as_str().unwrap_or(""),
                None => c["name"].as_str().unwrap_or(""),
            };
            if name != "help" && name != "hilfe" {
                assert!(
                    text.contains(&format!("/{name}")),
                    "{locale}: /{name} missing:\n{text}"
                );
            }
        }
        assert!(text.contains("P-7f") && text.contains("７六歩"), "{text}");
    }
    // A forged or outdated button is refused with what exists on Discord.
    let id = fake.button(BOB, "en-US", CHANNEL, "launch-missiles:1");
    let a = answer(&fake, &id).await;
    assert!(
        a.ephemeral() && a.content().contains("/games") && a.content().contains("/help"),
        "{}",
        a.content()
    );
    let id = fake.button(BOB, "de", CHANNEL, "launch-missiles:1");
    assert!(answer(&fake, &id).await.content().contains("/hilfe"));
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenge_accept_moves_to_checkmate() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    let accept_id = challenge(&fake, ALICE, BOB, "en-US").await;

    // A stranger cannot accept a challenge addressed to bob.
    let id = fake.button(CAROL, "en-US", CHANNEL, &accept_id);
    let a = answer(&fake, &id).await;
    assert!(a.ephemeral(), "{}", a.content());
    assert!(
        a.content().contains("not addressed to you"),
        "{}",
        a.content()
    );

    let thread = accept(&fake, BOB, &accept_id).await;
    let thread_id: u64 = thread.parse().expect("thread id");

    // Autocomplete in the thread: at most 25 legal moves, promotion listed separately.
    let id = fake.autocomplete(
        ALICE,
        "en-US",
        thread_id,
        "move",
        json!([{"name": "move", "type": 3, "value": "", "focused": true}]),
    );
    let full = fake.answer(&id, WAIT).await.expect("autocomplete answered");
    println!("autocomplete answered in {:?}", full.latency);
    let a = full.call;
    assert_eq!(a.kind(), 8);
    let choices = a.json["data"]["choices"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(!choices.is_empty() && choices.len() <= 25, "{choices:?}");
    let legal: Vec<String> = Position::startpos()
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    for c in &choices {
        let v = c["value"].as_str().unwrap_or("");
        assert!(legal.contains(&v.to_string()), "{v} is not legal");
    }
    let id = fake.autocomplete(
        ALICE,
        "en-US",
        thread_id,
        "move",
        json!([{"name": "move", "type": 3, "value": "7g", "focused": true}]),
    );
    let a = answer(&fake, &id).await;
    let values: Vec<String> = a.json["data"]["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["value"].as_str().map(str::to_string))
        .collect();
    assert_eq!(
        values,
        vec!["7g7f".to_string()],
        "filtered by what was typed"
    );

    let moves = mating_game();
    for (i, mv) in moves.iter().enumerate() {
        let (user, other) = if i % 2 == 0 {
            (ALICE, BOB)
        } else {
            (BOB, ALICE)
        };
        let a = command(
            &fake,
            user,
            "en-US",
            thread_id,
            "move",
            json!([opt("move", 3, json!(mv))]),
        )
        .await;
        assert!(!a.ephemeral(), "move {mv}: {}", a.content());
        assert!(a.has_png(), "move {mv} carries the board");
        assert!(
            a.content().contains(&format!("<@{other}>")),
            "{}",
            a.content()
        );
        if i + 1 == moves.len() {
            assert!(a.content().contains("checkmate"), "{}", a.content());
            assert!(a.buttons().iter().any(|b| b.starts_with("rematch:")));
        }
    }
    // The game is over: another move is refused.
    let a = command(
        &fake,
        BOB,
        "en-US",
        thread_id,
        "move",
        json!([opt("move", 3, json!("5a4b"))]),
    )
    .await;
    assert!(a.ephemeral());
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_move_is_refused_in_german() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    let thread = game_thread(&fake, "de").await;
    // A pawn cannot move two squares.
    let a = command(
        &fake,
        ALICE,
        "de",
        thread,
        "move",
        json!([opt("move", 3, json!("7g7e"))]),
    )
    .await;
    assert!(a.ephemeral(), "{}", a.content());
    assert!(!a.has_png());
    assert!(
        a.content().contains("kann nicht von 7g nach 7e ziehen"),
        "{}",
        a.content()
    );
    // Not your turn, in English for an English client.
    let a = command(
        &fake,
        BOB,
        "en-US",
        thread,
        "move",
        json!([opt("move", 3, json!("3c3d"))]),
    )
    .await;
    assert!(a.ephemeral());
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_button_from_before_a_restart_still_works() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let clock = Arc::new(ManualClock::new(START));
    let bot = start_bot(&fake, &db, clock.clone(), 1).await;
    let accept_id = challenge(&fake, ALICE, BOB, "en-US").await;
    bot.shutdown().await;

    let bot = start_bot(&fake, &db, clock, 2).await;
    let thread: u64 = accept(&fake, BOB, &accept_id)
        .await
        .parse()
        .expect("thread");
    let a = command(
        &fake,
        ALICE,
        "en-US",
        thread,
        "move",
        json!([opt("move", 3, json!("7g7f"))]),
    )
    .await;
    assert!(!a.ephemeral(), "{}", a.content());
    assert!(a.has_png());
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scheduler_posts_a_reminder_also_by_dm_and_a_timeout() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let clock = Arc::new(ManualClock::new(START));
    let bot = start_bot(&fake, &db, clock.clone(), 1).await;
    let accept_id = challenge(&fake, ALICE, BOB, "en-US").await;
    let thread = accept(&fake, BOB, &accept_id).await;
    // alice wants DMs: the reminder also reaches her there.
    let id = fake.command(
        ALICE,
        "en-US",
        CHANNEL,
        "settings",
        json!([opt("dms", 5, json!(true))]),
    );
    assert!(answer(&fake, &id).await.ephemeral());
    // Three days per move: past half time a reminder, past the deadline a timeout.
    clock.advance(2 * 86_400);
    let reminder = fake
        .wait_for(WAIT, |calls| {
            messages_in(calls, &thread)
                .into_iter()
                .find(|c| c.content().contains("Reminder"))
        })
        .await
        .expect("a reminder in the thread");
    assert!(
        reminder.content().contains(&format!("<@{ALICE}>")),
        "{}",
        reminder.content()
    );
    let deadline = START + 3 * 86_400;
    assert!(
        reminder
            .content()
            .contains(&format!("(deadline <t:{deadline}:f>)")),
        "{}",
        reminder.content()
    );
    let dm_channel = (900_000_000_000_000_000 + ALICE - 1).to_string();
    let dm = fake
        .wait_for(WAIT, |calls| {
            messages_in(calls, &dm_channel)
                .into_iter()
                .find(|c| c.content().contains("Reminder"))
        })
        .await
        .expect("the reminder by DM");
    assert!(
        dm.content().contains(&thread),
        "the DM links the thread: {}",
        dm.content()
    );
    clock.advance(2 * 86_400);
    let timeout = fake
        .wait_for(WAIT, |calls| {
            messages_in(calls, &thread)
                .into_iter()
                .find(|c| c.content().contains("is over"))
        })
        .await
        .expect("the timeout result in the thread");
    assert!(
        timeout.content().contains(&format!("<@{BOB}>")),
        "{}",
        timeout.content()
    );
    // Delivered once: the outbox is empty afterwards.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let n = messages_in(&fake.calls(), &thread)
        .iter()
        .filter(|c| c.content().contains("is over"))
        .count();
    assert_eq!(n, 1);
    bot.shutdown().await;
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// 50 games, then 500 moves (10 per game, the games in parallel) sent as
/// fast as the answers come: every interaction is answered within Discord's
/// 3 s, and the store holds exactly the 500 moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_500_moves_across_50_games() {
    const GAMES: u64 = 50;
    const OPENING: [&str; 10] = [
        "7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d",
    ];
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    let player = |g: u64, side: u64| 200_000_000_000_000_000 + g * 2 + side;

    // Set up the games, all at once.
    let mut setups = Vec::new();
    for g in 0..GAMES {
        let fake = fake.clone();
        setups.push(tokio::spawn(async move {
            let id = fake.command(
                player(g, 0),
                "en-US",
                CHANNEL,
                "challenge",
                json!([
                    opt("member", 6, json!(player(g, 1).to_string())),
                    opt("color", 3, json!("sente"))
                ]),
            );
            let a = fake.answer(&id, WAIT).await.expect("challenge answered");
            let accept = a
                .call
                .buttons()
                .into_iter()
                .find(|b| b.starts_with("accept:"))
                .expect("accept button");
            let id = fake.button(player(g, 1), "en-US", CHANNEL, &accept);
            let a = fake.answer(&id, WAIT).await.expect("accept answered");
            assert!(!a.call.ephemeral(), "{}", a.call.content());
        }));
    }
    for s in setups {
        s.await.expect("setup");
    }

    // The burst: each game plays its moves in order; the games run in parallel.
    let started = std::time::Instant::now();
    let mut games = Vec::new();
    for g in 0..GAMES {
        let fake = fake.clone();
        games.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            for (i, mv) in OPENING.iter().enumerate() {
                let user = player(g, (i % 2) as u64);
                let id = fake.command(
                    user,
                    "en-US",
                    CHANNEL,
                    "move",
                    json!([opt("move", 3, json!(mv))]),
                );
                let a = fake.answer(&id, WAIT).await.expect("move answered");
                assert!(
                    !a.call.ephemeral(),
                    "game {g} move {mv}: {}",
                    a.call.content()
                );
                assert!(a.call.has_png());
                latencies.push(a.latency);
            }
            latencies
        }));
    }
    let mut latencies = Vec::new();
    for g in games {
        latencies.extend(g.await.expect("game task"));
    }
    let total = started.elapsed();
    latencies.sort();
    assert_eq!(latencies.len(), 500);
    let (p50, p99, max) = (
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies[latencies.len() - 1],
    );
    println!(
        "burst: 500 moves in 50 games in {total:?}; first answer latency p50 {p50:?}, p99 {p99:?}, max {max:?}"
    );
    assert!(max < Duration::from_secs(3), "slowest answer {max:?}");
    bot.shutdown().await;

    // No move lost or doubled.
    let store = Store::open(&db).expect("store");
    for g in 0..GAMES {
        let games = store
            .read(|r| r.active_games_of(i64::try_from(player(g, 0)).expect("id")))
            .expect("games");
        assert_eq!(games.len(), 1);
        let moves = store.read(|r| r.moves(games[0].id)).expect("moves");
        assert_eq!(moves, OPENING.map(String::from).to_vec(), "game {g}");
    }
}

/// Turn DMs are opt-in; a user who does not accept DMs (50007) gets the
/// option switched off and is told so once in the game thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_turn_dm_turns_the_option_off_once() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    let a = command(
        &fake,
        BOB,
        "en-US",
        CHANNEL,
        "settings",
        json!([opt("dms", 5, json!(true))]),
    )
    .await;
    assert!(a.ephemeral(), "{}", a.content());
    fake.close_dms(BOB);
    let accept_id = challenge(&fake, ALICE, BOB, "en-US").await;
    let thread = accept(&fake, BOB, &accept_id).await;
    let thread_id: u64 = thread.parse().expect("thread");
    let id = fake.command(
        ALICE,
        "en-US",
        thread_id,
        "move",
        json!([opt("move", 3, json!("7g7f"))]),
    );
    assert!(!answer(&fake, &id).await.ephemeral());
    let note = fake
        .wait_for(WAIT, |calls| {
            messages_in(calls, &thread)
                .into_iter()
                .find(|c| c.content().contains("direct messages"))
        })
        .await
        .expect("the thread says the DMs were turned off");
    assert!(note.content().contains(&format!("<@{BOB}>")));
    for (user, mv) in [(BOB, "3c3d"), (ALICE, "2g2f")] {
        let id = fake.command(
            user,
            "en-US",
            thread_id,
            "move",
            json!([opt("move", 3, json!(mv))]),
        );
        assert!(!answer(&fake, &id).await.ephemeral());
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let notes = messages_in(&fake.calls(), &thread)
        .iter()
        .filter(|c| c.content().contains("direct messages"))
        .count();
    assert_eq!(notes, 1, "said once");
    let dm_attempts = fake
        .calls()
        .iter()
        .filter(|c| c.path == "/users/@me/channels")
        .count();
    assert_eq!(dm_attempts, 1, "no DM after the option was turned off");
    bot.shutdown().await;
}

/// Without permission for threads the game stays in the channel; with two
/// games the `game` option's autocomplete lists both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_thread_permission_and_game_autocomplete() {
    let fake = Fake::start().await;
    fake.refuse_threads(CHANNEL);
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    for opponent in [BOB, CAROL] {
        let accept_id = challenge(&fake, ALICE, opponent, "en-US").await;
        let id = fake.button(opponent, "en-US", CHANNEL, &accept_id);
        let a = answer(&fake, &id).await;
        assert!(a.has_png() && !a.ephemeral(), "{}", a.content());
    }
    // Two games, no thread: /move without a game asks which one.
    let a = command(
        &fake,
        ALICE,
        "en-US",
        CHANNEL,
        "move",
        json!([opt("move", 3, json!("7g7f"))]),
    )
    .await;
    assert!(a.ephemeral(), "{}", a.content());
    let id = fake.autocomplete(
        ALICE,
        "de",
        CHANNEL,
        "move",
        json!([{"name": "move", "type": 3, "value": "7g7f"},
               {"name": "game", "type": 4, "value": "", "focused": true}]),
    );
    let a = answer(&fake, &id).await;
    let choices = a.json["data"]["choices"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(choices.len(), 2, "{choices:?}");
    assert!(choices.iter().all(|c| c["value"].is_i64()), "{choices:?}");
    assert!(
        choices[0]["name"].as_str().unwrap_or("").contains("am Zug"),
        "{choices:?}"
    );
    let game = choices[0]["value"].clone();
    let a = command(
        &fake,
        ALICE,
        "en-US",
        CHANNEL,
        "move",
        json!([opt("move", 3, json!("7g7f")), opt("game", 4, game)]),
    )
    .await;
    assert!(!a.ephemeral() && a.has_png(), "{}", a.content());
    bot.shutdown().await;
}

/// `komadai` without a token exits with a message that points to the console.
#[test]
fn without_a_token_the_bot_explains_and_points_to_the_console() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_komadai"))
        .current_dir(dir.path())
        .env_remove("DISCORD_TOKEN")
        .env_remove("KOMADAI_DB")
        .output()
        .expect("run komadai");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("DISCORD_TOKEN"), "{err}");
    assert!(err.contains("komadai console"), "{err}");
    assert!(
        !dir.path().join("komadai.db").exists(),
        "no database without a token"
    );
}

/// When the work is slow the bot defers first and then edits the answer (or,
/// for a refusal after a public deferral, replaces it with an ephemeral
/// follow-up). Forced here with a zero deferral threshold.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_answers_are_deferred_then_edited() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let clock = Arc::new(ManualClock::new(START));
    let bot = start_bot_with(&fake, &db, clock, 1, Duration::ZERO).await;
    // A command: deferred (type 5), then the original answer is edited with the board.
    let id = fake.command(
        ALICE,
        "en-US",
        CHANNEL,
        "challenge",
        json!([
            opt("member", 6, json!(BOB.to_string())),
            opt("color", 3, json!("sente"))
        ]),
    );
    let a = fake.answer(&id, WAIT).await.expect("answered");
    assert_eq!(a.first_kind, 5);
    assert_eq!(a.call.method, "PATCH", "{}", a.call.path);
    let accept = a
        .call
        .buttons()
        .into_iter()
        .find(|b| b.starts_with("accept:"))
        .expect("accept");
    // A button: acknowledged (type 6), then a follow-up with the board.
    let id = fake.button(BOB, "en-US", CHANNEL, &accept);
    let a = fake.answer(&id, WAIT).await.expect("answered");
    assert_eq!(a.first_kind, 6);
    assert_eq!(a.call.method, "POST");
    assert!(
        a.call.has_png() && !a.call.ephemeral(),
        "{}",
        a.call.content()
    );
    // A refusal after a public deferral: the deferral is deleted and an
    // ephemeral follow-up explains, in German.
    let id = fake.command(
        BOB,
        "de",
        CHANNEL,
        "move",
        json!([opt("move", 3, json!("3c3d"))]),
    );
    let a = fake.answer(&id, WAIT).await.expect("answered");
    assert_eq!(a.first_kind, 5);
    assert!(a.call.ephemeral(), "{}", a.call.content());
    assert!(a.call.content().contains("am Zug"), "{}", a.call.content());
    let deleted = fake.calls().iter().any(|c| {
        c.method == "DELETE"
            && c.path.contains(&format!("token-{id}"))
            && c.path.ends_with("@original")
    });
    assert!(deleted, "the public deferral was removed");
    bot.shutdown().await;
}

/// The moves of alice's puzzle so far, read from the bot's database.
fn puzzle_state(db: &Path, user: u64) -> Option<(String, Vec<String>)> {
    let conn = rusqlite::Connection::open(db).expect("open db");
    conn.query_row(
        "SELECT puzzle_id, moves FROM puzzle_sessions WHERE user_id = ?1",
        [i64::try_from(user).expect("id")],
        |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)),
    )
    .ok()
    .map(|(id, moves)| (id, moves.split_whitespace().map(String::from).collect()))
}

/// The current position of `user`'s puzzle.
fn puzzle_position(db: &Path, user: u64) -> Position {
    let (id, moves) = puzzle_state(db, user).expect("a puzzle in progress");
    let p = shipped()
        .into_iter()
        .find(|p| p.id == id)
        .expect("a shipped puzzle");
    let mut pos = Position::from_sfen_tsume(&p.sfen).expect("puzzle sfen");
    for m in moves {
        pos.play(Move::from_usi(&m).expect("usi")).expect("legal");
    }
    pos
}

fn autocomplete_choices(a: &Call) -> Vec<Value> {
    a.json["data"]["choices"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles_on_discord_with_move_autocomplete_daily_list_and_streak() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;

    // bob has a game in a thread and starts a random mate-in-3.
    let thread = game_thread(&fake, "en-US").await;
    let a = command(
        &fake,
        BOB,
        "en-US",
        CHANNEL,
        "puzzle",
        json!([opt("mode", 3, json!("random")), opt("plies", 4, json!(3))]),
    )
    .await;
    assert!(a.ephemeral() && a.has_png(), "{}", a.content());
    assert!(a.content().contains("mate in 3 plies"), "{}", a.content());
    let pos = puzzle_position(&db, BOB);

    // Autocomplete lists the puzzle's legal moves (outside the game thread).
    let id = fake.autocomplete(
        BOB,
        "en-US",
        CHANNEL,
        "move",
        json!([{"name": "move", "type": 3, "value": "", "focused": true}]),
    );
    let choices = autocomplete_choices(&answer(&fake, &id).await);
    assert!(!choices.is_empty() && choices.len() <= 25, "{choices:?}");
    let legal: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    for c in &choices {
        let usi = c["value"].as_str().unwrap_or_default();
        assert!(
            legal.iter().any(|m| m == usi),
            "{usi} not legal in the puzzle"
        );
    }
    // Every move of a puzzle must give check: the checks come first, all
    // of them when they fit (so the solution is always offered).
    let checks: Vec<bool> = choices
        .iter()
        .map(|c| pos.gives_check(Move::from_usi(c["value"].as_str().unwrap_or_default()).unwrap()))
        .collect();
    let all_checks = pos
        .legal_moves()
        .iter()
        .filter(|&&m| pos.gives_check(m))
        .count();
    assert!(
        checks.iter().take(all_checks.min(25)).all(|&c| c)
            && checks.iter().skip(all_checks).all(|&c| !c),
        "checks first: {checks:?}"
    );

    // In the game thread /move still plays the game (alice is to move there,
    // so bob is told it is not his turn rather than answering the puzzle).
    let a = command(
        &fake,
        BOB,
        "en-US",
        thread,
        "move",
        json!([opt("move", 3, json!("3c3d"))]),
    )
    .await;
    assert!(a.content().contains("turn"), "{}", a.content());
    assert_eq!(puzzle_state(&db, BOB).map(|s| s.1.len()), Some(0));

    // bob solves the puzzle with /move; each answer carries the diagram.
    let mut pos = pos;
    let mut rounds = 0;
    loop {
        let mut solver = MateSolver::new(5_000_000);
        let n = solver.shortest(&pos, 13).expect("in budget").expect("mate");
        let mv = solver.mating_moves(&pos, n).expect("in budget")[0];
        let a = command(
            &fake,
            BOB,
            "en-US",
            CHANNEL,
            "move",
            json!([opt("move", 3, json!(mv.to_string()))]),
        )
        .await;
        assert!(a.ephemeral() && a.has_png(), "{}", a.content());
        rounds += 1;
        if a.content().starts_with("Checkmate!") {
            break;
        }
        assert!(a.content().contains("is right"), "{}", a.content());
        pos = puzzle_position(&db, BOB);
        assert!(rounds < 3, "a mate in 3 takes two attacker moves");
    }
    assert_eq!(rounds, 2);
    assert!(puzzle_state(&db, BOB).is_none(), "the puzzle is over");

    // The daily puzzle in German: a wrong (quiet) move fails, a second
    // attempt solves it; the list and the streak show it.
    let daily = |user: u64| {
        fake.command(
            user,
            "de",
            CHANNEL,
            "puzzle",
            json!([opt("mode", 3, json!("daily"))]),
        )
    };
    let a = answer(&fake, &daily(CAROL)).await;
    assert!(a.content().starts_with("Tagesproblem. "), "{}", a.content());
    let start = puzzle_position(&db, CAROL);
    let quiet = start
        .legal_moves()
        .into_iter()
        .find(|&m| !start.gives_check(m))
        .expect("a quiet move");
    let a = command(
        &fake,
        CAROL,
        "de",
        CHANNEL,
        "move",
        json!([opt("move", 3, json!(quiet.to_string()))]),
    )
    .await;
    assert!(a.content().contains("kein Schach"), "{}", a.content());
    let a = answer(&fake, &daily(CAROL)).await;
    assert!(a.has_png(), "{}", a.content());
    let mut pos = puzzle_position(&db, CAROL);
    for _ in 0..4 {
        let mut solver = MateSolver::new(5_000_000);
        let n = solver.shortest(&pos, 13).expect("in budget").expect("mate");
        let mv = solver.mating_moves(&pos, n).expect("in budget")[0];
        let a = command(
            &fake,
            CAROL,
            "de",
            CHANNEL,
            "move",
            json!([opt("move", 3, json!(mv.to_string()))]),
        )
        .await;
        if a.content().starts_with("Matt!") {
            assert!(a.content().contains("2. Versuch"), "{}", a.content());
            break;
        }
        pos = puzzle_position(&db, CAROL);
    }
    assert!(puzzle_state(&db, CAROL).is_none(), "solved");
    let a = command(
        &fake,
        ALICE,
        "en-US",
        CHANNEL,
        "puzzle",
        json!([opt("mode", 3, json!("list"))]),
    )
    .await;
    assert!(!a.ephemeral(), "the daily list is public");
    assert!(
        a.content().contains("1. ") && a.content().contains("2 attempt"),
        "{}",
        a.content()
    );
    let a = command(
        &fake,
        CAROL,
        "de",
        CHANNEL,
        "puzzle",
        json!([opt("mode", 3, json!("streak"))]),
    )
    .await;
    assert!(a.content().contains("1 Tag"), "{}", a.content());
    // The daily puzzle cannot be solved twice.
    let a = answer(&fake, &daily(CAROL)).await;
    assert!(a.ephemeral() && !a.has_png(), "{}", a.content());
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_the_computer_with_a_hint_and_an_analysis() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    let before = fake.calls().len();
    let a = command(
        &fake,
        ALICE,
        "en-US",
        CHANNEL,
        "play",
        json!([
            opt("level", 3, json!("beginner")),
            opt("color", 3, json!("sente"))
        ]),
    )
    .await;
    assert!(!a.ephemeral() && a.has_png(), "{}", a.content());
    assert!(
        a.content()
            .contains("Game #1 begins: ☗ Player1 (Sente) vs ☖ komadai (Beginner)"),
        "{}",
        a.content()
    );
    // Like every game, it gets a thread, where it is played.
    let thread = thread_opened(&fake, before).await;
    let thread_id: u64 = thread.parse().expect("thread id");
    // The computer answers the move: in the same reply, or (played by the
    // computer worker) in a message of its own in the thread.
    let a = command(
        &fake,
        ALICE,
        "en-US",
        thread_id,
        "move",
        json!([opt("move", 3, json!("P-7f"))]),
    )
    .await;
    assert!(a.has_png(), "{}", a.content());
    let computer = if a.content().contains("komadai (Beginner) played") {
        Some(a)
    } else {
        fake.wait_for(WAIT, |calls| {
            messages_in(calls, &thread)
                .into_iter()
                .find(|c| c.content().contains("komadai (Beginner) played"))
        })
        .await
    };
    let computer = computer.expect("the computer answered the move");
    assert!(computer.has_png(), "{}", computer.content());
    // A hint, privately, in German.
    let a = command(&fake, ALICE, "de", thread_id, "hint", json!([])).await;
    assert!(a.ephemeral(), "{}", a.content());
    assert!(a.content().starts_with("Tipp: "), "{}", a.content());
    // Resign, then the analysis with its graph.
    let a = command(&fake, ALICE, "en-US", thread_id, "resign", json!([])).await;
    assert!(
        a.ephemeral(),
        "the question is only for Alice: {}",
        a.content()
    );
    assert!(a.content().contains("aborts the game"), "{}", a.content());
    assert_eq!(a.buttons(), ["resign-yes:1", "resign-no:1"]);
    let id = fake.button(ALICE, "en-US", thread_id, "resign-yes:1");
    let a = answer(&fake, &id).await;
    assert!(!a.ephemeral(), "{}", a.content());
    assert!(a.content().contains("is over"), "{}", a.content());
    let a = command(&fake, ALICE, "en-US", thread_id, "analyze", json!([])).await;
    assert!(a.has_png(), "the evaluation graph is attached");
    assert!(
        a.content().starts_with("Analysis of game #1"),
        "{}",
        a.content()
    );
    bot.shutdown().await;
}

/// A stake through Discord's options: both players put it in when the game
/// starts, the winner takes the pot, and `/stats` and `/leaderboard by:` show
/// points and Taler, in German too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stake_goes_to_the_winner_and_the_leaderboard_ranks_by_taler() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    let too_much = command(
        &fake,
        ALICE,
        "de",
        CHANNEL,
        "challenge",
        json!([
            opt("member", 6, json!(BOB.to_string())),
            opt("stake", 4, json!(2000))
        ]),
    )
    .await;
    assert!(
        too_much.ephemeral()
            && too_much
                .content()
                .contains("hat 1000 Taler, zu wenig für einen Einsatz von 2000."),
        "{}",
        too_much.content()
    );
    let a = command(
        &fake,
        ALICE,
        "en-US",
        CHANNEL,
        "challenge",
        json!([
            opt("member", 6, json!(BOB.to_string())),
            opt("color", 3, json!("sente")),
            opt("stake", 4, json!(250))
        ]),
    )
    .await;
    let accept_id = a
        .buttons()
        .into_iter()
        .find(|b| b.starts_with("accept:"))
        .expect("an Accept button");
    let thread: u64 = accept(&fake, BOB, &accept_id)
        .await
        .parse()
        .expect("thread");
    for (i, mv) in [
        "P-7f", "P-3d", "P-2f", "P-8d", "P-2e", "P-8e", "G-7h", "G-3b", "P-2d", "Px2d",
    ]
    .iter()
    .enumerate()
    {
        let who = if i % 2 == 0 { ALICE } else { BOB };
        let a = command(
            &fake,
            who,
            "en-US",
            thread,
            "move",
            json!([opt("move", 3, json!(mv))]),
        )
        .await;
        assert!(!a.ephemeral(), "{}", a.content());
    }
    command(&fake, BOB, "en-US", thread, "resign", json!([])).await;
    let id = fake.button(BOB, "en-US", thread, "resign-yes:1");
    let a = answer(&fake, &id).await;
    assert!(
        a.content().contains("takes the pot of 500 Taler."),
        "{}",
        a.content()
    );
    let a = command(&fake, BOB, "de", CHANNEL, "stats", json!([])).await;
    assert!(
        a.content().contains("-10 Punkte, 750 Taler;"),
        "{}",
        a.content()
    );
    let a = command(
        &fake,
        BOB,
        "en-US",
        CHANNEL,
        "leaderboard",
        json!([opt("by", 3, json!("taler"))]),
    )
    .await;
    assert!(
        a.content().starts_with("Leaderboard by Taler:\n1. ")
            && a.content().contains("— 1250 Taler (1 game)\n2. ")
            && a.content().ends_with("— 750 Taler (1 game)"),
        "{}",
        a.content()
    );
    bot.shutdown().await;
}

/// `/danger` in German: autocomplete lists the pieces that can move by name
/// and square, and the answer is a private board with the help drawn on it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn danger_help_with_autocomplete_in_german() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    let thread = game_thread(&fake, "de").await;
    let id = fake.autocomplete(
        ALICE,
        "de",
        thread,
        "danger",
        json!([{"name": "piece", "type": 3, "value": "Läufer", "focused": true}]),
    );
    let a = answer(&fake, &id).await;
    let choices: Vec<(String, String)> = a.json["data"]["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            (
                c["name"].as_str().unwrap_or_default().to_string(),
                c["value"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    // At the start only the pieces that can move are offered: the bishop
    // cannot, so typing its German name finds nothing; the rook can.
    assert!(choices.is_empty(), "{choices:?}");
    let id = fake.autocomplete(
        ALICE,
        "de",
        thread,
        "danger",
        json!([{"name": "piece", "type": 3, "value": "Turm", "focused": true}]),
    );
    let a = answer(&fake, &id).await;
    assert_eq!(
        a.json["data"]["choices"],
        json!([{"name": "Turm auf 2h", "value": "2h"}]),
        "{}",
        a.json
    );
    let a = command(
        &fake,
        ALICE,
        "de",
        thread,
        "danger",
        json!([opt("piece", 3, json!("2h"))]),
    )
    .await;
    assert!(a.ephemeral() && a.has_png(), "{}", a.content());
    assert!(
        a.content().starts_with("Gefahrencheck, Partie #1: keiner deiner Steine hängt. Dein Stein (Turm auf 2h): 6 sichere Felder (grün)"),
        "{}",
        a.content()
    );
    bot.shutdown().await;
}

/// A clock that panics once when armed: a bug inside a use case, while it
/// holds the store and has a transaction open.
struct TrapClock {
    time: ManualClock,
    armed: std::sync::atomic::AtomicBool,
}

impl Clock for TrapClock {
    fn now(&self) -> i64 {
        if self.armed.swap(false, std::sync::atomic::Ordering::SeqCst) {
            panic!("a bug in a use case (test trap)");
        }
        self.time.now()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_use_case_gets_an_apology_and_the_bot_stays_up() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let clock = Arc::new(TrapClock {
        time: ManualClock::new(START),
        armed: std::sync::atomic::AtomicBool::new(false),
    });
    let bot = start_bot(&fake, &db, clock.clone(), 1).await;
    let thread = game_thread(&fake, "en-US").await;
    let arm = || clock.armed.store(true, std::sync::atomic::Ordering::SeqCst);
    // /board reads the clock inside its transaction: the panic unwinds
    // through the open transaction and the store's lock.
    arm();
    let a = command(&fake, ALICE, "de", thread, "board", json!([])).await;
    assert!(a.ephemeral() && !a.has_png(), "{}", a.content());
    assert!(a.content().starts_with("Entschuldigung"), "{}", a.content());
    // Everything still works afterwards: the board, a move, autocomplete.
    let a = command(&fake, ALICE, "en-US", thread, "board", json!([])).await;
    assert!(a.has_png(), "{}", a.content());
    let a = command(
        &fake,
        ALICE,
        "en-US",
        thread,
        "move",
        json!([opt("move", 3, json!("7g7f"))]),
    )
    .await;
    assert!(a.has_png() && !a.ephemeral(), "{}", a.content());
    let id = fake.autocomplete(
        BOB,
        "en-US",
        thread,
        "move",
        json!([{"name": "move", "type": 3, "value": "3c", "focused": true}]),
    );
    let choices = autocomplete_choices(&answer(&fake, &id).await);
    assert!(choices.iter().any(|c| c["value"] == "3c3d"), "{choices:?}");
    bot.shutdown().await;
}

/// A long game between alice and bob, stored through the library in `db`
/// and resigned: its analysis keeps the engine busy for seconds.
fn store_a_long_finished_game(db: &Path, plies: usize) {
    use komadai::app::{Action, Caller, ChallengeOptions, Place};
    use komadai::i18n::Lang;
    let app = App::new(
        Store::open(db).expect("store"),
        Arc::new(ManualClock::new(START)),
        Arc::new(SeededDice::new(1)),
    );
    let id = |u: u64| i64::try_from(u).expect("id");
    let alice = Caller::new(id(ALICE), "alice", Lang::En);
    let bob = Caller::new(id(BOB), "bob", Lang::En);
    let place = Place {
        guild: Some(id(fake_discord::GUILD)),
        channel: Some(id(CHANNEL)),
    };
    let opts = ChallengeOptions {
        color: Some(komadai::shogi::Color::Sente),
        rated: false,
        ..ChallengeOptions::default()
    };
    app.challenge(&alice, Some((bob.id, "bob")), &opts, place)
        .expect("challenge");
    let game = app
        .accept(&bob, 1, place)
        .expect("accept")
        .board
        .expect("board")
        .game_id;
    // Seeded random moves that never end the game early.
    let mut rng = fastrand::Rng::with_seed(17);
    let mut g = komadai::shogi::Game::new(Position::startpos(), Default::default());
    while g.moves().len() < plies {
        let legal = g.position().legal_moves();
        let ok: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| matches!(g.clone().play(m), Ok(None)))
            .collect();
        let Some(&m) = ok.get(rng.usize(..ok.len().max(1))) else {
            break;
        };
        let who = if g.moves().len() % 2 == 0 {
            &alice
        } else {
            &bob
        };
        app.move_command(who, Some(game), &m.to_string(), place, None)
            .expect("move");
        g.play(m).expect("legal");
    }
    app.game_action(&alice, Some(game), Action::Resign, place)
        .expect("resign");
}

/// The real binary: SIGTERM while an analysis is running (deferred at once
/// with `--defer-ms 0`): the app stops its searches, the interaction still
/// gets an answer, the process exits cleanly within 2 s (the bound;
/// measured here only as a failure signal) and the database is intact.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_during_an_analysis_exits_within_two_seconds() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    store_a_long_finished_game(&db, 240);
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_komadai"))
        .args(["serve", "--defer-ms", "0"])
        .env("DISCORD_TOKEN", "fake-token")
        .env("DISCORD_API_BASE", fake.base())
        .env("KOMADAI_DB", &db)
        .env_remove("DEV_GUILD_ID")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("komadai starts");
    assert!(
        fake.wait_sessions(1, WAIT).await,
        "the bot did not connect to the fake gateway"
    );
    let id = fake.command(ALICE, "en-US", CHANNEL, "analyze", json!([]));
    let callback = format!("/interactions/{id}/token-{id}/callback");
    let deferred = fake
        .wait_for(WAIT, |calls| {
            calls
                .iter()
                .find(|c| c.path == callback && c.kind() == 5)
                .cloned()
        })
        .await;
    assert!(deferred.is_some(), "the /analyze was deferred");
    // Let the analysis get going.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let pid = child
        .id()
        .and_then(|p| i32::try_from(p).ok())
        .and_then(rustix::process::Pid::from_raw)
        .expect("pid");
    let signalled = std::time::Instant::now();
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).expect("SIGTERM");
    let status = tokio::time::timeout(WAIT, child.wait())
        .await
        .expect("exits within 20 s")
        .expect("wait");
    let took = signalled.elapsed();
    let mut log = String::new();
    if let Some(mut e) = child.stdout.take() {
        use tokio::io::AsyncReadExt;
        let _ = e.read_to_string(&mut log).await;
    }
    println!("SIGTERM to exit: {took:?}");
    assert!(status.success(), "exit {status:?}: {log}");
    assert!(took < Duration::from_secs(2), "exit took {took:?}: {log}");
    assert!(!log.contains("panicked"), "{log}");
    // The deferred analysis got an answer before the exit (the analysis,
    // or "restarting" when shutdown overtook it).
    let a = fake
        .answer(&id, Duration::from_millis(100))
        .await
        .expect("the /analyze was answered before the exit");
    println!("the analysis was answered with: {}", a.call.content());
    assert!(a.call.ephemeral(), "{}", a.call.content());
    let conn = rusqlite::Connection::open(&db).expect("open db");
    let ok: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("integrity");
    assert_eq!(ok, "ok");
    let moves: i64 = conn
        .query_row("SELECT COUNT(*) FROM moves", [], |r| r.get(0))
        .expect("moves");
    assert_eq!(moves, 240, "the stored game is intact");
}

/// The (label, disabled) of each button of a message.
fn button_states(call: &Call) -> Vec<(String, bool)> {
    let mut v = Vec::new();
    for row in call.message()["components"]
        .as_array()
        .into_iter()
        .flatten()
    {
        for b in row["components"].as_array().into_iter().flatten() {
            v.push((
                b["custom_id"].as_str().unwrap_or("").to_string(),
                b["disabled"].as_bool().unwrap_or(false),
            ));
        }
    }
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_steps_with_buttons_that_edit_the_message() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    let thread = game_thread(&fake, "en-US").await;
    for (user, mv) in [(ALICE, "7g7f"), (BOB, "3c3d")] {
        let id = fake.command(
            user,
            "en-US",
            thread,
            "move",
            json!([opt("move", 3, json!(mv))]),
        );
        assert!(answer(&fake, &id).await.has_png());
    }
    let a = command(&fake, BOB, "en-US", thread, "replay", json!([])).await;
    assert!(a.ephemeral() && a.has_png(), "{}", a.content());
    assert!(a.content().contains("ply 2 of 2: ☖P-3d"), "{}", a.content());
    let states = button_states(&a);
    let ids: Vec<&str> = states.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "replay-first:1:0",
            "replay-back:1:1",
            "replay-next:1:2",
            "replay-last:1:2"
        ]
    );
    let disabled: Vec<bool> = states.iter().map(|s| s.1).collect();
    assert_eq!(disabled, [false, false, true, true]);
    // Pressing "start" acknowledges and edits the message in place, with a
    // fresh board attachment replacing the old one.
    let id = fake.button(BOB, "de", thread, "replay-first:1:0");
    let a = fake.answer(&id, WAIT).await.expect("answered");
    assert_eq!(a.first_kind, 6);
    assert_eq!(a.call.method, "PATCH", "{}", a.call.path);
    assert!(
        a.call.path.ends_with("/messages/@original"),
        "{}",
        a.call.path
    );
    assert!(a.call.has_png(), "the board is re-attached");
    let attachments = a.call.json["attachments"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(attachments.len(), 1, "{}", a.call.json);
    assert!(
        a.call.content().contains("Anfangsstellung"),
        "{}",
        a.call.content()
    );
    let disabled: Vec<bool> = button_states(&a.call).iter().map(|s| s.1).collect();
    assert_eq!(disabled, [true, true, false, false]);
    // The whole game as an animated GIF, privately.
    let a = command(
        &fake,
        BOB,
        "en-US",
        thread,
        "export",
        json!([opt("format", 3, json!("gif"))]),
    )
    .await;
    assert!(a.ephemeral(), "{}", a.content());
    assert!(a.content().contains("as GIF"), "{}", a.content());
    let gif = a
        .files
        .iter()
        .find(|(_, name, _)| name == "komadai-1.gif")
        .expect("the GIF is attached");
    assert!(gif.2.starts_with(b"GIF89a"), "a GIF file");
    // The German registration name exists.
    let registered = fake
        .calls()
        .into_iter()
        .find(|c| c.method == "PUT" && c.path.ends_with("/commands"))
        .expect("registration");
    assert!(registered
        .json
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| { c["name"] == "replay" && c["name_localizations"]["de"] == "nachspielen" }));
    bot.shutdown().await;
}

/// A `.env` file in the working directory is read (variables already set win).
#[test]
fn a_dotenv_file_configures_the_database() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join(".env"),
        "# komadai settings\nKOMADAI_DB=from-dotenv.db\n",
    )
    .expect("write .env");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_komadai"))
        .arg("console")
        .current_dir(dir.path())
        .env_remove("KOMADAI_DB")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("console");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        writeln!(stdin, "alice challenge @bob").expect("write");
    }
    assert!(child.wait().expect("wait").success());
    assert!(dir.path().join("from-dotenv.db").exists());
    assert!(!dir.path().join("komadai.db").exists());
    // A broken .env is an error, not silently ignored.
    std::fs::write(dir.path().join(".env"), "KOMADAI_DB='unterminated\n").expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_komadai"))
        .args(["perft", "1"])
        .current_dir(dir.path())
        .output()
        .expect("run");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains(".env"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn learn_with_its_own_move_autocomplete() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    let a = command(&fake, CAROL, "de", CHANNEL, "learn", json!([])).await;
    assert!(a.ephemeral() && a.has_png(), "{}", a.content());
    assert!(a.content().starts_with("Lektion 1/15"), "{}", a.content());
    // The `move` option lists the lesson's legal moves (carol has no game).
    let id = fake.autocomplete(
        CAROL,
        "de",
        CHANNEL,
        "learn",
        json!([{"name": "move", "type": 3, "value": "5", "focused": true}]),
    );
    let choices = autocomplete_choices(&answer(&fake, &id).await);
    let values: Vec<&str> = choices.iter().filter_map(|c| c["value"].as_str()).collect();
    assert!(values.contains(&"5f5e"), "{values:?}");
    let a = command(
        &fake,
        CAROL,
        "de",
        CHANNEL,
        "learn",
        json!([opt("move", 3, json!("5f5e"))]),
    )
    .await;
    assert!(a.content().starts_with("Richtig"), "{}", a.content());
    assert!(a.content().contains("Lektion 2/15"), "{}", a.content());
    bot.shutdown().await;
}

// ---------------------------------------------------------------------------
// Fault injection: Discord failing in the ways it does.
// ---------------------------------------------------------------------------

/// Accepted messages containing `needle`, in any channel.
fn posted(fake: &Fake, needle: &str) -> Vec<Call> {
    fake.calls()
        .into_iter()
        .filter(|c| {
            c.method == "POST"
                && c.path.starts_with("/channels/")
                && c.path.ends_with("/messages")
                && c.ok()
                && c.content().contains(needle)
        })
        .collect()
}

/// A game whose deadline passes: alice and bob start a game (3 days per
/// move) and the clock moves 4 days; returns the thread.
async fn timed_out_game(
    fake: &Fake,
    clock: &ManualClock,
    before_timeout: impl FnOnce(&str),
) -> String {
    let accept_id = challenge(fake, ALICE, BOB, "en-US").await;
    let thread = accept(fake, BOB, &accept_id).await;
    before_timeout(&thread);
    clock.advance(4 * 86_400);
    thread
}

/// The thread was deleted (404 Unknown Channel) or the bot lost access to
/// it (403 Missing Access): the timeout notice goes to the game's channel,
/// once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notice_to_a_deleted_or_closed_thread_falls_back_to_the_channel() {
    for fault in [Fault::UnknownChannel, Fault::MissingAccess] {
        let fake = Fake::start().await;
        let (_dir, db) = temp_db();
        let clock = Arc::new(ManualClock::new(START));
        let bot = start_bot(&fake, &db, clock.clone(), 1).await;
        let thread = timed_out_game(&fake, &clock, |thread| {
            fake.fail(
                "POST",
                &format!("/channels/{thread}/messages"),
                fault.clone(),
                None,
            );
        })
        .await;
        let channel = CHANNEL.to_string();
        let notice = fake
            .wait_for(WAIT, |calls| {
                messages_in(calls, &channel)
                    .into_iter()
                    .find(|c| c.content().contains("is over"))
            })
            .await;
        assert!(
            notice.is_some(),
            "{fault:?}: the timeout reached the channel"
        );
        let refused = fake
            .calls()
            .iter()
            .filter(|c| c.fault == Some(fault.clone()))
            .count();
        assert!(refused >= 1, "{fault:?}: the thread was tried first");
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert_eq!(
            posted(&fake, "is over").len(),
            1,
            "{fault:?}: delivered once"
        );
        assert!(messages_in(&fake.calls(), &thread)
            .iter()
            .all(|c| !c.content().contains("is over")));
        bot.shutdown().await;
    }
}

/// 429 with `retry_after`: the notice is sent again only after the limit
/// has passed, arrives once, and the bot does not hammer the route.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limited_notice_is_retried_after_retry_after() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let clock = Arc::new(ManualClock::new(START));
    let bot = start_bot(&fake, &db, clock.clone(), 1).await;
    let thread = timed_out_game(&fake, &clock, |thread| {
        fake.fail(
            "POST",
            &format!("/channels/{thread}/messages"),
            Fault::RateLimited(1.5),
            Some(1),
        );
    })
    .await;
    let delivered = fake
        .wait_for(WAIT, |calls| {
            messages_in(calls, &thread)
                .into_iter()
                .find(|c| c.content().contains("is over"))
        })
        .await
        .expect("the timeout arrives after the rate limit");
    let path = format!("/channels/{thread}/messages");
    let limited: Vec<Call> = fake
        .calls()
        .into_iter()
        .filter(|c| c.path == path && c.status == 429)
        .collect();
    let first = limited.first().expect("a 429 was answered");
    let waited = delivered.at.saturating_duration_since(first.at);
    println!(
        "429: {} limited answers, delivered {waited:?} after the first",
        limited.len()
    );
    assert!(
        waited >= Duration::from_millis(1500),
        "retried after {waited:?}"
    );
    assert!(
        limited.len() <= 3,
        "{} requests into the limit",
        limited.len()
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(posted(&fake, "is over").len(), 1);
    bot.shutdown().await;
}

/// 500 and 502: retried, first within the attempt, then by the outbox
/// after a pause; the notice is not dropped and arrives once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_errors_are_retried_later_not_dropped() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let clock = Arc::new(ManualClock::new(START));
    let bot = start_bot(&fake, &db, clock.clone(), 1).await;
    let thread = timed_out_game(&fake, &clock, |thread| {
        let path = format!("/channels/{thread}/messages");
        // More failures than one attempt retries: the outbox tries again.
        fake.fail("POST", &path, Fault::Status(500), Some(3));
        fake.fail("POST", &path, Fault::Status(502), Some(3));
    })
    .await;
    // The outbox waits (30 s, doubling) before it tries a failed notice
    // again: move the bot's clock on while waiting.
    let ticking = {
        let clock = clock.clone();
        tokio::spawn(async move {
            for _ in 0..100 {
                tokio::time::sleep(Duration::from_millis(300)).await;
                clock.advance(60);
            }
        })
    };
    let delivered = fake
        .wait_for(Duration::from_secs(40), |calls| {
            messages_in(calls, &thread)
                .into_iter()
                .find(|c| c.content().contains("is over"))
        })
        .await;
    ticking.abort();
    assert!(
        delivered.is_some(),
        "the timeout arrives after six server errors"
    );
    let path = format!("/channels/{thread}/messages");
    let failed = fake
        .calls()
        .iter()
        .filter(|c| c.path == path && c.status >= 500)
        .count();
    assert_eq!(failed, 6);
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(posted(&fake, "is over").len(), 1);
    bot.shutdown().await;
}

/// A reminder for a player whose DMs are closed (50007): the DM option is
/// turned off, the thread says so once, and the reminders still arrive there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_dms_turn_reminder_dms_off_with_one_note() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let clock = Arc::new(ManualClock::new(START));
    let bot = start_bot(&fake, &db, clock.clone(), 1).await;
    let a = command(
        &fake,
        ALICE,
        "en-US",
        CHANNEL,
        "settings",
        json!([opt("dms", 5, json!(true))]),
    )
    .await;
    assert!(a.ephemeral());
    let accept_id = challenge(&fake, ALICE, BOB, "en-US").await;
    let thread = accept(&fake, BOB, &accept_id).await;
    fake.close_dms(ALICE);
    // Half time, then 10 % left: two reminders.
    clock.advance(2 * 86_400);
    let note = fake
        .wait_for(WAIT, |calls| {
            messages_in(calls, &thread)
                .into_iter()
                .find(|c| c.content().contains("direct messages"))
        })
        .await
        .expect("the note in the thread");
    assert!(note.content().contains(&format!("<@{ALICE}>")));
    // 6 h of 72 h left: under 10 %.
    clock.advance(18 * 3600);
    let two = fake
        .wait_for(WAIT, |calls| {
            let n = messages_in(calls, &thread)
                .iter()
                .filter(|c| c.content().contains("Reminder"))
                .count();
            (n >= 2).then_some(n)
        })
        .await;
    assert_eq!(two, Some(2), "both reminders in the thread");
    tokio::time::sleep(Duration::from_millis(600)).await;
    let calls = fake.calls();
    let notes = messages_in(&calls, &thread)
        .iter()
        .filter(|c| c.content().contains("direct messages"))
        .count();
    assert_eq!(notes, 1, "said once");
    let dm_tries = calls
        .iter()
        .filter(|c| c.path == "/users/@me/channels")
        .count();
    assert_eq!(dm_tries, 1, "no DM once the option is off");
    bot.shutdown().await;
}

/// Discord answering 2.5 s late in one thread does not hold up the notices
/// of other games, nor the answers to interactions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_thread_does_not_hold_up_other_notices() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let clock = Arc::new(ManualClock::new(START));
    let bot = start_bot(&fake, &db, clock.clone(), 1).await;
    let slow = game_thread(&fake, "en-US").await.to_string();
    let accept_id = challenge(&fake, CAROL, BOB, "en-US").await;
    let quick = accept(&fake, BOB, &accept_id).await;
    fake.fail(
        "POST",
        &format!("/channels/{slow}/messages"),
        Fault::Delay(Duration::from_millis(2500)),
        None,
    );
    clock.advance(4 * 86_400);
    let over_in = |thread: &str| {
        let thread = thread.to_string();
        move |calls: &[Call]| {
            messages_in(calls, &thread)
                .into_iter()
                .find(|c| c.content().contains("is over"))
        }
    };
    // While the slow thread is pending, an interaction is answered in time.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let a = command(&fake, CAROL, "en-US", CHANNEL, "games", json!([])).await;
    assert!(a.ephemeral());
    let quick_at = fake
        .wait_for(WAIT, over_in(&quick))
        .await
        .expect("quick")
        .at;
    let slow_at = fake.wait_for(WAIT, over_in(&slow)).await.expect("slow").at;
    assert!(
        quick_at < slow_at,
        "the other game's notice came first ({:?} earlier)",
        slow_at.saturating_duration_since(quick_at)
    );
    bot.shutdown().await;
}

/// The first answer to an interaction failing with a 500 or a 429 is
/// retried within Discord's three seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interaction_answers_are_retried_after_server_errors_and_rate_limits() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    for fault in [
        Fault::Status(500),
        Fault::Status(502),
        Fault::RateLimited(0.5),
    ] {
        fake.fail("POST", "/callback", fault.clone(), Some(1));
        let a = command(&fake, ALICE, "en-US", CHANNEL, "games", json!([])).await;
        assert!(a.ephemeral(), "{fault:?}: {}", a.content());
        fake.heal();
    }
    let failed = fake.calls().iter().filter(|c| c.fault.is_some()).count();
    assert_eq!(failed, 3);
    bot.shutdown().await;
}

/// Discord refuses the answer to a move (404 Unknown interaction): the move
/// is stored and the opponent still gets it, with the board, in the thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_move_answer_still_reaches_the_thread() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    let thread = game_thread(&fake, "en-US").await;
    fake.fail("POST", "/callback", Fault::Json(404, 10062), None);
    let _ = fake.command(
        ALICE,
        "en-US",
        thread,
        "move",
        json!([opt("move", 3, json!("7g7f"))]),
    );
    let posted = fake
        .wait_for(WAIT, |calls| {
            messages_in(calls, &thread.to_string())
                .into_iter()
                .find(|c| c.content().contains("P-7f"))
        })
        .await
        .expect("the move reaches the thread");
    assert!(
        posted.content().contains(&format!("<@{BOB}>")),
        "{}",
        posted.content()
    );
    assert!(posted.has_png());
    bot.shutdown().await;
    let store = Store::open(&db).expect("store");
    assert_eq!(
        store.read(|r| r.moves(1)).expect("moves"),
        vec!["7g7f".to_string()]
    );
}

/// The gateway connection drops without a close frame: the bot resumes and
/// answers the next interaction.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_resumes_after_the_gateway_drops() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    for round in 1..=2 {
        fake.drop_gateway();
        let back = fake
            .wait_for(Duration::from_secs(30), |_| fake.connected().then_some(()))
            .await;
        assert!(back.is_some(), "round {round}: the bot came back");
        let a = command(&fake, ALICE, "en-US", CHANNEL, "games", json!([])).await;
        assert!(a.ephemeral(), "round {round}: {}", a.content());
    }
    println!("resumed {} times", fake.resumes());
    bot.shutdown().await;
}

/// Conditional premoves, following by DM and vacation, through Discord:
/// a premove answers in the same reply, the follower gets every move in a
/// German DM, and the opponent is told of the vacation in the thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn premoves_following_and_vacation_on_discord() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    let thread = game_thread(&fake, "en-US").await;
    let a = command(
        &fake,
        CAROL,
        "de",
        CHANNEL,
        "settings",
        json!([opt("language", 3, json!("de"))]),
    )
    .await;
    assert!(a.ephemeral(), "{}", a.content());
    let a = command(
        &fake,
        CAROL,
        "de",
        CHANNEL,
        "follow",
        json!([opt("game", 4, json!(1))]),
    )
    .await;
    assert!(
        a.ephemeral() && a.content().starts_with("Du folgst jetzt der Partie #1"),
        "{}",
        a.content()
    );
    let a = command(
        &fake,
        ALICE,
        "en-US",
        thread,
        "move",
        json!([opt("move", 3, json!("7g7f"))]),
    )
    .await;
    assert!(!a.ephemeral(), "{}", a.content());
    let a = command(
        &fake,
        ALICE,
        "en-US",
        thread,
        "premove",
        json!([opt("line", 3, json!("3c3d 2g2f 8c8d 2f2e"))]),
    )
    .await;
    assert!(
        a.ephemeral()
            && a.content()
                .contains("1. if P-3d → P-2f, then if P-8d → P-2e"),
        "{}",
        a.content()
    );
    let a = command(
        &fake,
        BOB,
        "de",
        thread,
        "premove",
        json!([opt("line", 3, json!("2g2f"))]),
    )
    .await;
    assert!(
        a.ephemeral() && a.content().starts_with("Du bist am Zug"),
        "{}",
        a.content()
    );
    // bob's move is the condition: alice's answer comes in the same reply.
    let a = command(
        &fake,
        BOB,
        "en-US",
        thread,
        "move",
        json!([opt("move", 3, json!("3c3d"))]),
    )
    .await;
    assert!(
        a.content()
            .contains("Player1 had prepared the answer (conditional premove):")
            && a.content().contains("(P-2f)"),
        "{}",
        a.content()
    );
    // carol gets all three moves by DM, in her language, with the thread's link.
    let dm = (900_000_000_000_000_000 + CAROL - 1).to_string();
    let dms = fake
        .wait_for(WAIT, |calls| {
            let got = messages_in(calls, &dm);
            (got.len() >= 3).then_some(got)
        })
        .await
        .expect("three DMs to the follower");
    assert!(
        dms.iter().all(|c| c.content().starts_with("[gefolgt] #1: ")
            && c.content().contains(&format!("<#{thread}>"))),
        "{:#?}",
        dms.iter().map(Call::content).collect::<Vec<_>>()
    );
    assert!(dms
        .iter()
        .any(|c| c.content().contains("alice zieht ▲２六歩 (P-2f)")
            || c.content().contains("(P-2f)")));
    // bob goes on vacation in German; alice is told in the thread in English.
    let a = command(
        &fake,
        BOB,
        "de",
        CHANNEL,
        "vacation",
        json!([opt("state", 3, json!("on"))]),
    )
    .await;
    assert!(
        a.ephemeral()
            && a.content().starts_with("Du bist im Urlaub")
            && a.content().contains("1 davon jetzt angehalten"),
        "{}",
        a.content()
    );
    let away = fake
        .wait_for(WAIT, |calls| {
            messages_in(calls, &thread.to_string())
                .into_iter()
                .find(|c| c.content().contains("is on vacation until"))
        })
        .await
        .expect("the thread is told");
    assert!(
        away.content().contains(&format!("<@{ALICE}>")),
        "{}",
        away.content()
    );
    let a = command(
        &fake,
        BOB,
        "de",
        CHANNEL,
        "vacation",
        json!([opt("state", 3, json!("off"))]),
    )
    .await;
    assert!(
        a.content().starts_with("Willkommen zurück")
            && a.content().contains("1 Partie mit der Zeit fortgesetzt"),
        "{}",
        a.content()
    );
    let back = fake
        .wait_for(WAIT, |calls| {
            messages_in(calls, &thread.to_string())
                .into_iter()
                .find(|c| {
                    c.content()
                        .contains("is back from vacation and to move by <t:")
                })
        })
        .await;
    assert!(back.is_some(), "the thread is told of the return");
    // bob leaves alice's line (P-4d, not P-8d): she alone hears of it, by DM.
    let a = command(
        &fake,
        BOB,
        "en-US",
        thread,
        "move",
        json!([opt("move", 3, json!("4c4d"))]),
    )
    .await;
    assert!(!a.content().contains("prepared"), "{}", a.content());
    let alice_dm = (900_000_000_000_000_000 + ALICE - 1).to_string();
    let dropped = fake
        .wait_for(WAIT, |calls| {
            messages_in(calls, &alice_dm).into_iter().next()
        })
        .await
        .expect("alice is told her line was dropped");
    assert!(
        dropped.content().starts_with(
            "Game #1: your opponent played △４四歩 (P-4d), which none of your premove lines expected."
        ) && dropped.content().contains(&format!("<#{thread}>")),
        "{}",
        dropped.content()
    );
    bot.shutdown().await;
}

/// Server settings need Manage Server and apply to the next challenge and
/// game; /games server lists it; /privacy answers privately with an Erase
/// button that waits for the running game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_settings_games_list_and_privacy_on_discord() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    let id = fake.command_unprivileged(
        CAROL,
        "en-US",
        CHANNEL,
        "server",
        json!([opt("rated", 5, json!(false))]),
    );
    let a = answer(&fake, &id).await;
    assert!(
        a.ephemeral()
            && a.content()
                .starts_with("Only members with the Manage Server permission"),
        "{}",
        a.content()
    );
    let a = command(
        &fake,
        ALICE,
        "de",
        CHANNEL,
        "server",
        json!([
            opt("rated", 5, json!(false)),
            opt("days", 4, json!(7)),
            opt("threads", 5, json!(false)),
            opt("language", 3, json!("de"))
        ]),
    )
    .await;
    assert!(
        a.ephemeral()
            && a.content().starts_with("Servereinstellungen gespeichert.")
            && a.content().contains("keine Threads"),
        "{}",
        a.content()
    );
    // bob's client speaks English, but he chose nothing: the server's German.
    let a = command(
        &fake,
        BOB,
        "en-US",
        CHANNEL,
        "challenge",
        json!([opt("member", 6, json!(ALICE.to_string()))]),
    )
    .await;
    assert!(
        a.content().contains("Player2 fordert Player1 heraus")
            && a.content().contains("7 Tage pro Zug, freundschaftlich"),
        "{}",
        a.content()
    );
    let accept = a
        .buttons()
        .into_iter()
        .find(|b| b.starts_with("accept:"))
        .expect("Accept");
    let before = fake.calls().len();
    let id = fake.button(ALICE, "de", CHANNEL, &accept);
    let a = answer(&fake, &id).await;
    assert!(a.content().contains("Partie #1 beginnt"), "{}", a.content());
    let a = command(
        &fake,
        CAROL,
        "en-US",
        CHANNEL,
        "games",
        json!([opt("server", 5, json!(true))]),
    )
    .await;
    assert!(
        a.ephemeral()
            && a.content()
                .contains("Laufende Partien auf diesem Server (1):\n#1 ☗"),
        "{}",
        a.content()
    );
    // Threads are off here: no thread was opened for the game.
    let threads = format!("/channels/{CHANNEL}/threads");
    assert!(
        !fake.calls_from(before).iter().any(|c| c.path == threads),
        "a thread was opened"
    );
    let a = command(&fake, ALICE, "en-US", CHANNEL, "privacy", json!([])).await;
    assert!(
        a.ephemeral()
            && a.content().starts_with("Was komadai über dich speichert")
            && a.content().contains("1 Partie (1 laufend)"),
        "{}",
        a.content()
    );
    assert_eq!(a.buttons(), vec![format!("erase-yes:{ALICE}")]);
    let id = fake.button(CAROL, "en-US", CHANNEL, &format!("erase-yes:{ALICE}"));
    assert!(answer(&fake, &id)
        .await
        .content()
        .contains("jemand anderem"));
    let id = fake.button(ALICE, "en-US", CHANNEL, &format!("erase-yes:{ALICE}"));
    let a = answer(&fake, &id).await;
    assert!(
        a.content().starts_with("Du spielst noch 1 Partie"),
        "{}",
        a.content()
    );
    bot.shutdown().await;
}

/// The first accepted message after call `before` whose content contains
/// `needle`: (channel, message).
async fn wait_posted(fake: &Fake, before: usize, needle: &str) -> (String, Call) {
    fake.wait_for(WAIT, |calls| {
        calls
            .get(before..)
            .unwrap_or_default()
            .iter()
            .find_map(|c| {
                let is_post = c.method == "POST"
                    && c.path.starts_with("/channels/")
                    && c.path.ends_with("/messages")
                    && c.ok();
                (is_post && c.content().contains(needle)).then(|| {
                    (
                        c.path.split('/').nth(2).unwrap_or("").to_string(),
                        c.clone(),
                    )
                })
            })
    })
    .await
    .unwrap_or_else(|| panic!("nothing posted with {needle:?}"))
}

/// The game a league round started, from its first message in its new
/// thread: (thread, game, sente, gote).
async fn league_game(fake: &Fake, before: usize, round: usize) -> (u64, i64, u64, u64) {
    let (thread, first) = wait_posted(fake, before, &format!("round {round} of 3.\nGame #")).await;
    assert!(thread.starts_with('8'), "in its own thread: {thread}");
    assert!(first.has_png(), "with the board");
    let text = first.content();
    let game: i64 = text
        .split_once("Game #")
        .and_then(|(_, r)| r.split_once(' '))
        .and_then(|(n, _)| n.parse().ok())
        .expect("a game id");
    let user = |side: &str| {
        [ALICE, BOB, CAROL]
            .into_iter()
            .find(|u| text.contains(&format!("{side} Player{} (", u % 100_000)))
            .expect("a player")
    };
    (
        thread.parse().expect("thread id"),
        game,
        user("☗"),
        user("☖"),
    )
}

/// A league on Discord from the sign-up button to the final standings:
/// three members (one speaks German), a round robin of three rounds with a
/// bye each, every game in its own thread; a resignation, a timeout and a
/// withdrawal; the final standings with their table image in the channel.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_league_on_discord_from_sign_up_to_final_standings() {
    let fake = Fake::start().await;
    let (_dir, db) = temp_db();
    let clock = Arc::new(ManualClock::new(START));
    let bot = start_bot(&fake, &db, clock.clone(), 1).await;
    let sub = |name: &str, options: Value| json!([{"name": name, "type": 1, "options": options}]);
    // Without Manage Server, or with a start too far ahead: refused.
    let id = fake.command_unprivileged(
        BOB,
        "en-US",
        CHANNEL,
        "league",
        sub("create", json!([opt("name", 3, json!("Spring Cup"))])),
    );
    assert!(answer(&fake, &id).await.content().contains("Manage Server"));
    let far = sub(
        "create",
        json!([
            opt("name", 3, json!("Spring Cup")),
            opt("start", 3, json!("2099-01-01"))
        ]),
    );
    let a = command(&fake, ALICE, "de", CHANNEL, "league", far).await;
    assert!(
        a.ephemeral() && a.content().contains("in 90 Tagen"),
        "{}",
        a.content()
    );
    let created = command(
        &fake,
        ALICE,
        "en-US",
        CHANNEL,
        "league",
        sub(
            "create",
            json!([
                opt("name", 3, json!("Spring Cup")),
                opt("days", 4, json!(1))
            ]),
        ),
    )
    .await;
    assert!(
        !created.ephemeral()
            && created
                .content()
                .contains("created the league **Spring Cup** (#1)"),
        "{}",
        created.content()
    );
    assert_eq!(created.buttons(), vec!["league-join:1", "league-leave:1"]);
    // Members join with the button; bob's client speaks German.
    for (user, locale, said) in [
        (
            ALICE,
            "en-US",
            "Player1 joined **Spring Cup** (#1): 1 of 16 players.",
        ),
        (
            BOB,
            "de",
            "Player2 ist der Liga **Spring Cup** (#1) beigetreten: 2 von 16 Spielern.",
        ),
        (
            CAROL,
            "en-US",
            "Player3 joined **Spring Cup** (#1): 3 of 16 players.",
        ),
        (BOB, "de", "Du bist schon in dieser Liga."),
    ] {
        let id = fake.button(user, locale, CHANNEL, "league-join:1");
        let a = answer(&fake, &id).await;
        assert!(a.content().contains(said), "{}", a.content());
    }
    // The manager starts it now instead of in a week.
    let before = fake.calls().len();
    let a = command(
        &fake,
        ALICE,
        "en-US",
        CHANNEL,
        "league",
        sub("start", json!([])),
    )
    .await;
    assert!(
        a.ephemeral() && a.content().contains("has started with 3 players"),
        "{}",
        a.content()
    );
    let (channel, post) = wait_posted(&fake, before, "round 1 of 3 begins").await;
    assert_eq!(
        channel,
        CHANNEL.to_string(),
        "the round is posted where the league was made"
    );
    assert!(
        post.content().contains("sits this round out"),
        "{}",
        post.content()
    );

    // Round 1: Sente resigns at once, which counts in a league.
    let (thread, game, sente, _) = league_game(&fake, before, 1).await;
    let before = fake.calls().len();
    let q = command(&fake, sente, "en-US", thread, "resign", json!([])).await;
    assert!(
        q.ephemeral() && q.content().contains("You will lose the game"),
        "{}",
        q.content()
    );
    let id = fake.button(sente, "en-US", thread, &format!("resign-yes:{game}"));
    assert!(answer(&fake, &id)
        .await
        .content()
        .contains("wins by resignation"));

    // Round 2: nobody moves; the deadline (1 day) passes.
    let (_, game2, _, _) = league_game(&fake, before, 2).await;
    assert_ne!(game2, game);
    let before = fake.calls().len();
    clock.advance(2 * 86_400);
    let (_, over) = wait_posted(&fake, before, "wins by the move deadline passed").await;
    assert!(
        over.content().contains(&format!("Game #{game2} is over")),
        "{}",
        over.content()
    );

    // Round 3: a player withdraws (asked first), which resigns the game and
    // ends the league.
    let (_, _, sente3, _) = league_game(&fake, before, 3).await;
    let before = fake.calls().len();
    let q = command(
        &fake,
        sente3,
        "en-US",
        CHANNEL,
        "league",
        sub("leave", json!([])),
    )
    .await;
    assert!(
        q.ephemeral() && q.content().starts_with("Withdraw from **Spring Cup**"),
        "{}",
        q.content()
    );
    assert_eq!(q.buttons(), vec!["league-withdraw:1"]);
    let id = fake.button(sente3, "en-US", CHANNEL, "league-withdraw:1");
    assert!(answer(&fake, &id)
        .await
        .content()
        .contains("withdrew from **Spring Cup**"));
    let (channel, last) = wait_posted(&fake, before, "Final standings of **Spring Cup**").await;
    assert_eq!(channel, CHANNEL.to_string());
    assert!(
        last.has_png(),
        "the table image comes with the final standings"
    );
    assert!(last.content().contains("×: withdrew"), "{}", last.content());
    // German standings on request, with the image.
    let a = command(
        &fake,
        BOB,
        "de",
        CHANNEL,
        "league",
        sub("standings", json!([])),
    )
    .await;
    assert!(
        a.content()
            .contains("Abschlusstabelle der Liga **Spring Cup**"),
        "{}",
        a.content()
    );
    assert!(a.has_png());
    bot.shutdown().await;
}

/// A channel where the bot may not open threads: a league's games start in
/// the channel itself, and the round goes on there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn league_games_start_in_the_channel_where_threads_are_refused() {
    let fake = Fake::start().await;
    fake.refuse_threads(CHANNEL);
    let (_dir, db) = temp_db();
    let bot = start_bot(&fake, &db, Arc::new(ManualClock::new(START)), 1).await;
    let sub = |name: &str, options: Value| json!([{"name": name, "type": 1, "options": options}]);
    let create = sub(
        "create",
        json!([
            opt("name", 3, json!("Kleine Liga")),
            opt("start", 3, json!("jetzt"))
        ]),
    );
    let a = command(&fake, ALICE, "de", CHANNEL, "league", create).await;
    assert!(
        a.content()
            .contains("hat die Liga **Kleine Liga** (#1) eröffnet"),
        "{}",
        a.content()
    );
    let before = fake.calls().len();
    for user in [ALICE, BOB, CAROL] {
        let id = fake.button(user, "de", CHANNEL, "league-join:1");
        answer(&fake, &id).await;
    }
    // The start has come: the next tick starts round 1.
    let (channel, first) = wait_posted(&fake, before, "round 1 of 3.\nGame #").await;
    assert_eq!(channel, CHANNEL.to_string(), "in the channel");
    assert!(first.has_png());
    let threads = format!("/channels/{CHANNEL}/threads");
    assert!(
        fake.calls_from(before)
            .iter()
            .any(|c| c.path == threads && !c.ok()),
        "a thread was asked for and refused"
    );
    let a = command(
        &fake,
        BOB,
        "de",
        CHANNEL,
        "league",
        sub("pairings", json!([])),
    )
    .await;
    assert!(
        a.ephemeral()
            && a.content().contains("Runde 1 von 3:")
            && a.content().contains("läuft — Partie #1"),
        "{}",
        a.content()
    );
    bot.shutdown().await;
}
