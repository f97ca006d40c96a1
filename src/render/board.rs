//! The board picture: layout, the static base image, cached sprites, and
//! composing a position by copying palette indices.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use image::RgbImage;

use super::canvas::{
    draw_char_centered, draw_text_centered, fill_circle, fill_polygon, fill_rect, inset_convex,
    rounded_rect_points, segment_points, text_width,
};
use super::pieces::{draw_empty, draw_sprite, Face, Facing, Mark};
use super::theme::{Colors, Palette, Quantizer, Rgb, TRANSPARENT};
use super::{words, Coordinates, Frame, Marks, RenderOptions, Theme};
use crate::lang::Lang;
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

    /// The centre of the cell in column `col`, row `row`, in pixels.
    pub(crate) fn centre(&self, col: i32, row: i32) -> (f32, f32) {
        let (x, y) = self.cell(col, row);
        (
            x as f32 + TILE_W as f32 / 2.0,
            y as f32 + TILE_H as f32 / 2.0,
        )
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
    Selected,
}

impl CellBg {
    const ALL: [CellBg; 6] = [
        CellBg::Wood,
        CellBg::From,
        CellBg::To,
        CellBg::Drop,
        CellBg::Check,
        CellBg::Selected,
    ];

    fn index(self) -> usize {
        self as usize
    }

    fn rgb(self, c: &Colors) -> Rgb {
        match self {
            CellBg::Wood => c.wood,
            CellBg::From => c.from,
            CellBg::To => c.to,
            CellBg::Drop => c.drop,
            CellBg::Check => c.check,
            CellBg::Selected => c.select,
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
    /// Caption pills by text (few distinct ones: the mate banner and the
    /// repetition captions of each language).
    captions: Mutex<HashMap<(Caption, Lang), Arc<Tile>>>,
}

/// A caption written over the file numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Caption {
    /// 詰み and the word in the viewer's language.
    Mate,
    /// The position has occurred this many times (3 or more).
    Repetition(u8),
}

impl Caption {
    /// The caption `marks` ask for: mate before repetition (a mate ends the
    /// game, the repetition count no longer matters).
    pub(crate) fn of(marks: &Marks) -> Option<Caption> {
        if marks.mate {
            Some(Caption::Mate)
        } else if marks.repetitions >= 3 {
            Some(Caption::Repetition(marks.repetitions))
        } else {
            None
        }
    }

    fn text(self, lang: Lang) -> String {
        match self {
            Caption::Mate => words::mate_banner(lang).to_string(),
            Caption::Repetition(n) => words::repetition_caption(n, lang).unwrap_or_default(),
        }
    }
}

impl Bases {
    /// An empty set; each base is drawn on first use.
    pub(crate) fn new(theme: Theme) -> Bases {
        Bases {
            theme,
            slots: locks(24),
            captions: Mutex::new(HashMap::new()),
        }
    }

    /// The pill of a caption (with the frame round its corners), drawn once.
    fn caption(&self, caption: Caption, lang: Lang) -> Arc<Tile> {
        let mut map = self
            .captions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.entry((caption, lang))
            .or_insert_with(|| {
                let c = self.theme.colors();
                let (bg, fg, em) = match caption {
                    Caption::Mate => (c.red, c.fill, 16.0),
                    Caption::Repetition(_) => (c.marker_on, c.frame, 13.5),
                };
                let text = caption.text(lang);
                let w = (text_width(&text, em) + 2.0 * CAPTION_PAD).ceil() as u32;
                let mut img = RgbImage::from_pixel(w, CAPTION_H, image::Rgb(c.frame));
                let h = CAPTION_H as f32;
                fill_polygon(
                    &mut img,
                    &rounded_rect_points(0.0, 0.0, w as f32, h, h / 2.0),
                    bg,
                );
                draw_text_centered(&mut img, &text, em, w as f32 / 2.0, h / 2.0, fg);
                Arc::new(Tile::from_rgb(
                    &img,
                    &mut Quantizer::new(self.theme.palette()),
                ))
            })
            .clone()
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

/// Everything cached for one (face, theme): piece sprites by kind, colour,
/// facing, square background and mark; marked empty squares; badges.
pub(crate) struct Kit {
    face: Face,
    theme: Theme,
    board: Vec<OnceLock<Tile>>,
    empty: Vec<OnceLock<Tile>>,
    hand: Vec<OnceLock<Tile>>,
    badges: Vec<OnceLock<Tile>>,
    idx: [u8; 6],
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
    pub(crate) fn new(face: Face, theme: Theme) -> Kit {
        let c = theme.colors();
        let p = theme.palette();
        Kit {
            face,
            theme,
            board: locks(14 * 2 * 3 * CellBg::ALL.len() * Mark::ALL.len()),
            empty: locks(CellBg::ALL.len() * Mark::ALL.len()),
            hand: locks(7 * 2 * 3),
            badges: locks(256),
            idx: CellBg::ALL.map(|b| p.nearest(b.rgb(c))),
        }
    }

    fn palette(&self) -> &'static Palette {
        self.theme.palette()
    }

    fn board_sprite(
        &self,
        kind: PieceKind,
        color: Color,
        facing: Facing,
        bg: CellBg,
        mark: Mark,
    ) -> &Tile {
        let i = (((kind.index() * 2 + color.index()) * 3 + facing_index(facing))
            * CellBg::ALL.len()
            + bg.index())
            * Mark::ALL.len()
            + mark as usize;
        self.board[i].get_or_init(|| {
            let c = self.theme.colors();
            let img = draw_sprite(
                TILE_W,
                TILE_H,
                bg.rgb(c),
                kind,
                color,
                self.face,
                facing,
                KING,
                mark,
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
                self.face,
                facing,
                king,
                Mark::None,
                c,
            );
            Tile::from_rgb(&img, &mut Quantizer::new(self.palette()))
        })
    }

    fn empty_tile(&self, bg: CellBg, mark: Mark) -> &Tile {
        let i = bg.index() * Mark::ALL.len() + mark as usize;
        self.empty[i].get_or_init(|| {
            let c = self.theme.colors();
            let img = draw_empty(TILE_W, TILE_H, bg.rgb(c), mark, c);
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
        marks: &Marks,
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
            } else if Some(sq) == marks.selected {
                CellBg::Selected
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
            let mark = mark_of(marks, sq);
            let (x, y) = l.cell(col, row);
            if let Some(p) = pos.piece_at(sq) {
                blit(
                    &mut px,
                    self.board_sprite(p.kind, p.color, facing(p.color), bg, mark),
                    x,
                    y,
                );
            } else if matches!(mark, Mark::Safe | Mark::Unsafe) {
                blit(&mut px, self.empty_tile(bg, mark), x, y);
            } else if bg != CellBg::Wood {
                let i = self.idx[bg.index()];
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
        let mut ink = Overlay::new(self.palette(), self.theme.colors().arrow, &l);
        match last {
            Some(Move::Normal { from, to, .. }) => {
                if let Some((a, b)) = arrow_ends(&l, from, to, opts.flip) {
                    ink.fill(&mut px, &arrow_polygons(a, b));
                }
            }
            Some(Move::Drop { to, .. }) => {
                if let Some((col, row)) = l.place(to, opts.flip) {
                    ink.fill(&mut px, &dashed_ring(l.centre(col, row)));
                }
            }
            None => {}
        }
        if let Some(caption) = Caption::of(marks) {
            let t = bases.caption(caption, opts.lang);
            let centre = l.gx + n * SQ_W / 2;
            let x = (centre - t.w as i32 / 2).clamp(2, l.width - 2 - t.w as i32);
            blit(&mut px, &t, x.max(0), CAPTION_Y);
        }
        Frame {
            width: l.width as u32,
            height: l.height as u32,
            pixels: px,
            theme: self.theme,
        }
    }
}

/// The mark a square gets: a target colour before the hanging outline (the
/// two cannot meet in a real position: targets are empty or the opponent's).
fn mark_of(marks: &Marks, sq: Square) -> Mark {
    if marks.unsafe_targets.contains(&sq) {
        Mark::Unsafe
    } else if marks.safe.contains(&sq) {
        Mark::Safe
    } else if marks.hanging.contains(&sq) {
        Mark::Hanging
    } else {
        Mark::None
    }
}

/// Height of a caption pill.
const CAPTION_H: u32 = 26;
/// Top of a caption pill: over the file numbers.
const CAPTION_Y: i32 = 5;
/// Room left and right of a caption's text.
const CAPTION_PAD: f32 = 12.0;

/// The last-move arrow's start (the centre of the square the piece left)
/// and tip (where the line to the centre of its new square meets the edge
/// of the piece there, so the arrow never covers the piece), in pixels; or
/// `None` if the move does not fit this board or does not move.
pub(crate) fn arrow_ends(
    l: &Layout,
    from: Square,
    to: Square,
    flip: bool,
) -> Option<((f32, f32), (f32, f32))> {
    let (fc, fr) = l.place(from, flip)?;
    let (tc, tr) = l.place(to, flip)?;
    if (fc, fr) == (tc, tr) {
        return None;
    }
    let a = l.centre(fc, fr);
    let b = l.centre(tc, tr);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = (dx / len, dy / len);
    // Half the size of the box a piece occupies.
    let (hw, hh) = (ARROW_STOP.0, ARROW_STOP.1);
    let back = (hw / ux.abs().max(1e-6)).min(hh / uy.abs().max(1e-6));
    Some((a, (b.0 - ux * back, b.1 - uy * back)))
}

/// Where the arrow stops short of the centre of the target square, as the
/// half width and half height of a box round it.
const ARROW_STOP: (f32, f32) = (17.0, 20.0);

/// The arrow from `a` to the tip `b`: a shaft and a head, as polygons.
fn arrow_polygons(a: (f32, f32), b: (f32, f32)) -> Vec<Vec<(f32, f32)>> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    let (ux, uy) = (dx / len, dy / len);
    let (nx, ny) = (-uy, ux);
    let head_len = 15.0f32.min(len * 0.6);
    let head_w = 9.0;
    let neck = (b.0 - ux * head_len, b.1 - uy * head_len);
    // The shaft runs into the head so that no seam shows.
    let shaft_end = (neck.0 + ux * 2.0, neck.1 + uy * 2.0);
    vec![
        segment_points(a, shaft_end, 6.0),
        vec![
            b,
            (neck.0 + nx * head_w, neck.1 + ny * head_w),
            (neck.0 - nx * head_w, neck.1 - ny * head_w),
        ],
    ]
}

/// A dashed ring round the centre of a square: the mark of a drop.
fn dashed_ring(c: (f32, f32)) -> Vec<Vec<(f32, f32)>> {
    let (r_out, r_in) = (24.0f32, 21.0f32);
    let dashes = 12;
    let step = std::f32::consts::TAU / dashes as f32;
    (0..dashes)
        .map(|i| {
            let t0 = i as f32 * step;
            let t1 = t0 + step * 0.55;
            let mut pts = Vec::new();
            for k in 0..=4 {
                let t = t0 + (t1 - t0) * k as f32 / 4.0;
                pts.push((c.0 + r_out * t.cos(), c.1 + r_out * t.sin()));
            }
            for k in (0..=4).rev() {
                let t = t0 + (t1 - t0) * k as f32 / 4.0;
                pts.push((c.0 + r_in * t.cos(), c.1 + r_in * t.sin()));
            }
            pts
        })
        .collect()
}

/// Anti-aliased shapes in one colour drawn onto palette indices: each
/// covered pixel becomes the palette colour nearest to the blend of its own
/// colour and the shape's, remembered per (index, coverage step).
struct Overlay<'a> {
    palette: &'a Palette,
    color: Rgb,
    width: usize,
    height: usize,
    memo: Vec<u8>,
}

/// Coverage steps of an overlay's edge.
const STEPS: usize = 16;

impl<'a> Overlay<'a> {
    fn new(palette: &'a Palette, color: Rgb, l: &Layout) -> Overlay<'a> {
        Overlay {
            palette,
            color,
            width: l.width as usize,
            height: l.height as usize,
            memo: Vec::new(),
        }
    }

    fn fill(&mut self, px: &mut [u8], polys: &[Vec<(f32, f32)>]) {
        let pts = || polys.iter().flatten();
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for &(x, y) in pts() {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        if x0 > x1 {
            return;
        }
        let ox = x0.floor().max(0.0);
        let oy = y0.floor().max(0.0);
        let w = (x1.ceil() - ox).clamp(0.0, self.width as f32) as usize + 1;
        let h = (y1.ceil() - oy).clamp(0.0, self.height as f32) as usize + 1;
        let mut r = ab_glyph_rasterizer::Rasterizer::new(w, h);
        for poly in polys {
            for i in 0..poly.len() {
                let (ax, ay) = poly[i];
                let (bx, by) = poly[(i + 1) % poly.len()];
                r.draw_line(
                    ab_glyph_rasterizer::point(ax - ox, ay - oy),
                    ab_glyph_rasterizer::point(bx - ox, by - oy),
                );
            }
        }
        if self.memo.is_empty() {
            self.memo = vec![TRANSPARENT; 256 * (STEPS + 1)];
        }
        let (ox, oy) = (ox as usize, oy as usize);
        r.for_each_pixel_2d(|x, y, a| {
            let step = (a.abs().min(1.0) * STEPS as f32).round() as usize;
            let (x, y) = (ox + x as usize, oy + y as usize);
            if step == 0 || x >= self.width || y >= self.height {
                return;
            }
            let at = y * self.width + x;
            let key = usize::from(px[at]) * (STEPS + 1) + step;
            if self.memo[key] == TRANSPARENT {
                let under = self.palette.rgb(px[at]);
                let mixed = super::theme::blend(under, self.color, step as f32 / STEPS as f32);
                self.memo[key] = self.palette.nearest(mixed);
            }
            px[at] = self.memo[key];
        });
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

    /// The arrow starts at the centre of the square left and its tip lies
    /// inside the square reached, short of its centre, on the line between
    /// them; flipping the board turns both ends round the board's centre.
    #[test]
    fn arrow_ends_follow_the_squares_and_the_flip() {
        let s = |u: &str| Square::from_usi(u).unwrap();
        for (n, moves) in [
            (9, [("7g", "7f"), ("2h", "2b"), ("8i", "7g"), ("5e", "9a")]),
            (5, [("1e", "1d"), ("5a", "1e"), ("2e", "3d"), ("4c", "4a")]),
        ] {
            let l = Layout::new(n);
            let (x0, y0) = (l.gx as f32, l.gy as f32);
            let (span_x, span_y) = ((n * SQ_W) as f32, (n * SQ_H) as f32);
            for (from, to) in moves {
                let (a, b) = arrow_ends(&l, s(from), s(to), false).unwrap();
                let (fa, fb) = arrow_ends(&l, s(from), s(to), true).unwrap();
                let (fc, fr) = l.place(s(from), false).unwrap();
                let (tc, tr) = l.place(s(to), false).unwrap();
                assert_eq!(a, l.centre(fc, fr), "{from}{to}");
                let (cx, cy) = l.cell(tc, tr);
                assert!(
                    (cx as f32..cx as f32 + TILE_W as f32).contains(&b.0)
                        && (cy as f32..cy as f32 + TILE_H as f32).contains(&b.1),
                    "{from}{to}: tip {b:?} outside the cell at {cx},{cy}"
                );
                let c = l.centre(tc, tr);
                let along = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
                assert!(along.abs() < 1e-2, "{from}{to}: tip off the line");
                assert!(dist(a, b) < dist(a, c) - 10.0, "{from}{to}: tip too close");
                // Mirrored through the board's centre (cells are 1 px inside
                // the grid line, hence the -1 on the sums).
                let mirror =
                    |p: (f32, f32)| (2.0 * x0 + span_x + 1.0 - p.0, 2.0 * y0 + span_y + 1.0 - p.1);
                for (p, q) in [(a, fa), (b, fb)] {
                    let m = mirror(p);
                    assert!(
                        dist(m, q) < 1e-3,
                        "{from}{to}: {p:?} flips to {q:?}, not {m:?}"
                    );
                }
            }
        }
        let l = Layout::new(5);
        assert_eq!(
            arrow_ends(&l, s("9i"), s("1a"), false),
            None,
            "off a 5×5 board"
        );
        assert_eq!(arrow_ends(&l, s("3c"), s("3c"), true), None, "no move");
    }

    fn dist(a: (f32, f32), b: (f32, f32)) -> f32 {
        ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
    }

    /// Marks land on the cells of their squares, flipped or not: each
    /// composed cell differs from the unmarked picture exactly where a mark
    /// was asked for.
    #[test]
    fn marks_land_on_their_squares() {
        let pos = Position::from_sfen("4k4/9/9/4p4/9/2B6/9/9/4K4 b - 1").unwrap();
        let s = |u: &str| Square::from_usi(u).unwrap();
        let marks = Marks {
            hanging: vec![s("7f")],
            selected: Some(s("7f")),
            safe: vec![s("6e"), s("8e")],
            unsafe_targets: vec![s("5d")],
            ..Marks::default()
        };
        for flip in [false, true] {
            let opts = RenderOptions {
                flip,
                ..RenderOptions::default()
            };
            let r = super::super::Renderer::new();
            let plain = r.compose(&pos, None, &opts);
            let marked = r.compose_marked(&pos, None, &opts, &marks);
            let l = Layout::new(9);
            for sq in Square::all() {
                let (col, row) = l.place(sq, flip).unwrap();
                let (x, y) = l.cell(col, row);
                let differs = (0..TILE_H as i32).any(|dy| {
                    (0..TILE_W as i32).any(|dx| {
                        let at = ((y + dy) * l.width + x + dx) as usize;
                        plain.pixels()[at] != marked.pixels()[at]
                    })
                });
                let asked = ["7f", "6e", "8e", "5d"].iter().any(|&u| s(u) == sq);
                assert_eq!(differs, asked, "{} flip={flip}", sq);
            }
        }
    }

    /// Captions sit over the file numbers, above the board, inside the
    /// picture, for both board sizes and the longest caption.
    #[test]
    fn captions_fit_above_the_board() {
        for n in [9, 5] {
            let l = Layout::new(n);
            let bases = Bases::new(Theme::Light);
            for lang in Lang::ALL {
                for caption in [
                    Caption::Mate,
                    Caption::Repetition(3),
                    Caption::Repetition(255),
                ] {
                    let t = bases.caption(caption, lang);
                    assert!(t.w as i32 <= l.width - 4, "{caption:?} {lang:?} n={n}");
                    assert!(CAPTION_Y + (t.h as i32) < l.gy - WOOD_PAD);
                }
            }
        }
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
