//! Exact depth-bounded mate search: "does the attacker mate within N plies?"
//!
//! An AND/OR search over attacker checks and all defender moves, with a memo
//! of proven bounds per position: the shortest length known to mate and the
//! longest length known not to. Iterative deepening on top of it gives the
//! shortest mate; the memo makes the deepening and the questions a puzzle asks
//! (unique first move, stubborn defence, is this answer still good) cheap.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::{checks, KeyMap};
use crate::shogi::{Move, MoveList, Position};

#[derive(Clone, Copy, Debug)]
struct Bound {
    /// Mate within this many plies is proven (`u32::MAX`: not known).
    mate: u32,
    /// No mate within this many plies is proven (`None`: not known).
    no_mate: Option<u32>,
    /// The move that decided the last search of this position: the mating
    /// check (attacker) or the refuting defence (defender). Tried first the
    /// next time: iterative deepening asks the same question one step
    /// deeper, and the same move usually answers it.
    best: Option<Move>,
}

/// How stubborn a defence is: plies left (`u32::MAX`: escapes), not a drop,
/// a capture. Larger is more stubborn.
type Score = (u32, bool, bool);

const UNKNOWN: Bound = Bound {
    mate: u32::MAX,
    no_mate: None,
    best: None,
};

/// How many nodes pass between two looks at the stop flag and the deadline.
const POLL: u64 = 1024;

/// `moves` with `first` (if it is among them) moved to the front.
fn first_of(mut moves: MoveList, first: Option<Move>) -> MoveList {
    if let Some(f) = first {
        if let Some(i) = moves.iter().position(|&m| m == f) {
            moves[..=i].rotate_right(1);
        }
    }
    moves
}

/// Exact mate-within-N solver with a memo and a node budget.
///
/// Every question returns `None` once the node budget is spent; the solver
/// then stays spent (make a new one for a new budget).
pub struct MateSolver {
    memo: KeyMap<Bound>,
    nodes: u64,
    limit: u64,
    aborted: bool,
    stop: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    next_poll: u64,
}

impl MateSolver {
    /// A solver that visits at most `node_limit` nodes over its life.
    #[must_use]
    pub fn new(node_limit: u64) -> MateSolver {
        MateSolver {
            memo: KeyMap::default(),
            nodes: 0,
            limit: node_limit,
            aborted: false,
            stop: None,
            deadline: None,
            next_poll: 0,
        }
    }

    /// Also gives up (like a spent budget) when `stop` is set or at
    /// `deadline`, both the caller's.
    #[must_use]
    pub fn with_stop(
        mut self,
        stop: Option<Arc<AtomicBool>>,
        deadline: Option<Instant>,
    ) -> MateSolver {
        self.stop = stop;
        self.deadline = deadline;
        self
    }

    /// Nodes visited so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn answer<T>(&self, t: T) -> Option<T> {
        (!self.aborted).then_some(t)
    }

    /// Whether the side to move (the attacker) mates within `plies` plies.
    pub fn mate_within(&mut self, pos: &Position, plies: u32) -> Option<bool> {
        let r = self.attack(pos, plies);
        self.answer(r)
    }

    /// Whether the side to move (the defender, who was just checked) is mated
    /// within `plies` more plies (0: it is checkmated now).
    pub fn mated_within(&mut self, pos: &Position, plies: u32) -> Option<bool> {
        let r = self.defend(pos, plies);
        self.answer(r)
    }

    /// The length of the shortest mate for the side to move, if there is one
    /// within `max_plies`: `Some(None)` means proven none within `max_plies`.
    pub fn shortest(&mut self, pos: &Position, max_plies: u32) -> Option<Option<u32>> {
        self.shortest_from(1, max_plies, |s, d| s.attack(pos, d))
    }

    /// With the defender to move: the length of the shortest mate left (0 if
    /// it is checkmated), if there is one within `max_plies`.
    pub fn shortest_defended(&mut self, pos: &Position, max_plies: u32) -> Option<Option<u32>> {
        self.shortest_from(0, max_plies, |s, d| s.defend(pos, d))
    }

    /// The first depth `first`, `first + 2`, ... up to `max_plies` at which
    /// `mates` holds (`Some(None)`: none; `None`: the node budget ran out).
    fn shortest_from(
        &mut self,
        first: u32,
        max_plies: u32,
        mut mates: impl FnMut(&mut Self, u32) -> bool,
    ) -> Option<Option<u32>> {
        let mut d = first;
        while d <= max_plies {
            if mates(self, d) {
                return self.answer(Some(d));
            }
            if self.aborted {
                return None;
            }
            d += 2;
        }
        self.answer(None)
    }

    /// The attacker's first moves that mate within `plies` (each a check).
    pub fn mating_moves(&mut self, pos: &Position, plies: u32) -> Option<Vec<Move>> {
        let mut out = Vec::new();
        if plies == 0 {
            return Some(out);
        }
        for m in checks(pos) {
            if self.defend(&pos.after(m), plies - 1) {
                out.push(m);
            }
        }
        self.answer(out)
    }

    /// Whether `mv` is the only first move that mates within `plies`.
    pub fn is_unique_mating_move(&mut self, pos: &Position, mv: Move, plies: u32) -> Option<bool> {
        let moves = self.mating_moves(pos, plies)?;
        Some(moves == [mv])
    }

    /// The most stubborn defence (defender to move, mate expected within
    /// `max_plies`): the move after which the attacker needs the most plies.
    /// Ties go to moves that are not drops (no futile interpositions), then
    /// to captures, then to the generator's order. `Some(None)` when the
    /// defender has no move (checkmated). The returned length is the plies
    /// left after the defence, or `None` if the defence escapes mate within
    /// `max_plies - 1` plies.
    pub fn stubborn_defence(
        &mut self,
        pos: &Position,
        max_plies: u32,
    ) -> Option<Option<(Move, Option<u32>)>> {
        let mut best: Option<(Move, Option<u32>, Score)> = None;
        let left = max_plies.saturating_sub(1);
        for m in pos.legal_moves() {
            let after = pos.after(m);
            let len = if max_plies == 0 {
                None
            } else {
                self.shortest(&after, left)?
            };
            // Escaping is best; else longer is better.
            let score = (len.unwrap_or(u32::MAX), !m.is_drop(), pos.is_capture(m));
            if best.as_ref().is_none_or(|b| score > b.2) {
                best = Some((m, len, score));
            }
            if len.is_none() {
                break;
            }
        }
        self.answer(best.map(|(m, l, _)| (m, l)))
    }

    /// A main line of a mate in exactly `plies` (which must be the shortest):
    /// the attacker plays the quickest mate, the defender the most stubborn
    /// defence.
    pub fn main_line(&mut self, pos: &Position, plies: u32) -> Option<Vec<Move>> {
        let mut line = Vec::new();
        let mut pos = pos.clone();
        let mut left = plies;
        while left > 0 {
            // Attacker: the first check with the shortest remaining mate.
            // `left` is the shortest mate here, so a check that mates
            // within `left - 1` needs exactly that: no need to look further.
            let mut pick: Option<(Move, u32)> = None;
            for m in checks(&pos) {
                let after = pos.after(m);
                if let Some(l) = self.shortest_defended(&after, left - 1)? {
                    if pick.is_none_or(|(_, b)| l < b) {
                        pick = Some((m, l));
                    }
                    if l + 1 >= left {
                        break;
                    }
                }
            }
            let (m, l) = pick?;
            line.push(m);
            pos.play_unchecked(m);
            left = l;
            if left == 0 {
                break;
            }
            let (d, l) = self.stubborn_defence(&pos, left)??;
            line.push(d);
            pos.play_unchecked(d);
            left = l?;
        }
        self.answer(line)
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit {
            self.aborted = true;
        }
        if self.nodes >= self.next_poll && (self.stop.is_some() || self.deadline.is_some()) {
            self.next_poll = self.nodes + POLL;
            if self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
                || self.deadline.is_some_and(|d| Instant::now() >= d)
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn bound(&self, key: u64) -> Bound {
        self.memo.get(&key).copied().unwrap_or(UNKNOWN)
    }

    fn store(&mut self, key: u64, d: u32, mate: bool, best: Option<Move>) {
        if self.aborted {
            return;
        }
        let b = self.memo.entry(key).or_insert(UNKNOWN);
        if mate {
            b.mate = b.mate.min(d);
        } else {
            b.no_mate = Some(b.no_mate.map_or(d, |n| n.max(d)));
        }
        if best.is_some() {
            b.best = best;
        }
    }

    /// Attacker to move: mate within `d` plies?
    fn attack(&mut self, pos: &Position, d: u32) -> bool {
        if d == 0 || self.aborted {
            return false;
        }
        let key = pos.key();
        let b = self.bound(key);
        if b.mate <= d {
            return true;
        }
        if b.no_mate.is_some_and(|n| n >= d) {
            return false;
        }
        if self.tick() {
            return false;
        }
        let mut found = None;
        for m in first_of(checks(pos), b.best) {
            if self.defend(&pos.after(m), d - 1) {
                found = Some(m);
                break;
            }
            if self.aborted {
                return false;
            }
        }
        self.store(key, d, found.is_some(), found);
        found.is_some()
    }

    /// Defender to move (in check): mated within `d` plies?
    fn defend(&mut self, pos: &Position, d: u32) -> bool {
        if self.aborted {
            return false;
        }
        let key = pos.key();
        let b = self.bound(key);
        if b.mate <= d {
            return true;
        }
        if b.no_mate.is_some_and(|n| n >= d) {
            return false;
        }
        if self.tick() {
            return false;
        }
        let moves = pos.legal_moves();
        let mut refute = None;
        let mated = if moves.is_empty() {
            true
        } else if d == 0 {
            false
        } else {
            // The last refutation first, then board moves (the king's and
            // captures escape most often), drops last.
            let mut order = moves.clone();
            order.sort_by_key(|&m| (Some(m) != b.best, m.is_drop()));
            let mut all = true;
            for m in order {
                if !self.attack(&pos.after(m), d - 1) {
                    all = false;
                    refute = Some(m);
                    break;
                }
            }
            all
        };
        if self.aborted {
            return false;
        }
        if moves.is_empty() {
            self.store(key, 0, true, None);
        } else {
            self.store(key, d, mated, refute);
        }
        mated
    }
}
