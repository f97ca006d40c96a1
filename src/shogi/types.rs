//! Basic value types of the rules core: colours, piece kinds, pieces, squares,
//! hands, moves and the variant (standard 9×9 or 5×5 minishogi).

use std::fmt;

/// A side of the game. Sente moves first in an even game and sits at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Black, ☗, `b` in SFEN; moves first in even games.
    Sente = 0,
    /// White, ☖, `w` in SFEN; the stronger player (and first to move) in handicap games.
    Gote = 1,
}

impl Color {
    /// Both colours, Sente first.
    pub const ALL: [Color; 2] = [Color::Sente, Color::Gote];

    /// The other side.
    #[inline]
    #[must_use]
    pub const fn flip(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }

    /// 0 for Sente, 1 for Gote.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The SFEN letter: `b` or `w`.
    #[must_use]
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Sente => 'b',
            Color::Gote => 'w',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

/// The 14 kinds of shogi pieces, without colour.
///
/// The first seven (`Pawn`..=`Rook`) are the kinds that can be held in hand;
/// their discriminant is the index into a [`Hand`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// Fuhyō 歩: one step forward.
    Pawn = 0,
    /// Kyōsha 香: any distance forward.
    Lance = 1,
    /// Keima 桂: jumps two forward and one sideways.
    Knight = 2,
    /// Ginshō 銀: one step forward or diagonally.
    Silver = 3,
    /// Kinshō 金: one step orthogonally or diagonally forward. Never promotes.
    Gold = 4,
    /// Kakugyō 角: any distance diagonally.
    Bishop = 5,
    /// Hisha 飛: any distance orthogonally.
    Rook = 6,
    /// Ōshō/Gyokushō 王/玉. Never promotes, never captured into a hand.
    King = 7,
    /// Tokin と: promoted pawn, moves like a gold.
    ProPawn = 8,
    /// Narikyō 杏: promoted lance, moves like a gold.
    ProLance = 9,
    /// Narikei 圭: promoted knight, moves like a gold.
    ProKnight = 10,
    /// Narigin 全: promoted silver, moves like a gold.
    ProSilver = 11,
    /// Ryūma 馬: promoted bishop, bishop plus one step orthogonally.
    Horse = 12,
    /// Ryūō 龍: promoted rook, rook plus one step diagonally.
    Dragon = 13,
}

impl PieceKind {
    /// All 14 kinds in discriminant order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The seven kinds that can be in hand, in discriminant order (pawn first).
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ];

    /// Index 0..14.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index, if any.
    #[must_use]
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        if i < 14 {
            Some(Self::ALL[i])
        } else {
            None
        }
    }

    /// The promoted form, or `None` for kinds that cannot promote (gold, king,
    /// already promoted pieces).
    #[must_use]
    pub const fn promote(self) -> Option<PieceKind> {
        match self {
            PieceKind::Pawn => Some(PieceKind::ProPawn),
            PieceKind::Lance => Some(PieceKind::ProLance),
            PieceKind::Knight => Some(PieceKind::ProKnight),
            PieceKind::Silver => Some(PieceKind::ProSilver),
            PieceKind::Bishop => Some(PieceKind::Horse),
            PieceKind::Rook => Some(PieceKind::Dragon),
            _ => None,
        }
    }

    /// The unpromoted form (the kind that goes to hand when captured).
    #[must_use]
    pub const fn unpromote(self) -> PieceKind {
        match self {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            k => k,
        }
    }

    /// Whether this is a promoted kind.
    #[must_use]
    pub const fn is_promoted(self) -> bool {
        self as u8 >= PieceKind::ProPawn as u8
    }

    /// Whether this kind can promote.
    #[must_use]
    pub const fn can_promote(self) -> bool {
        self.promote().is_some()
    }

    /// Whether this kind can be held in hand (and dropped).
    #[must_use]
    pub const fn is_hand_kind(self) -> bool {
        (self as u8) < PieceKind::King as u8
    }

    /// The USI/SFEN letter of an unpromoted kind (uppercase), `+` prefix for
    /// promoted kinds is written by [`Piece::sfen`].
    #[must_use]
    pub const fn usi_char(self) -> char {
        match self.unpromote() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Gold => 'G',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            _ => 'K',
        }
    }

    /// The unpromoted kind for a USI/SFEN letter (either case).
    #[must_use]
    pub const fn from_usi_char(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'P' => Some(PieceKind::Pawn),
            'L' => Some(PieceKind::Lance),
            'N' => Some(PieceKind::Knight),
            'S' => Some(PieceKind::Silver),
            'G' => Some(PieceKind::Gold),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'K' => Some(PieceKind::King),
            _ => None,
        }
    }

    /// Points for the entering-king rules: rook and bishop (promoted or not) 5,
    /// the king 0, every other piece 1.
    #[must_use]
    pub const fn impasse_points(self) -> u32 {
        match self.unpromote() {
            PieceKind::Rook | PieceKind::Bishop => 5,
            PieceKind::King => 0,
            _ => 1,
        }
    }
}

/// A piece of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What it is.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    #[must_use]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// The SFEN text: uppercase for Sente, lowercase for Gote, `+` before promoted kinds.
    #[must_use]
    pub fn sfen(self) -> String {
        let c = self.kind.usi_char();
        let c = match self.color {
            Color::Sente => c,
            Color::Gote => c.to_ascii_lowercase(),
        };
        if self.kind.is_promoted() {
            format!("+{c}")
        } else {
            c.to_string()
        }
    }
}

/// The two board sizes komadai plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// 9×9 shogi under JSA rules.
    #[default]
    Standard,
    /// 5×5 minishogi (files 5..1, ranks a..e); promotion zone is the last rank.
    Minishogi,
}

impl Variant {
    /// Number of files and of ranks (9 or 5).
    #[must_use]
    pub const fn size(self) -> u8 {
        match self {
            Variant::Standard => 9,
            Variant::Minishogi => 5,
        }
    }

    /// Depth of the promotion zone in ranks (3 or 1).
    #[must_use]
    pub const fn zone_depth(self) -> u8 {
        match self {
            Variant::Standard => 3,
            Variant::Minishogi => 1,
        }
    }
}

/// A square of the board, numbered in USI order: index = (file − 1) × 9 + (rank − 1),
/// so `1a` is 0, `1i` is 8, `2a` is 9 and `9i` is 80. Files run 1..=9 from Sente's
/// right to left, ranks 1..=9 (a..i) from Gote's side down. Minishogi uses files and
/// ranks 1..=5 of the same grid.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! squares {
    ($($name:ident = $file:literal $rank:literal),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($file), stringify!($rank), ".")]
                pub const $name: Square = Square(($file - 1) * 9 + ($rank - 1));
            )*
        }
    };
}

squares! {
    SQ_1A = 1 1, SQ_1B = 1 2, SQ_1C = 1 3, SQ_1D = 1 4, SQ_1E = 1 5, SQ_1F = 1 6, SQ_1G = 1 7, SQ_1H = 1 8, SQ_1I = 1 9,
    SQ_2A = 2 1, SQ_2B = 2 2, SQ_2C = 2 3, SQ_2D = 2 4, SQ_2E = 2 5, SQ_2F = 2 6, SQ_2G = 2 7, SQ_2H = 2 8, SQ_2I = 2 9,
    SQ_3A = 3 1, SQ_3B = 3 2, SQ_3C = 3 3, SQ_3D = 3 4, SQ_3E = 3 5, SQ_3F = 3 6, SQ_3G = 3 7, SQ_3H = 3 8, SQ_3I = 3 9,
    SQ_4A = 4 1, SQ_4B = 4 2, SQ_4C = 4 3, SQ_4D = 4 4, SQ_4E = 4 5, SQ_4F = 4 6, SQ_4G = 4 7, SQ_4H = 4 8, SQ_4I = 4 9,
    SQ_5A = 5 1, SQ_5B = 5 2, SQ_5C = 5 3, SQ_5D = 5 4, SQ_5E = 5 5, SQ_5F = 5 6, SQ_5G = 5 7, SQ_5H = 5 8, SQ_5I = 5 9,
    SQ_6A = 6 1, SQ_6B = 6 2, SQ_6C = 6 3, SQ_6D = 6 4, SQ_6E = 6 5, SQ_6F = 6 6, SQ_6G = 6 7, SQ_6H = 6 8, SQ_6I = 6 9,
    SQ_7A = 7 1, SQ_7B = 7 2, SQ_7C = 7 3, SQ_7D = 7 4, SQ_7E = 7 5, SQ_7F = 7 6, SQ_7G = 7 7, SQ_7H = 7 8, SQ_7I = 7 9,
    SQ_8A = 8 1, SQ_8B = 8 2, SQ_8C = 8 3, SQ_8D = 8 4, SQ_8E = 8 5, SQ_8F = 8 6, SQ_8G = 8 7, SQ_8H = 8 8, SQ_8I = 8 9,
    SQ_9A = 9 1, SQ_9B = 9 2, SQ_9C = 9 3, SQ_9D = 9 4, SQ_9E = 9 5, SQ_9F = 9 6, SQ_9G = 9 7, SQ_9H = 9 8, SQ_9I = 9 9,
}

impl Square {
    /// Number of squares of the 9×9 grid.
    pub const COUNT: usize = 81;

    /// The square with this index (0..81).
    #[inline]
    #[must_use]
    pub const fn from_index(i: u8) -> Option<Square> {
        if i < 81 {
            Some(Square(i))
        } else {
            None
        }
    }

    /// The square with this index; the caller guarantees `i < 81`.
    #[inline]
    #[must_use]
    pub(crate) const fn new_unchecked(i: u8) -> Square {
        debug_assert!(i < 81);
        Square(i)
    }

    /// The square on `file` (1..=9) and `rank` (1..=9, 1 = a).
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square((file - 1) * 9 + (rank - 1)))
        } else {
            None
        }
    }

    /// Index 0..81 in USI order.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 1..=9.
    #[inline]
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    /// Rank 1..=9 (1 = a, Gote's back rank).
    #[inline]
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// The rank counted from `color`'s far side: 1 is the last rank `color`
    /// moves towards, for a board of `size` ranks.
    #[inline]
    #[must_use]
    pub const fn relative_rank(self, color: Color, size: u8) -> u8 {
        match color {
            Color::Sente => self.rank(),
            Color::Gote => size + 1 - self.rank(),
        }
    }

    /// The square seen from the other side on a board of `size` (rotated 180°).
    #[must_use]
    pub const fn rotate(self, size: u8) -> Square {
        Square((size - self.file()) * 9 + (size - self.rank()))
    }

    /// Every square of the 9×9 grid in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// Parses a USI square such as `7g` (file digit, rank letter a..i).
    #[must_use]
    pub fn from_usi(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'0');
        let rank = b[1].wrapping_sub(b'a').wrapping_add(1);
        Square::new(file, rank)
    }
}

impl fmt::Display for Square {
    /// USI text, e.g. `7g`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// The pieces one side holds in hand: a count for each of the seven hand kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Hand([u8; 7]);

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand([0; 7]);

    /// How many pieces of `kind` (unpromoted hand kind; 0 for others).
    #[inline]
    #[must_use]
    pub const fn count(&self, kind: PieceKind) -> u8 {
        if kind.is_hand_kind() {
            self.0[kind as usize]
        } else {
            0
        }
    }

    /// Sets the count of a hand kind (ignored for other kinds).
    pub fn set(&mut self, kind: PieceKind, n: u8) {
        if kind.is_hand_kind() {
            self.0[kind as usize] = n;
        }
    }

    /// Adds one piece of a hand kind.
    #[inline]
    pub(crate) fn add(&mut self, kind: PieceKind) {
        self.0[kind as usize] += 1;
    }

    /// Removes one piece of a hand kind; the caller checked it is there.
    #[inline]
    pub(crate) fn remove(&mut self, kind: PieceKind) {
        self.0[kind as usize] -= 1;
    }

    /// Whether the hand holds nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// Total number of pieces.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    /// `(kind, count)` for every kind held, rook first (the order of SFEN and of
    /// the hands in the board image: R B G S N L P).
    pub fn iter(&self) -> impl Iterator<Item = (PieceKind, u8)> + '_ {
        PieceKind::HAND
            .iter()
            .rev()
            .map(|&k| (k, self.0[k as usize]))
            .filter(|&(_, n)| n > 0)
    }
}

/// A move: a board move (with or without promotion) or a drop from hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A piece moves from `from` to `to`, capturing whatever enemy piece is there.
    Normal {
        /// Origin square.
        from: Square,
        /// Destination square.
        to: Square,
        /// Whether the piece promotes on this move.
        promote: bool,
    },
    /// A piece of `kind` from hand is put on the empty square `to`.
    Drop {
        /// The (unpromoted hand) kind dropped.
        kind: PieceKind,
        /// Destination square.
        to: Square,
    },
}

impl Move {
    /// The destination square.
    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    /// The origin square of a board move.
    #[inline]
    #[must_use]
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }

    /// Whether the move is a drop.
    #[must_use]
    pub const fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }

    /// Whether the move promotes.
    #[must_use]
    pub const fn is_promotion(self) -> bool {
        matches!(self, Move::Normal { promote: true, .. })
    }

    /// Parses USI move syntax (`7g7f`, `8h2b+`, `P*5e`). Only the syntax is
    /// checked: whether the move is legal is the position's business.
    pub fn from_usi(s: &str) -> Result<Move, UsiMoveError> {
        let b = s.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let kind = PieceKind::from_usi_char(b[0] as char)
                .filter(|k| k.is_hand_kind() && b[0].is_ascii_uppercase())
                .ok_or(UsiMoveError)?;
            let to = Square::from_usi(&s[2..4]).ok_or(UsiMoveError)?;
            return Ok(Move::Drop { kind, to });
        }
        if (b.len() == 4 || (b.len() == 5 && b[4] == b'+')) && s.is_ascii() {
            let from = Square::from_usi(&s[0..2]).ok_or(UsiMoveError)?;
            let to = Square::from_usi(&s[2..4]).ok_or(UsiMoveError)?;
            if from == to {
                return Err(UsiMoveError);
            }
            return Ok(Move::Normal {
                from,
                to,
                promote: b.len() == 5,
            });
        }
        Err(UsiMoveError)
    }
}

/// The text is not USI move syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a USI move (expected e.g. 7g7f, 8h2b+ or P*5e)")]
pub struct UsiMoveError;

impl fmt::Display for Move {
    /// USI text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Normal { from, to, promote } => {
                write!(f, "{from}{to}{}", if promote { "+" } else { "" })
            }
            Move::Drop { kind, to } => write!(f, "{}*{to}", kind.usi_char()),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_numbering_is_usi_order() {
        assert_eq!(Square::SQ_1A.index(), 0);
        assert_eq!(Square::SQ_1I.index(), 8);
        assert_eq!(Square::SQ_9I.index(), 80);
        assert_eq!(Square::SQ_7G.to_string(), "7g");
        assert_eq!(Square::from_usi("7g"), Some(Square::SQ_7G));
        assert_eq!(Square::from_usi("0a"), None);
        assert_eq!(Square::from_usi("1j"), None);
        assert_eq!(Square::SQ_1A.rotate(9), Square::SQ_9I);
        assert_eq!(Square::SQ_1A.rotate(5), Square::SQ_5E);
    }

    #[test]
    fn usi_moves_round_trip() {
        for s in ["7g7f", "8h2b+", "P*5e", "R*1a"] {
            assert_eq!(Move::from_usi(s).unwrap().to_string(), s);
        }
        for s in [
            "",
            "7g7g",
            "K*5e",
            "+*5e",
            "p*5e",
            "7g7f=",
            "7g",
            "7g7f++",
            "あいうえ",
        ] {
            assert!(Move::from_usi(s).is_err(), "{s}");
        }
    }

    #[test]
    fn promotion_table() {
        for k in PieceKind::ALL {
            if let Some(p) = k.promote() {
                assert_eq!(p.unpromote(), k);
                assert!(p.is_promoted());
            }
        }
        assert!(!PieceKind::Gold.can_promote());
        assert!(!PieceKind::King.can_promote());
    }
}
