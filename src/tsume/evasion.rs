//! A cheap estimate of the defender's replies to a check, for df-pn's
//! initial proof numbers.
//!
//! [`Position::count_legal_moves`] is exact but asks for a full attack test
//! on every square the king could step to and on every destination; df-pn
//! only needs a number that is zero exactly when the defender is mated (a
//! zero proves the check) and otherwise roughly the number of evasions.
//! [`evasions_estimate`] counts the king's safe steps exactly and every other
//! evasion by its square only (pins, promotion choices, dead squares and the
//! pawn-drop rules are ignored), so it is never zero when a legal evasion
//! exists. When it says zero, the caller still confirms with the exact count.

use crate::shogi::{between, king_attacks, Position};

/// Roughly the number of legal replies of the side to move, which is in
/// check: zero only if it has none (see the module's note; a mate where
/// every other defence is pinned may still count more than zero). Falls back to
/// the exact count where the shortcut does not apply.
pub(crate) fn evasions_estimate(pos: &Position) -> u32 {
    estimate(pos, u32::MAX)
}

/// Whether [`evasions_estimate`] is zero, answered at the first reply it
/// counts (the usual answer of a check that does not mate).
pub(crate) fn no_evasion_seen(pos: &Position) -> bool {
    estimate(pos, 1) == 0
}

/// [`evasions_estimate`], given up (with some count of at least `enough`)
/// once it reaches `enough`.
#[inline]
fn estimate(pos: &Position, enough: u32) -> u32 {
    let us = pos.side_to_move();
    let them = !us;
    let checkers = pos.checkers();
    let (Some(k), Some(c)) = (pos.king_square(us), checkers.first()) else {
        return exact(pos);
    };
    let occ = pos.occupied();
    let own = pos.pieces_of(us);
    let occ_wo_king = occ.without(k);
    let mut n = 0;
    for to in king_attacks(k) & !own & pos.board_mask() {
        if !pos.is_attacked(to, them, occ_wo_king) {
            n += 1;
            if n >= enough {
                return n;
            }
        }
    }
    if checkers.more_than_one() {
        // Only the king moves: exact.
        return n;
    }
    // Captures of the checker, and moves onto the squares between.
    n += pos.attackers_to(c, us, occ).without(k).count();
    let b = between(k, c);
    if b.is_any() && n < enough {
        // Drops on one square count once, as df-pn's defender node sums them.
        if !pos.hand(us).is_empty() {
            n += b.count();
        }
        for sq in b {
            if n >= enough {
                break;
            }
            n += pos.attackers_to(sq, us, occ).without(k).count();
        }
    }
    n
}

fn exact(pos: &Position) -> u32 {
    u32::try_from(pos.count_legal_moves()).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::{Bitboard, Color};

    #[test]
    fn the_estimate_is_zero_only_at_mate_and_attacks_match() {
        let mut checked = 0;
        let mut mates = 0;
        let mut seen = |p: &Position| {
            let occ = p.occupied();
            for c in Color::ALL {
                for sq in p.board_mask() {
                    // Every piece of `c` asked whether it reaches `sq`.
                    let mut naive = Bitboard::EMPTY;
                    for from in p.pieces_of(c) {
                        let kind = p.piece_at(from).expect("a piece").kind;
                        if crate::shogi::attacks(c, kind, from, occ).has(sq) {
                            naive = naive.with(from);
                        }
                    }
                    assert_eq!(p.attackers_to(sq, c, occ), naive, "{} {sq}", p.to_sfen());
                    assert_eq!(
                        p.is_attacked(sq, c, occ),
                        naive.is_any(),
                        "{} {sq}",
                        p.to_sfen()
                    );
                }
            }
            if p.in_check() {
                checked += 1;
                let exact = p.count_legal_moves();
                let est = evasions_estimate(p);
                assert_eq!(no_evasion_seen(p), est == 0, "{}", p.to_sfen());
                // Zero only at mate (a mate by pins may get more).
                if est == 0 {
                    assert_eq!(exact, 0, "{}", p.to_sfen());
                }
                mates += usize::from(exact == 0);
            }
        };
        for sfen in [
            "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1",
            "8k/7G1/7P1/9/9/9/9/9/K8 w - 1",
            "7nk/7P1/7S1/9/9/9/9/9/K8 w - 1",
            "4k4/9/4L4/9/9/9/9/9/4K4 w G 1",
            "3gkg3/9/4L4/9/9/9/9/9/4K4 w - 1",
        ] {
            seen(&Position::from_sfen(sfen).unwrap());
        }
        crate::shogi::testing::random_positions(11, 40, 200, &mut seen);
        // Sharp playouts: captures and checks first, so that checks abound.
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..200 {
            let mut p = Position::startpos();
            for _ in 0..160 {
                seen(&p);
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let sharp: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|&m| p.is_capture(m) || p.gives_check(m))
                    .collect();
                let pool = if !sharp.is_empty() && rng.u8(..4) != 0 {
                    sharp
                } else {
                    moves.to_vec()
                };
                p.play_unchecked(pool[rng.usize(..pool.len())]);
            }
        }
        assert!(checked > 1000, "only {checked} checks");
        assert!(mates > 0, "no mate seen");
    }
}
