//! Tactical suite: positions with a known best move (mates in 1, 3 and 5
//! plies, winning captures, forced defences), solved by the Strong settings
//! (mate search first, then the main search) under a node limit, never a clock.
//!
//! The positions and answers come from `scripts/tactics/gen_tactics.py`
//! (cshogi's exact short-mate search lists every mating first move;
//! fairy-stockfish MultiPV 2 at a fixed depth picks captures and defences
//! that are at least 400 centipawns better than the second-best move, and a
//! 1.5 s MultiPV 2 search must agree on move and margin).

use komadai::engine::{Limits, Score, Searcher};
use komadai::shogi::Position;

const SUITE: &str = include_str!("data/tactics.txt");

/// The node budget per position: well under a second for Strong.
const NODES: u64 = 250_000;

struct Case {
    kind: String,
    sfen: String,
    answers: Vec<String>,
}

fn cases() -> Vec<Case> {
    SUITE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let parts: Vec<&str> = l.split(" | ").collect();
            assert_eq!(parts.len(), 3, "bad line {l}");
            Case {
                kind: parts[0].trim().to_string(),
                sfen: parts[1].trim().to_string(),
                answers: parts[2].split_whitespace().map(str::to_string).collect(),
            }
        })
        .collect()
}

#[test]
fn suite_has_enough_positions() {
    let c = cases();
    assert!(c.len() >= 50, "only {} positions", c.len());
    for kind in ["mate1", "mate3", "mate5", "capture", "defence"] {
        assert!(c.iter().any(|x| x.kind == kind), "no {kind} positions");
    }
}

#[test]
fn strong_solves_the_suite_within_the_node_limit() {
    let mut failures = Vec::new();
    let cases = cases();
    for c in &cases {
        let pos = Position::from_sfen(&c.sfen).unwrap_or_else(|e| panic!("{}: {e}", c.sfen));
        let mut s = Searcher::new(16);
        let r = s.search(&pos, &[], Limits::nodes(NODES).with_mate_first(7), |_| {});
        let best = r.best.map(|m| m.to_string()).unwrap_or_default();
        let mate_ok = match c.kind.as_str() {
            "mate1" => r.score == Score::Mate(1),
            "mate3" => matches!(r.score, Score::Mate(n) if (1..=2).contains(&n)),
            "mate5" => matches!(r.score, Score::Mate(n) if (1..=3).contains(&n)),
            _ => true,
        };
        if !c.answers.contains(&best) || !mate_ok {
            failures.push(format!(
                "{} {}: played {best} ({:?}), expected {}",
                c.kind,
                c.sfen,
                r.score,
                c.answers.join("/")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
