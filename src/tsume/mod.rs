//! Tsume (mate problem) solving and puzzle generation.
//!
//! The attacker is the side to move. Every attacker move must give check;
//! the defender may answer with any legal move. All rules of the core apply
//! (a pawn drop that mates is not a legal move, so it never counts as mate).
//!
//! Two searches work together:
//! - [`Dfpn`], a df-pn (depth-first proof-number) search with a transposition
//!   table, proves mate or no mate within a node limit, however long the mate;
//! - [`MateSolver`], an exact depth-bounded AND/OR search with a memo, answers
//!   "is there a mate within N plies", finds the shortest mate, the moves that
//!   mate within N, and the most stubborn defence. Puzzles (1 to 13 plies) use it.
//!
//! [`solve`] combines them: df-pn decides, the exact search measures.
//!
//! Every search takes a node limit and never reads a clock.

mod dfpn;
mod evasion;
mod exact;
mod mate1;

pub mod generate;
pub mod puzzles;

pub use dfpn::{Dfpn, Proof};
pub use exact::MateSolver;
pub use mate1::mate_in_one;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use crate::shogi::{
    attacks, between, bishop_attacks, bishop_pseudo, dead_squares, king_attacks, lance_attacks,
    lance_ray, line, rook_attacks, rook_pseudo, step_attacks, Bitboard, Move, MoveList, PieceKind,
    Position, Square,
};

/// The answer of [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker mates.
    Mate {
        /// The length of the shortest forced mate, in plies.
        plies: u32,
        /// A main line of that length: shortest mate for the attacker, the
        /// longest resistance for the defender.
        line: Vec<Move>,
    },
    /// Proven: no forced mate by checks exists.
    NoMate,
    /// The node limit was reached before an answer.
    Unknown,
}

/// Solves a position with the attacker (side to move) to move: the shortest
/// mate and a main line with the stubbornest defence, or no mate.
///
/// How: df-pn proves mate (or no mate) within `nodes`, however long the
/// mate. A proven mate has a length `L` (the proof's quickest attack against
/// its longest defence), an upper bound of the shortest mate, which makes
/// the exact search bounded: it deepens from 1 ply up to `L - 2` (or
/// `max_plies`); if it finds nothing shorter, `L` is the shortest. So a mate
/// of at most `max_plies` plies is always reported with its shortest length;
/// when the exact search cannot settle it within its own `nodes` the answer
/// is [`Verdict::Unknown`] rather than a longer mate.
///
/// A mate longer than `max_plies` is reported with df-pn's main line, whose
/// length is an upper bound, not necessarily the shortest. When df-pn finds
/// no mate (or gives up), the exact search still looks within `max_plies`
/// (at most 13 plies after a disproof: a df-pn disproof through a
/// repetition can, rarely, hide a mate).
#[must_use]
pub fn solve(pos: &Position, nodes: u64, max_plies: u32) -> Verdict {
    solve_with(pos, &Limits::nodes(nodes), max_plies, |_| {})
}

/// The limits of [`solve_with`]: a node budget for each of the two
/// searches, and the caller's stop flag and deadline (the searches compare
/// against them, never choose a time themselves).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Nodes for df-pn, and as many again for the exact search.
    pub nodes: u64,
    /// Set by the caller to stop.
    pub stop: Option<Arc<AtomicBool>>,
    /// The caller's deadline.
    pub deadline: Option<Instant>,
}

impl Limits {
    /// Only a node budget.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes,
            ..Limits::default()
        }
    }
}

/// [`solve`] with a stop flag and a deadline. `proven` hears of a mating
/// line as soon as df-pn has proven one (legal, every attacker move a check,
/// ending in checkmate; not necessarily the shortest), so that a caller who
/// stops the search early still has a mate to show.
pub fn solve_with(
    pos: &Position,
    limits: &Limits,
    max_plies: u32,
    mut proven: impl FnMut(&[Move]),
) -> Verdict {
    let mut exact = MateSolver::new(limits.nodes).with_stop(limits.stop.clone(), limits.deadline);
    let mut df = Dfpn::new(limits.nodes).with_stop(limits.stop.clone(), limits.deadline);
    let (bound, df_line) = match df.prove(pos) {
        Proof::Mate { line } => {
            let ok = is_mating_line(pos, &line);
            if ok {
                proven(&line);
            }
            let bound = df.proven_plies().unwrap_or(u32::MAX);
            (Some(bound), ok.then_some(line))
        }
        Proof::NoMate => (None, None),
        Proof::Unknown => {
            // Undecided: only the exact search can still answer.
            return match exact.shortest(pos, max_plies) {
                Some(Some(plies)) => match exact.main_line(pos, plies) {
                    Some(line) => Verdict::Mate { plies, line },
                    None => Verdict::Unknown,
                },
                _ => Verdict::Unknown,
            };
        }
    };
    let Some(bound) = bound else {
        // df-pn: no mate. The exact search looks once more within
        // `max_plies` (at most 13); a budget it cannot finish in leaves
        // df-pn's word.
        return match exact.shortest(pos, max_plies.min(13)) {
            Some(Some(plies)) => match exact.main_line(pos, plies) {
                Some(line) => Verdict::Mate { plies, line },
                None => Verdict::NoMate,
            },
            _ => Verdict::NoMate,
        };
    };
    // Nothing shorter than `bound` within `max_plies`?
    let cap = bound.saturating_sub(2).min(max_plies);
    let line = match exact.shortest(pos, cap) {
        Some(Some(plies)) => exact.main_line(pos, plies),
        // The proof's length is the shortest: the exact main line, or
        // df-pn's if the budget runs out and it is that long.
        Some(None) if bound <= max_plies => exact
            .main_line(pos, bound)
            .or_else(|| df_line.filter(|l| l.len() as u32 == bound)),
        // Longer than `max_plies`, or not settled with a proof longer
        // than that: df-pn's line, an upper bound.
        _ if bound > max_plies => df_line.filter(|l| l.len() as u32 > max_plies),
        _ => None,
    };
    match line {
        Some(line) => Verdict::Mate {
            plies: line.len() as u32,
            line,
        },
        None => Verdict::Unknown,
    }
}

/// Whether `line` is a mate: legal moves, every attacker move a check, the
/// defender checkmated at the end.
#[must_use]
pub fn is_mating_line(pos: &Position, line: &[Move]) -> bool {
    if line.len() % 2 == 0 {
        return false;
    }
    let mut q = pos.clone();
    for (i, &m) in line.iter().enumerate() {
        if !q.is_legal(m) || (i % 2 == 0 && !q.gives_check(m)) {
            return false;
        }
        q.play_unchecked(m);
    }
    q.is_checkmate()
}

/// The kind of the piece on `from` once it has moved (promoted if
/// `promote`); `None` for an empty square.
fn moved_kind(pos: &Position, from: Square, promote: bool) -> Option<PieceKind> {
    let p = pos.piece_at(from)?;
    Some(if promote {
        p.kind.promote().unwrap_or(p.kind)
    } else {
        p.kind
    })
}

/// The attacker's checking moves (legal moves that give check), in the
/// order of [`Position::legal_moves`].
///
/// Generated directly: for each piece only the squares from which it (or
/// its promoted form) attacks the enemy king, plus every move of a piece
/// that uncovers a ranging attack; drops only on checking squares. When the
/// attacker is itself in check (the defender's last move checked back), it
/// falls back to filtering the legal moves.
#[must_use]
pub fn checks(pos: &Position) -> MoveList {
    let us = pos.side_to_move();
    let them = !us;
    let Some(ksq) = pos.king_square(them) else {
        return MoveList::new();
    };
    if pos.in_check() {
        return checks_by_filter(pos, ksq);
    }
    let mut out = MoveList::new();
    let occ = pos.occupied();
    let mask = pos.board_mask();
    let own = pos.pieces_of(us);
    let v = pos.variant();
    let zone = pos.promotion_zone(us);
    let our_king = pos.king_square(us);
    let pinned = pos.pinned(us);

    // Our pieces that alone stand between one of our ranging pieces and the
    // enemy king: moving one off that line gives check.
    let mut discover: [(Square, Bitboard); 8] = [(ksq, Bitboard::EMPTY); 8];
    let mut n_discover = 0;
    let rookish = pos.pieces(us, PieceKind::Rook) | pos.pieces(us, PieceKind::Dragon);
    let bishopish = pos.pieces(us, PieceKind::Bishop) | pos.pieces(us, PieceKind::Horse);
    let snipers = (rook_pseudo(ksq) & rookish)
        | (bishop_pseudo(ksq) & bishopish)
        | (lance_ray(them, ksq) & pos.pieces(us, PieceKind::Lance));
    let mut discoverers = Bitboard::EMPTY;
    for s in snipers {
        let b = between(ksq, s) & occ;
        if b.is_any() && !b.more_than_one() && (b & own).is_any() {
            if let Some(sq) = b.first() {
                if n_discover < discover.len() {
                    discover[n_discover] = (sq, line(ksq, s));
                    n_discover += 1;
                    discoverers = discoverers.with(sq);
                }
            }
        }
    }
    let opened = |from: Square| -> Bitboard {
        // Destinations that uncover a check when leaving `from`.
        if !discoverers.has(from) {
            return Bitboard::EMPTY;
        }
        let mut off = Bitboard::EMPTY;
        for &(sq, l) in &discover[..n_discover] {
            if sq == from {
                off |= !l;
            }
        }
        off
    };
    // Squares from which a piece of ours of `kind` would attack the king.
    let target = |kind: PieceKind| -> Bitboard {
        match kind {
            PieceKind::Lance => lance_attacks(them, ksq, occ),
            PieceKind::Bishop => bishop_attacks(ksq, occ),
            PieceKind::Rook => rook_attacks(ksq, occ),
            PieceKind::Horse => bishop_attacks(ksq, occ) | king_attacks(ksq),
            PieceKind::Dragon => rook_attacks(ksq, occ) | king_attacks(ksq),
            k => step_attacks(them, k, ksq),
        }
    };
    let legal_for = |from: Square| -> Bitboard {
        match our_king {
            Some(k) if pinned.has(from) => line(k, from),
            _ => Bitboard::FULL,
        }
    };

    // The king: only by uncovering.
    if let Some(k) = our_king {
        let to_set = king_attacks(k) & !own & mask & opened(k);
        let occ_wo_king = occ.without(k);
        for to in to_set {
            if !pos.is_attacked(to, them, occ_wo_king) {
                out.push(Move::Normal {
                    from: k,
                    to,
                    promote: false,
                });
            }
        }
    }

    let piece = |out: &mut MoveList, kind: PieceKind, from: Square| {
        let reach = attacks(us, kind, from, occ) & !own & mask & legal_for(from);
        if reach.is_empty() {
            return;
        }
        let open = opened(from);
        if let Some(pk) = kind.promote() {
            let allowed = if zone.has(from) { reach } else { reach & zone };
            for to in allowed & (target(pk) | open) {
                out.push(Move::Normal {
                    from,
                    to,
                    promote: true,
                });
            }
            let dead = dead_squares(v, us, kind);
            for to in reach & !dead & (target(kind) | open) {
                out.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
            }
        } else {
            for to in reach & (target(kind) | open) {
                out.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
            }
        }
    };
    let pawns = pos.pieces(us, PieceKind::Pawn);
    for from in pawns & !pinned {
        piece(&mut out, PieceKind::Pawn, from);
    }
    for from in pawns & pinned {
        piece(&mut out, PieceKind::Pawn, from);
    }
    for kind in [
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
    ] {
        for from in pos.pieces(us, kind) {
            piece(&mut out, kind, from);
        }
    }
    let mut goldlike = Bitboard::EMPTY;
    for kind in [
        PieceKind::Gold,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
    ] {
        goldlike |= pos.pieces(us, kind);
    }
    for from in goldlike {
        piece(&mut out, PieceKind::Gold, from);
    }
    for kind in [PieceKind::Horse, PieceKind::Dragon] {
        for from in pos.pieces(us, kind) {
            piece(&mut out, kind, from);
        }
    }

    let hand = pos.hand(us);
    if hand.is_empty() {
        return out;
    }
    let empty = !occ & mask;
    for kind in PieceKind::HAND {
        if hand.count(kind) == 0 {
            continue;
        }
        let to_set = target(kind) & empty & !dead_squares(v, us, kind);
        for to in to_set {
            let mv = Move::Drop { kind, to };
            // A pawn: nifu and uchifuzume decide (one square at most).
            if kind != PieceKind::Pawn || pos.is_legal(mv) {
                out.push(mv);
            }
        }
    }
    out
}

/// Checks by filtering every legal move (the attacker is in check).
fn checks_by_filter(pos: &Position, ksq: Square) -> MoveList {
    let mut out = MoveList::new();
    let us = pos.side_to_move();
    let occ = pos.occupied();
    // Squares from which a moved piece could uncover a ranging attack.
    let lines = rook_attacks(ksq, Bitboard::EMPTY) | bishop_attacks(ksq, Bitboard::EMPTY);
    let near = king_attacks(ksq);
    for mv in pos.legal_moves() {
        let direct = match mv {
            Move::Drop { kind, to } => attacks(us, kind, to, occ).has(ksq),
            Move::Normal { from, to, promote } => {
                let Some(kind) = moved_kind(pos, from, promote) else {
                    continue;
                };
                // Knights jump two ranks: they are the only pieces that check
                // from outside the king's lines and neighbourhood.
                (near.has(to) || lines.has(to) || kind.unpromote() == PieceKind::Knight)
                    && attacks(us, kind, to, occ.without(from).with(to)).has(ksq)
            }
        };
        let gives = direct
            || match mv {
                Move::Normal { from, .. } => lines.has(from) && pos.after(mv).in_check(),
                Move::Drop { .. } => false,
            };
        if gives {
            out.push(mv);
        }
    }
    out
}

/// A `Hasher` for keys that are already Zobrist hashes.
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map keyed by Zobrist keys.
pub(crate) type KeyMap<V> =
    std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// A composed-problem position: the board and attacker's hand from `sfen`
/// (side to move = attacker), and every piece of the set that is neither on
/// the board nor in the attacker's hand goes to the defender's hand. The
/// attacker may have no king.
pub fn composed(sfen: &str) -> Result<Position, crate::shogi::SfenError> {
    use crate::shogi::{piece_limit, Color, Piece, PieceKind};
    let base = Position::from_sfen_tsume(sfen)?;
    let attacker = base.side_to_move();
    let mut hands = String::new();
    let mut push = |c: Color, kind: PieceKind, n: u32| {
        if n > 1 {
            hands.push_str(&n.to_string());
        }
        if n > 0 {
            hands.push_str(&Piece::new(c, kind).sfen());
        }
    };
    for (kind, n) in base.hand(attacker).iter() {
        push(attacker, kind, u32::from(n));
    }
    for &kind in PieceKind::HAND.iter().rev() {
        let mut used = u32::from(base.hand(attacker).count(kind));
        for c in Color::ALL {
            used += base.pieces(c, kind).count();
            if let Some(p) = kind.promote() {
                used += base.pieces(c, p).count();
            }
        }
        push(
            !attacker,
            kind,
            piece_limit(base.variant(), kind).saturating_sub(used),
        );
    }
    if hands.is_empty() {
        hands.push('-');
    }
    let fields: Vec<&str> = sfen.split_ascii_whitespace().collect();
    let board = fields.first().copied().unwrap_or_default();
    let side = fields.get(1).copied().unwrap_or("b");
    let number = fields.get(3).copied().unwrap_or("1");
    Position::from_sfen_tsume(&format!("{board} {side} {hands} {number}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_match_the_slow_filter() {
        for sfen in [
            "ln1g3nl/1r1s1kgs1/p1pppp1pp/6p2/1p7/2P6/PPBPPPPPP/1S5R1/LN1GKGSNL b B 1",
            "4k4/9/4P4/9/9/9/9/9/4K4 b GSNLPrb 1",
            "3gkg3/9/4P4/4L4/9/9/9/9/4K4 b N 1",
            "8k/8p/9/7N1/9/9/9/9/K3B3R b - 1",
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            let fast: Vec<Move> = checks(&pos).into_iter().collect();
            let slow: Vec<Move> = pos
                .legal_moves()
                .into_iter()
                .filter(|&m| pos.gives_check(m))
                .collect();
            assert_eq!(fast, slow, "{sfen}");
        }
        // Seeded random playouts: every position on the way.
        let mut rng = fastrand::Rng::with_seed(8);
        let mut seen = 0;
        for _ in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                let fast: Vec<Move> = checks(&pos).into_iter().collect();
                let slow: Vec<Move> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|&m| pos.gives_check(m))
                    .collect();
                assert_eq!(fast, slow, "{}", pos.to_sfen());
                seen += fast.len();
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer captures and checks so that the game gets sharp.
                let sharp: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| pos.is_capture(m) || fast.contains(&m))
                    .collect();
                let pool = if !sharp.is_empty() && rng.bool() {
                    sharp
                } else {
                    moves.to_vec()
                };
                pos.play_unchecked(pool[rng.usize(..pool.len())]);
            }
        }
        assert!(seen > 1000, "only {seen} checks seen");
    }

    #[test]
    fn composed_gives_the_defender_the_rest() {
        let p = composed("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
        assert_eq!(p.to_sfen(), "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    }

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap()
    }

    fn mv(s: &str) -> Move {
        Move::from_usi(s).unwrap()
    }

    #[test]
    fn head_gold_mates_in_one() {
        let p = pos("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
        let mut s = MateSolver::new(10_000);
        assert_eq!(s.shortest(&p, 9), Some(Some(1)));
        assert_eq!(s.mating_moves(&p, 1), Some(vec![mv("G*5b")]));
        assert_eq!(s.is_unique_mating_move(&p, mv("G*5b"), 1), Some(true));
        assert_eq!(
            solve(&p, 10_000, 13),
            Verdict::Mate {
                plies: 1,
                line: vec![mv("G*5b")]
            }
        );
    }

    #[test]
    fn a_pawn_drop_mate_is_no_mate() {
        // P*1b would mate (the silver guards 1b and 2b, the knight blocks 2a
        // and cannot take): uchifuzume, so it is not a move at all.
        let p = pos("7nk/9/7S1/9/9/9/9/9/K8 b P 1");
        let drop = mv("P*1b");
        assert!(!p.is_legal(drop));
        assert!(p.after(drop).is_checkmate(), "the trap: it would mate");
        let mut s = MateSolver::new(100_000);
        assert_eq!(s.mate_within(&p, 1), Some(false));
        assert!(!s.mating_moves(&p, 3).unwrap().contains(&drop));
        // A pawn *move* that mates is fine, promoted or not.
        let q = pos("7nk/9/7SP/9/9/9/9/9/K8 b - 1");
        let mut s = MateSolver::new(100_000);
        assert_eq!(
            s.mating_moves(&q, 1),
            Some(vec![mv("1c1b+"), mv("1c1b"), mv("2c1b+")])
        );
    }

    #[test]
    fn no_mate_is_proven_within_a_node_limit() {
        let bare = pos("4k4/9/9/9/9/9/9/9/4K4 b - 1");
        assert_eq!(solve(&bare, 1_000, 13), Verdict::NoMate);
        let open = pos("9/9/9/9/4k4/9/9/9/4K4 b G 1");
        let mut df = Dfpn::new(100_000);
        assert_eq!(df.prove(&open), Proof::NoMate);
        let mut s = MateSolver::new(1_000_000);
        assert_eq!(s.shortest(&open, 9), Some(None));
    }

    #[test]
    fn node_limit_gives_unknown() {
        let p = pos("9/9/9/9/4k4/9/9/9/4K4 b 2G2S 1");
        let mut s = MateSolver::new(5);
        assert_eq!(s.shortest(&p, 13), None);
        assert_eq!(solve(&p, 5, 13), Verdict::Unknown);
    }

    #[test]
    fn composed_problem_without_attacker_king() {
        let p = composed("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
        assert_eq!(
            solve(&p, 10_000, 13),
            Verdict::Mate {
                plies: 1,
                line: vec![mv("G*5b")]
            }
        );
    }
}

#[cfg(test)]
mod on_shipped {
    use super::*;

    #[test]
    fn solve_finds_every_shipped_puzzle_exactly() {
        for p in puzzles::shipped() {
            let pos = p.position().unwrap();
            match solve(&pos, 1_000_000, 13) {
                Verdict::Mate { plies, line } => {
                    assert_eq!(plies, p.plies, "{}", p.id);
                    assert_eq!(line[0], p.solution[0], "{}", p.id);
                }
                other => panic!("{}: {other:?}", p.id),
            }
        }
    }

    #[test]
    fn dfpn_proves_every_shipped_puzzle() {
        // With hand domination, proof hands and the step cost df-pn settles
        // every shipped puzzle (the slowest takes a few thousand nodes).
        for p in puzzles::shipped() {
            let pos = p.position().unwrap();
            match Dfpn::new(200_000).prove(&pos) {
                Proof::Mate { line } => assert!(pos.gives_check(line[0]), "{}", p.id),
                other => panic!("{}: {other:?}", p.id),
            }
        }
    }
}
