//! The mate solver on the shipped puzzles (1, 3, 5 plies) and on harder
//! positions (7 to 13 plies, `data/tsume_hard.tsv`). Compare with cshogi's
//! DfPn on the same positions: `scripts/puzzles/bench.sh` runs both (and
//! benches/tsume_side.rs, which times our df-pn the way the cshogi script
//! times its DfPn).
//!
//! Run: `cargo bench --bench tsume`. Every run asserts its answers. `solve`
//! (exact shortest mate and main line) is timed on the shipped puzzles and
//! the 7- and 9-ply hard ones; its exact search on the 11- and 13-ply ones
//! takes seconds each.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use komadai::shogi::Position;
use komadai::tsume::puzzles::{parse_tsv, shipped, Puzzle};
use komadai::tsume::{solve, Dfpn, Proof, Verdict};

const NODES: u64 = 10_000_000;

fn positions(set: &[Puzzle]) -> Vec<(Position, u32)> {
    set.iter()
        .map(|p| (p.position().expect("valid"), p.plies))
        .collect()
}

fn prove_all(set: &[(Position, u32)]) {
    for (pos, _) in set {
        let mut df = Dfpn::new(NODES);
        assert!(matches!(df.prove(pos), Proof::Mate { .. }));
    }
}

fn solve_all(set: &[(Position, u32)]) {
    for (pos, plies) in set {
        match solve(pos, NODES, 13) {
            Verdict::Mate { plies: n, line } => {
                assert_eq!(n, *plies);
                assert_eq!(line.len() as u32, n);
            }
            other => panic!("{other:?}"),
        }
    }
}

fn bench(c: &mut Criterion) {
    let shipped = positions(&shipped());
    let hard =
        positions(&parse_tsv(include_str!("../data/tsume_hard.tsv")).expect("hard set parses"));
    let short_hard: Vec<(Position, u32)> = hard.iter().filter(|(_, n)| *n <= 9).cloned().collect();
    let mut g = c.benchmark_group("tsume");
    g.sample_size(10);
    g.bench_function("dfpn_prove_shipped_1020", |b| {
        b.iter(|| prove_all(black_box(&shipped)))
    });
    g.bench_function("dfpn_prove_hard", |b| {
        b.iter(|| prove_all(black_box(&hard)))
    });
    g.bench_function("solve_shortest_line_shipped_1020", |b| {
        b.iter(|| solve_all(black_box(&shipped)));
    });
    g.bench_function("solve_shortest_line_hard_7_9", |b| {
        b.iter(|| solve_all(black_box(&short_hard)));
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
