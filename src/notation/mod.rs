//! Notation: text ⇄ moves and games, pure and total (bad text is an error,
//! never a panic).
//!
//! - [`format_move`] writes a move in its position as USI (`8h2b+`), Western
//!   (Hodges: `P-7f`, `Bx2b+`, `G6i-5h`, `S*4e`, `=` for a declined promotion),
//!   Western with numeric ranks (`P-76`) or Japanese (`▲７六歩`, `△同　歩`, the KI2
//!   disambiguators 右 左 直 上 引 寄, `成`/`不成`, `打`).
//! - [`parse_move`] reads what players type in any of these notations (and CSA
//!   `+7776FU`), with half- or full-width digits, kanji or Arabic ranks, any
//!   case, extra spaces and ▲△☗☖ marks, and resolves it to exactly one legal
//!   move or a [`MoveInputError`] that says what went wrong.
//! - [`GameRecord`] travels as KIF ([`kif`]; KI2 too), CSA ([`csa`]) and
//!   SFEN + USI moves ([`usi`]).

pub mod cli;
pub mod csa;
mod format;
mod ki2;
pub mod kif;
mod parse;
mod record;
pub mod usi;
mod width;

pub use format::{format_move, japanese_square};
pub use ki2::{Direction, Side};
pub use parse::{parse_move, ParseMoveError, MAX_MOVE_INPUT_CHARS};
pub use record::{
    decode, detect_format, read_record, write_record, GameRecord, RecordError, RecordFormat,
    Termination, MAX_RECORD_BYTES,
};

use crate::shogi::{IllegalMove, Move, PieceKind, Square};

/// How a player writes moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Style {
    /// USI: `7g7f`, `8h2b+`, `P*5e`.
    Usi,
    /// Western (Hodges) with letter ranks: `P-7f`, `Bx2b+`, `S*4e`, `G6i-5h`.
    #[default]
    Western,
    /// Western with numeric ranks: `P-76`, `Bx22+`, `S*45`, `G69-58`.
    WesternNumeric,
    /// Japanese (KI2): `▲７六歩`, `△同　歩`, `▲５八金右`, `▲２二角成`.
    Japanese,
}

impl Style {
    /// Every style.
    pub const ALL: [Style; 4] = [
        Style::Usi,
        Style::Western,
        Style::WesternNumeric,
        Style::Japanese,
    ];

    /// The style's name as the command line and settings write it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Style::Usi => "usi",
            Style::Western => "western",
            Style::WesternNumeric => "western-numeric",
            Style::Japanese => "japanese",
        }
    }

    /// The style with this name (any case; `numeric` and `kanji` are accepted too).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Style> {
        match name.trim().to_ascii_lowercase().as_str() {
            "usi" => Some(Style::Usi),
            "western" | "hodges" => Some(Style::Western),
            "western-numeric" | "numeric" => Some(Style::WesternNumeric),
            "japanese" | "kanji" | "ki2" => Some(Style::Japanese),
            _ => None,
        }
    }
}

/// What [`parse_move`] needs besides the position and the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct InputContext {
    /// The move that led to the position (`同` means "on its destination").
    pub previous: Option<Move>,
    /// The player's notation, used to write candidates in ambiguity errors.
    /// Without it, the notation of the input itself is used.
    pub style: Option<Style>,
}

impl InputContext {
    /// A context with a previous move and no style.
    #[must_use]
    pub fn after(previous: Option<Move>) -> InputContext {
        InputContext {
            previous,
            style: None,
        }
    }
}

/// Why a typed move was not accepted. Carries data; `i18n` writes the sentences.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveInputError {
    /// The text is not a move in any notation komadai reads.
    #[error("cannot read the move: {0}")]
    Unparseable(#[from] ParseMoveError),
    /// `同` (same square) was used, but there is no previous move.
    #[error("同 needs a previous move")]
    NoPreviousMove,
    /// The move is fully described but breaks a rule.
    #[error("illegal move: {0}")]
    Illegal(IllegalMove),
    /// No piece (of the given kind) can legally get to the square as written.
    #[error("no {} can move to {to}", kind.map_or("piece".to_string(), |k| format!("{k:?}")))]
    NoPieceCanReach {
        /// The piece named in the input, if any.
        kind: Option<PieceKind>,
        /// The destination.
        to: Square,
    },
    /// The input names a piece, but a different one stands on the origin square.
    #[error("the piece on {from} is a {actual:?}, not a {written:?}")]
    WrongPiece {
        /// The origin square given.
        from: Square,
        /// The kind written.
        written: PieceKind,
        /// The kind that is there (`None` if the square is empty).
        actual: Option<PieceKind>,
    },
    /// Legal moves of the named piece go to that square, but none as written
    /// (a KI2 word, `+`/`=` or `*`/打 that does not fit): these are they.
    #[error("not as written; possible: {}", written.join(", "))]
    NotAsWritten {
        /// The legal moves of that piece to that square, sorted.
        candidates: Vec<Move>,
        /// The same moves written in the player's notation.
        written: Vec<String>,
    },
    /// More than one legal move fits; promotion left open counts too.
    #[error("ambiguous: {}", written.join(", "))]
    Ambiguous {
        /// The legal moves that fit, sorted.
        candidates: Vec<Move>,
        /// The same moves written in the player's notation.
        written: Vec<String>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn style_names_round_trip() {
        for s in Style::ALL {
            assert_eq!(Style::from_name(s.name()), Some(s));
        }
        assert_eq!(Style::from_name(" Kanji "), Some(Style::Japanese));
        assert_eq!(Style::from_name("numeric"), Some(Style::WesternNumeric));
        assert_eq!(Style::from_name("chess"), None);
        assert_eq!(Style::default(), Style::Western);
    }
}
