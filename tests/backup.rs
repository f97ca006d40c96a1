//! `komadai backup`: a backup taken while a burst of moves is being played
//! through the app is a consistent snapshot. It passes `integrity_check`, its
//! moves are exactly a prefix of the acknowledged moves, and that prefix
//! holds every move acknowledged before the backup started.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use komadai::app::{App, Caller, ChallengeOptions, ManualClock, Msg, Place, SeededDice};
use komadai::i18n::Lang;
use komadai::shogi::{Color, Move, Position};
use komadai::store::{backup, Store};

/// Most plies of the burst (under the 320-ply draw).
const MAX_PLIES: usize = 300;
/// Plies the burst goes on after the backup finished.
const AFTER: usize = 20;

#[test]
fn a_backup_in_the_middle_of_a_move_burst_holds_every_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("live.db");
    let dest = dir.path().join("backup.db");
    let app = Arc::new(App::new(
        Store::open(&db).unwrap(),
        Arc::new(ManualClock::new(1_800_000_000)),
        Arc::new(SeededDice::new(3)),
    ));
    let alice = Caller::new(1, "alice", Lang::En);
    let bob = Caller::new(2, "bob", Lang::En);
    let opts = ChallengeOptions {
        rated: false,
        color: Some(Color::Sente),
        ..ChallengeOptions::default()
    };
    app.challenge(&alice, Some((2, "bob")), &opts, Place::default())
        .unwrap();
    let r = app.accept(&bob, 1, Place::default()).unwrap();
    let Msg::GameStarted { game_id, .. } = r.msg else {
        panic!("{:?}", r.msg)
    };

    let acked: Arc<Mutex<Vec<String>>> = Arc::default();
    let backup_done = Arc::new(AtomicBool::new(false));
    let player = {
        let (app, acked, backup_done) = (app.clone(), acked.clone(), backup_done.clone());
        std::thread::spawn(move || {
            // Random quiet moves from a fixed seed: the game goes on.
            let mut rng = fastrand::Rng::with_seed(11);
            let mut pos = Position::startpos();
            let mut after = 0;
            for ply in 0..MAX_PLIES {
                if backup_done.load(Ordering::SeqCst) {
                    after += 1;
                    if after > AFTER {
                        break;
                    }
                }
                let quiet: Vec<Move> = pos
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|&m| !pos.after(m).is_checkmate())
                    .collect();
                let Some(&mv) = quiet.get(rng.usize(..quiet.len().max(1))) else {
                    break;
                };
                let who = if ply % 2 == 0 { &alice } else { &bob };
                let r = app
                    .play_move(who, Some(game_id), &mv.to_string(), Place::default(), None)
                    .expect("the move is played");
                acked.lock().unwrap().push(mv.to_string());
                pos.play_unchecked(mv);
                if matches!(
                    r.msg,
                    Msg::MovePlayed {
                        ending: Some(_),
                        ..
                    }
                ) {
                    break;
                }
            }
        })
    };
    // Start the backup once the burst is under way.
    while acked.lock().unwrap().len() < 30 {
        std::thread::yield_now();
    }
    let before = acked.lock().unwrap().len();
    let report = backup(&db, &dest).expect("the backup is taken");
    backup_done.store(true, Ordering::SeqCst);
    player.join().expect("the player finished");
    let acked = acked.lock().unwrap().clone();
    assert!(report.pages > 0);

    let copy = Store::open(&dest).unwrap();
    assert_eq!(copy.integrity_check().unwrap(), "ok");
    let moves = copy.read(|r| r.moves(game_id)).unwrap();
    eprintln!(
        "acknowledged before the backup: {before}, in the backup: {}, acknowledged in all: {}",
        moves.len(),
        acked.len()
    );
    assert!(
        moves.len() >= before,
        "every move acknowledged before the backup started is in it"
    );
    assert_eq!(
        moves[..],
        acked[..moves.len()],
        "a prefix of the acknowledged moves"
    );
    let row = copy.read(|r| r.game(game_id)).unwrap().unwrap();
    assert_eq!(
        row.ply as usize,
        moves.len(),
        "the game row agrees with its moves"
    );

    // The backup is a working database: the app loads the game from it
    // (the stored position is checked against the replay).
    let restored = App::new(
        copy,
        Arc::new(ManualClock::new(1_800_000_000)),
        Arc::new(SeededDice::new(3)),
    );
    let shown = restored
        .board(
            &Caller::new(1, "alice", Lang::En),
            Some(game_id),
            Place::default(),
        )
        .expect("the game loads from the backup");
    assert!(matches!(shown.msg, Msg::Board { ply, .. } if ply as usize == moves.len()));
}

/// The subcommand itself: `komadai backup --db LIVE FILE`, and `KOMADAI_DB`.
#[test]
fn the_backup_subcommand_copies_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("live.db");
    let store = Store::open(&db).unwrap();
    store
        .transaction(|tx| tx.upsert_player(7, "carol", 0))
        .unwrap();
    let dest = dir.path().join("copy.db");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_komadai"))
        .arg("backup")
        .arg("--db")
        .arg(&db)
        .arg(&dest)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("pages"));
    let copy = Store::open(&dest).unwrap();
    assert_eq!(
        copy.read(|r| r.player(7)).unwrap().unwrap().display_name,
        "carol"
    );

    let dest2 = dir.path().join("copy2.db");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_komadai"))
        .arg("backup")
        .arg(&dest2)
        .env("KOMADAI_DB", &db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(Store::open(&dest2)
        .unwrap()
        .read(|r| r.player(7))
        .unwrap()
        .is_some());

    // A database that does not exist is an error, not a new empty file.
    let missing = dir.path().join("missing.db");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_komadai"))
        .arg("backup")
        .arg("--db")
        .arg(&missing)
        .arg(dir.path().join("copy3.db"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(!missing.exists());
}
