//! Danger help for beginners: which of a player's pieces hang (attacked by
//! the opponent and defended by nothing), and for one piece, which of its
//! legal targets are safe and where it could be taken without recapture.
//!
//! "Defended" and "attacked" are counted as the rules core sees them (any
//! piece that attacks the square, the king included); a defender that is
//! pinned still counts, as a beginner would count it. Pure: a position in,
//! squares out.

use crate::shogi::{Color, Move, PieceKind, Position, Square};

/// The piece a player asks about: on the board, or a kind in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The piece on this square.
    Board(Square),
    /// A piece of this kind from the hand (its drops).
    Hand(PieceKind),
}

/// The legal targets of one piece, split by what can happen there next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Targets {
    /// Squares where the piece is not attacked, or attacked but defended.
    pub safe: Vec<Square>,
    /// Squares where the opponent could capture it without a recapture.
    pub unsafe_targets: Vec<Square>,
}

/// `side`'s pieces (the king excepted) that the opponent attacks and that
/// nothing of `side` defends, in square order.
#[must_use]
pub fn hanging(pos: &Position, side: Color) -> Vec<Square> {
    let occ = pos.occupied();
    Square::all()
        .filter(|&sq| {
            pos.piece_at(sq)
                .is_some_and(|p| p.color == side && p.kind != PieceKind::King)
                && pos.is_attacked(sq, !side, occ)
                && !pos.is_attacked(sq, side, occ)
        })
        .collect()
}

/// Whether the piece that has just arrived on `to` could be captured
/// without a recapture.
fn en_prise(after: &Position, to: Square, side: Color) -> bool {
    let occ = after.occupied();
    after.is_attacked(to, !side, occ) && !after.is_attacked(to, side, occ)
}

/// The legal targets of the side to move's piece at `origin`, each once
/// (a move that may promote or not is one target), in square order. Empty
/// when the piece has no legal move or is not the side to move's.
#[must_use]
pub fn targets(pos: &Position, origin: Origin) -> Targets {
    let side = pos.side_to_move();
    let mut out = Targets::default();
    let mut seen = Vec::new();
    for m in pos.legal_moves().iter().copied() {
        let to = match (m, origin) {
            (Move::Normal { from, to, .. }, Origin::Board(sq)) if from == sq => to,
            (Move::Drop { kind, to }, Origin::Hand(k)) if kind == k => to,
            _ => continue,
        };
        if seen.contains(&to) {
            continue;
        }
        seen.push(to);
        if en_prise(&pos.after(m), to, side) {
            out.unsafe_targets.push(to);
        } else {
            out.safe.push(to);
        }
    }
    out.safe.sort_unstable_by_key(|s| s.index());
    out.unsafe_targets.sort_unstable_by_key(|s| s.index());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::from_usi(s).expect("square")
    }

    #[test]
    fn nothing_hangs_at_the_start() {
        let pos = Position::startpos();
        assert!(hanging(&pos, Color::Sente).is_empty());
        assert!(hanging(&pos, Color::Gote).is_empty());
    }

    #[test]
    fn an_undefended_attacked_piece_hangs_a_defended_one_does_not() {
        // Gote's rook on 2b attacks down the file to Sente's silver on 2e,
        // which nothing defends; Gote's lance on 9a attacks Sente's lance on
        // 9e, undefended too. Sente's gold on 5e is not attacked.
        let pos = Position::from_sfen("l3k4/7r1/9/9/L3G2S1/9/9/9/4K4 b - 1").expect("sfen");
        assert_eq!(hanging(&pos, Color::Sente), vec![sq("2e"), sq("9e")]);
        // Defend the silver with the gold next to it: only the lance hangs.
        let pos = Position::from_sfen("l3k4/7r1/9/9/L5GS1/9/9/9/4K4 b - 1").expect("sfen");
        assert_eq!(hanging(&pos, Color::Sente), vec![sq("9e")]);
    }

    #[test]
    fn a_target_the_opponent_takes_for_free_is_unsafe() {
        // Sente's rook on 5h: up the file, 5c and 5b are attacked by Gote's
        // gold on 4b and not defended (the rook does not defend the square
        // it moves to); 5d is attacked by nothing.
        let pos = Position::from_sfen("3k5/5g3/9/9/9/9/9/4R4/K8 b - 1").expect("sfen");
        let t = targets(&pos, Origin::Board(sq("5h")));
        assert!(t.unsafe_targets.contains(&sq("5c")), "{t:?}");
        assert!(t.unsafe_targets.contains(&sq("5b")), "{t:?}");
        assert!(t.safe.contains(&sq("5d")), "{t:?}");
        assert!(t.safe.contains(&sq("1h")), "{t:?}");
        // Promoting or not onto 5c is one target.
        let mut all: Vec<Square> = t.safe.iter().chain(&t.unsafe_targets).copied().collect();
        let n = all.len();
        all.sort_unstable_by_key(|s| s.index());
        all.dedup();
        assert_eq!(n, all.len(), "{t:?}");
        assert_eq!(
            n, 16,
            "eight along the rank, seven up the file, one down: {t:?}"
        );
    }

    #[test]
    fn drops_and_foreign_pieces() {
        // A gold in hand: dropping it next to Gote's king on 5b is answered
        // by the king taking it, unless something defends the square.
        let pos = Position::from_sfen("9/4k4/9/9/9/9/9/9/4K4 b G 1").expect("sfen");
        let t = targets(&pos, Origin::Hand(PieceKind::Gold));
        assert!(t.unsafe_targets.contains(&sq("5c")), "{t:?}");
        assert!(t.safe.contains(&sq("5e")), "{t:?}");
        // Gote's king is not Sente's to move: no targets.
        assert_eq!(targets(&pos, Origin::Board(sq("5b"))), Targets::default());
    }
}
