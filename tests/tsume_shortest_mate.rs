//! `tsume::solve` reports the shortest mate, not just a mate: on mates of 7
//! to 13 plies it returns exactly the shortest length, with a main line that
//! is legal, checks on every attacker move and ends in checkmate.
//!
//! Where the expected lengths come from: `tests/data/shortest_mates.tsv`,
//! made by `scripts/puzzles/shortest_set.py` from the hard benchmark set
//! (`data/tsume_hard.tsv`): its positions, the positions along its main
//! lines and cshogi's DfPn lines, and the defender's other replies; each
//! length decided with cshogi (see the file's
//! header: a mate within n plies, none within n - 2, every "no" exhaustive
//! over cshogi's legal moves, cshogi's DfPn agreeing that there is a mate).

use komadai::shogi::Position;
use komadai::tsume::{is_mating_line, solve, Verdict};

/// The node budget `solve` gets (each of df-pn and the exact search).
const NODES: u64 = 5_000_000;

fn set() -> Vec<(String, u32, Position)> {
    include_str!("data/shortest_mates.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let plies = cols[1].parse().expect("a length");
            let pos = Position::from_sfen_tsume(cols[2]).expect("a position");
            (cols[0].to_string(), plies, pos)
        })
        .collect()
}

#[test]
fn solve_finds_the_shortest_mate_of_7_to_13_plies() {
    let set = set();
    assert!(set.len() >= 50, "only {} positions", set.len());
    for n in [7, 9, 11, 13] {
        assert!(set.iter().any(|(_, p, _)| *p == n), "no mate of {n} plies");
    }
    for (id, plies, pos) in &set {
        match solve(pos, NODES, 13) {
            Verdict::Mate { plies: n, line } => {
                assert_eq!(n, *plies, "{id}: {}", pos.to_sfen());
                assert_eq!(line.len() as u32, n, "{id}");
                assert!(is_mating_line(pos, &line), "{id}: {line:?}");
            }
            other => panic!("{id}: {other:?} ({})", pos.to_sfen()),
        }
    }
}
