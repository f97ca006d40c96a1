//! Tsume puzzles end to end through the console (one process, line by line,
//! so the test can answer the bot's defences), plus the shipped collection
//! re-checked with komadai's own solver. The independent check with cshogi
//! is scripts/puzzles/verify.py.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use komadai::notation::{format_move, Style};
use komadai::shogi::{Move, Position};
use komadai::tsume::puzzles::shipped;
use komadai::tsume::{checks, MateSolver};
use serde_json::Value;

struct Session {
    _dir: tempfile::TempDir,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    fn new() -> Session {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut child = Command::new(env!("CARGO_BIN_EXE_komadai"))
            .args(["console", "--json", "--start", "1800000000", "--db"])
            .arg(dir.path().join("komadai.db"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("console starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Session {
            _dir: dir,
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one line, returns the reply.
    fn say(&mut self, line: &str) -> Value {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
        let mut out = String::new();
        self.stdout.read_line(&mut out).expect("read");
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn text(v: &Value) -> &str {
    v["text"].as_str().unwrap_or_default()
}

fn board(v: &Value) -> Position {
    Position::from_sfen(v["board"].as_str().expect("a board")).expect("valid board")
}

fn puzzle_id(v: &Value) -> String {
    let t = text(v);
    let start = t.find(" t").expect("puzzle id") + 1;
    t[start..].split(':').next().unwrap_or_default().to_string()
}

/// A move that keeps mate forced from a position (attacker to move).
fn mating_move(pos: &Position) -> Move {
    let mut s = MateSolver::new(5_000_000);
    let n = s.shortest(pos, 13).unwrap().expect("mate");
    s.mating_moves(pos, n).unwrap()[0]
}

/// Plays a puzzle to the end with `command` (`move` or `solve`), starting
/// from the start reply; returns the last reply and how many moves were sent.
fn solve(s: &mut Session, user: &str, command: &str, start: &Value) -> (Value, usize) {
    let mut pos = board(start);
    let mut sent = 0;
    loop {
        let mv = mating_move(&pos);
        let r = s.say(&format!("{user} {command} {mv}"));
        sent += 1;
        if text(&r).starts_with("Checkmate!") {
            return (r, sent);
        }
        assert!(text(&r).contains("is right"), "{r}");
        pos = board(&r);
        assert!(sent < 10);
    }
}

#[test]
fn a_correct_solution_with_the_bots_defence() {
    let mut s = Session::new();
    let start = s.say("alice puzzle random plies=5");
    assert!(text(&start).contains("mate in 5 plies"), "{start}");
    let id = puzzle_id(&start);
    let p = shipped().into_iter().find(|p| p.id == id).expect("shipped");
    // The stored first move is the unique one; the bot then defends.
    let r = s.say(&format!("alice solve {}", p.solution[0]));
    assert!(text(&r).contains("is right"), "{r}");
    assert!(text(&r).contains("Mate in"), "{r}");
    let (end, sent) = solve(&mut s, "alice", "solve", &r);
    assert!(text(&end).contains(&id), "{end}");
    assert_eq!(sent, 2, "mate in 5 = three attacker moves");
    // The puzzle is over.
    let r = s.say("alice solve G*5b");
    assert_eq!(r["ok"], false);
    assert!(text(&r).contains("no puzzle in progress"), "{r}");
}

#[test]
fn move_answers_the_puzzle_and_the_defence_is_then_mated() {
    let mut s = Session::new();
    let start = s.say("bob puzzle random 3");
    assert!(text(&start).contains("mate in 3 plies"), "{start}");
    let (end, sent) = solve(&mut s, "bob", "move", &start);
    assert_eq!(sent, 2);
    assert!(text(&end).starts_with("Checkmate!"), "{end}");
}

#[test]
fn a_wrong_first_move_fails_and_shows_the_solution() {
    let mut s = Session::new();
    let start = s.say("carol puzzle random plies=3");
    let id = puzzle_id(&start);
    let p = shipped().into_iter().find(|p| p.id == id).expect("shipped");
    let pos = board(&start);
    let wrong = checks(&pos)
        .into_iter()
        .find(|&m| m != p.solution[0])
        .expect("puzzles offer at least three checks");
    let r = s.say(&format!("carol solve {wrong}"));
    assert!(text(&r).contains("does not force mate in time"), "{r}");
    // The solution in carol's notation (western by default).
    let start_pos = Position::from_sfen_tsume(&p.sfen).expect("puzzle sfen");
    let mut q = start_pos.clone();
    let mut western = Vec::new();
    for &m in &p.solution {
        western.push(format_move(&q, m, Style::Western, None));
        q.play(m).expect("solution legal");
    }
    assert!(text(&r).contains(&western.join(" ")), "{r} vs {western:?}");
    // German too, in USI notation, dark theme, international pieces.
    s.say("carol:de settings notation=usi style=international theme=dark");
    let start = s.say("carol:de puzzle random plies=3");
    assert_eq!(
        start["board_style"],
        serde_json::json!(["international", "dark"]),
        "{start}"
    );
    let pos = board(&start);
    let id = puzzle_id(&start);
    let p = shipped().into_iter().find(|p| p.id == id).expect("shipped");
    let wrong = checks(&pos)
        .into_iter()
        .find(|&m| m != p.solution[0])
        .unwrap();
    let r = s.say(&format!("carol:de solve {wrong}"));
    assert!(text(&r).contains("erzwingt das Matt nicht"), "{r}");
    assert!(text(&r).contains(&p.solution_usi()), "{r}");
}

#[test]
fn a_move_that_is_not_check_fails() {
    let mut s = Session::new();
    let start = s.say("dave puzzle random plies=1");
    let pos = board(&start);
    let quiet = pos
        .legal_moves()
        .into_iter()
        .find(|&m| !pos.gives_check(m))
        .expect("a quiet move");
    let r = s.say(&format!("dave solve {quiet}"));
    assert!(text(&r).contains("gives no check"), "{r}");
    // Illegal input is a refusal, not a failed attempt.
    let start = s.say("dave puzzle random plies=1");
    assert!(text(&start).contains("mate in 1"));
    let r = s.say("dave solve 5e5a");
    assert_eq!(r["ok"], false, "{r}");
}

#[test]
fn the_daily_puzzle_is_the_same_for_two_players_and_ranked_by_attempts() {
    let mut s = Session::new();
    let a = s.say("alice puzzle daily");
    let b = s.say("bob puzzle daily");
    assert!(text(&a).starts_with("Daily puzzle."), "{a}");
    assert_eq!(puzzle_id(&a), puzzle_id(&b));
    assert_eq!(a["board"], b["board"]);
    // Bob solves at the first attempt.
    solve(&mut s, "bob", "solve", &b);
    // Alice fails once (a quiet move), then solves: two attempts.
    let pos = board(&a);
    let quiet = pos
        .legal_moves()
        .into_iter()
        .find(|&m| !pos.gives_check(m))
        .unwrap();
    let r = s.say(&format!("alice solve {quiet}"));
    assert!(text(&r).contains("gives no check"), "{r}");
    let a2 = s.say("alice puzzle daily");
    assert_eq!(puzzle_id(&a2), puzzle_id(&a));
    let (end, _) = solve(&mut s, "alice", "solve", &a2);
    assert!(text(&end).contains("2 attempt"), "{end}");
    // Carol solves at her first attempt, after Alice: ranked before her.
    let c = s.say("carol puzzle daily");
    solve(&mut s, "carol", "solve", &c);
    let list = s.say("dave daily");
    let t = text(&list);
    let (pb, pc, pa) = (
        t.find("bob").unwrap(),
        t.find("carol").unwrap(),
        t.find("alice").unwrap(),
    );
    assert!(pb < pc && pc < pa, "{t}");
    assert!(t.contains("alice (2 attempt"), "{t}");
    // Solved today: no second go.
    let r = s.say("bob puzzle daily");
    assert!(text(&r).contains("already solved"), "{r}");
}

#[test]
fn a_streak_over_three_days() {
    let mut s = Session::new();
    let mut ids = Vec::new();
    for day in 1..=3 {
        let d = s.say("erin puzzle daily");
        ids.push(puzzle_id(&d));
        solve(&mut s, "erin", "solve", &d);
        let r = s.say("erin streak");
        let days = if day == 1 {
            "1 day in a row"
        } else {
            &format!("{day} days in a row")
        };
        assert!(text(&r).contains(days), "{r}");
        s.say(":clock +1d");
    }
    // Different days, (almost surely) different puzzles; the same day, the same.
    assert_ne!(ids[0], ids[1]);
    // Still counted the next day (today not yet solved), broken after a gap.
    let r = s.say("erin streak");
    assert!(text(&r).contains("3 days in a row"), "{r}");
    s.say(":clock +1d");
    let r = s.say("erin streak");
    assert!(text(&r).contains("0 days in a row"), "{r}");
}

#[test]
fn shipped_puzzles_are_sound_for_our_solver() {
    let all = shipped();
    assert!(all.len() >= 1000, "{} puzzles", all.len());
    for n in [1, 3, 5] {
        let k = all.iter().filter(|p| p.plies == n).count();
        assert!(k >= 300, "{k} puzzles of {n} plies");
    }
    // Every 7th puzzle (the cshogi script checks all of them).
    for p in all.iter().step_by(7) {
        let pos = p.position().unwrap();
        let mut s = MateSolver::new(2_000_000);
        assert_eq!(s.shortest(&pos, p.plies), Some(Some(p.plies)), "{}", p.id);
        assert_eq!(
            s.mating_moves(&pos, p.plies),
            Some(vec![p.solution[0]]),
            "{}",
            p.id
        );
        let mut q = pos.clone();
        for (i, &m) in p.solution.iter().enumerate() {
            if i % 2 == 0 {
                assert!(q.gives_check(m), "{} move {i}", p.id);
            }
            q.play(m).unwrap();
        }
        assert!(q.is_checkmate(), "{}", p.id);
    }
}

#[test]
fn longer_mates_of_7_and_9_plies() {
    // data/tsume_hard.tsv, checked by scripts/puzzles/verify.py with cshogi
    // (exactly 7 or 9 plies, unique first move). The 11- and 13-ply ones
    // are in tests/tsume_solver.rs.
    let hard = komadai::tsume::puzzles::parse_tsv(include_str!("../data/tsume_hard.tsv")).unwrap();
    assert_eq!(hard.len(), 14);
    for p in hard.into_iter().filter(|p| p.plies <= 9) {
        let pos = p.position().unwrap();
        match komadai::tsume::solve(&pos, 5_000_000, 13) {
            komadai::tsume::Verdict::Mate { plies, line } => {
                assert_eq!(plies, p.plies, "{}", p.id);
                assert_eq!(line[0], p.solution[0], "{}", p.id);
            }
            other => panic!("{}: {other:?}", p.id),
        }
        // df-pn proves them too.
        let mut df = komadai::tsume::Dfpn::new(5_000_000);
        assert!(
            matches!(df.prove(&pos), komadai::tsume::Proof::Mate { .. }),
            "{}",
            p.id
        );
    }
}

#[test]
fn with_a_game_and_a_puzzle_a_refused_move_says_it_went_to_the_puzzle() {
    let mut s = Session::new();
    s.say("alice challenge @bob rated=no color=sente");
    s.say("bob accept");
    let start = s.say("alice puzzle random plies=1");
    assert!(text(&start).contains("mate in 1"), "{start}");
    // P-7f is no move in the puzzle: the refusal names the puzzle and how
    // to reach the game.
    let r = s.say("alice move P-7f");
    assert_eq!(r["ok"], false, "{r}");
    assert!(text(&r).starts_with("In your puzzle: "), "{r}");
    assert!(text(&r).contains("name the game"), "{r}");
    let r = s.say("alice:de move P-7f");
    assert!(text(&r).starts_with("In deinem Problem: "), "{r}");
    // Naming the game plays there; the puzzle is still open.
    let r = s.say("alice move P-7f game=1");
    assert_eq!(r["ok"], true, "{r}");
    assert!(text(&r).contains("alice played ▲７六歩 (P-7f)"), "{r}");
    let pos = board(&start);
    let mv = mating_move(&pos);
    let r = s.say(&format!("alice move {mv}"));
    assert!(text(&r).starts_with("Checkmate!"), "{r}");
}
