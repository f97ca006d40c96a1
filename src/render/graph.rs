//! The evaluation graph for post-game analysis: one value per ply from Sente's
//! view, in the board's colours, with the point where the game was decided.

use image::RgbImage;

use super::canvas::{draw_text_centered, fill_circle, fill_polygon, fill_rect, segment_points};
use super::theme::blend;
use super::Theme;
use crate::shogi::Color;

/// An engine evaluation, always from Sente's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns (positive: Sente is better).
    Cp(i32),
    /// A forced mate for `winner` in `plies` plies.
    Mate {
        /// The side that mates.
        winner: Color,
        /// Distance to mate.
        plies: u32,
    },
}

/// Centipawns beyond this are drawn at the edge of the graph.
pub const EVAL_CLAMP: i32 = 3000;

impl Eval {
    /// The height of the curve, −1 (Gote winning) ..= 1 (Sente winning):
    /// the clamped value through tanh(cp / 1200), which keeps small
    /// advantages visible and big ones from dwarfing them.
    #[must_use]
    pub fn height(self) -> f32 {
        match self {
            Eval::Cp(cp) => {
                let v = cp.clamp(-EVAL_CLAMP, EVAL_CLAMP) as f32;
                (v / 1200.0).tanh() / (EVAL_CLAMP as f32 / 1200.0).tanh()
            }
            Eval::Mate {
                winner: Color::Sente,
                ..
            } => 1.0,
            Eval::Mate {
                winner: Color::Gote,
                ..
            } => -1.0,
        }
    }
}

/// How the game was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEndKind {
    /// Checkmate on the board.
    Checkmate,
    /// The loser resigned (or lost on time, or by another rule).
    Resignation,
}

/// The point where the game was decided, marked on the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The ply after which the game ended (0 = start position).
    pub ply: usize,
    /// Mate or resignation.
    pub kind: GameEndKind,
    /// Who won.
    pub winner: Color,
}

const W: u32 = 647;
const H: u32 = 230;
const LEFT: f32 = 34.0;
const RIGHT: f32 = 14.0;
const TOP: f32 = 14.0;
const BOTTOM: f32 = 30.0;

/// A PNG of the evaluation per ply (`evals[0]` is the start position), with
/// the turning points marked: `turning` holds the move numbers of the moves
/// that gave the game away (the curve after move `n` is `evals[n]`), each
/// drawn as a ring on the curve with its number beside it.
#[must_use]
pub fn eval_graph_png(
    evals: &[Eval],
    end: Option<GameEnd>,
    turning: &[usize],
    theme: Theme,
) -> Vec<u8> {
    super::canvas::rgb_png(&draw_graph(evals, end, turning, theme))
}

/// The scale on the left: pawns (a pawn is 100 centipawns) at which a
/// labelled line is drawn, on each side of zero.
const SCALE_PAWNS: [i32; 2] = [3, 10];

fn draw_graph(evals: &[Eval], end: Option<GameEnd>, turning: &[usize], theme: Theme) -> RgbImage {
    let c = theme.colors();
    let mut img = RgbImage::from_pixel(W, H, image::Rgb(c.frame));
    let (x0, x1) = (LEFT, W as f32 - RIGHT);
    let (y0, y1) = (TOP, H as f32 - BOTTOM);
    let mid = (y0 + y1) / 2.0;
    let half = (y1 - y0) / 2.0;
    let plot_bg = blend(c.frame, c.coord, 0.07);
    fill_rect(
        &mut img,
        x0 as i32,
        y0 as i32,
        (x1 - x0) as u32,
        (y1 - y0) as u32,
        plot_bg,
    );
    let plies = end
        .map_or(0, |e| e.ply)
        .max(evals.len().saturating_sub(1))
        .clamp(1, 100_000);
    let px = |ply: usize| x0 + (x1 - x0) * ply.min(plies) as f32 / plies as f32;
    let py = |h: f32| mid - h.clamp(-1.0, 1.0) * (half - 1.0);
    // Grid: the scale's lines, labelled in pawns in the left margin (the
    // curve is compressed towards the edges, so the labels say what a
    // height means), and ply ticks.
    let faint = blend(plot_bg, c.coord, 0.18);
    for pawns in SCALE_PAWNS {
        for sign in [1, -1] {
            let y = py(Eval::Cp(sign * pawns * 100).height());
            fill_rect(
                &mut img,
                x0 as i32,
                y.round() as i32,
                (x1 - x0) as u32,
                1,
                faint,
            );
            let label = format!("{}{pawns}", if sign > 0 { '+' } else { '-' });
            draw_text_centered(&mut img, &label, 11.0, LEFT / 2.0, y + 0.5, c.coord);
        }
    }
    draw_text_centered(&mut img, "0", 11.0, LEFT / 2.0, mid + 0.5, c.coord);
    let tick = ply_tick(plies);
    let mut t = 0;
    while t <= plies {
        let x = px(t).round() as i32;
        fill_rect(&mut img, x, y0 as i32, 1, (y1 - y0) as u32, faint);
        draw_text_centered(
            &mut img,
            &t.to_string(),
            12.0,
            x as f32 + 0.5,
            y1 + 13.0,
            c.coord,
        );
        t += tick;
    }
    // The area between the curve and zero: light where Sente leads, dark where Gote does.
    let mut pts: Vec<(f32, f32)> = Vec::with_capacity(evals.len() * 2);
    for (i, e) in evals.iter().enumerate() {
        let p = (px(i), py(e.height()));
        if let Some(&(qx, qy)) = pts.last() {
            if (qy - mid) * (p.1 - mid) < 0.0 {
                let t = (mid - qy) / (p.1 - qy);
                pts.push((qx + (p.0 - qx) * t, mid));
            }
        }
        pts.push(p);
    }
    if let (Some(&(fx, _)), Some(&(lx, _))) = (pts.first(), pts.last()) {
        let sente = blend(plot_bg, c.wood, 0.85);
        let gote = blend(plot_bg, c.grid, 0.9);
        let mut above = vec![(fx, mid)];
        above.extend(pts.iter().map(|&(x, y)| (x, y.min(mid))));
        above.push((lx, mid));
        fill_polygon(&mut img, &above, sente);
        let mut below = vec![(fx, mid)];
        below.extend(pts.iter().map(|&(x, y)| (x, y.max(mid))));
        below.push((lx, mid));
        fill_polygon(&mut img, &below, gote);
    }
    fill_rect(
        &mut img,
        x0 as i32,
        mid as i32,
        (x1 - x0) as u32,
        1,
        blend(plot_bg, c.coord, 0.5),
    );
    for w in pts.windows(2) {
        fill_polygon(&mut img, &segment_points(w[0], w[1], 2.2), c.marker_on);
    }
    // The turning points: a ring on the curve and the move's number above
    // it (below it when the curve is near the top).
    for &n in turning {
        let Some(e) = evals.get(n) else { continue };
        let (x, y) = (px(n), py(e.height()));
        fill_circle(&mut img, x, y, 5.5, c.check);
        fill_circle(&mut img, x, y, 3.0, plot_bg);
        let ly = if y - 14.0 < y0 { y + 13.0 } else { y - 12.0 };
        let lx = x.clamp(x0 + 10.0, x1 - 10.0);
        draw_text_centered(&mut img, &n.to_string(), 12.0, lx, ly, c.check);
    }
    // Who is up: ☗ above the zero line, ☖ below.
    marker(&mut img, LEFT / 2.0, y0 + 14.0, true, c.coord, c.frame);
    marker(&mut img, LEFT / 2.0, y1 - 14.0, false, c.coord, c.frame);
    if let Some(e) = end {
        let x = px(e.ply);
        let win_y = if e.winner == Color::Sente {
            y0 + 2.0
        } else {
            y1 - 2.0
        };
        match e.kind {
            GameEndKind::Checkmate => {
                fill_polygon(
                    &mut img,
                    &segment_points((x, mid), (x, win_y), 2.0),
                    c.check,
                );
            }
            GameEndKind::Resignation => {
                let mut y = mid;
                let dir = if win_y < mid { -1.0 } else { 1.0 };
                while (win_y - y) * dir > 0.0 {
                    let y2 = y + dir * 5.0;
                    let y2 = if (win_y - y2) * dir < 0.0 { win_y } else { y2 };
                    fill_polygon(&mut img, &segment_points((x, y), (x, y2), 2.0), c.check);
                    y = y2 + dir * 4.0;
                }
            }
        }
        fill_circle(&mut img, x, win_y, 5.0, c.check);
        let my = if e.winner == Color::Sente {
            y0 + 16.0
        } else {
            y1 - 16.0
        };
        let mx = if x > x1 - 20.0 { x - 14.0 } else { x + 14.0 };
        marker(&mut img, mx, my, e.winner == Color::Sente, c.check, plot_bg);
    }
    img
}

/// A small koma marker (☗ filled, ☖ outlined).
fn marker(img: &mut RgbImage, cx: f32, cy: f32, filled: bool, col: [u8; 3], bg: [u8; 3]) {
    let (w, h) = (13.0, 16.0);
    let (l, t) = (cx - w / 2.0, cy - h / 2.0);
    let pts = [
        (cx, t),
        (l + w * 0.9, t + h * 0.24),
        (l + w, t + h),
        (l, t + h),
        (l + w * 0.1, t + h * 0.24),
    ];
    fill_polygon(img, &pts, col);
    if !filled {
        fill_polygon(img, &super::canvas::inset_convex(&pts, 1.8), bg);
    }
}

/// Characters the graph can show.
pub(crate) fn graph_chars() -> Vec<char> {
    ('0'..='9').chain(['+', '-']).collect()
}

/// The distance between labelled plies on the graph's axis: every ply of a
/// game shorter than ten (a short game's graph would otherwise be labelled
/// only "0"), then 10, 20, 50, … so that at most about a dozen labels fit.
fn ply_tick(plies: usize) -> usize {
    if plies < 10 {
        return 1;
    }
    [10usize, 20, 50, 100, 200]
        .into_iter()
        .find(|&t| plies / t <= 12)
        .unwrap_or_else(|| plies.div_ceil(12).next_multiple_of(100))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_graph_has_labelled_plies_but_not_too_many() {
        assert_eq!(ply_tick(1), 1);
        assert_eq!(ply_tick(7), 1);
        assert_eq!(ply_tick(10), 10);
        assert_eq!(ply_tick(130), 20);
        for plies in 1..5000 {
            let t = ply_tick(plies);
            let labels = plies / t + 1;
            assert!(
                (2..=14).contains(&labels),
                "{plies} plies: every {t}, {labels} labels"
            );
        }
    }

    #[test]
    fn heights_are_clamped_and_signed() {
        assert_eq!(Eval::Cp(0).height(), 0.0);
        assert!((Eval::Cp(i32::MAX).height() - 1.0).abs() < 1e-6);
        assert!((Eval::Cp(i32::MIN).height() + 1.0).abs() < 1e-6);
        assert!(Eval::Cp(300).height() > 0.2);
        assert_eq!(
            Eval::Mate {
                winner: Color::Gote,
                plies: 3
            }
            .height(),
            -1.0
        );
    }

    #[test]
    fn any_input_draws() {
        for evals in [
            vec![],
            vec![Eval::Cp(5)],
            vec![Eval::Cp(-9999), Eval::Cp(9999), Eval::Cp(0)],
        ] {
            for end in [
                None,
                Some(GameEnd {
                    ply: 0,
                    kind: GameEndKind::Checkmate,
                    winner: Color::Sente,
                }),
                Some(GameEnd {
                    ply: usize::MAX,
                    kind: GameEndKind::Resignation,
                    winner: Color::Gote,
                }),
            ] {
                let png = eval_graph_png(&evals, end, &[0, 1, 5, usize::MAX], Theme::Dark);
                assert!(png.starts_with(b"\x89PNG"));
            }
        }
    }
}
