//! Nothing lost: the console binary plays a long game and is killed with
//! SIGKILL at random moments (seeded); after each restart every move it had
//! acknowledged is in the database, the stored moves are exactly a prefix of
//! the game, and `PRAGMA integrity_check` passes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use komadai::notation::{format_move, Style};
use komadai::shogi::{Move, Position};
use komadai::store::Store;

/// A long legal game that does not end (no mate, no fourfold repetition).
fn long_game(plies: usize) -> Vec<(Move, String)> {
    let mut rng = fastrand::Rng::with_seed(99);
    'retry: loop {
        let mut game = komadai::shogi::Game::new(Position::startpos(), Default::default());
        let mut out = Vec::new();
        while out.len() < plies {
            let pos = game.position().clone();
            let moves = pos.legal_moves();
            let candidates: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let mut g = game.clone();
                    matches!(g.play(m), Ok(None))
                })
                .collect();
            if candidates.is_empty() {
                continue 'retry;
            }
            let m = candidates[rng.usize(..candidates.len())];
            let prev = game.moves().last().copied();
            out.push((m, format_move(&pos, m, Style::Western, prev)));
            game.play(m).expect("legal");
        }
        return out;
    }
}

fn stored_moves(db: &std::path::Path) -> Vec<String> {
    let store = Store::open(db).expect("database opens after a kill");
    assert_eq!(store.integrity_check().unwrap(), "ok");
    let game = store.read(|r| r.game(1)).unwrap();
    match game {
        Some(_) => store.read(|r| r.moves(1)).unwrap(),
        None => Vec::new(),
    }
}

#[test]
fn acknowledged_moves_survive_sigkill() {
    let game = long_game(120);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.db");
    let mut rng = fastrand::Rng::with_seed(2024);
    let mut acknowledged: Vec<String> = Vec::new();
    let mut rounds = 0;
    let mut started = false;
    while acknowledged.len() < game.len() && rounds < 60 {
        rounds += 1;
        let mut child = Command::new(env!("CARGO_BIN_EXE_komadai"))
            .args(["console", "--json", "--start", "1800000000", "--db"])
            .arg(&db)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("console starts");
        let mut stdin = child.stdin.take().expect("stdin");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        if !started {
            writeln!(
                stdin,
                "alice challenge @bob rated=no color=sente\nbob accept"
            )
            .unwrap();
            for _ in 0..2 {
                line.clear();
                stdout.read_line(&mut line).unwrap();
            }
            started = true;
        }
        let stored = stored_moves_now(&db);
        let budget = rng.usize(0..12);
        let mut next = stored;
        for _ in 0..budget {
            if next >= game.len() {
                break;
            }
            let user = if next % 2 == 0 { "alice" } else { "bob" };
            writeln!(stdin, "{user} move {}", game[next].1).unwrap();
            stdin.flush().unwrap();
            line.clear();
            stdout.read_line(&mut line).unwrap();
            let v: serde_json::Value = serde_json::from_str(&line).expect("json reply");
            assert_eq!(v["ok"], true, "{line}");
            acknowledged.push(game[next].0.to_string());
            next += 1;
        }
        // One more move in flight, then kill at a random moment.
        if next < game.len() {
            let user = if next % 2 == 0 { "alice" } else { "bob" };
            let _ = writeln!(stdin, "{user} move {}", game[next].1);
            let _ = stdin.flush();
            std::thread::sleep(std::time::Duration::from_micros(rng.u64(0..3000)));
        }
        child.kill().expect("SIGKILL");
        let _ = child.wait();
        let stored = stored_moves(&db);
        assert!(
            stored.len() >= acknowledged.len(),
            "an acknowledged move was lost"
        );
        let expected: Vec<String> = game[..stored.len()]
            .iter()
            .map(|(m, _)| m.to_string())
            .collect();
        assert_eq!(
            stored, expected,
            "the stored moves are a prefix of the game"
        );
        // The in-flight move may or may not have been stored: both are fine.
        acknowledged = stored;
    }
    assert!(rounds >= 10, "killed {rounds} times");
    assert!(
        acknowledged.len() > 40,
        "{} moves played",
        acknowledged.len()
    );
}

fn stored_moves_now(db: &std::path::Path) -> usize {
    stored_moves(db).len()
}
