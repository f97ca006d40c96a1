//! Invariants over seeded random games (fixed seeds, so failures reproduce):
//! the generator and `check_move` agree on every move, SFEN printing and
//! parsing round-trip, the incremental Zobrist key equals the recomputed one,
//! and the SFEN parser survives random and mutated input.

use komadai::shogi::{
    Move, PieceKind, Position, Square, MINISHOGI_START_SFEN, STANDARD_START_SFEN,
};

/// Every move the generator lists passes `check_move`; every other
/// syntactically possible move is refused. Also checks SFEN and key
/// invariants in each position.
fn check_position(pos: &Position) {
    let legal = pos.legal_moves();
    let mut sorted: Vec<Move> = legal.to_vec();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), legal.len(), "duplicate moves in {pos}");
    for &m in &legal {
        assert!(
            pos.check_move(m).is_ok(),
            "{m} generated but refused in {pos}: {:?}",
            pos.check_move(m)
        );
    }
    // All board moves from own pieces and all drops, with and without promotion.
    let mut accepted = 0;
    let us = pos.side_to_move();
    for from in pos.pieces_of(us) {
        for to in Square::all() {
            if to == from {
                continue;
            }
            for promote in [false, true] {
                let m = Move::Normal { from, to, promote };
                if pos.check_move(m).is_ok() {
                    accepted += 1;
                    assert!(
                        sorted.binary_search(&m).is_ok(),
                        "{m} accepted but not generated in {pos}"
                    );
                }
            }
        }
    }
    for kind in PieceKind::HAND {
        for to in Square::all() {
            let m = Move::Drop { kind, to };
            if pos.check_move(m).is_ok() {
                accepted += 1;
                assert!(
                    sorted.binary_search(&m).is_ok(),
                    "{m} accepted but not generated in {pos}"
                );
            }
        }
    }
    assert_eq!(accepted, legal.len(), "in {pos}");
    // Moves from empty or enemy squares are refused.
    for from in !pos.pieces_of(us) & pos.board_mask() {
        let m = Move::Normal {
            from,
            to: Square::SQ_5E,
            promote: false,
        };
        assert!(pos.check_move(m).is_err());
    }
    let text = pos.to_sfen();
    let back = Position::from_sfen(&text).expect("printed SFEN parses");
    assert_eq!(&back, pos, "SFEN round trip of {text}");
    assert_eq!(back.to_sfen(), text);
    assert_eq!(
        pos.key(),
        pos.key_from_scratch(),
        "incremental key in {text}"
    );
    assert_eq!(pos.key(), back.key());
    // The keys a mate search looks children up by, without playing the move.
    for &m in &legal {
        let after = pos.after(m);
        assert_eq!(
            pos.keys_after(m),
            (after.board_key(), after.key()),
            "keys after {m} in {text}"
        );
    }
}

/// Random games biased towards captures, drops, promotions and checks.
fn random_games(start: &str, games: usize, seed: u64) -> usize {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut positions = 0;
    for _ in 0..games {
        let mut pos = Position::from_sfen(start).unwrap();
        for _ in 0..rng.usize(20..160) {
            check_position(&pos);
            positions += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let interesting: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| pos.is_capture(m) || m.is_drop() || m.is_promotion())
                .collect();
            let m = if !interesting.is_empty() && rng.bool() {
                interesting[rng.usize(..interesting.len())]
            } else {
                moves[rng.usize(..moves.len())]
            };
            pos.play(m).expect("generated moves are legal");
        }
    }
    positions
}

#[test]
fn generator_and_check_move_agree_standard() {
    let n = random_games(STANDARD_START_SFEN, 60, 0x5eed_0001);
    assert!(n > 3000, "{n} positions");
}

#[test]
fn generator_and_check_move_agree_minishogi() {
    let n = random_games(MINISHOGI_START_SFEN, 80, 0x5eed_0002);
    assert!(n > 2000, "{n} positions");
}

#[test]
fn generator_and_check_move_agree_with_full_hands() {
    let n = random_games(
        "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
        20,
        0x5eed_0003,
    );
    assert!(n > 500);
}

#[test]
fn sfen_parser_survives_random_input() {
    let mut rng = fastrand::Rng::with_seed(0x5eed_0004);
    let alphabet: Vec<char> = "0123456789/+- bwPLNSGBRKplnsgbrk\u{3000}歩１\n\t+x"
        .chars()
        .collect();
    for _ in 0..20_000 {
        let len = rng.usize(0..120);
        let s: String = (0..len)
            .map(|_| alphabet[rng.usize(..alphabet.len())])
            .collect();
        let _ = Position::from_sfen(&s);
    }
    for _ in 0..5_000 {
        let len = rng.usize(0..300);
        let s: String = (0..len).map(|_| rng.char(..)).collect();
        let _ = Position::from_sfen(&s);
    }
}

#[test]
fn sfen_parser_survives_mutated_input() {
    let mut rng = fastrand::Rng::with_seed(0x5eed_0005);
    let seeds = [
        STANDARD_START_SFEN,
        MINISHOGI_START_SFEN,
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    ];
    let mut valid = 0;
    for _ in 0..50_000 {
        let mut bytes: Vec<char> = seeds[rng.usize(..seeds.len())].chars().collect();
        for _ in 0..rng.usize(1..4) {
            let i = rng.usize(..bytes.len().max(1));
            match rng.u8(0..3) {
                0 if !bytes.is_empty() => {
                    bytes.remove(i.min(bytes.len() - 1));
                }
                1 => bytes.insert(i.min(bytes.len()), rng.alphanumeric()),
                _ if !bytes.is_empty() => {
                    let j = i.min(bytes.len() - 1);
                    bytes[j] = "0123456789+/-bwpPkK "
                        .chars()
                        .nth(rng.usize(..20))
                        .unwrap_or('x');
                }
                _ => {}
            }
        }
        let s: String = bytes.into_iter().collect();
        if let Ok(p) = Position::from_sfen(&s) {
            valid += 1;
            // Whatever parses is a checked position: everything works on it.
            let _ = p.legal_moves();
            assert_eq!(Position::from_sfen(&p.to_sfen()).unwrap(), p);
        }
    }
    assert!(
        valid > 1000,
        "mutations should leave some positions valid ({valid})"
    );
}
