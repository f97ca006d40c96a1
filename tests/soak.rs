//! Soak: the real binary (`komadai serve`) against the fake Discord, with
//! 50 games between fake members played to their natural end — checkmate,
//! resignation, or timeout after reminders — while 5 % of the bot's REST
//! calls fail at random (500, 502, 429; seeded) and the process is
//! SIGKILLed and restarted three times at random moments (seeded).
//!
//! Asserted: every move the bot acknowledged is stored, once, at its ply;
//! every stored game replays legally move by move; every game ended; every
//! reminder and timeout notice arrived at least once and at most twice; no
//! panic in the logs; `PRAGMA integrity_check` is ok. The figures are
//! printed. `KOMADAI_SOAK_GAMES` changes the number of games (default 50);
//! `KOMADAI_SOAK_BIN` soaks another build of the binary, such as the
//! release build (`cargo build --release` first).
//!
//! The bot's clock is the system clock plus the seconds in a file
//! (`--clock-offset-file`, a hidden test option), so deadlines pass without
//! waiting a day.

#![cfg(unix)]

use crate::fake_discord;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fake_discord::{Call, Fake, Fault, CHANNEL};
use komadai::shogi::{Game, Move, Position};
use serde_json::{json, Value};

const SEED: u64 = 20_261_201;
/// Plies after which the side to move resigns (keeps games bounded).
const MAX_PLIES: usize = 110;
/// How long a player waits for the answer to one interaction.
const ANSWER_WAIT: Duration = Duration::from_secs(8);
const HOUR: i64 = 3600;
/// How long the notices of one step may take: the notice lease
/// (`App::NOTICE_LEASE`, 60 s) plus two delivery back-offs (30 s, 60 s)
/// plus a margin.
const NOTICE_WAIT: Duration = Duration::from_secs(
    komadai::app::App::NOTICE_LEASE as u64 + (komadai::store::OUTBOX_BACKOFF_BASE as u64) * 3 + 30,
);

fn player(g: usize, side: usize) -> u64 {
    300_000_000_000_000_000 + (g as u64) * 2 + side as u64
}

fn opt(name: &str, kind: u64, value: Value) -> Value {
    json!({"name": name, "type": kind, "value": value})
}

/// How a game is meant to end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    /// Played until it ends by itself (usually checkmate) or hits
    /// [`MAX_PLIES`] (resignation).
    Play,
    /// The side to move resigns at this ply.
    Resign(usize),
    /// Nobody moves after this ply: reminders, then the timeout.
    Stall(usize),
}

/// The bot process.
struct Bot {
    child: tokio::process::Child,
}

struct Paths {
    db: PathBuf,
    offset: PathBuf,
    logs: PathBuf,
}

async fn spawn_bot(fake: &Fake, paths: &Paths, run: usize) -> Bot {
    let log = std::fs::File::create(paths.logs.join(format!("run-{run}.log"))).expect("log");
    let err = log.try_clone().expect("log");
    // KOMADAI_SOAK_BIN runs another build (e.g. target/release/komadai).
    let bin = std::env::var_os("KOMADAI_SOAK_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_komadai")),
        PathBuf::from,
    );
    let child = tokio::process::Command::new(bin)
        .arg("serve")
        .arg("--db")
        .arg(&paths.db)
        .args(["--tick-seconds", "1"])
        .arg("--clock-offset-file")
        .arg(&paths.offset)
        .env("DISCORD_TOKEN", "fake-token")
        .env("DISCORD_API_BASE", fake.base())
        .env_remove("DEV_GUILD_ID")
        .env_remove("KOMADAI_DB")
        .stdout(std::process::Stdio::from(log))
        .stderr(std::process::Stdio::from(err))
        .kill_on_drop(true)
        .spawn()
        .expect("komadai starts");
    Bot { child }
}

/// SIGKILLs the bot after `delay` and starts it again.
async fn restart(fake: &Fake, paths: &Paths, bot: &mut Bot, runs: &mut usize, delay: Duration) {
    tokio::time::sleep(delay).await;
    bot.child.start_kill().expect("SIGKILL");
    let _ = bot.child.wait().await;
    *runs += 1;
    *bot = spawn_bot(fake, paths, *runs).await;
    assert!(
        fake.wait_sessions(*runs + 1, Duration::from_secs(30)).await,
        "the bot reconnected after restart {runs}"
    );
}

/// The stored moves and status of a game (read-only, beside the bot).
fn read_game(db: &Path, game: i64) -> (Vec<String>, String) {
    let conn = rusqlite::Connection::open_with_flags(
        db,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .expect("read-only connection");
    conn.busy_timeout(Duration::from_secs(5)).expect("timeout");
    let mut st = conn
        .prepare("SELECT usi FROM moves WHERE game_id = ?1 ORDER BY ply")
        .expect("prepare");
    let moves = st
        .query_map([game], |r| r.get::<_, String>(0))
        .expect("query")
        .collect::<Result<Vec<_>, _>>()
        .expect("moves");
    let status: String = conn
        .query_row("SELECT status FROM games WHERE id = ?1", [game], |r| {
            r.get(0)
        })
        .expect("status");
    (moves, status)
}

fn game_of(db: &Path, sente: u64, gote: u64) -> Option<i64> {
    let conn = rusqlite::Connection::open(db).ok()?;
    conn.busy_timeout(Duration::from_secs(5)).ok()?;
    conn.query_row(
        "SELECT id FROM games WHERE sente = ?1 AND gote = ?2",
        [i64::try_from(sente).ok()?, i64::try_from(gote).ok()?],
        |r| r.get(0),
    )
    .ok()
}

/// A seeded player that ends games: mate in one if there is one, else
/// mostly checks and captures, else any legal move.
fn choose(pos: &Position, rng: &mut fastrand::Rng) -> Option<Move> {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return None;
    }
    if let Some(m) = legal.iter().copied().find(|&m| pos.after(m).is_checkmate()) {
        return Some(m);
    }
    let forcing: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| pos.gives_check(m) || pos.is_capture(m))
        .collect();
    if !forcing.is_empty() && rng.u8(..8) > 0 {
        return Some(forcing[rng.usize(..forcing.len())]);
    }
    Some(legal[rng.usize(..legal.len())])
}

#[derive(Default)]
struct Figures {
    acks: Mutex<Vec<(usize, usize, String)>>,
    refused: AtomicUsize,
    unanswered: AtomicUsize,
    resigned: AtomicUsize,
}

/// Sends one interaction when the bot is connected; its answer, if any.
async fn ask(fake: &Fake, user: u64, name: &str, options: Value) -> Option<Call> {
    let end = Instant::now() + Duration::from_secs(60);
    while !fake.connected() && Instant::now() < end {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let id = fake.command(user, "en-US", CHANNEL, name, options);
    fake.answer(&id, ANSWER_WAIT).await.map(|a| a.call)
}

/// Plays game `g` (stored as `game`) until it is over or stalls by plan.
async fn play(fake: Fake, db: PathBuf, g: usize, game: i64, plan: Plan, figures: Arc<Figures>) {
    let mut rng = fastrand::Rng::with_seed(SEED ^ (g as u64 * 7919));
    let mut refusals_here = (0, 0);
    loop {
        let (moves, status) = read_game(&db, game);
        if status != "active" {
            return;
        }
        let ply = moves.len();
        if matches!(plan, Plan::Stall(n) if ply >= n) {
            return;
        }
        let mover = player(g, ply % 2);
        if refusals_here.0 != ply {
            refusals_here = (ply, 0);
        }
        let resign =
            ply >= MAX_PLIES || refusals_here.1 >= 5 || matches!(plan, Plan::Resign(n) if ply >= n);
        if resign {
            // /resign asks first; the player presses Resign.
            let a = ask(&fake, mover, "resign", json!([opt("game", 4, json!(game))])).await;
            let confirm = format!("resign-yes:{game}");
            if a.is_some_and(|a| a.buttons().contains(&confirm)) {
                let id = fake.button(mover, "en-US", CHANNEL, &confirm);
                let done = fake.answer(&id, ANSWER_WAIT).await.map(|a| a.call);
                if done.is_some_and(|a| !a.ephemeral()) {
                    figures.resigned.fetch_add(1, Ordering::SeqCst);
                }
            }
            continue;
        }
        let mut pos = Game::new(Position::startpos(), Default::default());
        for m in &moves {
            let m = Move::from_usi(m).expect("stored USI");
            pos.play(m).expect("stored moves are legal");
        }
        let Some(m) = choose(pos.position(), &mut rng) else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        let usi = m.to_string();
        let a = ask(
            &fake,
            mover,
            "move",
            json!([opt("move", 3, json!(usi)), opt("game", 4, json!(game))]),
        )
        .await;
        match a {
            Some(a) if !a.ephemeral() => {
                figures.acks.lock().unwrap().push((g, ply + 1, usi));
            }
            Some(_) => {
                refusals_here.1 += 1;
                figures.refused.fetch_add(1, Ordering::SeqCst);
            }
            None => {
                figures.unanswered.fetch_add(1, Ordering::SeqCst);
            }
        }
    }
}

/// Posts the bot made (accepted by Discord) that contain every needle.
fn posts(fake: &Fake, needles: &[&str]) -> usize {
    fake.calls()
        .iter()
        .filter(|c| {
            c.method == "POST"
                && c.path.starts_with("/channels/")
                && c.path.ends_with("/messages")
                && c.ok()
                && needles.iter().all(|n| c.content().contains(n))
        })
        .count()
}

async fn wait_until(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if f() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    f()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_games_with_faults_and_kills() {
    let started = Instant::now();
    let games: usize = std::env::var("KOMADAI_SOAK_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let dir = tempfile::tempdir().expect("tempdir");
    let paths = Paths {
        db: dir.path().join("soak.db"),
        offset: dir.path().join("clock-offset"),
        logs: dir.path().to_path_buf(),
    };
    std::fs::write(&paths.offset, "0").expect("offset");
    let fake = Fake::start().await;
    let mut runs = 0;
    let mut bot = spawn_bot(&fake, &paths, runs).await;
    assert!(
        fake.wait_sessions(1, Duration::from_secs(30)).await,
        "the bot connected"
    );

    // The games: one in five stalls (reminders, timeout), one in five is
    // resigned, the rest are played out. Set up before the faults start.
    let mut rng = fastrand::Rng::with_seed(SEED);
    let plans: Vec<Plan> = (0..games)
        .map(|g| match g % 5 {
            // From ply 10 on, a timeout is a loss (before, the game is aborted).
            0 => Plan::Stall(rng.usize(10..24)),
            1 => Plan::Resign(rng.usize(10..40)),
            _ => Plan::Play,
        })
        .collect();
    let mut setups = Vec::new();
    for (g, plan) in plans.iter().enumerate() {
        let fake = fake.clone();
        let db = paths.db.clone();
        let days = if matches!(plan, Plan::Stall(_)) { 1 } else { 3 };
        setups.push(tokio::spawn(async move {
            let a = ask(
                &fake,
                player(g, 0),
                "challenge",
                json!([
                    opt("member", 6, json!(player(g, 1).to_string())),
                    opt("color", 3, json!("sente")),
                    opt("days", 4, json!(days)),
                    opt("rated", 5, json!(false))
                ]),
            )
            .await
            .expect("challenge answered");
            let accept = a
                .buttons()
                .into_iter()
                .find(|b| b.starts_with("accept:"))
                .expect("accept button");
            let id = fake.button(player(g, 1), "en-US", CHANNEL, &accept);
            let a = fake.answer(&id, ANSWER_WAIT).await.expect("accepted");
            assert!(!a.call.ephemeral(), "{}", a.call.content());
            game_of(&db, player(g, 0), player(g, 1)).expect("the game is stored")
        }));
    }
    let mut ids = Vec::new();
    for s in setups {
        ids.push(s.await.expect("setup"));
    }

    // Play, with 5 % of the REST calls failing and three SIGKILLs.
    fake.random_faults(
        SEED,
        0.05,
        vec![
            Fault::Status(500),
            Fault::Status(502),
            Fault::RateLimited(0.4),
        ],
    );
    let figures = Arc::new(Figures::default());
    let mut players = Vec::new();
    for (g, (&game, &plan)) in ids.iter().zip(&plans).enumerate() {
        players.push(tokio::spawn(play(
            fake.clone(),
            paths.db.clone(),
            g,
            game,
            plan,
            figures.clone(),
        )));
    }
    // Two kills after these many acknowledged moves (seeded), the third
    // during the notices of the stalled games.
    let estimate = games * 20;
    let mut kills: Vec<usize> = (0..2)
        .map(|_| rng.usize(estimate / 10..estimate * 8 / 10))
        .collect();
    kills.sort_unstable();
    let late_kill = rng.usize(0..3);
    let mut killed = 0;
    while players.iter().any(|p| !p.is_finished()) {
        let acked = figures.acks.lock().unwrap().len();
        if killed < kills.len() && acked >= kills[killed] {
            let delay = Duration::from_millis(rng.u64(0..500));
            restart(&fake, &paths, &mut bot, &mut runs, delay).await;
            killed += 1;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for p in players {
        p.await.expect("player task");
    }
    let acked = figures.acks.lock().unwrap().len();
    println!(
        "soak: played phase done after {:?}, {acked} acknowledged moves",
        started.elapsed()
    );

    // The stalled games: half time (a reminder), 10 % left (another), then
    // the deadline. A kill that has not happened yet happens in between.
    let stalled: Vec<(usize, i64)> = plans
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p, Plan::Stall(_)))
        .map(|(g, _)| (g, ids[g]))
        .collect();
    let reminders = |game: i64| posts(&fake, &["Reminder:", &format!("in game #{game};")]);
    let mut counts: HashMap<i64, Vec<usize>> = HashMap::new();
    for (step, offset) in [13 * HOUR, 23 * HOUR, 25 * HOUR].into_iter().enumerate() {
        std::fs::write(&paths.offset, offset.to_string()).expect("offset");
        let now_due = match step {
            2 => 3 - killed,
            s if s == late_kill => usize::from(killed < 3),
            _ => 0,
        };
        for _ in 0..now_due {
            let delay = Duration::from_millis(rng.u64(200..1500));
            restart(&fake, &paths, &mut bot, &mut runs, delay).await;
            killed += 1;
        }
        let want = step + 1;
        // A notice the killed process had claimed is delivered again once
        // its lease lapses (60 s), and a failed delivery waits 30 s, then
        // 60 s: under load a kill lands mid-delivery, so allow for both.
        let arrived = wait_until(NOTICE_WAIT, || {
            stalled.iter().all(|&(_, game)| {
                if want < 3 {
                    reminders(game) >= want
                } else {
                    posts(&fake, &[&format!("Game #{game} is over")]) >= 1
                }
            })
        })
        .await;
        assert!(arrived, "step {want}: not every notice arrived");
        // Time for a duplicate to show.
        tokio::time::sleep(Duration::from_secs(3)).await;
        for &(_, game) in &stalled {
            let n = if want < 3 {
                reminders(game)
            } else {
                posts(&fake, &[&format!("Game #{game} is over")])
            };
            counts.entry(game).or_default().push(n);
        }
    }
    let faults = fake.faults_injected();
    // A clean stop at the end.
    let pid = bot
        .child
        .id()
        .and_then(|p| i32::try_from(p).ok())
        .and_then(rustix::process::Pid::from_raw)
        .expect("pid");
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).expect("SIGTERM");
    let status = tokio::time::timeout(Duration::from_secs(20), bot.child.wait())
        .await
        .expect("exits after SIGTERM")
        .expect("wait");
    assert!(status.success(), "{status:?}");

    // Every acknowledged move is stored once, at its ply.
    let acks = figures.acks.lock().unwrap().clone();
    let mut per_ply: HashMap<(usize, usize), usize> = HashMap::new();
    let mut stored: HashMap<usize, Vec<String>> = HashMap::new();
    let mut plies = 0;
    let mut endings: HashMap<String, usize> = HashMap::new();
    for (g, &game) in ids.iter().enumerate() {
        let (moves, status) = read_game(&paths.db, game);
        assert_ne!(status, "active", "game {g} (#{game}) did not end");
        let conn = rusqlite::Connection::open(&paths.db).expect("db");
        let reason: String = conn
            .query_row(
                "SELECT COALESCE(reason, '') FROM games WHERE id = ?1",
                [game],
                |r| r.get(0),
            )
            .expect("reason");
        *endings.entry(reason).or_default() += 1;
        // Legal move by move.
        let mut replay = Game::new(Position::startpos(), Default::default());
        for (i, m) in moves.iter().enumerate() {
            let mv = Move::from_usi(m).expect("USI");
            assert!(
                replay.play(mv).is_ok(),
                "game {g}: stored ply {} ({m}) is illegal",
                i + 1
            );
        }
        plies += moves.len();
        stored.insert(g, moves);
    }
    let mut duplicate_acks = 0;
    for (g, ply, usi) in &acks {
        let n = per_ply.entry((*g, *ply)).or_default();
        *n += 1;
        if *n > 1 {
            duplicate_acks += 1;
        }
        let moves = &stored[g];
        assert_eq!(
            moves.get(ply - 1),
            Some(usi),
            "game {g}: acknowledged ply {ply} {usi} is not what is stored"
        );
    }
    assert_eq!(duplicate_acks, 0, "two moves acknowledged for one ply");
    // Every reminder and timeout at least once, at most twice.
    let mut duplicates = 0;
    for (&game, c) in &counts {
        let (first, second, over) = (c[0], c[1] - c[0], c[2]);
        for (what, n) in [
            ("first reminder", first),
            ("second reminder", second),
            ("timeout", over),
        ] {
            assert!(
                (1..=2).contains(&n),
                "game #{game}: {what} delivered {n} times"
            );
            duplicates += n - 1;
        }
    }
    // No panic in any run's log.
    for run in 0..=runs {
        let log =
            std::fs::read_to_string(paths.logs.join(format!("run-{run}.log"))).unwrap_or_default();
        assert!(!log.contains("panicked"), "run {run} panicked:\n{log}");
    }
    let conn = rusqlite::Connection::open(&paths.db).expect("db");
    let ok: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("integrity");
    assert_eq!(ok, "ok");
    let rest = fake.calls().len();
    println!(
        "soak: {games} games, {plies} plies stored, {acked} moves acknowledged \
         ({} refused, {} unanswered, {} resignations); endings {endings:?}; \
         {rest} REST calls, {faults} faults injected; {runs} SIGKILL restarts; \
         {duplicates} duplicate notices, {duplicate_acks} duplicate acknowledgements; \
         {:?} in all",
        figures.refused.load(Ordering::SeqCst),
        figures.unanswered.load(Ordering::SeqCst),
        figures.resigned.load(Ordering::SeqCst),
        started.elapsed()
    );
    assert_eq!(runs, 3, "three kills");
}
