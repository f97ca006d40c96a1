//! Iterative-deepening principal-variation search with a transposition table,
//! quiescence search, check extensions, late-move reductions, futility pruning
//! and a mate-first step.
//!
//! The searcher never reads a clock on its own: the caller passes a deadline or
//! a budget in [`Limits`] and may stop it through an `Arc<AtomicBool>`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::shogi::{dead_squares, Color, Move, PieceKind, Position};

use super::eval::{evaluate, exchange_value, BOARD_VALUE};
use super::mate::{may_give_check, MateSearch};
use super::score::{Score, INF, MATE, MATE_BOUND};

/// The deepest ply the search goes (including quiescence).
pub const MAX_PLY: usize = 96;

/// What bounds a search. Every field is optional; without any bound the search
/// runs until the stop flag is set (or depth [`MAX_PLY`]).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum nominal depth in plies.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Hard deadline: the search returns its best move so far at this instant.
    pub deadline: Option<Instant>,
    /// Soft deadline: no new iteration starts after it.
    pub soft_deadline: Option<Instant>,
    /// Set from another thread to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
    /// Run a short mate search before the main search (up to this many plies, odd).
    pub mate_first: Option<u32>,
}

impl Limits {
    /// A fixed depth.
    #[must_use]
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// A fixed node budget.
    #[must_use]
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// A time budget of `budget` counted from `start` (the caller's clock
    /// reading); the soft deadline is at 60 % of it.
    #[must_use]
    pub fn time(start: Instant, budget: Duration) -> Limits {
        Limits {
            deadline: Some(start + budget),
            soft_deadline: Some(start + budget.mul_f64(0.6)),
            ..Limits::default()
        }
    }

    /// The same limits with a stop flag.
    #[must_use]
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Limits {
        self.stop = Some(stop);
        self
    }

    /// The same limits with a mate-first step of up to `plies` plies.
    #[must_use]
    pub fn with_mate_first(mut self, plies: u32) -> Limits {
        self.mate_first = Some(plies);
        self
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move, `None` when the side to move has no legal move.
    pub best: Option<Move>,
    /// Its score from the side to move's point of view.
    pub score: Score,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched (main search, quiescence and mate search).
    pub nodes: u64,
}

/// One line of progress, reported after each iteration (USI `info`).
#[derive(Clone, Debug)]
pub struct Info {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score from the side to move's point of view.
    pub score: Score,
    /// Nodes so far.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

#[derive(Clone, Copy, Default)]
struct TtEntry {
    key: u64,
    mv: Option<Move>,
    score: i32,
    depth: i16,
    bound: u8,
}

const BOUND_EXACT: u8 = 3;
const BOUND_LOWER: u8 = 1;
const BOUND_UPPER: u8 = 2;

struct Tt {
    entries: Vec<TtEntry>,
}

impl Tt {
    fn new(mb: usize) -> Tt {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<TtEntry>()).next_power_of_two() / 2;
        Tt {
            entries: vec![TtEntry::default(); n.max(1024)],
        }
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<TtEntry> {
        let e = self.entries[self.index(key)];
        (e.key == key && e.bound != 0).then_some(e)
    }

    #[inline]
    fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: u8) {
        let i = self.index(key);
        let e = &mut self.entries[i];
        if e.key != key || depth >= i32::from(e.depth) - 2 || bound == BOUND_EXACT {
            let mv = mv.or(if e.key == key { e.mv } else { None });
            *e = TtEntry {
                key,
                mv,
                score,
                depth: depth as i16,
                bound,
            };
        }
    }

    fn clear(&mut self) {
        self.entries.fill(TtEntry::default());
    }
}

#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[derive(Clone, Copy)]
struct PathEntry {
    key: u64,
    in_check: bool,
}

/// The same position with the other side to move, for null-move pruning
/// (`None` in check).
#[inline]
pub(crate) fn pass(pos: &Position) -> Option<Position> {
    pos.null_move()
}

/// History index of a move: origin square, or 81 + the dropped kind.
#[inline]
fn hist_index(side: Color, mv: Move) -> usize {
    let from = match mv {
        Move::Normal { from, .. } => from.index(),
        Move::Drop { kind, .. } => 81 + kind.index(),
    };
    (side.index() * 88 + from) * 81 + mv.to().index()
}

/// A reusable searcher: its transposition table and move-ordering tables
/// survive between searches of the same game.
pub struct Searcher {
    tt: Tt,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    history: Vec<i32>,
    path: Vec<PathEntry>,
    pv: Vec<Vec<Move>>,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    limits: Limits,
    node_limit: u64,
    null_ok: bool,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(16)
    }
}

impl std::fmt::Debug for Searcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("tt_entries", &self.tt.entries.len())
            .finish_non_exhaustive()
    }
}

impl Searcher {
    /// A searcher with a transposition table of about `hash_mb` megabytes.
    #[must_use]
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: Tt::new(hash_mb),
            killers: [[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 88 * 81],
            path: Vec::with_capacity(512),
            pv: vec![Vec::new(); MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            aborted: false,
            limits: Limits::default(),
            node_limit: u64::MAX,
            null_ok: true,
        }
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.fill(0);
        self.killers = [[None; 2]; MAX_PLY + 1];
    }

    /// Searches `pos` within `limits`. `history` lists the keys of the
    /// positions before `pos` in the game (oldest first) with whether the side
    /// to move was in check, for the repetition rules; pass `&[]` if unknown.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[(u64, bool)],
        limits: Limits,
        mut on_info: impl FnMut(&Info),
    ) -> SearchResult {
        self.limits = limits;
        self.node_limit = self.limits.nodes.unwrap_or(u64::MAX);
        self.nodes = 0;
        self.aborted = false;
        self.seldepth = 0;
        self.path.clear();
        self.path.extend(
            history
                .iter()
                .map(|&(key, in_check)| PathEntry { key, in_check }),
        );
        for h in &mut self.history {
            *h /= 8;
        }

        let moves = pos.legal_moves();
        if moves.is_empty() {
            return SearchResult {
                best: None,
                score: Score::Mate(0),
                pv: Vec::new(),
                depth: 0,
                nodes: 0,
            };
        }

        // Mate first: a short search over checks only.
        if let Some(plies) = self.limits.mate_first {
            let budget = self.node_limit.min(200_000) / 4;
            let mut ms = MateSearch::new(
                budget.max(1000),
                self.limits.stop.clone(),
                self.limits.deadline,
            );
            let found = ms.find(pos, plies);
            self.nodes += ms.nodes();
            if let Some(line) = found {
                let n = line.len().div_ceil(2) as i32;
                let score = Score::Mate(n);
                on_info(&Info {
                    depth: line.len() as u32,
                    seldepth: line.len() as u32,
                    score,
                    nodes: self.nodes,
                    pv: line.clone(),
                });
                return SearchResult {
                    best: line.first().copied(),
                    score,
                    pv: line,
                    depth: 1,
                    nodes: self.nodes,
                };
            }
        }

        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .clamp(1, MAX_PLY as u32 - 4);
        let mut best = SearchResult {
            best: Some(moves[0]),
            score: Score::Cp(0),
            pv: vec![moves[0]],
            depth: 0,
            nodes: 0,
        };
        let mut prev_score: i32 = 0;
        for depth in 1..=max_depth {
            // Aspiration window around the previous score from depth 4 on.
            let mut delta = 60;
            let (mut alpha, mut beta) = if depth >= 4 && prev_score.abs() < MATE_BOUND {
                (prev_score - delta, prev_score + delta)
            } else {
                (-INF, INF)
            };
            let score = loop {
                let s = self.negamax(pos, depth as i32, alpha, beta, 0, true);
                if self.aborted {
                    break s;
                }
                if s <= alpha {
                    alpha = (alpha - delta).max(-INF);
                    delta *= 3;
                } else if s >= beta {
                    beta = (beta + delta).min(INF);
                    delta *= 3;
                } else {
                    break s;
                }
                if delta > 2000 {
                    alpha = -INF;
                    beta = INF;
                }
            };
            if self.aborted {
                // A partial iteration still improves on the last one if its
                // first move (searched first, the old best) was completed.
                if let Some(&m) = self.pv[0].first() {
                    if depth > 1 && Some(m) != best.best && score > prev_score && score > -INF {
                        best.best = Some(m);
                        best.pv = self.pv[0].clone();
                    }
                }
                break;
            }
            prev_score = score;
            let pv = self.pv[0].clone();
            best = SearchResult {
                best: pv.first().copied().or(best.best),
                score: Score::from_internal(score),
                pv,
                depth,
                nodes: self.nodes,
            };
            on_info(&Info {
                depth,
                seldepth: self.seldepth as u32,
                score: best.score,
                nodes: self.nodes,
                pv: best.pv.clone(),
            });
            if score.abs() > MATE_BOUND && depth as i32 > (MATE - score.abs()) + 2 {
                break;
            }
            if self.soft_time_up() {
                break;
            }
        }
        best.nodes = self.nodes;
        best
    }

    /// Scores every legal move at `pos` with a search of `depth - 1` plies
    /// after it (full window), for the weaker levels and for analysis.
    pub fn score_root_moves(
        &mut self,
        pos: &Position,
        depth: u32,
        limits: Limits,
    ) -> Vec<(Move, i32)> {
        self.limits = limits;
        self.node_limit = self.limits.nodes.unwrap_or(u64::MAX);
        self.nodes = 0;
        self.aborted = false;
        self.path.clear();
        let mut out = Vec::new();
        for mv in pos.legal_moves() {
            let next = pos.after(mv);
            self.path.push(PathEntry {
                key: pos.key(),
                in_check: pos.in_check(),
            });
            let s = -self.negamax(&next, depth.saturating_sub(1) as i32, -INF, INF, 1, true);
            self.path.pop();
            if self.aborted {
                break;
            }
            out.push((mv, s));
        }
        out
    }

    /// Nodes searched by the last search.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn soft_time_up(&self) -> bool {
        if let Some(d) = self.limits.soft_deadline {
            if Instant::now() >= d {
                return true;
            }
        }
        false
    }

    #[inline]
    fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes & 1023 == 0 {
            if let Some(stop) = &self.limits.stop {
                if stop.load(Ordering::Relaxed) {
                    self.aborted = true;
                }
            }
            if let Some(d) = self.limits.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// Repetition verdict for `key` (the current position): `Some(score)` if it
    /// occurred before with the same side to move.
    fn repetition(&self, key: u64, in_check: bool) -> Option<i32> {
        let n = self.path.len();
        let mut i = n;
        // Cycles longer than this are too rare to pay for at every node.
        let oldest = n.saturating_sub(48);
        // path[n-1] is the parent (other side to move); same side at n-2, n-4...
        while i >= oldest + 2 {
            i -= 2;
            if self.path[i].key == key {
                // Positions strictly after i up to now: ours at i+2.., theirs at i+1..
                let mut we_are_checked = in_check;
                let mut j = i + 2;
                while j < n {
                    we_are_checked &= self.path[j].in_check;
                    j += 2;
                }
                let mut they_are_checked = true;
                let mut j = i + 1;
                while j < n {
                    they_are_checked &= self.path[j].in_check;
                    j += 2;
                }
                // Perpetual check loses for the checking side.
                return Some(if we_are_checked {
                    MATE_BOUND - 1
                } else if they_are_checked {
                    -(MATE_BOUND - 1)
                } else {
                    0
                });
            }
        }
        None
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        self.nodes += 1;
        if self.check_abort() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let key = pos.key();
        let in_check = pos.in_check();

        if ply > 0 {
            if let Some(s) = self.repetition(key, in_check) {
                return s;
            }
            // Mate-distance pruning.
            let a = alpha.max(-MATE + ply as i32);
            let b = beta.min(MATE - ply as i32 - 1);
            if a >= b {
                return a;
            }
        }
        if ply >= MAX_PLY - 2 {
            return evaluate(pos);
        }

        let tt = self.tt.probe(key);
        let tt_move = tt.and_then(|e| e.mv);
        if let Some(e) = tt {
            if !pv_node && i32::from(e.depth) >= depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    BOUND_EXACT => true,
                    BOUND_LOWER => s >= beta,
                    BOUND_UPPER => s <= alpha,
                    _ => false,
                };
                if cut {
                    return s;
                }
            }
        }

        let static_eval = if in_check { -INF } else { evaluate(pos) };

        // Reverse futility: far above beta at shallow depth.
        if !pv_node
            && !in_check
            && depth <= 3
            && static_eval - 120 * depth >= beta
            && beta.abs() < MATE_BOUND
        {
            return static_eval;
        }

        // Null move: if passing still fails high, the position is good enough.
        // Zugzwang is rare in shogi (drops), so only guard the endgame-free cases.
        if !pv_node
            && !in_check
            && depth >= 3
            && static_eval >= beta
            && beta.abs() < MATE_BOUND
            && self.null_ok
        {
            if let Some(passed) = pass(pos) {
                let r = 3 + depth / 5;
                self.path.push(PathEntry { key, in_check });
                self.null_ok = false;
                let s = -self.negamax(&passed, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.null_ok = true;
                self.path.pop();
                if self.aborted {
                    return 0;
                }
                if s >= beta {
                    return if s > MATE_BOUND { beta } else { s };
                }
            }
        }

        let moves = pos.legal_moves();
        if moves.is_empty() {
            // Checkmate or no move at all: both lose in shogi.
            return -MATE + ply as i32;
        }

        let mut scored: Vec<(Move, i32)> = moves
            .iter()
            .map(|&m| (m, self.order_score(pos, m, tt_move, ply)))
            .collect();

        let us = pos.side_to_move();
        let their_king = pos.king_square(!us);
        let futile = !pv_node && !in_check && depth <= 2 && static_eval + 150 * depth <= alpha;
        let mut best_score = -INF;
        let mut best_move = None;
        let orig_alpha = alpha;
        let mut searched = 0usize;
        let mut quiets_tried: Vec<Move> = Vec::new();

        for i in 0..scored.len() {
            // Pick the first few moves by selection (a cut often comes early),
            // then sort the rest once.
            if i < 3 {
                let mut bi = i;
                for j in i + 1..scored.len() {
                    if scored[j].1 > scored[bi].1 {
                        bi = j;
                    }
                }
                scored.swap(i, bi);
            } else if i == 3 {
                scored[3..].sort_unstable_by_key(|&(_, o)| std::cmp::Reverse(o));
            }
            let (mv, ord) = scored[i];
            let capture = pos.is_capture(mv);
            let quiet = !capture && !mv.is_promotion();

            // Late quiet moves at shallow depth: skip the hopeless ones, but
            // never a move that might give check (drops make shogi tactical).
            let maybe_check = their_king.is_some_and(|k| may_give_check(pos, mv, k));
            if !pv_node
                && !in_check
                && quiet
                && !maybe_check
                && depth <= 2
                && searched >= 6 + 6 * depth as usize
                && best_score > -MATE_BOUND
                && ord < 80_000
            {
                continue;
            }
            if futile && quiet && !maybe_check && searched > 0 {
                continue;
            }

            let next = pos.after(mv);
            let gives_check = maybe_check && next.in_check();
            let ext = i32::from(gives_check && ply < 40);
            let new_depth = depth - 1 + ext;

            self.path.push(PathEntry { key, in_check });
            let mut score;
            if searched == 0 {
                score = -self.negamax(&next, new_depth, -beta, -alpha, ply + 1, pv_node);
            } else {
                // Late-move reduction for quiet moves.
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && !gives_check && searched >= 3 {
                    r = 1 + i32::from(searched >= 8) + i32::from(depth >= 6 && searched >= 16);
                    // Most drops far from the action are idle.
                    if mv.is_drop() && searched >= 12 {
                        r += 1;
                    }
                    if pv_node {
                        r -= 1;
                    }
                    if ord >= 80_000 {
                        r = r.saturating_sub(1).max(0);
                    }
                    r = r.min(new_depth - 1).max(0);
                }
                score = -self.negamax(&next, new_depth - r, -alpha - 1, -alpha, ply + 1, false);
                if score > alpha && r > 0 {
                    score = -self.negamax(&next, new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.negamax(&next, new_depth, -beta, -alpha, ply + 1, true);
                }
            }
            self.path.pop();
            if self.aborted {
                return 0;
            }
            searched += 1;

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node || ply == 0 {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(mv);
                        line.extend_from_slice(&tail[0]);
                    }
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(mv) {
                                k[1] = k[0];
                                k[0] = Some(mv);
                            }
                            let bonus = depth * depth;
                            let h = &mut self.history[hist_index(us, mv)];
                            *h = (*h + bonus * 32).min(60_000);
                            for &q in &quiets_tried {
                                let h = &mut self.history[hist_index(us, q)];
                                *h = (*h - bonus * 8).max(-60_000);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(mv);
            }
        }

        if searched == 0 {
            // Everything was pruned: fall back on the static evaluation.
            return static_eval.max(alpha);
        }
        let bound = if best_score >= beta {
            BOUND_LOWER
        } else if best_score > orig_alpha {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        };
        self.tt
            .store(key, best_move, to_tt(best_score, ply), depth, bound);
        best_score
    }

    fn order_score(&self, pos: &Position, mv: Move, tt_move: Option<Move>, ply: usize) -> i32 {
        if Some(mv) == tt_move {
            return 1_000_000;
        }
        match mv {
            Move::Normal { from, to, promote } => {
                let mut s = 0;
                if let Some(victim) = pos.piece_at(to) {
                    let attacker = pos.piece_at(from).map_or(0, |p| exchange_value(p.kind));
                    s = 200_000 + BOARD_VALUE[victim.kind.index()] * 16 - attacker / 16;
                }
                if promote {
                    let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
                    s += 100_000 + BOARD_VALUE[kind.index()];
                }
                if s > 0 {
                    return s;
                }
                if self.killers[ply][0] == Some(mv) {
                    return 90_000;
                }
                if self.killers[ply][1] == Some(mv) {
                    return 89_000;
                }
                self.history[hist_index(pos.side_to_move(), mv)]
            }
            Move::Drop { .. } => {
                if self.killers[ply][0] == Some(mv) {
                    return 90_000;
                }
                if self.killers[ply][1] == Some(mv) {
                    return 89_000;
                }
                self.history[hist_index(pos.side_to_move(), mv)] - 50
            }
        }
    }

    fn qsearch(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
    ) -> i32 {
        self.nodes += 1;
        if self.check_abort() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 2 {
            return evaluate(pos);
        }
        if in_check {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            if qdepth >= 6 {
                return evaluate(pos);
            }
            let key = pos.key();
            let mut best = -INF;
            let mut ordered: Vec<(Move, i32)> = moves
                .iter()
                .map(|&m| (m, self.order_score(pos, m, None, ply)))
                .collect();
            ordered.sort_unstable_by_key(|&(_, s)| -s);
            for (mv, _) in ordered {
                let next = pos.after(mv);
                self.path.push(PathEntry { key, in_check });
                let s = -self.qsearch(&next, -beta, -alpha, ply + 1, qdepth + 1);
                self.path.pop();
                if self.aborted {
                    return 0;
                }
                if s > best {
                    best = s;
                    if s > alpha {
                        alpha = s;
                        if s >= beta {
                            break;
                        }
                    }
                }
            }
            return best;
        }

        let stand = evaluate(pos);
        if stand >= beta {
            return stand;
        }
        if stand > alpha {
            alpha = stand;
        }
        let mut caps = capture_moves(pos);
        caps.sort_unstable_by_key(|c| -c.order);
        let us = pos.side_to_move();
        let them = !us;
        let occ = pos.occupied();
        let mut best = stand;
        for c in caps {
            // Delta pruning.
            if stand + c.gain + 200 < alpha {
                continue;
            }
            // Skip captures by a more valuable piece onto a defended square.
            if c.attacker_value > c.victim_value
                && pos.is_attacked(
                    c.mv.to(),
                    them,
                    occ.without(c.mv.from().unwrap_or(c.mv.to())),
                )
            {
                continue;
            }
            let next = pos.after(c.mv);
            // Legality: our king must not be attacked afterwards.
            if let Some(k) = next.king_square(us) {
                if next.is_attacked(k, them, next.occupied()) {
                    continue;
                }
            }
            let s = -self.qsearch(&next, -beta, -alpha, ply + 1, qdepth + 1);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// A pseudo-legal capture with what it gains.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Capture {
    pub(crate) mv: Move,
    pub(crate) victim_value: i32,
    pub(crate) attacker_value: i32,
    pub(crate) gain: i32,
    order: i32,
}

/// Pseudo-legal captures (and promoting captures) of the side to move; the
/// caller checks that the own king is safe afterwards.
pub(crate) fn capture_moves(pos: &Position) -> Vec<Capture> {
    let us = pos.side_to_move();
    let them = !us;
    let occ = pos.occupied();
    let mask = pos.board_mask();
    let targets = pos.pieces_of(them);
    let zone = pos.promotion_zone(us);
    let v = pos.variant();
    let mut out = Vec::new();
    for kind in PieceKind::ALL {
        for from in pos.pieces(us, kind) {
            let att = crate::shogi::attacks(us, kind, from, occ) & targets & mask;
            for to in att {
                let victim = pos.piece_at(to).map_or(PieceKind::Pawn, |p| p.kind);
                if victim == PieceKind::King {
                    continue;
                }
                let vv = BOARD_VALUE[victim.index()];
                let hand_gain = super::eval::HAND_VALUE[victim.unpromote().index()];
                let av = exchange_value(kind);
                let can_promote = kind.can_promote() && (zone.has(from) || zone.has(to));
                let forced = dead_squares(v, us, kind).has(to);
                if can_promote {
                    let pk = kind.promote().unwrap_or(kind);
                    let pgain = BOARD_VALUE[pk.index()] - BOARD_VALUE[kind.index()];
                    out.push(Capture {
                        mv: Move::Normal {
                            from,
                            to,
                            promote: true,
                        },
                        victim_value: vv,
                        attacker_value: av,
                        gain: vv + hand_gain + pgain,
                        order: vv * 16 - av / 16 + pgain,
                    });
                }
                let keep_unpromoted = !can_promote
                    || (!forced
                        && matches!(
                            kind,
                            PieceKind::Silver | PieceKind::Knight | PieceKind::Lance
                        ));
                if keep_unpromoted {
                    out.push(Capture {
                        mv: Move::Normal {
                            from,
                            to,
                            promote: false,
                        },
                        victim_value: vv,
                        attacker_value: av,
                        gain: vv + hand_gain,
                        order: vv * 16 - av / 16,
                    });
                }
            }
        }
    }
    out
}

/// Whether the move was generated by the capture generator as legal.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_are_a_subset_of_legal_moves() {
        let p = Position::from_sfen(
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        )
        .unwrap();
        let legal = p.legal_moves();
        for c in capture_moves(&p) {
            let next = p.after(c.mv);
            let k = next.king_square(p.side_to_move()).unwrap();
            if !next.is_attacked(k, !p.side_to_move(), next.occupied()) {
                assert!(legal.contains(&c.mv), "{}", c.mv);
            }
        }
    }

    #[test]
    fn finds_free_rook() {
        // The gote rook on 2b hangs to the bishop.
        let p =
            Position::from_sfen("lnsgkgsnl/7r1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B7/LNSGKGSNL b R 1")
                .unwrap();
        let r = Searcher::new(4).search(&p, &[], Limits::depth(3), |_| {});
        assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("8h2b+"));
    }

    #[test]
    fn pass_flips_side_and_keeps_the_rest() {
        let p = Position::startpos();
        let q = pass(&p).unwrap();
        assert_ne!(p.side_to_move(), q.side_to_move());
        assert_eq!(pass(&q).unwrap().key(), p.key());
    }

    /// The pass is the position the SFEN with the other side letter
    /// describes (key, checks, legal moves), over seeded random games.
    #[test]
    fn pass_equals_the_flipped_sfen() {
        let mut checked = 0;
        crate::shogi::testing::random_positions(11, 20, 100, |p| {
            let sfen = p.to_sfen();
            let mut parts = sfen.splitn(3, ' ');
            let (board, side, rest) = (
                parts.next().unwrap(),
                parts.next().unwrap(),
                parts.next().unwrap(),
            );
            let other = if side == "b" { "w" } else { "b" };
            let flipped = Position::from_sfen(&format!("{board} {other} {rest}"));
            match pass(p) {
                None => assert!(p.in_check()),
                Some(q) => {
                    let f = flipped.unwrap();
                    assert_eq!(q.to_sfen(), f.to_sfen());
                    assert_eq!(q.key(), f.key());
                    assert_eq!(q.in_check(), f.in_check());
                    assert_eq!(q.legal_moves().len(), f.legal_moves().len());
                    checked += 1;
                }
            }
        });
        assert!(checked > 1_000, "{checked}");
    }

    #[test]
    fn plays_minishogi_and_handicap_games() {
        let mut starts = vec![Position::minishogi_startpos()];
        starts.extend(
            crate::shogi::Handicap::ALL
                .iter()
                .map(|h| h.start_position()),
        );
        for p in starts {
            let r = Searcher::new(2).search(&p, &[], Limits::depth(4), |_| {});
            assert!(p.is_legal(r.best.unwrap()), "{p}");
            assert_eq!(r.depth, 4);
        }
    }

    #[test]
    fn no_moves_is_mate_zero() {
        let p = Position::from_sfen("4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1").unwrap();
        let r = Searcher::new(1).search(&p, &[], Limits::depth(2), |_| {});
        assert_eq!(r.best, None);
    }
}
