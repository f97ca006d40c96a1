//! 81-square bitboards (bit *i* = square index *i*, USI order) and the attack
//! tables, all built at compile time.

use super::types::{Color, PieceKind, Square};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub(crate) u128);

const FULL: u128 = (1u128 << 81) - 1;

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const FULL: Bitboard = Bitboard(FULL);

    /// The set holding just `sq`.
    #[inline]
    #[must_use]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline]
    #[must_use]
    pub const fn is_any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    #[must_use]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Number of squares.
    #[inline]
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds more than one square.
    #[inline]
    #[must_use]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest-index square, if any.
    #[inline]
    #[must_use]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The set with `sq` added.
    #[inline]
    #[must_use]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    /// Squares of the given file (1..=9).
    #[must_use]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x1ffu128 << ((file as u32 - 1) * 9))
    }

    /// Squares of the given rank (1..=9).
    #[must_use]
    pub const fn rank(rank: u8) -> Bitboard {
        let mut b = 0u128;
        let mut f = 0;
        while f < 9 {
            b |= 1u128 << (f * 9 + rank as u32 - 1);
            f += 1;
        }
        Bitboard(b)
    }

    /// Squares of ranks `from..=to` (1..=9).
    #[must_use]
    pub const fn ranks(from: u8, to: u8) -> Bitboard {
        let mut b = 0u128;
        let mut r = from;
        while r <= to {
            b |= Bitboard::rank(r).0;
            r += 1;
        }
        Bitboard(b)
    }

    /// For each file that has at least one square in `self`, the whole file.
    #[inline]
    #[must_use]
    pub fn fill_files(self) -> Bitboard {
        let mut out = 0u128;
        let mut b = self.0;
        while b != 0 {
            let f = b.trailing_zeros() / 9;
            let mask = 0x1ffu128 << (f * 9);
            out |= mask;
            b &= !mask;
        }
        Bitboard(out)
    }
}

impl std::ops::BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & o.0)
    }
}
impl std::ops::BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 | o.0)
    }
}
impl std::ops::BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ o.0)
    }
}
impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & FULL)
    }
}
impl std::ops::BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, o: Bitboard) {
        self.0 &= o.0;
    }
}
impl std::ops::BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, o: Bitboard) {
        self.0 |= o.0;
    }
}
impl std::ops::BitXorAssign for Bitboard {
    #[inline]
    fn bitxor_assign(&mut self, o: Bitboard) {
        self.0 ^= o.0;
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Square::new_unchecked(i as u8))
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in 1..=9 {
            for file in (1..=9).rev() {
                let sq = Square::new(file, rank).expect("on board");
                f.write_str(if self.has(sq) { "x" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Compile-time tables.

/// Direction deltas as (file, rank) steps. Ranks grow towards Sente (down).
/// Order: N, NE, E, SE, S, SW, W, NW, where N is towards rank a and E towards file 1.
const DIRS: [(i8, i8); 8] = [
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
];
/// Which directions move to higher square indices (first blocker = lowest bit).
const DIR_POSITIVE: [bool; 8] = [false, false, false, false, true, true, true, true];
const N: usize = 0;
const NE: usize = 1;
const E: usize = 2;
const SE: usize = 3;
const S: usize = 4;
const SW: usize = 5;
const W: usize = 6;
const NW: usize = 7;

const fn offset(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let f = (sq / 9) as i8 + df;
    let r = (sq % 9) as i8 + dr;
    if f >= 0 && f < 9 && r >= 0 && r < 9 {
        Some(f as usize * 9 + r as usize)
    } else {
        None
    }
}

const fn build_rays() -> [[u128; 81]; 8] {
    let mut t = [[0u128; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 81 {
            let mut cur = sq;
            let mut b = 0u128;
            while let Some(n) = offset(cur, DIRS[d].0, DIRS[d].1) {
                b |= 1u128 << n;
                cur = n;
            }
            t[d][sq] = b;
            sq += 1;
        }
        d += 1;
    }
    t
}

static RAYS: [[u128; 81]; 8] = build_rays();

/// Steps of each piece kind for Sente, as direction indices, plus knight jumps.
const fn step_bits(sq: usize, kind: PieceKind, color: Color) -> u128 {
    // Sente-relative (df, dr) steps; Gote mirrors dr and df.
    let steps: &[(i8, i8)] = match kind {
        PieceKind::Pawn | PieceKind::Lance => &[(0, -1)],
        PieceKind::Knight => &[(1, -2), (-1, -2)],
        PieceKind::Silver => &[(0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)],
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => &[(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)],
        PieceKind::King | PieceKind::Horse | PieceKind::Dragon => &[
            (0, -1),
            (1, -1),
            (-1, -1),
            (1, 0),
            (-1, 0),
            (0, 1),
            (1, 1),
            (-1, 1),
        ],
        PieceKind::Bishop | PieceKind::Rook => &[],
    };
    let sign: i8 = match color {
        Color::Sente => 1,
        Color::Gote => -1,
    };
    let mut b = 0u128;
    let mut i = 0;
    while i < steps.len() {
        if let Some(n) = offset(sq, steps[i].0 * sign, steps[i].1 * sign) {
            b |= 1u128 << n;
        }
        i += 1;
    }
    b
}

const fn build_steps() -> [[[u128; 81]; 14]; 2] {
    let mut t = [[[0u128; 81]; 14]; 2];
    let mut c = 0;
    while c < 2 {
        let color = if c == 0 { Color::Sente } else { Color::Gote };
        let mut k = 0;
        while k < 14 {
            let kind = PieceKind::ALL[k];
            let mut sq = 0;
            while sq < 81 {
                t[c][k][sq] = step_bits(sq, kind, color);
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// Non-sliding attacks; for horse and dragon, the king-like step part only;
/// for lance, the single forward step.
static STEPS: [[[u128; 81]; 14]; 2] = build_steps();

const fn build_between() -> [[u128; 81]; 81] {
    let rays = build_rays();
    let mut t = [[0u128; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let mut cur = a;
            let mut between = 0u128;
            while let Some(n) = offset(cur, DIRS[d].0, DIRS[d].1) {
                t[a][n] = between;
                between |= 1u128 << n;
                cur = n;
            }
            d += 1;
        }
        a += 1;
    }
    let _ = rays;
    t
}

/// Squares strictly between two squares on a line (empty if not aligned).
static BETWEEN: [[u128; 81]; 81] = build_between();

const fn build_line() -> [[u128; 81]; 81] {
    let rays = build_rays();
    let mut t = [[0u128; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let opposite = (d + 4) % 8;
            let full = rays[d][a] | rays[opposite][a] | (1u128 << a);
            let mut ray = rays[d][a];
            while ray != 0 {
                let n = ray.trailing_zeros() as usize;
                t[a][n] = full;
                ray &= ray - 1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

/// The whole line through two aligned squares (empty if not aligned).
static LINE: [[u128; 81]; 81] = build_line();

#[inline]
fn ray_attack(dir: usize, sq: Square, occ: Bitboard) -> Bitboard {
    let ray = RAYS[dir][sq.index()];
    let blockers = ray & occ.0;
    if blockers == 0 {
        return Bitboard(ray);
    }
    let b = if DIR_POSITIVE[dir] {
        blockers.trailing_zeros() as usize
    } else {
        127 - blockers.leading_zeros() as usize
    };
    Bitboard(ray ^ RAYS[dir][b])
}

/// Squares a rook on `sq` attacks with pieces on `occ`.
#[inline]
#[must_use]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    ray_attack(N, sq, occ)
        | ray_attack(S, sq, occ)
        | ray_attack(E, sq, occ)
        | ray_attack(W, sq, occ)
}

/// Squares a bishop on `sq` attacks with pieces on `occ`.
#[inline]
#[must_use]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    ray_attack(NE, sq, occ)
        | ray_attack(SE, sq, occ)
        | ray_attack(SW, sq, occ)
        | ray_attack(NW, sq, occ)
}

/// Squares a lance of `color` on `sq` attacks with pieces on `occ`.
#[inline]
#[must_use]
pub fn lance_attacks(color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match color {
        Color::Sente => ray_attack(N, sq, occ),
        Color::Gote => ray_attack(S, sq, occ),
    }
}

/// The squares a lance of `color` on `sq` could reach on an empty board.
#[inline]
#[must_use]
pub fn lance_ray(color: Color, sq: Square) -> Bitboard {
    Bitboard(match color {
        Color::Sente => RAYS[N][sq.index()],
        Color::Gote => RAYS[S][sq.index()],
    })
}

/// Rook moves on an empty board.
#[inline]
#[must_use]
pub fn rook_pseudo(sq: Square) -> Bitboard {
    let i = sq.index();
    Bitboard(RAYS[N][i] | RAYS[S][i] | RAYS[E][i] | RAYS[W][i])
}

/// Bishop moves on an empty board.
#[inline]
#[must_use]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    let i = sq.index();
    Bitboard(RAYS[NE][i] | RAYS[SE][i] | RAYS[SW][i] | RAYS[NW][i])
}

/// Non-sliding steps of a piece (see [`attacks`] for the full set).
#[inline]
#[must_use]
pub fn step_attacks(color: Color, kind: PieceKind, sq: Square) -> Bitboard {
    Bitboard(STEPS[color.index()][kind.index()][sq.index()])
}

/// King steps from `sq`.
#[inline]
#[must_use]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(STEPS[0][PieceKind::King.index()][sq.index()])
}

/// Squares a piece attacks (for sliders, given the occupancy `occ`).
#[inline(always)]
#[must_use]
pub fn attacks(color: Color, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Lance => lance_attacks(color, sq, occ),
        PieceKind::Bishop => bishop_attacks(sq, occ),
        PieceKind::Rook => rook_attacks(sq, occ),
        PieceKind::Horse => bishop_attacks(sq, occ) | king_attacks(sq),
        PieceKind::Dragon => rook_attacks(sq, occ) | king_attacks(sq),
        _ => step_attacks(color, kind, sq),
    }
}

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
#[must_use]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The full line (rank, file or diagonal) through `a` and `b`, or empty.
#[inline]
#[must_use]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rook_on_empty_board_sees_16_squares() {
        assert_eq!(rook_attacks(Square::SQ_5E, Bitboard::EMPTY).count(), 16);
        assert_eq!(bishop_attacks(Square::SQ_5E, Bitboard::EMPTY).count(), 16);
        assert_eq!(bishop_attacks(Square::SQ_1A, Bitboard::EMPTY).count(), 8);
    }

    #[test]
    fn sliders_stop_at_first_blocker() {
        let occ = Bitboard::from_square(Square::SQ_5C).with(Square::SQ_2E);
        let a = rook_attacks(Square::SQ_5E, occ);
        assert!(a.has(Square::SQ_5C));
        assert!(!a.has(Square::SQ_5B));
        assert!(a.has(Square::SQ_2E));
        assert!(!a.has(Square::SQ_1E));
        assert!(a.has(Square::SQ_9E));
        assert_eq!(a.count(), 2 + 3 + 4 + 4);
    }

    #[test]
    fn knight_jumps_forward() {
        let s = step_attacks(Color::Sente, PieceKind::Knight, Square::SQ_5E);
        assert_eq!(s, Bitboard::from_square(Square::SQ_4C).with(Square::SQ_6C));
        let g = step_attacks(Color::Gote, PieceKind::Knight, Square::SQ_5E);
        assert_eq!(g, Bitboard::from_square(Square::SQ_4G).with(Square::SQ_6G));
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(Square::SQ_5A, Square::SQ_5E).count(), 3);
        assert_eq!(between(Square::SQ_1A, Square::SQ_9I).count(), 7);
        assert!(between(Square::SQ_1A, Square::SQ_2C).is_empty());
        assert_eq!(line(Square::SQ_5A, Square::SQ_5E), Bitboard::file(5));
        assert!(line(Square::SQ_1A, Square::SQ_2C).is_empty());
    }

    #[test]
    fn fill_files() {
        let b = Bitboard::from_square(Square::SQ_3C).with(Square::SQ_7I);
        assert_eq!(b.fill_files(), Bitboard::file(3) | Bitboard::file(7));
    }
}
