//! Static evaluation: material (pieces in hand worth more than on the board),
//! piece placement relative to both kings, slider mobility, pawn advance,
//! king placement and king safety: attack units around each king, the safe
//! checks the enemy could give it (by board moves and by drops) and its
//! flight squares, each weighted differently for the side to move's king
//! and the other.
//!
//! Scores are centipawn-like integers from the point of view of the side to
//! move. The same function serves 9×9 and minishogi.
//!
//! The evaluation is linear in its weights: every term is "weight × count"
//! for one entry of the flat table [`WEIGHTS`] (laid out by [`layout`]). The
//! one walk over the position, [`walk`], either sums the weights (the
//! engine's [`evaluate`]) or records the counts ([`features`]) so that
//! `scripts/tune/` can fit the table to a stronger engine's scores; both share
//! the same code, so the tuned table means exactly what the engine computes.
//!
//! [`evaluate`] adds the correction of a small network ([`super::nn`]) to
//! this linear part ([`evaluate_linear`]); the search keeps the network's
//! sums up to date move by move instead of calling [`evaluate`].

use crate::shogi::{
    attacks, bishop_attacks, king_attacks, lance_ray, rook_attacks, step_attacks, Bitboard, Color,
    Move, PieceKind, Position, Square,
};

pub use super::weights::WEIGHTS;

/// Where each group of weights starts in [`WEIGHTS`], and how long it is.
pub mod layout {
    /// A piece standing on the board, by [`crate::shogi::PieceKind::index`] (the king's entry stays 0).
    pub const PIECE: usize = 0;
    /// A piece in hand, by hand kind index.
    pub const HAND: usize = PIECE + 14;
    /// Each copy of a hand kind beyond the first.
    pub const HAND_MORE: usize = HAND + 7;
    /// Each pawn in hand beyond the fourth.
    pub const PAWN_GLUT: usize = HAND_MORE + 7;
    /// A piece by kind and Chebyshev distance (0..8) to its own king.
    pub const OWN_KING: usize = PAWN_GLUT + 1;
    /// A piece by kind and Chebyshev distance (0..8) to the enemy king.
    pub const THEIR_KING: usize = OWN_KING + 14 * 9;
    /// Squares a lance, bishop, rook, horse or dragon attacks (0..16, capped).
    pub const MOBILITY: usize = THEIR_KING + 14 * 9;
    /// A pawn by rank counted from the enemy's back rank (1..9 → 0..8);
    /// the first nine for pawns near the own king, the next nine for the rest.
    pub const PAWN_RANK: usize = MOBILITY + 5 * 17;
    /// The king by relative rank (1..9) and file folded to 1..5 (9×9 only).
    pub const KING_SQUARE: usize = PAWN_RANK + 18;
    /// Danger around a king, by attack units (0..40, capped).
    pub const DANGER: usize = KING_SQUARE + 45;
    /// Having the move.
    pub const TEMPO: usize = DANGER + 41;
    /// A piece by kind and place next to its own king: file distance 0..2
    /// times rank offset −2..2 (positive: in front, as the king sees it).
    pub const OWN_NEAR: usize = TEMPO + 1;
    /// The same next to the enemy king (as the enemy king sees it).
    pub const THEIR_NEAR: usize = OWN_NEAR + 14 * 15;
    /// A piece of the side to move that is attacked and not defended.
    pub const HANGING_US: usize = THEIR_NEAR + 14 * 15;
    /// A piece of the side not to move that is attacked and not defended.
    pub const HANGING_THEM: usize = HANGING_US + 14;
    /// Danger around the king of the side not to move (`DANGER` is the
    /// side to move's): the side to move is the one that can strike first.
    pub const DANGER_THEM: usize = HANGING_THEM + 14;
    /// Safe checks the side not to move could give the side to move's king,
    /// by checking kind (a drop counts as its kind): 1, 2 or 3+ squares.
    pub const CHECKS_US: usize = DANGER_THEM + 41;
    /// Safe checks the side to move could give the other king.
    pub const CHECKS_THEM: usize = CHECKS_US + 14 * 3;
    /// Squares next to the side to move's king it could step to (0..8).
    pub const ESCAPE_US: usize = CHECKS_THEM + 14 * 3;
    /// The same for the other king.
    pub const ESCAPE_THEM: usize = ESCAPE_US + 9;
    /// Number of weights.
    pub const LEN: usize = ESCAPE_THEM + 9;

    /// The groups, for tools that print or fit the table.
    pub const GROUPS: [(&str, usize, usize); 20] = [
        ("piece", PIECE, 14),
        ("hand", HAND, 7),
        ("hand_more", HAND_MORE, 7),
        ("pawn_glut", PAWN_GLUT, 1),
        ("own_king", OWN_KING, 14 * 9),
        ("their_king", THEIR_KING, 14 * 9),
        ("mobility", MOBILITY, 5 * 17),
        ("pawn_rank", PAWN_RANK, 18),
        ("king_square", KING_SQUARE, 45),
        ("danger", DANGER, 41),
        ("tempo", TEMPO, 1),
        ("own_near", OWN_NEAR, 14 * 15),
        ("their_near", THEIR_NEAR, 14 * 15),
        ("hanging_us", HANGING_US, 14),
        ("hanging_them", HANGING_THEM, 14),
        ("danger_them", DANGER_THEM, 41),
        ("checks_us", CHECKS_US, 14 * 3),
        ("checks_them", CHECKS_THEM, 14 * 3),
        ("escape_us", ESCAPE_US, 9),
        ("escape_them", ESCAPE_THEM, 9),
    ];
}

/// Receives the terms of the evaluation: `n` times weight `index`, for the
/// side set by the last [`Sink::side`] (+1: the side to move, −1: the other).
pub trait Sink {
    /// The terms that follow count with this sign.
    fn side(&mut self, sign: i32);
    /// Adds `n` times the weight at `index`.
    fn add(&mut self, index: usize, n: i32);
}

/// Sums weights: the engine's evaluation. Each side's terms are summed
/// unsigned and the sign applied once (most terms are `1 × weight`).
struct Sum<'w> {
    weights: &'w [i32; layout::LEN],
    total: i32,
    part: i32,
    sign: i32,
}

impl Sum<'_> {
    #[inline(always)]
    fn finish(&mut self) -> i32 {
        self.side(0);
        self.total
    }
}

impl Sink for Sum<'_> {
    #[inline(always)]
    fn side(&mut self, sign: i32) {
        self.total += self.sign * self.part;
        self.part = 0;
        self.sign = sign;
    }

    #[inline(always)]
    fn add(&mut self, index: usize, n: i32) {
        self.part += self.weights[index] * n;
    }
}

/// Counts: how often each weight enters the evaluation of a position.
struct Count {
    counts: Vec<i32>,
    sign: i32,
}

impl Sink for Count {
    fn side(&mut self, sign: i32) {
        self.sign = sign;
    }

    fn add(&mut self, index: usize, n: i32) {
        self.counts[index] += self.sign * n;
    }
}

/// Value of a piece standing on the board, indexed by [`PieceKind::index`].
pub const BOARD_VALUE: [i32; 14] = {
    let mut v = [0; 14];
    let mut i = 0;
    while i < 14 {
        v[i] = WEIGHTS[layout::PIECE + i];
        i += 1;
    }
    v
};

/// Value of a piece held in hand, indexed by [`PieceKind::index`] (hand kinds only).
pub const HAND_VALUE: [i32; 7] = {
    let mut v = [0; 7];
    let mut i = 0;
    while i < 7 {
        v[i] = WEIGHTS[layout::HAND + i];
        i += 1;
    }
    v
};

/// The value used to order captures and to judge exchanges (kings count big).
#[must_use]
pub fn exchange_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => 20_000,
        k => BOARD_VALUE[k.index()],
    }
}

/// What capturing a piece of `kind` swings in material: it leaves the board
/// and joins the capturer's hand.
#[inline]
pub(crate) fn taken_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => exchange_value(kind),
        k => BOARD_VALUE[k.index()] + HAND_VALUE[k.unpromote().index()],
    }
}

/// Static exchange evaluation of `mv` for the side to move: the material it
/// wins (positive) or loses (negative) when both sides keep recapturing on
/// the target square with their least valuable attacker, each free to stop.
/// A drop starts with nothing captured; a promoting move puts the promoted
/// piece on the square (later promotions are ignored). Pieces behind a
/// capturer join in (x-rays).
#[must_use]
pub fn see(pos: &Position, mv: Move) -> i32 {
    let (to, mut on_square, mut occ, first) = match mv {
        Move::Normal { from, to, promote } => {
            let Some(p) = pos.piece_at(from) else {
                return 0;
            };
            let kind = if promote {
                p.kind.promote().unwrap_or(p.kind)
            } else {
                p.kind
            };
            let victim = pos.piece_at(to).map_or(0, |v| taken_value(v.kind));
            (to, kind, pos.occupied().without(from), victim)
        }
        Move::Drop { kind, to } => (to, kind, pos.occupied(), 0),
    };
    let mut gain = [0i32; 40];
    gain[0] = first;
    let mut side = !pos.side_to_move();
    let mut d = 0;
    while d + 1 < gain.len() {
        // The least valuable attacker of `side` still on the board.
        let mut best: Option<(Square, PieceKind)> = None;
        for sq in pos.attackers_to(to, side, occ) & occ {
            if let Some(p) = pos.piece_at(sq) {
                if best.is_none_or(|(_, k)| exchange_value(p.kind) < exchange_value(k)) {
                    best = Some((sq, p.kind));
                }
            }
        }
        let Some((sq, kind)) = best else { break };
        d += 1;
        gain[d] = taken_value(on_square) - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        on_square = kind;
        occ = occ.without(sq);
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Weight of each hand kind as a threat to the enemy king (drops near it).
const HAND_THREAT: [i32; 7] = [1, 2, 3, 3, 3, 3, 4];

/// Where `sq` stands relative to the king on `king` owned by `owner`: the
/// Chebyshev distance (0..8; 8 without a king) and the cell in the 3×5
/// window next to the king (see [`layout::OWN_NEAR`]), if it is inside.
/// Read from [`KING_REL`]: the evaluation asks twice for every piece.
#[inline]
fn from_king(sq: Square, king: Option<Square>, owner: Color) -> (usize, Option<usize>) {
    let Some(k) = king else {
        return (8, None);
    };
    let v = KING_REL[owner.index()][k.index()][sq.index()];
    let cell = v >> 4;
    (
        usize::from(v & 15),
        (cell != NO_CELL).then_some(usize::from(cell)),
    )
}

/// The cell of a square outside the window next to the king.
const NO_CELL: u8 = 15;

/// [`from_king`] for every owner ([`Color::index`]), king square and
/// square, computed by [`king_rel`]: the distance in the low four bits, the
/// cell (or [`NO_CELL`]) in the high four.
static KING_REL: [[[u8; 81]; 81]; 2] = {
    let mut t = [[[0u8; 81]; 81]; 2];
    let mut owner = 0;
    while owner < 2 {
        let mut k = 0;
        while k < 81 {
            let mut sq = 0;
            while sq < 81 {
                let (d, cell) = king_rel(sq as i32, k as i32, owner == 1);
                t[owner][k][sq] = d as u8 | (cell as u8) << 4;
                sq += 1;
            }
            k += 1;
        }
        owner += 1;
    }
    t
};

/// The distance and cell ([`NO_CELL`] outside) of the square with index
/// `sq` from the king on index `k` (index: `(file − 1) · 9 + rank − 1`),
/// seen by Gote's king if `gote`.
const fn king_rel(sq: i32, k: i32, gote: bool) -> (i32, i32) {
    let df = (sq / 9 - k / 9).abs();
    let dr = if gote { sq % 9 - k % 9 } else { k % 9 - sq % 9 };
    let far = if df > dr.abs() { df } else { dr.abs() };
    let d = if far > 8 { 8 } else { far };
    let cell = if d <= 2 && df <= 2 {
        df * 5 + dr + 2
    } else {
        NO_CELL as i32
    };
    (d, cell)
}

/// The mobility table of a slider kind, if it has one.
#[inline]
fn mobility_slot(kind: PieceKind) -> Option<usize> {
    match kind {
        PieceKind::Lance => Some(0),
        PieceKind::Bishop => Some(1),
        PieceKind::Rook => Some(2),
        PieceKind::Horse => Some(3),
        PieceKind::Dragon => Some(4),
        _ => None,
    }
}

/// The evaluation from the side to move's point of view: the linear part
/// and the network's correction.
#[must_use]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_linear(pos) + super::nn::correction(pos)
}

/// The linear part of [`evaluate`]: the weight table's dot product with
/// [`features`], without the network's correction ([`super::nn`]).
#[must_use]
pub fn evaluate_linear(pos: &Position) -> i32 {
    let mut sum = Sum {
        weights: &WEIGHTS,
        total: 0,
        part: 0,
        sign: 1,
    };
    walk(pos, &mut sum);
    sum.finish()
}

/// How often each weight enters [`evaluate`] for `pos`: the evaluation is the
/// dot product of this vector with [`WEIGHTS`].
#[must_use]
pub fn features(pos: &Position) -> Vec<i32> {
    let mut count = Count {
        counts: vec![0; layout::LEN],
        sign: 1,
    };
    walk(pos, &mut count);
    count.counts
}

/// The one walk over the position behind [`evaluate`] and [`features`].
fn walk<S: Sink>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    // Attack maps of both sides: squares attacked at least once / twice.
    let mut att1 = [Bitboard::EMPTY; 2];
    let mut att2 = [Bitboard::EMPTY; 2];
    let mut by_kind = [[Bitboard::EMPTY; 14]; 2];
    for c in Color::ALL {
        sink.side(if c == us { 1 } else { -1 });
        let i = c.index();
        side_terms(pos, c, sink, &mut att1[i], &mut att2[i], &mut by_kind[i]);
    }
    let mask = pos.board_mask();
    for c in Color::ALL {
        sink.side(if c == us { 1 } else { -1 });
        let them = (!c).index();
        let hanging = if c == us {
            layout::HANGING_US
        } else {
            layout::HANGING_THEM
        };
        for sq in pos.pieces_of(c) & att1[them] & !att1[c.index()] {
            if let Some(p) = pos.piece_at(sq) {
                sink.add(hanging + p.kind.index(), 1);
            }
        }
        let maps = AttackMaps {
            their1: att1[them],
            their2: att2[them],
            own1: att1[c.index()],
            own2: att2[c.index()],
            their_kinds: &by_kind[them],
        };
        if let Some(k) = king_safety(pos, c, &maps, mask) {
            let (danger, checks, escape) = if c == us {
                (layout::DANGER, layout::CHECKS_US, layout::ESCAPE_US)
            } else {
                (
                    layout::DANGER_THEM,
                    layout::CHECKS_THEM,
                    layout::ESCAPE_THEM,
                )
            };
            sink.add(danger + k.units.min(40) as usize, 1);
            for (kind, &n) in k.checks.iter().enumerate() {
                if n > 0 {
                    sink.add(checks + kind * 3 + usize::from(n.min(3)) - 1, 1);
                }
            }
            sink.add(escape + k.escape as usize, 1);
        }
    }
    sink.side(1);
    sink.add(layout::TEMPO, 1);
}

/// The evaluation from Sente's point of view (for graphs and analysis).
#[must_use]
pub fn evaluate_sente(pos: &Position) -> i32 {
    let e = evaluate(pos);
    match pos.side_to_move() {
        Color::Sente => e,
        Color::Gote => -e,
    }
}

/// Material only (board and hands) for `c`.
#[must_use]
pub fn material(pos: &Position, c: Color) -> i32 {
    let mut s = 0;
    for kind in PieceKind::ALL {
        s += BOARD_VALUE[kind.index()] * pos.pieces(c, kind).count() as i32;
    }
    for (kind, n) in pos.hand(c).iter() {
        s += HAND_VALUE[kind.index()] * i32::from(n);
    }
    s
}

fn side_terms<S: Sink>(
    pos: &Position,
    c: Color,
    sink: &mut S,
    att1: &mut Bitboard,
    att2: &mut Bitboard,
    by_kind: &mut [Bitboard; 14],
) {
    let them = !c;
    let own_king = pos.king_square(c);
    let their_king = pos.king_square(them);
    let occ = pos.occupied();
    let mask = pos.board_mask();
    let size = pos.variant().size();

    for kind in PieceKind::ALL {
        let bb = pos.pieces(c, kind);
        if bb.is_empty() {
            continue;
        }
        let k = kind.index();
        sink.add(layout::PIECE + k, bb.count() as i32);
        for sq in bb {
            let a = attacks(c, kind, sq, occ) & mask;
            *att2 |= *att1 & a;
            *att1 |= a;
            by_kind[k] |= a;
            if kind == PieceKind::King {
                if size == 9 {
                    let r = usize::from(sq.relative_rank(c, size)) - 1;
                    let f = usize::from(sq.file().min(10 - sq.file())) - 1;
                    sink.add(layout::KING_SQUARE + r * 5 + f, 1);
                }
                continue;
            }
            let (dm, own_cell) = from_king(sq, own_king, c);
            let (de, their_cell) = from_king(sq, their_king, them);
            sink.add(layout::OWN_KING + k * 9 + dm, 1);
            sink.add(layout::THEIR_KING + k * 9 + de, 1);
            if let Some(cell) = own_cell {
                sink.add(layout::OWN_NEAR + k * 15 + cell, 1);
            }
            if let Some(cell) = their_cell {
                sink.add(layout::THEIR_NEAR + k * 15 + cell, 1);
            }
            if let Some(slot) = mobility_slot(kind) {
                let m = (a.count() as usize).min(16);
                sink.add(layout::MOBILITY + slot * 17 + m, 1);
            } else if kind == PieceKind::Pawn {
                // Ranks counted from the enemy's back rank on a 9-rank scale.
                let r = usize::from(sq.relative_rank(c, size) + 9 - size) - 1;
                let near = if dm < 3 { 0 } else { 9 };
                sink.add(layout::PAWN_RANK + near + r, 1);
            }
        }
    }
    for (kind, n) in pos.hand(c).iter() {
        let n = i32::from(n);
        let k = kind.index();
        sink.add(layout::HAND + k, n);
        if n > 1 {
            sink.add(layout::HAND_MORE + k, n - 1);
        }
        if kind == PieceKind::Pawn && n > 4 {
            sink.add(layout::PAWN_GLUT, n - 4);
        }
    }
}

/// The attack maps [`king_safety`] reads: the enemy's (`their1`: squares
/// attacked at least once, `their2`: at least twice, `their_kinds`: by
/// attacking kind) and the own side's (the king itself covers every square
/// next to it).
struct AttackMaps<'a> {
    their1: Bitboard,
    their2: Bitboard,
    own1: Bitboard,
    own2: Bitboard,
    their_kinds: &'a [Bitboard; 14],
}

/// What threatens one king.
struct KingSafety {
    /// Attack units (see [`king_safety`]).
    units: i32,
    /// Safe checking squares by checking kind.
    checks: [u8; 14],
    /// Squares next to the king it could step to.
    escape: u32,
}

/// Attack units against `c`'s king, the enemy's safe checks and the king's
/// flight squares; `None` without a king.
///
/// A check is safe when nothing of `c` covers the square, or the enemy covers
/// it more often than `c` does (a board move needs a second attacker behind
/// the piece that moves; a drop needs one). A drop counts as a check of its
/// kind, where the rules let that kind stand (pawns: not on a file with the
/// enemy's unpromoted pawn).
fn king_safety(pos: &Position, c: Color, m: &AttackMaps<'_>, mask: Bitboard) -> Option<KingSafety> {
    let k = pos.king_square(c)?;
    let t = !c;
    let occ = pos.occupied();
    let zone = king_attacks(k) & mask;
    let attacked = (zone & m.their1).count() as i32 + (zone & m.their2).count() as i32;
    let overwhelmed = (zone & m.their1 & !m.own2).count() as i32;
    let holes = (zone & !m.their1 & !occ).count() as i32;
    let mut threat = 0;
    for (kind, n) in pos.hand(t).iter() {
        threat += HAND_THREAT[kind.index()] * i32::from(n.min(2));
    }
    if threat > 0 && holes > 0 {
        threat += holes.min(4);
    }

    let board_safe = mask & !pos.pieces_of(t) & (!m.own1 | (m.their2 & !m.own2));
    let drop_safe = mask & !occ & (!m.own1 | (m.their1 & !m.own2));
    let mut checks = [0u8; 14];
    let mut total = 0;
    // What a piece of each kind standing on the king's square would attack:
    // the two slider patterns once, every slider kind built from them.
    let rook_from = rook_attacks(k, occ);
    let bishop_from = bishop_attacks(k, occ);
    for kind in PieceKind::ALL {
        if kind == PieceKind::King {
            continue;
        }
        let i = kind.index();
        let on_board = m.their_kinds[i] & board_safe;
        let in_hand = kind.is_hand_kind() && pos.hand(t).count(kind) > 0;
        if on_board.is_empty() && !in_hand {
            continue;
        }
        let from = match kind {
            PieceKind::Lance => rook_from & lance_ray(c, k),
            PieceKind::Bishop => bishop_from,
            PieceKind::Rook => rook_from,
            PieceKind::Horse => bishop_from | king_attacks(k),
            PieceKind::Dragon => rook_from | king_attacks(k),
            _ => step_attacks(c, kind, k),
        } & mask;
        let mut n = (from & on_board).count();
        if in_hand {
            for sq in from & drop_safe {
                let nifu = kind == PieceKind::Pawn
                    && pos
                        .pieces(t, PieceKind::Pawn)
                        .into_iter()
                        .any(|p| p.file() == sq.file());
                if !nifu {
                    n += 1;
                }
            }
        }
        if n > 0 {
            checks[i] = n.min(255) as u8;
            total += n as i32;
        }
    }
    let escape = (zone & !pos.pieces_of(c) & !m.their1).count();
    Some(KingSafety {
        units: attacked + 2 * overwhelmed + threat / 2 + total,
        checks,
        escape,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The table behind `from_king` against the arithmetic on files and
    /// ranks it replaced, for every owner, king square and square.
    #[test]
    fn king_relative_places_match_files_and_ranks() {
        for owner in Color::ALL {
            for k in (0..81).filter_map(Square::from_index) {
                for sq in (0..81).filter_map(Square::from_index) {
                    let df = (i32::from(sq.file()) - i32::from(k.file())).unsigned_abs() as usize;
                    let dr = i32::from(k.rank()) - i32::from(sq.rank());
                    let dr = if owner == Color::Sente { dr } else { -dr };
                    let d = df.max(dr.unsigned_abs() as usize).min(8);
                    let cell = (d <= 2 && df <= 2).then(|| df * 5 + (dr + 2) as usize);
                    assert_eq!(
                        from_king(sq, Some(k), owner),
                        (d, cell),
                        "{owner:?} {k:?} {sq:?}"
                    );
                }
            }
            assert_eq!(
                from_king(Square::from_index(40).unwrap(), None, owner),
                (8, None)
            );
        }
    }

    #[test]
    fn start_position_is_balanced() {
        let p = Position::startpos();
        let e = evaluate(&p);
        assert!((0..=60).contains(&e), "start eval {e}");
        let m = Position::minishogi_startpos();
        assert!(evaluate(&m).abs() <= 60);
    }

    #[test]
    fn extra_rook_is_winning() {
        let p =
            Position::from_sfen("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
                .unwrap();
        // More than five pawns' worth (a pawn on the board as the table
        // values it) for the side to move, and for Sente.
        let five_pawns = 5 * WEIGHTS[layout::PIECE + PieceKind::Pawn.index()];
        assert!(
            evaluate(&p) > five_pawns,
            "{} vs {five_pawns}",
            evaluate(&p)
        );
        assert!(evaluate_sente(&p) > five_pawns);
    }

    /// SPEC §4: a piece in hand is worth more than the same piece standing
    /// in the middle of the board (5e). Gote gives up the piece (or both
    /// sides their 5th-file pawn, so that a pawn may stand on 5e).
    #[test]
    fn exchanges() {
        let see_of = |sfen: &str, mv: &str| {
            let p = Position::from_sfen(sfen).unwrap();
            let mv = Move::from_usi(mv).unwrap();
            see(&p, mv)
        };
        let pawn = taken_value(PieceKind::Pawn);
        // Rook takes a pawn defended by a gold: loses the rook for a pawn.
        assert!(see_of("4k4/4g4/4p4/9/9/9/9/4R4/4K4 b - 1", "5h5c") < -500);
        // An undefended pawn is won whole.
        assert_eq!(see_of("4k4/9/4p4/9/9/9/9/4R4/4K4 b - 1", "5h5c"), pawn);
        // Pawn takes a defended silver: wins silver for pawn.
        assert!(see_of("4k4/4g4/4s4/4P4/9/9/9/9/4K4 b - 1", "5d5c") > 300);
        // A lance against a pawn defended by a silver loses; a second lance
        // behind the first (x-ray) makes it win.
        assert!(see_of("4k4/5s3/4p4/9/9/9/9/4L4/8K b - 1", "5h5c") < 0);
        assert!(see_of("4k4/5s3/4p4/9/9/9/9/4L4/4L3K b - 1", "5h5c") > 0);
        // A gold dropped where a pawn takes it is lost; out of reach it is safe.
        assert!(see_of("4k4/9/4p4/9/9/9/9/9/4K4 b G 1", "G*5d") < -500);
        assert_eq!(see_of("4k4/9/4p4/9/9/9/9/9/4K4 b G 1", "G*3d"), 0);
        // The king never walks into a defended square in an exchange.
        assert!(see_of("4k4/9/3g5/4p4/4K4/9/9/9/9 b - 1", "5e5d") < 0);
    }

    /// A piece taken from the other side is worth more in hand than placed
    /// on 5f, where it threatens nothing. (Not 5e: a knight there forks
    /// the pawns on 4c and 6c, and the network rightly values that fork
    /// above a knight in hand.)
    #[test]
    fn hand_piece_worth_more_than_board_piece() {
        let gote = [
            (PieceKind::Pawn, "lnsgkgsnl/1r5b1/pppp1pppp"),
            (PieceKind::Lance, "1nsgkgsnl/1r5b1/ppppppppp"),
            (PieceKind::Knight, "l1sgkgsnl/1r5b1/ppppppppp"),
            (PieceKind::Silver, "ln1gkgsnl/1r5b1/ppppppppp"),
            (PieceKind::Gold, "lns1kgsnl/1r5b1/ppppppppp"),
            (PieceKind::Bishop, "lnsgkgsnl/1r7/ppppppppp"),
            (PieceKind::Rook, "lnsgkgsnl/7b1/ppppppppp"),
        ];
        for (k, top) in gote {
            let c = k.usi_char();
            let pawns = if k == PieceKind::Pawn {
                "PPPP1PPPP"
            } else {
                "PPPPPPPPP"
            };
            let sfen = |mid: &str, hand: &str| {
                format!("{top}/9/9/{mid}/{pawns}/1B5R1/LNSGKGSNL b {hand} 1")
            };
            let hand = Position::from_sfen(&sfen("9", &c.to_string())).unwrap();
            let board = Position::from_sfen(&sfen(&format!("4{c}4"), "-")).unwrap();
            let (h, b) = (evaluate(&hand), evaluate(&board));
            assert!(h > b, "{k:?}: in hand {h}, on 5f {b}");
        }
    }

    /// Safe checks the side to move could give the other king, by kind,
    /// as [`features`] counts them (1, 2, or 3 for three or more; the other
    /// king's terms count −1).
    fn their_checks(sfen: &str, kind: PieceKind) -> i32 {
        let f = features(&Position::from_sfen(sfen).unwrap());
        let at = layout::CHECKS_THEM + kind.index() * 3;
        -(0..3).map(|n| f[at + n] * (n as i32 + 1)).sum::<i32>()
    }

    /// The number of flight squares the other king has, from [`features`].
    fn their_escape(sfen: &str) -> usize {
        let f = features(&Position::from_sfen(sfen).unwrap());
        let row = &f[layout::ESCAPE_THEM..layout::ESCAPE_THEM + 9];
        assert_eq!(row.iter().sum::<i32>(), -1, "{row:?}");
        row.iter().position(|&n| n == -1).unwrap()
    }

    #[test]
    fn safe_checks_and_flight_squares() {
        use PieceKind::{Gold, Pawn, Rook, Silver};
        let checks = [
            // A gold in hand next to a bare king: the king covers every
            // checking square and nothing supports a drop there.
            ("4k4/9/9/9/9/9/9/9/4K4 b G 1", Gold, 0),
            // A pawn on 5c supports the gold on 5b: the head-gold check is safe.
            ("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", Gold, 1),
            // A gote gold on 4a covers 5b a second time: not safe any more.
            ("4kg3/9/4P4/9/9/9/9/9/4K4 b G 1", Gold, 0),
            // A pawn drop on 5b, supported by the silver on 4c, unless Sente
            // already has a pawn on the 5th file (two pawns on a file).
            ("4k4/9/5S3/9/9/9/9/9/4K4 b P 1", Pawn, 1),
            ("4k4/9/5S3/9/9/9/4P4/9/4K4 b P 1", Pawn, 0),
            // The silver on 4c steps to 5b (the pawn on 5c supports it) or
            // to 4b (nothing supports it: the king takes).
            ("4k4/9/4PS3/9/9/9/9/9/4K4 b - 1", Silver, 1),
            // A rook in hand checks from 13 squares on the file and the rank
            // (4a, 6a and 5b are the king's); the table stops counting at 3.
            ("4k4/9/9/9/9/9/9/9/K8 b R 1", Rook, 3),
            ("4k4/9/9/9/9/9/9/9/K8 b - 1", Rook, 0),
        ];
        for (sfen, kind, want) in checks {
            assert_eq!(their_checks(sfen, kind), want, "{sfen} {kind:?}");
        }
        // The king on 5a steps to 4a, 6a, 4b, 5b or 6b; the pawn on 5c
        // takes 5b away, and a gote piece on 4a another.
        assert_eq!(their_escape("4k4/9/9/9/9/9/9/9/4K4 b - 1"), 5);
        assert_eq!(their_escape("4k4/9/4P4/9/9/9/9/9/4K4 b - 1"), 4);
        assert_eq!(their_escape("4kg3/9/4P4/9/9/9/9/9/4K4 b - 1"), 3);
    }

    #[test]
    fn layout_covers_the_table() {
        let mut next = 0;
        for (_, start, len) in layout::GROUPS {
            assert_eq!(start, next);
            next += len;
        }
        assert_eq!(next, layout::LEN);
        assert_eq!(WEIGHTS[layout::PIECE + PieceKind::King.index()], 0);
    }

    /// The SFEN of `sfen` turned round: the board rotated by 180 degrees and
    /// the colours swapped (with `mirror`, only reflected left to right).
    pub(crate) fn turned(sfen: &str, mirror: bool) -> String {
        let f: Vec<&str> = sfen.split(' ').collect();
        let swap = |ch: char| {
            if mirror {
                ch
            } else if ch.is_ascii_uppercase() {
                ch.to_ascii_lowercase()
            } else {
                ch.to_ascii_uppercase()
            }
        };
        let mut ranks: Vec<String> = f[0]
            .split('/')
            .map(|rank| {
                let mut cells: Vec<String> = Vec::new();
                let mut promoted = false;
                for ch in rank.chars() {
                    if ch == '+' {
                        promoted = true;
                        continue;
                    }
                    let p = if promoted { "+" } else { "" };
                    cells.push(format!("{p}{}", swap(ch)));
                    promoted = false;
                }
                cells.reverse();
                cells.concat()
            })
            .collect();
        if !mirror {
            ranks.reverse();
        }
        let side = match (mirror, f[1]) {
            (true, s) => s,
            (false, "b") => "w",
            (false, _) => "b",
        };
        let hand: String = f[2].chars().map(swap).collect();
        format!("{} {side} {hand} {}", ranks.join("/"), f[3])
    }

    /// Nothing in the evaluation depends on the colour or on the board's
    /// side: a position turned round for the other player, or reflected
    /// left to right, evaluates the same for the side to move (over seeded
    /// random games of both variants).
    #[test]
    fn evaluation_is_the_same_for_either_colour_and_side() {
        let seen = crate::shogi::testing::random_positions(11, 20, 120, |p| {
            let sfen = p.to_sfen();
            for mirror in [false, true] {
                let t = Position::from_sfen(&turned(&sfen, mirror)).unwrap();
                assert_eq!(
                    evaluate_linear(&t),
                    evaluate_linear(p),
                    "{sfen} mirror {mirror}"
                );
            }
        });
        assert!(seen > 2_000, "{seen}");
    }

    /// The evaluation is exactly the dot product of the features and the
    /// weights, over positions of seeded random games (both variants).
    #[test]
    fn evaluation_is_the_dot_product_of_features_and_weights() {
        let seen = crate::shogi::testing::random_positions(7, 20, 120, |p| {
            let f = features(p);
            let dot: i32 = f.iter().zip(WEIGHTS.iter()).map(|(a, b)| a * b).sum();
            assert_eq!(dot, evaluate_linear(p), "{}", p.to_sfen());
            assert_eq!(f[layout::TEMPO], 1);
        });
        assert!(seen > 2_000, "{seen}");
    }
}
