//! Speed and size of the board renderer.
//!
//! Run: `cargo bench --bench render`. Targets (issue 4), for the midgame below
//! with a last move: compose + encode median ≤ 3 ms and PNG ≤ 32 KB, also with
//! every overlay on (pictograms, dots, names, danger marks, caption); cold start
//! (first image, sprites included) ≤ 30 ms; a 100-move game GIF ≤ 150 ms and
//! ≤ 1.5 MB. Sizes are asserted here; times are for criterion to report.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use komadai::engine::danger;
use komadai::lang::Lang;
use komadai::render::{game_gif, Marks, PieceStyle, RenderOptions, Renderer};
use komadai::shogi::{Color, Move, Position, Square};

const MIDGAME: &str =
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124";

/// A deterministic 100-move game: seeded random legal moves, preferring
/// captures so that hands fill up and pieces promote as in a real game.
fn hundred_moves() -> (Position, Vec<Move>) {
    for seed in 1.. {
        let mut rng = fastrand::Rng::with_seed(seed);
        let start = Position::startpos();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        while moves.len() < 100 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let captures: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| pos.is_capture(m))
                .collect();
            let mv = if !captures.is_empty() && rng.bool() {
                captures[rng.usize(..captures.len())]
            } else {
                legal[rng.usize(..legal.len())]
            };
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        if moves.len() == 100 {
            return (start, moves);
        }
    }
    unreachable!("some seed gives 100 moves")
}

/// The danger overlay of Sente in the midgame with Sente to move, from the
/// analysis the bot uses (`engine::danger`), with the repetition caption on
/// as well: every overlay a game board shows at once.
fn all_marks(pos: &Position) -> Marks {
    let viewer = Color::Sente;
    let selected = Square::from_usi("7b").unwrap();
    let t = danger::targets(pos, danger::Origin::Board(selected));
    Marks {
        hanging: danger::hanging(pos, viewer),
        selected: Some(selected),
        safe: t.safe,
        unsafe_targets: t.unsafe_targets,
        mate: false,
        repetitions: 3,
    }
}

fn bench(c: &mut Criterion) {
    let pos = Position::from_sfen(MIDGAME).unwrap();
    let last = Some(Move::from_usi("6d5c").unwrap());
    let opts = RenderOptions::default();
    let t = std::time::Instant::now();
    let r = Renderer::shared();
    black_box(r.board_png(&pos, last, &opts));
    println!(
        "first image in this process (font, palette, base, sprites): {:?}",
        t.elapsed()
    );

    let png = r.board_png(&pos, last, &opts);
    println!("midgame PNG: {} bytes", png.len());
    assert!(png.len() <= 32 * 1024, "midgame PNG is {} bytes", png.len());
    let (start, moves) = hundred_moves();
    let gif = game_gif(&start, &moves, &opts).unwrap();
    println!("100-move GIF: {} bytes", gif.len());
    assert!(gif.len() <= 1_500_000, "GIF is {} bytes", gif.len());

    let pos_b = Position::from_sfen(&MIDGAME.replace(" w ", " b ")).unwrap();
    let marks = all_marks(&pos_b);
    assert!(!marks.hanging.is_empty() && !marks.unsafe_targets.is_empty());
    let opts_all = RenderOptions {
        style: PieceStyle::Pictogram,
        move_dots: true,
        names: true,
        lang: Lang::De,
        ..opts
    };
    let png_all = r.board_png_marked(&pos_b, last, &opts_all, &marks);
    println!(
        "midgame PNG, pictogram, dots, names, all overlays: {} bytes",
        png_all.len()
    );
    assert!(
        png_all.len() <= 32 * 1024,
        "overlay PNG is {} bytes",
        png_all.len()
    );

    let mut g = c.benchmark_group("render");
    g.bench_function("compose", |b| {
        b.iter(|| r.compose(black_box(&pos), last, &opts))
    });
    let frame = r.compose(&pos, last, &opts);
    g.bench_function("encode_png", |b| b.iter(|| black_box(&frame).to_png()));
    g.bench_function("compose_encode_png", |b| {
        b.iter(|| r.board_png(black_box(&pos), last, &opts))
    });
    g.bench_function("compose_encode_png_all_overlays", |b| {
        b.iter(|| r.board_png_marked(black_box(&pos_b), last, &opts_all, &marks))
    });
    g.bench_function("cold_start_first_png", |b| {
        b.iter(|| Renderer::new().board_png(black_box(&pos), last, &opts))
    });
    g.sample_size(20);
    g.bench_function("gif_100_moves", |b| {
        b.iter(|| game_gif(black_box(&start), &moves, &opts).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
