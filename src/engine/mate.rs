//! A short mate search (tsume style): the attacker only gives check, the
//! defender tries every evasion. Used as the mate-first step of the strong
//! level, by hints ("threatens mate") and by the tactical tests.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::shogi::{attacks, line, Move, MoveList, Position};

/// A bounded mate search.
#[derive(Debug)]
pub struct MateSearch {
    nodes: u64,
    limit: u64,
    stop: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    aborted: bool,
    /// Attacker positions known not to mate within the stored number of plies.
    no_mate: HashMap<u64, u32>,
}

impl MateSearch {
    /// A search that gives up after `node_limit` nodes, when `stop` is set or
    /// at `deadline`.
    #[must_use]
    pub fn new(
        node_limit: u64,
        stop: Option<Arc<AtomicBool>>,
        deadline: Option<Instant>,
    ) -> MateSearch {
        MateSearch {
            nodes: 0,
            limit: node_limit,
            stop,
            deadline,
            aborted: false,
            no_mate: HashMap::new(),
        }
    }

    /// Nodes visited so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The shortest mate of at most `max_plies` plies (odd) for the side to
    /// move, as the main line (attacker's first move first), or `None`.
    pub fn find(&mut self, pos: &Position, max_plies: u32) -> Option<Vec<Move>> {
        let mut plies = 1;
        while plies <= max_plies {
            let mut line = Vec::new();
            if self.or_node(pos, plies, &mut line) {
                line.reverse();
                return Some(line);
            }
            if self.aborted {
                return None;
            }
            plies += 2;
        }
        None
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.limit {
            self.aborted = true;
        } else if self.nodes & 255 == 0 {
            if self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                self.aborted = true;
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Attacker to move: is there a check that mates within `plies`? The line
    /// is built in reverse.
    fn or_node(&mut self, pos: &Position, plies: u32, line: &mut Vec<Move>) -> bool {
        if self.tick() {
            return false;
        }
        let key = pos.key();
        if self.no_mate.get(&key).is_some_and(|&p| p >= plies) {
            return false;
        }
        let checks = checking_moves(pos);
        // Mates in one first, cheaply.
        for &(mv, ref next) in &checks {
            if !next.has_legal_move() {
                line.clear();
                line.push(mv);
                return true;
            }
        }
        if plies >= 3 {
            for (mv, next) in &checks {
                let mut sub = Vec::new();
                if self.and_node(next, plies - 1, &mut sub) {
                    *line = sub;
                    line.push(*mv);
                    return true;
                }
                if self.aborted {
                    return false;
                }
            }
        }
        if !self.aborted {
            self.no_mate.insert(key, plies);
        }
        false
    }

    /// Defender to move (in check): does every evasion lose within `plies`?
    fn and_node(&mut self, pos: &Position, plies: u32, line: &mut Vec<Move>) -> bool {
        if self.tick() {
            return false;
        }
        let evasions = pos.legal_moves();
        if evasions.is_empty() {
            return true;
        }
        // The longest defence becomes the main line.
        let mut longest: Option<Vec<Move>> = None;
        for mv in sort_evasions(pos, evasions) {
            let next = pos.after(mv);
            let mut sub = Vec::new();
            if !self.or_node(&next, plies - 1, &mut sub) {
                return false;
            }
            sub.push(mv);
            if longest.as_ref().is_none_or(|l| sub.len() > l.len()) {
                longest = Some(sub);
            }
        }
        *line = longest.unwrap_or_default();
        true
    }
}

/// Evasions ordered so that likely refutations (king moves, captures) come first.
fn sort_evasions(pos: &Position, moves: MoveList) -> Vec<Move> {
    let mut v: Vec<(Move, i32)> = moves
        .into_iter()
        .map(|m| {
            let s = match m {
                Move::Normal { from, .. } => {
                    let king = pos
                        .piece_at(from)
                        .is_some_and(|p| p.kind == crate::shogi::PieceKind::King);
                    i32::from(pos.is_capture(m)) * 2 + i32::from(king)
                }
                Move::Drop { .. } => 0,
            };
            (m, s)
        })
        .collect();
    v.sort_by_key(|&(_, s)| -s);
    v.into_iter().map(|(m, _)| m).collect()
}

/// Legal moves that give check, with the positions after them.
#[must_use]
pub fn checking_moves(pos: &Position) -> Vec<(Move, Position)> {
    let Some(ksq) = pos.king_square(!pos.side_to_move()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for mv in pos.legal_moves() {
        if !may_give_check(pos, mv, ksq) {
            continue;
        }
        let next = pos.after(mv);
        if next.in_check() {
            out.push((mv, next));
        }
    }
    out
}

/// A cheap filter (never wrong when it says no): could `mv` give check to the
/// king on `ksq`? A drop checks only by attacking the king directly; a board
/// move checks directly or by opening a line through the king.
#[inline]
#[must_use]
pub fn may_give_check(pos: &Position, mv: Move, ksq: crate::shogi::Square) -> bool {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    match mv {
        Move::Drop { kind, to } => attacks(us, kind, to, occ).has(ksq),
        Move::Normal { from, to, promote } => {
            line(from, ksq).is_any() || {
                let kind = pos.piece_at(from).map(|p| p.kind);
                kind.is_some_and(|k| {
                    let k = if promote { k.promote().unwrap_or(k) } else { k };
                    attacks(us, k, to, occ.without(from)).has(ksq)
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(sfen: &str, plies: u32) -> Option<String> {
        let p = Position::from_sfen(sfen).unwrap();
        MateSearch::new(1_000_000, None, None)
            .find(&p, plies)
            .map(|l| {
                l.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
    }

    #[test]
    fn mate_in_one_gold_drop() {
        assert_eq!(
            solve("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1).as_deref(),
            Some("G*5b")
        );
    }

    #[test]
    fn no_pawn_drop_mate() {
        // P*1b would be mate but is illegal (uchifuzume).
        assert_eq!(solve("4R2sk/9/7G1/9/9/9/9/9/4K4 b P 1", 1), None);
    }

    #[test]
    fn no_mate_with_two_golds_against_a_bare_king() {
        // cshogi's mate_move(5) agrees: no mate within five plies.
        assert_eq!(solve("4k4/9/9/9/9/9/9/9/4K4 b 2G 1", 5), None);
    }
}
