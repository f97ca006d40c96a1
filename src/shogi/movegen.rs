//! Legal move generation, move checking with the broken rule, and candidate
//! queries for input disambiguation and autocomplete.

use super::bitboard::{attacks, between, king_attacks, line, step_attacks, Bitboard};
use super::position::{dead_squares, Position};
use super::types::{Color, Move, PieceKind, Square};

/// The most legal moves any shogi position has is 593; this leaves room.
pub const MAX_MOVES: usize = 600;

/// A list of moves without heap allocation.
pub type MoveList = arrayvec::ArrayVec<Move, MAX_MOVES>;

/// Why a move is illegal. Carries data, not prose: `i18n` writes the sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// A square of the move is outside the board (minishogi).
    #[error("square {0} is not on the board")]
    OffBoard(Square),
    /// There is no piece on the origin square.
    #[error("there is no piece on {0}")]
    NoPiece(Square),
    /// The piece on the origin square belongs to the opponent.
    #[error("the piece on {0} is not yours")]
    NotYourPiece(Square),
    /// The destination holds one of the mover's own pieces.
    #[error("your own piece stands on {0}")]
    OwnPieceOnTarget(Square),
    /// The piece does not move that way.
    #[error("a {kind:?} cannot move from {from} to {to}")]
    CannotMoveLikeThat {
        /// The moving piece.
        kind: PieceKind,
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
    },
    /// A ranging piece's path is blocked.
    #[error("the way from {from} to {to} is blocked at {blocker}")]
    PathBlocked {
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
        /// The first piece in the way.
        blocker: Square,
    },
    /// Promotion asked for a piece that cannot promote at all (gold, king, promoted).
    #[error("a {0:?} cannot promote")]
    PieceCannotPromote(PieceKind),
    /// Promotion asked for a move that neither starts nor ends in the promotion zone.
    #[error("promotion needs a move into, out of or inside the promotion zone")]
    NotInPromotionZone,
    /// The piece would have no legal move on its destination: it must promote.
    #[error("a {kind:?} on {to} could never move again: it must promote")]
    MustPromote {
        /// The moving piece.
        kind: PieceKind,
        /// Destination.
        to: Square,
    },
    /// The piece to drop is not in hand.
    #[error("you have no {0:?} in hand")]
    NotInHand(PieceKind),
    /// Only unpromoted non-king kinds can be dropped.
    #[error("a {0:?} cannot be dropped")]
    NotDroppable(PieceKind),
    /// Drops only go on empty squares.
    #[error("{0} is occupied: drops never capture")]
    DropOnOccupied(Square),
    /// Nifu: a second unpromoted pawn on a file.
    #[error("nifu: you already have a pawn on file {file}")]
    Nifu {
        /// The file.
        file: u8,
        /// Where the pawn already stands.
        pawn: Square,
    },
    /// A dropped pawn, lance or knight could never move.
    #[error("a {kind:?} dropped on {to} could never move")]
    DeadDrop {
        /// The dropped kind.
        kind: PieceKind,
        /// Destination.
        to: Square,
    },
    /// Uchifuzume: a pawn drop that gives checkmate.
    #[error("uchifuzume: a pawn drop may not give checkmate")]
    PawnDropMate,
    /// The king would move onto an attacked square.
    #[error("the king would be in check on {to} (attacked from {attacker})")]
    KingIntoCheck {
        /// Destination of the king.
        to: Square,
        /// A piece that attacks it.
        attacker: Square,
    },
    /// The move leaves (or puts) the mover's king in check.
    #[error("your king would be in check (attacked from {attacker})")]
    LeavesKingInCheck {
        /// A piece that would give check.
        attacker: Square,
        /// Whether the king was already in check before the move.
        was_in_check: bool,
    },
}

/// Where generated moves go: a list, or a counter (perft's bulk counting).
pub trait MoveSink {
    /// Takes one legal move.
    fn push(&mut self, mv: Move);

    /// Takes the board moves from `from` to every square of `to`.
    #[inline]
    fn push_targets(&mut self, from: Square, to: Bitboard, promote: bool) {
        for t in to {
            self.push(Move::Normal {
                from,
                to: t,
                promote,
            });
        }
    }

    /// Takes the drops of `kind` on every square of `to`.
    #[inline]
    fn push_drops(&mut self, kind: PieceKind, to: Bitboard) {
        for t in to {
            self.push(Move::Drop { kind, to: t });
        }
    }
}

impl MoveSink for MoveList {
    #[inline]
    fn push(&mut self, mv: Move) {
        // A position has at most 593 legal moves: this cannot overflow.
        arrayvec::ArrayVec::push(self, mv);
    }
}

impl MoveSink for Vec<Move> {
    #[inline]
    fn push(&mut self, mv: Move) {
        Vec::push(self, mv);
    }
}

/// Counts moves instead of storing them.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline]
    fn push(&mut self, _mv: Move) {
        self.0 += 1;
    }

    #[inline]
    fn push_targets(&mut self, _from: Square, to: Bitboard, _promote: bool) {
        self.0 += u64::from(to.count());
    }

    #[inline]
    fn push_drops(&mut self, _kind: PieceKind, to: Bitboard) {
        self.0 += u64::from(to.count());
    }
}

const GOLDLIKE: [PieceKind; 5] = [
    PieceKind::Gold,
    PieceKind::ProPawn,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::ProSilver,
];

impl Position {
    /// All legal moves.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// The number of legal moves (no list is built).
    #[must_use]
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = MoveCounter(0);
        self.generate(&mut c);
        c.0
    }

    /// Whether the side to move has at least one legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        // Cheap enough: positions without moves are rare and small.
        self.count_legal_moves() > 0
    }

    /// Whether the side to move is checkmated.
    #[must_use]
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// Generates every legal move into `sink`.
    pub fn generate<S: MoveSink>(&self, sink: &mut S) {
        let us = self.side;
        let them = !us;
        let own = self.by_color[us.index()];
        let occ = self.occupied();
        let mask = self.board_mask();
        let ksq = self.kings[us.index()];

        if let Some(k) = ksq {
            let occ_wo_king = occ.without(k);
            for to in king_attacks(k) & !own & mask {
                if !self.is_attacked(to, them, occ_wo_king) {
                    sink.push(Move::Normal {
                        from: k,
                        to,
                        promote: false,
                    });
                }
            }
            if self.checkers.more_than_one() {
                return;
            }
        }

        let (target, drop_target) = match (self.checkers.first(), ksq) {
            (Some(c), Some(k)) => {
                let b = between(k, c);
                (b.with(c), b)
            }
            _ => (!own & mask, !occ & mask),
        };
        let pinned = self.pinned(us);
        let zone = self.promotion_zone(us);
        let v = self.variant;

        // Pawns that are not pinned move in bulk: one rank forward. A pawn never
        // stands on its last rank, so the shift cannot wrap into another file.
        let pawns = self.pieces(us, PieceKind::Pawn);
        let free_pawns = pawns & !pinned;
        if free_pawns.is_any() {
            let dead = dead_squares(v, us, PieceKind::Pawn);
            let to_all = match us {
                Color::Sente => Bitboard(free_pawns.0 >> 1),
                Color::Gote => Bitboard(free_pawns.0 << 1),
            } & target;
            for to in to_all {
                let from = match us {
                    Color::Sente => Square::new_unchecked(to.index() as u8 + 1),
                    Color::Gote => Square::new_unchecked(to.index() as u8 - 1),
                };
                if zone.has(to) {
                    sink.push(Move::Normal {
                        from,
                        to,
                        promote: true,
                    });
                    if !dead.has(to) {
                        sink.push(Move::Normal {
                            from,
                            to,
                            promote: false,
                        });
                    }
                } else {
                    sink.push(Move::Normal {
                        from,
                        to,
                        promote: false,
                    });
                }
            }
        }
        for kind in [
            PieceKind::Pawn,
            PieceKind::Lance,
            PieceKind::Knight,
            PieceKind::Silver,
            PieceKind::Bishop,
            PieceKind::Rook,
        ] {
            let dead = dead_squares(v, us, kind);
            let mut froms = self.pieces(us, kind);
            if kind == PieceKind::Pawn {
                froms &= pinned;
            }
            for from in froms {
                let mut to_set = attacks(us, kind, from, occ) & target;
                if pinned.has(from) {
                    if let Some(k) = ksq {
                        to_set &= line(k, from);
                    }
                }
                if to_set.is_empty() {
                    continue;
                }
                let promo = if zone.has(from) {
                    to_set
                } else {
                    to_set & zone
                };
                sink.push_targets(from, promo, true);
                sink.push_targets(from, to_set & !dead, false);
            }
        }
        let mut others = Bitboard::EMPTY;
        for kind in GOLDLIKE {
            others |= self.pieces(us, kind);
        }
        for from in others {
            let mut to_set = step_attacks(us, PieceKind::Gold, from) & target;
            if pinned.has(from) {
                if let Some(k) = ksq {
                    to_set &= line(k, from);
                }
            }
            sink.push_targets(from, to_set, false);
        }
        for kind in [PieceKind::Horse, PieceKind::Dragon] {
            for from in self.pieces(us, kind) {
                let mut to_set = attacks(us, kind, from, occ) & target;
                if pinned.has(from) {
                    if let Some(k) = ksq {
                        to_set &= line(k, from);
                    }
                }
                sink.push_targets(from, to_set, false);
            }
        }

        let hand = self.hands[us.index()];
        if hand.is_empty() || drop_target.is_empty() {
            return;
        }
        for kind in PieceKind::HAND {
            if hand.count(kind) == 0 {
                continue;
            }
            let mut to_set = drop_target & !dead_squares(v, us, kind);
            if kind == PieceKind::Pawn {
                to_set &= !self.pieces(us, PieceKind::Pawn).fill_files();
                if let Some(tk) = self.kings[them.index()] {
                    // The only square where a pawn drop gives check.
                    if let Some(front) = step_attacks(them, PieceKind::Pawn, tk).first() {
                        if to_set.has(front) && self.pawn_drop_mates(front) {
                            to_set = to_set.without(front);
                        }
                    }
                }
            }
            sink.push_drops(kind, to_set);
        }
    }

    /// Whether dropping a pawn of the side to move on `to` (the square in front
    /// of the enemy king, assumed empty and a legal drop otherwise) would mate.
    fn pawn_drop_mates(&self, to: Square) -> bool {
        let us = self.side;
        let them = !us;
        let Some(tk) = self.kings[them.index()] else {
            return false;
        };
        let occ = self.occupied().with(to);
        let theirs = self.by_color[them.index()];
        // Can the king step away or take the pawn?
        let occ_wo_king = occ.without(tk);
        for esc in king_attacks(tk) & !theirs & self.board_mask() {
            // The dropped pawn is on `to`: attacks on it come from `us` pieces only.
            if !self.is_attacked(esc, us, occ_wo_king) {
                return false;
            }
        }
        // Can another piece take the pawn without exposing its king?
        let capturers = self.attackers_to(to, them, occ).without(tk);
        for from in capturers {
            let occ2 = occ.without(from);
            // After the capture, only our sliders can newly attack their king.
            let sliders = self.slider_attackers(tk, us, occ2).without(to);
            if sliders.is_empty() {
                return false;
            }
        }
        true
    }

    /// Ranging pieces of `by` attacking `sq` with occupancy `occ`.
    fn slider_attackers(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let k = &self.by_kind;
        let rookish = k[PieceKind::Rook.index()] | k[PieceKind::Dragon.index()];
        let bishopish = k[PieceKind::Bishop.index()] | k[PieceKind::Horse.index()];
        ((super::bitboard::rook_attacks(sq, occ) & rookish)
            | (super::bitboard::bishop_attacks(sq, occ) & bishopish)
            | (super::bitboard::lance_attacks(!by, sq, occ) & k[PieceKind::Lance.index()]))
            & self.by_color[by.index()]
    }

    /// Checks a move against every rule and says which one it breaks.
    ///
    /// This is written independently of [`Position::generate`]; tests assert
    /// that the two agree on every move.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        let us = self.side;
        let mask = self.board_mask();
        let occ = self.occupied();
        match mv {
            Move::Normal { from, to, promote } => {
                for sq in [from, to] {
                    if !mask.has(sq) {
                        return Err(IllegalMove::OffBoard(sq));
                    }
                }
                let p = self.piece_at(from).ok_or(IllegalMove::NoPiece(from))?;
                if p.color != us {
                    return Err(IllegalMove::NotYourPiece(from));
                }
                if self.pieces_of(us).has(to) {
                    return Err(IllegalMove::OwnPieceOnTarget(to));
                }
                if !attacks(us, p.kind, from, Bitboard::EMPTY).has(to) {
                    return Err(IllegalMove::CannotMoveLikeThat {
                        kind: p.kind,
                        from,
                        to,
                    });
                }
                let path = between(from, to) & occ;
                if let Some(blocker) = closest(path, from) {
                    if !step_attacks(us, p.kind, from).has(to) {
                        return Err(IllegalMove::PathBlocked { from, to, blocker });
                    }
                }
                if promote {
                    if !p.kind.can_promote() {
                        return Err(IllegalMove::PieceCannotPromote(p.kind));
                    }
                    let zone = self.promotion_zone(us);
                    if !zone.has(from) && !zone.has(to) {
                        return Err(IllegalMove::NotInPromotionZone);
                    }
                } else if dead_squares(self.variant, us, p.kind).has(to) {
                    return Err(IllegalMove::MustPromote { kind: p.kind, to });
                }
                self.check_king_safety(mv, p.kind == PieceKind::King)
            }
            Move::Drop { kind, to } => {
                if !mask.has(to) {
                    return Err(IllegalMove::OffBoard(to));
                }
                if !kind.is_hand_kind() {
                    return Err(IllegalMove::NotDroppable(kind));
                }
                if self.hand(us).count(kind) == 0 {
                    return Err(IllegalMove::NotInHand(kind));
                }
                if occ.has(to) {
                    return Err(IllegalMove::DropOnOccupied(to));
                }
                if dead_squares(self.variant, us, kind).has(to) {
                    return Err(IllegalMove::DeadDrop { kind, to });
                }
                if kind == PieceKind::Pawn {
                    let file_pawns = self.pieces(us, PieceKind::Pawn) & Bitboard::file(to.file());
                    if let Some(pawn) = file_pawns.first() {
                        return Err(IllegalMove::Nifu {
                            file: to.file(),
                            pawn,
                        });
                    }
                }
                self.check_king_safety(mv, false)?;
                if kind == PieceKind::Pawn {
                    let after = self.after(mv);
                    if after.in_check() && !after.has_legal_move() {
                        return Err(IllegalMove::PawnDropMate);
                    }
                }
                Ok(())
            }
        }
    }

    /// Plays the move on a copy and looks whether the mover's king is attacked.
    fn check_king_safety(&self, mv: Move, king_move: bool) -> Result<(), IllegalMove> {
        let us = self.side;
        let Some(_) = self.kings[us.index()] else {
            return Ok(());
        };
        let after = self.after(mv);
        let k = after.kings[us.index()].expect("kings stay on the board");
        if let Some(attacker) = after.attackers_to(k, !us, after.occupied()).first() {
            return Err(if king_move {
                IllegalMove::KingIntoCheck { to: k, attacker }
            } else {
                IllegalMove::LeavesKingInCheck {
                    attacker,
                    was_in_check: self.in_check(),
                }
            });
        }
        Ok(())
    }

    /// Whether `mv` is legal.
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Legal moves of the side to move that end on `to` (board moves and
    /// drops), for disambiguating input such as "G-5h" or "同歩".
    #[must_use]
    pub fn legal_moves_to(&self, to: Square) -> Vec<Move> {
        self.legal_moves()
            .into_iter()
            .filter(|m| m.to() == to)
            .collect()
    }

    /// Squares of the mover's pieces of `kind` that can legally move to `to`.
    #[must_use]
    pub fn candidates(&self, kind: PieceKind, to: Square) -> Vec<Square> {
        let mut out: Vec<Square> = self
            .legal_moves()
            .into_iter()
            .filter_map(|m| match m {
                Move::Normal { from, to: t, .. }
                    if t == to && self.piece_at(from).map(|p| p.kind) == Some(kind) =>
                {
                    Some(from)
                }
                _ => None,
            })
            .collect();
        out.dedup();
        out
    }

    /// Kinds the side to move can legally drop on `to`.
    #[must_use]
    pub fn drop_candidates(&self, to: Square) -> Vec<PieceKind> {
        PieceKind::HAND
            .into_iter()
            .filter(|&kind| self.is_legal(Move::Drop { kind, to }))
            .collect()
    }

    /// Whether the move gives check (the caller knows it is legal).
    #[must_use]
    pub fn gives_check(&self, mv: Move) -> bool {
        self.after(mv).in_check()
    }

    /// Whether the move captures a piece.
    #[must_use]
    pub fn is_capture(&self, mv: Move) -> bool {
        match mv {
            Move::Normal { to, .. } => self.piece_at(to).is_some(),
            Move::Drop { .. } => false,
        }
    }
}

/// The square of `set` nearest to `from` (all squares of `set` are on one ray from it).
fn closest(set: Bitboard, from: Square) -> Option<Square> {
    set.into_iter().min_by_key(|sq| {
        let df = i32::from(sq.file()) - i32::from(from.file());
        let dr = i32::from(sq.rank()) - i32::from(from.rank());
        df.abs().max(dr.abs())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::from_usi(s).unwrap()
    }

    #[test]
    fn start_has_30_moves() {
        assert_eq!(Position::startpos().legal_moves().len(), 30);
        assert_eq!(Position::minishogi_startpos().legal_moves().len(), 14);
    }

    #[test]
    fn reasons() {
        let p = Position::startpos();
        assert_eq!(
            p.check_move(mv("5e5d")),
            Err(IllegalMove::NoPiece(Square::SQ_5E))
        );
        assert_eq!(
            p.check_move(mv("3c3d")),
            Err(IllegalMove::NotYourPiece(Square::SQ_3C))
        );
        assert_eq!(
            p.check_move(mv("7g7e")),
            Err(IllegalMove::CannotMoveLikeThat {
                kind: PieceKind::Pawn,
                from: Square::SQ_7G,
                to: Square::SQ_7E
            })
        );
        assert_eq!(
            p.check_move(mv("8h2b")),
            Err(IllegalMove::PathBlocked {
                from: Square::SQ_8H,
                to: Square::SQ_2B,
                blocker: Square::SQ_7G
            })
        );
        assert_eq!(
            p.check_move(mv("8i7g")),
            Err(IllegalMove::OwnPieceOnTarget(Square::SQ_7G))
        );
        assert_eq!(
            p.check_move(mv("7g7f+")),
            Err(IllegalMove::NotInPromotionZone)
        );
        assert_eq!(
            p.check_move(mv("P*5e")),
            Err(IllegalMove::NotInHand(PieceKind::Pawn))
        );
        assert!(p.check_move(mv("7g7f")).is_ok());
    }
}
