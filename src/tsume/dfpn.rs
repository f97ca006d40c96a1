//! Df-pn: depth-first proof-number search (Nagai 2002) over attacker checks
//! and defender evasions.
//!
//! What makes it fast on tsume:
//! - **Hand domination.** The table is keyed by the board (and side to
//!   move) and stores the attacker's hand next to each result. A position
//!   proven with hand `h` is proven for every hand that holds at least `h`;
//!   one disproven with `h` is disproven for every hand that holds at most
//!   `h`. Within one search the number of pieces of each kind is fixed, so a
//!   bigger attacker hand is a smaller defender hand.
//! - **Proof and disproof hands.** A proof is stored with the smallest hand
//!   it needs (the pieces the attacker actually drops, minus what it
//!   captures on the way), a disproof with the biggest hand it holds for.
//!   After a futile interposition and its capture the board is the same
//!   whichever piece was dropped, so one proof settles all of them.
//! - **Short mates without nodes.** A new attacker's node tries, on its
//!   checks with few replies, a mate in three plies (every evasion answered
//!   by a mate in one, found by a cheap filter on the king's free squares
//!   and confirmed exactly); a proof found so is stored like any other.
//! - **Threshold control.** The 1+ε trick (a child may run until its proof
//!   number is half above the second best's) cuts the switching
//!   between siblings.
//! - **No allocation in the hot path.** Children live on one shared stack,
//!   with their keys computed without playing the move and their last
//!   values cached; the table is one flat vector with linear probing.
//!
//! A position repeated on the current path counts as "no mate" (perpetual
//! check loses for the attacker). Such a disproof depends on the path (the
//! graph-history interaction); it is stored like any other, with the hand
//! it was found with, which may in rare cases hide a mate reached by
//! another path, never invent one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::checks;
use super::evasion::evasions_estimate;
use crate::shogi::{between, king_attacks, Hand, Move, PieceKind, Position};

/// "Infinite" proof or disproof number; unsolved numbers stay below it.
const INF: u32 = 1 << 28;
/// What an attacker's move adds to the proof number of an unsolved child:
/// a chain of only-moves then still costs two per move, which keeps the
/// search from following long forced chains while a short mate waits.
const STEP: u32 = 2;

/// A child's proof number as its attacker's node counts it.
#[inline]
fn step(pn: u32) -> u32 {
    if pn == 0 || pn >= INF {
        pn
    } else {
        pn + STEP
    }
}

/// The 3-ply mate test is tried on a new check whose evasion estimate
/// (its initial proof number) is at most this: few replies, a good chance
/// of a mate, a cheap failure. (On the hard set 2 misses many, 4 costs more
/// than it saves.)
const MATE3_MOST: u32 = 3;

/// The most plies a main line is followed out of the table.
const MAX_LINE: usize = 1024;

// ---------------------------------------------------------------------------
// Hands packed into one word: a field per hand kind with a guard bit above,
// so that "holds at least" is one subtraction.

/// Bit offset of each hand kind's field (pawn first, as `PieceKind::HAND`).
const SHIFT: [u32; 7] = [0, 6, 10, 14, 18, 22, 25];
/// Width mask of each field (pawns up to 18, others up to 4, bishop and rook 2).
const WIDTH: [u32; 7] = [0x1f, 7, 7, 7, 7, 3, 3];
/// The guard bits above the fields.
const GUARD: u32 = 1 << 5 | 1 << 9 | 1 << 13 | 1 << 17 | 1 << 21 | 1 << 24 | 1 << 27;
/// The most pieces of each hand kind in a game.
const MOST: [u32; 7] = [18, 4, 4, 4, 4, 2, 2];

/// An attacker's hand, packed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pack(u32);

impl Pack {
    const EMPTY: Pack = Pack(0);

    fn of(hand: &Hand) -> Pack {
        let mut v = 0;
        for (i, &k) in PieceKind::HAND.iter().enumerate() {
            v |= u32::from(hand.count(k)) << SHIFT[i];
        }
        Pack(v)
    }

    #[inline]
    fn count(self, i: usize) -> u32 {
        self.0 >> SHIFT[i] & WIDTH[i]
    }

    #[inline]
    fn set(self, i: usize, n: u32) -> Pack {
        Pack(self.0 & !(WIDTH[i] << SHIFT[i]) | n << SHIFT[i])
    }

    /// Holds at least as many pieces of every kind as `o`.
    #[inline]
    fn covers(self, o: Pack) -> bool {
        self.0.wrapping_sub(o.0) & GUARD == 0
    }

    #[inline]
    fn add(self, i: usize) -> Pack {
        Pack(self.0 + (1 << SHIFT[i]))
    }

    #[inline]
    fn sub(self, i: usize) -> Pack {
        if self.count(i) > 0 {
            Pack(self.0 - (1 << SHIFT[i]))
        } else {
            self
        }
    }

    fn max(self, o: Pack) -> Pack {
        let mut r = self;
        for i in 0..7 {
            if o.count(i) > r.count(i) {
                r = r.set(i, o.count(i));
            }
        }
        r
    }

    fn min(self, o: Pack) -> Pack {
        let mut r = self;
        for i in 0..7 {
            if o.count(i) < r.count(i) {
                r = r.set(i, o.count(i));
            }
        }
        r
    }
}

// ---------------------------------------------------------------------------
// The transposition table.

/// One table entry, unpacked.
#[derive(Clone, Copy)]
struct Slot {
    board: u64,
    hand: u32,
    pn: u32,
    dn: u32,
    /// For proven entries: the length in plies of the proof's mate.
    len: u16,
    /// Nodes spent below this entry, at most `u16::MAX` (what replacement
    /// keeps).
    work: u16,
}

/// A slot as the table holds it: three words, all zero when empty (every
/// stored entry has a non-zero proof or disproof number), so that a new
/// table is zeroed memory straight from the allocator, without a pass that
/// writes every slot; at 24 bytes a slot is also a quarter smaller than the
/// plain struct.
type Raw = [u64; 3];

impl Slot {
    #[inline]
    fn load(r: Raw) -> Slot {
        Slot {
            board: r[0],
            hand: r[1] as u32,
            pn: (r[1] >> 32) as u32,
            dn: r[2] as u32,
            len: (r[2] >> 32) as u16,
            work: (r[2] >> 48) as u16,
        }
    }

    #[inline]
    fn raw(self) -> Raw {
        [
            self.board,
            u64::from(self.hand) | u64::from(self.pn) << 32,
            u64::from(self.dn) | u64::from(self.len) << 32 | u64::from(self.work) << 48,
        ]
    }

    #[inline]
    fn used(r: &Raw) -> bool {
        r[1] >> 32 != 0 || r[2] as u32 != 0
    }
}

/// What the table knows of one position.
#[derive(Clone, Copy, Debug)]
struct Found {
    pn: u32,
    dn: u32,
    len: u16,
    /// The proof hand (proven), disproof hand (disproven) or the asked hand.
    hand: Pack,
}

/// Positions that share a board land in one window of this many slots.
const WINDOW: usize = 8;
const FIRST_SLOTS: usize = 1 << 10;
const MOST_SLOTS: usize = 1 << 22;

struct Table {
    slots: Vec<Raw>,
    filled: usize,
    most: usize,
}

impl Table {
    fn new(node_limit: u64) -> Table {
        let want = usize::try_from(node_limit.saturating_mul(2))
            .unwrap_or(MOST_SLOTS)
            .clamp(FIRST_SLOTS, MOST_SLOTS)
            .next_power_of_two();
        Table {
            slots: vec![[0; 3]; FIRST_SLOTS],
            filled: 0,
            most: want,
        }
    }

    #[inline]
    fn home(&self, board: u64) -> usize {
        // The low bits of a Zobrist key are as good as any.
        (board as usize) & (self.slots.len() - 1)
    }

    fn get(&self, board: u64, hand: Pack) -> Option<Found> {
        let mask = self.slots.len() - 1;
        let home = self.home(board);
        let mut exact = None;
        for j in 0..WINDOW {
            let r = &self.slots[(home + j) & mask];
            if !Slot::used(r) {
                break;
            }
            let s = Slot::load(*r);
            if s.board != board {
                continue;
            }
            let h = Pack(s.hand);
            if s.pn == 0 {
                if hand.covers(h) {
                    return Some(Found {
                        pn: 0,
                        dn: INF,
                        len: s.len,
                        hand: h,
                    });
                }
            } else if s.dn == 0 {
                if h.covers(hand) {
                    return Some(Found {
                        pn: INF,
                        dn: 0,
                        len: 0,
                        hand: h,
                    });
                }
            } else if h == hand {
                exact = Some(Found {
                    pn: s.pn,
                    dn: s.dn,
                    len: 0,
                    hand,
                });
            }
        }
        exact
    }

    /// Stores a result. `asked` is the hand the node was searched with
    /// (its unsolved entry is replaced); `r.hand` is the hand stored.
    fn put(&mut self, board: u64, asked: Pack, r: Found, work: u32) {
        let Found { pn, dn, len, hand } = r;
        let slot = Slot {
            board,
            hand: hand.0,
            pn,
            dn,
            len,
            work: u16::try_from(work).unwrap_or(u16::MAX),
        }
        .raw();
        let mask = self.slots.len() - 1;
        let home = self.home(board);
        let mut victim: Option<usize> = None;
        for j in 0..WINDOW {
            let i = (home + j) & mask;
            if !Slot::used(&self.slots[i]) {
                self.slots[i] = slot;
                self.filled += 1;
                if self.filled * 4 > self.slots.len() * 3 && self.slots.len() < self.most {
                    self.grow();
                }
                return;
            }
            let s = Slot::load(self.slots[i]);
            if s.board == board {
                let h = Pack(s.hand);
                let unsolved = s.pn != 0 && s.dn != 0;
                // The same hand, or an unsolved entry the new result settles.
                let settled = (unsolved && h == asked)
                    || (pn == 0 && unsolved && h.covers(hand))
                    || (dn == 0 && unsolved && hand.covers(h))
                    || (h == hand && (unsolved || pn == 0 || dn == 0));
                if settled {
                    self.slots[i] = slot;
                    return;
                }
            }
            // Replace unsolved entries before solved ones, little work first.
            let rank = |s: &Slot| (s.pn == 0 || s.dn == 0, s.work);
            if victim.is_none_or(|v| rank(&s) < rank(&Slot::load(self.slots[v]))) {
                victim = Some(i);
            }
        }
        if self.slots.len() < self.most && self.filled * 4 > self.slots.len() {
            // A full window in a table filling up: make room rather than
            // forget. (Many hands of one board fill a window at any size.)
            self.grow();
            self.put(board, asked, r, work);
        } else if let Some(v) = victim {
            self.slots[v] = slot;
        }
    }

    fn grow(&mut self) {
        let bigger = vec![[0; 3]; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.filled = 0;
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(Slot::used) {
            let home = (s[0] as usize) & mask;
            for j in 0..WINDOW {
                let i = (home + j) & mask;
                if !Slot::used(&self.slots[i]) {
                    self.slots[i] = s;
                    self.filled += 1;
                    break;
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The search.

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

/// One child of the node being searched, with its last known values.
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    /// The attacker's hand in the child.
    hand: Pack,
    pn: u32,
    dn: u32,
    len: u16,
    /// Proof or disproof hand once solved.
    solved_hand: Pack,
    /// Not in the table when the node was expanded.
    fresh: bool,
}

/// A df-pn mate searcher with its transposition table and node budget.
pub struct Dfpn {
    tt: Table,
    /// Keys of the positions on the current path.
    path: Vec<u64>,
    /// The children of every node on the path, one block per node.
    kids: Vec<Child>,
    /// The positions after the checks a new attacker's node tries for a
    /// mate in three, kept from the count of their evasions (with the
    /// index of their child) so that they are played only once.
    mate3: Vec<(usize, Position)>,
    nodes: u64,
    limit: u64,
    /// Set by the caller to stop the search (checked every few nodes).
    stop: Option<Arc<AtomicBool>>,
    /// The caller's deadline (checked every few nodes).
    deadline: Option<Instant>,
    /// The stop flag or the deadline ended the search.
    halted: bool,
    /// The node count at which to look at the stop flag and deadline next.
    next_poll: u64,
    /// The length of the root's proof (an upper bound of the shortest mate).
    root_len: Option<u32>,
}

/// How many nodes pass between two looks at the stop flag and the deadline.
const POLL: u64 = 1024;

/// The hand kind captured by `mv`, if it captures.
#[inline]
fn captured(pos: &Position, mv: Move) -> Option<usize> {
    match mv {
        Move::Normal { to, .. } => pos.piece_at(to).map(|p| p.kind.unpromote().index()),
        Move::Drop { .. } => None,
    }
}

/// The attacker's hand after its move `mv` in `pos`.
#[inline]
fn hand_after(pos: &Position, hand: Pack, mv: Move) -> Pack {
    match mv {
        Move::Drop { kind, .. } => hand.sub(kind.index()),
        Move::Normal { .. } => match captured(pos, mv) {
            Some(k) => hand.add(k),
            None => hand,
        },
    }
}

/// The hand before the attacker's move `mv` in `pos` that a child's proof
/// hand `ph` asks for: what it drops, less what it captures.
#[inline]
fn hand_before(pos: &Position, mv: Move, ph: Pack) -> Pack {
    match mv {
        Move::Drop { kind, .. } => ph.add(kind.index()),
        Move::Normal { .. } => match captured(pos, mv) {
            Some(k) => ph.sub(k),
            None => ph,
        },
    }
}

impl Dfpn {
    /// A searcher that expands at most `node_limit` nodes.
    #[must_use]
    pub fn new(node_limit: u64) -> Dfpn {
        Dfpn {
            tt: Table::new(node_limit),
            path: Vec::new(),
            kids: Vec::new(),
            mate3: Vec::new(),
            nodes: 0,
            limit: node_limit,
            stop: None,
            deadline: None,
            halted: false,
            next_poll: 0,
            root_len: None,
        }
    }

    /// Also stops when `stop` is set or at `deadline` (both the caller's;
    /// the search only compares against them). The result is then
    /// [`Proof::Unknown`] unless it was already decided.
    #[must_use]
    pub fn with_stop(mut self, stop: Option<Arc<AtomicBool>>, deadline: Option<Instant>) -> Dfpn {
        self.stop = stop;
        self.deadline = deadline;
        self
    }

    /// The length in plies of the mate the last [`Dfpn::prove`] proved: an
    /// upper bound of the shortest mate (the attacker's quickest proven
    /// check, the defender's longest proven defence), whatever became of the
    /// main line in the table.
    #[must_use]
    pub fn proven_plies(&self) -> Option<u32> {
        self.root_len
    }

    /// The node budget is spent, or the caller stopped the search.
    #[inline]
    fn spent(&mut self) -> bool {
        if self.nodes >= self.limit || self.halted {
            return true;
        }
        if self.nodes >= self.next_poll && (self.stop.is_some() || self.deadline.is_some()) {
            self.next_poll = self.nodes + POLL;
            let stopped = self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed));
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            self.halted = stopped || late;
        }
        self.halted
    }

    /// Nodes expanded so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Proves or disproves mate for the side to move (the attacker).
    pub fn prove(&mut self, root: &Position) -> Proof {
        let hand = Pack::of(root.hand(root.side_to_move()));
        self.root_len = None;
        let r = self.mid(root, hand, true, true, INF, INF);
        if r.pn == 0 {
            self.root_len = Some(u32::from(r.len));
            Proof::Mate {
                line: self.line(root),
            }
        } else if r.dn == 0 {
            Proof::NoMate
        } else {
            Proof::Unknown
        }
    }

    /// Searches `pos` (attacker to move if `or`) until its proof number
    /// reaches `th_pn` or its disproof number `th_dn`, or it is solved, or
    /// the node budget is spent. Returns its values. `first`: the node is
    /// not in the table yet (an attacker's node then looks for a mate in
    /// three plies before anything else).
    fn mid(
        &mut self,
        pos: &Position,
        hand: Pack,
        or: bool,
        first: bool,
        th_pn: u32,
        th_dn: u32,
    ) -> Found {
        self.nodes += 1;
        let start_nodes = self.nodes;
        let board = pos.board_key();
        let moves = if or { checks(pos) } else { pos.legal_moves() };
        if moves.is_empty() {
            let r = if or {
                // No check: no mate, and none with any hand that adds no
                // new kind (new kinds could be dropped with check).
                let mut d = Pack::EMPTY;
                for (i, &most) in MOST.iter().enumerate() {
                    d = d.set(i, if hand.count(i) == 0 { 0 } else { most });
                }
                Found {
                    pn: INF,
                    dn: 0,
                    len: 0,
                    hand: d,
                }
            } else {
                Found {
                    pn: 0,
                    dn: INF,
                    len: 0,
                    hand: self.proof_extra(pos, hand, Pack::EMPTY),
                }
            };
            self.tt.put(board, hand, r, 1);
            return r;
        }
        let start = self.kids.len();
        // First what the table knows of every child: a check already known
        // to mate proves this node without a look at the others.
        let mut fresh = false;
        let mut proven = false;
        for &mv in &moves {
            let (cb, ck) = pos.keys_after(mv);
            let ch = if or {
                match mv {
                    Move::Drop { kind, .. } => hand.sub(kind.index()),
                    Move::Normal { .. } => match captured(pos, mv) {
                        Some(k) => hand.add(k),
                        None => hand,
                    },
                }
            } else {
                hand
            };
            let f = if self.path.contains(&ck) || ck == pos.key() {
                // Repetition: no mate along this path.
                Some(Found {
                    pn: INF,
                    dn: 0,
                    len: 0,
                    hand: ch,
                })
            } else {
                self.tt.get(cb, ch)
            };
            let is_fresh = f.is_none();
            fresh |= is_fresh;
            let f = f.unwrap_or(Found {
                pn: 1,
                dn: 1,
                len: 0,
                hand: ch,
            });
            proven |= f.pn == 0;
            self.kids.push(Child {
                mv,
                hand: ch,
                pn: f.pn,
                dn: f.dn,
                len: f.len,
                solved_hand: f.hand,
                fresh: is_fresh,
            });
        }
        if or && fresh && !proven {
            // df-pn+: a new defender's node starts with its number of
            // evasions as proof number (one expansion early: it costs a move
            // count per check, and saves more nodes on long mates than it
            // costs on short ones). A check that mates is proven here, and
            // the other checks need no count any more.
            for i in start..self.kids.len() {
                let c = self.kids[i];
                if !c.fresh {
                    continue;
                }
                let child = pos.after(c.mv);
                match evasions_estimate(&child) {
                    0 if child.count_legal_moves() == 0 => {
                        let h = self.proof_extra(&child, c.hand, Pack::EMPTY);
                        let f = Found {
                            pn: 0,
                            dn: INF,
                            len: 0,
                            hand: h,
                        };
                        let k = &mut self.kids[i];
                        k.pn = 0;
                        k.dn = INF;
                        k.solved_hand = h;
                        // Stored for the main line.
                        self.tt.put(child.board_key(), c.hand, f, 1);
                        break;
                    }
                    n => {
                        // Not stored: a later visit counts again. Stored,
                        // these counts were most of the table's entries and
                        // made it grow; the hard set took 6 % longer that
                        // way, with the same node count.
                        let pn = n.clamp(1, INF - 1);
                        self.kids[i].pn = pn;
                        if first && pn <= MATE3_MOST {
                            self.mate3.push((i, child));
                        }
                    }
                }
            }
        }
        // A new attacker's node: a check with few evasions that mates in
        // three plies (every evasion answered by a mate in one) proves it at
        // once. (Empty unless every check was counted and none mates.)
        let mut tries = std::mem::take(&mut self.mate3);
        if !self.kids[start..].iter().any(|c| c.pn == 0) {
            for (i, child) in &tries {
                if let Some(f) = self.mate_in_three(pos, child, self.kids[*i].hand) {
                    let k = &mut self.kids[*i];
                    k.pn = 0;
                    k.dn = INF;
                    k.len = f.len;
                    k.solved_hand = f.hand;
                    break;
                }
            }
        }
        tries.clear();
        self.mate3 = tries;
        let end = self.kids.len();
        if !or {
            // Drops on one square side by side (see the proof number below).
            self.kids[start..end].sort_by_key(|c| match c.mv {
                Move::Drop { to, .. } => 1 + to.index(),
                Move::Normal { .. } => 0,
            });
        }
        self.path.push(pos.key());
        let (pn, dn) = loop {
            // OR: pn = min, dn = sum. AND: pn = sum, dn = min.
            let mut best = start;
            let mut min1 = INF + 1;
            let mut min2 = INF + 1;
            let mut sum: u32 = 0;
            // At a defender's node, interpositions by drop on one square
            // count once, with the largest proof number among them: after
            // the capture the board is the same, so one proof (with its
            // proof hand) usually settles them all.
            let mut drop_sq = usize::MAX;
            let mut drop_max = 0;
            for i in start..end {
                let c = &self.kids[i];
                let (m, s) = if or { (step(c.pn), c.dn) } else { (c.dn, c.pn) };
                if m < min1 {
                    min2 = min1;
                    min1 = m;
                    best = i;
                } else if m < min2 {
                    min2 = m;
                }
                match c.mv {
                    Move::Drop { to, .. } if !or => {
                        if to.index() == drop_sq {
                            drop_max = drop_max.max(s);
                        } else {
                            sum = sum.saturating_add(drop_max);
                            drop_sq = to.index();
                            drop_max = s;
                        }
                    }
                    _ => sum = sum.saturating_add(s),
                }
            }
            sum = sum.saturating_add(drop_max);
            let min1 = min1.min(INF);
            let sum = if min1 == 0 { INF } else { sum.min(INF - 1) };
            let (pn, dn) = if or { (min1, sum) } else { (sum, min1) };
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.spent() {
                break (pn, dn);
            }
            // The 1+ε trick: the best child may run half past the second
            // best before the search switches.
            let second = min2.min(INF);
            let switch = second
                .saturating_add(1)
                .max(second.saturating_add(second / 2));
            let c = self.kids[best];
            let (c_th_pn, c_th_dn) = if or {
                (th_pn.min(switch) - STEP, th_dn - dn + c.dn)
            } else {
                // What the child adds to the sum: its own proof number, or
                // its group's largest for a drop.
                let part = match c.mv {
                    Move::Drop { to, .. } => self.kids[start..end]
                        .iter()
                        .filter(|k| k.mv.is_drop() && k.mv.to() == to)
                        .map(|k| k.pn)
                        .max()
                        .unwrap_or(c.pn),
                    Move::Normal { .. } => c.pn,
                };
                (th_pn - pn + part, th_dn.min(switch))
            };
            let child = pos.after(c.mv);
            let r = self.mid(
                &child,
                c.hand,
                !or,
                c.fresh,
                c_th_pn.min(INF),
                c_th_dn.min(INF),
            );
            self.kids[best].fresh = false;
            let c = &mut self.kids[best];
            c.pn = r.pn;
            c.dn = r.dn;
            c.len = r.len;
            c.solved_hand = r.hand;
        };
        self.path.pop();
        let work = u32::try_from(self.nodes - start_nodes + 1).unwrap_or(u32::MAX);
        let r = if pn == 0 {
            if or {
                // The shortest proven check; its proof hand, plus what it
                // drops, minus what it captures.
                let mut pick: Option<Child> = None;
                for c in &self.kids[start..end] {
                    if c.pn == 0 && pick.is_none_or(|p| c.len < p.len) {
                        pick = Some(*c);
                    }
                }
                let c = pick.expect("a proven child");
                let ph = match c.mv {
                    Move::Drop { kind, .. } => c.solved_hand.add(kind.index()),
                    Move::Normal { .. } => match captured(pos, c.mv) {
                        Some(k) => c.solved_hand.sub(k),
                        None => c.solved_hand,
                    },
                };
                Found {
                    pn: 0,
                    dn: INF,
                    len: c.len.saturating_add(1),
                    hand: ph.min(hand),
                }
            } else {
                let mut ph = Pack::EMPTY;
                let mut len = 0;
                for c in &self.kids[start..end] {
                    ph = ph.max(c.solved_hand);
                    len = len.max(c.len);
                }
                Found {
                    pn: 0,
                    dn: INF,
                    len: len.saturating_add(1),
                    hand: self.proof_extra(pos, hand, ph),
                }
            }
        } else if dn == 0 {
            let dh = if or {
                // Every check fails: the disproof holds for hands inside
                // every child's disproof hand (undoing the move's change of
                // hand), without kinds the attacker lacks now.
                let mut dh = Pack::EMPTY;
                for (i, &most) in MOST.iter().enumerate() {
                    dh = dh.set(i, most);
                }
                for c in &self.kids[start..end] {
                    let d = match c.mv {
                        Move::Drop { kind, .. } => c.solved_hand.add(kind.index()),
                        Move::Normal { .. } => match captured(pos, c.mv) {
                            Some(k) => c.solved_hand.sub(k),
                            None => c.solved_hand,
                        },
                    };
                    dh = dh.min(d);
                }
                for i in 0..7 {
                    if hand.count(i) == 0 {
                        dh = dh.set(i, 0);
                    }
                }
                dh
            } else {
                let c = self.kids[start..end]
                    .iter()
                    .find(|c| c.dn == 0)
                    .copied()
                    .expect("a disproven child");
                // A drop needs the defender to keep that piece: the
                // attacker may not hold more of it than now.
                match c.mv {
                    Move::Drop { kind, .. } => {
                        let i = kind.index();
                        c.solved_hand
                            .set(i, c.solved_hand.count(i).min(hand.count(i)))
                    }
                    Move::Normal { .. } => c.solved_hand,
                }
            };
            Found {
                pn: INF,
                dn: 0,
                len: 0,
                hand: dh.max(hand),
            }
        } else {
            Found {
                pn,
                dn,
                len: 0,
                hand,
            }
        };
        self.tt.put(board, hand, r, work);
        self.kids.truncate(start);
        r
    }

    /// A check of `pos` (attacker to move with `hand`) that mates at once,
    /// and the proof hand before it. The mated position is stored.
    fn mate_in_one(&mut self, pos: &Position, hand: Pack) -> Option<Pack> {
        let (mv, child) = super::mate1::mate_in_one_quick(pos)?;
        let ch = hand_after(pos, hand, mv);
        let h = self.proof_extra(&child, ch, Pack::EMPTY);
        let f = Found {
            pn: 0,
            dn: INF,
            len: 0,
            hand: h,
        };
        self.tt.put(child.board_key(), ch, f, 1);
        Some(hand_before(pos, mv, h).min(hand))
    }

    /// Whether the check that led from `pos` to `child` (attacker's hand
    /// `ch` there) mates in three plies: every evasion is answered by a
    /// mate in one (or is proven in the table). The proof is stored and
    /// returned; an evasion that repeats a position on the path fails.
    fn mate_in_three(&mut self, pos: &Position, child: &Position, ch: Pack) -> Option<Found> {
        let mut ph = Pack::EMPTY;
        let mut len = 0;
        // The king's steps first (no move list): they escape most often.
        let us = child.side_to_move();
        let k = child.king_square(us)?;
        let occ_wo_king = child.occupied().without(k);
        for to in king_attacks(k) & !child.pieces_of(us) & child.board_mask() {
            if child.is_attacked(to, !us, occ_wo_king) {
                continue;
            }
            let e = Move::Normal {
                from: k,
                to,
                promote: false,
            };
            let (h, l) = self.evasion_mated(pos, child, ch, e)?;
            ph = ph.max(h);
            len = len.max(l);
        }
        if !child.checkers().more_than_one() {
            for e in child.legal_moves() {
                if e.from() == Some(k) {
                    continue;
                }
                let (h, l) = self.evasion_mated(pos, child, ch, e)?;
                ph = ph.max(h);
                len = len.max(l);
            }
        }
        let f = Found {
            pn: 0,
            dn: INF,
            len: len + 1,
            hand: self.proof_extra(child, ch, ph),
        };
        self.tt.put(child.board_key(), ch, f, 1);
        Some(f)
    }

    /// After the evasion `e` of `child` (reached from `pos`), a mate in one
    /// or a proof in the table: its proof hand and length.
    fn evasion_mated(
        &mut self,
        pos: &Position,
        child: &Position,
        ch: Pack,
        e: Move,
    ) -> Option<(Pack, u16)> {
        let (cb, ck) = child.keys_after(e);
        if ck == pos.key() || self.path.contains(&ck) {
            return None;
        }
        match self.tt.get(cb, ch) {
            Some(f) if f.pn == 0 => return Some((f.hand, f.len)),
            Some(f) if f.dn == 0 => return None,
            _ => {}
        }
        let g = child.after(e);
        let h = self.mate_in_one(&g, ch)?;
        let f = Found {
            pn: 0,
            dn: INF,
            len: 1,
            hand: h,
        };
        self.tt.put(cb, ch, f, 1);
        Some((h, 1))
    }

    /// A defender's node is mated with the proof hand `ph` of its evasions.
    /// If the check could be blocked by a drop, every kind the defender
    /// lacks must stay out of its hand: the attacker keeps all of those.
    fn proof_extra(&self, pos: &Position, hand: Pack, ph: Pack) -> Pack {
        let defender = pos.side_to_move();
        let blockable = match (pos.king_square(defender), pos.checkers().first()) {
            (Some(k), Some(c)) if !pos.checkers().more_than_one() => between(k, c).is_any(),
            _ => false,
        };
        if !blockable {
            return ph;
        }
        let theirs = pos.hand(defender);
        let mut r = ph;
        for (i, &k) in PieceKind::HAND.iter().enumerate() {
            if theirs.count(k) == 0 && hand.count(i) > r.count(i) {
                r = r.set(i, hand.count(i));
            }
        }
        r
    }

    /// The proof's main line from the table.
    fn line(&self, root: &Position) -> Vec<Move> {
        let mut out = Vec::new();
        let mut pos = root.clone();
        let mut hand = Pack::of(root.hand(root.side_to_move()));
        let mut or = true;
        let mut seen = vec![pos.key()];
        while out.len() < MAX_LINE {
            let moves = if or { checks(&pos) } else { pos.legal_moves() };
            let mut pick: Option<(Move, u16, Pack)> = None;
            for &m in &moves {
                let (cb, ck) = pos.keys_after(m);
                if seen.contains(&ck) {
                    continue;
                }
                let ch = if or {
                    match m {
                        Move::Drop { kind, .. } => hand.sub(kind.index()),
                        Move::Normal { .. } => match captured(&pos, m) {
                            Some(k) => hand.add(k),
                            None => hand,
                        },
                    }
                } else {
                    hand
                };
                let Some(f) = self.tt.get(cb, ch) else {
                    continue;
                };
                if f.pn != 0 {
                    continue;
                }
                let better = match pick {
                    None => true,
                    Some((_, l, _)) => {
                        if or {
                            f.len < l
                        } else {
                            f.len > l
                        }
                    }
                };
                if better {
                    pick = Some((m, f.len, ch));
                }
            }
            match pick {
                Some((m, _, ch)) => {
                    out.push(m);
                    pos.play_unchecked(m);
                    seen.push(pos.key());
                    hand = ch;
                    or = !or;
                }
                None => break,
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_pack_into_three_words_and_only_empty_ones_are_zero() {
        let hand = Pack::of(
            Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1")
                .unwrap()
                .hand(crate::shogi::Color::Sente),
        )
        .0;
        for (pn, dn, len, work) in [
            (0, INF, u16::MAX, u16::MAX),
            (INF, 0, 0, 0),
            (1, 1, 0, 0),
            (INF - 1, INF - 1, 7, 1234),
        ] {
            let s = Slot {
                board: u64::MAX - 5,
                hand,
                pn,
                dn,
                len,
                work,
            };
            let r = s.raw();
            assert!(Slot::used(&r));
            let back = Slot::load(r);
            assert_eq!(
                (back.board, back.hand, back.pn, back.dn, back.len, back.work),
                (s.board, hand, pn, dn, len, work)
            );
        }
        assert!(!Slot::used(&[0; 3]));
    }

    #[test]
    fn packed_hands_compare_per_kind() {
        let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2R18P 1").unwrap();
        let a = Pack::of(p.hand(p.side_to_move()));
        let b = Pack::EMPTY.add(6).add(0);
        assert!(a.covers(b));
        assert!(!b.covers(a));
        assert!(a.covers(a));
        let c = Pack::EMPTY.add(4);
        assert!(!a.covers(c));
        assert!(!c.covers(b));
        assert_eq!(a.count(0), 18);
        assert_eq!(a.count(6), 2);
        assert_eq!(a.sub(0).count(0), 17);
        assert_eq!(b.max(c), b.add(4));
        assert_eq!(a.min(b), b);
    }
}
