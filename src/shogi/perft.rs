//! Perft: counting the leaves of the legal move tree, the standard test of a
//! move generator against published numbers.

use super::movegen::MoveList;
use super::position::Position;
use super::types::Move;

/// Leaf count of the legal move tree of `depth` plies. The last ply is counted
/// by the length of the legal move list (bulk counting), as YaneuraOu's and
/// haitaka's perft do.
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut moves = MoveList::new();
            pos.generate(&mut moves);
            moves.iter().map(|&m| perft(&pos.after(m), depth - 1)).sum()
        }
    }
}

/// Perft split by first move: `(move, leaves)` for every legal move, in
/// generation order.
#[must_use]
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| (m, perft(&pos.after(m), depth - 1)))
        .collect()
}
