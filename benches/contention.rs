//! Autocomplete latency while other players move: what the SQLite reader
//! pool buys, and the same load on PostgreSQL, in one run.
//!
//! `WRITERS` threads play moves (each answered with the board PNG, as
//! `/move` is) in their own games; one thread asks for move suggestions
//! (`/move` autocomplete, every keystroke) in a game where it is that
//! player's turn, and records each answer's latency. Configurations:
//!
//! - SQLite, every read through the one writer connection (how komadai
//!   worked before the reader pool; `KOMADAI_SQLITE_READERS=0`);
//! - SQLite with the reader pool (the default);
//! - PostgreSQL, when `KOMADAI_BENCH_POSTGRES=postgres://user@host:port`
//!   names a server on which the bench may create a database.
//!
//! Run: `cargo bench --bench contention` (`KOMADAI_BENCH_SECS`, default 10,
//! sets each configuration's duration). Prints one line per configuration.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use komadai::app::{App, Caller, ChallengeOptions, ManualClock, Place, SeededDice};
use komadai::i18n::Lang;
use komadai::shogi::{Color, Game};
use komadai::store::Store;

const WRITERS: usize = 3;
/// Games per writer thread (each plays its games in turn).
const GAMES_PER_WRITER: usize = 8;
/// Plies each writer game can take before it is used up.
const PLIES: usize = 120;

fn start_game(app: &App, a: &Caller, b: &Caller) -> i64 {
    let opts = ChallengeOptions {
        rated: false,
        color: Some(Color::Sente),
        ..Default::default()
    };
    let c = app
        .challenge(a, Some((b.id, &b.name)), &opts, Place::default())
        .expect("challenge");
    let id: i64 = c.buttons[0]
        .id
        .split(':')
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("challenge id");
    let r = app.accept(b, id, Place::default()).expect("accept");
    r.board.expect("board").game_id
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn run(label: &str, store: Store, secs: u64) {
    let app = Arc::new(App::new(
        store,
        Arc::new(ManualClock::new(1_800_000_000)),
        Arc::new(SeededDice::new(3)),
    ));
    // The autocomplete player: Sente to move in a game of their own.
    let asker = Caller::new(1, "asker", Lang::En);
    let other = Caller::new(2, "other", Lang::En);
    let ask_game = start_game(&app, &asker, &other);
    let stop = Arc::new(AtomicBool::new(false));
    let moves = Arc::new(AtomicU64::new(0));
    let mut writers = Vec::new();
    for w in 0..WRITERS {
        let (app, stop, moves) = (app.clone(), stop.clone(), moves.clone());
        writers.push(std::thread::spawn(move || {
            let mut games = Vec::new();
            for g in 0..GAMES_PER_WRITER {
                let base = 1000 + (w * GAMES_PER_WRITER + g) as i64 * 2;
                let a = Caller::new(base, &format!("w{base}"), Lang::En);
                let b = Caller::new(base + 1, &format!("w{}", base + 1), Lang::En);
                let id = start_game(&app, &a, &b);
                games.push((id, a, b, Game::random_line(base as u64, PLIES), 0usize));
            }
            let mut turn = 0;
            while !stop.load(Ordering::Relaxed) {
                let (id, a, b, seq, next) = &mut games[turn % GAMES_PER_WRITER];
                turn += 1;
                if *next >= seq.len() {
                    continue;
                }
                let who = if *next % 2 == 0 { &*a } else { &*b };
                let r = app
                    .play_move(
                        who,
                        Some(*id),
                        &seq[*next].to_string(),
                        Place::default(),
                        None,
                    )
                    .expect("a legal move is played");
                let png = r.board.expect("board").png(r.lang).expect("png");
                assert!(png.len() > 1000);
                *next += 1;
                moves.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    // Let the writers get going, then measure.
    std::thread::sleep(Duration::from_millis(300));
    let moves_before = moves.load(Ordering::Relaxed);
    let begin = Instant::now();
    let mut lat = Vec::new();
    let typed = ["", "7", "P", "2g", "G", "76"];
    while begin.elapsed() < Duration::from_secs(secs) {
        let t = Instant::now();
        let v = app
            .move_suggestions(
                &asker,
                Some(ask_game),
                typed[lat.len() % typed.len()],
                Place::default(),
                25,
            )
            .expect("suggestions");
        lat.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(lat.len() > 1 || !v.is_empty());
    }
    let elapsed = begin.elapsed().as_secs_f64();
    let played = moves.load(Ordering::Relaxed) - moves_before;
    stop.store(true, Ordering::Relaxed);
    for w in writers {
        w.join().expect("writer");
    }
    lat.sort_by(f64::total_cmp);
    println!(
        "{label:<38} autocomplete p50 {:>6.2} ms  p99 {:>6.2} ms  max {:>7.2} ms  ({} answers)   /move+PNG {:>6.1}/s",
        percentile(&lat, 0.5),
        percentile(&lat, 0.99),
        lat.last().copied().unwrap_or(f64::NAN),
        lat.len(),
        played as f64 / elapsed,
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too,
    // briefly.
    let quick = !std::env::args().any(|a| a == "--bench");
    let secs = std::env::var("KOMADAI_BENCH_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if quick { 1 } else { 10 });
    println!("{WRITERS} threads playing moves with the board PNG, one asking for suggestions; {secs} s each");
    let dir = tempfile::tempdir().expect("temp dir");

    std::env::set_var("KOMADAI_SQLITE_READERS", "0");
    let store = Store::open(dir.path().join("writer-only.db")).expect("store");
    std::env::remove_var("KOMADAI_SQLITE_READERS");
    run("SQLite, reads through the writer", store, secs);

    let store = Store::open(dir.path().join("readers.db")).expect("store");
    run("SQLite, reader pool", store, secs);

    if let Ok(base) = std::env::var("KOMADAI_BENCH_POSTGRES") {
        let base = base.trim_end_matches('/').to_string();
        let db = format!("komadai_bench_{}", std::process::id());
        let mut admin = postgres::Client::connect(&format!("{base}/postgres"), postgres::NoTls)
            .expect("connect to KOMADAI_BENCH_POSTGRES");
        admin
            .batch_execute(&format!("CREATE DATABASE {db}"))
            .expect("create the bench database");
        let store = Store::open(format!("{base}/{db}")).expect("store");
        run("PostgreSQL (one process)", store, secs);
        let _ = admin.batch_execute(&format!("DROP DATABASE {db} WITH (FORCE)"));
    } else {
        println!(
            "PostgreSQL: set KOMADAI_BENCH_POSTGRES=postgres://user@host:port to measure it too"
        );
    }
}
