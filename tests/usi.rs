//! USI conformance: drives `komadai usi` as a child process through the
//! handshake, options, a whole self-play game (checking every `info` line and
//! every `bestmove` against the rules core), `go infinite` + `stop`, and `quit`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use komadai::shogi::{EnteringKingRule, Game, Move, Position};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
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
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first one starting with `word`.
    fn until(&mut self, word: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            let n = self.stdout.read_line(&mut l).unwrap();
            assert!(n > 0, "engine closed its output while waiting for {word}");
            let l = l.trim_end().to_string();
            let done = l.starts_with(word);
            lines.push(l);
            if done {
                return lines;
            }
        }
    }
}

/// Checks an `info` line: depth, score cp|mate, nodes, nps, a legal pv start.
fn check_info(line: &str, pos: &Position) {
    let w: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(w[0], "info");
    if w.get(1) == Some(&"string") {
        return;
    }
    for key in ["depth", "nodes", "nps", "time"] {
        let i = w
            .iter()
            .position(|&x| x == key)
            .unwrap_or_else(|| panic!("{key} missing: {line}"));
        assert!(
            w[i + 1].parse::<u64>().is_ok(),
            "{key} not a number: {line}"
        );
    }
    let s = w.iter().position(|&x| x == "score").expect("score");
    assert!(matches!(w[s + 1], "cp" | "mate"), "{line}");
    assert!(w[s + 2].parse::<i64>().is_ok(), "{line}");
    let p = w.iter().position(|&x| x == "pv").expect("pv");
    let first = Move::from_usi(w[p + 1]).expect("pv move parses");
    assert!(
        pos.is_legal(first),
        "pv starts with an illegal move: {line}"
    );
}

#[test]
fn handshake_options_full_game_stop_and_quit() {
    let mut e = Engine::start();
    e.send("usi");
    let hello = e.until("usiok");
    assert!(hello.iter().any(|l| l.starts_with("id name komadai")));
    assert!(hello.iter().any(|l| l.starts_with("option name USI_Hash")));
    e.send("setoption name USI_Hash value 8");
    e.send("setoption name Level value Strong");
    e.send("isready");
    e.until("readyok");
    e.send("usinewgame");

    let mut game = Game::new(Position::startpos(), EnteringKingRule::Declaration27);
    let mut moves: Vec<String> = Vec::new();
    let mut resigned = false;
    while game.outcome().is_none() && game.ply() < 400 {
        let cmd = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        e.send(&cmd);
        // Vary the limits the way GUIs do; node limits keep the test fast.
        let go = match game.ply() % 4 {
            0 => "go nodes 3000",
            1 => "go depth 3",
            2 => "go btime 0 wtime 0 byoyomi 30 nodes 3000",
            _ => "go btime 500 wtime 500 binc 10 winc 10 nodes 3000",
        };
        e.send(go);
        let lines = e.until("bestmove");
        for l in &lines[..lines.len() - 1] {
            check_info(l, game.position());
        }
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        if best == "resign" {
            assert!(
                !game.position().has_legal_move(),
                "resigned with legal moves"
            );
            resigned = true;
            break;
        }
        let mv = Move::from_usi(&best).expect("bestmove parses");
        game.play(mv)
            .unwrap_or_else(|err| panic!("illegal bestmove {best}: {err}"));
        moves.push(best);
    }
    assert!(game.outcome().is_some() || resigned || game.ply() >= 400);
    assert!(game.ply() > 10, "a real game was played");

    // go infinite runs until stop.
    e.send("position startpos moves 7g7f");
    e.send("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(100));
    e.send("stop");
    let lines = e.until("bestmove");
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let pos = Position::startpos().after(Move::from_usi("7g7f").unwrap());
    assert!(pos.is_legal(Move::from_usi(&best).unwrap()));

    // A position given by SFEN, with moves after it (minishogi too).
    e.send("position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5e4d");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let mini = Position::from_sfen("rbsgk/4p/5/P4/KGSBR b - 1")
        .unwrap()
        .after(Move::from_usi("5e4d").unwrap());
    assert!(mini.is_legal(Move::from_usi(&best).unwrap()), "{best}");

    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
}
