//! The position: board, hands, side to move, Zobrist hash, cached checkers.
//!
//! A `Position` can only be made through [`Position::from_sfen`] (which checks the
//! setup), the start-position constructors, or by playing moves on one, so every
//! `Position` is a legal shogi position.

use super::bitboard::{
    between, bishop_attacks, bishop_pseudo, king_attacks, lance_attacks, lance_ray, rook_attacks,
    rook_pseudo, step_attacks, Bitboard,
};
use super::types::{Color, Hand, Move, Piece, PieceKind, Square, Variant};

/// A checked shogi or minishogi position.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) variant: Variant,
    pub(crate) board: [Option<Piece>; 81],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) by_kind: [Bitboard; 14],
    pub(crate) hands: [Hand; 2],
    pub(crate) side: Color,
    pub(crate) move_number: u32,
    pub(crate) kings: [Option<Square>; 2],
    pub(crate) checkers: Bitboard,
    pub(crate) board_key: u64,
    pub(crate) hand_key: u64,
}

// ---------------------------------------------------------------------------
// Zobrist keys, generated at compile time from a fixed splitmix64 stream.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

struct Keys {
    pieces: [[[u64; 81]; 14]; 2],
    hands: [[u64; 7]; 2],
    side: u64,
}

const fn build_keys() -> Keys {
    let mut k = Keys {
        pieces: [[[0; 81]; 14]; 2],
        hands: [[0; 7]; 2],
        side: 0,
    };
    let mut state = 0x6b6f_6d61_6461_6931_u64; // "komadai1"
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < 14 {
            let mut s = 0;
            while s < 81 {
                let (ns, v) = splitmix(state);
                state = ns;
                k.pieces[c][p][s] = v;
                s += 1;
            }
            p += 1;
        }
        let mut h = 0;
        while h < 7 {
            let (ns, v) = splitmix(state);
            state = ns;
            // Hand keys are added once per piece held; keep them well mixed.
            k.hands[c][h] = v;
            h += 1;
        }
        c += 1;
    }
    let (_, v) = splitmix(state);
    k.side = v;
    k
}

static KEYS: Keys = build_keys();

#[inline]
fn piece_key(p: Piece, sq: Square) -> u64 {
    KEYS.pieces[p.color.index()][p.kind.index()][sq.index()]
}

#[inline]
fn hand_piece_key(c: Color, k: PieceKind) -> u64 {
    KEYS.hands[c.index()][k.index()]
}

/// The SFEN of the standard start position.
pub const STANDARD_START_SFEN: &str =
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/// The SFEN of the minishogi start position.
pub const MINISHOGI_START_SFEN: &str = "rbsgk/4p/5/P4/KGSBR b - 1";

impl Position {
    /// The standard 9×9 start position.
    #[must_use]
    pub fn startpos() -> Position {
        Position::from_sfen(STANDARD_START_SFEN).expect("the start position is valid")
    }

    /// The minishogi start position.
    #[must_use]
    pub fn minishogi_startpos() -> Position {
        Position::from_sfen(MINISHOGI_START_SFEN).expect("the minishogi start position is valid")
    }

    /// An empty board of `variant` with Sente to move (used while parsing).
    pub(crate) fn empty(variant: Variant) -> Position {
        Position {
            variant,
            board: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 14],
            hands: [Hand::EMPTY; 2],
            side: Color::Sente,
            move_number: 1,
            kings: [None; 2],
            checkers: Bitboard::EMPTY,
            board_key: 0,
            hand_key: 0,
        }
    }

    /// Puts a piece on an empty square (setup and moves).
    #[inline]
    pub(crate) fn put(&mut self, sq: Square, p: Piece) {
        debug_assert!(self.board[sq.index()].is_none());
        self.board[sq.index()] = Some(p);
        self.by_color[p.color.index()] |= Bitboard::from_square(sq);
        self.by_kind[p.kind.index()] |= Bitboard::from_square(sq);
        self.board_key ^= piece_key(p, sq);
        if p.kind == PieceKind::King {
            self.kings[p.color.index()] = Some(sq);
        }
    }

    #[inline]
    fn take(&mut self, sq: Square) -> Piece {
        let p = self.board[sq.index()].take().expect("a piece is there");
        self.by_color[p.color.index()] ^= Bitboard::from_square(sq);
        self.by_kind[p.kind.index()] ^= Bitboard::from_square(sq);
        self.board_key ^= piece_key(p, sq);
        p
    }

    /// Adds one piece of a hand kind to `c`'s hand (setup).
    pub(crate) fn add_to_hand(&mut self, c: Color, k: PieceKind) {
        self.hands[c.index()].add(k);
        self.hand_key = self.hand_key.wrapping_add(hand_piece_key(c, k));
    }

    /// Recomputes the cached checkers after a setup change.
    pub(crate) fn refresh(&mut self) {
        self.checkers = self.compute_checkers();
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.kings[self.side.index()] {
            Some(k) => self.attackers_to(k, !self.side, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    // -----------------------------------------------------------------------
    // Queries.

    /// Standard or minishogi.
    #[inline]
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The piece on `sq`, if any.
    #[inline]
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The hand of `c`.
    #[inline]
    #[must_use]
    pub fn hand(&self, c: Color) -> &Hand {
        &self.hands[c.index()]
    }

    /// Whose move it is.
    #[inline]
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The SFEN move number (1 at the start; grows by one each ply).
    #[inline]
    #[must_use]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The square of `c`'s king (every checked position has both kings).
    #[inline]
    #[must_use]
    pub fn king_square(&self, c: Color) -> Option<Square> {
        self.kings[c.index()]
    }

    /// All occupied squares.
    #[inline]
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Squares occupied by `c`.
    #[inline]
    #[must_use]
    pub fn pieces_of(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// Squares holding pieces of `c` and `kind`.
    #[inline]
    #[must_use]
    pub fn pieces(&self, c: Color, kind: PieceKind) -> Bitboard {
        self.by_color[c.index()] & self.by_kind[kind.index()]
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    #[must_use]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    #[must_use]
    pub fn in_check(&self) -> bool {
        self.checkers.is_any()
    }

    /// The squares of the board (all 81, or the 25 of minishogi).
    #[inline]
    #[must_use]
    pub fn board_mask(&self) -> Bitboard {
        board_mask(self.variant)
    }

    /// The promotion zone of `c`.
    #[inline]
    #[must_use]
    pub fn promotion_zone(&self, c: Color) -> Bitboard {
        promotion_zone(self.variant, c)
    }

    /// A 64-bit Zobrist key of board, both hands and side to move. Positions
    /// that are equal for the repetition rule have equal keys.
    #[inline]
    #[must_use]
    pub fn key(&self) -> u64 {
        let side = match self.side {
            Color::Sente => 0,
            Color::Gote => KEYS.side,
        };
        self.board_key ^ self.hand_key.rotate_left(17) ^ side
    }

    /// A 64-bit Zobrist key of the board and side to move, without the
    /// hands. Mate solvers pair it with one side's hand to compare positions
    /// that differ only in hands (a bigger attacker hand mates wherever a
    /// smaller one does).
    #[inline]
    #[must_use]
    pub fn board_key(&self) -> u64 {
        let side = match self.side {
            Color::Sente => 0,
            Color::Gote => KEYS.side,
        };
        self.board_key ^ side
    }

    /// `(board_key, key)` of the position after `mv`, without playing it
    /// (the caller knows `mv` is legal): cheaper than [`Position::after`]
    /// when a search only needs to look the child up.
    #[inline]
    #[must_use]
    pub fn keys_after(&self, mv: Move) -> (u64, u64) {
        let us = self.side;
        let mut board = self.board_key;
        let mut hand = self.hand_key;
        match mv {
            Move::Normal { from, to, promote } => {
                if let Some(captured) = self.board[to.index()] {
                    board ^= piece_key(captured, to);
                    hand = hand.wrapping_add(hand_piece_key(us, captured.kind.unpromote()));
                }
                if let Some(p) = self.board[from.index()] {
                    board ^= piece_key(p, from);
                    let kind = if promote {
                        p.kind.promote().unwrap_or(p.kind)
                    } else {
                        p.kind
                    };
                    board ^= piece_key(Piece::new(p.color, kind), to);
                }
            }
            Move::Drop { kind, to } => {
                hand = hand.wrapping_sub(hand_piece_key(us, kind));
                board ^= piece_key(Piece::new(us, kind), to);
            }
        }
        let side = match !us {
            Color::Sente => 0,
            Color::Gote => KEYS.side,
        };
        (board ^ side, board ^ hand.rotate_left(17) ^ side)
    }

    /// The key computed from scratch (for tests of the incremental update).
    #[must_use]
    pub fn key_from_scratch(&self) -> u64 {
        let mut board = 0u64;
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                board ^= piece_key(p, sq);
            }
        }
        let mut hand = 0u64;
        for c in Color::ALL {
            for k in PieceKind::HAND {
                for _ in 0..self.hands[c.index()].count(k) {
                    hand = hand.wrapping_add(hand_piece_key(c, k));
                }
            }
        }
        let side = match self.side {
            Color::Sente => 0,
            Color::Gote => KEYS.side,
        };
        board ^ hand.rotate_left(17) ^ side
    }

    /// Pieces of `by` that attack `sq`, with `occ` as occupancy.
    #[must_use]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        self.step_attackers(sq, by) | self.ranging_attackers(sq, by, occ)
    }

    /// Whether `by` attacks `sq` with `occ` as occupancy (the step pieces
    /// first: they answer most questions without a slider lookup).
    #[inline]
    #[must_use]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        self.step_attackers(sq, by).is_any() || self.ranging_attackers(sq, by, occ).is_any()
    }

    /// Pieces of `by` that attack `sq` by a step (every piece but the
    /// ranging moves of rooks, bishops and lances).
    #[inline]
    fn step_attackers(&self, sq: Square, by: Color) -> Bitboard {
        let k = &self.by_kind;
        let me = !by;
        let golds = k[PieceKind::Gold.index()]
            | k[PieceKind::ProPawn.index()]
            | k[PieceKind::ProLance.index()]
            | k[PieceKind::ProKnight.index()]
            | k[PieceKind::ProSilver.index()];
        let kingish =
            k[PieceKind::King.index()] | k[PieceKind::Horse.index()] | k[PieceKind::Dragon.index()];
        ((step_attacks(me, PieceKind::Pawn, sq) & k[PieceKind::Pawn.index()])
            | (step_attacks(me, PieceKind::Knight, sq) & k[PieceKind::Knight.index()])
            | (step_attacks(me, PieceKind::Silver, sq) & k[PieceKind::Silver.index()])
            | (step_attacks(me, PieceKind::Gold, sq) & golds)
            | (king_attacks(sq) & kingish))
            & self.by_color[by.index()]
    }

    /// Rooks, bishops and lances of `by` (and their promotions) that reach
    /// `sq` along a line, with `occ` as occupancy. A line's attacks are only
    /// computed when such a piece stands on it (mostly none does, and the
    /// three slider lookups were most of the cost of `attackers_to`).
    #[inline]
    fn ranging_attackers(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let theirs = self.by_color[by.index()];
        let k = &self.by_kind;
        let rookish = (k[PieceKind::Rook.index()] | k[PieceKind::Dragon.index()]) & theirs;
        let bishopish = (k[PieceKind::Bishop.index()] | k[PieceKind::Horse.index()]) & theirs;
        let lances = k[PieceKind::Lance.index()] & theirs;
        let mut a = Bitboard::EMPTY;
        if (rook_pseudo(sq) & rookish).is_any() {
            a |= rook_attacks(sq, occ) & rookish;
        }
        if (bishop_pseudo(sq) & bishopish).is_any() {
            a |= bishop_attacks(sq, occ) & bishopish;
        }
        if (lance_ray(!by, sq) & lances).is_any() {
            a |= lance_attacks(!by, sq, occ) & lances;
        }
        a
    }

    /// Pieces of `c` that are pinned to `c`'s own king.
    #[must_use]
    pub fn pinned(&self, c: Color) -> Bitboard {
        let Some(ksq) = self.kings[c.index()] else {
            return Bitboard::EMPTY;
        };
        let them = !c;
        let k = &self.by_kind;
        let snipers = self.by_color[them.index()]
            & ((rook_pseudo(ksq) & (k[PieceKind::Rook.index()] | k[PieceKind::Dragon.index()]))
                | (bishop_pseudo(ksq)
                    & (k[PieceKind::Bishop.index()] | k[PieceKind::Horse.index()]))
                | (lance_ray(c, ksq) & k[PieceKind::Lance.index()]));
        let occ = self.occupied();
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = between(ksq, s) & occ;
            if b.is_any() && !b.more_than_one() {
                pinned |= b & self.by_color[c.index()];
            }
        }
        pinned
    }

    // -----------------------------------------------------------------------
    // Making moves.

    /// Plays a move that the caller knows is legal (from the move generator or
    /// checked with [`Position::check_move`]). Used by search and perft; for user
    /// input use [`Position::play`].
    pub fn play_unchecked(&mut self, mv: Move) {
        let us = self.side;
        match mv {
            Move::Normal { from, to, promote } => {
                if self.board[to.index()].is_some() {
                    let captured = self.take(to);
                    self.add_to_hand(us, captured.kind.unpromote());
                }
                let mut p = self.take(from);
                if promote {
                    if let Some(pk) = p.kind.promote() {
                        p.kind = pk;
                    }
                }
                self.put(to, p);
            }
            Move::Drop { kind, to } => {
                self.hands[us.index()].remove(kind);
                self.hand_key = self.hand_key.wrapping_sub(hand_piece_key(us, kind));
                self.put(to, Piece::new(us, kind));
            }
        }
        self.side = !us;
        self.move_number += 1;
        self.checkers = self.compute_checkers();
    }

    /// Checks a move and plays it, or says which rule it breaks.
    pub fn play(&mut self, mv: Move) -> Result<(), super::IllegalMove> {
        self.check_move(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// The same position with the other side to move (a "pass", for the
    /// engine's null-move pruning), or `None` when the side to move is in
    /// check (the result would not be a legal position). The move number
    /// does not change.
    #[must_use]
    pub fn null_move(&self) -> Option<Position> {
        if self.in_check() {
            return None;
        }
        let mut p = self.clone();
        p.side = !p.side;
        p.refresh();
        Some(p)
    }

    /// The position after `mv` (the caller knows `mv` is legal).
    #[must_use]
    pub fn after(&self, mv: Move) -> Position {
        let mut p = self.clone();
        p.play_unchecked(mv);
        p
    }
}

/// The board squares of a variant.
#[inline]
#[must_use]
pub fn board_mask(v: Variant) -> Bitboard {
    match v {
        Variant::Standard => Bitboard::FULL,
        Variant::Minishogi => MINI_MASK,
    }
}

const MINI_MASK: Bitboard = {
    let mut b = 0u128;
    let mut f = 0;
    while f < 5 {
        b |= 0x1fu128 << (f * 9);
        f += 1;
    }
    Bitboard(b)
};

/// The promotion zone of colour `c` in variant `v`.
#[inline]
#[must_use]
pub fn promotion_zone(v: Variant, c: Color) -> Bitboard {
    ZONES[v as usize][c.index()]
}

/// Squares where a piece of `kind` of colour `c` could never move again
/// (pawn and lance on the last rank, knight on the last two).
#[inline]
#[must_use]
pub fn dead_squares(v: Variant, c: Color, kind: PieceKind) -> Bitboard {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => DEAD[v as usize][c.index()][0],
        PieceKind::Knight => DEAD[v as usize][c.index()][1],
        _ => Bitboard::EMPTY,
    }
}

/// The last `depth` ranks as seen by `c` on a board of `v`.
const fn far_ranks(v: Variant, c: Color, depth: u8) -> Bitboard {
    let size = v.size();
    let b = match c {
        Color::Sente => Bitboard::ranks(1, depth),
        Color::Gote => Bitboard::ranks(size - depth + 1, size),
    };
    let mask = match v {
        Variant::Standard => Bitboard::FULL,
        Variant::Minishogi => MINI_MASK,
    };
    Bitboard(b.0 & mask.0)
}

const VARIANTS: [Variant; 2] = [Variant::Standard, Variant::Minishogi];

static ZONES: [[Bitboard; 2]; 2] = {
    let mut t = [[Bitboard::EMPTY; 2]; 2];
    let mut v = 0;
    while v < 2 {
        let var = VARIANTS[v];
        t[v][0] = far_ranks(var, Color::Sente, var.zone_depth());
        t[v][1] = far_ranks(var, Color::Gote, var.zone_depth());
        v += 1;
    }
    t
};

/// Per variant and colour: [last rank (pawn, lance), last two ranks (knight)].
static DEAD: [[[Bitboard; 2]; 2]; 2] = {
    let mut t = [[[Bitboard::EMPTY; 2]; 2]; 2];
    let mut v = 0;
    while v < 2 {
        let var = VARIANTS[v];
        t[v][0] = [
            far_ranks(var, Color::Sente, 1),
            far_ranks(var, Color::Sente, 2),
        ];
        t[v][1] = [
            far_ranks(var, Color::Gote, 1),
            far_ranks(var, Color::Gote, 2),
        ];
        v += 1;
    }
    t
};

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

impl std::fmt::Display for Position {
    /// The SFEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_sfen())
    }
}
