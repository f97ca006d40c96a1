//! Several processes over one PostgreSQL database, one of them killed twice.
//!
//! Three console processes (the same app as the bot, one process each)
//! share a fresh database. Twelve games of 40 plies are played with each
//! move sent to a worker chosen round-robin, every fourth one also sent to
//! a second worker at the same moment with the same request id (a retried
//! or duplicated interaction). Worker 1 is SIGKILLed twice with moves in
//! flight and restarted. Then the clock passes half the move time and the
//! deadline on all three at once, and all three run the scheduler together.
//!
//! Asserted: every game holds exactly its 40 moves, in order, legal; every
//! acknowledged move is stored; every line a live worker was sent gets an
//! answer within 30 s (no deadlock, nothing lost without an error); each
//! game gets exactly one half-time reminder and exactly one timeout notice
//! across the three workers.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use komadai::notation::{format_move, Style};
use komadai::shogi::{Game, Move, Position};
use komadai::store::Store;
use serde_json::Value;

use crate::pg;

use crate::lines;

const GAMES: usize = 12;
const PLIES: usize = 40;
const WORKERS: usize = 3;
/// Rounds after which worker 1 is killed with its moves in flight.
const KILL_ROUNDS: [usize; 2] = [6, 21];

struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Worker {
    fn start(url: &str) -> Worker {
        let mut child = Command::new(env!("CARGO_BIN_EXE_komadai"))
            .args(["console", "--json", "--start", "1800000000", "--db", url])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("worker starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Worker {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("worker reads");
        self.stdin.flush().expect("flush");
    }

    /// The next answer; a worker that is alive answers within 30 s.
    fn answer(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(30))
            .expect("an answer within 30 s (no deadlock, nothing lost)");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }

    fn kill(mut self) {
        self.child.kill().expect("SIGKILL");
        let _ = self.child.wait();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A legal game of PLIES plies that does not end, in Western notation.
fn line_of(seed: u64) -> Vec<(Move, String)> {
    let mut pos = Position::startpos();
    let mut last = None;
    Game::random_line(seed, PLIES)
        .into_iter()
        .map(|m| {
            let text = format_move(&pos, m, Style::Western, last);
            pos.play_unchecked(m);
            last = Some(m);
            (m, text)
        })
        .collect()
}

fn text(v: &Value) -> String {
    v["text"].as_str().unwrap_or_default().to_string()
}

/// Runs `:tick` on every worker at once; the notices each printed.
fn tick_all(workers: &mut [Worker]) -> Vec<String> {
    for w in workers.iter_mut() {
        w.send(":tick");
        w.send(":dead");
    }
    let mut notices = Vec::new();
    for w in workers.iter() {
        loop {
            let v = w.answer();
            let t = text(&v);
            if t.starts_with("dead letters") {
                break;
            }
            assert_eq!(v["ok"], true, "{v}");
            notices.push(t);
        }
    }
    notices
}

#[test]
fn three_workers_one_database_two_kills() {
    let Some(url) = pg::fresh_database("workers") else {
        return;
    };
    let mut workers: Vec<Worker> = (0..WORKERS).map(|_| Worker::start(&url)).collect();
    for g in 0..GAMES {
        workers[0].send(&format!("p{g} challenge @q{g} rated=no color=sente days=3"));
        assert_eq!(workers[0].answer()["ok"], true);
        workers[0].send(&format!("q{g} accept"));
        let v = workers[0].answer();
        assert!(text(&v).contains(&format!("Game #{}", g + 1)), "{v}");
    }
    let lines: Vec<Vec<(Move, String)>> = (0..GAMES).map(|g| line_of(g as u64 + 1)).collect();
    let observer = Store::open(&url).expect("observer");
    let stored = |g: usize| -> Vec<String> {
        observer
            .read(|r| r.moves(g as i64 + 1))
            .expect("read moves")
    };
    let (mut acknowledged, mut duplicates, mut kills) = (Vec::new(), 0, 0);
    for round in 0..3 * PLIES {
        let plies: Vec<usize> = (0..GAMES).map(|g| stored(g).len()).collect();
        if plies.iter().all(|&p| p == PLIES) {
            break;
        }
        // (worker, game, ply, duplicate) in the order they were sent.
        let mut sent: Vec<(usize, usize, usize, bool)> = Vec::new();
        for g in 0..GAMES {
            let ply = plies[g];
            if ply == PLIES {
                continue;
            }
            let user = if ply % 2 == 0 {
                format!("p{g}")
            } else {
                format!("q{g}")
            };
            let cmd = format!(
                "{user} move game={} request=g{g}p{ply} {}",
                g + 1,
                lines[g][ply].1
            );
            let w = (g + round) % WORKERS;
            workers[w].send(&cmd);
            sent.push((w, g, ply, false));
            if (g + round) % 4 == 0 {
                let d = (w + 1) % WORKERS;
                workers[d].send(&cmd);
                sent.push((d, g, ply, true));
            }
        }
        let killed = KILL_ROUNDS.contains(&round);
        if killed {
            std::thread::sleep(Duration::from_millis(u64::from(fastrand::u8(..20))));
            let dead = std::mem::replace(&mut workers[1], Worker::start(&url));
            dead.kill();
            kills += 1;
        }
        for (w, g, ply, duplicate) in sent {
            if killed && w == 1 {
                continue; // in flight when the worker died: stored or not
            }
            let v = workers[w].answer();
            let t = text(&v).to_lowercase();
            if v["ok"] == true && t.contains(" played ") {
                acknowledged.push((g, ply));
            } else if duplicate || t.contains("already") || t.contains("changed") {
                // The other copy won: answered as done, or refused because
                // the game moved on meanwhile. Never a second move.
                duplicates += 1;
            } else {
                panic!("game {g} ply {ply}: {v}");
            }
        }
    }
    lines::assert_lines_stored(&lines, stored, &acknowledged);
    assert!(acknowledged.len() >= GAMES * PLIES - 2 * GAMES);
    assert_eq!(kills, 2);
    assert!(duplicates > 0, "duplicates were sent and answered");

    // Half the move time passes on every worker: one reminder per game.
    for w in workers.iter_mut() {
        w.send(":clock +2d");
        w.answer();
    }
    let notices = tick_all(&mut workers);
    for g in 1..=GAMES {
        let reminders = notices
            .iter()
            .filter(|t| t.starts_with("Reminder:") && t.contains(&format!("game #{g};")))
            .count();
        assert_eq!(reminders, 1, "game {g}: {notices:#?}");
    }
    // The deadline passes: one timeout per game.
    for w in workers.iter_mut() {
        w.send(":clock +2d");
        w.answer();
    }
    let notices = tick_all(&mut workers);
    for g in 1..=GAMES {
        let over = notices
            .iter()
            .filter(|t| t.starts_with(&format!("Game #{g} is over.")))
            .count();
        assert_eq!(over, 1, "game {g}: {notices:#?}");
        let row = observer.read(|r| r.game(g as i64)).unwrap().unwrap();
        assert_eq!(row.status, "finished");
    }
    eprintln!(
        "{} moves acknowledged, {duplicates} duplicate or losing copies answered, {kills} kills",
        acknowledged.len()
    );
}
