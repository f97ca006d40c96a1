//! Colours of the two board themes and the fixed 8-bit palette built from them.
//!
//! Every image is drawn in RGB with anti-aliasing and then mapped to a palette
//! of at most 255 colours. The palette is not measured from images: it is the
//! theme's flat colours plus, for every pair of colours that the renderer
//! blends (ink on a piece, a piece edge on a square, a dot on the wood, ...),
//! a ramp of evenly spaced blends. Because the renderer only ever blends such
//! pairs, almost every drawn pixel lands on a palette entry exactly, and the
//! palette is the same whatever was drawn first: images are deterministic.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::Theme;

/// An RGB colour.
pub(crate) type Rgb = [u8; 3];

/// The colours one theme paints with.
#[derive(Clone, Debug)]
pub(crate) struct Colors {
    /// The opaque frame around everything.
    pub frame: Rgb,
    /// Coordinates on the frame.
    pub coord: Rgb,
    /// The board.
    pub wood: Rgb,
    /// Grid lines and hoshi.
    pub grid: Rgb,
    /// The piece stands (komadai).
    pub stand: Rgb,
    /// Piece face.
    pub fill: Rgb,
    /// Piece outline.
    pub edge: Rgb,
    /// Black characters on pieces.
    pub ink: Rgb,
    /// Red characters of promoted pieces.
    pub red: Rgb,
    /// Last move: the square a piece came from.
    pub from: Rgb,
    /// Last move: the square a piece went to.
    pub to: Rgb,
    /// Last move: the square a piece was dropped on.
    pub drop: Rgb,
    /// The square of a king in check.
    pub check: Rgb,
    /// Count badge background.
    pub badge: Rgb,
    /// Count badge digits.
    pub badge_text: Rgb,
    /// Marker of the side to move.
    pub marker_on: Rgb,
    /// Marker of the side not to move.
    pub marker_off: Rgb,
    /// The square of the piece whose targets are shown.
    pub select: Rgb,
    /// Outline of a piece that is attacked and not defended.
    pub danger: Rgb,
    /// A target where the selected piece would be safe.
    pub safe: Rgb,
    /// A target where the selected piece could be taken without recapture.
    pub unsafe_: Rgb,
    /// The last-move arrow and the dashed circle of a drop.
    pub arrow: Rgb,
}

const fn hex(v: u32) -> Rgb {
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

static LIGHT: Colors = Colors {
    frame: hex(0x2A2622),
    coord: hex(0xD8D0C0),
    wood: hex(0xE9C47C),
    grid: hex(0x3A2A12),
    stand: hex(0xCFA25A),
    fill: hex(0xFBEBC6),
    edge: hex(0x6E5026),
    ink: hex(0x161412),
    red: hex(0xC0121C),
    from: hex(0xF3DDA2),
    to: hex(0xF4A545),
    drop: hex(0x9ECF8A),
    check: hex(0xE8604C),
    badge: hex(0x2A2622),
    badge_text: hex(0xFFFFFF),
    marker_on: hex(0xF0A83C),
    marker_off: hex(0x7A7266),
    select: hex(0xB9D9E6),
    danger: hex(0xE0141E),
    safe: hex(0x23913A),
    unsafe_: hex(0xEE6A0A),
    arrow: hex(0x2260B0),
};

static DARK: Colors = Colors {
    frame: hex(0x1C1B1A),
    coord: hex(0xB9B1A4),
    wood: hex(0x6A5238),
    grid: hex(0x231910),
    stand: hex(0x4E3C29),
    fill: hex(0xEBDDBB),
    edge: hex(0x1E150C),
    ink: hex(0x141210),
    red: hex(0xB8101A),
    from: hex(0x8A7048),
    to: hex(0xB27A2A),
    drop: hex(0x5F8A4C),
    check: hex(0xB8402E),
    badge: hex(0xEBDDBB),
    badge_text: hex(0x1C1B1A),
    marker_on: hex(0xF0A83C),
    marker_off: hex(0x6A645C),
    select: hex(0x46707E),
    danger: hex(0xFF3B30),
    safe: hex(0x5CD06E),
    unsafe_: hex(0xFF9A30),
    arrow: hex(0x6AAEF6),
};

impl Theme {
    /// The colours of this theme.
    pub(crate) fn colors(self) -> &'static Colors {
        match self {
            Theme::Light => &LIGHT,
            Theme::Dark => &DARK,
        }
    }

    /// The fixed palette of this theme.
    pub(crate) fn palette(self) -> &'static Palette {
        static PALETTES: LazyLock<[Palette; 2]> =
            LazyLock::new(|| [Palette::for_colors(&LIGHT), Palette::for_colors(&DARK)]);
        &PALETTES[self as usize]
    }
}

/// Blends `fg` over `bg` with coverage `a` (0..=1) in sRGB, rounding.
pub(crate) fn blend(bg: Rgb, fg: Rgb, a: f32) -> Rgb {
    let a = a.clamp(0.0, 1.0);
    let mix = |b: u8, f: u8| -> u8 {
        let v = f32::from(b) + (f32::from(f) - f32::from(b)) * a;
        v.round().clamp(0.0, 255.0) as u8
    };
    [mix(bg[0], fg[0]), mix(bg[1], fg[1]), mix(bg[2], fg[2])]
}

/// Index GIF frames use for "unchanged pixel"; never a palette colour.
pub(crate) const TRANSPARENT: u8 = 255;

/// A fixed palette of at most 255 colours (index 255 stays free for GIF transparency).
#[derive(Clone, Debug)]
pub(crate) struct Palette {
    colors: Vec<Rgb>,
}

impl Palette {
    fn for_colors(c: &Colors) -> Palette {
        let flats = [
            c.frame,
            c.coord,
            c.wood,
            c.grid,
            c.stand,
            c.fill,
            c.edge,
            c.ink,
            c.red,
            c.from,
            c.to,
            c.drop,
            c.check,
            c.badge,
            c.badge_text,
            c.marker_on,
            c.marker_off,
            c.select,
            c.danger,
            c.safe,
            c.unsafe_,
            c.arrow,
        ];
        // (foreground, background) pairs the renderer blends.
        let pairs = [
            (c.grid, c.wood),
            (c.coord, c.frame),
            (c.edge, c.wood),
            (c.edge, c.from),
            (c.edge, c.to),
            (c.edge, c.drop),
            (c.edge, c.check),
            (c.edge, c.stand),
            (c.fill, c.edge),
            (c.ink, c.fill),
            (c.red, c.fill),
            (c.badge, c.stand),
            (c.badge_text, c.badge),
            (c.marker_on, c.frame),
            (c.marker_off, c.frame),
            // Overlays: outlines and targets on the wood, pieces on a
            // selected square or an outline, the arrow, the mate caption.
            (c.danger, c.wood),
            (c.edge, c.danger),
            (c.edge, c.select),
            (c.safe, c.wood),
            (c.unsafe_, c.wood),
            (c.arrow, c.wood),
            (c.arrow, c.fill),
            (c.arrow, c.drop),
            (c.red, c.frame),
        ];
        let mut colors: Vec<Rgb> = Vec::with_capacity(255);
        let push = |v: Rgb, colors: &mut Vec<Rgb>| {
            if !colors.contains(&v) && colors.len() < 255 {
                colors.push(v);
            }
        };
        for f in flats {
            push(f, &mut colors);
        }
        let levels = (255 - flats.len()) / pairs.len() + 1;
        for (fg, bg) in pairs {
            for i in 1..levels {
                push(blend(bg, fg, i as f32 / levels as f32), &mut colors);
            }
        }
        Palette { colors }
    }

    /// The colours, index order.
    #[cfg(test)]
    pub(crate) fn colors(&self) -> &[Rgb] {
        &self.colors
    }

    /// The colour of an index (index 255 and unused indices give the frame colour).
    pub(crate) fn rgb(&self, i: u8) -> Rgb {
        self.colors
            .get(usize::from(i))
            .copied()
            .unwrap_or(self.colors[0])
    }

    /// The palette as `r g b r g b ...` bytes.
    pub(crate) fn bytes(&self) -> Vec<u8> {
        self.colors.iter().flatten().copied().collect()
    }

    /// The nearest palette index (squared RGB distance, lowest index on ties).
    pub(crate) fn nearest(&self, c: Rgb) -> u8 {
        let mut best = 0usize;
        let mut best_d = u32::MAX;
        for (i, p) in self.colors.iter().enumerate() {
            let d: u32 = (0..3)
                .map(|k| {
                    let e = i32::from(p[k]) - i32::from(c[k]);
                    (e * e) as u32
                })
                .sum();
            if d < best_d {
                best_d = d;
                best = i;
                if d == 0 {
                    break;
                }
            }
        }
        best as u8
    }
}

/// Maps RGB pixels to palette indices, remembering answers.
pub(crate) struct Quantizer<'a> {
    palette: &'a Palette,
    cache: HashMap<Rgb, u8>,
}

impl<'a> Quantizer<'a> {
    /// A quantiser for `palette`.
    pub(crate) fn new(palette: &'a Palette) -> Self {
        Quantizer {
            palette,
            cache: HashMap::new(),
        }
    }

    /// Maps a whole RGB buffer (3 bytes a pixel) to indices.
    pub(crate) fn map(&mut self, rgb: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(rgb.len() / 3);
        let mut last: Option<(Rgb, u8)> = None;
        for px in rgb.chunks_exact(3) {
            let c = [px[0], px[1], px[2]];
            let i = match last {
                Some((lc, li)) if lc == c => li,
                _ => {
                    let palette = self.palette;
                    let i = *self.cache.entry(c).or_insert_with(|| palette.nearest(c));
                    last = Some((c, i));
                    i
                }
            };
            out.push(i);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palettes_fit_with_a_free_transparent_index() {
        for t in [Theme::Light, Theme::Dark] {
            let p = t.palette();
            assert!(p.colors().len() <= 255, "{t:?}: {}", p.colors().len());
            assert!(p.colors().len() > 200, "{t:?} wastes palette room");
        }
    }

    #[test]
    fn flat_colours_map_to_themselves() {
        let p = Theme::Light.palette();
        let c = Theme::Light.colors();
        for f in [c.wood, c.fill, c.ink, c.red, c.to, c.frame] {
            assert_eq!(p.rgb(p.nearest(f)), f);
        }
    }

    #[test]
    fn blend_ends() {
        assert_eq!(blend([0, 0, 0], [255, 255, 255], 0.0), [0, 0, 0]);
        assert_eq!(blend([0, 0, 0], [255, 255, 255], 1.0), [255, 255, 255]);
        assert_eq!(blend([0, 0, 0], [255, 255, 255], 7.0), [255, 255, 255]);
    }
}
