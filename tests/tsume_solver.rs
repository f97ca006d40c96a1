//! The mate solvers on long mates, pawn-drop-mate traps, positions without
//! mate and composed-problem hands. Node limits only, never timings.
//!
//! Where the expected answers come from: every position below was checked
//! with cshogi 1.1.0 (GPL-3.0, used only as an external checker while this
//! file was written, not at test time):
//! - the long mates with `scripts/puzzles/verify.py` (shortest length: a
//!   mate within N and none within N-2, decided exhaustively; the first
//!   move is the only one that mates within N; the main line checks and
//!   ends in checkmate);
//! - the positions without mate with `cshogi.DfPn(nodes=1_000_000).search`
//!   returning False;
//! - the composed-hand pair with `mate_move_in_1ply`, an exhaustive list of
//!   the mating first moves, and `verify.py` for the composed version.
//!
//! The long mates were found by `komadai puzzles generate --plies N
//! --max-plies N --count 4 --seed 2611` (N = 11, 13; random positions
//! around a king, `tsume::generate::judge_long`), not copied from any
//! collection.

use komadai::shogi::{Move, Position};
use komadai::tsume::{composed, solve, Dfpn, MateSolver, Proof, Verdict};

fn mv(s: &str) -> Move {
    Move::from_usi(s).unwrap()
}

/// (sfen with the defender's hand, shortest mate in plies, the only first move).
const LONG_MATES: [(&str, u32, &str); 4] = [
    (
        "9/7kg/6P2/8s/5P3/3+B5/9/9/3K5 b RG2SLrb2gs4n3l16p 1",
        11,
        "R*2a",
    ),
    ("8k/6g2/8n/6B1+P/9/9/9/9/2K6 b 4S2rb3g3n4l17p 1", 11, "S*1b"),
    (
        "9/1+B7/2gkl4/9/4+P4/2L2+S3/9/9/6K2 b 2GN2rbg3s3n2l17p 1",
        11,
        "8b7c",
    ),
    (
        "8k/6g1p/4B4/9/7NN/9/9/9/K8 b 2G3S2rbgs2n4l17p 1",
        11,
        "1e2c",
    ),
];

#[test]
fn mates_of_11_plies_shortest_length_and_first_move() {
    for (sfen, plies, first) in LONG_MATES {
        let pos = Position::from_sfen_tsume(sfen).unwrap();
        match solve(&pos, 20_000_000, 13) {
            Verdict::Mate { plies: n, line } => {
                assert_eq!(n, plies, "{sfen}");
                assert_eq!(line.len() as u32, plies, "{sfen}");
                assert_eq!(line[0], mv(first), "{sfen}");
                // The main line is legal, every attacker move checks, and
                // it ends in checkmate.
                let mut q = pos.clone();
                for (i, &m) in line.iter().enumerate() {
                    if i % 2 == 0 {
                        assert!(q.gives_check(m), "{sfen}: move {i}");
                    }
                    q.play(m).unwrap();
                }
                assert!(q.is_checkmate(), "{sfen}");
            }
            other => panic!("{sfen}: {other:?}"),
        }
        // df-pn proves them too, well within its budget.
        let mut df = Dfpn::new(1_000_000);
        match df.prove(&pos) {
            Proof::Mate { line } => assert!(pos.gives_check(line[0]), "{sfen}"),
            other => panic!("{sfen}: df-pn {other:?}"),
        }
    }
}

/// 13-ply mates (sfen, the only first move), from `komadai puzzles generate
/// --plies 13 --max-plies 13 --count 4 --seed 2611`, checked with
/// `verify.py` like the 11-ply ones (also in data/tsume_hard.tsv).
const MATES_13: [(&str, &str); 4] = [
    ("9/6k2/6s2/9/5L3/9/9/9/K8 b BGSN2rb3g2s3n3l18p 1", "B*4a"),
    (
        "9/5lR1l/7k1/6Nl1/6s2/5S3/8P/9/5K3 b NLPr2b4g2s2n16p 1",
        "3d2b+",
    ),
    (
        "nn7/kPn6/1g7/p8/2S6/1+R1R5/9/9/4K4 b BG2Lb2g3sn2l16p 1",
        "8f8c",
    ),
    ("6k1+S/6sg1/4sP2G/8+R/9/9/9/9/K8 b 2Gr2bs4n4l17p 1", "1c2b"),
];

#[test]
fn mates_of_13_plies() {
    for (sfen, first) in MATES_13 {
        let pos = Position::from_sfen_tsume(sfen).unwrap();
        // cshogi's first move mates within 13 plies. (That nothing mates
        // within 11 was decided exhaustively with cshogi; repeating it
        // here would cost minutes.)
        let after = pos.after(mv(first));
        assert!(after.in_check(), "{sfen}");
        let mut s = MateSolver::new(20_000_000);
        assert_eq!(s.mated_within(&after, 12), Some(true), "{sfen}");
        let mut df = Dfpn::new(1_000_000);
        assert!(
            matches!(df.prove(&pos), Proof::Mate { .. }),
            "{sfen}: df-pn"
        );
    }
}

/// The pawn drop that would mate, on the positions below.
fn assert_trap(pos: &Position, drop: &str) {
    let drop = mv(drop);
    assert!(!pos.is_legal(drop), "uchifuzume is not a move");
    assert!(pos.after(drop).is_checkmate(), "the trap: it would mate");
}

#[test]
fn a_position_whose_only_mate_is_a_pawn_drop_has_no_mate() {
    for (sfen, drop, compose) in [
        // King 1a boxed by its knight, the silver guards 1b and 2b.
        ("7nk/9/7S1/9/9/9/9/9/K8 b P 1", "P*1b", false),
        ("7nk/9/7S1/9/9/9/9/9/K8 b P 1", "P*1b", true),
        ("7nk/9/7S1/9/9/9/9/9/9 b P 1", "P*1b", true),
        // King 5a between its knights, the gold guards 4b, 5b and 6b.
        ("3nkn3/9/4G4/9/9/9/9/9/K8 b P 1", "P*5b", false),
        ("3nkn3/9/4G4/9/9/9/9/9/9 b P 1", "P*5b", true),
    ] {
        let pos = if compose {
            composed(sfen).unwrap()
        } else {
            Position::from_sfen(sfen).unwrap()
        };
        assert_trap(&pos, drop);
        assert_eq!(Dfpn::new(100_000).prove(&pos), Proof::NoMate, "{sfen}");
        assert_eq!(solve(&pos, 1_000_000, 13), Verdict::NoMate, "{sfen}");
        let mut s = MateSolver::new(1_000_000);
        assert_eq!(s.shortest(&pos, 7), Some(None), "{sfen}");
    }
    // With a gold instead of the pawn the same square mates at once.
    let pos = Position::from_sfen("3nkn3/9/4G4/9/9/9/9/9/K8 b G 1").unwrap();
    assert_eq!(
        solve(&pos, 100_000, 13),
        Verdict::Mate {
            plies: 1,
            line: vec![mv("G*4b")]
        }
    );
}

#[test]
fn no_mate_is_proven_within_a_node_limit() {
    for sfen in [
        // Two golds against a bare king with the rest of the set in hand.
        "8k/9/9/9/9/9/9/9/K8 b 2G2r2b2g4s4n4l18p 1",
        "4k4/9/9/9/9/9/9/9/K8 b 2G2r2b2g4s4n4l18p 1",
        // A silver and a pawn: the pawn can only mate by a drop.
        "7nk/9/6S2/9/9/9/9/9/K8 b SP 1",
        "7nk/9/6S2/9/9/9/9/9/K8 b SP2r2b4g2s3n4l17p 1",
    ] {
        let pos = Position::from_sfen_tsume(sfen).unwrap();
        let mut df = Dfpn::new(200_000);
        assert_eq!(df.prove(&pos), Proof::NoMate, "{sfen}");
        assert!(df.nodes() < 200_000);
    }
}

#[test]
fn the_defenders_hand_of_a_composed_problem_counts() {
    // The rook drops on file 1 and the gold on 3b boxes the king in. With
    // nothing in the defender's hand, seven drops mate at once.
    let bare = Position::from_sfen("8k/6G2/9/9/9/9/9/9/K8 b R 1").unwrap();
    let mut s = MateSolver::new(100_000);
    let mut ones = s.mating_moves(&bare, 1).unwrap();
    ones.sort();
    let mut want: Vec<Move> = ["R*1c", "R*1d", "R*1e", "R*1f", "R*1g", "R*1h", "R*1i"]
        .into_iter()
        .map(mv)
        .collect();
    want.sort();
    assert_eq!(ones, want);
    // As a composed problem the defender holds everything else and blocks:
    // the shortest mate is three plies, by R*2a only.
    for sfen in ["8k/6G2/9/9/9/9/9/9/K8 b R 1", "8k/6G2/9/9/9/9/9/9/9 b R 1"] {
        let pos = composed(sfen).unwrap();
        assert_eq!(
            pos.to_sfen().split(' ').nth(2),
            Some("Rr2b3g4s4n4l18p"),
            "{sfen}"
        );
        match solve(&pos, 1_000_000, 13) {
            Verdict::Mate { plies, line } => {
                assert_eq!(plies, 3, "{sfen}");
                assert_eq!(line, vec![mv("R*2a"), mv("1a1b"), mv("2a2b+")], "{sfen}");
            }
            other => panic!("{sfen}: {other:?}"),
        }
        let mut s = MateSolver::new(1_000_000);
        assert_eq!(s.mating_moves(&pos, 3), Some(vec![mv("R*2a")]), "{sfen}");
        assert!(matches!(Dfpn::new(100_000).prove(&pos), Proof::Mate { .. }));
    }
}
