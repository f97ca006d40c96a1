//! The engine: evaluation, search, a short mate search, computer strengths,
//! hints with reasons, post-game analysis, a USI front end and a bounded pool
//! that keeps engine work off the bot's threads.
//!
//! Limits are always passed in ([`Limits`]): the engine never decides on its
//! own how long to think. Randomness (for the weaker levels) comes in as a
//! seed.

pub mod analysis;
pub mod eval;
pub mod hint;
pub mod level;
pub mod mate;
pub mod pool;
pub mod score;
pub mod search;
pub mod usi;

pub use analysis::{analyze, Analysis, AnalysisBudget, TurningPoint};
pub use hint::{hint, reason_text, Hint, HintReason};
pub use level::{choose_move, Level};
pub use mate::MateSearch;
pub use pool::{EnginePool, JobHandle, PoolBusy};
pub use score::Score;
pub use search::{Info, Limits, SearchResult, Searcher};

use crate::shogi::Position;

/// The best move of `pos` within `limits`, with a fresh 16 MB table and no
/// game history (use [`Searcher`] directly to keep both between moves).
#[must_use]
pub fn best_move(pos: &Position, limits: Limits) -> SearchResult {
    Searcher::new(16).search(pos, &[], limits, |_| {})
}
