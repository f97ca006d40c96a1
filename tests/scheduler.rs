//! The scheduler step and the outbox through the app layer on a real SQLite
//! file: one bad row never stops the others (it is quarantined), notices are
//! retried with backoff, dropped when they no longer matter, dead-lettered
//! when they cannot be read; idle games against the computer are aborted and
//! answered request ids pruned.
//!
//! Rows are corrupted with plain SQL on a second connection, as a damaged or
//! hand-edited database would be.

use std::path::PathBuf;
use std::sync::Arc;

use komadai::app::{
    App, Caller, ChallengeOptions, ComputerOptions, ManualClock, Msg, Notice, Place, SeededDice,
    SettingsChange, DAY,
};
use komadai::engine::Level;
use komadai::i18n::Lang;
use komadai::shogi::{Color, Outcome, Variant};
use komadai::store::{Store, OUTBOX_MAX_ATTEMPTS};
use rusqlite::Connection;

const T0: i64 = 1_800_000_000;
const PLACE: Place = Place {
    guild: Some(9),
    channel: Some(77),
};

struct World {
    _dir: tempfile::TempDir,
    path: PathBuf,
    app: App,
    clock: Arc<ManualClock>,
    alice: Caller,
    bob: Caller,
}

fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.db");
    let clock = Arc::new(ManualClock::new(T0));
    let app = App::new(
        Store::open(&path).unwrap(),
        clock.clone(),
        Arc::new(SeededDice::new(7)),
    );
    World {
        _dir: dir,
        path,
        app,
        clock,
        alice: Caller::new(1, "alice", Lang::En),
        bob: Caller::new(2, "bob", Lang::En),
    }
}

impl World {
    /// A one-day game, alice Sente (to move); returns its id.
    fn game(&self) -> i64 {
        let opts = ChallengeOptions {
            rated: false,
            days: 1,
            color: Some(Color::Sente),
            ..ChallengeOptions::default()
        };
        let r = self
            .app
            .challenge(&self.alice, Some((2, "bob")), &opts, PLACE)
            .unwrap();
        let Msg::ChallengeMade { id, .. } = r.msg else {
            panic!("{:?}", r.msg)
        };
        let r = self.app.accept(&self.bob, id, PLACE).unwrap();
        let Msg::GameStarted { game_id, .. } = r.msg else {
            panic!("{:?}", r.msg)
        };
        game_id
    }

    /// Plain SQL on a second connection (the damage a test inflicts).
    fn sql(&self, sql: &str) {
        let c = Connection::open(&self.path).unwrap();
        c.execute_batch(sql).unwrap();
    }

    fn status(&self, game: i64) -> (String, Option<String>) {
        let row = self
            .app
            .with_store(|s| s.read(|r| r.game(game)).unwrap().unwrap())
            .unwrap();
        (row.status, row.reason)
    }

    fn outbox_len(&self) -> usize {
        self.app
            .with_store(|s| s.read(|r| r.outbox()).unwrap().len())
            .unwrap()
    }

    fn dms_on(&self, who: &Caller) {
        let on = SettingsChange {
            dms: Some(true),
            ..SettingsChange::default()
        };
        self.app.settings(who, &on).unwrap();
    }
}

/// The regression of issue #17 finding 5: before, one transaction covered
/// the whole step and the first game that failed to load aborted it, so no
/// other game ever timed out again.
#[test]
fn corrupt_games_are_quarantined_and_the_healthy_one_still_times_out() {
    let w = world();
    let bad_sfen = w.game();
    w.clock.advance(1);
    let bad_move = w.game();
    w.clock.advance(1);
    let healthy = w.game();
    w.dms_on(&w.alice);
    // The stored position disagrees with the replay; a move is illegal.
    w.sql(&format!(
        "UPDATE games SET sfen = 'lnsgkgsnl/9/9/9/9/9/9/9/LNSGKGSNL b - 1' WHERE id = {bad_sfen};
         INSERT INTO moves (game_id, ply, usi, played_at) VALUES ({bad_move}, 1, '1a1b', 0);
         UPDATE games SET ply = 1 WHERE id = {bad_move};"
    ));
    w.clock.advance(2 * DAY);

    let added = w.app.tick().expect("the step survives bad rows");
    assert_eq!(added, 1, "only the healthy game's timeout");
    assert_eq!(w.status(healthy).0, "finished");
    assert_eq!(w.status(bad_sfen).0, "active");
    assert_eq!(w.status(bad_move).0, "active");

    let due = w.app.due_notices(10).unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].notice, Notice::Timeout { game_id: healthy });
    assert!(matches!(due[0].reply.msg, Msg::GameOver { game_id, .. } if game_id == healthy));
    assert_eq!(due[0].places, vec![77]);
    assert_eq!(due[0].dm, Some(1), "alice was to move and wants DMs");
    assert_eq!(due[0].attempts, 0);
    w.app.ack_notice(due[0].id).unwrap();

    let q = w.app.quarantine_list().unwrap();
    let mut ids: Vec<(String, i64, i64)> = q
        .iter()
        .map(|q| (q.kind.clone(), q.ref_id, q.count))
        .collect();
    ids.sort();
    assert_eq!(
        ids,
        vec![("game".into(), bad_sfen, 1), ("game".into(), bad_move, 1)]
    );
    assert!(q.iter().all(|q| q.error.contains("game")), "{q:?}");

    // Skipped from now on: no new failure, no new notice.
    assert_eq!(w.app.tick().unwrap(), 0);
    assert!(w
        .app
        .quarantine_list()
        .unwrap()
        .iter()
        .all(|q| q.count == 1));

    // Released, it is tried again (and fails again).
    assert!(w.app.release_quarantined("game", bad_sfen).unwrap());
    assert!(!w.app.release_quarantined("game", bad_sfen).unwrap());
    assert_eq!(w.app.tick().unwrap(), 0);
    let again = w.app.quarantine_list().unwrap();
    let entry = again.iter().find(|q| q.ref_id == bad_sfen).unwrap();
    assert_eq!(entry.count, 2, "failures are counted across releases");

    // Repaired and released, it times out like any other.
    w.sql(&format!(
        "UPDATE games SET sfen = start_sfen WHERE id = {bad_sfen};"
    ));
    assert!(w.app.release_quarantined("game", bad_sfen).unwrap());
    assert_eq!(w.app.tick().unwrap(), 1);
    assert_eq!(w.status(bad_sfen).0, "finished");
}

#[test]
fn a_reminder_is_dropped_once_the_player_moved() {
    let w = world();
    let g = w.game();
    w.clock.advance(13 * 3600); // 11 h of 24 left: half time
    assert_eq!(w.app.tick().unwrap(), 1);
    assert_eq!(w.outbox_len(), 1);
    let moved = w
        .app
        .play_move(&w.alice, Some(g), "7g7f", PLACE, None)
        .unwrap();
    // The front end posted the move: its announcement is acknowledged.
    for id in moved.announcements {
        w.app.ack_notice(id).unwrap();
    }
    assert!(w.app.due_notices(10).unwrap().is_empty());
    assert_eq!(w.outbox_len(), 0, "dropped, not kept");

    // Still relevant: delivered, to bob, by DM since he asked.
    w.dms_on(&w.bob);
    w.clock.advance(13 * 3600);
    assert_eq!(w.app.tick().unwrap(), 1);
    let due = w.app.due_notices(10).unwrap();
    assert_eq!(due.len(), 1);
    assert!(matches!(
        due[0].notice,
        Notice::Reminder { game_id, player: 2, .. } if game_id == g
    ));
    assert_eq!(due[0].reply.notify, vec![2]);
    assert_eq!(due[0].places, vec![77]);
    assert_eq!(due[0].dm, Some(2));

    // A reminder for a game that ended meanwhile is dropped too.
    w.app.notice_failed(due[0].id, "502", false).unwrap();
    let resigned = w
        .app
        .press(&w.bob, &format!("resign-yes:{g}"), PLACE)
        .unwrap();
    for id in resigned.announcements {
        w.app.ack_notice(id).unwrap();
    }
    w.clock.advance(60);
    assert!(w.app.due_notices(10).unwrap().is_empty());
    assert_eq!(w.outbox_len(), 0);
}

#[test]
fn a_thread_comes_before_the_channel() {
    let w = world();
    let g = w.game();
    w.app.set_game_thread(g, 88).unwrap();
    w.clock.advance(13 * 3600);
    w.app.tick().unwrap();
    let due = w.app.due_notices(10).unwrap();
    assert_eq!(due[0].places, vec![88, 77]);
    assert_eq!(due[0].dm, None, "alice did not ask for DMs");
    assert_eq!(w.app.notice_channel(&due[0].notice).unwrap(), Some(88));
}

#[test]
fn an_unreadable_notice_is_a_dead_letter_and_blocks_nothing() {
    let w = world();
    let opts = ChallengeOptions {
        rated: false,
        ..ChallengeOptions::default()
    };
    w.app
        .challenge(&w.alice, Some((2, "bob")), &opts, PLACE)
        .unwrap();
    let garbage = w
        .app
        .with_store(|s| {
            s.transaction(|tx| tx.push_outbox("{\"Nonsense\":{}}", T0))
                .unwrap()
        })
        .unwrap();
    w.clock.advance(8 * DAY);
    assert_eq!(w.app.tick().unwrap(), 1, "the challenge expired");
    let due = w.app.due_notices(10).unwrap();
    assert_eq!(due.len(), 1);
    assert!(matches!(
        due[0].notice,
        Notice::ChallengeExpired { challenger: 1, .. }
    ));
    assert_eq!(due[0].places, vec![77]);
    assert_eq!(due[0].dm, None);
    let dead = w.app.dead_letters().unwrap();
    assert_eq!(dead.len(), 1);
    assert_eq!(dead[0].id, garbage);
    assert_eq!(dead[0].attempts, 1);
    assert!(dead[0]
        .last_error
        .as_deref()
        .unwrap()
        .contains("unreadable"));
    // A notice damaged after it was written is a dead letter the same way.
    w.sql("UPDATE outbox SET payload = 'not json at all' WHERE dead = 0");
    w.clock.advance(App::NOTICE_LEASE);
    assert!(w.app.due_notices(10).unwrap().is_empty());
    assert_eq!(w.app.dead_letters().unwrap().len(), 2);
}

#[test]
fn failed_deliveries_back_off_then_die_and_can_be_released() {
    let w = world();
    w.game();
    w.clock.advance(13 * 3600);
    w.app.tick().unwrap();
    let id = w.app.due_notices(10).unwrap()[0].id;
    // Handed out: not again until the lease runs out.
    assert!(w.app.due_notices(10).unwrap().is_empty());
    w.clock.advance(App::NOTICE_LEASE);
    assert_eq!(w.app.due_notices(10).unwrap()[0].id, id);

    for attempt in 1..OUTBOX_MAX_ATTEMPTS {
        w.app.notice_failed(id, "503", false).unwrap();
        let wait = komadai::store::outbox_backoff(attempt);
        w.clock.advance(wait - 1);
        assert!(
            w.app.due_notices(10).unwrap().is_empty(),
            "attempt {attempt}"
        );
        w.clock.advance(1);
        let due = w.app.due_notices(10).unwrap();
        assert_eq!(due.len(), 1, "attempt {attempt}");
        assert_eq!(due[0].attempts, attempt);
    }
    w.app.notice_failed(id, "503", false).unwrap();
    assert_eq!(w.app.dead_letters().unwrap().len(), 1);
    w.clock.advance(DAY);
    assert!(w.app.due_notices(10).unwrap().is_empty());
    w.app.release_notice(id).unwrap();
    assert_eq!(w.app.due_notices(10).unwrap()[0].id, id);
    assert!(w.app.dead_letters().unwrap().is_empty());
    // A permanent failure (channel gone) is a dead letter at once.
    w.app
        .notice_failed(id, "404 unknown channel", true)
        .unwrap();
    assert_eq!(
        w.app.dead_letters().unwrap()[0].last_error.as_deref(),
        Some("404 unknown channel")
    );
    w.app.release_notice(id).unwrap();
    w.app.ack_notice(id).unwrap();
    assert_eq!(w.outbox_len(), 0);
}

#[test]
fn an_announcement_of_a_vanished_game_is_dropped() {
    let w = world();
    w.app
        .with_store(|s| {
            s.transaction(|tx| tx.push_outbox(r#"{"Played":{"game_id":999,"ply":3}}"#, T0))
                .unwrap()
        })
        .unwrap();
    assert!(w.app.due_notices(10).unwrap().is_empty());
    assert_eq!(w.outbox_len(), 0);
    assert!(w.app.dead_letters().unwrap().is_empty());
}

#[test]
fn an_idle_game_against_the_computer_is_aborted() {
    let w = world();
    let opts = ComputerOptions {
        level: Level::Beginner,
        variant: Variant::Standard,
        handicap: None,
        color: Some(Color::Sente),
    };
    let r = w.app.play_computer(&w.alice, &opts, PLACE).unwrap();
    let game = r.board.expect("a board").game_id;
    w.app
        .with_store(|s| {
            s.transaction(|tx| tx.enqueue_computer_job(game, 0, T0))
                .unwrap()
        })
        .unwrap();
    w.clock.advance(App::COMPUTER_IDLE - 1);
    assert_eq!(w.app.tick().unwrap(), 0, "not idle long enough");
    w.clock.advance(1);
    assert_eq!(w.app.tick().unwrap(), 1);
    let (status, reason) = w.status(game);
    assert_eq!(status, "finished");
    assert_eq!(reason.as_deref(), Some("Aborted"));
    assert!(w
        .app
        .with_store(|s| s.read(|r| r.computer_jobs()).unwrap())
        .unwrap()
        .is_empty());
    let due = w.app.due_notices(10).unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].notice, Notice::Abandoned { game_id: game });
    match &due[0].reply.msg {
        Msg::GameOver { game_id, ending } => {
            assert_eq!(*game_id, game);
            assert_eq!(ending.outcome, Outcome::Aborted);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(due[0].reply.notify, vec![1]);
    assert_eq!(due[0].places, vec![77]);
    assert_eq!(w.app.tick().unwrap(), 0, "aborted once");
}

#[test]
fn answered_request_ids_are_pruned_after_the_retention_period() {
    let w = world();
    let g = w.game();
    w.app
        .play_move(&w.alice, Some(g), "7g7f", PLACE, Some("old"))
        .unwrap();
    w.clock.advance(DAY / 2);
    w.app
        .play_move(&w.bob, Some(g), "3c3d", PLACE, Some("newer"))
        .unwrap();
    w.app
        .with_store(|s| {
            s.transaction(|tx| tx.record_action(1, "challenge", T0))
                .unwrap()
        })
        .unwrap();
    let answered = |rid: &str| {
        w.app
            .with_store(|s| s.read(|r| r.answered(rid)).unwrap())
            .unwrap()
    };
    w.clock.advance(App::REQUEST_RETENTION - DAY / 2);
    w.app.tick().unwrap();
    assert!(
        answered("old").is_some(),
        "exactly the retention period old"
    );
    w.clock.advance(1);
    w.app.tick().unwrap();
    assert!(answered("old").is_none());
    assert!(answered("newer").is_some());
    let actions = w
        .app
        .with_store(|s| s.read(|r| r.actions_since(1, "challenge", 0)).unwrap())
        .unwrap();
    assert_eq!(actions, 0, "the action log is pruned with the requests");
}

/// The console's operator lines: `:quarantine`, `:release`, `:dead`, `:retry`.
#[test]
fn the_console_shows_and_releases_quarantined_games_and_dead_letters() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("console.db");
    let run = |script: &str| -> Vec<serde_json::Value> {
        let mut child = Command::new(env!("CARGO_BIN_EXE_komadai"))
            .args([
                "console",
                "--json",
                "--start",
                "1800000000",
                "--seed",
                "7",
                "--db",
            ])
            .arg(&db)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let text = |v: &serde_json::Value| v["text"].as_str().unwrap_or_default().to_string();

    run("alice challenge @bob days=1 rated=no color=sente\nbob accept\n");
    {
        let c = Connection::open(&db).unwrap();
        c.execute_batch("UPDATE games SET sfen = 'broken' WHERE id = 1")
            .unwrap();
        let s = Store::open(&db).unwrap();
        s.transaction(|tx| tx.push_outbox("garbage", T0)).unwrap();
    }
    let out = run(":clock +2d\n:tick\n:quarantine\n:dead\n:retry 1\n:release game 1\n:release game 1\n:quarantine\n");
    let texts: Vec<String> = out.iter().map(text).collect();
    let at = |prefix: &str| {
        texts
            .iter()
            .position(|t| t.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line starting {prefix:?} in {texts:#?}"))
    };
    assert!(texts[at("quarantine: game 1 failed 1×")].contains("broken"));
    assert!(texts[at("dead letter 1 after 1 attempts")].contains("garbage"));
    at("notice 1 is due again");
    at("released: game 1");
    at("not quarantined: game 1");
    at("quarantine: empty");
    assert!(
        out.iter().all(|v| v["ok"].as_bool() == Some(true)),
        "{out:#?}"
    );
}
