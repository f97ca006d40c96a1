//! Handicap (komaochi) start positions. The stronger player is Gote, removes
//! pieces before the game and moves first.

use super::position::{Position, STANDARD_START_SFEN};
use super::types::Square;

/// The nine JSA handicaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// Kyōochi: Gote's lance on 1a.
    Lance,
    /// Kakuochi: the bishop.
    Bishop,
    /// Hishaochi: the rook.
    Rook,
    /// Hikyōochi: rook and the 1a lance.
    RookLance,
    /// Nimaiochi: rook and bishop.
    TwoPieces,
    /// Yonmaiochi: two pieces plus both lances.
    FourPieces,
    /// Rokumaiochi: four pieces plus both knights.
    SixPieces,
    /// Hachimaiochi: six pieces plus both silvers.
    EightPieces,
    /// Jūmaiochi: eight pieces plus both golds.
    TenPieces,
}

impl Handicap {
    /// All handicaps, smallest first.
    pub const ALL: [Handicap; 9] = [
        Handicap::Lance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPieces,
        Handicap::FourPieces,
        Handicap::SixPieces,
        Handicap::EightPieces,
        Handicap::TenPieces,
    ];

    /// The squares of Gote's pieces removed from the standard start.
    #[must_use]
    pub fn removed_squares(self) -> &'static [Square] {
        use Square as S;
        match self {
            Handicap::Lance => &[S::SQ_1A],
            Handicap::Bishop => &[S::SQ_2B],
            Handicap::Rook => &[S::SQ_8B],
            Handicap::RookLance => &[S::SQ_8B, S::SQ_1A],
            Handicap::TwoPieces => &[S::SQ_8B, S::SQ_2B],
            Handicap::FourPieces => &[S::SQ_8B, S::SQ_2B, S::SQ_1A, S::SQ_9A],
            Handicap::SixPieces => &[S::SQ_8B, S::SQ_2B, S::SQ_1A, S::SQ_9A, S::SQ_2A, S::SQ_8A],
            Handicap::EightPieces => &[
                S::SQ_8B,
                S::SQ_2B,
                S::SQ_1A,
                S::SQ_9A,
                S::SQ_2A,
                S::SQ_8A,
                S::SQ_3A,
                S::SQ_7A,
            ],
            Handicap::TenPieces => &[
                S::SQ_8B,
                S::SQ_2B,
                S::SQ_1A,
                S::SQ_9A,
                S::SQ_2A,
                S::SQ_8A,
                S::SQ_3A,
                S::SQ_7A,
                S::SQ_4A,
                S::SQ_6A,
            ],
        }
    }

    /// The start position: the standard start without the removed pieces, Gote to move.
    #[must_use]
    pub fn start_position(self) -> Position {
        let mut text = STANDARD_START_SFEN.replace(" b ", " w ");
        // Build the board from the start position minus the removed squares.
        let start = Position::from_sfen(&text).expect("valid");
        let mut pos = Position::empty(start.variant());
        for sq in Square::all() {
            if let Some(p) = start.piece_at(sq) {
                if !self.removed_squares().contains(&sq) {
                    pos.put(sq, p);
                }
            }
        }
        pos.side = super::Color::Gote;
        pos.refresh();
        text = pos.to_sfen();
        Position::from_sfen(&text).expect("every handicap setup is legal")
    }

    /// The SFEN of the start position.
    #[must_use]
    pub fn start_sfen(self) -> String {
        self.start_position().to_sfen()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_pieces_matches_spec() {
        assert_eq!(
            Handicap::TwoPieces.start_sfen(),
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
    }
}
