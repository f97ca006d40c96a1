//! Perft against published and independently computed node counts
//! (`tests/data/perft.txt` says where each number comes from).
//!
//! `cargo test` runs every line with at most [`FAST_LIMIT`] nodes; the deep
//! lines (up to 1.2 billion nodes) run with
//! `cargo test --release --test integration perft:: -- --ignored`.

use komadai::shogi::{perft, Position};

/// Lines with more leaves than this are left to the ignored test.
const FAST_LIMIT: u64 = 25_000_000;

struct Case {
    id: String,
    sfen: String,
    depth: u32,
    nodes: u64,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    let mut out = Vec::new();
    let (mut id, mut sfen) = (String::new(), String::new());
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').expect("key value");
        match key {
            "id" => id = rest.to_string(),
            "epd" => sfen = rest.to_string(),
            "perft" => {
                let (d, n) = rest.split_once(' ').expect("depth nodes");
                out.push(Case {
                    id: id.clone(),
                    sfen: sfen.clone(),
                    depth: d.parse().expect("depth"),
                    nodes: n.parse().expect("nodes"),
                });
            }
            other => panic!("unknown key {other}"),
        }
    }
    out
}

fn run(filter: impl Fn(&Case) -> bool) -> usize {
    let mut ran = 0;
    for case in cases().into_iter().filter(|c| filter(c)) {
        let pos = Position::from_sfen(&case.sfen).expect("valid SFEN in perft.txt");
        assert_eq!(
            perft(&pos, case.depth),
            case.nodes,
            "{} depth {} ({})",
            case.id,
            case.depth,
            case.sfen
        );
        ran += 1;
    }
    ran
}

#[test]
fn perft_up_to_node_limit() {
    let ran = run(|c| c.nodes <= FAST_LIMIT);
    assert!(ran >= 24, "only {ran} perft lines ran");
}

#[test]
#[ignore = "deep perft: minutes; run with --release -- --ignored"]
fn perft_deep() {
    let ran = run(|c| c.nodes > FAST_LIMIT);
    assert!(ran >= 1);
}
