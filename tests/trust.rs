//! Trust at the edges (issue #17): regression tests for what a new user
//! found, each written to fail on the code before the fix.
//!
//! - a command in a game's thread means that game or nothing;
//! - `/resign` asks first and says whether it loses or aborts;
//! - a custom start position that is already over is refused;
//! - a move against a busy computer is stored with a durable job that a
//!   worker plays later, also after a restart, and announces in the game's place;
//! - a stranger's `/board game:N` changes nothing.

use std::path::Path;
use std::sync::Arc;

use komadai::app::{
    Action, App, AppError, ButtonAction, Caller, ChallengeOptions, ComputerOptions, ManualClock,
    Msg, Notice, Place, Refusal, Reply, SeededDice, StartProblem, Visibility,
};
use komadai::engine::Level;
use komadai::i18n::{Lang, Localize};
use komadai::shogi::{Color, Position, Variant};
use komadai::store::Store;

const T0: i64 = 1_800_000_000;
const GUILD: i64 = 9;
const CHANNEL: i64 = 70;

fn app_at(db: &Path) -> App {
    App::new(
        Store::open(db).expect("store"),
        Arc::new(ManualClock::new(T0)),
        Arc::new(SeededDice::new(5)),
    )
}

fn who(id: i64, name: &str) -> Caller {
    Caller::new(id, name, Lang::En)
}

fn channel() -> Place {
    Place {
        guild: Some(GUILD),
        channel: Some(CHANNEL),
    }
}

fn thread(id: i64) -> Place {
    Place {
        guild: Some(GUILD),
        channel: Some(id),
    }
}

fn refusal(r: Result<Reply, AppError>) -> Refusal {
    match r {
        Err(AppError::Refused(r)) => r,
        Ok(reply) => panic!("expected a refusal, got {}", reply.msg.localize(Lang::En)),
        Err(AppError::Internal(e)) => panic!("expected a refusal, got internal error {e}"),
    }
}

/// Starts a friendly game between `a` (Sente) and `b` and gives it `thread`.
fn game(app: &App, a: &Caller, b: &Caller, thread_id: i64) -> i64 {
    let opts = ChallengeOptions {
        rated: false,
        color: Some(Color::Sente),
        ..ChallengeOptions::default()
    };
    let c = app
        .challenge(a, Some((b.id, &b.name)), &opts, channel())
        .expect("challenge");
    let Msg::ChallengeMade { id, .. } = c.msg else {
        panic!("no challenge")
    };
    let r = app.accept(b, id, channel()).expect("accept");
    let game_id = r.board.expect("board").game_id;
    app.set_game_thread(game_id, thread_id).expect("thread");
    game_id
}

fn snapshot(app: &App, games: &[i64]) -> Vec<(i64, String, String, Vec<String>)> {
    app.with_store(|s| {
        games
            .iter()
            .map(|&g| {
                let row = s.read(|r| r.game(g)).expect("read").expect("game");
                (
                    row.ply,
                    row.status,
                    row.sfen,
                    s.read(|r| r.moves(g)).expect("moves"),
                )
            })
            .collect()
    })
    .expect("store")
}

#[test]
fn a_game_thread_means_that_game_or_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let app = app_at(&dir.path().join("t.db"));
    let (alice, bob, carol, dave) = (
        who(1, "alice"),
        who(2, "bob"),
        who(3, "carol"),
        who(4, "dave"),
    );
    let g1 = game(&app, &alice, &bob, 501);
    let g2 = game(&app, &carol, &dave, 502);
    let before = snapshot(&app, &[g1, g2]);
    // Carol plays only game 2; in game 1's thread her move, her resignation
    // and her board are refused and name game 1.
    for r in [
        app.move_command(&carol, None, "2g2f", thread(501), Some("r1")),
        app.game_action(&carol, None, Action::Resign, thread(501)),
        app.press(&carol, &format!("resign-yes:{g2}"), thread(501)),
        app.board(&carol, None, thread(501)),
        app.takeback(&carol, None, thread(501)),
        app.hint(&carol, None, thread(501)),
    ] {
        let r = refusal(r);
        assert!(
            matches!(r, Refusal::ThreadIsGame { game_id, .. } if game_id == g1),
            "{r:?}"
        );
        let text = r.localize(Lang::En);
        assert!(text.contains("game #1 between alice and bob"), "{text}");
    }
    assert_eq!(
        snapshot(&app, &[g1, g2]),
        before,
        "a refusal changed a game"
    );
    // Alice naming another game in game 1's thread is refused too.
    let r = refusal(app.board(&alice, Some(g2), thread(501)));
    assert!(matches!(r, Refusal::ThreadIsGame { .. }), "{r:?}");
    // Alice's move in her thread plays in her game.
    let r = app
        .move_command(&alice, None, "7g7f", thread(501), None)
        .expect("move");
    assert!(
        matches!(r.msg, Msg::MovePlayed { game_id, .. } if game_id == g1),
        "{:?}",
        r.msg
    );
    // Game 1 ends; Alice starts game 3 with Carol. In game 1's finished
    // thread /move says the game is over, /board and /export show game 1.
    app.press(&bob, &format!("resign-yes:{g1}"), thread(501))
        .expect("bob resigns");
    let g3 = game(&app, &alice, &carol, 503);
    let before = snapshot(&app, &[g1, g3]);
    let r = refusal(app.move_command(&alice, None, "2g2f", thread(501), None));
    assert_eq!(r, Refusal::GameIsOver);
    let r = app.board(&alice, None, thread(501)).expect("board");
    assert_eq!(r.board.expect("board").game_id, g1);
    let r = app
        .export(
            &alice,
            None,
            komadai::notation::RecordFormat::Kif,
            thread(501),
        )
        .expect("export");
    assert_eq!(r.attachment.expect("file").0, format!("komadai-{g1}.kifu"));
    let r = app.replay(&alice, None, None, thread(501)).expect("replay");
    assert_eq!(r.board.expect("board").game_id, g1);
    assert_eq!(snapshot(&app, &[g1, g3]), before);
    // Nothing new starts inside a game's thread.
    let friendly = ChallengeOptions {
        rated: false,
        ..ChallengeOptions::default()
    };
    let r = refusal(app.challenge(&carol, Some((2, "bob")), &friendly, thread(501)));
    assert!(matches!(r, Refusal::ThreadIsGame { .. }), "{r:?}");
    let opts = ComputerOptions {
        level: Level::Beginner,
        variant: Variant::Minishogi,
        handicap: None,
        color: Some(Color::Sente),
    };
    let r = refusal(app.play_computer(&carol, &opts, thread(501)));
    assert!(matches!(r, Refusal::ThreadIsGame { .. }), "{r:?}");
    assert_eq!(snapshot(&app, &[g1, g3]), before);
    // Outside a thread, with two active games and no game:, ask which.
    game(&app, &alice, &dave, 504);
    match refusal(app.move_command(&alice, None, "2g2f", channel(), None)) {
        Refusal::WhichGame(lines) => assert_eq!(lines.len(), 2),
        other => panic!("{other:?}"),
    }
}

#[test]
fn resign_asks_first_and_says_loss_or_abort() {
    let dir = tempfile::tempdir().expect("dir");
    let app = app_at(&dir.path().join("t.db"));
    let (alice, bob, carol) = (who(1, "alice"), who(2, "bob"), who(3, "carol"));
    let g = game(&app, &alice, &bob, 600);
    let before = snapshot(&app, &[g]);
    let ask = app
        .game_action(&alice, None, Action::Resign, thread(600))
        .expect("question");
    assert_eq!(ask.visibility, Visibility::Caller);
    assert_eq!(
        ask.msg,
        Msg::ConfirmResign {
            game_id: g,
            abort: true
        }
    );
    let ids: Vec<_> = ask.buttons.iter().map(|b| b.id.clone()).collect();
    assert_eq!(ids, [format!("resign-yes:{g}"), format!("resign-no:{g}")]);
    assert!(ask.msg.localize(Lang::De).contains("abgebrochen"));
    assert_eq!(snapshot(&app, &[g]), before, "asking changed the game");
    // Cancel: nothing changes, the question is replaced.
    let no = app
        .press(&alice, &format!("resign-no:{g}"), thread(600))
        .expect("cancel");
    assert!(no.replace);
    assert_eq!(snapshot(&app, &[g]), before);
    // A stranger cannot press Alice's button.
    let r = refusal(app.press(&carol, &format!("resign-yes:{g}"), channel()));
    assert_eq!(r, Refusal::NotYourGame);
    assert_eq!(snapshot(&app, &[g]), before);
    // After ten plies the question says it loses.
    for (i, m) in [
        "7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d",
    ]
    .iter()
    .enumerate()
    {
        let p = if i % 2 == 0 { &alice } else { &bob };
        app.move_command(p, None, m, thread(600), None)
            .expect("move");
    }
    let ask = app
        .game_action(&alice, None, Action::Resign, thread(600))
        .expect("question");
    assert_eq!(
        ask.msg,
        Msg::ConfirmResign {
            game_id: g,
            abort: false
        }
    );
    let done = app
        .press(&alice, &format!("resign-yes:{g}"), thread(600))
        .expect("resign");
    assert_eq!(done.visibility, Visibility::Public);
    assert!(
        done.msg
            .localize(Lang::En)
            .contains("bob wins by resignation"),
        "{}",
        done.msg.localize(Lang::En)
    );
    let again = refusal(app.press(&alice, &format!("resign-yes:{g}"), thread(600)));
    assert_eq!(again, Refusal::GameIsOver);
    assert_eq!(ButtonAction::ResignYes.key(), "resign-yes");
}

#[test]
fn a_start_position_that_is_already_over_is_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let app = app_at(&dir.path().join("t.db"));
    let alice = who(1, "alice");
    // Gote to move and mated: the gold on 5b, backed by the pawn on 5c.
    // (A side not to move in check is refused by the SFEN parser already.)
    let cases = [
        ("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", StartProblem::Checkmate),
        // Gote to move, not in check, and every king move is covered.
        ("8k/7P1/8G/9/9/9/9/9/4K4 w - 1", StartProblem::NoLegalMove),
    ];
    for (sfen, why) in cases {
        let opts = ChallengeOptions {
            rated: false,
            start: Some(Position::from_sfen(sfen).expect("sfen")),
            ..ChallengeOptions::default()
        };
        let r = refusal(app.challenge(&alice, None, &opts, channel()));
        assert_eq!(r, Refusal::StartIsOver(why), "{sfen}");
        assert!(!r.localize(Lang::De).is_empty());
    }
    // A playable composed position is fine.
    let opts = ChallengeOptions {
        rated: false,
        start: Some(Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").expect("sfen")),
        ..ChallengeOptions::default()
    };
    app.challenge(&alice, None, &opts, channel())
        .expect("a playable start is accepted");
}

#[test]
fn the_computer_answers_later_when_busy_and_after_a_restart() {
    let dir = tempfile::tempdir().expect("dir");
    let db = dir.path().join("t.db");
    let alice = who(1, "alice");
    let stranger = who(3, "carol");
    let game_id;
    {
        let app = app_at(&db);
        let opts = ComputerOptions {
            level: Level::Beginner,
            variant: Variant::Standard,
            handicap: None,
            color: Some(Color::Sente),
        };
        let r = app.play_computer(&alice, &opts, channel()).expect("play");
        game_id = r.board.expect("board").game_id;
        app.set_game_thread(game_id, 700).expect("thread");
        // The engine is gone (as when busy or shutting down): the move is
        // stored, the player is told the answer will be posted.
        app.shutdown();
        let r = app
            .move_command(&alice, None, "7g7f", thread(700), Some("m1"))
            .expect("the move is stored");
        let text = r.msg.localize(Lang::En);
        assert!(text.contains("its move will be posted here"), "{text}");
        assert_eq!(r.visibility, Visibility::Public);
        let jobs = app
            .with_store(|s| s.read(|r| r.computer_jobs()))
            .expect("store")
            .expect("jobs");
        assert_eq!(jobs, vec![(game_id, 1)]);
        // A stranger's /board neither moves for the computer nor shows the game.
        let r = refusal(app.board(&stranger, Some(game_id), channel()));
        assert_eq!(r, Refusal::NotYourGame);
        // The process stops here with the job still in the database.
    }
    let app = app_at(&db);
    assert_eq!(app.run_computer_jobs().expect("worker"), 1);
    let row = app
        .with_store(|s| s.read(|r| r.game(game_id)))
        .expect("store")
        .expect("read")
        .expect("game");
    assert_eq!(row.ply, 2, "the computer answered");
    let jobs = app
        .with_store(|s| s.read(|r| r.computer_jobs()))
        .expect("store")
        .expect("jobs");
    assert!(jobs.is_empty(), "{jobs:?}");
    // Its move is announced in the game's thread at once.
    let due = app.due_notices(100).expect("notices");
    let played = due
        .iter()
        .find(|d| matches!(d.notice, Notice::Played { ply: 2, .. }))
        .expect("the computer's move is announced");
    assert_eq!(played.places.first(), Some(&700));
    assert!(
        played
            .reply
            .msg
            .localize(Lang::En)
            .contains("komadai (Beginner) played"),
        "{}",
        played.reply.msg.localize(Lang::En)
    );
    assert_eq!(
        due.iter()
            .filter(|d| matches!(d.notice, Notice::Played { .. }))
            .count(),
        1,
        "the player's own move was acknowledged with the reply's grace"
    );
    // Nothing is left to do.
    assert_eq!(app.run_computer_jobs().expect("worker"), 0);
}

fn app_with(db: &Path, caps: komadai::app::Caps) -> App {
    app_at(db).with_caps(caps)
}

#[test]
fn caps_on_challenges_games_offers_and_pings() {
    use komadai::app::{Caps, Rate};
    let dir = tempfile::tempdir().expect("dir");
    let caps = Caps {
        open_challenges: 3,
        active_games: 2,
        computer_games: 2,
        pings: Rate {
            max: 4,
            window: 600,
        },
        ..Caps::default()
    };
    let app = app_with(&dir.path().join("t.db"), caps);
    let (alice, bob, carol) = (who(1, "alice"), who(2, "bob"), who(3, "carol"));
    let friendly = ChallengeOptions {
        rated: false,
        color: Some(Color::Sente),
        ..ChallengeOptions::default()
    };
    // One open challenge to the same member at a time.
    app.challenge(&alice, Some((2, "bob")), &friendly, channel())
        .expect("first challenge");
    let r = refusal(app.challenge(&alice, Some((2, "bob")), &friendly, channel()));
    assert_eq!(r, Refusal::AlreadyChallenged);
    // Open challenges (to anyone) count too: three at most.
    app.challenge(&alice, None, &friendly, channel())
        .expect("open 2");
    app.challenge(&alice, None, &friendly, channel())
        .expect("open 3");
    let r = refusal(app.challenge(&alice, None, &friendly, channel()));
    assert_eq!(r, Refusal::TooManyChallenges { max: 3 });
    assert!(r.localize(Lang::De).contains("3 offene"));
    // Bob accepts the first; the second open one makes Alice's second game;
    // a third game is one too many for her.
    app.accept(&bob, 1, channel()).expect("game 1");
    app.accept(&carol, 2, channel()).expect("game 2");
    let r = refusal(app.accept(&carol, 3, channel()));
    assert_eq!(r, Refusal::TooManyGames { max: 2, you: false });
    // One pending takeback offer at a time (a friendly game).
    app.move_command(&alice, Some(1), "7g7f", channel(), None)
        .expect("move");
    let offer = app.takeback(&alice, Some(1), channel()).expect("offer");
    assert!(matches!(offer.msg, Msg::TakebackOffered { .. }));
    let r = refusal(app.takeback(&alice, Some(1), channel()));
    assert_eq!(r, Refusal::OfferPending);
    // Pings: challenge to bob, takeback offer = 2 of 4; a rematch offer
    // after the game ends is the third, pressing Rematch again is refused.
    app.press(&bob, "resign-yes:1", channel())
        .expect("bob resigns");
    app.rematch(&bob, 1).expect("rematch offer");
    let r = refusal(app.rematch(&bob, 1));
    assert_eq!(r, Refusal::AlreadyChallenged);
    let dave = who(4, "dave");
    app.challenge(&dave, Some((3, "carol")), &friendly, channel())
        .expect("dave's ping 1");
    // Alice's fourth ping (bob's game is over, carol's is active): she may
    // challenge dave once more, then the rate limit says when to retry.
    app.cancel(&alice, 3).expect("withdraw");
    app.challenge(&alice, Some((4, "dave")), &friendly, channel())
        .expect("ping 3");
    app.cancel(&alice, 6).expect("withdraw");
    app.challenge(&alice, Some((5, "erin")), &friendly, channel())
        .expect("ping 4");
    app.cancel(&alice, 7).expect("withdraw");
    match refusal(app.challenge(&alice, Some((6, "frank")), &friendly, channel())) {
        Refusal::RateLimited { seconds } => assert!((1..=600).contains(&seconds), "{seconds}"),
        other => panic!("{other:?}"),
    }
    // Games against the computer: two at most.
    let opts = ComputerOptions {
        level: Level::Beginner,
        variant: Variant::Minishogi,
        handicap: None,
        color: Some(Color::Sente),
    };
    app.play_computer(&carol, &opts, channel()).expect("1");
    app.play_computer(&carol, &opts, channel()).expect("2");
    let r = refusal(app.play_computer(&carol, &opts, channel()));
    assert_eq!(r, Refusal::TooManyComputerGames { max: 2 });
}

#[test]
fn expensive_commands_are_rate_limited_per_member() {
    use komadai::app::{Caps, Rate};
    let dir = tempfile::tempdir().expect("dir");
    let caps = Caps {
        analyze: Rate {
            max: 1,
            window: 600,
        },
        puzzle: Rate { max: 2, window: 60 },
        ..Caps::default()
    };
    let app = app_with(&dir.path().join("t.db"), caps);
    app.load_puzzles().expect("puzzles");
    let (alice, bob) = (who(1, "alice"), who(2, "bob"));
    let opts = ComputerOptions {
        level: Level::Beginner,
        variant: Variant::Minishogi,
        handicap: None,
        color: Some(Color::Sente),
    };
    app.play_computer(&alice, &opts, channel()).expect("game");
    app.analyze(&alice, None, channel())
        .expect("first analysis");
    match refusal(app.analyze(&alice, None, channel())) {
        Refusal::RateLimited { seconds } => assert!((1..=600).contains(&seconds)),
        other => panic!("{other:?}"),
    }
    // Another member is not affected.
    app.play_computer(&bob, &opts, channel()).expect("game");
    app.analyze(&bob, None, channel()).expect("bob's analysis");
    let kind = komadai::app::PuzzleKind::Random(Some(1));
    app.start_puzzle(&alice, kind).expect("puzzle 1");
    app.start_puzzle(&alice, kind).expect("puzzle 2");
    let r = refusal(app.start_puzzle(&alice, kind));
    assert!(matches!(r, Refusal::RateLimited { .. }), "{r:?}");
}

#[test]
fn an_unacknowledged_announcement_is_delivered_by_the_outbox() {
    let dir = tempfile::tempdir().expect("dir");
    let clock = Arc::new(ManualClock::new(T0));
    let app = App::new(
        Store::open(dir.path().join("t.db")).expect("store"),
        clock.clone(),
        Arc::new(SeededDice::new(5)),
    );
    let (alice, bob) = (who(1, "alice"), who(2, "bob"));
    let g = game(&app, &alice, &bob, 800);
    // The answer to Alice's move never reaches Discord (the process dies,
    // or Discord refuses it): nobody acknowledges its announcement.
    let r = app
        .move_command(&alice, None, "7g7f", thread(800), None)
        .expect("move");
    assert_eq!(r.announcements.len(), 1);
    assert!(app.due_notices(10).expect("due").is_empty(), "grace first");
    clock.advance(komadai::app::ANNOUNCE_GRACE);
    let due = app.due_notices(10).expect("due");
    assert_eq!(due.len(), 1, "{due:?}");
    assert_eq!(due[0].notice, Notice::Played { game_id: g, ply: 1 });
    assert_eq!(due[0].places.first(), Some(&800));
    let text = due[0].reply.msg.localize(Lang::En);
    assert!(text.contains("alice played ▲７六歩 (P-7f)"), "{text}");
    assert_eq!(due[0].reply.notify, vec![2], "bob is pinged");
    assert!(due[0].reply.board.is_some());
    app.ack_notice(due[0].id).expect("ack");
    // A resignation is announced the same way; an acknowledged one is not.
    app.game_action(&bob, None, Action::Resign, thread(800))
        .expect("question");
    let done = app
        .press(&bob, &format!("resign-yes:{g}"), thread(800))
        .expect("resign");
    assert_eq!(done.announcements.len(), 1);
    clock.advance(komadai::app::ANNOUNCE_GRACE);
    let due = app.due_notices(10).expect("due");
    assert_eq!(due.len(), 1, "{due:?}");
    assert_eq!(due[0].notice, Notice::Ended { game_id: g });
    assert!(due[0].reply.msg.localize(Lang::En).contains("aborted"));
}
