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

/// Helpers for tests across the crate.
#[cfg(test)]
pub(crate) mod testing {
    use super::Position;

    /// Calls `f` on every position of `games` seeded random games from each
    /// start (9×9 and minishogi), at most `plies` moves each; returns how
    /// many positions it saw.
    pub(crate) fn random_positions(
        seed: u64,
        games: usize,
        plies: usize,
        mut f: impl FnMut(&Position),
    ) -> usize {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut seen = 0;
        for start in [Position::startpos(), Position::minishogi_startpos()] {
            for _ in 0..games {
                let mut p = start.clone();
                for _ in 0..plies {
                    f(&p);
                    seen += 1;
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    p.play_unchecked(moves[rng.usize(..moves.len())]);
                }
            }
        }
        seen
    }
}
