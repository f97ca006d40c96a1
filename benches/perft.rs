//! Perft speed of the rules core, side by side with haitaka 0.3.2 (the fastest
//! Rust shogi move generator on crates.io; a speed anchor only, since it lets
//! some pawn-drop mates through). Both count the last ply in bulk.
//!
//! Run: `cargo bench --bench perft`. Each benchmark asserts its node count.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use komadai::shogi::{perft, Position, STANDARD_START_SFEN};

const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

fn haitaka_perft(board: &haitaka::Board, depth: u8) -> u64 {
    let mut nodes = 0u64;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.into_iter().len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut b = board.clone();
            b.play_unchecked(mv);
            nodes += haitaka_perft(&b, depth - 1);
        }
        false
    });
    nodes
}

fn bench(c: &mut Criterion) {
    let cases: [(&str, &str, u32, u64); 2] = [
        ("startpos", STANDARD_START_SFEN, 5, 19_861_490),
        ("matsuri", MATSURI, 3, 4_809_015),
    ];
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for (name, sfen, depth, nodes) in cases {
        g.throughput(Throughput::Elements(nodes));
        let pos = Position::from_sfen(sfen).expect("valid sfen");
        g.bench_function(format!("komadai/{name}/{depth}"), |b| {
            b.iter(|| assert_eq!(perft(black_box(&pos), depth), nodes));
        });
        let board = haitaka::Board::from_sfen(sfen).expect("valid sfen");
        g.bench_function(format!("haitaka/{name}/{depth}"), |b| {
            b.iter(|| assert_eq!(haitaka_perft(black_box(&board), depth as u8), nodes));
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
