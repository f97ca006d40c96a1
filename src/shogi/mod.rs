//! The rules core: pure and synchronous shogi and minishogi rules.
//!
//! No I/O, no clock, no randomness. Everything else in komadai asks this module
//! whether a move is legal, what the position looks like after it, and how a
//! game has ended.

mod bitboard;
mod game;
mod handicap;
mod movegen;
mod perft;
mod position;
mod sfen;
mod types;

pub use bitboard::{
    attacks, between, bishop_attacks, bishop_pseudo, king_attacks, lance_attacks, lance_ray, line,
    rook_attacks, rook_pseudo, step_attacks, Bitboard,
};
pub use game::{
    count_points, declaration_check, DeclarationMissing, DrawReason, EnteringKingRule, Game,
    GameError, Outcome, WinReason, MAX_PLIES,
};
pub use handicap::Handicap;
pub use movegen::{IllegalMove, MoveCounter, MoveList, MoveSink, MAX_MOVES};
pub use perft::{divide, perft};
pub use position::{
    board_mask, dead_squares, promotion_zone, Position, MINISHOGI_START_SFEN, STANDARD_START_SFEN,
};
pub use sfen::{piece_limit, SetupProblem, SfenError, SfenSyntaxError, MAX_SFEN_LEN};
pub use types::{Color, Hand, Move, Piece, PieceKind, Square, UsiMoveError, Variant};
