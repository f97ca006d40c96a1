//! The engine: evaluation, search, a short mate search, computer strengths,
//! hints with reasons, post-game analysis, a USI front end and a bounded pool
//! that keeps engine work off the bot's threads.
//!
//! Limits are always passed in ([`Limits`]): the engine never decides on its
//! own how long to think. Randomness (for the weaker levels) comes in as a
//! seed.
//!
//! For the app layer:
//! - `/play`: [`computer_move`] with a [`Level`] (Strong thinks
//!   [`Level::STRONG_TIME`] after a mate search; the others answer at once);
//! - `/hint`: [`hint()`] → [`Hint`] with a [`HintReason`] and [`reason_text`];
//! - `/analyze`: [`analyze()`] → [`Analysis`] (evaluation per ply for the
//!   graph, turning points with the better move);
//! - run all of these on an [`EnginePool`] (`try_submit` answers
//!   [`PoolBusy`] when the queue is full);
//! - `komadai usi`: [`usi::run_stdio`].

pub mod analysis;
pub mod comment;
pub mod danger;
pub mod eval;
pub mod hint;
pub mod level;
pub mod mate;
pub mod nn;
pub mod pool;
mod prefetch;
pub mod score;
pub mod search;
pub mod selfplay;
pub mod tune;
pub mod usi;
mod weights;

pub use analysis::{analyze, Analysis, AnalysisBudget, TurningPoint};
pub use hint::{hint, reason_text, Hint, HintReason};
pub use level::{choose_move, Level};
pub use mate::MateSearch;
pub use pool::{EnginePool, JobHandle, PoolBusy, PoolLoad, StopFlag};
pub use score::Score;
pub use search::{Info, Limits, SearchResult, Searcher};

use std::time::Instant;

use crate::shogi::{Game, Position};

/// The keys (and in-check flags) of the positions before the current one of
/// `game`, oldest first: the `history` argument of the searches, so that
/// they know about repetitions.
#[must_use]
pub fn game_history(game: &Game) -> Vec<(u64, bool)> {
    let mut pos = game.start().clone();
    let mut out = Vec::with_capacity(game.ply());
    for &mv in game.moves() {
        out.push((pos.key(), pos.in_check()));
        pos.play_unchecked(mv);
    }
    out
}

/// The computer's move at `level` in `game`, thinking from `start` (the
/// caller's clock reading) with `seed` for the weaker levels' choices.
/// `best` is `None` only when the side to move has no legal move.
#[must_use]
pub fn computer_move(game: &Game, level: Level, start: Instant, seed: u64) -> SearchResult {
    computer_move_until(game, level, start, seed, None)
}

/// [`computer_move`] that also stops when `stop` is set (the caller gave up
/// waiting, or the bot shuts down); the best move found so far is returned.
#[must_use]
pub fn computer_move_until(
    game: &Game,
    level: Level,
    start: Instant,
    seed: u64,
    stop: Option<StopFlag>,
) -> SearchResult {
    let mut limits = level.limits(start);
    if let Some(stop) = stop {
        limits = limits.with_stop(stop);
    }
    let mut rng = fastrand::Rng::with_seed(seed);
    let history = game_history(game);
    choose_move(
        &mut Searcher::new(16),
        game.position(),
        &history,
        level,
        limits,
        &mut rng,
    )
}

/// The best move of `pos` within `limits`, with a fresh 16 MB table and no
/// game history (use [`Searcher`] directly to keep both between moves).
#[must_use]
pub fn best_move(pos: &Position, limits: Limits) -> SearchResult {
    Searcher::new(16).search(pos, &[], limits, |_| {})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::{EnteringKingRule, Move};

    #[test]
    fn history_lists_positions_before_the_current_one() {
        let moves: Vec<Move> = ["7g7f", "3c3d"]
            .iter()
            .map(|m| Move::from_usi(m).unwrap())
            .collect();
        let g = Game::replay(
            Position::startpos(),
            EnteringKingRule::Declaration27,
            &moves,
        )
        .unwrap();
        let h = game_history(&g);
        assert_eq!(h.len(), 2);
        assert_eq!(h[0].0, Position::startpos().key());
    }

    #[test]
    fn computer_answers_with_a_legal_move_at_every_weak_level() {
        let g = Game::new(Position::startpos(), EnteringKingRule::Declaration27);
        for level in [Level::Beginner, Level::Easy, Level::Medium] {
            let r = computer_move(&g, level, Instant::now(), 42);
            assert!(g.position().is_legal(r.best.unwrap()));
        }
    }
}
