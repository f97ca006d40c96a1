//! Df-pn: depth-first proof-number search (Nagai 2002) over attacker checks
//! and defender evasions, with a transposition table keyed by the Zobrist key.
//!
//! Written in the phi/delta form: at an attacker (OR) node phi is the proof
//! number and delta the disproof number; at a defender (AND) node the other way
//! round. Then for every node phi = min over children of delta and delta = sum
//! over children of phi, and one routine serves both kinds of node.
//!
//! A position repeated on the current path counts as "no mate" (perpetual
//! check loses for the attacker). Such results are path-dependent and are not
//! stored in the table.

use super::{checks, KeyMap};
use crate::shogi::{Move, Position};

/// "Infinite" proof or disproof number.
const INF: u32 = 1 << 28;
/// The most plies a main line is followed out of the table.
const MAX_LINE: usize = 1024;

#[derive(Clone, Copy, Debug)]
struct Entry {
    pn: u32,
    dn: u32,
    /// For proven nodes: the length in plies of the proof's mate.
    len: u32,
}

/// The result of [`Dfpn::prove`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Mate is proven. `line` follows the proof in the table: the attacker
    /// takes its shortest proven continuation, the defender the longest one.
    /// Best effort: entries can be overwritten during the search, so the line
    /// may stop early; use [`super::MateSolver::main_line`] for an exact one.
    Mate {
        /// The main line of the proof.
        line: Vec<Move>,
    },
    /// Proven: no forced mate by checks.
    NoMate,
    /// The node limit was reached.
    Unknown,
}

/// A df-pn mate searcher with its transposition table and node budget.
pub struct Dfpn {
    tt: KeyMap<Entry>,
    path: Vec<u64>,
    nodes: u64,
    limit: u64,
}

impl Dfpn {
    /// A searcher that expands at most `node_limit` nodes.
    #[must_use]
    pub fn new(node_limit: u64) -> Dfpn {
        Dfpn {
            tt: KeyMap::default(),
            path: Vec::new(),
            nodes: 0,
            limit: node_limit,
        }
    }

    /// Nodes expanded so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Proves or disproves mate for the side to move (the attacker).
    pub fn prove(&mut self, root: &Position) -> Proof {
        self.mid(root, true, INF, INF);
        let e = self.entry(root.key());
        if e.pn == 0 {
            Proof::Mate {
                line: self.line(root),
            }
        } else if e.dn == 0 {
            Proof::NoMate
        } else {
            Proof::Unknown
        }
    }

    fn entry(&self, key: u64) -> Entry {
        self.tt.get(&key).copied().unwrap_or(Entry {
            pn: 1,
            dn: 1,
            len: 0,
        })
    }

    /// (phi, delta) of a child, seen from the child (its own kind of node).
    fn child_values(&self, key: u64, child_is_or: bool) -> (u32, u32, u32) {
        let e = if self.path.contains(&key) {
            // Repetition: no mate along this path.
            Entry {
                pn: INF,
                dn: 0,
                len: 0,
            }
        } else {
            self.entry(key)
        };
        if child_is_or {
            (e.pn, e.dn, e.len)
        } else {
            (e.dn, e.pn, e.len)
        }
    }

    fn mid(&mut self, pos: &Position, or: bool, th_phi: u32, th_delta: u32) {
        self.nodes += 1;
        let key = pos.key();
        let moves = if or { checks(pos) } else { pos.legal_moves() };
        if moves.is_empty() {
            // OR: no check, no mate. AND: no evasion, mated.
            let e = if or {
                Entry {
                    pn: INF,
                    dn: 0,
                    len: 0,
                }
            } else {
                Entry {
                    pn: 0,
                    dn: INF,
                    len: 0,
                }
            };
            self.tt.insert(key, e);
            return;
        }
        let children: Vec<(Position, u64)> = moves
            .iter()
            .map(|&m| {
                let p = pos.after(m);
                let k = p.key();
                (p, k)
            })
            .collect();
        self.path.push(key);
        loop {
            // phi = min child delta, delta = sum child phi.
            let mut phi = INF;
            let mut delta: u32 = 0;
            let mut best = 0;
            let mut best_phi = 0;
            let mut delta2 = INF;
            let mut len_pick: Option<u32> = None;
            let mut all_solved_len = 0;
            for (i, (_, k)) in children.iter().enumerate() {
                let (cphi, cdelta, clen) = self.child_values(*k, !or);
                if cdelta < phi {
                    delta2 = phi;
                    phi = cdelta;
                    best = i;
                    best_phi = cphi;
                } else if cdelta < delta2 {
                    delta2 = cdelta;
                }
                delta = (delta + cphi).min(INF);
                // Lengths of proven children (for the proof's main line).
                if or && cdelta == 0 {
                    len_pick = Some(len_pick.map_or(clen, |l: u32| l.min(clen)));
                }
                if !or {
                    all_solved_len = all_solved_len.max(clen);
                }
            }
            let stop = phi >= th_phi || delta >= th_delta || self.nodes >= self.limit;
            if stop {
                let (pn, dn) = if or { (phi, delta) } else { (delta, phi) };
                let len = if pn == 0 {
                    1 + if or {
                        len_pick.unwrap_or(0)
                    } else {
                        all_solved_len
                    }
                } else {
                    0
                };
                // A disproof that rests on a repetition is path-dependent
                // (the graph-history interaction); it is stored like any
                // other, which may in rare cases hide a mate reached by
                // another path, never invent one.
                self.tt.insert(key, Entry { pn, dn, len });
                break;
            }
            let c_th_phi = th_delta - delta + best_phi;
            let c_th_delta = th_phi.min(delta2.saturating_add(1));
            self.mid(&children[best].0, !or, c_th_phi, c_th_delta);
        }
        self.path.pop();
    }

    /// The proof's main line from the table.
    fn line(&self, root: &Position) -> Vec<Move> {
        let mut out = Vec::new();
        let mut pos = root.clone();
        let mut or = true;
        while out.len() < MAX_LINE {
            let moves = if or { checks(&pos) } else { pos.legal_moves() };
            let mut pick: Option<(Move, u32)> = None;
            for &m in &moves {
                let e = self.entry(pos.after(m).key());
                if e.pn != 0 {
                    continue;
                }
                let better = match pick {
                    None => true,
                    Some((_, l)) => {
                        if or {
                            e.len < l
                        } else {
                            e.len > l
                        }
                    }
                };
                if better {
                    pick = Some((m, e.len));
                }
            }
            match pick {
                Some((m, _)) => {
                    out.push(m);
                    pos.play_unchecked(m);
                    or = !or;
                }
                None => break,
            }
        }
        out
    }
}
