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
    frames.push(r.compose_animation_frame(&pos, None, opts));
    for (index, &mv) in moves.iter().enumerate() {
        pos.check_move(mv)
            .map_err(|reason| GifError::IllegalMove { index, mv, reason })?;
        pos.play_unchecked(mv);
        frames.push(r.compose_animation_frame(&pos, Some(mv), opts));
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
                    buffer: Cow::Owned(lzw_encode(&f.pixels)),
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
                        buffer: Cow::Owned(lzw_encode(&buf)),
                        ..gif::Frame::default()
                    }
                }
            };
            enc.write_lzw_pre_encoded_frame(&frame)
                .expect("GIF frame in memory");
        }
    }
    out
}

/// GIF's LZW for 8-bit indices: the minimum code size byte, then the code
/// stream. Written here rather than taken from the `gif` crate because delta
/// frames are long runs of one index, and a small open-addressing table makes
/// this several times faster than the general encoder for them.
fn lzw_encode(data: &[u8]) -> Vec<u8> {
    const MIN: u32 = 8;
    const CLEAR: u32 = 1 << MIN;
    const EOI: u32 = CLEAR + 1;
    const SLOTS: usize = 1 << 14;
    const EMPTY: u32 = u32::MAX;
    let mut out = Vec::with_capacity(data.len() / 8 + 16);
    out.push(MIN as u8);
    let (mut acc, mut nbits) = (0u64, 0u32);
    let mut put = |out: &mut Vec<u8>, code: u32, width: u32| {
        acc |= u64::from(code) << nbits;
        nbits += width;
        while nbits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            nbits -= 8;
        }
    };
    let mut keys = vec![EMPTY; SLOTS];
    let mut vals = vec![0u16; SLOTS];
    let mut width = MIN + 1;
    let mut max_code = EOI;
    put(&mut out, CLEAR, width);
    let Some((&first, rest)) = data.split_first() else {
        put(&mut out, EOI, width);
        if nbits > 0 {
            out.push(acc as u8);
        }
        return out;
    };
    // Runs of the transparent index dominate delta frames. The codes for
    // "T repeated k times" are kept in `runs[k]`, so extending a run needs no
    // hashing; those entries never go into the hash table.
    const T: u8 = TRANSPARENT;
    let mut runs: Vec<u16> = vec![0, u16::from(T)];
    let mut cur = u32::from(first);
    let mut run = usize::from(first == T);
    for &b in rest {
        if run > 0 && b == T {
            if let Some(&code) = runs.get(run + 1) {
                cur = u32::from(code);
                run += 1;
                continue;
            }
            put(&mut out, cur, width);
            max_code += 1;
            runs.push(max_code as u16);
        } else {
            let key = (cur << 8) | u32::from(b);
            let mut slot = (key.wrapping_mul(0x9E37_79B1) >> 18) as usize & (SLOTS - 1);
            let found = loop {
                let k = keys[slot];
                if k == key {
                    break Some(vals[slot]);
                }
                if k == EMPTY {
                    break None;
                }
                slot = (slot + 1) & (SLOTS - 1);
            };
            if let Some(code) = found {
                cur = u32::from(code);
                run = 0;
                continue;
            }
            put(&mut out, cur, width);
            max_code += 1;
            keys[slot] = key;
            vals[slot] = max_code as u16;
        }
        if max_code >= (1 << width) {
            width += 1;
        }
        if max_code == 4095 {
            put(&mut out, CLEAR, width);
            keys.fill(EMPTY);
            runs.truncate(2);
            width = MIN + 1;
            max_code = EOI;
        }
        cur = u32::from(b);
        run = usize::from(b == T);
    }
    put(&mut out, cur, width);
    put(&mut out, EOI, width);
    if nbits > 0 {
        out.push(acc as u8);
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

    /// Decodes one frame of `w`×`h` indices written with our LZW.
    fn roundtrip(data: &[u8], w: u16, h: u16) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut enc = gif::Encoder::new(&mut out, w, h, &[0u8; 768]).unwrap();
            let f = gif::Frame {
                width: w,
                height: h,
                buffer: Cow::Owned(lzw_encode(data)),
                ..gif::Frame::default()
            };
            enc.write_lzw_pre_encoded_frame(&f).unwrap();
        }
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::Indexed);
        let mut dec = opts.read_info(out.as_slice()).unwrap();
        dec.read_next_frame().unwrap().unwrap().buffer.to_vec()
    }

    #[test]
    fn lzw_roundtrips() {
        // Noise fills the table many times over (clear codes); runs make long codes.
        let mut rng = fastrand::Rng::with_seed(7);
        let noise: Vec<u8> = (0..300 * 200).map(|_| rng.u8(..)).collect();
        assert_eq!(roundtrip(&noise, 300, 200), noise);
        let runs: Vec<u8> = (0..300 * 200)
            .map(|i| {
                if (i / 300) % 40 < 30 {
                    255
                } else {
                    (i % 5) as u8
                }
            })
            .collect();
        assert_eq!(roundtrip(&runs, 300, 200), runs);
        let few: Vec<u8> = (0..64 * 64).map(|i| (i % 3) as u8).collect();
        assert_eq!(roundtrip(&few, 64, 64), few);
        assert_eq!(roundtrip(&[42], 1, 1), vec![42]);
        assert_eq!(roundtrip(&[255], 1, 1), vec![255]);
        let blank = vec![TRANSPARENT; 300 * 200];
        assert_eq!(roundtrip(&blank, 300, 200), blank);
        // Runs of the transparent index between noise, across table resets.
        let mixed: Vec<u8> = (0..300 * 200)
            .map(|i| {
                if (i / 97) % 3 == 0 {
                    rng.u8(..)
                } else {
                    TRANSPARENT
                }
            })
            .collect();
        assert_eq!(roundtrip(&mixed, 300, 200), mixed);
    }

    #[test]
    fn delta_frames_rebuild_every_position() {
        let start = Position::startpos();
        let usi = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8b3b", "4e3d"];
        let moves: Vec<Move> = usi.iter().map(|m| Move::from_usi(m).unwrap()).collect();
        let opts = RenderOptions {
            flip: true,
            ..RenderOptions::default()
        };
        let r = Renderer::new();
        let bytes = r.game_gif(&start, &moves, &opts).unwrap();
        let mut dopts = gif::DecodeOptions::new();
        dopts.set_color_output(gif::ColorOutput::Indexed);
        let mut dec = dopts.read_info(bytes.as_slice()).unwrap();
        let (w, h) = (usize::from(dec.width()), usize::from(dec.height()));
        let mut canvas = vec![0u8; w * h];
        let mut pos = start;
        for i in 0..=moves.len() {
            let f = dec.read_next_frame().unwrap().unwrap();
            for y in 0..usize::from(f.height) {
                for x in 0..usize::from(f.width) {
                    let p = f.buffer[y * usize::from(f.width) + x];
                    if Some(p) != f.transparent {
                        canvas[(y + usize::from(f.top)) * w + x + usize::from(f.left)] = p;
                    }
                }
            }
            let last = i.checked_sub(1).map(|k| moves[k]);
            if let Some(mv) = last {
                pos.play_unchecked(mv);
            }
            assert!(
                canvas == r.compose_animation_frame(&pos, last, &opts).pixels,
                "frame {i}"
            );
        }
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
