//! A small neural correction on top of the linear evaluation
//! ([`super::eval`]): one hidden layer over piece-square features, seen once
//! from each side, in the shape of NNUE's first layer.
//!
//! Inputs, from a perspective `P` (the board turned so that `P` plays up the
//! board, as Sente does): every piece on the board by owner (`P` or the
//! other), kind (14, kings included) and square (81), and every piece in hand
//! by owner, kind and number (the `n`-th pawn in hand is its own input, so
//! each of the 40 pieces lights exactly one input). [`FEATURES`] in all.
//!
//! The hidden layer is the same for both perspectives: `HIDDEN` sums of the
//! weights of the lit inputs and a bias, clipped to `0..=scale` (the
//! network's integer scale: [`ONE`] for versions 1 and 2). The output is
//! `w_us · h(side to move) + w_them · h(other side) + b`, in the linear
//! evaluation's centipawns, and is added to it. The weights are fitted by
//! `scripts/nn/train.py` (recipe in `scripts/nn/README.md`) and shipped as
//! `nn.bin` next to this file; quantized to integers, so the evaluation is
//! exact and the same on every machine.
//!
//! A network of version 2 has more inputs: every piece on the board within
//! `r` files and ranks of a king (its radius, 1 to 8) also lights one input
//! for where it stands from that king (owner, kind and the offset in files
//! and ranks, seen from `P`), so the pieces of the king's guard and of an
//! attack on it count wherever the king is. A king move
//! moves every such input of both views, so those views are summed again
//! ([`Net::needs_refresh`]); the other moves change at most six inputs a view.
//!
//! Only standard 9×9 positions are corrected; minishogi keeps the linear
//! evaluation.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{OnceLock, PoisonError, RwLock};

use crate::shogi::{Color, Move, PieceKind, Position, Square, Variant};

/// Inputs for the pieces on the board: owner × kind × square.
const BOARD_FEATURES: usize = 2 * 14 * 81;
/// The most pieces of each hand kind (pawn, lance, knight, silver, gold,
/// bishop, rook), and where each kind's inputs start within one owner's.
const HAND_MAX: [usize; 7] = [18, 4, 4, 4, 4, 2, 2];
const HAND_START: [usize; 7] = [0, 18, 22, 26, 30, 34, 36];
/// Inputs for one owner's hand.
const HAND_FEATURES: usize = 38;
/// Number of inputs of a network of version 1 (pieces and hands only).
pub const FEATURES: usize = BOARD_FEATURES + 2 * HAND_FEATURES;
/// Lit inputs of a standard position (one per piece).
pub const ACTIVE: usize = 40;
/// The widest radius of a version-2 network: the whole board from any king.
pub const MAX_RADIUS: usize = 8;

/// Inputs for the pieces on the board within `radius` of one king: owner ×
/// kind × offset (`2 radius + 1` files by as many ranks).
#[must_use]
pub const fn king_features(radius: usize) -> usize {
    2 * 14 * (2 * radius + 1) * (2 * radius + 1)
}

/// Number of inputs of a network of version 2 and this radius: those of
/// version 1, then the pieces seen from the viewing side's king, then from
/// the other king.
#[must_use]
pub const fn features_king(radius: usize) -> usize {
    FEATURES + 2 * king_features(radius)
}

/// Lit inputs of a version-2 network at most: one per piece, and one per
/// piece on the board for each king but the king itself.
const MAX_LIT: usize = ACTIVE + 2 * (ACTIVE - 1);
/// Hidden units per perspective: the widest network this build reads (the
/// shipped one's width, since every unit costs the search's updates). A
/// file with fewer units is padded with units whose weights are all zero,
/// which add nothing, so it scores exactly as it would at its own width; a
/// wider candidate needs this constant raised (64 was measured: a 32-unit
/// file played byte for byte alike and about as fast).
pub const HIDDEN: usize = 32;
/// The hidden layer's scale in versions 1 and 2: weights and biases are in
/// units of `1 / ONE`, and a unit's output is clipped to `0..=ONE`. Version 3
/// names its own scale (at most [`MAX_SCALE`]): at 64, a weight under 1/128
/// rounds to nothing, and most of a fitted network's weights are that small.
pub const ONE: i32 = 64;
/// The largest correction in centipawns, either way.
pub const MAX_OUTPUT: i32 = 10_000;
/// The largest scale a version-3 file may name: its output sums stay far
/// within `i64`, and its fitter bounds the weights so that the `i16` sums
/// of the lit inputs cannot overflow.
pub const MAX_SCALE: u32 = 4096;

/// The shipped weights.
static NET_BYTES: &[u8] = include_bytes!("nn.bin");
/// Whether [`correction`] is applied (the USI option `EvalNet`). On by
/// default: the networks shipped since 6 December each won their self-play
/// matches against the one before (fit C against the linear evaluation
/// alone, fit F against fit C, fit F4 against fit F, fit F5 against fit
/// F4) and solve the whole tactics suite (`scripts/match/RESULTS.md`).
static ENABLED: AtomicBool = AtomicBool::new(true);

/// Turns the correction on or off for the whole process.
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Whether the correction is on and a network is in use.
#[must_use]
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed) && net().is_some()
}

/// The weights, quantized.
pub struct Net {
    /// How far from a king the pieces are also seen from it (version 2);
    /// 0: not at all (version 1).
    radius: usize,
    /// `features × HIDDEN`, input-major ([`FEATURES`] or [`features_king`]).
    w1: Vec<i16>,
    b1: [i16; HIDDEN],
    /// Output weights for the side to move's units, then the other side's,
    /// in units of `1 / (scale · scale)` centipawns.
    w2: [i32; 2 * HIDDEN],
    /// The hidden layer's integer scale ([`ONE`] but in version 3).
    scale: i32,
    /// Output bias in centipawns.
    b2: i32,
    /// `w2` as `i16` (each half its own row), when [`Net::output_of`] may
    /// sum in `i32` ([`narrow_w2`]).
    w2_narrow: Option<[[i16; HIDDEN]; 2]>,
}

/// `w2` as `i16` if every weight fits one and no sum of [`Net::output_of`]
/// can leave `i32` (`Σ |w2| · scale` fits): the sum is then the same in
/// `i32`, which baseline x86-64 computes in packed registers and `i64`
/// not. Every fitted network so far fits (the shipped one's largest weight
/// is under 28,000).
fn narrow_w2(w2: &[i32; 2 * HIDDEN], scale: i32) -> Option<[[i16; HIDDEN]; 2]> {
    let bound: i64 = w2.iter().map(|&w| i64::from(w).abs()).sum::<i64>() * i64::from(scale);
    if bound > i64::from(i32::MAX) || i16::try_from(scale).is_err() {
        return None;
    }
    let mut out = [[0i16; HIDDEN]; 2];
    for (o, &w) in out.iter_mut().flatten().zip(w2) {
        *o = i16::try_from(w).ok()?;
    }
    Some(out)
}

/// The magic and version at the start of `nn.bin`.
const MAGIC: &[u8; 4] = b"KMDN";
const VERSION: u32 = 1;
/// The version of a network with king-relative inputs.
const VERSION_KING: u32 = 2;
/// Either of them at a scale of its own, named after the width.
const VERSION_SCALED: u32 = 3;

impl Net {
    /// Parses the format `scripts/nn/train.py` writes: `KMDN`, version,
    /// features, hidden `h` (u32 each), then W1 (i16, input-major, `h` a
    /// row), b1 (`h` i16), w2 (`2h` i32: the side to move's units, then the
    /// other side's), b2 (i32), all little-endian; `h` is at most [`HIDDEN`].
    /// Version 1 has [`FEATURES`] inputs, version 2 [`features_king`] of
    /// its radius (1 to [`MAX_RADIUS`]), which the number tells. Version 3
    /// has either, and its scale (u32, 1 to [`MAX_SCALE`]) after `h`.
    ///
    /// # Errors
    /// The bytes are not a network of this shape.
    pub fn parse(bytes: &[u8]) -> Result<Net, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(4)? != MAGIC {
            return Err("not a komadai network (bad magic)".into());
        }
        let version = r.u32()?;
        let (f, h) = (r.u32()? as usize, r.u32()? as usize);
        let radius_of = |f| {
            (f == FEATURES)
                .then_some(0)
                .or_else(|| (1..=MAX_RADIUS).find(|&r| features_king(r) == f))
        };
        let (radius, scale) = match version {
            VERSION if f == FEATURES => (Some(0), ONE as u32),
            VERSION_KING => (radius_of(f).filter(|&r| r > 0), ONE as u32),
            VERSION_SCALED => (radius_of(f), r.u32()?),
            _ => (None, 0),
        };
        let Some(radius) = radius.filter(|_| (1..=HIDDEN).contains(&h)) else {
            return Err(format!(
                "network version {version}, {f}×{h}; this build reads version {VERSION}, \
                 {FEATURES}×(1..={HIDDEN}), version {VERSION_KING}, {}..={}×(1..={HIDDEN}) \
                 for the radius 1..={MAX_RADIUS}, and version {VERSION_SCALED} of either",
                features_king(1),
                features_king(MAX_RADIUS)
            ));
        };
        if !(1..=MAX_SCALE).contains(&scale) {
            return Err(format!(
                "network scale {scale}; this build reads 1..={MAX_SCALE}"
            ));
        }
        // Units `h..HIDDEN` stay zero: no input, no bias, no output weight.
        let mut w1 = vec![0i16; f * HIDDEN];
        for row in w1.chunks_exact_mut(HIDDEN) {
            for w in &mut row[..h] {
                *w = r.i16()?;
            }
        }
        let mut b1 = [0i16; HIDDEN];
        for b in &mut b1[..h] {
            *b = r.i16()?;
        }
        let mut w2 = [0i32; 2 * HIDDEN];
        for half in [0, HIDDEN] {
            for w in &mut w2[half..half + h] {
                *w = r.u32()? as i32;
            }
        }
        let b2 = r.u32()? as i32;
        if r.at != bytes.len() {
            return Err("trailing bytes after the network".into());
        }
        Ok(Net::from_parts(radius, w1, b1, w2, b2, scale as i32))
    }

    /// A network of these weights (see the fields).
    fn from_parts(
        radius: usize,
        w1: Vec<i16>,
        b1: [i16; HIDDEN],
        w2: [i32; 2 * HIDDEN],
        b2: i32,
        scale: i32,
    ) -> Net {
        Net {
            radius,
            w1,
            b1,
            w2,
            scale,
            b2,
            w2_narrow: narrow_w2(&w2, scale),
        }
    }

    /// The hidden layer for one perspective's lit inputs.
    #[inline]
    fn hidden(&self, lit: &[u16]) -> [i16; HIDDEN] {
        let mut acc = self.b1;
        for &f in lit {
            let row = &self.w1[f as usize * HIDDEN..f as usize * HIDDEN + HIDDEN];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(w);
            }
        }
        acc
    }

    /// The correction in centipawns for the side to move, summed from scratch.
    #[must_use]
    pub fn output(&self, pos: &Position) -> i32 {
        self.output_of(&self.refresh(pos), pos.side_to_move())
    }
}

/// The shipped network, parsed once; `None` if `nn.bin` holds none.
#[must_use]
pub fn shipped() -> Option<&'static Net> {
    static NET: OnceLock<Option<Net>> = OnceLock::new();
    NET.get_or_init(|| Net::parse(NET_BYTES).ok()).as_ref()
}

/// A network read from a file in place of the shipped one (the USI option
/// `EvalFile`), for the whole process.
static LOADED: RwLock<Option<&'static Net>> = RwLock::new(None);

/// The network in use: the one [`load`] read, else the shipped one. A
/// search takes it once at its root.
#[must_use]
pub fn net() -> Option<&'static Net> {
    let loaded = *LOADED.read().unwrap_or_else(PoisonError::into_inner);
    loaded.or_else(shipped)
}

/// Reads a network written by `scripts/nn/train.py` from `path` and uses it
/// in place of the shipped one for the rest of the process, so that one
/// build can play candidate networks against each other. Each load keeps its
/// network (about 150 KB) until the process ends: searches running at the
/// time may still hold the previous one.
///
/// # Errors
/// The file cannot be read or holds no network of this build's shape; the
/// network in use is then unchanged.
pub fn load(path: &std::path::Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let net = Net::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    *LOADED.write().unwrap_or_else(PoisonError::into_inner) = Some(Box::leak(Box::new(net)));
    Ok(())
}

/// Goes back to the shipped network.
pub fn use_shipped() {
    *LOADED.write().unwrap_or_else(PoisonError::into_inner) = None;
}

/// The correction for `pos` from the side to move's point of view: 0 when
/// turned off, without a network, or for minishogi.
#[inline]
#[must_use]
pub fn correction(pos: &Position) -> i32 {
    if !ENABLED.load(Ordering::Relaxed) || pos.variant() != Variant::Standard {
        return 0;
    }
    match net() {
        Some(net) => net.output(pos),
        None => 0,
    }
}

/// `sq` as `persp` sees it (the board turned for Gote).
#[inline]
fn seen(persp: Color, sq: Square) -> Square {
    match persp {
        Color::Sente => sq,
        Color::Gote => sq.rotate(9),
    }
}

/// The input of a piece of `owner`'s `kind` on `sq`, seen from `persp`.
#[inline]
fn board_input(persp: Color, owner: Color, kind: PieceKind, sq: Square) -> usize {
    let own = usize::from(owner != persp);
    (own * 14 + kind.index()) * 81 + seen(persp, sq).index()
}

/// The input of a piece of `owner`'s `kind` on `sq` seen from the king on
/// `king` (`mine`: the viewing side's king, else the other one), both seen
/// from `persp`, for a network of this `radius`; `None` for the king itself
/// and for a piece further than `radius` files or ranks from it.
#[inline]
fn king_input(
    persp: Color,
    radius: usize,
    (mine, king): (bool, Square),
    owner: Color,
    kind: PieceKind,
    sq: Square,
) -> Option<usize> {
    let (s, k) = (seen(persp, sq).index(), seen(persp, king).index());
    let (file, rank) = (
        (s / 9 + radius).checked_sub(k / 9)?,
        (s % 9 + radius).checked_sub(k % 9)?,
    );
    let width = 2 * radius + 1;
    if sq == king || file >= width || rank >= width {
        return None;
    }
    let own = usize::from(owner != persp);
    let block = FEATURES + usize::from(!mine) * king_features(radius);
    Some(block + ((own * 14 + kind.index()) * width + file) * width + rank)
}

/// The input of the `nth` (0-based) piece of hand kind number `h` in
/// `owner`'s hand, seen from `persp`; `None` past the most there can be.
#[inline]
fn hand_input(persp: Color, owner: Color, h: usize, nth: usize) -> Option<usize> {
    let own = usize::from(owner != persp);
    (nth < HAND_MAX[h]).then(|| BOARD_FEATURES + own * HAND_FEATURES + HAND_START[h] + nth)
}

/// One piece's part of the inputs, independent of the view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    /// A piece of this owner and kind on this square.
    Board(Color, PieceKind, Square),
    /// The `n`-th (0-based) piece of hand kind number `h` in this owner's hand.
    Hand(Color, u8, u8),
}

/// Where both kings stand, by [`Color::index`].
type Kings = [Option<Square>; 2];

impl Input {
    /// Calls `f` with each input this piece lights from `persp` in a
    /// network of this `radius`: its own, and for a version-2 network one
    /// for each king (standing on `kings`) it is near but not.
    #[inline]
    fn each(self, persp: Color, radius: usize, kings: &Kings, mut f: impl FnMut(usize)) {
        match self {
            Input::Board(owner, kind, sq) => {
                f(board_input(persp, owner, kind, sq));
                if radius == 0 {
                    return;
                }
                for (mine, king) in [
                    (true, kings[persp.index()]),
                    (false, kings[(!persp).index()]),
                ] {
                    if let Some(i) =
                        king.and_then(|k| king_input(persp, radius, (mine, k), owner, kind, sq))
                    {
                        f(i);
                    }
                }
            }
            Input::Hand(owner, h, n) => {
                if let Some(i) = hand_input(persp, owner, usize::from(h), usize::from(n)) {
                    f(i);
                }
            }
        }
    }
}

/// The inputs a move turns off and on (at most two pieces each), recorded
/// when the search makes the move and applied only if the position is
/// evaluated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Change {
    sub: [Option<Input>; 2],
    add: [Option<Input>; 2],
    /// Where the kings stand before (and, unless `king_moved`, after) it.
    kings: Kings,
    /// Whether the move is a king's.
    king_moved: bool,
}

impl Change {
    /// The change `mv` (legal in `pos`) makes.
    #[must_use]
    pub fn of(pos: &Position, mv: Move) -> Change {
        let me = pos.side_to_move();
        let mut c = Change {
            kings: [pos.king_square(Color::Sente), pos.king_square(Color::Gote)],
            ..Change::default()
        };
        match mv {
            Move::Drop { kind, to } => {
                let n = pos.hand(me).count(kind);
                if let Some(k) = n.checked_sub(1) {
                    c.sub[0] = Some(Input::Hand(me, kind.index() as u8, k));
                }
                c.add[0] = Some(Input::Board(me, kind, to));
            }
            Move::Normal { from, to, promote } => {
                let Some(piece) = pos.piece_at(from) else {
                    return c;
                };
                c.king_moved = piece.kind == PieceKind::King;
                c.sub[0] = Some(Input::Board(me, piece.kind, from));
                let kind = if promote {
                    piece.kind.promote().unwrap_or(piece.kind)
                } else {
                    piece.kind
                };
                c.add[0] = Some(Input::Board(me, kind, to));
                if let Some(victim) = pos.piece_at(to) {
                    c.sub[1] = Some(Input::Board(!me, victim.kind, to));
                    let base = victim.kind.unpromote();
                    let n = pos.hand(me).count(base);
                    c.add[1] = Some(Input::Hand(me, base.index() as u8, n));
                }
            }
        }
        c
    }
}

/// Both views' hidden sums (before clipping) of one position, kept up to
/// date move by move by the search ([`Net::after`]) instead of summing all
/// forty inputs again at every evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// By the viewing side (`Color::index`).
    views: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            views: [[0; HIDDEN]; 2],
        }
    }
}

impl Net {
    /// The accumulator of `pos`, summed from scratch.
    #[must_use]
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut views = [[0i16; HIDDEN]; 2];
        let mut lit = [0u16; MAX_LIT];
        for persp in [Color::Sente, Color::Gote] {
            let n = self.lit(pos, persp, &mut lit);
            views[persp.index()] = self.hidden(&lit[..n]);
        }
        Accumulator { views }
    }

    /// Writes the inputs `pos` lights from `persp` for this network into
    /// `out` and returns how many there are.
    fn lit(&self, pos: &Position, persp: Color, out: &mut [u16; MAX_LIT]) -> usize {
        lit_inputs(pos, persp, self.radius, out)
    }

    #[inline]
    fn add(&self, acc: &mut [i16; HIDDEN], input: usize, sign: i16) {
        let row = &self.w1[input * HIDDEN..input * HIDDEN + HIDDEN];
        for (a, &w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(w.wrapping_mul(sign));
        }
    }

    /// Whether the accumulator after `change` must be summed from scratch
    /// ([`Net::refresh`]) rather than updated ([`Net::apply`]): a king's
    /// move, for a network that sees the pieces from the kings.
    #[must_use]
    pub fn needs_refresh(&self, change: &Change) -> bool {
        self.radius > 0 && change.king_moved
    }

    /// The accumulator after `mv` is played in `pos` (whose accumulator is
    /// `acc`); `mv` must be legal there.
    #[must_use]
    pub fn after(&self, acc: &Accumulator, pos: &Position, mv: Move) -> Accumulator {
        let change = Change::of(pos, mv);
        if self.needs_refresh(&change) {
            self.refresh(&pos.after(mv))
        } else {
            self.apply(acc, &change)
        }
    }

    /// `acc` with `change` applied; not for a change that
    /// [`Net::needs_refresh`].
    #[must_use]
    pub fn apply(&self, acc: &Accumulator, change: &Change) -> Accumulator {
        debug_assert!(!self.needs_refresh(change));
        let mut next = *acc;
        for persp in [Color::Sente, Color::Gote] {
            let view = &mut next.views[persp.index()];
            for input in change.sub.iter().flatten() {
                input.each(persp, self.radius, &change.kings, |i| self.add(view, i, -1));
            }
            for input in change.add.iter().flatten() {
                input.each(persp, self.radius, &change.kings, |i| self.add(view, i, 1));
            }
        }
        next
    }

    /// The correction for the position of `acc` with `side` to move.
    #[must_use]
    pub fn output_of(&self, acc: &Accumulator, side: Color) -> i32 {
        let views = [&acc.views[side.index()], &acc.views[(!side).index()]];
        let sum = match &self.w2_narrow {
            Some(w2) => {
                // `narrow_w2` checked that neither the scale nor any partial
                // sum leaves its type; two fixed rows, not one flattened
                // iterator, so that the loop is vectorised.
                let top = self.scale as i16;
                let mut sum = 0i32;
                for (view, row) in views.into_iter().zip(w2) {
                    for (&a, &w) in view.iter().zip(row) {
                        sum += i32::from(a.clamp(0, top)) * i32::from(w);
                    }
                }
                i64::from(sum)
            }
            None => self.wide_sum(views),
        };
        self.output_from_sum(sum)
    }

    /// The correction for the output layer's sum `sum`.
    fn output_from_sum(&self, sum: i64) -> i32 {
        let scale = i64::from(self.scale);
        let out = i64::from(self.b2) + sum.div_euclid(scale * scale);
        // No fitted network comes near; a file that does cannot reach the
        // mate scores.
        out.clamp(-i64::from(MAX_OUTPUT), i64::from(MAX_OUTPUT)) as i32
    }

    /// The output layer's sum in `i64`, for any weights.
    fn wide_sum(&self, views: [&[i16; HIDDEN]; 2]) -> i64 {
        let mut sum: i64 = 0;
        for (i, &a) in views.into_iter().flatten().enumerate() {
            sum += i64::from(self.w2[i]) * i64::from(i32::from(a).clamp(0, self.scale));
        }
        sum
    }
}

/// Calls `f` with every piece of `pos`, `persp`'s first, board before hand.
fn each_piece(pos: &Position, persp: Color, mut f: impl FnMut(Input)) {
    for owner in [persp, !persp] {
        for kind in PieceKind::ALL {
            for sq in pos.pieces(owner, kind) {
                f(Input::Board(owner, kind, sq));
            }
        }
        let hand = pos.hand(owner);
        for (h, kind) in PieceKind::HAND.into_iter().enumerate() {
            for nth in 0..hand.count(kind) {
                f(Input::Hand(owner, h as u8, nth));
            }
        }
    }
}

/// Writes the lit inputs of `pos` seen from `persp` into `out` and returns
/// how many there are (at most [`ACTIVE`]; fewer only for positions with
/// pieces missing). These are a version-1 network's inputs, and all a
/// training record keeps: the king-relative inputs of version 2 follow
/// from them (`scripts/nn/train.py` derives them as [`Net::refresh`] does).
pub fn active(pos: &Position, persp: Color, out: &mut [u16; ACTIVE]) -> usize {
    lit_inputs(pos, persp, 0, out)
}

/// Writes the inputs `pos` lights from `persp` for a network of this
/// `radius` into `out`, as many as fit, and returns how many it wrote.
fn lit_inputs(pos: &Position, persp: Color, radius: usize, out: &mut [u16]) -> usize {
    let mut n = 0;
    let kings = [pos.king_square(Color::Sente), pos.king_square(Color::Gote)];
    each_piece(pos, persp, |input| {
        input.each(persp, radius, &kings, |i| {
            if let Some(slot) = out.get_mut(n) {
                *slot = i as u16;
                n += 1;
            }
        });
    });
    n
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at + n;
        let s = self
            .bytes
            .get(self.at..end)
            .ok_or_else(|| "network file too short".to_string())?;
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i16(&mut self) -> Result<i16, String> {
        let b = self.take(2)?;
        Ok(i16::from_le_bytes([b[0], b[1]]))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    use crate::engine::eval::tests::turned;

    /// Standard positions of seeded random games.
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        crate::shogi::testing::random_positions(3, 12, 150, |p| {
            if p.variant() == Variant::Standard {
                out.push(p.clone());
            }
        });
        out
    }

    #[test]
    fn every_piece_lights_one_input_and_the_views_are_each_others_turned() {
        let all = positions();
        assert!(all.len() > 500);
        for pos in &all {
            let turned = Position::from_sfen(&turned(&pos.to_sfen(), false)).unwrap();
            for persp in [Color::Sente, Color::Gote] {
                let mut a = [0u16; ACTIVE];
                let mut b = [0u16; ACTIVE];
                assert_eq!(active(pos, persp, &mut a), ACTIVE);
                assert_eq!(active(&turned, !persp, &mut b), ACTIVE);
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "{}", pos.to_sfen());
                assert!(a.windows(2).all(|w| w[0] < w[1]), "an input lit twice");
                assert!(a.iter().all(|&f| (f as usize) < FEATURES));
            }
        }
    }

    #[test]
    fn the_shipped_network_parses_and_is_the_same_for_either_colour() {
        let net = shipped().expect("nn.bin holds a network of this build's shape");
        let mut nonzero = 0;
        for pos in positions() {
            let turned = Position::from_sfen(&turned(&pos.to_sfen(), false)).unwrap();
            let c = net.output(&pos);
            assert_eq!(c, net.output(&turned), "{}", pos.to_sfen());
            nonzero += usize::from(c != 0);
        }
        assert!(nonzero > 100, "the network corrects something");
    }

    #[test]
    fn updating_move_by_move_equals_summing_from_scratch() {
        // Every legal move of positions of seeded random games: drops,
        // captures into hand, promotions and promoted pieces captured back.
        let net = shipped().expect("shipped network");
        let mut moves_seen = [0usize; 3];
        for pos in positions() {
            let acc = net.refresh(&pos);
            for mv in pos.legal_moves() {
                moves_seen[0] += usize::from(mv.is_drop());
                moves_seen[1] += usize::from(pos.is_capture(mv));
                moves_seen[2] += usize::from(mv.is_promotion());
                let next = pos.after(mv);
                let updated = net.after(&acc, &pos, mv);
                assert_eq!(updated, net.refresh(&next), "{} {mv}", pos.to_sfen());
                assert_eq!(
                    net.output_of(&updated, next.side_to_move()),
                    net.output(&next)
                );
            }
        }
        assert!(moves_seen.iter().all(|&n| n > 100), "{moves_seen:?}");
    }

    #[test]
    fn a_network_file_is_used_in_place_of_the_shipped_one() {
        // The only test that loads a network: it loads the shipped bytes, so
        // searches in other tests running meanwhile score the same.
        let dir = std::env::temp_dir().join(format!("komadai-nn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.bin");
        let bad = dir.join("bad.bin");
        std::fs::write(&good, NET_BYTES).unwrap();
        std::fs::write(&bad, &NET_BYTES[..NET_BYTES.len() - 1]).unwrap();
        let ours = shipped().expect("shipped network") as *const Net;
        assert!(load(&bad).unwrap_err().contains("bad.bin"));
        assert!(load(&dir.join("missing.bin")).is_err());
        assert_eq!(net().map(|n| n as *const Net), Some(ours));
        load(&good).unwrap();
        let loaded = net().expect("a network");
        assert_ne!(loaded as *const Net, ours, "the file's network is in use");
        for pos in positions().iter().take(20) {
            assert_eq!(loaded.output(pos), shipped().unwrap().output(pos));
        }
        use_shipped();
        assert_eq!(net().map(|n| n as *const Net), Some(ours));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `net` in the file format at width `h` (its first `h` units): version
    /// 3 if its scale is not [`ONE`].
    fn encode(net: &Net, h: usize) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let version = match (net.scale, net.radius) {
            (ONE, 0) => VERSION,
            (ONE, _) => VERSION_KING,
            _ => VERSION_SCALED,
        };
        for v in [version, (net.w1.len() / HIDDEN) as u32, h as u32] {
            out.extend(v.to_le_bytes());
        }
        if version == VERSION_SCALED {
            out.extend((net.scale as u32).to_le_bytes());
        }
        for row in net.w1.chunks_exact(HIDDEN) {
            out.extend(row[..h].iter().flat_map(|w| w.to_le_bytes()));
        }
        out.extend(net.b1[..h].iter().flat_map(|b| b.to_le_bytes()));
        for half in [0, HIDDEN] {
            out.extend(net.w2[half..half + h].iter().flat_map(|w| w.to_le_bytes()));
        }
        out.extend(net.b2.to_le_bytes());
        out
    }

    #[test]
    fn a_narrower_network_scores_as_at_its_own_width() {
        let shipped = shipped().expect("shipped network");
        let width = u32::from_le_bytes(NET_BYTES[12..16].try_into().unwrap()) as usize;
        assert_eq!(encode(shipped, width), NET_BYTES, "the format round-trips");
        // Half the shipped units, read as is and again padded to full width.
        let narrow = Net::parse(&encode(shipped, width / 2)).unwrap();
        let padded_bytes = encode(&narrow, HIDDEN);
        let padded = Net::parse(&padded_bytes).unwrap();
        assert_eq!(
            padded_bytes.len(),
            16 + (FEATURES + 1) * HIDDEN * 2 + 8 * HIDDEN + 4
        );
        let mut differ = 0;
        for pos in positions().iter().take(100) {
            assert_eq!(narrow.output(pos), padded.output(pos), "{}", pos.to_sfen());
            differ += usize::from(narrow.output(pos) != shipped.output(pos));
        }
        assert!(differ > 10, "half a network is another network");
        for h in [0, HIDDEN + 1] {
            let mut bytes = encode(shipped, 1);
            bytes[12..16].copy_from_slice(&(h as u32).to_le_bytes());
            let refused = Net::parse(&bytes)
                .err()
                .expect("a width this build cannot read");
            assert!(refused.contains("this build reads"), "{refused}");
        }
    }

    #[test]
    fn a_network_at_a_finer_scale_scores_as_at_its_own() {
        // The same weights at four times the scale (version 3): every sum is
        // four times as large and so is its clip, so the output is the same
        // to the centipawn, from scratch and move by move.
        for radius in [0, 3] {
            let net = seeded(radius, 11);
            let mut fine = seeded(radius, 11);
            fine.scale = 4 * ONE;
            fine.w1.iter_mut().for_each(|w| *w *= 4);
            fine.b1.iter_mut().for_each(|b| *b *= 4);
            fine.w2.iter_mut().for_each(|w| *w *= 4);
            let bytes = encode(&fine, HIDDEN);
            assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 3);
            let fine = Net::parse(&bytes).expect("version 3 reads");
            assert_eq!((fine.scale, fine.radius), (4 * ONE, radius));
            let mut differ = 0;
            for pos in positions().iter().take(60) {
                assert_eq!(net.output(pos), fine.output(pos), "{}", pos.to_sfen());
                differ += usize::from(net.output(pos) != 0);
                let acc = fine.refresh(pos);
                for mv in pos.legal_moves() {
                    let next = pos.after(mv);
                    let side = next.side_to_move();
                    assert_eq!(
                        fine.output_of(&fine.after(&acc, pos, mv), side),
                        net.output(&next),
                        "{} {mv}",
                        pos.to_sfen()
                    );
                }
            }
            assert!(differ > 50, "the seeded network says something");
        }
        // At the scale of version 1, version 3 is the same network.
        let shipped = shipped().expect("shipped network");
        let mut bytes = encode(shipped, HIDDEN);
        bytes[4..8].copy_from_slice(&VERSION_SCALED.to_le_bytes());
        bytes.splice(16..16, (ONE as u32).to_le_bytes());
        let again = Net::parse(&bytes).unwrap();
        for pos in positions().iter().take(40) {
            assert_eq!(again.output(pos), shipped.output(pos));
        }
        for scale in [0, MAX_SCALE + 1] {
            bytes[16..20].copy_from_slice(&scale.to_le_bytes());
            let refused = Net::parse(&bytes).err().expect("a scale out of range");
            assert!(refused.contains("scale"), "{refused}");
        }
    }

    #[test]
    fn a_wild_network_cannot_reach_the_mate_scores() {
        let base = seeded(0, 5);
        for (b2, bound) in [(i32::MAX / 2, MAX_OUTPUT), (i32::MIN / 2, -MAX_OUTPUT)] {
            let w2 = [b2.signum() * (i32::MAX / 2); 2 * HIDDEN];
            let wild = Net::from_parts(0, base.w1.clone(), base.b1, w2, b2, ONE);
            assert!(wild.w2_narrow.is_none(), "its sums need 64 bits");
            for pos in positions().iter().take(5) {
                assert_eq!(wild.output(pos), bound);
            }
        }
    }

    #[test]
    fn the_output_summed_in_32_bits_is_the_one_summed_in_64() {
        let shipped = shipped().expect("shipped network");
        assert!(
            shipped.w2_narrow.is_some(),
            "the shipped network sums in 32 bits"
        );
        // Output weights at the edge of an i16 (and, summed, of an i32 at
        // this scale), of both signs, on seeded networks of both versions.
        let edge = i32::from(i16::MAX);
        for (radius, seed) in [(0, 21), (2, 22)] {
            let mut net = seeded(radius, seed);
            for (i, w) in net.w2.iter_mut().enumerate() {
                if i % 3 == 0 {
                    *w = if i % 2 == 0 { edge } else { -edge };
                }
            }
            let net = Net::from_parts(radius, net.w1, net.b1, net.w2, net.b2, ONE);
            assert!(net.w2_narrow.is_some());
            for pos in positions() {
                for n in [&net, shipped] {
                    for side in [Color::Sente, Color::Gote] {
                        let acc = n.refresh(&pos);
                        let views = [&acc.views[side.index()], &acc.views[(!side).index()]];
                        let wide = n.output_from_sum(n.wide_sum(views));
                        assert_eq!(n.output_of(&acc, side), wide, "{}", pos.to_sfen());
                    }
                }
            }
        }
        // One weight past an i16, or sums past an i32, take the wide path.
        let mut w2 = [0; 2 * HIDDEN];
        w2[0] = edge + 1;
        assert!(narrow_w2(&w2, ONE).is_none());
        let w2 = [edge; 2 * HIDDEN];
        assert!(narrow_w2(&w2, ONE).is_some());
        assert!(narrow_w2(&w2, MAX_SCALE as i32).is_none());
    }

    /// A network of either version with seeded weights of every sign, big
    /// enough that most units are neither off nor full.
    pub(crate) fn seeded(radius: usize, seed: u64) -> Net {
        let features = if radius == 0 {
            FEATURES
        } else {
            features_king(radius)
        };
        let mut state = seed;
        let mut next = move |range: i64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) as i64 % (2 * range + 1) - range) as i32
        };
        let w1 = (0..features * HIDDEN).map(|_| next(24) as i16).collect();
        let b1 = std::array::from_fn(|_| (next(16) + 32) as i16);
        let w2 = std::array::from_fn(|_| next(4000));
        Net::from_parts(radius, w1, b1, w2, next(10), ONE)
    }

    #[test]
    fn a_network_that_sees_the_pieces_from_the_kings_updates_exactly() {
        // Every legal move of the seeded positions, king moves (which sum
        // both views again) among them; and the same score for the position
        // turned round with the other side to move. The narrowest and the
        // widest radius, and one between.
        let plain = seeded(0, 7);
        for radius in [1, 3, MAX_RADIUS] {
            let net = seeded(radius, 7);
            let mut kings = 0;
            let mut differ = 0;
            for pos in positions().iter().step_by(5) {
                let turned = Position::from_sfen(&turned(&pos.to_sfen(), false)).unwrap();
                assert_eq!(net.output(pos), net.output(&turned), "{}", pos.to_sfen());
                differ += usize::from(net.output(pos) != plain.output(pos));
                let acc = net.refresh(pos);
                for mv in pos.legal_moves() {
                    let next = pos.after(mv);
                    let change = Change::of(pos, mv);
                    if net.needs_refresh(&change) {
                        kings += 1;
                        assert!(!plain.needs_refresh(&change));
                    } else {
                        let applied = net.apply(&acc, &change);
                        assert_eq!(applied, net.refresh(&next), "{} {mv}", pos.to_sfen());
                    }
                    assert_eq!(net.after(&acc, pos, mv), net.refresh(&next));
                }
            }
            assert!(kings > 100, "{kings} king moves");
            assert!(differ > 100, "the king-relative inputs count ({differ})");
        }
    }

    #[test]
    fn each_piece_lights_its_input_and_one_from_each_king_it_is_near() {
        let pos = Position::from_sfen("4k4/9/9/9/4G4/9/9/9/4K4 b P 1").unwrap();
        let gold = Square::new(5, 5).unwrap();
        let (sente_king, gote_king) = (Square::new(5, 9).unwrap(), Square::new(5, 1).unwrap());
        let (sente, gote) = (Color::Sente, Color::Gote);
        let gold_from =
            |persp, radius, king| king_input(persp, radius, king, sente, PieceKind::Gold, gold);
        let lit = |net: &Net, persp| {
            let mut out = [0u16; MAX_LIT];
            let n = net.lit(&pos, persp, &mut out);
            out[..n].iter().map(|&i| usize::from(i)).collect::<Vec<_>>()
        };
        // The whole board: the kings, the gold and the pawn in hand, then
        // the gold from both kings and each king from the other.
        let wide = seeded(MAX_RADIUS, 1);
        assert_eq!(lit(&wide, sente).len(), 8);
        // Four ranks ahead of Sente's king, same file: files 0 + 8, ranks
        // -4 + 8 in a block 17 wide; a gold (kind 4) of the viewing side.
        let mine = gold_from(sente, 8, (true, sente_king));
        assert_eq!(mine, Some(FEATURES + (4 * 17 + 8) * 17 + 4));
        assert!(lit(&wide, sente).contains(&mine.unwrap()));
        let king = king_input(
            sente,
            8,
            (true, sente_king),
            sente,
            PieceKind::King,
            sente_king,
        );
        assert_eq!(king, None);
        // Gote sees the same gold as the other side's (kind 14 + 4), four
        // ranks past the other king (the board turned round), in the other
        // king's block; and from its own king, four ranks ahead of it.
        let theirs = gold_from(gote, 8, (false, sente_king));
        let block = FEATURES + king_features(8);
        assert_eq!(theirs, Some(block + ((14 + 4) * 17 + 8) * 17 + 12));
        let own = gold_from(gote, 8, (true, gote_king));
        assert_eq!(own, Some(FEATURES + ((14 + 4) * 17 + 8) * 17 + 4));
        for i in [theirs, own] {
            assert!(lit(&wide, gote).contains(&i.unwrap()));
        }
        // Within 3: the gold is 4 ranks from either king, the kings 8 apart.
        let near = seeded(3, 1);
        assert_eq!(lit(&near, sente).len(), 4);
        assert_eq!(gold_from(sente, 3, (true, sente_king)), None);
        let close = Square::new(4, 7).unwrap();
        let silver = king_input(
            sente,
            3,
            (true, sente_king),
            sente,
            PieceKind::Silver,
            close,
        );
        // One file to the king's right (−1 + 3), two ranks ahead (−2 + 3), width 7.
        assert_eq!(silver, Some(FEATURES + (3 * 7 + 2) * 7 + 1));
        for radius in [0, 1, 3, MAX_RADIUS] {
            let net = seeded(radius, 2);
            for persp in [sente, gote] {
                assert!(lit(&net, persp).iter().all(|&i| i < net.w1.len() / HIDDEN));
            }
        }
    }

    #[test]
    fn a_version_2_file_tells_its_radius_by_its_inputs() {
        for radius in 1..=MAX_RADIUS {
            let net = seeded(radius, radius as u64);
            let bytes = encode(&net, HIDDEN);
            let read = Net::parse(&bytes).unwrap();
            assert_eq!((read.radius, &read.w1, read.b2), (radius, &net.w1, net.b2));
            // The same inputs under version 1 are refused, and so is a
            // version-2 file with version 1's number of inputs.
            let mut v1 = bytes.clone();
            v1[4..8].copy_from_slice(&VERSION.to_le_bytes());
            assert!(Net::parse(&v1).err().unwrap().contains("this build reads"));
        }
        let mut bytes = encode(&seeded(0, 1), HIDDEN);
        bytes[4..8].copy_from_slice(&VERSION_KING.to_le_bytes());
        assert!(Net::parse(&bytes).err().unwrap().contains("radius 1..=8"));
    }

    #[test]
    fn bad_files_are_refused() {
        assert!(Net::parse(b"").is_err());
        assert!(Net::parse(b"XXXX\x01\0\0\0").is_err());
        let mut bytes = NET_BYTES.to_vec();
        bytes.push(0);
        assert!(Net::parse(&bytes).is_err());
        bytes.truncate(NET_BYTES.len() - 3);
        assert!(Net::parse(&bytes).is_err());
    }
}
