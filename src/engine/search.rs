//! Iterative-deepening principal-variation search with a transposition table,
//! quiescence search and a mate-first step.
//!
//! - Mates in one, when [`Searcher::set_mate_in_one`] turns them on (off by
//!   default: they did not pay yet): a node seen for the first time (not in
//!   check) that has a mating check scores the mate at once, in the main
//!   search and in the quiescence search, whose captures would never play a
//!   mating drop ([`crate::tsume::mate_in_one`]). Never while the weaker
//!   levels score their moves (see `Searcher::selective`).
//! - Move ordering: the table move (searched before the other moves are
//!   generated), captures by victim and attacker, two killers, the counter
//!   move, then quiet moves by their history and their continuation
//!   histories after the last two moves.
//! - Extensions: checks that do not lose the checking piece, and the table
//!   move when every other move falls well short of it (singular extension).
//! - Pruning and reductions: reverse futility, null move, internal iterative
//!   reduction; for late quiet moves a move-count limit, futility, pruning of
//!   replies the continuation histories call bad and of moves that lose
//!   material (static exchange evaluation); late-move reductions that grow
//!   with the logarithms of depth and move number and shrink with history.
//!   The shapes follow Stockfish 11, from which Fairy-Stockfish derives; the
//!   margins are in our evaluation's units (a pawn on the board is 84).
//!
//! The searcher never reads a clock on its own: the caller passes a deadline or
//! a budget in [`Limits`] and may stop it through an `Arc<AtomicBool>`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;

use crate::shogi::{dead_squares, Color, Move, PieceKind, Position, Variant, MAX_MOVES};

use super::eval::{evaluate_linear, exchange_value, see, taken_value, BOARD_VALUE};
use super::mate::{may_give_check, MateSearch};
use super::nn;
use super::score::{Score, INF, MATE, MATE_BOUND};
use crate::tsume::mate_in_one;

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
    /// The static evaluation ([`NO_EVAL`] in check).
    eval: i32,
    depth: i16,
    bound: u8,
}

/// A static evaluation that was not computed (the side to move is in check).
const NO_EVAL: i32 = i32::MIN / 2;

/// The depth of an entry the quiescence search stores when the static
/// evaluation alone reaches beta (a stand-pat cut), before it looked for a
/// mate in one: the next visit still looks. Every other entry of a position
/// not in check was stored after that test (or while the weaker levels
/// score their moves, without it).
const STAND_PAT_DEPTH: i32 = -1;

impl TtEntry {
    /// Stored at a stand-pat cut, before the test for a mate in one.
    #[inline]
    fn before_mate_test(&self) -> bool {
        i32::from(self.depth) == STAND_PAT_DEPTH
    }

    /// The stored score at `ply` if its bound settles the window
    /// `alpha..beta`.
    #[inline]
    fn cutoff(&self, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let s = from_tt(self.score, ply);
        let cut = match self.bound {
            BOUND_EXACT => true,
            BOUND_LOWER => s >= beta,
            BOUND_UPPER => s <= alpha,
            _ => false,
        };
        cut.then_some(s)
    }
}

/// The network's accumulators along the current line (see [`nn`]): the
/// root's is summed at the start of a search; for each move made only the
/// inputs it changes are recorded, and applied when a position is evaluated
/// (many are never: the table answers first).
struct NnStack {
    /// The network of this search, taken at the root; `None`: the
    /// correction does not apply.
    net: Option<&'static nn::Net>,
    /// Overrides the process-wide switch ([`nn::enabled`]) when set.
    forced: Option<bool>,
    /// A network used in place of [`nn::net`] (tests only).
    #[cfg(test)]
    pinned: Option<&'static nn::Net>,
    acc: Vec<nn::Accumulator>,
    /// Whether `acc[ply]` is up to date with the line.
    fresh: Vec<bool>,
    /// What the move into each ply changed (`None`: a null move).
    change: Vec<Option<nn::Change>>,
}

impl NnStack {
    fn new() -> NnStack {
        NnStack {
            net: None,
            forced: None,
            #[cfg(test)]
            pinned: None,
            acc: vec![nn::Accumulator::default(); MAX_PLY + 2],
            fresh: vec![false; MAX_PLY + 2],
            change: vec![None; MAX_PLY + 2],
        }
    }

    /// A new root.
    fn root(&mut self, pos: &Position) {
        let on = self.forced.unwrap_or_else(nn::enabled) && pos.variant() == Variant::Standard;
        #[cfg(test)]
        let net = self.pinned.or_else(nn::net);
        #[cfg(not(test))]
        let net = nn::net();
        self.net = net.filter(|_| on);
        if let Some(net) = self.net {
            self.acc[0] = net.refresh(pos);
            self.fresh[0] = true;
        }
    }

    /// `mv` is played in `pos` to reach ply `child` (`None`: a null move).
    #[inline]
    fn push(&mut self, child: usize, pos: &Position, mv: Option<Move>) {
        if self.net.is_some() {
            self.change[child] = mv.map(|m| nn::Change::of(pos, m));
            self.fresh[child] = false;
        }
    }

    /// The correction for `pos` at ply `ply`. The accumulator is brought up
    /// to date from the last one that is, move by move; if one of those
    /// moves is a change the network cannot apply (a king's move, for a
    /// network that sees the pieces from the kings), `pos`'s is summed from
    /// scratch instead, so a king move costs that only when a position after
    /// it is evaluated.
    #[inline]
    fn correction(&mut self, ply: usize, pos: &Position) -> i32 {
        let Some(net) = self.net else {
            return 0;
        };
        let mut from = ply;
        while !self.fresh[from] {
            from -= 1;
        }
        let stale = |c: &Option<nn::Change>| c.as_ref().is_some_and(|c| net.needs_refresh(c));
        if self.change[from + 1..=ply].iter().any(stale) {
            self.acc[ply] = net.refresh(pos);
            self.fresh[ply] = true;
            return net.output_of(&self.acc[ply], pos.side_to_move());
        }
        for p in from + 1..=ply {
            self.acc[p] = match &self.change[p] {
                Some(c) => net.apply(&self.acc[p - 1], c),
                None => self.acc[p - 1],
            };
            self.fresh[p] = true;
        }
        net.output_of(&self.acc[ply], pos.side_to_move())
    }
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

    /// Starts loading `key`'s entry into the cache: the entry of a child
    /// node is read first thing in the child, and fetching it from memory
    /// was about a quarter of the search's time. Issued as soon as the
    /// child's key is known, the load overlaps with the work before the probe.
    #[inline]
    fn prefetch(&self, key: u64) {
        crate::engine::prefetch::read(&self.entries[self.index(key)]);
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<TtEntry> {
        let e = self.entries[self.index(key)];
        (e.key == key && e.bound != 0).then_some(e)
    }

    #[inline]
    fn store(&mut self, key: u64, mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: u8) {
        let i = self.index(key);
        let e = &mut self.entries[i];
        if e.key != key || depth >= i32::from(e.depth) - 2 || bound == BOUND_EXACT {
            let mv = mv.or(if e.key == key { e.mv } else { None });
            *e = TtEntry {
                key,
                mv,
                score,
                eval,
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

/// Moved piece (side, kind as it stood or was dropped) and target square:
/// the index of a move in the continuation histories.
#[inline]
fn piece_to(pos: &Position, mv: Move) -> usize {
    let kind = match mv {
        Move::Normal { from, .. } => pos.piece_at(from).map_or(0, |p| p.kind.index()),
        Move::Drop { kind, .. } => kind.index(),
    };
    (pos.side_to_move().index() * 14 + kind) * 81 + mv.to().index()
}

/// The number of [`piece_to`] indices.
const PIECE_TO: usize = 2 * 14 * 81;
/// A [`Frame`] without a move (the root, or after a null move).
const NO_MOVE: usize = usize::MAX;
/// History values stay within ±this (the "gravity" update keeps them there).
const HISTORY_MAX: i32 = 16_384;
/// Ordering score of the first killer move; the second is 1,000 below.
const KILLER_ORDER: i32 = 90_000;
/// Ordering score of the counter move (the last quiet refutation of the
/// opponent's previous move).
const COUNTER_ORDER: i32 = 88_000;

/// Moves a history entry towards `bonus`'s sign, the less the nearer it is
/// to the bound already.
#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = i32::from(*entry);
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry = (e + b - e * b.abs() / HISTORY_MAX) as i16;
}

/// The history bonus for a move that caused a cut at `depth`.
#[inline]
fn stat_bonus(depth: i32) -> i32 {
    (24 * depth * depth + 120 * depth - 100).min(2_400)
}

/// What the search knows about one ply of the current line.
#[derive(Clone, Copy)]
struct Frame {
    static_eval: i32,
    /// [`piece_to`] of the move played from this ply, or [`NO_MOVE`].
    moved: usize,
}

/// A move with its ordering score and, for quiet moves, its statistics,
/// read once and used both for ordering and for pruning and reductions.
#[derive(Clone, Copy)]
struct Scored {
    mv: Move,
    ord: i32,
    /// [`piece_to`] of the move.
    pt: u16,
    history: i16,
    cont1: i16,
    cont2: i16,
}

/// Late-move reduction before adjustments, for `depth` and move number `n`.
#[inline]
fn base_reduction(depth: i32, n: usize) -> i32 {
    let d = depth.max(1) as usize;
    if d < REDUCTION_DEPTHS && n < REDUCTION_MOVES {
        i32::from(REDUCTIONS[d][n])
    } else {
        reduction_formula(d, n)
    }
}

/// The formula behind [`base_reduction`]: 0.55 · ln(depth) · ln(n) + 0.35.
fn reduction_formula(depth: usize, n: usize) -> i32 {
    ((depth.max(1) as f64).ln() * (n.max(1) as f64).ln() * 0.55 + 0.35) as i32
}

/// Depths and move numbers whose reductions are tabulated (two logarithms
/// per searched move showed up as 3 % of the search's time).
const REDUCTION_DEPTHS: usize = MAX_PLY + 1;
const REDUCTION_MOVES: usize = 256;
static REDUCTIONS: std::sync::LazyLock<Box<[[i8; REDUCTION_MOVES]; REDUCTION_DEPTHS]>> =
    std::sync::LazyLock::new(|| {
        let mut t = Box::new([[0i8; REDUCTION_MOVES]; REDUCTION_DEPTHS]);
        for (d, row) in t.iter_mut().enumerate() {
            for (n, r) in row.iter_mut().enumerate() {
                *r = reduction_formula(d, n) as i8;
            }
        }
        t
    });

/// Quiet moves searched at `depth` before the rest are skipped.
#[inline]
fn move_count_limit(depth: i32, improving: bool) -> usize {
    let d = depth.max(0) as usize;
    (4 + d * d) * (1 + usize::from(improving))
}

/// A reusable searcher: its transposition table and move-ordering tables
/// survive between searches of the same game.
pub struct Searcher {
    tt: Tt,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    history: Vec<i16>,
    /// Continuation history: the previous move's [`piece_to`] by this one's
    /// (one ply back: the reply table; two plies back: the follow-up table).
    cont: Vec<i16>,
    /// The quiet move that last refuted each [`piece_to`].
    counters: Vec<Option<Move>>,
    frames: [Frame; MAX_PLY + 2],
    /// The move left out at each ply by a singular-extension search.
    excluded: [Option<Move>; MAX_PLY + 2],
    path: Vec<PathEntry>,
    pv: Vec<Vec<Move>>,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    limits: Limits,
    node_limit: u64,
    null_ok: bool,
    /// Whether late quiet moves may be skipped at shallow depth, and nodes
    /// look for a mate in one; off while [`Searcher::score_root_moves`]
    /// scores moves for the weaker levels, whose style (which mates and
    /// threats they notice) was tuned against a full-width shallow search
    /// without either.
    selective: bool,
    /// Whether nodes look for a mate in one (see [`Searcher::set_mate_in_one`]).
    mate_in_one: bool,
    nn: NnStack,
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
            cont: vec![0; PIECE_TO * PIECE_TO],
            counters: vec![None; PIECE_TO],
            frames: [Frame {
                static_eval: NO_EVAL,
                moved: NO_MOVE,
            }; MAX_PLY + 2],
            excluded: [None; MAX_PLY + 2],
            path: Vec::with_capacity(512),
            pv: vec![Vec::new(); MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            aborted: false,
            limits: Limits::default(),
            node_limit: u64::MAX,
            null_ok: true,
            selective: true,
            mate_in_one: false,
            nn: NnStack::new(),
        }
    }

    /// Whether this searcher adds the network's correction ([`nn`]) to the
    /// evaluation: `None` (the default) follows the process-wide switch
    /// [`nn::set_enabled`].
    pub fn set_eval_net(&mut self, on: Option<bool>) {
        self.nn.forced = on;
    }

    /// Whether a node seen for the first time (not in check) looks for a
    /// mate in one, in the main search and the quiescence search (off by
    /// default). It finds mates beyond the horizon (a one-ply search sees
    /// a mate in three), but each node costs about a fifth more in quiet
    /// positions, and 54 games at 300 ms against the same build without it
    /// came out even (`scripts/match/RESULTS.md`, 4 December 2026); USI
    /// turns it on with the option `MateInOne`, for such matches.
    pub fn set_mate_in_one(&mut self, on: bool) {
        self.mate_in_one = on;
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.fill(0);
        self.cont.fill(0);
        self.counters.fill(None);
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
        self.start_path(history);
        for h in &mut self.history {
            *h /= 4;
        }
        self.frames[0].moved = NO_MOVE;
        self.nn.root(pos);

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
    /// after it (full window), for the weaker levels and for analysis;
    /// `history` as for [`Searcher::search`], so that a repetition, and a
    /// perpetual check above all, is judged as the rules do. At
    /// `depth` 0 by the static evaluation after the move, as a player who
    /// does not look at the answers at all.
    pub fn score_root_moves(
        &mut self,
        pos: &Position,
        history: &[(u64, bool)],
        depth: u32,
        limits: Limits,
    ) -> Vec<(Move, i32)> {
        self.limits = limits;
        self.node_limit = self.limits.nodes.unwrap_or(u64::MAX);
        self.nodes = 0;
        self.aborted = false;
        self.start_path(history);
        self.selective = false;
        self.nn.root(pos);
        let mut out = Vec::new();
        for mv in pos.legal_moves() {
            let next = pos.after(mv);
            self.nn.push(1, pos, Some(mv));
            self.path.push(PathEntry {
                key: pos.key(),
                in_check: pos.in_check(),
            });
            self.frames[0].moved = piece_to(pos, mv);
            let s = if depth == 0 {
                self.nodes += 1;
                -self.evaluate(&next, 1)
            } else {
                -self.negamax(&next, depth as i32 - 1, -INF, INF, 1, true)
            };
            self.path.pop();
            if self.aborted {
                break;
            }
            out.push((mv, s));
        }
        self.selective = true;
        out
    }

    /// The static evaluation of `pos` at `ply` of the current line
    /// ([`super::eval::evaluate`], the network's part kept up to date move
    /// by move).
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let e = evaluate_linear(pos) + self.nn.correction(ply, pos);
        // Every test that searches with the network checks the accumulators
        // along the way against the sum from scratch.
        debug_assert_eq!(
            e,
            evaluate_linear(pos) + self.nn.net.map_or(0, |net| net.output(pos)),
            "{}",
            pos.to_sfen()
        );
        e
    }

    /// The static evaluation of `pos`, from its table entry when it has one.
    #[inline]
    fn static_eval(&mut self, pos: &Position, tt: Option<TtEntry>, ply: usize) -> i32 {
        match tt.map(|e| e.eval).filter(|&e| e != NO_EVAL) {
            Some(e) => e,
            None => self.evaluate(pos, ply),
        }
    }

    /// Starts the line of play from the root with the game's earlier
    /// positions, oldest first, for [`Searcher::repetition`].
    fn start_path(&mut self, history: &[(u64, bool)]) {
        self.path.clear();
        self.path.extend(
            history
                .iter()
                .map(|&(key, in_check)| PathEntry { key, in_check }),
        );
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

    /// Repetition verdict for `key` (the current position, `ply` plies from
    /// the root): `Some(score)` if it occurred before with the same side to
    /// move. Perpetual check loses for the checking side as a mate here
    /// would: going on with it ends the game by the rules, so it must score
    /// below every mate that is still further away (else a side that is
    /// being mated prefers the repetition, and loses at once by it).
    fn repetition(&self, key: u64, in_check: bool, ply: usize) -> Option<i32> {
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
                    MATE - ply as i32
                } else if they_are_checked {
                    -(MATE - ply as i32)
                } else {
                    0
                });
            }
        }
        None
    }

    /// The quiet-move statistics of `mv` (its [`piece_to`] is `pt`) at `ply`:
    /// its history and its continuation histories after the last two moves.
    #[inline]
    fn quiet_stats(&self, side: Color, mv: Move, pt: usize, ply: usize) -> (i32, i32, i32) {
        let h = i32::from(self.history[hist_index(side, mv)]);
        let c = |back: usize| -> i32 {
            if ply < back {
                return 0;
            }
            let prev = self.frames[ply - back].moved;
            if prev == NO_MOVE {
                0
            } else {
                i32::from(self.cont[prev * PIECE_TO + pt])
            }
        };
        (h, c(1), c(2))
    }

    /// Rewards the quiet move `best` that caused a cut and punishes the
    /// quiet moves tried before it.
    fn reward_quiet(&mut self, pos: &Position, best: Move, tried: &[Move], depth: i32, ply: usize) {
        let side = pos.side_to_move();
        let bonus = stat_bonus(depth);
        let k = &mut self.killers[ply];
        if k[0] != Some(best) {
            k[1] = k[0];
            k[0] = Some(best);
        }
        if ply >= 1 {
            let prev = self.frames[ply - 1].moved;
            if prev != NO_MOVE {
                self.counters[prev] = Some(best);
            }
        }
        self.update_quiet(pos, side, best, bonus, ply);
        for &q in tried {
            self.update_quiet(pos, side, q, -bonus, ply);
        }
    }

    #[inline]
    fn update_quiet(&mut self, pos: &Position, side: Color, mv: Move, bonus: i32, ply: usize) {
        gravity(&mut self.history[hist_index(side, mv)], bonus);
        let pt = piece_to(pos, mv);
        for back in [1, 2] {
            if ply >= back {
                let prev = self.frames[ply - back].moved;
                if prev != NO_MOVE {
                    gravity(&mut self.cont[prev * PIECE_TO + pt], bonus);
                }
            }
        }
    }

    #[allow(clippy::too_many_lines)]
    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
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
        let root = ply == 0;

        if !root {
            if let Some(s) = self.repetition(key, in_check, ply) {
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
            return self.evaluate(pos, ply);
        }

        let excluded = self.excluded[ply];
        // A search without one move must not read or write that move's table entry.
        let tt = if excluded.is_some() {
            None
        } else {
            self.tt.probe(key)
        };
        let tt_move = tt.and_then(|e| e.mv);
        if let Some(e) = tt {
            if !pv_node && i32::from(e.depth) >= depth {
                if let Some(s) = e.cutoff(ply, alpha, beta) {
                    return s;
                }
            }
        }

        // A node seen for the first time that mates in one scores so at once:
        // a mating drop is a quiet move, which the pruning below or the
        // quiescence search at the horizon would often never try. The
        // table keeps the answer, so the test runs once per position.
        if self.mate_in_one
            && self.selective
            && !root
            && !in_check
            && tt.is_none_or(|e| e.before_mate_test())
            && excluded.is_none()
        {
            if let Some((mv, _)) = mate_in_one(pos) {
                self.pv[ply].push(mv);
                let s = MATE - (ply as i32 + 1);
                self.tt.store(
                    key,
                    Some(mv),
                    to_tt(s, ply),
                    NO_EVAL,
                    MAX_PLY as i32,
                    BOUND_EXACT,
                );
                return s;
            }
        }

        // The static evaluation, and a better guess of the score from the
        // table when its bound points the right way.
        let static_eval = if in_check {
            NO_EVAL
        } else {
            self.static_eval(pos, tt, ply)
        };
        let eval = match tt {
            Some(e) if !in_check && e.score.abs() < MATE_BOUND => {
                let s = from_tt(e.score, ply);
                let use_it = match e.bound {
                    BOUND_EXACT => true,
                    BOUND_LOWER => s > static_eval,
                    BOUND_UPPER => s < static_eval,
                    _ => false,
                };
                if use_it {
                    s
                } else {
                    static_eval
                }
            }
            _ => static_eval,
        };
        self.frames[ply].static_eval = static_eval;
        let improving = !in_check
            && (ply < 2
                || self.frames[ply - 2].static_eval == NO_EVAL
                || static_eval > self.frames[ply - 2].static_eval);

        // Reverse futility: far above beta at shallow depth.
        if !pv_node
            && !in_check
            && depth < 7
            && eval - 140 * (depth - i32::from(improving)) >= beta
            && eval.abs() < MATE_BOUND
            && beta.abs() < MATE_BOUND
        {
            return eval;
        }

        // Null move: if passing still fails high, the position is good enough.
        // Zugzwang is rare in shogi (drops).
        if !pv_node
            && !in_check
            && depth >= 3
            && eval >= beta
            && static_eval >= beta - 20 * depth + 150
            && beta.abs() < MATE_BOUND
            && self.null_ok
            && excluded.is_none()
        {
            if let Some(passed) = pass(pos) {
                let r = 3 + depth / 4 + ((eval - beta) / 150).min(3);
                self.path.push(PathEntry { key, in_check });
                self.frames[ply].moved = NO_MOVE;
                self.nn.push(ply + 1, pos, None);
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

        // Without a move from the table the node was not searched before:
        // search it a little shallower (internal iterative reduction).
        if tt_move.is_none() && depth >= 4 && !root && excluded.is_none() {
            depth -= 1;
        }

        let us = pos.side_to_move();
        let counter = if ply >= 1 && self.frames[ply - 1].moved != NO_MOVE {
            self.counters[self.frames[ply - 1].moved]
        } else {
            None
        };
        // The table move goes first, before the other moves are generated:
        // when it cuts, the node never generates or orders them.
        let mut scored: ArrayVec<Scored, MAX_MOVES> = ArrayVec::new();
        if let Some(t) = tt_move.filter(|&t| pos.is_legal(t)) {
            scored.push(self.score_move(pos, t, tt_move, counter, ply));
        }
        let mut generated = false;

        let their_king = pos.king_square(!us);
        let mut best_score = -INF;
        let mut best_move = None;
        let orig_alpha = alpha;
        let mut searched = 0usize;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();

        let mut next_index = 0;
        loop {
            let i = next_index;
            next_index += 1;
            if i == scored.len() && !generated {
                generated = true;
                let mut moves = pos.legal_moves();
                if moves.is_empty() {
                    // Checkmate or no move at all: both lose in shogi.
                    return -MATE + ply as i32;
                }
                // The rest, listed as they stood once the table move was
                // swapped to the front of the full list (the order every
                // build before "table move first" used), so that moves with
                // equal scores are picked in the same order as then.
                let mut rest = &moves[..];
                if let Some(t) = scored.first().map(|s| s.mv) {
                    if let Some(at) = moves.iter().position(|&m| m == t) {
                        moves.swap(0, at);
                        rest = &moves[1..];
                    }
                }
                for &m in rest {
                    scored.push(self.score_move(pos, m, tt_move, counter, ply));
                }
            }
            if i >= scored.len() {
                break;
            }
            // Pick the first few moves by selection (a cut often comes early),
            // then sort the rest once.
            if i < 3 {
                let mut bi = i;
                for j in i + 1..scored.len() {
                    if scored[j].ord > scored[bi].ord {
                        bi = j;
                    }
                }
                scored.swap(i, bi);
            } else if i == 3 {
                scored[3..].sort_unstable_by_key(|s| std::cmp::Reverse(s.ord));
            }
            let Scored {
                mv,
                ord,
                pt,
                history: h,
                cont1: c1,
                cont2: c2,
            } = scored[i];
            let (pt, h, c1, c2) = (usize::from(pt), i32::from(h), i32::from(c1), i32::from(c2));
            if Some(mv) == excluded {
                continue;
            }
            let move_count = i + 1;
            let capture = pos.is_capture(mv);
            let quiet = !capture && !mv.is_promotion();
            let maybe_check = their_king.is_some_and(|k| may_give_check(pos, mv, k));
            let refutation = quiet && (COUNTER_ORDER..200_000).contains(&ord);
            let lmr_depth = (depth - 1 - base_reduction(depth, move_count)).max(0);
            // The exchange value, computed at most once per move.
            let mut exchange: Option<i32> = None;
            let mut see_of = |pos: &Position| *exchange.get_or_insert_with(|| see(pos, mv));

            // Shallow-depth pruning, once a move is known not to lose at once.
            if self.selective && !root && best_score > -MATE_BOUND && searched > 0 {
                if quiet && !maybe_check {
                    if move_count >= move_count_limit(depth, improving) && !refutation {
                        continue;
                    }
                    // Replies that have been bad after the last two moves.
                    if lmr_depth < 3 && c1 < 0 && c2 < 0 && !refutation {
                        continue;
                    }
                    // Futility: far below alpha even with a good margin.
                    if !in_check
                        && lmr_depth < 6
                        && static_eval + 200 + 150 * lmr_depth <= alpha
                        && h + c1 + c2 < 20_000
                    {
                        continue;
                    }
                    if lmr_depth < 8 && see_of(pos) < -(24 * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else if depth < 8 && see_of(pos) < -130 * depth {
                    continue;
                }
            }

            // Singular extension: when every other move falls well short of
            // the table's score for the table move, that move is forced and
            // gets a ply more. When even the others reach beta, cut at once.
            let mut ext = 0;
            if let (Some(e), true) = (tt, Some(mv) == tt_move) {
                if !root
                    && depth >= 6
                    && excluded.is_none()
                    && e.bound & BOUND_LOWER != 0
                    && i32::from(e.depth) >= depth - 3
                    && e.score.abs() < MATE_BOUND
                {
                    let singular_beta = from_tt(e.score, ply) - 2 * depth;
                    self.excluded[ply] = Some(mv);
                    let s = self.negamax(
                        pos,
                        (depth - 1) / 2,
                        singular_beta - 1,
                        singular_beta,
                        ply,
                        false,
                    );
                    self.excluded[ply] = None;
                    if self.aborted {
                        return 0;
                    }
                    if s < singular_beta {
                        ext = 1;
                    } else if singular_beta >= beta {
                        return singular_beta;
                    }
                }
            }

            let next = pos.after(mv);
            self.tt.prefetch(next.key());
            self.nn.push(ply + 1, pos, Some(mv));
            let gives_check = maybe_check && next.in_check();
            // Checks that do not lose the checking piece (or discover the
            // check) are searched a ply deeper.
            if ext == 0
                && gives_check
                && ply < 40
                && (next.checkers().without(mv.to()).is_any() || see_of(pos) >= 0)
            {
                ext = 1;
            }
            let new_depth = depth - 1 + ext;

            self.path.push(PathEntry { key, in_check });
            self.frames[ply].moved = pt;
            let mut score;
            if searched == 0 {
                score = -self.negamax(&next, new_depth, -beta, -alpha, ply + 1, pv_node);
            } else {
                let mut r = 0;
                if depth >= 3 && move_count > 1 + 2 * usize::from(root) && !gives_check {
                    r = base_reduction(depth, move_count);
                    if !improving && r > 1 {
                        r += 1;
                    }
                    if pv_node {
                        r -= 1;
                    }
                    if quiet {
                        if refutation {
                            r -= 1;
                        }
                        r -= (h + c1 + c2 - 4_000) / 12_000;
                    } else if see_of(pos) >= 0 {
                        // Captures and promotions that do not lose material.
                        r = 0;
                    }
                    if in_check {
                        r -= 1;
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
                    if pv_node || root {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(mv);
                        line.extend_from_slice(&tail[0]);
                    }
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(pos, mv, &quiets_tried, depth, ply);
                        }
                        break;
                    }
                }
            }
            if quiet {
                // Only the first 64 get a history malus.
                let _ = quiets_tried.try_push(mv);
            }
        }

        if searched == 0 {
            // Everything was pruned (or the only move was left out): fall
            // back on the static evaluation.
            return if in_check || excluded.is_some() {
                alpha
            } else {
                static_eval.max(alpha)
            };
        }
        if excluded.is_some() {
            return best_score;
        }
        let bound = if best_score >= beta {
            BOUND_LOWER
        } else if best_score > orig_alpha {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        };
        self.tt.store(
            key,
            best_move,
            to_tt(best_score, ply),
            static_eval,
            depth,
            bound,
        );
        best_score
    }

    /// A move's ordering score, with its quiet-move statistics kept for the
    /// pruning and reduction decisions (zero for captures and promotions).
    fn score_move(
        &self,
        pos: &Position,
        mv: Move,
        tt_move: Option<Move>,
        counter: Option<Move>,
        ply: usize,
    ) -> Scored {
        let pt = piece_to(pos, mv);
        let mut out = Scored {
            mv,
            ord: 0,
            pt: pt as u16,
            history: 0,
            cont1: 0,
            cont2: 0,
        };
        let mut noisy = 0;
        if let Move::Normal { from, to, promote } = mv {
            if let Some(victim) = pos.piece_at(to) {
                let attacker = pos.piece_at(from).map_or(0, |p| exchange_value(p.kind));
                noisy = 200_000 + BOARD_VALUE[victim.kind.index()] * 16 - attacker / 16;
            }
            if promote {
                let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
                noisy += 100_000 + BOARD_VALUE[kind.index()];
            }
        }
        if noisy == 0 {
            let (h, c1, c2) = self.quiet_stats(pos.side_to_move(), mv, pt, ply);
            // Each is a history entry, within ±HISTORY_MAX.
            (out.history, out.cont1, out.cont2) = (h as i16, c1 as i16, c2 as i16);
        }
        out.ord = if Some(mv) == tt_move {
            1_000_000
        } else if noisy > 0 {
            noisy
        } else if self.killers[ply][0] == Some(mv) {
            KILLER_ORDER
        } else if self.killers[ply][1] == Some(mv) {
            KILLER_ORDER - 1_000
        } else if counter == Some(mv) {
            COUNTER_ORDER
        } else {
            i32::from(out.history) + i32::from(out.cont1) + i32::from(out.cont2)
        };
        out
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
            return self.evaluate(pos, ply);
        }
        let key = pos.key();
        let tt = self.tt.probe(key);
        if let Some(s) = tt.and_then(|e| e.cutoff(ply, alpha, beta)) {
            return s;
        }
        if in_check {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            if qdepth >= 6 {
                return self.evaluate(pos, ply);
            }
            let mut best = -INF;
            let mut ordered: ArrayVec<(Move, i32), MAX_MOVES> = moves
                .iter()
                .map(|&m| (m, self.score_move(pos, m, None, None, ply).ord))
                .collect();
            ordered.sort_unstable_by_key(|&(_, s)| -s);
            for (mv, _) in ordered {
                let next = pos.after(mv);
                self.nn.push(ply + 1, pos, Some(mv));
                self.path.push(PathEntry { key, in_check });
                self.frames[ply].moved = piece_to(pos, mv);
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

        let stand = self.static_eval(pos, tt, ply);
        if stand >= beta {
            if tt.is_none() {
                self.tt.store(
                    key,
                    None,
                    to_tt(stand, ply),
                    stand,
                    STAND_PAT_DEPTH,
                    BOUND_LOWER,
                );
            }
            return stand;
        }
        // Below beta, a mate in one is the one quiet move worth a look: the
        // evaluation cannot see a mating drop, and the captures below never
        // play one.
        if self.mate_in_one && self.selective && tt.is_none_or(|e| e.before_mate_test()) {
            if let Some((mv, _)) = mate_in_one(pos) {
                let s = MATE - (ply as i32 + 1);
                self.tt.store(
                    key,
                    Some(mv),
                    to_tt(s, ply),
                    stand,
                    MAX_PLY as i32,
                    BOUND_EXACT,
                );
                return s;
            }
        }
        let orig_alpha = alpha;
        if stand > alpha {
            alpha = stand;
        }
        let mut caps = capture_moves(pos);
        caps.sort_unstable_by_key(|c| -c.order);
        let us = pos.side_to_move();
        let them = !us;
        let mut best = stand;
        let mut best_move = None;
        for c in caps {
            // Delta pruning.
            if stand + c.gain + 200 < alpha {
                continue;
            }
            // Skip captures that lose material in the exchange.
            if c.attacker_value > c.victim_value && see(pos, c.mv) < 0 {
                continue;
            }
            let next = pos.after(c.mv);
            self.tt.prefetch(next.key());
            self.nn.push(ply + 1, pos, Some(c.mv));
            // Legality: our king must not be attacked afterwards.
            if let Some(k) = next.king_square(us) {
                if next.is_attacked(k, them, next.occupied()) {
                    continue;
                }
            }
            self.frames[ply].moved = piece_to(pos, c.mv);
            let s = -self.qsearch(&next, -beta, -alpha, ply + 1, qdepth + 1);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = Some(c.mv);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            BOUND_LOWER
        } else if best > orig_alpha && best_move.is_some() {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        };
        self.tt
            .store(key, best_move, to_tt(best, ply), stand, 0, bound);
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
                let taken = taken_value(victim);
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
                        gain: taken + pgain,
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
                        gain: taken,
                        order: vv * 16 - av / 16,
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The network's sums, kept move by move along every line (null moves,
    /// checks, captures into hand, drops), equal the sums from scratch at
    /// every evaluation (the debug assertion in `Searcher::evaluate`), and
    /// the network changes the search.
    #[test]
    fn searches_with_the_network_keep_its_sums_exact() {
        let positions = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "ln3g3/4g1k1l/p2pspnp1/5sp1p/P1b1P2P1/BP1PS1P1P/2K2P3/3G3RL/L+p3G1NR b 2Psnp 63",
            "3r1gk1p/+L2g2sl1/2pps2pb/2n1p3l/3P1ppP1/9/1PP1PPP2/1BSGGRSlP/1N2KN1N1 w 3P 70",
        ];
        let mut differ = 0;
        for sfen in positions {
            let pos = Position::from_sfen(sfen).unwrap();
            let mut with = Searcher::new(1);
            with.set_eval_net(Some(true));
            let a = with.search(&pos, &[], Limits::nodes(20_000), |_| {});
            let mut without = Searcher::new(1);
            without.set_eval_net(Some(false));
            let b = without.search(&pos, &[], Limits::nodes(20_000), |_| {});
            differ += usize::from(a.score != b.score || a.pv != b.pv);
        }
        assert!(differ > 0);
    }

    #[test]
    fn searches_with_a_king_relative_network_keep_its_sums_exact() {
        // `evaluate` checks the accumulators against the sum from scratch at
        // every node; after a king move both views are summed from scratch.
        let net: &'static nn::Net = Box::leak(Box::new(nn::tests::seeded(3, 3)));
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "ln3g3/4g1k1l/p2pspnp1/5sp1p/P1b1P2P1/BP1PS1P1P/2K2P3/3G3RL/L+p3G1NR b 2Psnp 63",
            "4k4/9/4P4/9/9/9/9/9/4K4 b G2r 1",
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            let mut s = Searcher::new(1);
            s.set_eval_net(Some(true));
            s.nn.pinned = Some(net);
            let r = s.search(&pos, &[], Limits::nodes(20_000), |_| {});
            assert!(!r.pv.is_empty(), "{sfen}");
        }
    }

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
    fn depth_zero_scores_a_move_without_its_answers() {
        // Rook takes the silver that the gold defends.
        let p = Position::from_sfen("4k4/4g4/4s4/9/4R4/9/9/9/4K4 b - 1").unwrap();
        let score = |depth| {
            let scored = Searcher::new(2).score_root_moves(&p, &[], depth, Limits::default());
            assert_eq!(scored.len(), p.legal_moves().len());
            scored
                .into_iter()
                .find(|(m, _)| m.to_string() == "5e5c")
                .unwrap()
                .1
        };
        let (blind, seeing) = (score(0), score(1));
        assert!(blind > 200, "{blind}");
        assert!(seeing < blind - 500, "{seeing} against {blind}");
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

    /// From a lost game against gpsshogi (scripts/match, 2 December 2026):
    /// Sente, being mated, checked with a promoted lance back and forth and
    /// played the fourth repetition, which loses by perpetual check. The
    /// search scored the repetition above the mate, so it chose it.
    #[test]
    fn a_side_being_mated_does_not_choose_the_perpetual_check() {
        let start = Position::from_sfen(
            "l2+L2+L2/2k6/Npn5p/p1s3p2/2n6/2P3P2/PPGP4P/2K1+s3+p/LNS1+r4 b 5Pr2b3gs2p 135",
        )
        .unwrap();
        let mut pos = start.clone();
        let mut history = Vec::new();
        for usi in "6a7a 7b6b 7a6a 6b7b 6a7a 7b6b 7a6a 6b7b 6a7a 7b6b".split(' ') {
            history.push((pos.key(), pos.in_check()));
            pos = pos.after(Move::from_usi(usi).unwrap());
        }
        // 7a6a would repeat the position after it a fourth time.
        let r = Searcher::new(16).search(&pos, &history, Limits::nodes(300_000), |_| {});
        let best = r.best.map(|m| m.to_string());
        assert_ne!(best.as_deref(), Some("7a6a"), "{r:?}");
    }

    /// Histories stay inside their bound whatever the sequence of updates,
    /// and the reductions grow with depth and move number.
    #[test]
    fn history_is_bounded_and_reductions_grow() {
        let mut rng = fastrand::Rng::with_seed(7);
        let mut e = 0i16;
        for _ in 0..100_000 {
            let d = rng.i32(1..40);
            let b = if rng.bool() {
                stat_bonus(d)
            } else {
                -stat_bonus(d)
            };
            gravity(&mut e, b);
            assert!(i32::from(e).abs() <= HISTORY_MAX, "{e}");
        }
        for _ in 0..1_000 {
            gravity(&mut e, stat_bonus(30));
        }
        assert!(i32::from(e) > HISTORY_MAX * 9 / 10);
        // Monotone, across the edges of the table too (depth MAX_PLY + 1,
        // 256 moves), and the table holds the formula's values.
        for d in 1..(REDUCTION_DEPTHS as i32 + 5) {
            for n in 1..(REDUCTION_MOVES + 5) {
                assert!(base_reduction(d + 1, n) >= base_reduction(d, n));
                assert!(base_reduction(d, n + 1) >= base_reduction(d, n));
                assert_eq!(base_reduction(d, n), reduction_formula(d as usize, n));
            }
        }
        assert_eq!(base_reduction(3, 1), 0);
        assert!(base_reduction(12, 40) >= 4);
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

    /// With the test of mates in one on, a mate in three is seen by a
    /// search of one ply, without the mate-first step: the defender's
    /// replies end in the quiescence search, which looks for the mating
    /// check (a quiet move, often a drop) that its captures would never
    /// play. On the 3-ply puzzles shipped in data/puzzles.tsv.
    #[test]
    fn a_one_ply_search_sees_the_mate_in_one_beyond_its_horizon() {
        let (mut n, mut seen_without) = (0, 0);
        for line in include_str!("../../data/puzzles.tsv").lines() {
            let f: Vec<&str> = line.split('\t').collect();
            if line.starts_with('#') || f.get(1) != Some(&"3") {
                continue;
            }
            let pos = Position::from_sfen(f[2]).unwrap();
            let mut s = Searcher::new(1);
            s.set_mate_in_one(true);
            let r = s.search(&pos, &[], Limits::depth(1), |_| {});
            assert_eq!(r.score, Score::Mate(2), "{}", f[0]);
            let best = r.best.unwrap();
            assert!(pos.after(best).in_check(), "{} {best}", f[0]);
            let r = Searcher::new(1).search(&pos, &[], Limits::depth(1), |_| {});
            seen_without += usize::from(r.score == Score::Mate(2));
            n += 1;
        }
        assert_eq!(n, 340);
        // Without the test, only mates whose last move captures are seen
        // (23 of the 340 on 4 December 2026).
        assert!(seen_without < n / 4, "{seen_without}");
    }

    #[test]
    fn no_moves_is_mate_zero() {
        let p = Position::from_sfen("4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1").unwrap();
        let r = Searcher::new(1).search(&p, &[], Limits::depth(2), |_| {});
        assert_eq!(r.best, None);
    }
}
