//! Piece sprites: the pentagon koma and its face in each style.

use image::RgbImage;

use super::canvas::{
    draw_char_centered, draw_text_centered, fill_circle, fill_polygon, inset_convex, segment_points,
};
use super::theme::{Colors, Rgb};
use super::PieceStyle;
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

/// Draws a `w`×`h` sprite: the background, the piece centred on it and its
/// face. `king` is the (width, height) of the largest piece; other kinds are
/// scaled down from it.
#[allow(clippy::too_many_arguments)] // A plain drawing routine; a struct would only rename the arguments.
pub(crate) fn draw_sprite(
    w: u32,
    h: u32,
    bg: Rgb,
    kind: PieceKind,
    color: Color,
    style: PieceStyle,
    facing: Facing,
    king: (f32, f32),
    colors: &Colors,
) -> RgbImage {
    let mut img = RgbImage::from_pixel(w, h, image::Rgb(bg));
    let (fw, fh) = (w as f32, h as f32);
    let mut outer = pentagon(kind, fw, fh, king);
    if facing == Facing::DownUpright {
        for p in &mut outer {
            p.1 = fh - p.1;
        }
    }
    fill_polygon(&mut img, &outer, colors.edge);
    let edge_w = (king.0 * 0.04).clamp(1.2, 2.4);
    let mut inner = inset_convex(&outer, edge_w);
    // A thicker edge along the base reads as the koma's thickness.
    let base_lift = if facing == Facing::DownUpright {
        -edge_w * 0.7
    } else {
        edge_w * 0.7
    };
    for p in &mut inner[2..4] {
        p.1 -= base_lift;
    }
    fill_polygon(&mut img, &inner, colors.fill);
    let ink = if kind.is_promoted() {
        colors.red
    } else {
        colors.ink
    };
    let s = kind_scale(kind);
    let (pw, ph) = (king.0 * s, king.1 * s);
    let top = (fh - ph) / 2.0;
    // The face's centre sits below the middle: the apex is narrow.
    let cx = fw / 2.0;
    let mirror = |y: f32| {
        if facing == Facing::DownUpright {
            fh - y
        } else {
            y
        }
    };
    match style {
        PieceStyle::Kanji => {
            let cy = top + ph * 0.57;
            let cy = if facing == Facing::DownUpright {
                fh - top - ph * 0.56
            } else {
                cy
            };
            draw_char_centered(&mut img, kanji1(kind, color), ph * 0.66, cx, cy, ink);
        }
        PieceStyle::TwoKanji => {
            let [a, b] = kanji2(kind, color);
            let em = ph * 0.42;
            let (ya, yb) = if facing == Facing::DownUpright {
                (fh - top - ph * 0.70, fh - top - ph * 0.30)
            } else {
                (top + ph * 0.39, top + ph * 0.76)
            };
            draw_char_centered(&mut img, a, em, cx, ya, ink);
            draw_char_centered(&mut img, b, em, cx, yb, ink);
        }
        PieceStyle::International => {
            let cy = mirror(top + ph * 0.565);
            let (rx, ry) = (pw * 0.37, ph * 0.30);
            // Forward is up on the sprite, except for DownUpright pieces.
            let fwd = if facing == Facing::DownUpright {
                -1.0
            } else {
                1.0
            };
            let dot = (pw * 0.072).max(1.6);
            let line = (pw * 0.07).max(1.5);
            for st in moves(kind) {
                match st {
                    Step::One(dx, dy) => {
                        let (px, py) = (cx + f32::from(dx) * rx, cy + f32::from(dy) * ry * fwd);
                        fill_circle(&mut img, px, py, dot, ink);
                    }
                    Step::Slide(dx, dy) => {
                        let (ux, uy) = (f32::from(dx), f32::from(dy) * fwd);
                        let a = (cx + ux * rx * 0.6, cy + uy * ry * 0.6);
                        let b = (cx + ux * rx * 1.08, cy + uy * ry * 1.08);
                        fill_polygon(&mut img, &segment_points(a, b, line), ink);
                        // Arrow head at the far end.
                        let len = (ux * ux * rx * rx + uy * uy * ry * ry).sqrt();
                        let (tx, ty) = (ux * rx / len, uy * ry / len);
                        let (nx, ny) = (-ty, tx);
                        let hl = dot * 2.0;
                        let tip = (b.0 + tx * hl * 0.6, b.1 + ty * hl * 0.6);
                        let base = (b.0 - tx * hl * 0.4, b.1 - ty * hl * 0.4);
                        fill_polygon(
                            &mut img,
                            &[
                                tip,
                                (base.0 + nx * hl * 0.62, base.1 + ny * hl * 0.62),
                                (base.0 - nx * hl * 0.62, base.1 - ny * hl * 0.62),
                            ],
                            ink,
                        );
                    }
                    Step::Jump(dx) => {
                        let px = cx + f32::from(dx) * rx * 0.55;
                        let py = cy - 1.55 * ry * fwd;
                        fill_circle(&mut img, px, py, dot, ink);
                    }
                }
            }
            let mut t = [0u8; 4];
            draw_text_centered(
                &mut img,
                letter(kind).encode_utf8(&mut t),
                ph * 0.45,
                cx,
                cy,
                ink,
            );
        }
    }
    if facing == Facing::Down {
        image::imageops::rotate180_in_place(&mut img);
    }
    img
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

    #[test]
    fn down_sprite_is_the_up_sprite_rotated() {
        let c = super::super::Theme::Light.colors();
        let up = draw_sprite(
            47,
            51,
            c.wood,
            PieceKind::Gold,
            Color::Sente,
            PieceStyle::Kanji,
            Facing::Up,
            (40.0, 47.0),
            c,
        );
        let mut down = draw_sprite(
            47,
            51,
            c.wood,
            PieceKind::Gold,
            Color::Sente,
            PieceStyle::Kanji,
            Facing::Down,
            (40.0, 47.0),
            c,
        );
        image::imageops::rotate180_in_place(&mut down);
        assert_eq!(up, down);
    }
}
