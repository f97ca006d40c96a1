//! The store on real SQLite files: migrations from every schema version, and
//! 50 threads playing the same games at once through the app layer.

use std::sync::Arc;

use komadai::app::{
    App, AppError, Caller, ChallengeOptions, ManualClock, Place, Refusal, SeededDice,
};
use komadai::i18n::Lang;
use komadai::shogi::{Move, Position};
use komadai::store::{migrations, schema_version, Store};
use rusqlite::Connection;

#[test]
fn migrations_validate() {
    migrations().validate().expect("the migration set is valid");
}

#[test]
fn migrate_from_empty_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("a.db")).unwrap();
    assert_eq!(store.user_version().unwrap(), schema_version() as i64);
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn migrate_from_every_earlier_version_keeps_data() {
    for version in 1..schema_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            let mut conn = Connection::open(&path).unwrap();
            migrations().to_version(&mut conn, version).unwrap();
            conn.execute(
                "INSERT INTO players (user_id, display_name, created_at) VALUES (1, 'alice', 0), (2, 'bob', 0)",
                [],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO games (variant, rule, days_per_move, rated, sente, gote, start_sfen, sfen, created_at, updated_at)
                 VALUES ('standard', 'declaration27', 3, 1, 1, 2, ?1, ?1, 0, 0)",
                [Position::startpos().to_sfen()],
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(
            store.user_version().unwrap(),
            schema_version() as i64,
            "from {version}"
        );
        let r = store.reader();
        assert_eq!(r.player(1).unwrap().unwrap().display_name, "alice");
        assert_eq!(r.game(1).unwrap().unwrap().sente, 1);
        assert_eq!(store.integrity_check().unwrap(), "ok");
    }
}

/// A legal move sequence of `plies` from the start that does not end the game.
fn sequence(seed: u64, plies: usize) -> Vec<Move> {
    let mut rng = fastrand::Rng::with_seed(seed);
    'retry: loop {
        let mut pos = Position::startpos();
        let mut out = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            let quiet: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| !pos.after(m).is_checkmate())
                .collect();
            if quiet.is_empty() {
                continue 'retry;
            }
            let m = quiet[rng.usize(..quiet.len())];
            out.push(m);
            pos.play_unchecked(m);
        }
        return out;
    }
}

#[test]
fn fifty_threads_play_the_same_games() {
    const GAMES: usize = 5;
    const PLIES: usize = 24;
    const COPIES: usize = 5; // threads per player: 5 games × 2 players × 5 = 50
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("race.db")).unwrap();
    let app = Arc::new(App::new(
        store,
        Arc::new(ManualClock::new(1_800_000_000)),
        Arc::new(SeededDice::new(1)),
    ));
    let mut games = Vec::new();
    for g in 0..GAMES {
        let a = Caller::new(100 + g as i64, &format!("a{g}"), Lang::En);
        let b = Caller::new(200 + g as i64, &format!("b{g}"), Lang::En);
        let opts = ChallengeOptions {
            rated: false,
            color: Some(komadai::shogi::Color::Sente),
            ..Default::default()
        };
        app.challenge(&a, Some((b.id, &b.name)), &opts, Place::default())
            .unwrap();
        let r = app.accept(&b, (g + 1) as i64, Place::default()).unwrap();
        assert!(matches!(r.msg, komadai::app::Msg::GameStarted { .. }));
        games.push((g as i64 + 1, a, b, sequence(g as u64, PLIES)));
    }
    let mut handles = Vec::new();
    for (game_id, a, b, seq) in games.clone() {
        for (side, caller) in [(0usize, a), (1usize, b)] {
            for _ in 0..COPIES {
                let app = app.clone();
                let caller = caller.clone();
                let seq = seq.clone();
                handles.push(std::thread::spawn(move || {
                    let (mut applied, mut refused, mut duplicates) = (0, 0, 0);
                    for k in (side..PLIES).step_by(2) {
                        loop {
                            // Copies of one move share a request id, like a retried request.
                            let request = format!("g{game_id}-ply{k}");
                            let reply = app.play_move(
                                &caller,
                                Some(game_id),
                                &seq[k].to_string(),
                                Place::default(),
                                Some(&request),
                            );
                            match reply {
                                Ok(r) => {
                                    match r.msg {
                                        komadai::app::Msg::MovePlayed { .. } => applied += 1,
                                        komadai::app::Msg::AlreadyDone { .. } => duplicates += 1,
                                        other => panic!("unexpected reply {other:?}"),
                                    }
                                    break;
                                }
                                Err(AppError::Refused(r)) => {
                                    refused += 1;
                                    assert!(
                                        matches!(
                                            r,
                                            Refusal::NotYourTurn { .. }
                                                | Refusal::Move(_)
                                                | Refusal::Conflict
                                        ),
                                        "unexpected refusal {r:?}"
                                    );
                                    // Another copy may have played move k already.
                                    let ply = app
                                        .with_store(|s| {
                                            s.reader().game(game_id).unwrap().unwrap().ply
                                        })
                                        .unwrap();
                                    if ply as usize > k {
                                        break;
                                    }
                                    std::thread::sleep(std::time::Duration::from_millis(2));
                                }
                                Err(AppError::Internal(e)) => panic!("internal error: {e}"),
                            }
                        }
                    }
                    (applied, refused, duplicates)
                }));
            }
        }
    }
    let mut total_applied = 0;
    let mut total_refused = 0;
    let mut total_duplicates = 0;
    for h in handles {
        let (a, r, d) = h.join().expect("no thread panicked");
        total_applied += a;
        total_refused += r;
        total_duplicates += d;
    }
    eprintln!("applied {total_applied}, refused {total_refused}, answered as duplicates {total_duplicates}");
    assert_eq!(
        total_applied,
        GAMES * PLIES,
        "every move applied exactly once"
    );
    assert!(total_refused > 0, "the threads really raced");
    for (game_id, _, _, seq) in games {
        let moves = app
            .with_store(|s| s.reader().moves(game_id).unwrap())
            .unwrap();
        let expected: Vec<String> = seq.iter().map(ToString::to_string).collect();
        assert_eq!(moves, expected, "game {game_id} in order");
    }
    assert_eq!(
        app.with_store(|s| s.integrity_check().unwrap()).unwrap(),
        "ok"
    );
}
