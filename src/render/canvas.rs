//! RGB drawing primitives: rectangles, anti-aliased polygons and circles, and
//! glyphs from the embedded font, all blended in sRGB.

use std::sync::LazyLock;

use ab_glyph::{point, Font, FontRef, PxScale};
use ab_glyph_rasterizer::Rasterizer;
use image::RgbImage;
use imageproc::drawing::draw_filled_rect_mut;
use imageproc::rect::Rect;

use super::theme::{blend, Rgb};

/// The subset of Noto Serif CJK JP Bold (see `fonts/README.md`).
pub(crate) static FONT_BYTES: &[u8] = include_bytes!("../../fonts/NotoSerifCJKjp-Bold-subset.otf");

/// The embedded font, parsed once.
pub(crate) static FONT: LazyLock<FontRef<'static>> = LazyLock::new(|| {
    FontRef::try_from_slice(FONT_BYTES).expect("the embedded font file is a valid OpenType font")
});

/// The `PxScale` that draws an em of `em_px` pixels. ab_glyph's `PxScale` is
/// the ascent−descent height, which is about 1.44 em for Noto CJK.
pub(crate) fn scale_for_em(em_px: f32) -> PxScale {
    let font = &*FONT;
    let upem = font.units_per_em().unwrap_or(1000.0);
    PxScale::from(em_px * font.height_unscaled() / upem)
}

/// An RGB image as a PNG (the evaluation graph, tables; boards use their
/// palette instead).
pub(crate) fn rgb_png(img: &RgbImage) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 * 1024);
    let mut enc = png::Encoder::new(&mut out, img.width(), img.height());
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Balanced);
    {
        let mut w = enc.write_header().expect("PNG header for a valid size");
        w.write_image_data(img.as_raw())
            .expect("writing PNG data to memory");
    }
    out
}

/// Fills a rectangle (clipped to the image).
pub(crate) fn fill_rect(img: &mut RgbImage, x: i32, y: i32, w: u32, h: u32, c: Rgb) {
    if w == 0 || h == 0 {
        return;
    }
    draw_filled_rect_mut(img, Rect::at(x, y).of_size(w, h), image::Rgb(c));
}

/// Blends `c` with coverage `a` into the pixel at (x, y) if it is inside.
fn plot(img: &mut RgbImage, x: i64, y: i64, c: Rgb, a: f32) {
    if a <= 0.0 || x < 0 || y < 0 || x >= i64::from(img.width()) || y >= i64::from(img.height()) {
        return;
    }
    let p = img.get_pixel_mut(x as u32, y as u32);
    p.0 = blend(p.0, c, a);
}

/// Fills a polygon (any winding, non-zero) with anti-aliased edges.
pub(crate) fn fill_polygon(img: &mut RgbImage, pts: &[(f32, f32)], c: Rgb) {
    if pts.len() < 3 {
        return;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for &(x, y) in pts {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let ox = x0.floor().max(0.0);
    let oy = y0.floor().max(0.0);
    let w = (x1.ceil() - ox).clamp(0.0, img.width() as f32) as usize + 1;
    let h = (y1.ceil() - oy).clamp(0.0, img.height() as f32) as usize + 1;
    let mut r = Rasterizer::new(w, h);
    for i in 0..pts.len() {
        let (ax, ay) = pts[i];
        let (bx, by) = pts[(i + 1) % pts.len()];
        r.draw_line(
            ab_glyph_rasterizer::point(ax - ox, ay - oy),
            ab_glyph_rasterizer::point(bx - ox, by - oy),
        );
    }
    r.for_each_pixel_2d(|x, y, a| {
        plot(
            img,
            i64::from(x) + ox as i64,
            i64::from(y) + oy as i64,
            c,
            a.abs().min(1.0),
        );
    });
}

/// The corners of a regular polygon approximating a circle.
pub(crate) fn circle_points(cx: f32, cy: f32, r: f32) -> Vec<(f32, f32)> {
    let n = ((r * 4.0) as usize).clamp(16, 64);
    (0..n)
        .map(|i| {
            let t = i as f32 / n as f32 * std::f32::consts::TAU;
            (cx + r * t.cos(), cy + r * t.sin())
        })
        .collect()
}

/// Fills an anti-aliased disc.
pub(crate) fn fill_circle(img: &mut RgbImage, cx: f32, cy: f32, r: f32, c: Rgb) {
    fill_polygon(img, &circle_points(cx, cy, r), c);
}

/// The outline of a rounded rectangle (a pill when the radius is half the height).
pub(crate) fn rounded_rect_points(x: f32, y: f32, w: f32, h: f32, r: f32) -> Vec<(f32, f32)> {
    let r = r.min(w / 2.0).min(h / 2.0);
    let mut pts = Vec::with_capacity(40);
    let corners = [
        (x + w - r, y + r, -90.0f32),
        (x + w - r, y + h - r, 0.0),
        (x + r, y + h - r, 90.0),
        (x + r, y + r, 180.0),
    ];
    for (cx, cy, start) in corners {
        for k in 0..=8 {
            let t = (start + 90.0 * k as f32 / 8.0).to_radians();
            pts.push((cx + r * t.cos(), cy + r * t.sin()));
        }
    }
    pts
}

/// A thick line segment as a polygon.
pub(crate) fn segment_points(a: (f32, f32), b: (f32, f32), width: f32) -> Vec<(f32, f32)> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    let (nx, ny) = (-dy / len * width / 2.0, dx / len * width / 2.0);
    vec![
        (a.0 + nx, a.1 + ny),
        (b.0 + nx, b.1 + ny),
        (b.0 - nx, b.1 - ny),
        (a.0 - nx, a.1 - ny),
    ]
}

/// Insets a convex polygon by `d` pixels (each edge moves inwards).
pub(crate) fn inset_convex(pts: &[(f32, f32)], d: f32) -> Vec<(f32, f32)> {
    let n = pts.len();
    // Signed area tells the winding; inward normals depend on it.
    let area: f32 = (0..n)
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    let s = if area > 0.0 { 1.0 } else { -1.0 };
    let lines: Vec<((f32, f32), (f32, f32))> = (0..n)
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-6);
            let (nx, ny) = (-dy / len * s * d, dx / len * s * d);
            ((a.0 + nx, a.1 + ny), (dx, dy))
        })
        .collect();
    (0..n)
        .map(|i| {
            let (p1, d1) = lines[(i + n - 1) % n];
            let (p2, d2) = lines[i];
            let den = d1.0 * d2.1 - d1.1 * d2.0;
            if den.abs() < 1e-6 {
                return p2;
            }
            let t = ((p2.0 - p1.0) * d2.1 - (p2.1 - p1.1) * d2.0) / den;
            (p1.0 + d1.0 * t, p1.1 + d1.1 * t)
        })
        .collect()
}

/// The pixel box a character occupies at `em_px` with its origin at (0, 0):
/// `(min_x, min_y, max_x, max_y)`, or `None` for a character without outline.
pub(crate) fn glyph_box(ch: char, em_px: f32) -> Option<(f32, f32, f32, f32)> {
    let font = &*FONT;
    let g = font
        .glyph_id(ch)
        .with_scale_and_position(scale_for_em(em_px), point(0.0, 0.0));
    let o = font.outline_glyph(g)?;
    let b = o.px_bounds();
    Some((b.min.x, b.min.y, b.max.x, b.max.y))
}

/// Draws a character whose ink box is centred on (cx, cy).
pub(crate) fn draw_char_centered(
    img: &mut RgbImage,
    ch: char,
    em_px: f32,
    cx: f32,
    cy: f32,
    c: Rgb,
) {
    let Some((x0, y0, x1, y1)) = glyph_box(ch, em_px) else {
        return;
    };
    draw_char_at(
        img,
        ch,
        em_px,
        cx - (x0 + x1) / 2.0,
        cy - (y0 + y1) / 2.0,
        c,
    );
}

/// Draws a character with its origin (left end of the baseline) at (x, y).
pub(crate) fn draw_char_at(img: &mut RgbImage, ch: char, em_px: f32, x: f32, y: f32, c: Rgb) {
    let font = &*FONT;
    let g = font
        .glyph_id(ch)
        .with_scale_and_position(scale_for_em(em_px), point(x, y));
    if let Some(o) = font.outline_glyph(g) {
        let b = o.px_bounds();
        let (bx, by) = (b.min.x as i64, b.min.y as i64);
        o.draw(|gx, gy, a| plot(img, bx + i64::from(gx), by + i64::from(gy), c, a));
    }
}

/// The advance width of `text` at `em_px`.
pub(crate) fn text_width(text: &str, em_px: f32) -> f32 {
    let font = &*FONT;
    let scaled = font.as_scaled(scale_for_em(em_px));
    text.chars()
        .map(|ch| ab_glyph::ScaleFont::h_advance(&scaled, font.glyph_id(ch)))
        .sum()
}

/// Draws a short text whose ink box is centred on (cx, cy); characters are
/// placed by their advance widths.
pub(crate) fn draw_text_centered(
    img: &mut RgbImage,
    text: &str,
    em_px: f32,
    cx: f32,
    cy: f32,
    c: Rgb,
) {
    let font = &*FONT;
    let scale = scale_for_em(em_px);
    let scaled = font.as_scaled(scale);
    let mut x = 0.0f32;
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    let mut placed = Vec::new();
    for ch in text.chars() {
        if let Some((a, b, cc, d)) = glyph_box(ch, em_px) {
            x0 = x0.min(x + a);
            x1 = x1.max(x + cc);
            y0 = y0.min(b);
            y1 = y1.max(d);
        }
        placed.push((ch, x));
        x += ab_glyph::ScaleFont::h_advance(&scaled, font.glyph_id(ch));
    }
    if x0 > x1 {
        return;
    }
    let (dx, dy) = (cx - (x0 + x1) / 2.0, cy - (y0 + y1) / 2.0);
    for (ch, px) in placed {
        draw_char_at(img, ch, em_px, px + dx, dy, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn font_loads_and_scale_is_normalised() {
        let s = scale_for_em(20.0);
        assert!(s.y > 25.0 && s.y < 32.0, "{s:?}");
        // A kanji drawn at a 20 px em is about 20 px tall, not 14.
        let (_, y0, _, y1) = glyph_box('王', 20.0).unwrap();
        assert!((15.0..=21.0).contains(&(y1 - y0)), "{}", y1 - y0);
    }

    #[test]
    fn inset_square() {
        let sq = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)];
        let i = inset_convex(&sq, 2.0);
        assert!(
            i.iter()
                .all(|&(x, y)| (1.9..=8.1).contains(&x) && (1.9..=8.1).contains(&y)),
            "{i:?}"
        );
    }

    #[test]
    fn polygon_fill_covers_inside_and_blends_edges() {
        let mut img = RgbImage::from_pixel(10, 10, image::Rgb([0, 0, 0]));
        fill_polygon(
            &mut img,
            &[(2.0, 2.0), (8.0, 2.0), (8.0, 8.5), (2.0, 8.5)],
            [200, 100, 50],
        );
        assert_eq!(img.get_pixel(5, 5).0, [200, 100, 50]);
        assert_eq!(img.get_pixel(0, 0).0, [0, 0, 0]);
        assert_eq!(img.get_pixel(5, 8).0, [100, 50, 25]);
    }
}
