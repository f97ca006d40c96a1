//! Data-driven tests of the notation module: round trips over thousands of
//! positions, every example string of SPEC §2 and issue 3, and seeded random
//! input that must never panic.

use std::time::{Duration, Instant};

use komadai::notation::{
    format_move, parse_move, InputContext, MoveInputError, ParseMoveError, Style,
};
use komadai::shogi::{
    Handicap, IllegalMove, Move, Position, MINISHOGI_START_SFEN, STANDARD_START_SFEN,
};

/// Positions from seeded random playouts with the rules core itself, each with
/// the move that led to it (so `同` is exercised).
fn playout_positions(seed: u64, games: usize, plies: usize) -> Vec<(Position, Option<Move>)> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    let mut starts: Vec<Position> = vec![
        Position::from_sfen(STANDARD_START_SFEN).unwrap(),
        Position::from_sfen(MINISHOGI_START_SFEN).unwrap(),
    ];
    starts.extend(Handicap::ALL.iter().map(|h| h.start_position()));
    for g in 0..games {
        let mut pos = starts[g % starts.len()].clone();
        let mut prev = None;
        for _ in 0..plies {
            out.push((pos.clone(), prev));
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then so that hands fill and drops appear.
            let caps: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| pos.is_capture(m))
                .collect();
            let mv = if !caps.is_empty() && rng.u8(0..3) == 0 {
                caps[rng.usize(0..caps.len())]
            } else {
                moves[rng.usize(0..moves.len())]
            };
            pos = pos.after(mv);
            prev = Some(mv);
        }
    }
    out
}

fn round_trip(pos: &Position, prev: Option<Move>) -> usize {
    let mut n = 0;
    for &mv in pos.legal_moves().iter() {
        for style in Style::ALL {
            let text = format_move(pos, mv, style, prev);
            let ctx = InputContext {
                previous: prev,
                style: Some(style),
            };
            assert_eq!(
                parse_move(pos, &text, ctx),
                Ok(mv),
                "{style:?} {text:?} for {mv} in {}",
                pos.to_sfen()
            );
            n += 1;
        }
    }
    n
}

#[test]
fn every_legal_move_round_trips_in_every_style() {
    // 240 games × 40 plies from 11 starts (standard, minishogi, 9 handicaps).
    let positions = playout_positions(20_261_129, 240, 40);
    assert!(positions.len() > 5000, "{}", positions.len());
    let mut n = 0;
    for (pos, prev) in &positions {
        n += round_trip(pos, *prev);
    }
    assert!(n > 500_000, "{n} round trips");
    eprintln!("{} positions, {n} round trips", positions.len());
}

#[test]
fn round_trip_over_shared_legal_move_data() {
    // tests/data/legal_*.tsv (SFEN<TAB>count<TAB>digest) come from the
    // rules-core oracle work (positions checked against cshogi); run over
    // them when they are there.
    for name in [
        "legal_standard.tsv",
        "legal_minishogi.tsv",
        "legal_probes.tsv",
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let (mut positions, mut n) = (0, 0);
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let sfen = line.split('\t').next().unwrap_or("");
            let Ok(pos) = Position::from_sfen(sfen) else {
                continue; // probe files may hold deliberately invalid SFENs
            };
            n += round_trip(&pos, None);
            positions += 1;
        }
        eprintln!("{name}: {positions} positions, {n} round trips");
    }
}

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap()
}

fn mv(usi: &str) -> Move {
    Move::from_usi(usi).unwrap()
}

/// After 1. P-7f P-3d: the bishops see each other.
const OPEN_BISHOPS: &str = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
/// After 1. P-7f P-3d 2. Bx2b+: Gote recaptures with the silver (同　銀).
const RECAPTURE: &str = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4";
/// Sente has a bishop and a silver in hand.
const DROPS: &str = "ln1gkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b BSb 5";
/// A Gote rook on 6h, inside Gote's zone, so leaving it to 6d may promote (R68-64+).
const ROOK_ZONE: &str = "4k4/9/9/9/9/9/9/3r5/4K4 w - 1";
/// A silver on 4f and one in hand, both able to reach 4e (board move vs drop).
const SILVER_OR_DROP: &str = "lnsgkg1nl/1r5b1/ppppppppp/9/9/5S3/PPPPPPPPP/1B5R1/LN1GKGSNL b S 1";

#[derive(Debug)]
enum Want {
    Move(&'static str),
    Unparseable,
    Illegal,
    NoPiece,
    Ambiguous(&'static [&'static str]),
    NoPrevious,
    WrongPiece,
    NotAsWritten(&'static [&'static str]),
}

#[test]
fn spec_examples() {
    use Want::*;
    let cases: &[(&str, &str, Option<&str>, Want)] = &[
        // SPEC §2 USI
        (STANDARD_START_SFEN, "7g7f", None, Move("7g7f")),
        (OPEN_BISHOPS, "8h2b+", None, Move("8h2b+")),
        (DROPS, "P*5e", None, Illegal),
        (DROPS, "B*5e", None, Move("B*5e")),
        // Western
        (STANDARD_START_SFEN, "P-7f", None, Move("7g7f")),
        (STANDARD_START_SFEN, "P-76", None, Move("7g7f")),
        (STANDARD_START_SFEN, "P76", None, Move("7g7f")),
        (OPEN_BISHOPS, "Bx2b+", None, Move("8h2b+")),
        (OPEN_BISHOPS, "Bx2b=", None, Move("8h2b")),
        (OPEN_BISHOPS, "bx2b+", None, Move("8h2b+")),
        (OPEN_BISHOPS, "Bx22+", None, Move("8h2b+")),
        (OPEN_BISHOPS, "Bx2b", None, Ambiguous(&["Bx2b+", "Bx2b="])),
        (OPEN_BISHOPS, "2b", None, Ambiguous(&["Bx2b+", "Bx2b="])),
        (OPEN_BISHOPS, "8h2b", None, Move("8h2b")),
        (DROPS, "S*4e", None, Move("S*4e")),
        (DROPS, "S*45", None, Move("S*4e")),
        (STANDARD_START_SFEN, "G6i-5h", None, Move("6i5h")),
        (STANDARD_START_SFEN, "G69-58", None, Move("6i5h")),
        (
            STANDARD_START_SFEN,
            "G-5h",
            None,
            Ambiguous(&["G4i-5h", "G6i-5h"]),
        ),
        (
            STANDARD_START_SFEN,
            "G-58",
            None,
            Ambiguous(&["G49-58", "G69-58"]),
        ),
        (ROOK_ZONE, "R68-64+", None, Move("6h6d+")),
        (ROOK_ZONE, "R-6d=", None, Move("6h6d")),
        (ROOK_ZONE, "R-6d", None, Ambiguous(&["R-6d+", "R-6d="])),
        // Japanese
        (STANDARD_START_SFEN, "76歩", None, Move("7g7f")),
        (STANDARD_START_SFEN, "７六歩", None, Move("7g7f")),
        (STANDARD_START_SFEN, "▲７六歩", None, Move("7g7f")),
        (STANDARD_START_SFEN, "☗７六歩", None, Move("7g7f")),
        (STANDARD_START_SFEN, "7六歩", None, Move("7g7f")),
        (STANDARD_START_SFEN, "７６歩", None, Move("7g7f")),
        (STANDARD_START_SFEN, "７六歩(77)", None, Move("7g7f")),
        (STANDARD_START_SFEN, "５八金右", None, Move("4i5h")),
        (STANDARD_START_SFEN, "５八金左", None, Move("6i5h")),
        (
            STANDARD_START_SFEN,
            "58金",
            None,
            Ambiguous(&["▲５八金右", "▲５八金左"]),
        ),
        (OPEN_BISHOPS, "２二角成", None, Move("8h2b+")),
        (OPEN_BISHOPS, "２二角不成", None, Move("8h2b")),
        (OPEN_BISHOPS, "22角生", None, Move("8h2b")),
        (
            OPEN_BISHOPS,
            "２二角",
            None,
            Ambiguous(&["▲２二角不成", "▲２二角成"]),
        ),
        (RECAPTURE, "同銀", Some("8h2b+"), Move("3a2b")),
        (RECAPTURE, "△同　銀", Some("8h2b+"), Move("3a2b")),
        (RECAPTURE, "同　銀", None, NoPrevious),
        (
            RECAPTURE,
            "同",
            Some("8h2b+"),
            Ambiguous(&["△同　銀", "△同　飛"]),
        ),
        (RECAPTURE, "同飛", Some("8h2b+"), Move("8b2b")),
        (RECAPTURE, "２二同銀", None, Move("3a2b")),
        (RECAPTURE, "22同銀", Some("8h2b+"), Move("3a2b")),
        (DROPS, "４五角", None, Move("B*4e")),
        (DROPS, "４五角打", None, Move("B*4e")),
        (SILVER_OR_DROP, "４五銀", None, Move("4f4e")),
        (SILVER_OR_DROP, "４五銀打", None, Move("S*4e")),
        (SILVER_OR_DROP, "S*4e", None, Move("S*4e")),
        (SILVER_OR_DROP, "S-4e", None, Move("4f4e")),
        // CSA
        (STANDARD_START_SFEN, "+7776FU", None, Move("7g7f")),
        (OPEN_BISHOPS, "+8822UM", None, Move("8h2b+")),
        (OPEN_BISHOPS, "+8822KA", None, Move("8h2b")),
        (DROPS, "+0045KA", None, Move("B*4e")),
        // Errors
        (STANDARD_START_SFEN, "", None, Unparseable),
        (STANDARD_START_SFEN, "hello", None, Unparseable),
        (STANDARD_START_SFEN, "7", None, Unparseable),
        (STANDARD_START_SFEN, "*5e", None, Unparseable),
        (STANDARD_START_SFEN, "7g7e", None, Illegal),
        (STANDARD_START_SFEN, "P-7e", None, NoPiece),
        (STANDARD_START_SFEN, "5e", None, NoPiece),
        (STANDARD_START_SFEN, "R-2a", None, Illegal),
        (STANDARD_START_SFEN, "S7g-7f", None, WrongPiece),
        (
            STANDARD_START_SFEN,
            "５八金直",
            None,
            NotAsWritten(&["▲５八金右", "▲５八金左"]),
        ),
        (
            STANDARD_START_SFEN,
            "５八金引",
            None,
            NotAsWritten(&["▲５八金右", "▲５八金左"]),
        ),
        (STANDARD_START_SFEN, "P-7f+", None, Illegal),
        (STANDARD_START_SFEN, "同歩", None, NoPrevious),
        (OPEN_BISHOPS, "P*5e+", None, Unparseable),
        (OPEN_BISHOPS, "Bx2b+=", None, Unparseable),
    ];
    for (sfen, text, prev, want) in cases {
        let p = pos(sfen);
        let ctx = InputContext::after(prev.map(mv));
        let got = parse_move(&p, text, ctx);
        let ok = match (want, &got) {
            (Move(u), Ok(m)) => m.to_string() == *u,
            (Unparseable, Err(MoveInputError::Unparseable(_))) => true,
            (Illegal, Err(MoveInputError::Illegal(_))) => true,
            (NoPiece, Err(MoveInputError::NoPieceCanReach { .. })) => true,
            (NoPrevious, Err(MoveInputError::NoPreviousMove)) => true,
            (WrongPiece, Err(MoveInputError::WrongPiece { .. })) => true,
            (NotAsWritten(w), Err(MoveInputError::NotAsWritten { written, .. })) => {
                written.iter().map(String::as_str).collect::<Vec<_>>() == *w
            }
            (Ambiguous(w), Err(MoveInputError::Ambiguous { written, .. })) => {
                let mut a: Vec<&str> = written.iter().map(String::as_str).collect();
                a.sort_unstable();
                let mut b = w.to_vec();
                b.sort_unstable();
                a == b
            }
            _ => false,
        };
        assert!(ok, "{text:?} in {sfen}: want {want:?}, got {got:?}");
    }
}

#[test]
fn illegal_moves_name_the_rule() {
    // Nifu: a pawn drop on a file with an own pawn.
    let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert!(matches!(
        parse_move(&p, "P*5e", InputContext::default()),
        Err(MoveInputError::Illegal(IllegalMove::Nifu { file: 5, .. }))
    ));
    assert!(matches!(
        parse_move(&p, "５五歩打", InputContext::default()),
        Err(MoveInputError::Illegal(IllegalMove::Nifu { .. }))
    ));
    // Dead piece: a pawn dropped on the last rank.
    assert!(matches!(
        parse_move(&p, "P*1a", InputContext::default()),
        Err(MoveInputError::Illegal(IllegalMove::DeadDrop { .. }))
    ));
    // Uchifuzume: king on 1a, own knight on 2a, Sente gold on 2c guarding 1b and 2b.
    let p = pos("7nk/9/7G1/9/9/9/9/9/K8 b P 1");
    assert!(matches!(
        parse_move(&p, "P*1b", InputContext::default()),
        Err(MoveInputError::Illegal(IllegalMove::PawnDropMate))
    ));
    // Must promote: a pawn moving to the last rank without promotion.
    let p = pos("4k4/P8/9/9/9/9/9/9/4K4 b - 1");
    assert!(matches!(
        parse_move(&p, "P-9a=", InputContext::default()),
        Err(MoveInputError::Illegal(IllegalMove::MustPromote { .. }))
    ));
    assert_eq!(
        parse_move(&p, "P-9a", InputContext::default()),
        Ok(mv("9b9a+"))
    );
    // Leaves the king in check: the pinned gold.
    let p = pos("4r3k/9/9/9/9/9/9/4G4/4K4 b - 1");
    assert!(matches!(
        parse_move(&p, "G-4g", InputContext::default()),
        Err(MoveInputError::Illegal(
            IllegalMove::LeavesKingInCheck { .. }
        ))
    ));
}

#[test]
fn ambiguity_lists_use_the_players_style() {
    let p = pos(STANDARD_START_SFEN);
    let ctx = InputContext {
        previous: None,
        style: Some(Style::Usi),
    };
    match parse_move(&p, "G-5h", ctx) {
        Err(MoveInputError::Ambiguous {
            candidates,
            written,
        }) => {
            assert_eq!(candidates, vec![mv("4i5h"), mv("6i5h")]);
            assert_eq!(written, vec!["4i5h", "6i5h"]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn width_case_and_space_variants() {
    let p = pos(STANDARD_START_SFEN);
    for text in [
        "７ｇ７ｆ",
        "７Ｇ７Ｆ",
        "Ｐ－７ｆ",
        "p-7f",
        "P - 7 f",
        "  76 歩  ",
        "▲7六歩",
        "７　六　歩",
        "P７６",
        "+７７７６ＦＵ",
    ] {
        assert_eq!(
            parse_move(&p, text, InputContext::default()),
            Ok(mv("7g7f")),
            "{text}"
        );
    }
}

#[test]
fn random_input_never_panics_and_is_fast() {
    let p = pos(OPEN_BISHOPS);
    let alphabet: Vec<char> = "0123456789abcdefghixPLNSGBRK+-*=()同歩香桂銀金角飛玉と成不打右左直上引寄▲△☗☖　１２３７八九六ｆＧ"
        .chars()
        .collect();
    let mut rng = fastrand::Rng::with_seed(3);
    let start = Instant::now();
    for i in 0..20_000 {
        let len = rng.usize(0..12);
        let text: String = if i % 3 == 0 {
            (0..len)
                .map(|_| char::from_u32(rng.u32(0..0x3_0000)).unwrap_or('?'))
                .collect()
        } else {
            (0..len)
                .map(|_| alphabet[rng.usize(0..alphabet.len())])
                .collect()
        };
        let ctx = InputContext::after(Some(mv("3c3d")));
        let _ = parse_move(&p, &text, ctx);
    }
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    // Over-long input is refused before it is read.
    let long = "歩".repeat(100_000);
    let t = Instant::now();
    assert!(matches!(
        parse_move(&p, &long, InputContext::default()),
        Err(MoveInputError::Unparseable(ParseMoveError::TooLong {
            max: 200,
            ..
        }))
    ));
    assert!(t.elapsed() < Duration::from_secs(1));
}
