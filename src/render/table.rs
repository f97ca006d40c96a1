//! A table as a PNG (league standings): a title, a header row and rows of
//! cells, in the board's colours and the board's font. Characters the
//! embedded font does not have (a name in another script) are drawn as `·`,
//! so a name never shows as missing-glyph boxes.

use ab_glyph::Font;
use image::RgbImage;

use super::canvas::{draw_char_at, fill_rect, text_width, FONT};
use super::theme::blend;
use super::Theme;

/// What to draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// The line above the table.
    pub title: String,
    /// Column headings.
    pub header: Vec<String>,
    /// Rows of cells (as many as headings).
    pub rows: Vec<Vec<String>>,
    /// Rows drawn faint (a player who withdrew).
    pub faint: Vec<bool>,
    /// Columns aligned left (the others right): e.g. the name.
    pub left: Vec<usize>,
}

/// Most rows drawn (a league has at most this many players).
pub const MAX_TABLE_ROWS: usize = 64;
/// Most characters of a cell.
const MAX_CELL_CHARS: usize = 24;
/// Most characters of the title.
const MAX_TITLE_CHARS: usize = 80;

const EM: f32 = 17.0;
const TITLE_EM: f32 = 20.0;
const ROW_H: u32 = 30;
const PAD: f32 = 14.0;
const MARGIN: u32 = 16;

/// `text` with the characters the font lacks replaced by `·`, cut to
/// `max` characters.
fn drawable(text: &str, max: usize) -> String {
    let font = &*FONT;
    let mut s: String = text
        .chars()
        .map(|c| {
            if c == ' ' || font.glyph_id(c).0 != 0 {
                c
            } else {
                '·'
            }
        })
        .take(max)
        .collect();
    if text.chars().count() > max {
        s.pop();
        s.push('.');
    }
    s
}

/// Draws `text` with its baseline's left end at (x, y).
fn draw_left(img: &mut RgbImage, text: &str, em: f32, x: f32, y: f32, c: [u8; 3]) {
    let mut at = x;
    for ch in text.chars() {
        draw_char_at(img, ch, em, at, y, c);
        at += text_width(&ch.to_string(), em);
    }
}

/// The table as a PNG.
#[must_use]
pub fn table_png(t: &Table, theme: Theme) -> Vec<u8> {
    super::canvas::rgb_png(&draw_table(t, theme))
}

fn draw_table(t: &Table, theme: Theme) -> RgbImage {
    let c = theme.colors();
    let header: Vec<String> = t
        .header
        .iter()
        .map(|h| drawable(h, MAX_CELL_CHARS))
        .collect();
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .take(MAX_TABLE_ROWS)
        .map(|r| {
            r.iter()
                .map(|cell| drawable(cell, MAX_CELL_CHARS))
                .collect()
        })
        .collect();
    let title = drawable(&t.title, MAX_TITLE_CHARS);
    let cols = header.len().max(1);
    let mut widths = vec![0f32; cols];
    for row in std::iter::once(&header).chain(rows.iter()) {
        for (i, cell) in row.iter().enumerate().take(cols) {
            widths[i] = widths[i].max(text_width(cell, EM));
        }
    }
    let table_w: f32 = widths.iter().map(|w| w + 2.0 * PAD).sum();
    let width =
        (table_w.max(text_width(&title, TITLE_EM) + 2.0 * PAD) as u32 + 2 * MARGIN).max(240);
    let n_rows = u32::try_from(rows.len()).unwrap_or(0);
    let height = MARGIN * 2 + ROW_H + 8 + ROW_H * (n_rows + 1);
    let mut img = RgbImage::from_pixel(width, height, image::Rgb(c.wood));
    let text = c.ink;
    let faint = blend(c.wood, c.ink, 0.45);
    draw_left(
        &mut img,
        &title,
        TITLE_EM,
        MARGIN as f32 + PAD,
        (MARGIN + ROW_H - 8) as f32,
        text,
    );
    let top = MARGIN + ROW_H + 8;
    fill_rect(
        &mut img,
        MARGIN as i32,
        top as i32,
        width - 2 * MARGIN,
        ROW_H,
        c.stand,
    );
    let stripe = blend(c.wood, c.fill, 0.55);
    for (r, row) in std::iter::once(&header).chain(rows.iter()).enumerate() {
        let y = top + ROW_H * u32::try_from(r).unwrap_or(0);
        if r > 0 && r % 2 == 0 {
            fill_rect(
                &mut img,
                MARGIN as i32,
                y as i32,
                width - 2 * MARGIN,
                ROW_H,
                stripe,
            );
        }
        let color = if r > 0 && t.faint.get(r - 1).copied().unwrap_or(false) {
            faint
        } else {
            text
        };
        let baseline = (y + ROW_H) as f32 - 9.0;
        let mut x = MARGIN as f32;
        for (i, cell) in row.iter().enumerate().take(cols) {
            let w = widths[i] + 2.0 * PAD;
            let at = if t.left.contains(&i) {
                x + PAD
            } else {
                x + w - PAD - text_width(cell, EM)
            };
            draw_left(&mut img, cell, EM, at, baseline, color);
            x += w;
        }
    }
    // A rule under the header and at the bottom.
    fill_rect(
        &mut img,
        MARGIN as i32,
        (top + ROW_H) as i32,
        width - 2 * MARGIN,
        1,
        c.grid,
    );
    fill_rect(
        &mut img,
        MARGIN as i32,
        (top + ROW_H * (n_rows + 1)) as i32,
        width - 2 * MARGIN,
        1,
        c.grid,
    );
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        Table {
            title: "Herbstliga 2026 – Runde 3 von 5".into(),
            header: vec!["Pl.".into(), "Spieler".into(), "Pkt.".into(), "SB".into()],
            rows: vec![
                vec!["1".into(), "Jürgen".into(), "2.5".into(), "3.25".into()],
                vec!["2".into(), "名人 carol".into(), "2".into(), "2".into()],
            ],
            faint: vec![false, true],
            left: vec![1],
        }
    }

    #[test]
    fn names_outside_the_font_are_dots_and_long_ones_are_cut() {
        assert_eq!(drawable("Jürgen", MAX_CELL_CHARS), "Jürgen");
        assert_eq!(drawable("名人 carol", MAX_CELL_CHARS), "·· carol");
        let long = "x".repeat(40);
        assert_eq!(
            drawable(&long, MAX_CELL_CHARS).chars().count(),
            MAX_CELL_CHARS
        );
        assert!(drawable(&long, MAX_CELL_CHARS).ends_with('.'));
        assert_eq!(drawable(&long, MAX_TITLE_CHARS), long);
    }

    #[test]
    fn a_table_is_a_png_sized_by_its_rows() {
        let png = table_png(&sample(), Theme::Light);
        let img = image::load_from_memory(&png).expect("a PNG").to_rgb8();
        let mut more = sample();
        more.rows
            .push(vec!["3".into(), "bob".into(), "0".into(), "0".into()]);
        more.faint.push(false);
        let img2 = image::load_from_memory(&table_png(&more, Theme::Dark))
            .unwrap()
            .to_rgb8();
        assert_eq!(img2.height(), img.height() + ROW_H);
        // Something is written: dark ink on the light wood.
        let ink = img.pixels().filter(|p| p.0[0] < 80).count();
        assert!(ink > 200, "{ink} dark pixels");
    }
}
