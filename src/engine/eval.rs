//! Static evaluation: material (pieces in hand worth more than on the board),
//! piece placement relative to both kings, slider mobility and king safety.
//!
//! Scores are centipawn-like integers from the point of view of the side to
//! move. The same function serves 9×9 and minishogi.

use crate::shogi::{attacks, king_attacks, Bitboard, Color, PieceKind, Position, Square};

/// Value of a piece standing on the board, indexed by [`PieceKind::index`].
pub const BOARD_VALUE: [i32; 14] = [
    100,  // pawn
    300,  // lance
    350,  // knight
    480,  // silver
    540,  // gold
    820,  // bishop
    950,  // rook
    0,    // king
    540,  // tokin
    520,  // promoted lance
    520,  // promoted knight
    520,  // promoted silver
    1050, // horse
    1250, // dragon
];

/// Value of a piece held in hand, indexed by [`PieceKind::index`] (hand kinds only).
pub const HAND_VALUE: [i32; 7] = [115, 330, 380, 540, 600, 900, 1050];

/// The value used to order captures and to judge exchanges (kings count big).
#[must_use]
pub fn exchange_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => 20_000,
        k => BOARD_VALUE[k.index()],
    }
}

/// Bonus for being `d` (Chebyshev distance) from the own king: defenders.
const DEFEND_GOLD: [i32; 9] = [0, 38, 26, 10, 0, -5, -10, -12, -14];
/// Bonus for being `d` from the enemy king: attackers.
const ATTACK_GOLD: [i32; 9] = [0, 50, 34, 16, 6, 0, 0, 0, 0];
const ATTACK_MINOR: [i32; 9] = [0, 22, 26, 14, 6, 0, 0, 0, 0];
const ATTACK_BIG: [i32; 9] = [0, 70, 45, 22, 10, 4, 0, 0, 0];
const DEFEND_HORSE: [i32; 9] = [0, 30, 22, 12, 4, 0, 0, 0, 0];

/// Weight of each hand kind as a threat to the enemy king (drops near it).
const HAND_THREAT: [i32; 7] = [1, 2, 3, 3, 3, 3, 4];

#[inline]
fn dist(a: Square, b: Option<Square>) -> usize {
    match b {
        Some(b) => {
            let df = (i32::from(a.file()) - i32::from(b.file())).unsigned_abs();
            let dr = (i32::from(a.rank()) - i32::from(b.rank())).unsigned_abs();
            df.max(dr).min(8) as usize
        }
        None => 8,
    }
}

/// The evaluation from the side to move's point of view.
#[must_use]
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    // Attack maps of both sides: squares attacked at least once / twice.
    let mut att1 = [Bitboard::EMPTY; 2];
    let mut att2 = [Bitboard::EMPTY; 2];
    let mut s = [0i32; 2];
    for c in Color::ALL {
        s[c.index()] = side_score(pos, c, &mut att1[c.index()], &mut att2[c.index()]);
    }
    let mask = pos.board_mask();
    for c in Color::ALL {
        let them = (!c).index();
        s[c.index()] -= king_danger(pos, c, att1[them], att2[them], att2[c.index()], mask);
    }
    // A small bonus for having the move.
    s[us.index()] - s[(!us).index()] + 20
}

/// The evaluation from Sente's point of view (for graphs and analysis).
#[must_use]
pub fn evaluate_sente(pos: &Position) -> i32 {
    let e = evaluate(pos);
    match pos.side_to_move() {
        Color::Sente => e,
        Color::Gote => -e,
    }
}

/// Material only (board and hands) for `c`.
#[must_use]
pub fn material(pos: &Position, c: Color) -> i32 {
    let mut s = 0;
    for kind in PieceKind::ALL {
        s += BOARD_VALUE[kind.index()] * pos.pieces(c, kind).count() as i32;
    }
    for (kind, n) in pos.hand(c).iter() {
        s += HAND_VALUE[kind.index()] * i32::from(n);
    }
    s
}

fn side_score(pos: &Position, c: Color, att1: &mut Bitboard, att2: &mut Bitboard) -> i32 {
    let them = !c;
    let own_king = pos.king_square(c);
    let their_king = pos.king_square(them);
    let occ = pos.occupied();
    let mask = pos.board_mask();
    let size = pos.variant().size();
    let mut s = 0;

    for kind in PieceKind::ALL {
        let bb = pos.pieces(c, kind);
        if bb.is_empty() {
            continue;
        }
        let v = BOARD_VALUE[kind.index()];
        for sq in bb {
            s += v;
            let a = attacks(c, kind, sq, occ) & mask;
            *att2 |= *att1 & a;
            *att1 |= a;
            let de = dist(sq, their_king);
            let dm = dist(sq, own_king);
            s += match kind {
                PieceKind::Gold | PieceKind::Silver => DEFEND_GOLD[dm] + ATTACK_GOLD[de] / 2,
                PieceKind::ProPawn
                | PieceKind::ProLance
                | PieceKind::ProKnight
                | PieceKind::ProSilver => ATTACK_GOLD[de],
                PieceKind::Knight | PieceKind::Lance => ATTACK_MINOR[de],
                PieceKind::Pawn => {
                    // Slightly prefer advanced pawns away from the own king.
                    let r = i32::from(sq.relative_rank(c, size));
                    if dm >= 3 {
                        (i32::from(size) - r - 2).clamp(0, 4) * 3
                    } else {
                        0
                    }
                }
                PieceKind::Bishop | PieceKind::Rook => a.count() as i32 * 4,
                PieceKind::Horse => DEFEND_HORSE[dm] + ATTACK_BIG[de] / 2 + a.count() as i32 * 3,
                PieceKind::Dragon => ATTACK_BIG[de] + a.count() as i32 * 3,
                PieceKind::King => king_placement(sq, c, size),
            };
        }
    }
    for (kind, n) in pos.hand(c).iter() {
        let n = i32::from(n);
        s += HAND_VALUE[kind.index()] * n;
        // Many pawns in hand are worth a little less each.
        if kind == PieceKind::Pawn && n > 4 {
            s -= (n - 4) * 15;
        }
    }
    s
}

fn king_placement(sq: Square, c: Color, size: u8) -> i32 {
    if size != 9 {
        return 0;
    }
    let r = sq.relative_rank(c, size);
    let f = sq.file();
    let mut s = match r {
        9 | 8 => 20,
        7 => 5,
        6 => -15,
        _ => -30,
    };
    // Castles sit off the centre file.
    if f != 5 && r >= 7 {
        s += 10;
    }
    s
}

/// Penalty for the danger around `c`'s king, from the enemy attack maps
/// (`their1`: attacked at least once, `their2`: at least twice) and `c`'s own
/// "attacked twice" map (the king itself covers every square next to it).
fn king_danger(
    pos: &Position,
    c: Color,
    their1: Bitboard,
    their2: Bitboard,
    own2: Bitboard,
    mask: Bitboard,
) -> i32 {
    let Some(k) = pos.king_square(c) else {
        return 0;
    };
    let zone = king_attacks(k) & mask;
    let attacked = (zone & their1).count() as i32 + (zone & their2).count() as i32;
    let overwhelmed = (zone & their1 & !own2).count() as i32;
    let holes = (zone & !their1 & !pos.occupied()).count() as i32;
    let mut threat = 0;
    for (kind, n) in pos.hand(!c).iter() {
        threat += HAND_THREAT[kind.index()] * i32::from(n.min(2));
    }
    if threat > 0 && holes > 0 {
        threat += holes.min(4);
    }
    let units = attacked + 2 * overwhelmed + threat / 2;
    (units * units * 3 / 2).min(700)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced() {
        let p = Position::startpos();
        let e = evaluate(&p);
        assert!((0..=60).contains(&e), "start eval {e}");
        let m = Position::minishogi_startpos();
        assert!(evaluate(&m).abs() <= 60);
    }

    #[test]
    fn extra_rook_is_winning() {
        let p =
            Position::from_sfen("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
                .unwrap();
        assert!(evaluate(&p) > 700);
        assert!(evaluate_sente(&p) > 700);
    }

    #[test]
    fn hand_piece_worth_more_than_board_piece() {
        for k in PieceKind::HAND {
            assert!(HAND_VALUE[k.index()] > BOARD_VALUE[k.index()]);
        }
    }
}
