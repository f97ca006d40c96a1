//! Animated GIF of a whole game. All frames share the theme's palette; after
//! the first, each frame stores only the rectangle that changed, with
//! unchanged pixels transparent, which keeps both the file and the LZW work small.

use std::borrow::Cow;

use super::theme::TRANSPARENT;
use super::{Frame, GifError, RenderOptions, Renderer};
use crate::shogi::{Move, Position};

/// Longest move list [`Renderer::game_gif`] animates.
pub const MAX_GIF_MOVES: usize = 1000;

/// Delay of the start position and of every move, in hundredths of a second.
const MOVE_DELAY: u16 = 100;
/// Delay of the final position before the animation starts again.
const FINAL_DELAY: u16 = 500;

pub(super) fn game_gif(
    r: &Renderer,
    start: &Position,
    moves: &[Move],
    opts: &RenderOptions,
) -> Result<Vec<u8>, GifError> {
    if moves.len() > MAX_GIF_MOVES {
        return Err(GifError::TooLong(moves.len()));
    }
    let mut pos = start.clone();
    let mut frames = Vec::with_capacity(moves.len() + 1);
    frames.push(r.compose(&pos, None, opts));
    for (index, &mv) in moves.iter().enumerate() {
        pos.check_move(mv)
            .map_err(|reason| GifError::IllegalMove { index, mv, reason })?;
        pos.play_unchecked(mv);
        frames.push(r.compose(&pos, Some(mv), opts));
    }
    Ok(encode(&frames))
}

/// The smallest rectangle (x, y, w, h) holding every pixel that differs.
fn changed_box(a: &Frame, b: &Frame) -> Option<(usize, usize, usize, usize)> {
    let w = a.width as usize;
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (y, (ra, rb)) in a
        .pixels
        .chunks_exact(w)
        .zip(b.pixels.chunks_exact(w))
        .enumerate()
    {
        if ra == rb {
            continue;
        }
        let first = ra.iter().zip(rb).position(|(p, q)| p != q).unwrap_or(0);
        let last = w
            - 1
            - ra.iter()
                .rev()
                .zip(rb.iter().rev())
                .position(|(p, q)| p != q)
                .unwrap_or(0);
        x0 = x0.min(first);
        x1 = x1.max(last);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    (x0 != usize::MAX).then(|| (x0, y0, x1 - x0 + 1, y1 - y0 + 1))
}

fn encode(frames: &[Frame]) -> Vec<u8> {
    let Some(first) = frames.first() else {
        return Vec::new();
    };
    let (w, h) = (first.width as u16, first.height as u16);
    let palette = first.theme.palette().bytes();
    let mut out = Vec::with_capacity(256 * 1024);
    {
        let mut enc = gif::Encoder::new(&mut out, w, h, &palette).expect("GIF header in memory");
        enc.set_repeat(gif::Repeat::Infinite)
            .expect("GIF extension in memory");
        let last = frames.len() - 1;
        for (i, f) in frames.iter().enumerate() {
            let delay = if i == last { FINAL_DELAY } else { MOVE_DELAY };
            let frame = match i.checked_sub(1).map(|p| &frames[p]) {
                None => gif::Frame {
                    width: w,
                    height: h,
                    delay,
                    buffer: Cow::Borrowed(&f.pixels),
                    ..gif::Frame::default()
                },
                Some(prev) => {
                    let (x, y, bw, bh) = changed_box(prev, f).unwrap_or((0, 0, 1, 1));
                    let stride = f.width as usize;
                    let mut buf = Vec::with_capacity(bw * bh);
                    for row in y..y + bh {
                        let a = &prev.pixels[row * stride + x..row * stride + x + bw];
                        let b = &f.pixels[row * stride + x..row * stride + x + bw];
                        buf.extend(
                            a.iter()
                                .zip(b)
                                .map(|(&p, &q)| if p == q { TRANSPARENT } else { q }),
                        );
                    }
                    gif::Frame {
                        left: x as u16,
                        top: y as u16,
                        width: bw as u16,
                        height: bh as u16,
                        delay,
                        transparent: Some(TRANSPARENT),
                        dispose: gif::DisposalMethod::Keep,
                        buffer: Cow::Owned(buf),
                        ..gif::Frame::default()
                    }
                }
            };
            enc.write_frame(&frame).expect("GIF frame in memory");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::game_gif;

    #[test]
    fn short_game_animates_and_decodes() {
        let start = Position::startpos();
        let moves: Vec<Move> = ["7g7f", "3c3d", "8h2b+", "3a2b"]
            .iter()
            .map(|m| Move::from_usi(m).unwrap())
            .collect();
        let bytes = game_gif(&start, &moves, &RenderOptions::default()).unwrap();
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::Indexed);
        let mut dec = opts.read_info(bytes.as_slice()).unwrap();
        let mut n = 0;
        let mut delays = Vec::new();
        while let Some(f) = dec.read_next_frame().unwrap() {
            n += 1;
            delays.push(f.delay);
        }
        assert_eq!(n, 5);
        assert_eq!(delays.last(), Some(&FINAL_DELAY));
    }

    #[test]
    fn illegal_move_is_an_error() {
        let start = Position::startpos();
        let moves = [
            Move::from_usi("7g7f").unwrap(),
            Move::from_usi("7f7e").unwrap(),
        ];
        let e = game_gif(&start, &moves, &RenderOptions::default()).unwrap_err();
        assert!(matches!(e, GifError::IllegalMove { index: 1, .. }), "{e:?}");
    }

    #[test]
    fn empty_game_is_one_frame() {
        let bytes = game_gif(
            &Position::minishogi_startpos(),
            &[],
            &RenderOptions::default(),
        )
        .unwrap();
        assert!(bytes.starts_with(b"GIF89a"));
    }
}
