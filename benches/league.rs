//! What leagues cost the scheduler. Every tick looks at each running
//! league (its pairings and their games) to see whether the round is over.
//!
//! - `tick/5 leagues of 50`: one scheduler step on a SQLite file with five
//!   running 50-player round robins (125 live games, 6,125 pairings), next
//!   to `tick/reference` — the same file with the leagues marked finished,
//!   so the step sees the same games and no league.
//! - `sign-up to round 1`: a 50-player league created, joined by everyone
//!   and started (seeding, the whole round-robin schedule, 25 games and
//!   their notices), each time on a new server.
//!
//! Run: `cargo bench --bench league`.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use komadai::app::{App, Caller, LeagueOp, LeagueOptions, ManualClock, Place, SeededDice};
use komadai::i18n::Lang;
use komadai::store::Store;

const PLAYERS: i64 = 50;
const LEAGUES: i64 = 5;
const START: i64 = 1_800_000_000;

fn app_on(path: &std::path::Path) -> App {
    App::new(
        Store::open(path).expect("store"),
        Arc::new(ManualClock::new(START)),
        Arc::new(SeededDice::new(1)),
    )
}

/// Creates, fills and starts a league on server `guild`; user ids from `first`.
fn league(app: &App, guild: i64, first: i64) {
    let place = Place {
        guild: Some(guild),
        channel: Some(guild * 10),
    };
    let mut boss = Caller::new(first - 1, "boss", Lang::En);
    boss.manages_server = true;
    let options = LeagueOptions {
        name: format!("League {guild}"),
        start: Some("now".into()),
        max_players: Some(PLAYERS),
        ..LeagueOptions::default()
    };
    app.league(&boss, LeagueOp::Create(&options), place)
        .expect("created");
    for u in first..first + PLAYERS {
        let c = Caller::new(u, &format!("p{u}"), Lang::En);
        app.league(&c, LeagueOp::Join(None), place).expect("joined");
    }
    app.league(&boss, LeagueOp::Start(None), place)
        .expect("started");
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let with = dir.path().join("leagues.db");
    let without = dir.path().join("reference.db");
    {
        let app = app_on(&with);
        for g in 0..LEAGUES {
            league(&app, g + 1, 1 + g * 1000);
        }
        app.tick().expect("tick");
    }
    std::fs::copy(&with, &without).expect("copy");
    {
        let conn = rusqlite::Connection::open(&without).expect("open");
        conn.execute("UPDATE leagues SET status = 'finished'", [])
            .expect("finish the leagues");
    }
    let app = app_on(&with);
    let reference = app_on(&without);
    let mut group = c.benchmark_group("tick");
    group.bench_function("reference", |b| {
        b.iter(|| black_box(reference.tick().expect("tick")))
    });
    group.bench_function("5 leagues of 50", |b| {
        b.iter(|| black_box(app.tick().expect("tick")))
    });
    group.finish();

    let fresh = dir.path().join("fresh.db");
    let app = app_on(&fresh);
    let mut guild = 100;
    c.bench_function("sign-up to round 1 (50 players)", |b| {
        b.iter(|| {
            guild += 1;
            league(&app, guild, guild * 1000);
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
