//! Mate in one: a check of the side to move after which the other side has
//! no legal move, found without playing most checks.
//!
//! Shared by df-pn (at every new attacker node and inside its mate-in-three
//! test) and by the engine's search (at every node it sees for the first
//! time). Each mate it reports is confirmed by the exact count of legal
//! replies, but it gives up at once on a king with more than [`FREE_MOST`]
//! free squares, so "none" means "none found", not "no mate".

use super::evasion::no_evasion_seen;
use super::{checks, moved_kind};
use crate::shogi::{
    attacks, between, bishop_pseudo, king_attacks, rook_pseudo, Bitboard, Move, PieceKind,
    Position, Square,
};

/// The mate-in-one test gives up on a king with more free squares than
/// this: one check seldom covers them all, and the failing tries (every
/// check generated) cost more than the rare find. (At 4 neither df-pn
/// benchmark set's node count changes; at 3 the hard set needs 8% more
/// nodes.)
const FREE_MOST: u32 = 4;

/// The first check of `pos` (in [`checks`] order) that mates at once, with
/// the position after it; `None` when there is none, or the other king has
/// more than [`FREE_MOST`] free squares.
#[must_use]
pub fn mate_in_one(pos: &Position) -> Option<(Move, Position)> {
    find(pos, false)
}

/// [`mate_in_one`] for df-pn, which tries it at every new attacker node:
/// a check after which the quick count of replies
/// ([`super::evasion::no_evasion_seen`]) is not zero is not played out. That
/// count takes a pinned defender or a pawn drop the rules forbid for a
/// reply, so this misses the mates where every reply left is such a one
/// (often after an interposed piece, which is pinned); df-pn finds them by
/// searching on.
pub(crate) fn mate_in_one_quick(pos: &Position) -> Option<(Move, Position)> {
    find(pos, true)
}

fn find(pos: &Position, quick: bool) -> Option<(Move, Position)> {
    let us = pos.side_to_move();
    let ksq = pos.king_square(!us)?;
    let occ = pos.occupied();
    // The king's free squares now: a mating check must cover each (by the
    // checker, or a line it opens; the test below is loose, the mate is
    // confirmed exactly).
    let occ_wo_king = occ.without(ksq);
    let mut free = Bitboard::EMPTY;
    for sq in king_attacks(ksq) & !pos.pieces_of(!us) & pos.board_mask() {
        if !pos.is_attacked(sq, us, occ_wo_king) {
            free = free.with(sq);
        }
    }
    if free.count() > FREE_MOST {
        return None;
    }
    let theirs = pos.hand(!us);
    let blockers = [
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
    ]
    .iter()
    .any(|&k| theirs.count(k) > 0);
    for mv in checks(pos) {
        if free.is_any() {
            let cover = match mv {
                Move::Drop { kind, to } => attacks(us, kind, to, occ_wo_king),
                Move::Normal { from, to, promote } => {
                    let Some(kind) = moved_kind(pos, from, promote) else {
                        continue;
                    };
                    attacks(us, kind, to, occ_wo_king.without(from).with(to))
                        | rook_pseudo(from)
                        | bishop_pseudo(from)
                }
            };
            if (free & !cover).is_any() {
                continue;
            }
        }
        if !may_mate(pos, mv, ksq, blockers) {
            continue;
        }
        let child = pos.after(mv);
        if (quick && !no_evasion_seen(&child)) || child.count_legal_moves() != 0 {
            continue;
        }
        return Some((mv, child));
    }
    None
}

/// Whether the check `mv` of `pos` against the king on `ksq` may mate:
/// false when the defender surely has a reply, found without playing the
/// move. Either the king takes a checker next to it that nothing guards,
/// or (`blockers`: the defender holds a gold, silver, bishop or rook, whose
/// drops are never illegal) a lone check from afar is blocked by a drop.
/// Only a filter: true proves nothing, the mate is still confirmed.
#[inline]
fn may_mate(pos: &Position, mv: Move, ksq: Square, blockers: bool) -> bool {
    let (to, occ, lone) = match mv {
        Move::Drop { to, .. } => (to, pos.occupied(), true),
        // Leaving a square off the king's lines uncovers no second check.
        Move::Normal { from, to, .. } => (
            to,
            pos.occupied().without(from),
            !(rook_pseudo(ksq) | bishop_pseudo(ksq)).has(from),
        ),
    };
    if king_attacks(ksq).has(to) {
        // Guarded after the move? The moved piece still counts from its
        // old square, so at worst a guard too many: never a wrong "no".
        return pos.is_attacked(to, pos.side_to_move(), occ.without(ksq));
    }
    !(lone && blockers && between(ksq, to).is_any())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mates in one of a king with at most [`FREE_MOST`] free squares,
    /// by trying every legal move, against what [`mate_in_one`] and
    /// [`mate_in_one_quick`] report, over seeded random games of both
    /// variants: both report only mates; the first finds each, the quick one
    /// nearly each.
    #[test]
    fn finds_the_mates_in_one_of_a_king_with_few_free_squares() {
        let (mut mates, mut quick_found) = (0, 0);
        let seen = crate::shogi::testing::random_positions(23, 40, 160, |p| {
            if p.in_check() {
                return;
            }
            let mated: Vec<Move> = p
                .legal_moves()
                .into_iter()
                .filter(|&m| {
                    let c = p.after(m);
                    c.in_check() && c.count_legal_moves() == 0
                })
                .collect();
            let (full, quick) = (mate_in_one(p), mate_in_one_quick(p));
            for (mv, child) in full.iter().chain(quick.iter()) {
                assert!(mated.contains(mv), "{} {mv}", p.to_sfen());
                assert_eq!(*child, p.after(*mv));
            }
            let us = p.side_to_move();
            let Some(k) = p.king_square(!us) else { return };
            let occ = p.occupied().without(k);
            let free = (king_attacks(k) & !p.pieces_of(!us) & p.board_mask())
                .into_iter()
                .filter(|&sq| !p.is_attacked(sq, us, occ))
                .count();
            if free as u32 <= FREE_MOST && !mated.is_empty() {
                mates += 1;
                assert!(full.is_some(), "{} misses {mated:?}", p.to_sfen());
                quick_found += usize::from(quick.is_some());
            }
        });
        assert!(seen > 4_000, "{seen}");
        assert!(mates > 100, "{mates}");
        assert!(quick_found * 100 >= mates * 90, "{quick_found} of {mates}");
    }

    /// After a piece is interposed (and so pinned), its capture of the
    /// checker is no reply: the quick test gives up on such a mate, the
    /// full one finds it.
    #[test]
    fn a_mate_whose_only_reply_is_a_pinned_capture() {
        // Gote's gold on 8b, pinned by the dragon on 8c, could take a silver
        // dropped on 9b.
        let p = Position::from_sfen("1kp6/1g7/1+R1n5/9/3N5/9/9/9/1K7 b Sr2b3g2s2n4l17p 1").unwrap();
        let full = mate_in_one(&p).map(|(m, _)| m.to_string());
        assert_eq!(full.as_deref(), Some("S*9b"));
        assert_eq!(mate_in_one_quick(&p), None);
    }

    #[test]
    fn a_pawn_drop_that_would_mate_is_not_a_mate_in_one() {
        // P*1b would mate but is illegal (uchifuzume); the gold drop on 2b
        // is taken by the silver.
        let p = Position::from_sfen("4R2sk/9/7G1/9/9/9/9/9/4K4 b P 1").unwrap();
        assert_eq!(mate_in_one(&p), None);
        let p = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        assert_eq!(
            mate_in_one(&p).map(|(m, _)| m.to_string()).as_deref(),
            Some("G*5b")
        );
    }
}
