//! Board images: a position (and options) in, PNG or GIF bytes out.
//!
//! The picture is what players see after every move, so it is drawn to read at
//! a glance on phones and desktops in Discord's light and dark themes: an
//! opaque image with a quiet dark frame, a wood board with squares slightly
//! taller than wide, pentagon koma graded by rank, the opponent's pieces turned
//! round, both hands on stands with count badges, whose turn it is (☗/☖), the
//! last move and a king in check. Player names and move text stay out of the
//! image: Discord shows them in the message.
//!
//! Speed comes from drawing nothing per image: the static board and every
//! piece sprite (per style, theme, facing and square tint) are drawn once, on
//! first use, into a fixed 8-bit palette per theme; a picture is
//! composed by copying palette indices and written as an indexed PNG. The same
//! input always gives the same bytes.
//!
//! ```
//! use komadai::render::{board_png, RenderOptions};
//! use komadai::shogi::{Move, Position};
//!
//! let pos = Position::startpos();
//! let mv = Move::from_usi("7g7f").unwrap();
//! let png = board_png(&pos.after(mv), Some(mv), &RenderOptions::default());
//! assert!(png.starts_with(b"\x89PNG"));
//! ```

mod board;
mod canvas;
pub mod cli;
mod gif;
mod graph;
mod pieces;
mod table;
mod theme;
mod words;

use std::sync::{LazyLock, OnceLock};

pub use graph::{eval_graph_png, Eval, GameEnd, GameEndKind, EVAL_CLAMP};
pub use table::{table_png, Table, MAX_TABLE_ROWS};

use crate::lang::Lang;
use crate::shogi::{Move, Position, Square};

/// How pieces are labelled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PieceStyle {
    /// One kanji per piece (玉 飛 角 金 銀 桂 香 歩; promoted 龍 馬 全 圭 杏 と in red).
    #[default]
    Kanji,
    /// Two kanji per piece (玉将 飛車 角行 ...; promoted 龍王 龍馬 成銀 ...).
    TwoKanji,
    /// For beginners: dots (one step) and arrows (any distance) show how the
    /// piece moves, with its Western letter (K R B G S N L P) in the middle.
    International,
    /// Our own pictures: crown (king), tower (rook), mitre (bishop), coin
    /// (gold), diamond (silver), horse head (knight), lance tip (lance) and
    /// pawn; promoted pieces show their base picture in red.
    Pictogram,
    /// The pictures with the one-kanji name small below them.
    PictogramKanji,
}

impl PieceStyle {
    /// All styles.
    pub const ALL: [PieceStyle; 5] = [
        PieceStyle::Kanji,
        PieceStyle::TwoKanji,
        PieceStyle::International,
        PieceStyle::Pictogram,
        PieceStyle::PictogramKanji,
    ];
}

/// Board colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    /// Light wood.
    #[default]
    Light,
    /// Dark wood.
    Dark,
}

impl Theme {
    /// All themes.
    pub const ALL: [Theme; 2] = [Theme::Light, Theme::Dark];
}

/// How ranks are labelled at the side of the board (files are always 9..1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Coordinates {
    /// 一..九, as in Japanese diagrams.
    #[default]
    Kanji,
    /// a..i, as in USI/SFEN squares such as 7g.
    Letters,
}

/// Everything a player can choose about the picture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RenderOptions {
    /// Piece labels.
    pub style: PieceStyle,
    /// Colours.
    pub theme: Theme,
    /// Rank labels.
    pub coords: Coordinates,
    /// View from Gote: Gote at the bottom, files 1..9 across the top.
    pub flip: bool,
    /// Draw the opponent's labels upright (the piece still points down).
    pub upright_opponent: bool,
    /// Dots (one step) and short arrows (any distance) round the face that
    /// show how a piece moves, for the kanji and pictogram styles (the
    /// international style always has them; two-kanji faces have no room).
    pub move_dots: bool,
    /// A small name of the piece under its symbol, in `lang`.
    pub names: bool,
    /// The language of the names and captions on the picture.
    pub lang: Lang,
}

/// What to mark on a board beyond the position and the last move: the danger
/// overlay of one viewer and captions. `Marks::default()` marks nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The viewer's own pieces that are attacked and not defended: a red outline.
    pub hanging: Vec<Square>,
    /// The piece whose targets are shown: a subtle highlight of its square.
    pub selected: Option<Square>,
    /// Its targets where it is safe: green.
    pub safe: Vec<Square>,
    /// Its targets where it can be captured without recapture: orange.
    pub unsafe_targets: Vec<Square>,
    /// Write mate on the picture (詰み and the word in the picture's language).
    pub mate: bool,
    /// How often this position has occurred so far; from 3 a caption warns
    /// that the 4th occurrence is sennichite (and at 4 says it is).
    pub repetitions: u8,
}

/// A composed picture: palette indices, one byte a pixel, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
    theme: Theme,
}

impl Frame {
    /// Width in pixels.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The palette index of every pixel, row by row.
    #[must_use]
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The theme whose palette the indices refer to.
    #[must_use]
    pub fn theme(&self) -> Theme {
        self.theme
    }

    /// The picture as an RGB image.
    #[must_use]
    pub fn to_rgb(&self) -> image::RgbImage {
        let pal = self.theme.palette();
        let raw: Vec<u8> = self.pixels.iter().flat_map(|&i| pal.rgb(i)).collect();
        image::RgbImage::from_raw(self.width, self.height, raw)
            .expect("a frame holds width × height pixels")
    }

    /// The picture as an 8-bit indexed PNG.
    #[must_use]
    pub fn to_png(&self) -> Vec<u8> {
        encode_indexed_png(
            self.width,
            self.height,
            &self.pixels,
            &self.theme.palette().bytes(),
        )
    }
}

/// Writes an 8-bit indexed PNG: the Up filter on every row, then one zlib
/// stream at level 2 in one IDAT chunk.
///
/// Written here rather than through the `png` crate's encoder because the
/// format this needs is four chunks, and the crate's general machinery
/// (filter selection, chunked writer, its own buffers) cost a sixth of the
/// encode. Measured on the midgame of `benches/render.rs`, same run, zlib-rs
/// backend: the `png` crate at level 2 with Up 1.20 ms and 29.9 KB, this
/// 0.99 ms and 29.2 KB. Other settings measured then: level 1 0.56 ms but
/// 35.1 KB; level 3 1.39 ms, 28.8 KB; the `png` crate's fdeflate mode with
/// Paeth 0.32 ms but 38.4 KB, over the 32 KB budget. Deflate is the largest
/// part of a `/move` (the load benchmark's profile, `scripts/load/RESULTS.md`).
/// `tests/render_golden.rs` reads the result back with the `png` decoder.
fn encode_indexed_png(width: u32, height: u32, pixels: &[u8], palette: &[u8]) -> Vec<u8> {
    let row = width as usize;
    debug_assert_eq!(pixels.len(), row * height as usize);
    // Every row: filter type 2 (Up), then each byte minus the one above.
    let mut filtered = Vec::with_capacity(pixels.len() + height as usize);
    let mut above: &[u8] = &[];
    for line in pixels.chunks_exact(row) {
        filtered.push(2);
        if above.is_empty() {
            filtered.extend_from_slice(line);
        } else {
            filtered.extend(line.iter().zip(above).map(|(&b, &a)| b.wrapping_sub(a)));
        }
        above = line;
    }
    let mut zlib = Vec::with_capacity(pixels.len() / 8);
    let mut z = flate2::Compress::new(flate2::Compression::new(PNG_LEVEL), true);
    loop {
        // Grows the output until the stream is finished (a board fits the
        // first reservation; noise would not).
        zlib.reserve(zlib.capacity().max(4096));
        let consumed = usize::try_from(z.total_in()).expect("in memory");
        let status = z
            .compress_vec(
                &filtered[consumed..],
                &mut zlib,
                flate2::FlushCompress::Finish,
            )
            .expect("deflate into memory");
        if status == flate2::Status::StreamEnd {
            break;
        }
    }

    let mut out = Vec::with_capacity(zlib.len() + palette.len() + 64);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = [0u8; 13];
    ihdr[..4].copy_from_slice(&width.to_be_bytes());
    ihdr[4..8].copy_from_slice(&height.to_be_bytes());
    // Bit depth 8, colour type 3 (indexed), deflate, adaptive filtering, no interlace.
    ihdr[8..].copy_from_slice(&[8, 3, 0, 0, 0]);
    png_chunk(&mut out, b"IHDR", &ihdr);
    png_chunk(&mut out, b"PLTE", palette);
    png_chunk(&mut out, b"IDAT", &zlib);
    png_chunk(&mut out, b"IEND", &[]);
    out
}

/// Appends one PNG chunk: length, type, data, CRC-32 of type and data.
fn png_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    let len = u32::try_from(data.len()).expect("a PNG chunk under 4 GiB");
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// Kits a renderer can hold: styles × move dots × names (none, English,
/// German) × themes.
const KITS: usize = PieceStyle::ALL.len() * 2 * 3 * 2;

/// zlib level of the board PNGs.
const PNG_LEVEL: u32 = 2;

/// Draws board pictures, keeping the sprites it has drawn for later pictures.
///
/// Most callers use the shared instance through [`board_png`] and friends; a
/// fresh `Renderer` is only needed to measure a cold start.
pub struct Renderer {
    /// One kit per (style, theme, face options); see [`Renderer::kit`].
    kits: [OnceLock<board::Kit>; KITS],
    bases: [board::Bases; 2],
}

impl Default for Renderer {
    fn default() -> Self {
        Renderer::new()
    }
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer").finish_non_exhaustive()
    }
}

impl Renderer {
    /// A renderer with nothing drawn yet.
    #[must_use]
    pub fn new() -> Renderer {
        Renderer {
            kits: std::array::from_fn(|_| OnceLock::new()),
            bases: Theme::ALL.map(board::Bases::new),
        }
    }

    /// The process-wide renderer behind the free functions.
    #[must_use]
    pub fn shared() -> &'static Renderer {
        static SHARED: LazyLock<Renderer> = LazyLock::new(Renderer::new);
        &SHARED
    }

    /// The kit of the sprites `opts` asks for. Options that do not change a
    /// style's faces (dots on the international style, which always has
    /// them, or on two-kanji faces, which have no room) share one kit.
    fn kit(&self, opts: &RenderOptions) -> &board::Kit {
        let face = pieces::Face::of(opts);
        let names = match face.names {
            None => 0,
            Some(Lang::En) => 1,
            Some(Lang::De) => 2,
        };
        let i = ((face.style as usize * 2 + usize::from(face.dots)) * 3 + names) * 2
            + opts.theme as usize;
        self.kits[i].get_or_init(|| board::Kit::new(face, opts.theme))
    }

    /// Composes the picture of `pos`, with `last_move` marked, as palette indices.
    #[must_use]
    pub fn compose(&self, pos: &Position, last_move: Option<Move>, opts: &RenderOptions) -> Frame {
        self.compose_marked(pos, last_move, opts, &Marks::default())
    }

    /// Composes the picture of `pos` with `last_move` and `marks`, as palette indices.
    #[must_use]
    pub fn compose_marked(
        &self,
        pos: &Position,
        last_move: Option<Move>,
        opts: &RenderOptions,
        marks: &Marks,
    ) -> Frame {
        let bases = &self.bases[opts.theme as usize];
        self.kit(opts)
            .compose(bases, pos, last_move, opts, marks, true)
    }

    /// A frame of an animation: like [`Renderer::compose`], without marking
    /// whose turn it is (the moving highlight shows that).
    fn compose_animation_frame(
        &self,
        pos: &Position,
        last_move: Option<Move>,
        opts: &RenderOptions,
    ) -> Frame {
        let bases = &self.bases[opts.theme as usize];
        self.kit(opts)
            .compose(bases, pos, last_move, opts, &Marks::default(), false)
    }

    /// The PNG of `pos`, with `last_move` highlighted.
    #[must_use]
    pub fn board_png(
        &self,
        pos: &Position,
        last_move: Option<Move>,
        opts: &RenderOptions,
    ) -> Vec<u8> {
        self.compose(pos, last_move, opts).to_png()
    }

    /// The PNG of `pos` with `last_move` and `marks`.
    #[must_use]
    pub fn board_png_marked(
        &self,
        pos: &Position,
        last_move: Option<Move>,
        opts: &RenderOptions,
        marks: &Marks,
    ) -> Vec<u8> {
        self.compose_marked(pos, last_move, opts, marks).to_png()
    }

    /// An animated GIF of a game: the start position, one frame per move with
    /// the move highlighted, and a pause on the final position.
    ///
    /// # Errors
    /// [`GifError`] if a move is illegal or the game is too long.
    pub fn game_gif(
        &self,
        start: &Position,
        moves: &[Move],
        opts: &RenderOptions,
    ) -> Result<Vec<u8>, GifError> {
        gif::game_gif(self, start, moves, opts)
    }
}

/// Why a game GIF could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GifError {
    /// Move `index` (0-based) is not legal in the position before it.
    #[error("move {} ({mv}) is illegal: {reason}", index + 1)]
    IllegalMove {
        /// 0-based index into the move list.
        index: usize,
        /// The move.
        mv: Move,
        /// The rule it breaks.
        reason: crate::shogi::IllegalMove,
    },
    /// More moves than [`gif::MAX_GIF_MOVES`].
    #[error("{0} moves are too many for one animation")]
    TooLong(usize),
}

pub use gif::MAX_GIF_MOVES;

/// The PNG of `pos` with `last_move` highlighted, drawn by the shared renderer.
#[must_use]
pub fn board_png(pos: &Position, last_move: Option<Move>, opts: &RenderOptions) -> Vec<u8> {
    Renderer::shared().board_png(pos, last_move, opts)
}

/// The PNG of `pos` with `last_move` and `marks`, drawn by the shared renderer.
#[must_use]
pub fn board_png_marked(
    pos: &Position,
    last_move: Option<Move>,
    opts: &RenderOptions,
    marks: &Marks,
) -> Vec<u8> {
    Renderer::shared().board_png_marked(pos, last_move, opts, marks)
}

/// An animated GIF of a game, drawn by the shared renderer (see [`Renderer::game_gif`]).
///
/// # Errors
/// [`GifError`] if a move is illegal or the game is too long.
pub fn game_gif(
    start: &Position,
    moves: &[Move],
    opts: &RenderOptions,
) -> Result<Vec<u8>, GifError> {
    Renderer::shared().game_gif(start, moves, opts)
}

/// Width and height in pixels of the board picture of a variant.
#[must_use]
pub fn image_size(variant: crate::shogi::Variant) -> (u32, u32) {
    board::image_size(variant)
}

/// Every character any picture can show; the embedded font must have all of them.
#[must_use]
pub fn emitted_chars() -> Vec<char> {
    let mut v = pieces::face_chars();
    v.extend(board::board_chars());
    v.extend(graph::graph_chars());
    v.extend(words::word_chars());
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use ab_glyph::Font;

    #[test]
    fn font_has_every_emitted_character() {
        let font = &*canvas::FONT;
        let missing: Vec<char> = emitted_chars()
            .into_iter()
            .filter(|&c| font.glyph_id(c).0 == 0)
            .collect();
        assert!(missing.is_empty(), "missing glyphs: {missing:?}");
        let listed = include_str!("../../fonts/glyphs.txt");
        for c in emitted_chars() {
            assert!(listed.contains(c), "{c} is not in fonts/glyphs.txt");
        }
    }

    #[test]
    fn same_input_same_bytes() {
        let pos = Position::from_sfen(
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
        )
        .unwrap();
        let mv = Some(Move::from_usi("8h2h+").unwrap_or(Move::from_usi("P*5e").unwrap()));
        let a = Renderer::new().board_png(&pos, mv, &RenderOptions::default());
        let b = Renderer::new().board_png(&pos, mv, &RenderOptions::default());
        let c = board_png(&pos, mv, &RenderOptions::default());
        assert_eq!(a, b);
        assert_eq!(a, c);
    }

    /// The hand-written encoder's PNG reads back, through the `png` crate's
    /// decoder (CRCs and zlib checksum checked), as exactly the palette and
    /// indices it was given: for a board, and for noise that does not
    /// compress (the output buffer has to grow).
    #[test]
    fn encoded_png_reads_back_exactly() {
        let mut rng = fastrand::Rng::with_seed(7);
        let board = Renderer::new().compose(&Position::startpos(), None, &RenderOptions::default());
        let noise: Vec<u8> = (0..97 * 31).map(|_| rng.u8(..)).collect();
        let grey: Vec<u8> = (0..=255u8).flat_map(|v| [v, v / 2, 255 - v]).collect();
        let cases = [
            (
                board.width,
                board.height,
                board.pixels.clone(),
                board.theme.palette().bytes(),
            ),
            (97, 31, noise, grey),
        ];
        for (w, h, pixels, palette) in cases {
            let bytes = encode_indexed_png(w, h, &pixels, &palette);
            let mut dec = png::Decoder::new(std::io::Cursor::new(&bytes[..]));
            dec.set_transformations(png::Transformations::IDENTITY);
            dec.ignore_checksums(false);
            let mut reader = dec.read_info().expect("a valid header");
            assert_eq!(reader.info().color_type, png::ColorType::Indexed);
            assert_eq!(reader.info().palette.as_deref(), Some(&palette[..]));
            let mut buf = vec![0; reader.output_buffer_size().expect("small")];
            let frame = reader.next_frame(&mut buf).expect("valid image data");
            assert_eq!((frame.width, frame.height), (w, h));
            assert_eq!(&buf[..frame.buffer_size()], &pixels[..]);
            reader.finish().expect("a valid end");
        }
    }

    #[test]
    fn renderer_is_shareable_between_threads() {
        fn check<T: Send + Sync>() {}
        check::<Renderer>();
        check::<Frame>();
    }

    /// Random games (fixed seed), random options and random "last moves",
    /// many of them nonsense: every picture is drawn without panicking and
    /// has the size of its variant.
    #[test]
    fn random_positions_and_options_draw() {
        use crate::shogi::{PieceKind, Square};
        let mut rng = fastrand::Rng::with_seed(2024);
        let r = Renderer::new();
        for game in 0..24 {
            let mut pos = if game % 3 == 0 {
                Position::minishogi_startpos()
            } else {
                Position::startpos()
            };
            for ply in 0..rng.usize(0..120) {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mv = legal[rng.usize(..legal.len())];
                pos.play_unchecked(mv);
                if ply % 9 != 0 {
                    continue;
                }
                let sq = |rng: &mut fastrand::Rng| Square::from_index(rng.u8(0..81)).unwrap();
                let last = match rng.u8(0..4) {
                    0 => None,
                    1 => Some(mv),
                    2 => Some(Move::Normal {
                        from: sq(&mut rng),
                        to: sq(&mut rng),
                        promote: true,
                    }),
                    _ => Some(Move::Drop {
                        kind: PieceKind::King,
                        to: sq(&mut rng),
                    }),
                };
                let opts = RenderOptions {
                    style: PieceStyle::ALL[rng.usize(..PieceStyle::ALL.len())],
                    theme: Theme::ALL[rng.usize(0..2)],
                    coords: if rng.bool() {
                        Coordinates::Kanji
                    } else {
                        Coordinates::Letters
                    },
                    flip: rng.bool(),
                    upright_opponent: rng.bool(),
                    move_dots: rng.bool(),
                    names: rng.bool(),
                    lang: crate::lang::Lang::ALL[rng.usize(..2)],
                };
                let squares = |rng: &mut fastrand::Rng| -> Vec<Square> {
                    (0..rng.usize(0..6)).map(|_| sq(rng)).collect()
                };
                let marks = Marks {
                    hanging: squares(&mut rng),
                    selected: rng.bool().then(|| sq(&mut rng)),
                    safe: squares(&mut rng),
                    unsafe_targets: squares(&mut rng),
                    mate: rng.bool(),
                    repetitions: rng.u8(..),
                };
                let f = r.compose_marked(&pos, last, &opts, &marks);
                assert_eq!((f.width, f.height), image_size(pos.variant()));
                assert_eq!(f.pixels.len(), (f.width * f.height) as usize);
            }
        }
    }

    #[test]
    fn odd_last_moves_do_not_panic() {
        let pos = Position::minishogi_startpos();
        let sq = |f, r| crate::shogi::Square::new(f, r).unwrap();
        let odd = [
            Move::Normal {
                from: sq(9, 9),
                to: sq(1, 1),
                promote: false,
            },
            Move::Normal {
                from: sq(1, 1),
                to: sq(9, 9),
                promote: true,
            },
            Move::Drop {
                kind: crate::shogi::PieceKind::Pawn,
                to: sq(9, 9),
            },
            Move::Normal {
                from: sq(5, 5),
                to: sq(5, 5),
                promote: false,
            },
            Move::Normal {
                from: sq(1, 1),
                to: sq(1, 2),
                promote: false,
            },
        ];
        for mv in odd {
            for flip in [false, true] {
                let opts = RenderOptions {
                    flip,
                    ..RenderOptions::default()
                };
                assert!(!board_png(&pos, Some(mv), &opts).is_empty());
            }
        }
    }
}
