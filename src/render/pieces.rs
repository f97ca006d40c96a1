//! Piece sprites: the pentagon koma and its face in each style.

use image::RgbImage;

use super::canvas::{
    draw_char_centered, draw_text_centered, fill_circle, fill_polygon, inset_convex,
    segment_points, text_width,
};
use super::theme::{Colors, Rgb};
use super::{words, PieceStyle, RenderOptions};
use crate::lang::Lang;
use crate::shogi::{Color, PieceKind};

/// Relative size of each kind: the king is largest, the pawn smallest.
pub(crate) fn kind_scale(kind: PieceKind) -> f32 {
    match kind.unpromote() {
        PieceKind::King => 1.0,
        PieceKind::Rook | PieceKind::Bishop => 0.97,
        PieceKind::Gold | PieceKind::Silver => 0.94,
        PieceKind::Knight => 0.91,
        PieceKind::Lance => 0.89,
        PieceKind::Pawn => 0.86,
        _ => 0.9,
    }
}

/// The one-kanji face. Sente's king is 玉, Gote's 王 (as on lishogi).
pub(crate) fn kanji1(kind: PieceKind, color: Color) -> char {
    match kind {
        PieceKind::King => match color {
            Color::Sente => '玉',
            Color::Gote => '王',
        },
        PieceKind::Rook => '飛',
        PieceKind::Bishop => '角',
        PieceKind::Gold => '金',
        PieceKind::Silver => '銀',
        PieceKind::Knight => '桂',
        PieceKind::Lance => '香',
        PieceKind::Pawn => '歩',
        PieceKind::Dragon => '龍',
        PieceKind::Horse => '馬',
        PieceKind::ProSilver => '全',
        PieceKind::ProKnight => '圭',
        PieceKind::ProLance => '杏',
        PieceKind::ProPawn => 'と',
    }
}

/// The two-kanji face, read top to bottom.
pub(crate) fn kanji2(kind: PieceKind, color: Color) -> [char; 2] {
    match kind {
        PieceKind::King => match color {
            Color::Sente => ['玉', '将'],
            Color::Gote => ['王', '将'],
        },
        PieceKind::Rook => ['飛', '車'],
        PieceKind::Bishop => ['角', '行'],
        PieceKind::Gold => ['金', '将'],
        PieceKind::Silver => ['銀', '将'],
        PieceKind::Knight => ['桂', '馬'],
        PieceKind::Lance => ['香', '車'],
        PieceKind::Pawn => ['歩', '兵'],
        PieceKind::Dragon => ['龍', '王'],
        PieceKind::Horse => ['龍', '馬'],
        PieceKind::ProSilver => ['成', '銀'],
        PieceKind::ProKnight => ['成', '桂'],
        PieceKind::ProLance => ['成', '香'],
        PieceKind::ProPawn => ['と', '金'],
    }
}

/// The letter of the international face (promoted pieces show their base
/// letter in red, as `+R` in Western notation).
pub(crate) fn letter(kind: PieceKind) -> char {
    match kind.unpromote() {
        PieceKind::King => 'K',
        PieceKind::Rook => 'R',
        PieceKind::Bishop => 'B',
        PieceKind::Gold => 'G',
        PieceKind::Silver => 'S',
        PieceKind::Knight => 'N',
        PieceKind::Lance => 'L',
        _ => 'P',
    }
}

/// How a piece moves, seen from its owner (dy = -1 is forward).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Step {
    /// One square in this direction.
    One(i8, i8),
    /// Any distance in this direction.
    Slide(i8, i8),
    /// The knight's jump to (dx, -2).
    Jump(i8),
}

const ORTHO: [(i8, i8); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
const DIAG: [(i8, i8); 4] = [(1, -1), (1, 1), (-1, 1), (-1, -1)];
const GOLD: [(i8, i8); 6] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const SILVER: [(i8, i8); 5] = [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];

/// The moves of a kind, for the international face.
pub(crate) fn moves(kind: PieceKind) -> Vec<Step> {
    let one = |v: &[(i8, i8)]| v.iter().map(|&(x, y)| Step::One(x, y)).collect::<Vec<_>>();
    let slide = |v: &[(i8, i8)]| {
        v.iter()
            .map(|&(x, y)| Step::Slide(x, y))
            .collect::<Vec<_>>()
    };
    match kind {
        PieceKind::King => [one(&ORTHO), one(&DIAG)].concat(),
        PieceKind::Rook => slide(&ORTHO),
        PieceKind::Bishop => slide(&DIAG),
        PieceKind::Dragon => [slide(&ORTHO), one(&DIAG)].concat(),
        PieceKind::Horse => [slide(&DIAG), one(&ORTHO)].concat(),
        PieceKind::Silver => one(&SILVER),
        PieceKind::Knight => vec![Step::Jump(-1), Step::Jump(1)],
        PieceKind::Lance => vec![Step::Slide(0, -1)],
        PieceKind::Pawn => vec![Step::One(0, -1)],
        _ => one(&GOLD),
    }
}

/// Which way a sprite's piece points and whether its face is turned with it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Facing {
    /// Pointing up, face upright: the pieces of the player at the bottom.
    Up,
    /// Rotated 180°: the pieces of the player at the top.
    Down,
    /// Pointing down with the face upright (the "upright opponent" option).
    DownUpright,
}

/// The pentagon of a piece of `kind` centred in a `w`×`h` box, pointing up,
/// `king` being the size of the largest piece.
fn pentagon(kind: PieceKind, w: f32, h: f32, king: (f32, f32)) -> Vec<(f32, f32)> {
    let s = kind_scale(kind);
    let (pw, ph) = (king.0 * s, king.1 * s);
    let left = (w - pw) / 2.0;
    let top = (h - ph) / 2.0;
    let shoulder = ph * 0.22;
    let inset = pw * 0.09;
    vec![
        (left + pw / 2.0, top),
        (left + pw - inset, top + shoulder),
        (left + pw, top + ph),
        (left, top + ph),
        (left + inset, top + shoulder),
    ]
}

/// What is drawn on a piece's face: the style and the face options of
/// [`RenderOptions`] that apply to it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Face {
    /// The symbol style.
    pub style: PieceStyle,
    /// Movement dots round a kanji or pictogram (the international style
    /// always has them; two-kanji faces have no room for them).
    pub dots: bool,
    /// A small name under the symbol, in this language.
    pub names: Option<Lang>,
}

impl Face {
    /// The face `opts` asks for, with options that change nothing dropped
    /// (so that equal-looking faces share one sprite cache).
    pub(crate) fn of(opts: &RenderOptions) -> Face {
        let dots = opts.move_dots
            && matches!(
                opts.style,
                PieceStyle::Kanji | PieceStyle::Pictogram | PieceStyle::PictogramKanji
            );
        Face {
            style: opts.style,
            dots,
            names: opts.names.then_some(opts.lang),
        }
    }

    /// A plain face of `style`.
    #[cfg(test)]
    pub(crate) fn plain(style: PieceStyle) -> Face {
        Face {
            style,
            dots: false,
            names: None,
        }
    }
}

/// An overlay mark on a square, drawn into its sprite.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mark {
    /// Nothing.
    None,
    /// The viewer's piece is attacked and not defended: a red outline.
    Hanging,
    /// A target where the selected piece is safe: green.
    Safe,
    /// A target where the selected piece could be taken without recapture: orange.
    Unsafe,
}

impl Mark {
    pub(crate) const ALL: [Mark; 4] = [Mark::None, Mark::Hanging, Mark::Safe, Mark::Unsafe];

    fn target_rgb(self, c: &Colors) -> Option<Rgb> {
        match self {
            Mark::Safe => Some(c.safe),
            Mark::Unsafe => Some(c.unsafe_),
            Mark::None | Mark::Hanging => None,
        }
    }
}

/// How far (in piece heights) the face of a piece pointing down with an
/// upright face moves towards its wide end.
const UPRIGHT_SHIFT: f32 = 0.13;

/// The vertical layout of a face, in fractions of the piece height from its
/// apex, for a piece pointing up: the symbol box, and below it the stroke of
/// a promoted piece and the name.
#[derive(Clone, Copy, Debug, PartialEq)]
struct FaceLayout {
    sym_top: f32,
    sym_bot: f32,
    stroke: Option<f32>,
    name: Option<f32>,
}

impl FaceLayout {
    fn new(style: PieceStyle, promoted: bool, names: bool) -> FaceLayout {
        let (sym_top, mut bot) = match style {
            PieceStyle::TwoKanji => (0.18, 0.97),
            _ => (0.24, 0.90),
        };
        let mut name = None;
        if names {
            name = Some(bot - 0.075);
            bot -= 0.16;
        }
        let mut stroke = None;
        // The international face keeps its geometry; its stroke goes
        // between the letter and the backward dots.
        if promoted && style != PieceStyle::International {
            stroke = Some(bot - 0.02);
            bot -= 0.065;
        }
        FaceLayout {
            sym_top,
            sym_bot: bot,
            stroke,
            name,
        }
    }

    fn centre(&self) -> f32 {
        (self.sym_top + self.sym_bot) / 2.0
    }

    fn height(&self) -> f32 {
        self.sym_bot - self.sym_top
    }
}

/// Draws a `w`×`h` sprite: the background, the piece centred on it, its
/// face and an overlay mark. `king` is the (width, height) of the largest
/// piece; other kinds are scaled down from it.
#[allow(clippy::too_many_arguments)] // A plain drawing routine; a struct would only rename the arguments.
pub(crate) fn draw_sprite(
    w: u32,
    h: u32,
    bg: Rgb,
    kind: PieceKind,
    color: Color,
    face: Face,
    facing: Facing,
    king: (f32, f32),
    mark: Mark,
    colors: &Colors,
) -> RgbImage {
    let mut img = RgbImage::from_pixel(w, h, image::Rgb(bg));
    let (fw, fh) = (w as f32, h as f32);
    let upright_down = facing == Facing::DownUpright;
    let mut outer = pentagon(kind, fw, fh, king);
    if upright_down {
        for p in &mut outer {
            p.1 = fh - p.1;
        }
    }
    if mark == Mark::Hanging {
        fill_polygon(&mut img, &inset_convex(&outer, -2.6), colors.danger);
    }
    fill_polygon(&mut img, &outer, colors.edge);
    let edge_w = (king.0 * 0.04).clamp(1.2, 2.4);
    let mut inner = inset_convex(&outer, edge_w);
    // A thicker edge along the base reads as the koma's thickness.
    let base_lift = if upright_down {
        -edge_w * 0.7
    } else {
        edge_w * 0.7
    };
    for p in &mut inner[2..4] {
        p.1 -= base_lift;
    }
    fill_polygon(&mut img, &inner, colors.fill);
    let promoted = kind.is_promoted();
    let ink = if promoted { colors.red } else { colors.ink };
    let s = kind_scale(kind);
    let (pw, ph) = (king.0 * s, king.1 * s);
    let top = (fh - ph) / 2.0;
    let cx = fw / 2.0;
    // Fractions of the piece height from the apex to sprite rows. A piece
    // pointing down with an upright face keeps the order of its face (symbol,
    // stroke, name) and moves it towards its wide end, now at the top.
    let y_at = |f: f32| {
        if upright_down {
            top + ph * (f - UPRIGHT_SHIFT)
        } else {
            top + ph * f
        }
    };
    let fl = FaceLayout::new(face.style, promoted, face.names.is_some());
    let cy = y_at(fl.centre());
    let sym_h = fl.height() * ph;
    // Room the movement dots leave for the symbol.
    let dots_k = if face.dots { 0.74 } else { 1.0 };
    match face.style {
        PieceStyle::Kanji => {
            let em = sym_h.min(ph * 0.66) * dots_k;
            draw_char_centered(&mut img, kanji1(kind, color), em, cx, cy, ink);
        }
        PieceStyle::TwoKanji => {
            let [a, b] = kanji2(kind, color);
            let em = (ph * 0.42).min(sym_h * 0.53);
            let (ya, yb) = (
                y_at(fl.sym_top + fl.height() * 0.27),
                y_at(fl.sym_top + fl.height() * 0.74),
            );
            draw_char_centered(&mut img, a, em, cx, ya, ink);
            draw_char_centered(&mut img, b, em, cx, yb, ink);
        }
        PieceStyle::International => {
            let k = (fl.height() / 0.66).min(1.0);
            let cy = y_at(0.565 - (1.0 - k) * 0.36);
            let (rx, ry) = (pw * 0.37 * (0.5 + 0.5 * k), ph * 0.30 * k);
            // Forward is up on the sprite, except for DownUpright pieces.
            let fwd = if upright_down { -1.0 } else { 1.0 };
            let dot = (pw * 0.072).max(1.6);
            let line = (pw * 0.07).max(1.5);
            draw_moves(
                &mut img,
                kind,
                (cx, cy),
                (rx, ry),
                fwd,
                dot,
                line,
                true,
                ink,
            );
            let em = ph * 0.45 * k;
            let mut t = [0u8; 4];
            draw_text_centered(&mut img, letter(kind).encode_utf8(&mut t), em, cx, cy, ink);
            if promoted {
                let y = cy + em * 0.47;
                let hw = pw * 0.14;
                fill_polygon(
                    &mut img,
                    &segment_points((cx - hw, y), (cx + hw, y), 1.6),
                    ink,
                );
            }
        }
        PieceStyle::Pictogram => {
            let side = (sym_h * 0.86).min(pw * 0.64) * dots_k;
            draw_pictogram(&mut img, kind.unpromote(), cx, cy, side, ink, colors.fill);
        }
        PieceStyle::PictogramKanji => {
            let side = (sym_h * 0.60).min(pw * 0.56) * dots_k;
            let em = sym_h * 0.34 * dots_k.sqrt();
            draw_pictogram(
                &mut img,
                kind.unpromote(),
                cx,
                cy - sym_h * 0.17 * dots_k,
                side,
                ink,
                colors.fill,
            );
            draw_char_centered(
                &mut img,
                kanji1(kind, color),
                em,
                cx,
                cy + sym_h * 0.32 * dots_k,
                ink,
            );
        }
    }
    if face.dots {
        // Round the symbol box, inside the rim and clear of the red corner.
        let fwd = if upright_down { -1.0 } else { 1.0 };
        let (rx, ry) = (pw * 0.29, ph * (fl.height() / 2.0 - 0.02));
        let dcy = cy;
        let dot = (pw * 0.042).max(1.3);
        draw_moves(
            &mut img,
            kind,
            (cx, dcy),
            (rx, ry),
            fwd,
            dot,
            1.3,
            false,
            ink,
        );
    }
    if let Some(f) = fl.stroke {
        let y = y_at(f);
        let hw = pw * 0.2;
        fill_polygon(
            &mut img,
            &segment_points((cx - hw, y), (cx + hw, y), 1.7),
            ink,
        );
    }
    if promoted {
        // A red corner at the top right of the face, against the edge.
        let corner = if upright_down { 2 } else { 1 };
        let v = inner[corner];
        let toward = |p: (f32, f32), d: f32| {
            let (dx, dy) = (p.0 - v.0, p.1 - v.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-6);
            (v.0 + dx / len * d, v.1 + dy / len * d)
        };
        let leg = pw * if face.dots { 0.16 } else { 0.24 };
        let (a, b) = (inner[corner - 1], inner[corner + 1]);
        fill_polygon(&mut img, &[v, toward(a, leg), toward(b, leg)], colors.red);
    }
    if let Some(lang) = face.names {
        let y = y_at(fl.name.unwrap_or(0.84));
        let name = words::piece_name(kind, lang);
        // Shrunk to the width of the base of the piece where needed.
        let em = fit_em(name, ph * 0.175, pw * 0.86);
        draw_text_centered(&mut img, name, em, cx, y, ink);
    }
    if let Some(c) = mark.target_rgb(colors) {
        draw_target_corners(&mut img, c);
    }
    if facing == Facing::Down {
        image::imageops::rotate180_in_place(&mut img);
    }
    img
}

/// The largest em up to `em` at which `text` is at most `width` pixels wide.
fn fit_em(text: &str, em: f32, width: f32) -> f32 {
    let w = text_width(text, em);
    if w > width {
        em * width / w
    } else {
        em
    }
}

/// A `w`×`h` empty square of `bg`, with a target dot if `mark` is one.
pub(crate) fn draw_empty(w: u32, h: u32, bg: Rgb, mark: Mark, colors: &Colors) -> RgbImage {
    let mut img = RgbImage::from_pixel(w, h, image::Rgb(bg));
    if let Some(c) = mark.target_rgb(colors) {
        fill_circle(&mut img, w as f32 / 2.0, h as f32 / 2.0, w as f32 * 0.17, c);
    }
    img
}

/// Triangles in the four corners of a square that holds a piece the
/// selected piece can take.
fn draw_target_corners(img: &mut RgbImage, c: Rgb) {
    let (w, h) = (img.width() as f32, img.height() as f32);
    let leg = w * 0.26;
    for (x, y, sx, sy) in [
        (0.0, 0.0, 1.0, 1.0),
        (w, 0.0, -1.0, 1.0),
        (0.0, h, 1.0, -1.0),
        (w, h, -1.0, -1.0),
    ] {
        fill_polygon(img, &[(x, y), (x + sx * leg, y), (x, y + sy * leg)], c);
    }
}

/// Draws how `kind` moves round `centre`: dots for single steps, arrows for
/// slides and dots for the knight's jumps. `big` is the international face,
/// with long arrows towards the centre; otherwise the marks sit at the rim
/// of the face around a symbol, slides as small arrowheads.
#[allow(clippy::too_many_arguments)] // A plain drawing routine.
fn draw_moves(
    img: &mut RgbImage,
    kind: PieceKind,
    (cx, cy): (f32, f32),
    (rx, ry): (f32, f32),
    fwd: f32,
    dot: f32,
    line: f32,
    big: bool,
    ink: Rgb,
) {
    for st in moves(kind) {
        match st {
            Step::One(dx, dy) => {
                let (px, py) = (cx + f32::from(dx) * rx, cy + f32::from(dy) * ry * fwd);
                fill_circle(img, px, py, dot, ink);
            }
            Step::Slide(dx, dy) => {
                let (ux, uy) = (f32::from(dx), f32::from(dy) * fwd);
                let len = (ux * ux * rx * rx + uy * uy * ry * ry).sqrt();
                let (tx, ty) = (ux * rx / len, uy * ry / len);
                let (nx, ny) = (-ty, tx);
                let hl = dot * if big { 2.0 } else { 2.6 };
                let b = if big {
                    let a = (cx + ux * rx * 0.6, cy + uy * ry * 0.6);
                    let b = (cx + ux * rx * 1.08, cy + uy * ry * 1.08);
                    fill_polygon(img, &segment_points(a, b, line), ink);
                    b
                } else {
                    (cx + ux * rx, cy + uy * ry)
                };
                let tip = (b.0 + tx * hl * 0.6, b.1 + ty * hl * 0.6);
                let base = (b.0 - tx * hl * 0.4, b.1 - ty * hl * 0.4);
                fill_polygon(
                    img,
                    &[
                        tip,
                        (base.0 + nx * hl * 0.62, base.1 + ny * hl * 0.62),
                        (base.0 - nx * hl * 0.62, base.1 - ny * hl * 0.62),
                    ],
                    ink,
                );
            }
            Step::Jump(dx) => {
                let (kx, ky) = if big { (0.55, 1.55) } else { (0.42, 1.0) };
                let px = cx + f32::from(dx) * rx * kx;
                let py = cy - ky * ry * fwd;
                fill_circle(img, px, py, dot, ink);
            }
        }
    }
}

/// Draws the pictogram of an unpromoted `kind` in a `side`×`side` box
/// centred on (cx, cy), in `ink`, with cut-outs in `fill` (the piece face).
///
/// Each picture is ours, a few polygons and circles in a unit box
/// (x right, y down, −0.5..0.5), pointing forward (up).
pub(crate) fn draw_pictogram(
    img: &mut RgbImage,
    kind: PieceKind,
    cx: f32,
    cy: f32,
    side: f32,
    ink: Rgb,
    fill: Rgb,
) {
    let at = |x: f32, y: f32| (cx + x * side, cy + y * side);
    let poly = |img: &mut RgbImage, pts: &[(f32, f32)], c: Rgb| {
        let v: Vec<(f32, f32)> = pts.iter().map(|&(x, y)| at(x, y)).collect();
        fill_polygon(img, &v, c);
    };
    let rect = |img: &mut RgbImage, x0: f32, y0: f32, x1: f32, y1: f32, c: Rgb| {
        poly(img, &[(x0, y0), (x1, y0), (x1, y1), (x0, y1)], c);
    };
    let disc = |img: &mut RgbImage, x: f32, y: f32, r: f32, c: Rgb| {
        let (px, py) = at(x, y);
        fill_circle(img, px, py, r * side, c);
    };
    let seg = |img: &mut RgbImage, a: (f32, f32), b: (f32, f32), w: f32, c: Rgb| {
        fill_polygon(
            img,
            &segment_points(at(a.0, a.1), at(b.0, b.1), w * side),
            c,
        );
    };
    match kind {
        PieceKind::King => {
            // Crown: a band, three points with balls, jewels on the band.
            poly(
                img,
                &[
                    (-0.40, 0.20),
                    (-0.46, -0.26),
                    (-0.20, -0.02),
                    (0.0, -0.36),
                    (0.20, -0.02),
                    (0.46, -0.26),
                    (0.40, 0.20),
                ],
                ink,
            );
            rect(img, -0.42, 0.16, 0.42, 0.42, ink);
            for (x, y) in [(-0.46, -0.32), (0.0, -0.43), (0.46, -0.32)] {
                disc(img, x, y, 0.08, ink);
            }
            for x in [-0.22, 0.0, 0.22] {
                disc(img, x, 0.29, 0.055, fill);
            }
        }
        PieceKind::Rook => {
            // Tower: battlements, a tapering body, a base and a gate.
            for x0 in [-0.40, -0.09, 0.22] {
                rect(img, x0, -0.46, x0 + 0.18, -0.24, ink);
            }
            rect(img, -0.40, -0.26, 0.40, -0.12, ink);
            poly(
                img,
                &[(-0.29, -0.14), (0.29, -0.14), (0.34, 0.36), (-0.34, 0.36)],
                ink,
            );
            rect(img, -0.42, 0.33, 0.42, 0.46, ink);
            rect(img, -0.09, 0.14, 0.09, 0.34, fill);
            disc(img, 0.0, 0.14, 0.09, fill);
        }
        PieceKind::Bishop => {
            // Mitre: a pointed hat with a cross, a band and two ribbons.
            let n = 10;
            let mut pts = Vec::with_capacity(2 * n + 2);
            for i in 0..=n {
                let t = i as f32 / n as f32;
                pts.push((-0.32 * (1.0 - t * t), 0.30 - 0.78 * t));
            }
            for i in (0..n).rev() {
                let t = i as f32 / n as f32;
                pts.push((0.32 * (1.0 - t * t), 0.30 - 0.78 * t));
            }
            poly(img, &pts, ink);
            rect(img, -0.35, 0.24, 0.35, 0.38, ink);
            rect(img, -0.25, 0.36, -0.12, 0.50, ink);
            rect(img, 0.12, 0.36, 0.25, 0.50, ink);
            seg(img, (0.0, -0.26), (0.0, 0.12), 0.08, fill);
            seg(img, (-0.12, -0.08), (0.12, -0.08), 0.08, fill);
        }
        PieceKind::Gold => {
            // Coin: a rim, a face and the square hole of an old coin.
            disc(img, 0.0, 0.0, 0.46, ink);
            disc(img, 0.0, 0.0, 0.37, fill);
            disc(img, 0.0, 0.0, 0.31, ink);
            rect(img, -0.10, -0.10, 0.10, 0.10, fill);
        }
        PieceKind::Silver => {
            // Diamond: a cut gem with its girdle and facets.
            poly(
                img,
                &[
                    (-0.46, -0.14),
                    (-0.24, -0.38),
                    (0.24, -0.38),
                    (0.46, -0.14),
                    (0.0, 0.46),
                ],
                ink,
            );
            let w = 0.06;
            seg(img, (-0.40, -0.14), (0.40, -0.14), w, fill);
            seg(img, (-0.10, -0.34), (-0.17, -0.14), w, fill);
            seg(img, (0.10, -0.34), (0.17, -0.14), w, fill);
            seg(img, (-0.17, -0.14), (0.0, 0.34), w, fill);
            seg(img, (0.17, -0.14), (0.0, 0.34), w, fill);
        }
        PieceKind::Knight => {
            // Horse head, looking left, on a plinth.
            poly(
                img,
                &[
                    (0.38, 0.46),
                    (-0.34, 0.46),
                    (-0.34, 0.33),
                    (-0.12, 0.30),
                    (-0.06, 0.12),
                    (-0.26, 0.04),
                    (-0.42, -0.04),
                    (-0.42, -0.16),
                    (-0.18, -0.33),
                    (-0.10, -0.48),
                    (0.02, -0.37),
                    (0.22, -0.31),
                    (0.36, -0.10),
                    (0.40, 0.18),
                    (0.32, 0.33),
                ],
                ink,
            );
            disc(img, -0.15, -0.18, 0.055, fill);
            seg(img, (0.10, -0.26), (0.28, 0.14), 0.05, fill);
        }
        PieceKind::Lance => {
            // Lance tip: a leaf blade with a ridge, a collar and the shaft.
            poly(
                img,
                &[
                    (0.0, -0.50),
                    (0.17, -0.16),
                    (0.09, 0.06),
                    (-0.09, 0.06),
                    (-0.17, -0.16),
                ],
                ink,
            );
            seg(img, (0.0, -0.36), (0.0, -0.02), 0.045, fill);
            rect(img, -0.14, 0.05, 0.14, 0.14, ink);
            rect(img, -0.05, 0.13, 0.05, 0.50, ink);
        }
        _ => {
            // Pawn: a head, a collar, a body and a base.
            disc(img, 0.0, -0.25, 0.16, ink);
            rect(img, -0.17, -0.09, 0.17, -0.02, ink);
            poly(
                img,
                &[(-0.10, -0.04), (0.10, -0.04), (0.25, 0.33), (-0.25, 0.33)],
                ink,
            );
            rect(img, -0.34, 0.31, 0.34, 0.45, ink);
        }
    }
}

/// Every character a piece face can show, for the glyph coverage test.
pub(crate) fn face_chars() -> Vec<char> {
    let mut v = Vec::new();
    for kind in PieceKind::ALL {
        for color in Color::ALL {
            v.push(kanji1(kind, color));
            v.extend(kanji2(kind, color));
        }
        v.push(letter(kind));
    }
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_graded() {
        assert!(kind_scale(PieceKind::King) > kind_scale(PieceKind::Rook));
        assert!(kind_scale(PieceKind::Gold) > kind_scale(PieceKind::Knight));
        assert!(kind_scale(PieceKind::Lance) > kind_scale(PieceKind::Pawn));
        assert_eq!(kind_scale(PieceKind::ProPawn), kind_scale(PieceKind::Pawn));
    }

    #[test]
    fn move_patterns() {
        assert_eq!(moves(PieceKind::King).len(), 8);
        assert_eq!(moves(PieceKind::ProPawn).len(), 6);
        assert_eq!(moves(PieceKind::Dragon).len(), 8);
        assert_eq!(moves(PieceKind::Silver).len(), 5);
    }

    fn sprite(kind: PieceKind, face: Face, facing: Facing) -> RgbImage {
        let c = super::super::Theme::Light.colors();
        draw_sprite(
            47,
            51,
            c.wood,
            kind,
            Color::Sente,
            face,
            facing,
            (40.0, 47.0),
            Mark::None,
            c,
        )
    }

    /// Every unpromoted kind has its own picture, and a promoted piece
    /// shows its base picture (in red: not the same sprite).
    #[test]
    fn pictograms_differ_between_kinds() {
        let face = Face::plain(PieceStyle::Pictogram);
        let kinds = [
            PieceKind::King,
            PieceKind::Rook,
            PieceKind::Bishop,
            PieceKind::Gold,
            PieceKind::Silver,
            PieceKind::Knight,
            PieceKind::Lance,
            PieceKind::Pawn,
        ];
        // Same-size pieces so that only the picture differs.
        let inks: Vec<Vec<bool>> = kinds
            .iter()
            .map(|&k| {
                let mut img = RgbImage::from_pixel(47, 51, image::Rgb([255, 255, 255]));
                draw_pictogram(&mut img, k, 23.5, 25.5, 24.0, [0, 0, 0], [255, 255, 255]);
                img.pixels().map(|p| p.0[0] < 128).collect()
            })
            .collect();
        for i in 0..kinds.len() {
            let n = inks[i].iter().filter(|&&b| b).count();
            assert!(n > 60, "{:?} draws only {n} pixels", kinds[i]);
            for j in 0..i {
                let diff = inks[i].iter().zip(&inks[j]).filter(|(a, b)| a != b).count();
                assert!(diff > 40, "{:?} and {:?} look alike", kinds[i], kinds[j]);
            }
        }
        assert_ne!(
            sprite(PieceKind::Rook, face, Facing::Up),
            sprite(PieceKind::Dragon, face, Facing::Up)
        );
    }

    /// A promoted piece has red in the top-right corner of its face, in
    /// every style; the unpromoted piece has none there.
    #[test]
    fn promoted_pieces_get_a_red_corner() {
        let reddish = |p: &image::Rgb<u8>| p.0[0] > 150 && p.0[1] < 90 && p.0[2] < 90;
        for style in PieceStyle::ALL {
            let face = Face::plain(style);
            for (kind, promoted) in [(PieceKind::Silver, false), (PieceKind::ProSilver, true)] {
                let img = sprite(kind, face, Facing::Up);
                let count = |x0: u32, x1: u32, y0: u32, y1: u32| {
                    (y0..y1)
                        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                        .filter(|&(x, y)| reddish(img.get_pixel(x, y)))
                        .count()
                };
                // The right shoulder of the pentagon is near (40, 14).
                let corner = count(33, 44, 8, 20);
                assert_eq!(corner > 6, promoted, "{style:?} {kind:?}: {corner}");
            }
        }
    }

    #[test]
    fn down_sprite_is_the_up_sprite_rotated() {
        let c = super::super::Theme::Light.colors();
        let up = draw_sprite(
            47,
            51,
            c.wood,
            PieceKind::Gold,
            Color::Sente,
            Face::plain(PieceStyle::Kanji),
            Facing::Up,
            (40.0, 47.0),
            Mark::None,
            c,
        );
        let mut down = draw_sprite(
            47,
            51,
            c.wood,
            PieceKind::Gold,
            Color::Sente,
            Face::plain(PieceStyle::Kanji),
            Facing::Down,
            (40.0, 47.0),
            Mark::None,
            c,
        );
        image::imageops::rotate180_in_place(&mut down);
        assert_eq!(up, down);
    }
}
