//! The store's queries on both backends: every test runs once on a SQLite
//! file and once on a real PostgreSQL database (`tests/common/pg.rs`), and
//! the two schemas are compared column by column.
//!
//! "Two processes" are two `Store`s opened on the same database: each has
//! its own connections, exactly as two komadai processes would.

use std::sync::{Arc, Barrier};

use komadai::app::{App, Caller, ChallengeOptions, ManualClock, Place, SeededDice};
use komadai::i18n::Lang;
use komadai::shogi::{Game, Move, Position};
use komadai::store::{
    outbox_backoff, Backend, NewGame, PuzzleRow, QuarantineRow, Ranking, Store, StoreError,
    OUTBOX_MAX_ATTEMPTS,
};

use crate::pg;

/// A database for one test and a way to open more handles on it.
struct Db {
    _dir: tempfile::TempDir,
    name: std::path::PathBuf,
}

impl Db {
    fn new(backend: Backend, test: &str) -> Db {
        let dir = tempfile::tempdir().expect("temp dir");
        let name = match backend {
            Backend::Sqlite => dir.path().join("t.db"),
            Backend::Postgres => pg::fresh_database(test)
                .expect("the PostgreSQL tests run only with a server")
                .into(),
        };
        Db { _dir: dir, name }
    }

    fn open(&self) -> Store {
        Store::open(&self.name).expect("the store opens")
    }
}

fn new_game(sente: i64, gote: i64) -> NewGame {
    NewGame {
        guild_id: Some(10),
        channel_id: None,
        variant: "standard".into(),
        handicap: None,
        rule: "declaration27".into(),
        days_per_move: 3,
        rated: true,
        sente,
        gote,
        start_sfen: Position::startpos().to_sfen(),
        deadline: Some(1000),
        created_at: 0,
    }
}

fn outbox_retries_with_backoff_and_dead_letters(backend: Backend) {
    let db = Db::new(backend, "outbox");
    let s = db.open();
    let id = s.transaction(|tx| tx.push_outbox("{}", 100)).unwrap();
    assert_eq!(
        s.read(|r| r.backlog(99)).unwrap().due_notices,
        0,
        "not due yet"
    );
    assert_eq!(s.read(|r| r.backlog(100)).unwrap().due_notices, 1);
    let mut now = 100;
    for attempt in 1..OUTBOX_MAX_ATTEMPTS {
        let due = s.read(|r| r.due_outbox(now, 10)).unwrap();
        assert_eq!(due.len(), 1, "attempt {attempt}");
        assert_eq!(due[0].attempts, attempt - 1);
        assert!(!s
            .transaction(|tx| tx.outbox_failed(id, "502", now, false))
            .unwrap());
        assert!(s
            .read(|r| r.due_outbox(now + outbox_backoff(attempt) - 1, 10))
            .unwrap()
            .is_empty());
        now += outbox_backoff(attempt);
    }
    assert!(s
        .transaction(|tx| tx.outbox_failed(id, "502 again", now, false))
        .unwrap());
    assert!(s.read(|r| r.due_outbox(i64::MAX, 10)).unwrap().is_empty());
    assert_eq!(
        s.read(|r| r.backlog(i64::MAX)).unwrap().due_notices,
        0,
        "a dead letter is not due"
    );
    let dead = s.read(|r| r.dead_letters()).unwrap();
    assert_eq!(dead.len(), 1);
    assert_eq!(dead[0].last_error.as_deref(), Some("502 again"));
    assert!(s.transaction(|tx| tx.release_outbox(id, now)).unwrap());
    assert_eq!(
        s.read(|r| r.due_outbox(now, 10)).unwrap()[0].attempts,
        OUTBOX_MAX_ATTEMPTS
    );
    // A claim hides the notice until its lease runs out; a second claim
    // at the same time gets nothing.
    assert!(s
        .transaction(|tx| tx.claim_outbox(id, now, now + 60))
        .unwrap());
    assert!(!s
        .transaction(|tx| tx.claim_outbox(id, now, now + 60))
        .unwrap());
    assert!(s.read(|r| r.due_outbox(now + 59, 10)).unwrap().is_empty());
    assert!(s
        .transaction(|tx| tx.claim_outbox(id, now + 60, now + 120))
        .unwrap());
    s.transaction(|tx| tx.ack_outbox(id)).unwrap();
    assert!(s.read(|r| r.outbox()).unwrap().is_empty());
}

fn computer_jobs_quarantine_actions_and_requests(backend: Backend) {
    let db = Db::new(backend, "work");
    let s = db.open();
    s.transaction(|tx| {
        tx.upsert_player(1, "a", 0)?;
        tx.upsert_player(-1, "komadai", 0)?;
        tx.insert_game(&new_game(1, -1))?;
        tx.insert_game(&new_game(1, -1))?;
        tx.enqueue_computer_job(1, 1, 10)?;
        tx.enqueue_computer_job(1, 1, 11)?;
        tx.enqueue_computer_job(2, 3, 12)
    })
    .unwrap();
    assert_eq!(s.read(|r| r.computer_jobs()).unwrap(), vec![(1, 1), (2, 3)]);
    assert_eq!(
        s.read(|r| r.backlog(0)).unwrap().pending_computer_replies,
        2
    );
    // Nothing waits and nothing is in use between two calls.
    let pool = s.pool_stats();
    assert_eq!(pool.in_use, 0, "{pool:?}");
    assert_eq!(pool.waits, 0, "{pool:?}");
    assert_eq!(
        s.transaction(|tx| tx.claim_computer_jobs(20, 60, 1))
            .unwrap(),
        vec![(1, 1)]
    );
    assert_eq!(
        s.transaction(|tx| tx.claim_computer_jobs(21, 60, 5))
            .unwrap(),
        vec![(2, 3)]
    );
    assert!(s
        .transaction(|tx| tx.claim_computer_jobs(79, 60, 5))
        .unwrap()
        .is_empty());
    assert!(!s
        .transaction(|tx| tx.claim_computer_job(1, 79, 200))
        .unwrap());
    assert!(s
        .transaction(|tx| tx.claim_computer_job(1, 80, 200))
        .unwrap());
    s.transaction(|tx| tx.release_computer_job(1)).unwrap();
    s.transaction(|tx| tx.finish_computer_job(2)).unwrap();
    assert_eq!(s.read(|r| r.computer_jobs()).unwrap(), vec![(1, 1)]);

    assert_eq!(
        s.transaction(|tx| tx.quarantine("game", 7, "bad", 10))
            .unwrap(),
        1
    );
    assert_eq!(
        s.transaction(|tx| tx.quarantine("game", 7, "still bad", 20))
            .unwrap(),
        2
    );
    assert_eq!(
        s.read(|r| r.quarantined()).unwrap(),
        vec![QuarantineRow {
            kind: "game".into(),
            ref_id: 7,
            error: "still bad".into(),
            count: 2,
            first_at: 10,
            last_at: 20
        }]
    );
    assert!(s
        .transaction(|tx| tx.release_quarantine("game", 7))
        .unwrap());
    assert!(!s.read(|r| r.is_quarantined("game", 7)).unwrap());

    s.transaction(|tx| {
        tx.record_action(1, "challenge", 100)?;
        tx.record_action(1, "challenge", 200)?;
        tx.record_action(2, "hint", 300)
    })
    .unwrap();
    s.peek(|r| {
        assert_eq!(r.actions_since(1, "challenge", 150).unwrap(), 1);
        assert_eq!(r.last_action(1, "challenge").unwrap(), Some(200));
        assert_eq!(r.last_action(1, "resign").unwrap(), None);
        assert_eq!(r.oldest_action_since(1, "challenge", 0).unwrap(), Some(100));
    })
    .unwrap();
    assert!(s
        .transaction(|tx| tx.remember_request("r1", "1:1", 100))
        .unwrap());
    assert!(
        !s.transaction(|tx| tx.remember_request("r1", "other", 101))
            .unwrap(),
        "the first answer stays"
    );
    assert_eq!(
        s.read(|r| r.answered("r1")).unwrap().as_deref(),
        Some("1:1")
    );
    assert_eq!(s.transaction(|tx| tx.prune_requests(101)).unwrap(), 1);
    assert_eq!(s.transaction(|tx| tx.prune_actions(150)).unwrap(), 1);
}

fn games_records_and_leaderboard(backend: Backend) {
    let db = Db::new(backend, "games");
    let s = db.open();
    let (g1, g2, g3) = s
        .transaction(|tx| -> Result<_, StoreError> {
            for (id, name) in [(1, "alice"), (2, "bob"), (3, "carol")] {
                tx.upsert_player(id, name, 0)?;
            }
            let g1 = tx.insert_game(&new_game(1, 2))?;
            let g2 = tx.insert_game(&new_game(2, 1))?;
            let g3 = tx.insert_game(&new_game(1, 3))?;
            Ok((g1, g2, g3))
        })
        .unwrap();
    assert!(g1 < g2 && g2 < g3);
    s.transaction(|tx| {
        tx.append_move(g1, 0, 1, "7g7f", "sfen-after", Some(2000), 5)?;
        tx.set_thread(g3, 99)?;
        tx.set_ladder(g3)
    })
    .unwrap();
    // A stale version is a conflict and changes nothing.
    assert!(matches!(
        s.transaction(|tx| tx.append_move(g1, 0, 1, "2g2f", "x", None, 6)),
        Err(StoreError::Conflict)
    ));
    assert_eq!(s.read(|r| r.moves(g1)).unwrap(), vec!["7g7f".to_string()]);
    s.transaction(|tx| {
        tx.finish_game(g1, 1, "sente", "checkmate", 10)?;
        tx.set_rating(1, g1, 1500.0, 1516.0, 10)?;
        tx.set_rating(2, g1, 1500.0, 1484.0, 10)?;
        // Points and Taler: the loser gains on Taler (a stake won elsewhere),
        // so the two rankings differ; a stake larger than the balance
        // takes nothing.
        tx.add_to_purse(1, 10, -200)?;
        tx.add_to_purse(2, -10, 0)?;
        assert!(tx.take_stake(2, 300)?);
        assert!(!tx.take_stake(1, 801)?);
        tx.add_to_purse(2, 0, 600)?;
        tx.finish_game(g2, 0, "draw", "sennichite", 11)?;
        tx.finish_game(g3, 0, "gote", "resignation", 12)
    })
    .unwrap();
    s.peek(|r| {
        assert_eq!(r.record_of(1).unwrap(), (1, 1, 1, 0));
        assert_eq!(r.record_against(1, 2).unwrap(), (1, 0, 1));
        assert_eq!(
            r.results_against(1, 2).unwrap(),
            vec![(None, true), (None, false)]
        );
        assert_eq!(r.ladder_results(1).unwrap(), vec![(None, false)]);
        assert!(r.is_ladder(g3).unwrap() && !r.is_ladder(g1).unwrap());
        assert_eq!(r.game_in_thread(99).unwrap().unwrap().id, g3);
        let ranked = |by| {
            r.leaderboard(Some(10), by, 10)
                .unwrap()
                .iter()
                .map(|p| (p.user_id, p.points, p.taler))
                .collect::<Vec<_>>()
        };
        assert_eq!(ranked(Ranking::Elo), vec![(1, 10, 800), (2, -10, 1300)]);
        assert_eq!(ranked(Ranking::Points), vec![(1, 10, 800), (2, -10, 1300)]);
        assert_eq!(ranked(Ranking::Taler), vec![(2, -10, 1300), (1, 10, 800)]);
        assert!(r
            .leaderboard(Some(11), Ranking::Elo, 10)
            .unwrap()
            .is_empty());
        assert_eq!(
            r.leaderboard(None, Ranking::Elo, 1).unwrap()[0].rating,
            1516.0
        );
        assert_eq!(r.recent_games_of(1, 2).unwrap()[0].id, g3);
        assert!(r.active_games_of(1).unwrap().is_empty());
    })
    .unwrap();
}

fn puzzles_and_lessons(backend: Backend) {
    let db = Db::new(backend, "puzzles");
    let s = db.open();
    s.transaction(|tx| {
        tx.upsert_player(5, "eve", 0)?;
        for (id, plies) in [("a", 1), ("b", 3), ("c", 3)] {
            tx.insert_puzzle(&PuzzleRow {
                id: id.into(),
                plies,
                sfen: "sfen".into(),
                solution: "x".into(),
            })?;
        }
        // Loading again keeps what is there.
        tx.insert_puzzle(&PuzzleRow {
            id: "a".into(),
            plies: 9,
            sfen: "other".into(),
            solution: "y".into(),
        })
    })
    .unwrap();
    s.peek(|r| {
        assert_eq!(r.puzzle_count().unwrap(), 3);
        assert_eq!(r.puzzle("a").unwrap().unwrap().plies, 1);
        assert_eq!(r.nth_puzzle(None, 4).unwrap().as_deref(), Some("b"));
        assert_eq!(r.nth_puzzle(Some(3), 1).unwrap().as_deref(), Some("c"));
        assert_eq!(r.nth_puzzle(Some(5), 0).unwrap(), None);
    })
    .unwrap();
    s.transaction(|tx| {
        tx.count_daily_attempt(7, 5, "b")?;
        tx.count_daily_attempt(7, 5, "b")?;
        tx.start_puzzle_session(5, "b", Some(7), 100)?;
        tx.set_lesson(5, 3, 100)?;
        tx.set_lesson(5, 4, 101)
    })
    .unwrap();
    assert!(s
        .transaction(|tx| tx.advance_puzzle_session(5, "b", "", "7g7f 3c3d"))
        .unwrap());
    assert!(
        !s.transaction(|tx| tx.advance_puzzle_session(5, "b", "", "2g2f"))
            .unwrap(),
        "the moves changed meanwhile"
    );
    assert_eq!(
        s.read(|r| r.puzzle_session(5)).unwrap().unwrap().moves,
        "7g7f 3c3d"
    );
    assert!(s
        .transaction(|tx| tx.end_puzzle_session(5, "b", "7g7f 3c3d"))
        .unwrap());
    assert_eq!(
        s.transaction(|tx| tx.solve_daily(7, 5, 200)).unwrap(),
        Some(2)
    );
    s.peek(|r| {
        assert!(!r.has_puzzle_session(5).unwrap());
        assert_eq!(r.daily_result(7, 5).unwrap(), Some(Some(200)));
        assert_eq!(r.daily_result(8, 5).unwrap(), None);
        let solvers = r.daily_solvers(7).unwrap();
        assert_eq!((solvers[0].name.as_str(), solvers[0].attempts), ("eve", 2));
        assert_eq!(r.solved_days(5).unwrap(), vec![7]);
        assert_eq!(r.lesson_of(5).unwrap(), Some(4));
    })
    .unwrap();
}

/// Two processes claim the same notices, reminders and requests at the
/// same moment: each is won by exactly one.
fn two_processes_claim_each_item_once(backend: Backend) {
    const NOTICES: i64 = 60;
    const THREADS: usize = 8;
    let db = Db::new(backend, "claims");
    let stores = [Arc::new(db.open()), Arc::new(db.open())];
    let ids: Vec<i64> = stores[0]
        .transaction(|tx| -> Result<Vec<i64>, StoreError> {
            tx.upsert_player(1, "a", 0)?;
            tx.upsert_player(2, "b", 0)?;
            tx.insert_game(&new_game(1, 2))?;
            (0..NOTICES)
                .map(|i| tx.push_outbox(&i.to_string(), 0))
                .collect()
        })
        .unwrap();
    let barrier = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let store = stores[t % 2].clone();
            let ids = ids.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                let mut won = Vec::new();
                for &id in &ids {
                    if store
                        .transaction(|tx| tx.claim_outbox(id, 10, 100))
                        .unwrap()
                    {
                        won.push(id);
                    }
                }
                let reminded = store.transaction(|tx| tx.mark_reminded(1, 1)).unwrap();
                let answered = store
                    .transaction(|tx| tx.remember_request("same", &t.to_string(), 10))
                    .unwrap();
                (won, reminded, answered)
            })
        })
        .collect();
    let mut won = Vec::new();
    let (mut reminders, mut answers) = (0, 0);
    for h in handles {
        let (w, r, a) = h.join().expect("no panic");
        won.extend(w);
        reminders += usize::from(r);
        answers += usize::from(a);
    }
    won.sort_unstable();
    assert_eq!(won, ids, "every notice claimed exactly once");
    assert_eq!(reminders, 1, "one reminder");
    assert_eq!(answers, 1, "one answer per request id");
}

/// Two apps (two processes) on one database; each player sends every one of
/// their moves from four threads spread over both apps. Every move is
/// stored exactly once, in order, and the stored game replays legally.
fn two_apps_play_the_same_games(backend: Backend) {
    const GAMES: usize = 4;
    const PLIES: usize = 20;
    const COPIES: usize = 4;
    let db = Db::new(backend, "race");
    let apps: Vec<Arc<App>> = (0..2)
        .map(|i| {
            Arc::new(App::new(
                db.open(),
                Arc::new(ManualClock::new(1_800_000_000)),
                Arc::new(SeededDice::new(i)),
            ))
        })
        .collect();
    let mut games = Vec::new();
    for g in 0..GAMES {
        let a = Caller::new(100 + g as i64, &format!("a{g}"), Lang::En);
        let b = Caller::new(200 + g as i64, &format!("b{g}"), Lang::En);
        let opts = ChallengeOptions {
            rated: false,
            color: Some(komadai::shogi::Color::Sente),
            ..Default::default()
        };
        let c = apps[0]
            .challenge(&a, Some((b.id, &b.name)), &opts, Place::default())
            .unwrap();
        let challenge_id = c.buttons[0]
            .id
            .split(':')
            .nth(1)
            .and_then(|n| n.parse().ok())
            .expect("challenge id on the button");
        let r = apps[1].accept(&b, challenge_id, Place::default()).unwrap();
        let game_id = r.board.expect("the game's board").game_id;
        games.push((game_id, a, b, Game::random_line(g as u64, PLIES)));
    }
    let mut handles = Vec::new();
    for (game_id, a, b, seq) in games.clone() {
        for (side, caller) in [(0usize, a), (1usize, b)] {
            for copy in 0..COPIES {
                let app = apps[copy % 2].clone();
                let (caller, seq) = (caller.clone(), seq.clone());
                handles.push(std::thread::spawn(move || {
                    for k in (side..PLIES).step_by(2) {
                        let usi = seq[k].to_string();
                        // Wait for the turn, then send; a copy that loses the
                        // race is refused, never stored twice. (A deadline,
                        // not a number of tries: a busy machine is slow.)
                        let end = std::time::Instant::now() + std::time::Duration::from_secs(120);
                        while std::time::Instant::now() < end {
                            let ply = app
                                .with_store(|s| s.read(|r| r.game(game_id)))
                                .unwrap()
                                .unwrap()
                                .unwrap()
                                .ply as usize;
                            if ply > k {
                                break;
                            }
                            if ply == k {
                                // Copies of one move share a request id, as
                                // a retried interaction does: a copy that
                                // arrives late, when the same move text is
                                // legal again, is "already done", not a
                                // second move.
                                let request = format!("g{game_id}p{k}");
                                let _ = app.play_move(
                                    &caller,
                                    Some(game_id),
                                    &usi,
                                    Place::default(),
                                    Some(&request),
                                );
                            } else {
                                std::thread::yield_now();
                            }
                        }
                    }
                }));
            }
        }
    }
    for h in handles {
        h.join().expect("no panic");
    }
    for (game_id, _, _, seq) in games {
        let moves = apps[0]
            .with_store(|s| s.read(|r| r.moves(game_id)))
            .unwrap()
            .unwrap();
        let want: Vec<String> = seq.iter().map(ToString::to_string).collect();
        assert_eq!(moves, want, "game {game_id}: each move once, in order");
        let mut pos = Position::startpos();
        for m in &moves {
            pos.play(Move::from_usi(m).unwrap()).expect("legal");
        }
    }
}

/// A member with room for one more game has two challenges accepted at the
/// same moment in two processes: one game starts, the other accept is
/// refused (the challenger's row is locked while their games are counted).
fn concurrent_accepts_keep_the_challengers_cap(backend: Backend) {
    const ROUNDS: i64 = 12;
    let db = Db::new(backend, "caps");
    let caps = komadai::app::Caps {
        active_games: 1,
        ..Default::default()
    };
    let apps: Vec<Arc<App>> = (0..2)
        .map(|i| {
            Arc::new(
                App::new(
                    db.open(),
                    Arc::new(ManualClock::new(1_800_000_000)),
                    Arc::new(SeededDice::new(i)),
                )
                .with_caps(caps.clone()),
            )
        })
        .collect();
    let opts = ChallengeOptions {
        rated: false,
        ..Default::default()
    };
    for round in 0..ROUNDS {
        let challenger = Caller::new(1000 + round, &format!("c{round}"), Lang::En);
        let takers = [
            Caller::new(2000 + round, &format!("a{round}"), Lang::En),
            Caller::new(3000 + round, &format!("b{round}"), Lang::En),
        ];
        let ids: Vec<i64> = takers
            .iter()
            .map(|t| {
                let c = apps[0]
                    .challenge(&challenger, Some((t.id, &t.name)), &opts, Place::default())
                    .unwrap();
                c.buttons[0].id.split(':').nth(1).unwrap().parse().unwrap()
            })
            .collect();
        let barrier = Arc::new(Barrier::new(2));
        let results: Vec<bool> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..2)
                .map(|i| {
                    let (app, taker, id, barrier) =
                        (apps[i].clone(), takers[i].clone(), ids[i], barrier.clone());
                    scope.spawn(move || {
                        barrier.wait();
                        app.accept(&taker, id, Place::default()).is_ok()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(
            results.iter().filter(|&&ok| ok).count(),
            1,
            "round {round}: exactly one accept starts a game"
        );
        let games = apps[0]
            .with_store(|s| s.read(|r| r.active_game_count(challenger.id)))
            .unwrap()
            .unwrap();
        assert_eq!(games, 1, "round {round}: the cap of one game holds");
    }
}

/// Two processes step the same league at the same moment, round after
/// round: each round is started once (its games and its announcement once),
/// and two members racing for the last place of a league: one gets it.
fn two_processes_step_a_league_once(backend: Backend) {
    use komadai::app::{Action, LeagueOp, LeagueOptions, Notice};
    let db = Db::new(backend, "league");
    let apps: Vec<Arc<App>> = (0..2)
        .map(|i| {
            Arc::new(App::new(
                db.open(),
                Arc::new(ManualClock::new(1_800_000_000)),
                Arc::new(SeededDice::new(i)),
            ))
        })
        .collect();
    let place = Place {
        guild: Some(5),
        channel: Some(50),
    };
    let mut boss = Caller::new(1, "boss", Lang::En);
    boss.manages_server = true;
    let options = LeagueOptions {
        name: "Race".into(),
        start: Some("now".into()),
        max_players: Some(6),
        ..LeagueOptions::default()
    };
    apps[0]
        .league(&boss, LeagueOp::Create(&options), place)
        .unwrap();
    let players: Vec<Caller> = (0..7)
        .map(|i| Caller::new(100 + i, &format!("p{i}"), Lang::En))
        .collect();
    for p in &players[..5] {
        apps[(p.id % 2) as usize]
            .league(p, LeagueOp::Join(None), place)
            .unwrap();
    }
    let both = |f: &(dyn Fn(usize) -> bool + Sync)| -> Vec<bool> {
        let barrier = Barrier::new(2);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..2)
                .map(|i| {
                    let barrier = &barrier;
                    scope.spawn(move || {
                        barrier.wait();
                        f(i)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        })
    };
    let joined = both(&|i| {
        apps[i]
            .league(&players[5 + i], LeagueOp::Join(None), place)
            .is_ok()
    });
    assert_eq!(
        joined.iter().filter(|&&j| j).count(),
        1,
        "one takes the last place"
    );
    let in_league: Vec<&Caller> = players
        .iter()
        .enumerate()
        .filter(|(i, _)| *i < 5 || joined[i - 5])
        .map(|(_, p)| p)
        .collect();
    for round in 1..=5 {
        both(&|i| apps[i].tick().is_ok());
        let (league, pairings) = apps[0]
            .with_store(|s| s.read(|r| Ok::<_, StoreError>((r.league(1)?, r.league_pairings(1)?))))
            .unwrap()
            .unwrap();
        assert_eq!(league.unwrap().round, round, "round {round} started");
        let games: Vec<i64> = pairings
            .iter()
            .filter(|p| p.round == round)
            .filter_map(|p| p.game_id)
            .collect();
        assert_eq!(games.len(), 3, "round {round}: {pairings:?}");
        let notices = apps[0].pending_notices().unwrap();
        let posts = notices
            .iter()
            .filter(|(_, n, _)| matches!(n, Notice::LeagueRound { round: r, .. } if *r == round))
            .count();
        assert_eq!(posts, 1, "round {round} announced once");
        let starts = notices
            .iter()
            .filter(|(_, n, _)| matches!(n, Notice::LeagueGame { .. }))
            .count();
        assert_eq!(starts, 3, "each game of round {round} announced once");
        for (id, _, _) in notices {
            apps[0].ack_notice(id).unwrap();
        }
        // Sente resigns every game.
        for g in games {
            let row = apps[0]
                .with_store(|s| s.read(|r| r.game(g)))
                .unwrap()
                .unwrap()
                .unwrap();
            let sente = in_league.iter().find(|p| p.id == row.sente).unwrap();
            apps[1]
                .game_action(sente, Some(g), Action::ResignConfirmed, place)
                .unwrap();
        }
    }
    both(&|i| apps[i].tick().is_ok());
    let league = apps[0]
        .with_store(|s| s.read(|r| r.league(1)))
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(league.status, "finished");
    let ends = apps[0]
        .pending_notices()
        .unwrap()
        .iter()
        .filter(|(_, n, _)| matches!(n, Notice::LeagueEnded { .. }))
        .count();
    assert_eq!(ends, 1, "the final standings once");
}

macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[test]
            fn $name() {
                super::$name(komadai::store::Backend::Sqlite);
            })*
        }
        mod postgres {
            $(#[test]
            fn $name() {
                if super::pg::available() {
                    super::$name(komadai::store::Backend::Postgres);
                }
            })*
        }
    };
}

on_both_backends!(
    two_processes_step_a_league_once,
    concurrent_accepts_keep_the_challengers_cap,
    outbox_retries_with_backoff_and_dead_letters,
    computer_jobs_quarantine_actions_and_requests,
    games_records_and_leaderboard,
    puzzles_and_lessons,
    two_processes_claim_each_item_once,
    two_apps_play_the_same_games,
);

/// One schema history per backend, and a test that they agree: the same
/// tables with the same columns, at the same version.
#[test]
fn both_schemas_have_the_same_tables_and_columns() {
    let Some(url) = pg::fresh_database("schema") else {
        return;
    };
    let sqlite = Store::open_in_memory().unwrap();
    let postgres = Store::open(&url).unwrap();
    assert_eq!(
        sqlite.user_version().unwrap(),
        postgres.user_version().unwrap()
    );
    assert_eq!(
        sqlite.schema_columns().unwrap(),
        postgres.schema_columns().unwrap()
    );
    // Opening again (another process starting) migrates nothing twice.
    let again = Store::open(&url).unwrap();
    assert_eq!(
        again.user_version().unwrap(),
        komadai::store::schema_version() as i64
    );
    assert_eq!(again.integrity_check().unwrap(), "ok");
}
