//! The play-a-move use case (load the game, parse the move, validate it, store
//! it in a transaction with `synchronous = FULL`), with and without drawing
//! the board, on a database file holding 10,000 games and 500,000 moves.
//!
//! Run: `cargo bench --bench store`. Setup takes a few seconds; each measured
//! move is a real new move in a different game, and every reply is checked.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use komadai::app::{App, Caller, ManualClock, Msg, Place, SeededDice};
use komadai::i18n::Lang;
use komadai::shogi::{Game, Move, Position};
use komadai::store::Store;

const GAMES: usize = 10_000;
const STORED_PLIES: usize = 50;
const EXTRA_PLIES: usize = 12;
const SEQUENCES: usize = 32;

/// Legal games of STORED_PLIES + EXTRA_PLIES plies that do not end.
fn sequences() -> Vec<Vec<Move>> {
    let mut rng = fastrand::Rng::with_seed(5);
    let mut out = Vec::new();
    while out.len() < SEQUENCES {
        let mut game = Game::new(Position::startpos(), Default::default());
        let mut ok = true;
        while game.ply() < STORED_PLIES + EXTRA_PLIES {
            let moves = game.position().legal_moves();
            let cands: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| matches!(game.clone().play(m), Ok(None)))
                .collect();
            if cands.is_empty() {
                ok = false;
                break;
            }
            game.play(cands[rng.usize(..cands.len())]).expect("legal");
        }
        if ok {
            out.push(game.moves().to_vec());
        }
    }
    out
}

struct Fixture {
    app: App,
    seqs: Vec<Vec<Move>>,
    next: usize,
    _dir: tempfile::TempDir,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bench.db");
    let seqs = sequences();
    {
        let store = Store::open(&path).expect("store");
        drop(store);
        let mut conn = rusqlite::Connection::open(&path).expect("open");
        conn.pragma_update(None, "synchronous", "OFF")
            .expect("pragma");
        let tx = conn.transaction().expect("tx");
        for u in 0..2 * GAMES as i64 {
            tx.execute(
                "INSERT INTO players (user_id, display_name, created_at) VALUES (?1, ?2, 0)",
                rusqlite::params![u + 1, format!("p{u}")],
            )
            .expect("player");
        }
        let start = Position::startpos().to_sfen();
        let finals: Vec<String> = seqs
            .iter()
            .map(|s| {
                let g = Game::replay(Position::startpos(), Default::default(), &s[..STORED_PLIES])
                    .expect("legal");
                g.position().to_sfen()
            })
            .collect();
        {
            let mut game_st = tx
                .prepare(
                    "INSERT INTO games (id, variant, rule, days_per_move, rated, sente, gote, start_sfen, sfen, ply, deadline, created_at, updated_at)
                     VALUES (?1, 'standard', 'declaration27', 3, 0, ?2, ?3, ?4, ?5, ?6, 1900000000, 0, 0)",
                )
                .expect("prepare");
            let mut move_st = tx
                .prepare("INSERT INTO moves (game_id, ply, usi, played_at) VALUES (?1, ?2, ?3, 0)")
                .expect("prepare");
            for g in 0..GAMES {
                let id = g as i64 + 1;
                let s = g % SEQUENCES;
                game_st
                    .execute(rusqlite::params![
                        id,
                        2 * id - 1,
                        2 * id,
                        start,
                        finals[s],
                        STORED_PLIES as i64
                    ])
                    .expect("game");
                for (p, m) in seqs[s][..STORED_PLIES].iter().enumerate() {
                    move_st
                        .execute(rusqlite::params![id, p as i64 + 1, m.to_string()])
                        .expect("move");
                }
            }
        }
        tx.commit().expect("commit");
    }
    let store = Store::open(&path).expect("store");
    let app = App::new(
        store,
        Arc::new(ManualClock::new(1_800_000_000)),
        Arc::new(SeededDice::new(1)),
    );
    Fixture {
        app,
        seqs,
        next: 0,
        _dir: dir,
    }
}

impl Fixture {
    /// Plays the next stored-but-unplayed move: round robin over the games.
    fn play_next(&mut self, draw: bool) -> usize {
        let round = self.next / GAMES;
        let g = self.next % GAMES;
        assert!(round < EXTRA_PLIES, "out of fresh moves");
        self.next += 1;
        let id = g as i64 + 1;
        let ply = STORED_PLIES + round;
        let mover = if ply % 2 == 0 { 2 * id - 1 } else { 2 * id };
        let caller = Caller::new(mover, "p", Lang::En);
        let mv = self.seqs[g % SEQUENCES][ply].to_string();
        let reply = self
            .app
            .play_move(&caller, Some(id), &mv, Place::default(), None)
            .expect("move accepted");
        assert!(
            matches!(reply.msg, Msg::MovePlayed { .. }),
            "{:?}",
            reply.msg
        );
        if draw {
            let png = reply.board.expect("board").png(reply.lang).expect("png");
            black_box(png.len())
        } else {
            0
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut f = fixture();
    let mut g = c.benchmark_group("play_move");
    g.sample_size(30);
    g.throughput(Throughput::Elements(1));
    g.bench_function("10k_games/no_image", |b| b.iter(|| f.play_next(false)));
    g.bench_function("10k_games/with_image", |b| b.iter(|| f.play_next(true)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
