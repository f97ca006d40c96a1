//! Post-game analysis: an evaluation for every ply and the turning points
//! (moves after which the evaluation swung beyond a threshold), each with the
//! move the engine prefers.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::shogi::{Color, Game, Move};

use super::score::Score;
use super::search::{Limits, Searcher};

/// How much work the analysis may do. The total is split evenly over the plies.
#[derive(Clone, Debug)]
pub struct AnalysisBudget {
    /// Nodes for each position (the main bound, deterministic).
    pub nodes_per_ply: u64,
    /// Optional wall-clock bound for the whole analysis, from the caller's clock.
    pub deadline: Option<Instant>,
    /// Optional stop flag.
    pub stop: Option<Arc<AtomicBool>>,
    /// A swing (in centipawns, for the side that moved, on a scale clamped to
    /// ±2000) that makes a move a turning point.
    pub threshold: i32,
}

impl Default for AnalysisBudget {
    /// 40 000 nodes per ply (about 12–25 s for 150 plies on one busy core of
    /// the bot's machine), threshold 250.
    fn default() -> Self {
        AnalysisBudget {
            nodes_per_ply: 40_000,
            deadline: None,
            stop: None,
            threshold: 250,
        }
    }
}

/// A move after which the evaluation swung against the side that played it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurningPoint {
    /// Index of the move in the game (0 = the first move).
    pub index: usize,
    /// Who played it.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// The move the engine prefers there.
    pub better: Move,
    /// Evaluation (Sente's view) before the move.
    pub before: Score,
    /// Evaluation (Sente's view) after the move.
    pub after: Score,
    /// How much the mover lost, in clamped centipawns.
    pub loss: i32,
}

/// The analysis of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Evaluation from Sente's point of view of the start position and of the
    /// position after every move (`moves + 1` entries): the graph.
    pub evals: Vec<Score>,
    /// The engine's preferred move in each position (`None` where there is
    /// no legal move).
    pub best: Vec<Option<Move>>,
    /// The turning points, in game order.
    pub turning_points: Vec<TurningPoint>,
    /// Nodes searched in total.
    pub nodes: u64,
}

impl Analysis {
    /// The graph values: centipawns from Sente's view, mates as ±(10 000 − n).
    #[must_use]
    pub fn graph(&self) -> Vec<i32> {
        self.evals.iter().map(|s| s.as_cp()).collect()
    }
}

fn clamp_cp(s: Score) -> i32 {
    s.as_cp().clamp(-2000, 2000)
}

fn sente_view(s: Score, side: Color) -> Score {
    match side {
        Color::Sente => s,
        Color::Gote => s.flip(),
    }
}

/// Analyses `game` within `budget`.
#[must_use]
pub fn analyze(game: &Game, budget: &AnalysisBudget) -> Analysis {
    let mut searcher = Searcher::new(32);
    let mut pos = game.start().clone();
    let moves = game.moves();
    let mut history: Vec<(u64, bool)> = Vec::with_capacity(moves.len() + 1);
    let mut evals = Vec::with_capacity(moves.len() + 1);
    let mut best = Vec::with_capacity(moves.len() + 1);
    let mut nodes = 0;
    for i in 0..=moves.len() {
        let mut limits = Limits::nodes(budget.nodes_per_ply);
        limits.stop = budget.stop.clone();
        limits.mate_first = Some(5);
        if let Some(d) = budget.deadline {
            // Share the time left evenly over the positions left.
            let left = d.saturating_duration_since(Instant::now());
            let share = left / (moves.len() + 1 - i) as u32;
            let share = share.max(Duration::from_millis(1));
            limits.deadline = Some(Instant::now() + share);
        }
        let r = searcher.search(&pos, &history, limits, |_| {});
        nodes += r.nodes;
        evals.push(sente_view(r.score, pos.side_to_move()));
        best.push(r.best);
        if let Some(&mv) = moves.get(i) {
            history.push((pos.key(), pos.in_check()));
            pos.play_unchecked(mv);
        }
    }

    let mut turning_points = Vec::new();
    let mut replay = game.start().clone();
    for (i, &mv) in moves.iter().enumerate() {
        let mover = replay.side_to_move();
        let sign = if mover == Color::Sente { 1 } else { -1 };
        let before = sign * clamp_cp(evals[i]);
        let after = sign * clamp_cp(evals[i + 1]);
        let loss = before - after;
        if loss >= budget.threshold {
            if let Some(better) = best[i].filter(|&b| b != mv) {
                turning_points.push(TurningPoint {
                    index: i,
                    mover,
                    played: mv,
                    better,
                    before: evals[i],
                    after: evals[i + 1],
                    loss,
                });
            }
        }
        replay.play_unchecked(mv);
    }
    Analysis {
        evals,
        best,
        turning_points,
        nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::{EnteringKingRule, Position};

    #[test]
    fn blunder_is_a_turning_point() {
        // Sente's 8h3c+ gives the bishop for a pawn (the knight or the bishop
        // takes back): the third move is the turning point. The fifth, 2g2f,
        // is one too: with the 7th file and 8h open, Gote's bishop now takes
        // the lance on 9i and promotes (guarding it, e.g. 2h9h, was better).
        let moves: Vec<Move> = ["7g7f", "3c3d", "8h3c+", "2b3c", "2g2f"]
            .iter()
            .map(|m| Move::from_usi(m).unwrap())
            .collect();
        let g = Game::replay(
            Position::startpos(),
            EnteringKingRule::Declaration27,
            &moves,
        )
        .unwrap();
        // 2g2f costs about 250–350 centipawns, depending on the table and
        // the budget: the default threshold (250) sits inside that range.
        let budget = AnalysisBudget {
            nodes_per_ply: 20_000,
            threshold: 200,
            ..AnalysisBudget::default()
        };
        let a = analyze(&g, &budget);
        assert_eq!(a.evals.len(), 6);
        assert_eq!(a.best.len(), 6);
        assert!(a.graph().iter().all(|v| v.abs() < 10_000));
        let tp: Vec<usize> = a.turning_points.iter().map(|t| t.index).collect();
        assert_eq!(tp, vec![2, 4], "{a:?}");
        assert!(a.turning_points.iter().all(|t| t.mover == Color::Sente));
        assert!(a.turning_points[0].loss > 1000, "{a:?}");
        assert_eq!(a.best[5], Some(Move::from_usi("3c9i+").unwrap()), "{a:?}");
    }

    #[test]
    fn long_game_stays_within_the_node_budget() {
        // A seeded 150-ply game of random legal moves (stopping early if it ends).
        let mut rng = fastrand::Rng::with_seed(3);
        let mut g = Game::new(Position::startpos(), EnteringKingRule::Declaration27);
        while g.ply() < 150 && g.outcome().is_none() {
            let moves = g.position().legal_moves();
            let mv = moves[rng.usize(0..moves.len())];
            g.play(mv).unwrap();
        }
        let budget = AnalysisBudget {
            nodes_per_ply: 2_000,
            ..AnalysisBudget::default()
        };
        let a = analyze(&g, &budget);
        assert_eq!(a.evals.len(), g.ply() + 1);
        // Each search may overshoot its limit by at most one node batch.
        assert!(a.nodes <= (g.ply() as u64 + 1) * 2_100, "{} nodes", a.nodes);
    }
}
