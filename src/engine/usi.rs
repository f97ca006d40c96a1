//! `komadai usi`: the engine behind the USI protocol, for shogi GUIs and match
//! runners. Commands: `usi`, `isready`, `setoption`, `usinewgame`,
//! `position startpos|sfen … [moves …]`, `go` (with `byoyomi`, `btime`,
//! `wtime`, `binc`, `winc`, `movetime`, `nodes`, `depth`, `infinite`),
//! `stop`, `ponderhit`, `gameover`, `quit`, and `go mate <ms>|infinite` (tsume:
//! `checkmate <moves>`, `checkmate nomate` or `checkmate timeout`, the moves
//! being the shortest mate from the position, attacker to move, with the
//! stubbornest defence). Answers `bestmove win` when the side
//! to move may declare under the entering-king rule (27 points, standard
//! shogi). The search runs on its own thread so
//! `stop` is heard at once.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::shogi::{declaration_check, Color, Move, Position, Variant};

use super::level::{choose_move, Level};
use super::search::{Info, Limits, SearchResult, Searcher};
use crate::tsume::{solve_with, Limits as MateLimits, Verdict};

/// Node budget of `go mate` (for df-pn, and as many for the exact search
/// of the shortest mate). The time limit is the GUI's.
const MATE_NODES: u64 = 20_000_000;
/// Mates up to this long are answered with the shortest line; longer ones
/// with df-pn's line (a mate, perhaps not the shortest).
const MATE_MAX_PLIES: u32 = 31;

/// Runs the USI loop on standard input and output until `quit` or end of input.
pub fn run_stdio() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    run(stdin.lock(), std::io::stdout())
}

type Out<W> = Arc<Mutex<W>>;

fn say<W: Write>(out: &Out<W>, line: &str) {
    if let Ok(mut w) = out.lock() {
        // A closed output means the GUI is gone; nothing left to tell it.
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// The state between commands.
struct Session {
    position: Position,
    /// Keys and in-check flags of the positions before `position`.
    history: Vec<(u64, bool)>,
    hash_mb: usize,
    level: Level,
    seed: u64,
    /// The option `MateInOne` (see [`Searcher::set_mate_in_one`]).
    mate_in_one: bool,
    searcher: Option<Searcher>,
    running: Option<(Arc<AtomicBool>, JoinHandle<Option<Searcher>>)>,
}

/// Runs the USI loop on any input and output (used by the tests).
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> std::io::Result<()> {
    let out = Arc::new(Mutex::new(output));
    let mut s = Session {
        position: Position::startpos(),
        history: Vec::new(),
        hash_mb: 64,
        level: Level::Strong,
        seed: 0,
        mate_in_one: false,
        searcher: None,
        running: None,
    };
    for line in input.lines() {
        let line = line?;
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { continue };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "usi" => {
                say(
                    &out,
                    &format!("id name komadai {}", env!("CARGO_PKG_VERSION")),
                );
                say(&out, "id author the komadai authors");
                say(
                    &out,
                    "option name USI_Hash type spin default 64 min 1 max 1024",
                );
                say(&out, "option name USI_Ponder type check default false");
                say(
                    &out,
                    "option name Level type combo default Strong var Beginner var Easy var Medium var Strong",
                );
                say(
                    &out,
                    "option name Seed type spin default 0 min 0 max 1000000000",
                );
                say(&out, "option name MateInOne type check default false");
                say(&out, "option name EvalNet type check default true");
                say(&out, "option name EvalFile type string default <empty>");
                say(&out, "usiok");
            }
            "isready" => {
                s.wait();
                if s.searcher.is_none() {
                    s.searcher = Some(Searcher::new(s.hash_mb));
                }
                say(&out, "readyok");
            }
            "setoption" => {
                if let Err(e) = s.set_option(&rest) {
                    say(&out, &format!("info string error: {e}"));
                }
            }
            "usinewgame" => {
                s.wait();
                if let Some(se) = &mut s.searcher {
                    se.clear();
                }
            }
            "position" => {
                s.wait();
                if let Err(e) = s.set_position(&rest) {
                    say(&out, &format!("info string error: {e}"));
                }
            }
            "go" if rest.first() == Some(&"mate") => {
                s.wait();
                s.go_mate(rest.get(1).copied(), &out);
            }
            "go" => {
                s.wait();
                s.go(&rest, &out);
            }
            "stop" => s.wait(),
            "ponderhit" | "gameover" => {}
            "quit" => {
                s.wait();
                return Ok(());
            }
            _ => say(&out, &format!("info string unknown command: {cmd}")),
        }
    }
    s.wait();
    Ok(())
}

impl Session {
    /// Stops a running search and waits for its `bestmove`.
    fn wait(&mut self) {
        if let Some((stop, handle)) = self.running.take() {
            stop.store(true, Ordering::Relaxed);
            if let Ok(Some(searcher)) = handle.join() {
                self.searcher = Some(searcher);
            }
        }
    }

    /// Options it does not know, and values it cannot read, change nothing;
    /// the error is an option it could not apply.
    fn set_option(&mut self, rest: &[&str]) -> Result<(), String> {
        // setoption name <id...> [value <x...>]
        if rest.first() != Some(&"name") {
            return Ok(());
        }
        let vi = rest
            .iter()
            .position(|&w| w == "value")
            .unwrap_or(rest.len());
        let name = rest.get(1..vi).map(|w| w.join(" ")).unwrap_or_default();
        let value = rest.get(vi + 1..).map(|w| w.join(" ")).unwrap_or_default();
        match name.as_str() {
            "USI_Hash" | "Hash" => {
                if let Ok(mb) = value.parse::<usize>() {
                    self.hash_mb = mb.clamp(1, 1024);
                    self.searcher = None;
                }
            }
            "Level" => {
                if let Some(l) = Level::from_name(&value) {
                    self.level = l;
                }
            }
            "Seed" => {
                if let Ok(v) = value.parse() {
                    self.seed = v;
                }
            }
            "MateInOne" => match value.to_ascii_lowercase().as_str() {
                "true" => self.mate_in_one = true,
                "false" => self.mate_in_one = false,
                _ => {}
            },
            // The network's correction of the evaluation (engine::nn); it
            // holds for the whole process.
            "EvalNet" => match value.to_ascii_lowercase().as_str() {
                "true" => super::nn::set_enabled(true),
                "false" => super::nn::set_enabled(false),
                _ => {}
            },
            // A network file of scripts/nn/train.py in place of the shipped
            // one, for the whole process: matches between candidates.
            "EvalFile" => {
                self.wait();
                if value.is_empty() || value == "<empty>" {
                    super::nn::use_shipped();
                } else {
                    super::nn::load(std::path::Path::new(&value))
                        .map_err(|e| format!("EvalFile not loaded: {e}"))?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn set_position(&mut self, rest: &[&str]) -> Result<(), String> {
        let (mut pos, tail) = match rest.first() {
            Some(&"startpos") => (Position::startpos(), &rest[1..]),
            Some(&"sfen") => {
                let end = rest
                    .iter()
                    .position(|&w| w == "moves")
                    .unwrap_or(rest.len());
                let sfen = rest[1..end].join(" ");
                let pos = Position::from_sfen(&sfen).map_err(|e| e.to_string())?;
                (pos, &rest[end..])
            }
            _ => return Err("expected startpos or sfen".into()),
        };
        let mut history = Vec::new();
        if tail.first() == Some(&"moves") {
            for m in &tail[1..] {
                let mv = Move::from_usi(m).map_err(|_| format!("bad move {m}"))?;
                if !pos.is_legal(mv) {
                    return Err(format!("illegal move {m}"));
                }
                history.push((pos.key(), pos.in_check()));
                pos.play_unchecked(mv);
            }
        }
        self.position = pos;
        self.history = history;
        Ok(())
    }

    fn go<W: Write + Send + 'static>(&mut self, rest: &[&str], out: &Out<W>) {
        let start = Instant::now();
        let mut limits = Limits::default();
        let mut byoyomi = 0u64;
        let mut time = [0u64; 2];
        let mut inc = [0u64; 2];
        let mut infinite = false;
        let mut i = 0;
        let num = |i: usize| {
            rest.get(i + 1)
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0)
        };
        while i < rest.len() {
            match rest[i] {
                "byoyomi" => byoyomi = num(i),
                "btime" => time[0] = num(i),
                "wtime" => time[1] = num(i),
                "binc" => inc[0] = num(i),
                "winc" => inc[1] = num(i),
                "movetime" => {
                    let t = num(i);
                    limits.deadline =
                        Some(start + Duration::from_millis(t.saturating_sub(20).max(1)));
                }
                "nodes" => limits.nodes = Some(num(i).max(1)),
                "depth" => limits.depth = Some(num(i).clamp(1, 90) as u32),
                "infinite" | "ponder" => infinite = true,
                "mate" => {}
                _ => {
                    i += 1;
                    continue;
                }
            }
            i += 1;
        }
        let us = match self.position.side_to_move() {
            Color::Sente => 0,
            Color::Gote => 1,
        };
        if !infinite
            && limits.deadline.is_none()
            && limits.nodes.is_none()
            && limits.depth.is_none()
        {
            let remaining = time[us];
            let mut budget = remaining / 30 + inc[us] * 4 / 5;
            if byoyomi > 0 {
                budget += byoyomi.saturating_sub((byoyomi / 15).max(30));
            } else if remaining > 0 {
                budget = budget.min(remaining / 2);
            }
            if remaining == 0 && byoyomi == 0 && inc[us] == 0 {
                budget = 1000;
            }
            let budget = Duration::from_millis(budget.max(10));
            limits.deadline = Some(start + budget);
            // Byoyomi time is lost if unused: keep going while it lasts.
            limits.soft_deadline = Some(
                start
                    + if remaining == 0 {
                        budget.mul_f64(0.8)
                    } else {
                        budget.mul_f64(0.5)
                    },
            );
        }
        limits.mate_first = Some(7);
        let stop = Arc::new(AtomicBool::new(false));
        limits.stop = Some(stop.clone());

        // Entering-king rule: a side that may declare wins at once.
        if self.position.variant() == Variant::Standard
            && declaration_check(&self.position).is_empty()
        {
            say(out, "bestmove win");
            return;
        }

        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(self.hash_mb));
        searcher.set_mate_in_one(self.mate_in_one);
        let pos = self.position.clone();
        let history = self.history.clone();
        let level = self.level;
        let seed = self.seed ^ pos.key();
        let out = out.clone();
        let stop_in = stop.clone();
        let handle = std::thread::spawn(move || {
            let result: SearchResult = if level == Level::Strong {
                let t0 = Instant::now();
                searcher.search(&pos, &history, limits, |info: &Info| {
                    let ms = t0.elapsed().as_millis().max(1) as u64;
                    let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
                    say(
                        &out,
                        &format!(
                            "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
                            info.depth,
                            info.seldepth.max(info.depth),
                            info.score,
                            info.nodes,
                            info.nodes * 1000 / ms,
                            ms,
                            pv.join(" ")
                        ),
                    );
                })
            } else {
                let mut rng = fastrand::Rng::with_seed(seed);
                let l = Limits {
                    stop: limits.stop.clone(),
                    ..level.limits(start)
                };
                choose_move(&mut searcher, &pos, &history, level, l, &mut rng)
            };
            // With `go infinite` the GUI expects bestmove only after `stop`.
            if infinite {
                while !stop_in.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
            match result.best {
                Some(m) => say(&out, &format!("bestmove {m}")),
                None => say(&out, "bestmove resign"),
            }
            Some(searcher)
        });
        self.running = Some((stop, handle));
    }

    /// `go mate <ms>|infinite`: the shortest mate for the side to move, on
    /// its own thread. A mate proven before `stop` or the time limit is
    /// still answered (perhaps not the shortest); else `checkmate timeout`.
    fn go_mate<W: Write + Send + 'static>(&mut self, arg: Option<&str>, out: &Out<W>) {
        let start = Instant::now();
        let deadline = match arg {
            None | Some("infinite") => None,
            Some(ms) => Some(start + Duration::from_millis(ms.parse::<u64>().unwrap_or(0))),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let limits = MateLimits {
            nodes: MATE_NODES,
            stop: Some(stop.clone()),
            deadline,
        };
        let pos = self.position.clone();
        let out = out.clone();
        let handle = std::thread::spawn(move || {
            let mut proven: Option<Vec<Move>> = None;
            let verdict = solve_with(&pos, &limits, MATE_MAX_PLIES, |line| {
                proven = Some(line.to_vec());
            });
            let moves = |line: &[Move]| {
                let v: Vec<String> = line.iter().map(ToString::to_string).collect();
                format!("checkmate {}", v.join(" "))
            };
            let answer = match (verdict, proven) {
                (Verdict::Mate { line, .. }, _) => moves(&line),
                (Verdict::NoMate, _) => "checkmate nomate".to_string(),
                (Verdict::Unknown, Some(line)) => moves(&line),
                (Verdict::Unknown, None) => "checkmate timeout".to_string(),
            };
            say(&out, &answer);
            None
        });
        self.running = Some((stop, handle));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);

    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| std::io::Error::other("poisoned"))?
                .extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn session(input: &str) -> String {
        let buf = Buf::default();
        run(input.as_bytes(), buf.clone()).unwrap();
        let v = buf.0.lock().unwrap().clone();
        String::from_utf8(v).unwrap()
    }

    /// Feeds `input`, then `quit` only once the engine has said `bestmove`:
    /// a `quit` during a search stops it early, as it should.
    struct QuitAfterBestmove {
        input: std::io::Cursor<Vec<u8>>,
        out: Buf,
        quit: std::io::Cursor<&'static [u8]>,
    }

    impl std::io::Read for QuitAfterBestmove {
        fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
            let n = self.input.read(b)?;
            if n > 0 {
                return Ok(n);
            }
            while !String::from_utf8_lossy(&self.out.0.lock().unwrap()).contains("bestmove") {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            self.quit.read(b)
        }
    }

    fn session_to_bestmove(input: &str) -> String {
        let buf = Buf::default();
        let reader = QuitAfterBestmove {
            input: std::io::Cursor::new(input.as_bytes().to_vec()),
            out: buf.clone(),
            quit: std::io::Cursor::new(b"quit\n"),
        };
        run(std::io::BufReader::new(reader), buf.clone()).unwrap();
        let v = buf.0.lock().unwrap().clone();
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn handshake_and_depth_search() {
        let out =
            session_to_bestmove("usi\nisready\nposition startpos moves 7g7f 3c3d\ngo depth 3\n");
        assert!(out.contains("usiok"));
        assert!(out.contains("readyok"));
        let best = out
            .lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap();
        let mut p = Position::startpos();
        p.play_unchecked(Move::from_usi("7g7f").unwrap());
        p.play_unchecked(Move::from_usi("3c3d").unwrap());
        assert!(p.is_legal(Move::from_usi(best).unwrap()));
        assert!(out.contains("info depth 3"));
    }

    #[test]
    fn declares_when_the_entering_king_rule_allows() {
        // Ten pieces in camp worth 28 points with the hand, king in camp.
        let out = session_to_bestmove(
            "position sfen RRBBK4/GGGGSS3/9/9/9/9/9/9/8k b 2P 1\ngo byoyomi 100\n",
        );
        assert!(out.contains("bestmove win"), "{out}");
        // One pawn less: 27 points are not enough for Sente.
        let out = session_to_bestmove(
            "position sfen RRBBK4/GGGGSS3/9/9/9/9/9/9/8k b P 1\ngo byoyomi 100\n",
        );
        assert!(!out.contains("bestmove win"), "{out}");
        assert!(out.contains("bestmove "), "{out}");
    }

    #[test]
    fn mated_side_resigns() {
        let out =
            session_to_bestmove("position sfen 4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1\ngo nodes 100\n");
        assert!(out.contains("bestmove resign"));
    }

    #[test]
    fn odd_setoption_lines_are_ignored() {
        let out = session("setoption value 5\nsetoption\nsetoption name\nsetoption name Level value\nisready\nquit\n");
        assert!(out.contains("readyok"));
    }

    #[test]
    fn an_unreadable_eval_file_is_reported_and_changes_nothing() {
        let out =
            session("setoption name EvalFile value /nonexistent/komadai-net.bin\nisready\nquit\n");
        assert!(
            out.contains("info string error: EvalFile not loaded"),
            "{out}"
        );
        assert!(out.contains("readyok"), "{out}");
    }

    #[test]
    fn bad_position_is_reported() {
        let out = session("position sfen nonsense\nposition startpos moves 7g7e\nquit\n");
        assert_eq!(out.matches("info string error").count(), 2);
    }
}
