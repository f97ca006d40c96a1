//! The store on real SQLite files: migrations from every schema version, and
//! 50 threads playing the same games at once through the app layer.

use std::sync::Arc;

use komadai::app::{
    App, AppError, Caller, ChallengeOptions, ManualClock, Place, Refusal, SeededDice,
};
use komadai::i18n::Lang;
use komadai::shogi::{Game, Position};
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
        store
            .peek(|r| {
                assert_eq!(r.player(1).unwrap().unwrap().display_name, "alice");
                assert_eq!(r.game(1).unwrap().unwrap().sente, 1);
            })
            .unwrap();
        assert_eq!(store.integrity_check().unwrap(), "ok");
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
        games.push((g as i64 + 1, a, b, Game::random_line(g as u64, PLIES)));
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
                                            s.read(|r| r.game(game_id)).unwrap().unwrap().ply
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
            .with_store(|s| s.read(|r| r.moves(game_id)).unwrap())
            .unwrap();
        let expected: Vec<String> = seq.iter().map(ToString::to_string).collect();
        assert_eq!(moves, expected, "game {game_id} in order");
    }
    assert_eq!(
        app.with_store(|s| s.integrity_check().unwrap()).unwrap(),
        "ok"
    );
}

/// Issue #17 finding 3: `/settings notation: Western numeric` failed on the
/// CHECK of schema 1. Migration 5 rebuilds `players`; a database at schema 4
/// with players referred to by challenges, games, moves and ratings keeps
/// every row and every reference.
#[test]
fn schema_4_database_migrates_and_accepts_western_numeric() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v4.db");
    let start = Position::startpos().to_sfen();
    {
        let mut conn = Connection::open(&path).unwrap();
        migrations().to_version(&mut conn, 4).unwrap();
        conn.pragma_update(None, "foreign_keys", "ON").unwrap();
        conn.execute_batch(&format!(
            "INSERT INTO players (user_id, display_name, notation, piece_style, theme, language, dms, rating, rated_games, created_at)
               VALUES (1, 'alice', 'japanese', 'kanji2', 'dark', 'de', 1, 1612.5, 3, 10),
                      (2, 'bob', 'usi', 'international', 'light', NULL, 0, 1400, 1, 20),
                      (-3, 'komadai (medium)', 'western', 'kanji', 'light', NULL, 0, 1500, 0, 30);
             INSERT INTO games (variant, rule, days_per_move, rated, sente, gote, start_sfen, sfen, ply, created_at, updated_at)
               VALUES ('standard', 'declaration27', 3, 1, 1, 2, '{start}', '{start}', 0, 0, 0),
                      ('standard', 'declaration27', 14, 0, 2, -3, '{start}', '{start}', 0, 0, 0);
             INSERT INTO moves (game_id, ply, usi, played_at) VALUES (1, 1, '7g7f', 5);
             INSERT INTO challenges (challenger, challenged, variant, rule, days_per_move, rated, color, created_at, expires_at, game_id, status)
               VALUES (1, 2, 'standard', 'declaration27', 3, 1, 'sente', 0, 100, 1, 'accepted');
             INSERT INTO rating_history (user_id, game_id, before, after, at) VALUES (1, 1, 1500, 1612.5, 9);
             INSERT INTO requests (request_id, response, at) VALUES ('r1', '1:1', 5);
             INSERT INTO outbox (payload, created_at) VALUES ('{{\"Timeout\":{{\"game_id\":1}}}}', 77);"
        ))
        .unwrap();
        // Schema 4 refuses the value (the bug).
        assert!(conn
            .execute(
                "UPDATE players SET notation = 'western-numeric' WHERE user_id = 2",
                []
            )
            .is_err());
    }

    let store = Store::open(&path).unwrap();
    assert_eq!(store.user_version().unwrap(), schema_version() as i64);
    assert_eq!(store.integrity_check().unwrap(), "ok");
    store
        .peek(|r| {
            let alice = r.player(1).unwrap().unwrap();
            assert_eq!(alice.display_name, "alice");
            assert_eq!(alice.settings.notation, "japanese");
            assert_eq!(alice.settings.piece_style, "kanji2");
            assert_eq!(alice.settings.theme, "dark");
            assert_eq!(alice.settings.language.as_deref(), Some("de"));
            assert!(alice.settings.dms);
            assert_eq!(alice.rating, 1612.5);
            assert_eq!(alice.rated_games, 3);
            assert_eq!(
                r.player(-3).unwrap().unwrap().display_name,
                "komadai (medium)"
            );
            assert_eq!(r.game(1).unwrap().unwrap().sente, 1);
            assert_eq!(r.game(2).unwrap().unwrap().gote, -3);
            assert_eq!(r.moves(1).unwrap(), vec!["7g7f".to_string()]);
            assert_eq!(r.challenge(1).unwrap().unwrap().game_id, Some(1));
            assert_eq!(r.answered("r1").unwrap().as_deref(), Some("1:1"));
            // The old notice is due at once and counts no failures.
            let due = r.due_outbox(77, 10).unwrap();
            assert_eq!(due.len(), 1);
            assert_eq!((due[0].attempts, due[0].dead), (0, false));
            assert_eq!(r.active_game_count(1).unwrap(), 1);
            assert_eq!(
                r.active_game_count(2).unwrap(),
                1,
                "the computer game is not counted"
            );
            assert_eq!(r.active_computer_games(2).unwrap(), 1);
            assert_eq!(r.open_challenges_by(1).unwrap(), 0);
        })
        .unwrap();

    // The fix: 'western-numeric' is stored; the CHECK still rejects nonsense.
    let mut s = store.read(|r| r.player(2)).unwrap().unwrap().settings;
    s.notation = "western-numeric".into();
    store.transaction(|tx| tx.save_settings(2, &s)).unwrap();
    assert_eq!(
        store
            .read(|r| r.player(2))
            .unwrap()
            .unwrap()
            .settings
            .notation,
        "western-numeric"
    );
    s.notation = "bogus".into();
    assert!(store.transaction(|tx| tx.save_settings(2, &s)).is_err());
    drop(store);

    // Foreign keys still point at `players` and are enforced.
    let conn = Connection::open(&path).unwrap();
    conn.pragma_update(None, "foreign_keys", "ON").unwrap();
    let mut st = conn
        .prepare("SELECT \"table\", rowid, parent FROM pragma_foreign_key_check")
        .unwrap();
    let dangling: Vec<(String, Option<i64>, String)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(dangling, vec![]);
    let start = Position::startpos().to_sfen();
    assert!(conn
        .execute(
            "INSERT INTO games (variant, rule, days_per_move, rated, sente, gote, start_sfen, sfen, created_at, updated_at)
             VALUES ('standard', 'declaration27', 3, 0, 1, 99, ?1, ?1, 0, 0)",
            [&start],
        )
        .is_err(), "a game against an unknown player is refused");
    assert!(conn
        .execute("DELETE FROM players WHERE user_id = 1", [])
        .is_err());
}

/// Every notation the settings offer can be stored, through the app.
#[test]
fn every_notation_can_be_chosen() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::new(
        Store::open(dir.path().join("n.db")).unwrap(),
        Arc::new(ManualClock::new(1_800_000_000)),
        Arc::new(SeededDice::new(1)),
    );
    let me = Caller::new(5, "eve", Lang::En);
    for name in ["usi", "western", "western-numeric", "japanese"] {
        let change = komadai::app::SettingsChange {
            notation: Some(name.into()),
            ..Default::default()
        };
        app.settings(&me, &change).expect(name);
        let stored = app
            .with_store(|s| s.read(|r| r.player(5)).unwrap().unwrap().settings.notation)
            .unwrap();
        assert_eq!(stored, name);
    }
}

/// The counting queries behind the caps, on games made through the app.
#[test]
fn counting_queries_for_caps() {
    let dir = tempfile::tempdir().unwrap();
    // Two open challenges to the same member are allowed here, so that the
    // query counts more than one.
    let caps = komadai::app::Caps {
        challenges_to_same: 2,
        ..komadai::app::Caps::default()
    };
    let app = App::new(
        Store::open(dir.path().join("c.db")).unwrap(),
        Arc::new(ManualClock::new(1_800_000_000)),
        Arc::new(SeededDice::new(1)),
    )
    .with_caps(caps);
    let a = Caller::new(1, "a", Lang::En);
    let c = Caller::new(3, "c", Lang::En);
    let opts = ChallengeOptions::default();
    app.challenge(&a, Some((2, "b")), &opts, Place::default())
        .unwrap();
    app.challenge(&a, Some((2, "b")), &opts, Place::default())
        .unwrap();
    app.challenge(&a, Some((3, "c")), &opts, Place::default())
        .unwrap();
    app.challenge(&a, None, &opts, Place::default()).unwrap();
    app.accept(&c, 3, Place::default()).unwrap();
    let counts = app
        .with_store(|s| {
            s.peek(|r| {
                (
                    r.open_challenges_by(1).unwrap(),
                    r.open_challenges_between(1, 2).unwrap(),
                    r.open_challenges_between(1, 3).unwrap(),
                    r.open_challenges_between(2, 1).unwrap(),
                    r.active_game_count(1).unwrap(),
                    r.active_game_count(3).unwrap(),
                    r.active_game_count(2).unwrap(),
                    r.active_computer_games(1).unwrap(),
                )
            })
            .unwrap()
        })
        .unwrap();
    assert_eq!(counts, (3, 2, 0, 0, 1, 1, 0, 0));
}

/// The rebuild of `players` refuses to commit when rows would refer to a
/// missing player (checked inside the migration's transaction).
#[test]
fn migration_5_refuses_dangling_player_references() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.db");
    {
        let mut conn = Connection::open(&path).unwrap();
        migrations().to_version(&mut conn, 4).unwrap();
        // With foreign keys off the damage goes in.
        conn.pragma_update(None, "foreign_keys", "OFF").unwrap();
        conn.execute(
            "INSERT INTO games (variant, rule, days_per_move, rated, sente, gote, start_sfen, sfen, created_at, updated_at)
             VALUES ('standard', 'declaration27', 3, 0, 41, 42, ?1, ?1, 0, 0)",
            [Position::startpos().to_sfen()],
        )
        .unwrap();
    }
    let err = Store::open(&path).err().expect("the migration is refused");
    assert!(err.to_string().contains("missing"), "{err}");
    let conn = Connection::open(&path).unwrap();
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, 4, "rolled back");
}
