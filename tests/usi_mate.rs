//! `go mate` over USI: drives `komadai usi` as a child process and checks
//! every `checkmate` answer against the rules core.
//!
//! Where the expected lengths come from: the positions are the first
//! puzzles of each length in `data/puzzles.tsv` (1, 3, 5 plies) and
//! `data/tsume_hard.tsv` (7 to 13 plies), both checked by
//! `scripts/puzzles/verify.py` with cshogi 1.1.0 (mate within N, none within
//! N - 2, decided exhaustively). The positions without mate and the
//! pawn-drop-mate traps are those of `tests/tsume_solver.rs` (cshogi's DfPn
//! finds no mate there either).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use komadai::shogi::{Move, Position};
use komadai::tsume::puzzles::parse_tsv;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_komadai"))
            .arg("usi")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("komadai starts");
        let stdin = child.stdin.take().unwrap();
        let stdout: ChildStdout = child.stdout.take().unwrap();
        // A reader thread, so that a silent engine fails the test instead
        // of hanging it.
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine {
            child,
            stdin,
            lines,
        };
        e.send("usi");
        e.until("usiok", Duration::from_secs(30));
        e.send("isready");
        e.until("readyok", Duration::from_secs(30));
        e
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The first line starting with `word`, within `wait`.
    fn until(&mut self, word: &str, wait: Duration) -> String {
        let end = Instant::now() + wait;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if l.starts_with(word) => return l,
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => panic!("no {word} within {wait:?}"),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine closed while waiting for {word}")
                }
            }
        }
    }

    /// `go mate <arg>` on `sfen`: the words after `checkmate`.
    fn mate(&mut self, sfen: &str, arg: &str) -> Vec<String> {
        self.send(&format!("position sfen {sfen}"));
        self.send(&format!("go mate {arg}"));
        let l = self.until("checkmate", Duration::from_secs(120));
        l.split_whitespace().skip(1).map(str::to_string).collect()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// The answer is a mate of exactly `plies` plies from `sfen`: legal moves,
/// every attacker move a check, checkmate at the end.
fn assert_mates(sfen: &str, words: &[String], plies: usize) {
    assert_eq!(words.len(), plies, "{sfen}: {words:?}");
    let mut pos = Position::from_sfen(sfen).unwrap();
    for (i, w) in words.iter().enumerate() {
        let m = Move::from_usi(w).unwrap_or_else(|_| panic!("{sfen}: bad move {w}"));
        assert!(pos.is_legal(m), "{sfen}: {w} is illegal in {words:?}");
        if i % 2 == 0 {
            assert!(pos.gives_check(m), "{sfen}: {w} is no check in {words:?}");
        }
        pos.play_unchecked(m);
    }
    assert!(pos.is_checkmate(), "{sfen}: {words:?} does not mate");
}

/// The first puzzle of each length in the shipped and the hard set.
fn one_of_each_length() -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for text in [
        include_str!("../data/puzzles.tsv"),
        include_str!("../data/tsume_hard.tsv"),
    ] {
        for p in parse_tsv(text).unwrap() {
            let n = p.plies as usize;
            if !out.iter().any(|(_, m)| *m == n) {
                out.push((p.position().unwrap().to_sfen(), n));
            }
        }
    }
    out.sort_by_key(|(_, n)| *n);
    out
}

#[test]
fn go_mate_answers_the_shortest_mate_of_1_to_13_plies() {
    let set = one_of_each_length();
    let lengths: Vec<usize> = set.iter().map(|(_, n)| *n).collect();
    assert_eq!(lengths, [1, 3, 5, 7, 9, 11, 13]);
    let mut e = Engine::start();
    for (i, (sfen, plies)) in set.iter().enumerate() {
        // Both forms: a time limit in milliseconds, and infinite (which
        // answers on its own once solved).
        let arg = if i % 2 == 0 { "60000" } else { "infinite" };
        let words = e.mate(sfen, arg);
        assert_mates(sfen, &words, *plies);
    }
}

#[test]
fn go_mate_says_nomate_and_avoids_the_pawn_drop_mate() {
    let mut e = Engine::start();
    for sfen in [
        // No check at all.
        "4k4/9/9/9/9/9/9/9/4K4 b - 1",
        // Two golds against a bare king with the rest of the set in hand.
        "8k/9/9/9/9/9/9/9/K8 b 2G2r2b2g4s4n4l18p 1",
        // A silver and a pawn: the pawn could only mate by a drop.
        "7nk/9/6S2/9/9/9/9/9/K8 b SP 1",
    ] {
        assert_eq!(e.mate(sfen, "infinite"), ["nomate"], "{sfen}");
    }
    // The traps: P*1b and P*5b would mate, and pawn-drop mate is illegal.
    for (sfen, drop) in [
        ("7nk/9/7S1/9/9/9/9/9/K8 b P 1", "P*1b"),
        ("3nkn3/9/4G4/9/9/9/9/9/K8 b P 1", "P*5b"),
        ("7nk/9/7S1/9/9/9/9/9/K8 b P2r2b4g3s3n4l17p 1", "P*1b"),
    ] {
        let pos = Position::from_sfen(sfen).unwrap();
        let m = Move::from_usi(drop).unwrap();
        assert!(!pos.is_legal(m) && pos.after(m).is_checkmate(), "{sfen}");
        let words = e.mate(sfen, "10000");
        assert_eq!(words, ["nomate"], "{sfen}");
    }
    // With a gold instead of the pawn the same square mates at once.
    let sfen = "3nkn3/9/4G4/9/9/9/9/9/K8 b G 1";
    let words = e.mate(sfen, "10000");
    assert_mates(sfen, &words, 1);
}

/// A position where the search takes long: a bare king in the middle of the
/// board, two golds and two silvers in hand, the defender holding the rest.
const SLOW: &str = "9/9/9/9/4k4/9/9/9/K8 b 2G2S2r2b2g2s4n4l18p 1";

#[test]
fn stop_and_the_time_limit_end_go_mate_promptly() {
    let mut e = Engine::start();
    e.send(&format!("position sfen {SLOW}"));
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("stop");
    let l = e.until("checkmate", Duration::from_secs(10));
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    // Inconclusive (or a mate proven in time, which must then be one).
    let words: Vec<String> = l.split_whitespace().skip(1).map(str::to_string).collect();
    if words != ["timeout"] && words != ["nomate"] {
        assert_mates(SLOW, &words, words.len());
    }
    // A time limit of half a second ends the search about then.
    let t = Instant::now();
    e.send("go mate 500");
    let l = e.until("checkmate", Duration::from_secs(10));
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert!(l.starts_with("checkmate"), "{l}");
    // The engine still answers afterwards.
    e.send("isready");
    e.until("readyok", Duration::from_secs(10));
}
