//! The board picture: layout, the static base image, cached sprites, and
//! composing a position by copying palette indices.

use std::sync::OnceLock;

use image::RgbImage;

use super::canvas::{
    draw_char_centered, draw_text_centered, fill_circle, fill_polygon, fill_rect, inset_convex,
    rounded_rect_points,
};
use super::pieces::{draw_sprite, Facing};
use super::theme::{Colors, Palette, Quantizer, Rgb};
use super::{Coordinates, Frame, PieceStyle, RenderOptions, Theme};
use crate::shogi::{Color, Move, PieceKind, Position, Square, Variant};

/// Square width and height in pixels (11:12, like a real board).
pub(crate) const SQ_W: i32 = 48;
/// Square height in pixels.
pub(crate) const SQ_H: i32 = 52;
const MARGIN: i32 = 10;
const FILES_ROW: i32 = 24;
const STAND_W: i32 = 72;
const STAND_GAP: i32 = 8;
const WOOD_PAD: i32 = 6;
const RANKS_COL: i32 = 24;
const RANKS_GAP: i32 = 4;
const MARKER_H: i32 = 34;
/// A cell's inside (between grid lines).
const TILE_W: u32 = (SQ_W - 1) as u32;
const TILE_H: u32 = (SQ_H - 1) as u32;
/// The king on the board, in pixels; hand pieces are 86 % of board pieces.
const KING: (f32, f32) = (TILE_W as f32 * 0.86, TILE_H as f32 * 0.92);
const HAND_SCALE: f32 = 0.86;
const HAND_TILE_W: u32 = 42;
const HAND_STEP: i32 = 42;
const BADGE_W: u32 = 25;
const BADGE_H: u32 = 19;

/// Where everything goes for one board size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    /// Board size (9 or 5).
    pub n: i32,
    /// Image width.
    pub width: i32,
    /// Image height.
    pub height: i32,
    /// x of the first inner grid line.
    pub gx: i32,
    /// y of the first inner grid line.
    pub gy: i32,
    wood: (i32, i32, i32, i32),
    /// Top-left stand (x, y, w, h).
    top_stand: (i32, i32, i32, i32),
    /// Bottom-right stand (x, y, w, h).
    bottom_stand: (i32, i32, i32, i32),
    top_marker: (f32, f32),
    bottom_marker: (f32, f32),
    ranks_x: f32,
    files_y: f32,
}

impl Layout {
    /// The layout of a board of `n`×`n` squares.
    pub(crate) fn new(n: i32) -> Layout {
        let wood_x = MARGIN + STAND_W + STAND_GAP;
        let gx = wood_x + WOOD_PAD + 1;
        let wood_w = n * SQ_W + 2 + 2 * WOOD_PAD + 1;
        let ranks_x0 = wood_x + wood_w;
        let right_x = ranks_x0 + RANKS_COL + RANKS_GAP;
        let width = right_x + STAND_W + MARGIN;
        let wood_y = MARGIN + FILES_ROW;
        let gy = wood_y + WOOD_PAD + 1;
        let wood_h = n * SQ_H + 2 + 2 * WOOD_PAD + 1;
        let height = wood_y + wood_h + MARGIN;
        let stand_h = wood_h - MARKER_H;
        Layout {
            n,
            width,
            height,
            gx,
            gy,
            wood: (wood_x, wood_y, wood_w, wood_h),
            top_stand: (MARGIN, wood_y + MARKER_H, STAND_W, stand_h),
            bottom_stand: (right_x, wood_y, STAND_W, stand_h),
            top_marker: (
                (MARGIN + STAND_W / 2) as f32,
                (wood_y + MARKER_H / 2) as f32 - 1.5,
            ),
            bottom_marker: (
                (right_x + STAND_W / 2) as f32,
                (wood_y + wood_h - MARKER_H / 2) as f32 + 1.5,
            ),
            ranks_x: ranks_x0 as f32 + RANKS_COL as f32 / 2.0,
            files_y: MARGIN as f32 + FILES_ROW as f32 / 2.0 + 1.0,
        }
    }

    /// Top-left pixel of the inside of the cell in column `col`, row `row`
    /// (0-based, from the viewer's top-left).
    pub(crate) fn cell(&self, col: i32, row: i32) -> (i32, i32) {
        (self.gx + col * SQ_W + 1, self.gy + row * SQ_H + 1)
    }

    /// The viewer's (column, row) of a square, or `None` off this board.
    pub(crate) fn place(&self, sq: Square, flip: bool) -> Option<(i32, i32)> {
        let (f, r) = (i32::from(sq.file()), i32::from(sq.rank()));
        if f > self.n || r > self.n {
            return None;
        }
        Some(if flip {
            (f - 1, self.n - r)
        } else {
            (self.n - f, r - 1)
        })
    }

    /// Top-left corner of hand slot `i` on the top or bottom stand.
    fn hand_slot(&self, top: bool, i: i32, kinds: i32) -> (i32, i32) {
        let (x, y, _, h) = if top {
            self.top_stand
        } else {
            self.bottom_stand
        };
        let pad = 4;
        let step = if kinds > 1 {
            HAND_STEP.min((h - 2 * pad - HAND_STEP) / (kinds - 1))
        } else {
            0
        };
        if top {
            (x + 3, y + pad + i * step)
        } else {
            (x + 3, y + h - pad - HAND_STEP - i * step)
        }
    }
}

/// The background a square is drawn on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CellBg {
    Wood,
    From,
    To,
    Drop,
    Check,
}

impl CellBg {
    const ALL: [CellBg; 5] = [
        CellBg::Wood,
        CellBg::From,
        CellBg::To,
        CellBg::Drop,
        CellBg::Check,
    ];

    fn rgb(self, c: &Colors) -> Rgb {
        match self {
            CellBg::Wood => c.wood,
            CellBg::From => c.from,
            CellBg::To => c.to,
            CellBg::Drop => c.drop,
            CellBg::Check => c.check,
        }
    }
}

/// A rectangle of palette indices.
#[derive(Clone, Debug)]
pub(crate) struct Tile {
    w: usize,
    h: usize,
    px: Vec<u8>,
}

impl Tile {
    fn from_rgb(img: &RgbImage, q: &mut Quantizer<'_>) -> Tile {
        Tile {
            w: img.width() as usize,
            h: img.height() as usize,
            px: q.map(img.as_raw()),
        }
    }
}

/// The static part of one picture (frame, board, grid, coordinates, stands, markers).
#[derive(Debug)]
struct Base {
    px: Vec<u8>,
    /// Hoshi pixels inside cells, restored after pieces are copied.
    hoshi: Vec<(usize, u8)>,
}

/// The static pictures of one theme, one per board size, orientation,
/// coordinates and turn marker; shared by all piece styles.
pub(crate) struct Bases {
    theme: Theme,
    slots: Vec<OnceLock<Base>>,
}

impl Bases {
    /// An empty set; each base is drawn on first use.
    pub(crate) fn new(theme: Theme) -> Bases {
        Bases {
            theme,
            slots: locks(24),
        }
    }

    fn get(&self, l: &Layout, opts: &RenderOptions, to_move: Option<Color>) -> &Base {
        let i = usize::from(l.n == 5)
            + 2 * usize::from(opts.flip)
            + 4 * usize::from(opts.coords == Coordinates::Letters)
            + 8 * to_move.map_or(2, Color::index);
        self.slots[i].get_or_init(|| {
            let c = self.theme.colors();
            let palette = self.theme.palette();
            let img = draw_base(l, opts, to_move, c);
            let px = Quantizer::new(palette).map(img.as_raw());
            let wood = palette.nearest(c.wood);
            let mut hoshi = Vec::new();
            if l.n == 9 {
                for (hx, hy) in hoshi_points(l) {
                    let (cx, cy) = (hx as i32, hy as i32);
                    for y in cy - 4..=cy + 4 {
                        for x in cx - 4..=cx + 4 {
                            let on_line = (x - l.gx).rem_euclid(SQ_W) == 0
                                || (y - l.gy).rem_euclid(SQ_H) == 0;
                            let at = (y * l.width + x) as usize;
                            if !on_line && px[at] != wood {
                                hoshi.push((at, px[at]));
                            }
                        }
                    }
                }
            }
            Base { px, hoshi }
        })
    }
}

/// Everything cached for one (style, theme): piece sprites and badges.
pub(crate) struct Kit {
    style: PieceStyle,
    theme: Theme,
    board: Vec<OnceLock<Tile>>,
    hand: Vec<OnceLock<Tile>>,
    badges: Vec<OnceLock<Tile>>,
    idx: [u8; 5],
}

fn locks<T>(n: usize) -> Vec<OnceLock<T>> {
    (0..n).map(|_| OnceLock::new()).collect()
}

fn facing_index(f: Facing) -> usize {
    match f {
        Facing::Up => 0,
        Facing::Down => 1,
        Facing::DownUpright => 2,
    }
}

impl Kit {
    /// An empty kit; everything is drawn on first use.
    pub(crate) fn new(style: PieceStyle, theme: Theme) -> Kit {
        let c = theme.colors();
        let p = theme.palette();
        Kit {
            style,
            theme,
            board: locks(14 * 2 * 3 * 5),
            hand: locks(7 * 2 * 3),
            badges: locks(256),
            idx: CellBg::ALL.map(|b| p.nearest(b.rgb(c))),
        }
    }

    fn palette(&self) -> &'static Palette {
        self.theme.palette()
    }

    fn board_sprite(&self, kind: PieceKind, color: Color, facing: Facing, bg: CellBg) -> &Tile {
        let bgi = CellBg::ALL.iter().position(|&b| b == bg).unwrap_or(0);
        let i = ((kind.index() * 2 + color.index()) * 3 + facing_index(facing)) * 5 + bgi;
        self.board[i].get_or_init(|| {
            let c = self.theme.colors();
            let img = draw_sprite(
                TILE_W,
                TILE_H,
                bg.rgb(c),
                kind,
                color,
                self.style,
                facing,
                KING,
                c,
            );
            Tile::from_rgb(&img, &mut Quantizer::new(self.palette()))
        })
    }

    fn hand_sprite(&self, kind: PieceKind, color: Color, facing: Facing) -> &Tile {
        let i = (kind.index().min(6) * 2 + color.index()) * 3 + facing_index(facing);
        self.hand[i].get_or_init(|| {
            let c = self.theme.colors();
            let king = (KING.0 * HAND_SCALE, KING.1 * HAND_SCALE);
            let img = draw_sprite(
                HAND_TILE_W,
                HAND_STEP as u32,
                c.stand,
                kind,
                color,
                self.style,
                facing,
                king,
                c,
            );
            Tile::from_rgb(&img, &mut Quantizer::new(self.palette()))
        })
    }

    fn badge(&self, count: u8) -> &Tile {
        self.badges[usize::from(count)].get_or_init(|| {
            let c = self.theme.colors();
            let mut img = RgbImage::from_pixel(BADGE_W, BADGE_H, image::Rgb(c.stand));
            let text = count.to_string();
            let (h, em) = (
                BADGE_H as f32 - 1.0,
                if text.len() > 2 { 11.0 } else { 13.5 },
            );
            let w = match text.len() {
                1 => h,
                2 => h + 5.0,
                _ => BADGE_W as f32 - 1.0,
            };
            let x = (BADGE_W as f32 - w) / 2.0;
            fill_polygon(
                &mut img,
                &rounded_rect_points(x, 0.5, w, h, h / 2.0),
                c.badge,
            );
            draw_text_centered(
                &mut img,
                &text,
                em,
                BADGE_W as f32 / 2.0,
                0.5 + h / 2.0,
                c.badge_text,
            );
            Tile::from_rgb(&img, &mut Quantizer::new(self.palette()))
        })
    }

    /// Composes the picture of `pos` as palette indices. Without
    /// `show_turn` neither side's marker is emphasised (for animations, where
    /// a marker changing every frame would make every frame large).
    pub(crate) fn compose(
        &self,
        bases: &Bases,
        pos: &Position,
        last: Option<Move>,
        opts: &RenderOptions,
        show_turn: bool,
    ) -> Frame {
        let n = i32::from(pos.variant().size());
        let l = Layout::new(n);
        let base = bases.get(&l, opts, show_turn.then(|| pos.side_to_move()));
        let mut px = base.px.clone();
        let width = l.width as usize;
        let bottom = if opts.flip { Color::Gote } else { Color::Sente };
        let facing = |c: Color| {
            if c == bottom {
                Facing::Up
            } else if opts.upright_opponent {
                Facing::DownUpright
            } else {
                Facing::Down
            }
        };
        let check_sq = if pos.in_check() {
            pos.king_square(pos.side_to_move())
        } else {
            None
        };
        let (from, to, dropped) = match last {
            Some(Move::Normal { from, to, .. }) => (Some(from), Some(to), false),
            Some(Move::Drop { to, .. }) => (None, Some(to), true),
            None => (None, None, false),
        };
        let blit = |px: &mut Vec<u8>, t: &Tile, x: i32, y: i32| {
            for row in 0..t.h {
                let at = (y as usize + row) * width + x as usize;
                px[at..at + t.w].copy_from_slice(&t.px[row * t.w..(row + 1) * t.w]);
            }
        };
        for sq in Square::all() {
            let Some((col, row)) = l.place(sq, opts.flip) else {
                continue;
            };
            let bg = if Some(sq) == check_sq {
                CellBg::Check
            } else if Some(sq) == to {
                if dropped {
                    CellBg::Drop
                } else {
                    CellBg::To
                }
            } else if Some(sq) == from {
                CellBg::From
            } else {
                CellBg::Wood
            };
            let (x, y) = l.cell(col, row);
            if let Some(p) = pos.piece_at(sq) {
                blit(
                    &mut px,
                    self.board_sprite(p.kind, p.color, facing(p.color), bg),
                    x,
                    y,
                );
            } else if bg != CellBg::Wood {
                let i = self.idx[CellBg::ALL.iter().position(|&b| b == bg).unwrap_or(0)];
                for r in 0..TILE_H as usize {
                    let at = (y as usize + r) * width + x as usize;
                    px[at..at + TILE_W as usize].fill(i);
                }
            }
        }
        for &(at, i) in &base.hoshi {
            if px[at] == self.idx[0] {
                px[at] = i;
            }
        }
        for color in Color::ALL {
            let top = color != bottom;
            let hand = pos.hand(color);
            let kinds = hand.iter().count() as i32;
            for (i, (kind, count)) in hand.iter().enumerate() {
                let (x, y) = l.hand_slot(top, i as i32, kinds);
                blit(&mut px, self.hand_sprite(kind, color, facing(color)), x, y);
                if count >= 2 {
                    let b = self.badge(count);
                    blit(
                        &mut px,
                        b,
                        x + HAND_TILE_W as i32,
                        y + HAND_STEP - BADGE_H as i32 - 1,
                    );
                }
            }
        }
        Frame {
            width: l.width as u32,
            height: l.height as u32,
            pixels: px,
            theme: self.theme,
        }
    }
}

fn hoshi_points(l: &Layout) -> Vec<(f32, f32)> {
    let mut v = Vec::new();
    for i in [3, 6] {
        for j in [3, 6] {
            v.push((
                (l.gx + i * SQ_W) as f32 + 0.5,
                (l.gy + j * SQ_H) as f32 + 0.5,
            ));
        }
    }
    v
}

/// A koma-shaped marker (☗ filled, ☖ outlined) centred on (cx, cy).
fn draw_marker(img: &mut RgbImage, cx: f32, cy: f32, filled: bool, color: Rgb, bg: Rgb) {
    let (w, h) = (22.0, 26.0);
    let (l, t) = (cx - w / 2.0, cy - h / 2.0);
    let pts = vec![
        (cx, t),
        (l + w * 0.9, t + h * 0.24),
        (l + w, t + h),
        (l, t + h),
        (l + w * 0.1, t + h * 0.24),
    ];
    fill_polygon(img, &pts, color);
    if !filled {
        fill_polygon(img, &inset_convex(&pts, 2.4), bg);
    }
}

/// Draws the static part of the picture in RGB.
fn draw_base(l: &Layout, opts: &RenderOptions, to_move: Option<Color>, c: &Colors) -> RgbImage {
    let mut img = RgbImage::from_pixel(l.width as u32, l.height as u32, image::Rgb(c.frame));
    let top = if opts.flip { Color::Sente } else { Color::Gote };
    for (color, (x, y, w, h)) in [(top, l.top_stand), (!top, l.bottom_stand)] {
        if Some(color) == to_move {
            // The stand of the side to move gets an accent ring on the frame,
            // where the accent stands out in both themes.
            fill_rect(
                &mut img,
                x - 3,
                y - 3,
                (w + 6) as u32,
                (h + 6) as u32,
                c.marker_on,
            );
            fill_rect(
                &mut img,
                x - 1,
                y - 1,
                (w + 2) as u32,
                (h + 2) as u32,
                c.frame,
            );
        }
        fill_rect(&mut img, x, y, w as u32, h as u32, c.stand);
    }
    let (wx, wy, ww, wh) = l.wood;
    fill_rect(&mut img, wx, wy, ww as u32, wh as u32, c.wood);
    let n = l.n;
    let span_w = (n * SQ_W + 3) as u32;
    let span_h = (n * SQ_H + 3) as u32;
    for i in 0..=n {
        fill_rect(&mut img, l.gx + i * SQ_W, l.gy - 1, 1, span_h, c.grid);
        fill_rect(&mut img, l.gx - 1, l.gy + i * SQ_H, span_w, 1, c.grid);
    }
    fill_rect(&mut img, l.gx - 1, l.gy - 1, 1, span_h, c.grid);
    fill_rect(&mut img, l.gx + n * SQ_W + 1, l.gy - 1, 1, span_h, c.grid);
    fill_rect(&mut img, l.gx - 1, l.gy - 1, span_w, 1, c.grid);
    fill_rect(&mut img, l.gx - 1, l.gy + n * SQ_H + 1, span_w, 1, c.grid);
    if n == 9 {
        for (x, y) in hoshi_points(l) {
            fill_circle(&mut img, x, y, 2.7, c.grid);
        }
    }
    for i in 0..n {
        let file = if opts.flip { i + 1 } else { n - i };
        let x = (l.gx + i * SQ_W) as f32 + SQ_W as f32 / 2.0 + 0.5;
        let digit = char::from_digit(file as u32, 10).unwrap_or('?');
        draw_char_centered(&mut img, digit, 17.0, x, l.files_y, c.coord);
        let rank = if opts.flip { n - i } else { i + 1 };
        let y = (l.gy + i * SQ_H) as f32 + SQ_H as f32 / 2.0 + 0.5;
        let (ch, em) = rank_label(rank, opts.coords);
        draw_char_centered(&mut img, ch, em, l.ranks_x, y, c.coord);
    }
    for (color, (x, y)) in [(top, l.top_marker), (!top, l.bottom_marker)] {
        let col = if Some(color) == to_move {
            c.marker_on
        } else {
            c.marker_off
        };
        draw_marker(&mut img, x, y, color == Color::Sente, col, c.frame);
    }
    img
}

/// The rank label and its em size.
pub(crate) fn rank_label(rank: i32, coords: Coordinates) -> (char, f32) {
    const KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let i = (rank.clamp(1, 9) - 1) as usize;
    match coords {
        Coordinates::Kanji => (KANJI[i], 16.5),
        Coordinates::Letters => ((b'a' + i as u8) as char, 19.0),
    }
}

/// Every character the board picture itself can show (coordinates, badges).
pub(crate) fn board_chars() -> Vec<char> {
    let mut v: Vec<char> = ('0'..='9').collect();
    for r in 1..=9 {
        v.push(rank_label(r, Coordinates::Kanji).0);
        v.push(rank_label(r, Coordinates::Letters).0);
    }
    v
}

/// The image size of a variant.
pub(crate) fn image_size(v: Variant) -> (u32, u32) {
    let l = Layout::new(i32::from(v.size()));
    (l.width as u32, l.height as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_sizes() {
        assert_eq!(image_size(Variant::Standard), (647, 527));
        let (w, h) = image_size(Variant::Minishogi);
        assert!(w <= 480 && h <= 360, "{w}x{h}");
    }

    #[test]
    fn squares_map_to_cells() {
        let l = Layout::new(9);
        let sq = Square::new(9, 1).unwrap();
        assert_eq!(l.place(sq, false), Some((0, 0)));
        assert_eq!(l.place(sq, true), Some((8, 8)));
        let l5 = Layout::new(5);
        assert_eq!(l5.place(Square::new(9, 9).unwrap(), false), None);
        assert_eq!(l5.place(Square::new(1, 5).unwrap(), false), Some((4, 4)));
    }

    #[test]
    fn hand_slots_stay_on_their_stands() {
        for n in [9, 5] {
            let l = Layout::new(n);
            for top in [true, false] {
                let (sx, sy, sw, sh) = if top { l.top_stand } else { l.bottom_stand };
                let kinds = if n == 9 { 7 } else { 5 };
                for i in 0..kinds {
                    let (x, y) = l.hand_slot(top, i, kinds);
                    assert!(x >= sx && x + HAND_TILE_W as i32 + BADGE_W as i32 <= sx + sw);
                    assert!(y >= sy && y + HAND_STEP <= sy + sh, "n={n} top={top} i={i}");
                }
            }
        }
    }
}
