//! `komadai render`: draw a position as PNG, or a game as an animated GIF.
//!
//! ```text
//! komadai render --sfen SFEN [--last-move USI]
//!                [--style kanji|kanji2|international|pictogram|pictogram-kanji]
//!                [--move-dots] [--names] [--lang en|de]
//!                [--theme light|dark] [--flip] [--coords kanji|letters] -o board.png
//! komadai render --game GAME.txt --gif -o game.gif
//! ```
//!
//! A game file holds one line `sfen <SFEN> moves <usi>...` or
//! `startpos moves <usi>...` (a leading `position ` is accepted, as in USI).

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{Coordinates, PieceStyle, RenderOptions, Renderer, Theme};
use crate::lang::Lang;
use crate::shogi::{Move, Position, STANDARD_START_SFEN};

/// Arguments of `komadai render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The position to draw (SFEN; 5×5 boards are minishogi).
    #[arg(long, conflicts_with_all = ["game", "kif"])]
    pub sfen: Option<String>,
    /// A game record (KIF, KI2, CSA or USI; Shift-JIS or UTF-8): draws the final
    /// position, or the whole game with --gif.
    #[arg(long, conflicts_with = "game")]
    pub kif: Option<PathBuf>,
    /// A game: `startpos moves ...` or `sfen <SFEN> moves ...`; draws the final
    /// position (with the last move), or the whole game with --gif.
    #[arg(long)]
    pub game: Option<PathBuf>,
    /// Highlight this move (USI, e.g. 7g7f or P*5e) as the last one played.
    #[arg(long, requires = "sfen")]
    pub last_move: Option<String>,
    /// Write an animated GIF of the game (needs --game or --kif).
    #[arg(long)]
    pub gif: bool,
    /// Piece labels.
    #[arg(long, value_enum, default_value_t = StyleArg::Kanji)]
    pub style: StyleArg,
    /// Board colours.
    #[arg(long, value_enum, default_value_t = ThemeArg::Light)]
    pub theme: ThemeArg,
    /// Rank labels.
    #[arg(long, value_enum, default_value_t = CoordsArg::Kanji)]
    pub coords: CoordsArg,
    /// View from Gote.
    #[arg(long)]
    pub flip: bool,
    /// Draw the opponent's labels upright.
    #[arg(long)]
    pub upright: bool,
    /// Movement dots on kanji and pictogram faces.
    #[arg(long)]
    pub move_dots: bool,
    /// A small piece name under each symbol.
    #[arg(long)]
    pub names: bool,
    /// Language of piece names.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    pub lang: LangArg,
    /// Output file.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// `--style` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum StyleArg {
    /// One kanji.
    Kanji,
    /// Two kanji.
    Kanji2,
    /// Movement symbols and letters.
    International,
    /// Pictures (crown, tower, mitre, coin, diamond, horse, lance, pawn).
    Pictogram,
    /// Pictures with a small kanji.
    PictogramKanji,
}

/// `--lang` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LangArg {
    /// English.
    En,
    /// German.
    De,
}

/// `--theme` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ThemeArg {
    /// Light wood.
    Light,
    /// Dark wood.
    Dark,
}

/// `--coords` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum CoordsArg {
    /// 一..九.
    Kanji,
    /// a..i.
    Letters,
}

/// Why `komadai render` failed.
#[derive(Debug, thiserror::Error)]
pub enum RenderCliError {
    /// Neither --sfen nor --game nor --kif.
    #[error("give --sfen, --game or --kif")]
    NoInput,
    /// --gif without a game.
    #[error("--gif needs --game or --kif")]
    GifNeedsGame,
    /// The game record could not be read.
    #[error("{0}")]
    Record(#[from] crate::notation::RecordError),
    /// Bad SFEN.
    #[error("{0}")]
    Sfen(#[from] crate::shogi::SfenError),
    /// Bad move text or an illegal move.
    #[error("{0}")]
    Move(String),
    /// The game file is not `startpos|sfen ... moves ...`.
    #[error("game file: {0}")]
    Game(String),
    /// The GIF could not be made.
    #[error("{0}")]
    Gif(#[from] super::GifError),
    /// Reading or writing a file.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl RenderArgs {
    fn options(&self) -> RenderOptions {
        RenderOptions {
            style: match self.style {
                StyleArg::Kanji => PieceStyle::Kanji,
                StyleArg::Kanji2 => PieceStyle::TwoKanji,
                StyleArg::International => PieceStyle::International,
                StyleArg::Pictogram => PieceStyle::Pictogram,
                StyleArg::PictogramKanji => PieceStyle::PictogramKanji,
            },
            theme: match self.theme {
                ThemeArg::Light => Theme::Light,
                ThemeArg::Dark => Theme::Dark,
            },
            coords: match self.coords {
                CoordsArg::Kanji => Coordinates::Kanji,
                CoordsArg::Letters => Coordinates::Letters,
            },
            flip: self.flip,
            upright_opponent: self.upright,
            move_dots: self.move_dots,
            names: self.names,
            lang: match self.lang {
                LangArg::En => Lang::En,
                LangArg::De => Lang::De,
            },
        }
    }
}

/// Parses `[position] startpos|sfen <SFEN> [moves <usi>...]` into the start
/// position and its moves (each checked against the position before it).
pub fn parse_game_line(text: &str) -> Result<(Position, Vec<Move>), RenderCliError> {
    let text = text.trim();
    let text = text.strip_prefix("position ").unwrap_or(text).trim_start();
    let (head, moves) = match text.split_once(" moves") {
        Some((h, m)) => (h.trim(), m.trim()),
        None => (text, ""),
    };
    let start = if head == "startpos" {
        Position::from_sfen(STANDARD_START_SFEN)?
    } else if let Some(s) = head.strip_prefix("sfen ") {
        Position::from_sfen(s)?
    } else {
        return Err(RenderCliError::Game(
            "expected `startpos` or `sfen <SFEN>`".into(),
        ));
    };
    let mut pos = start.clone();
    let mut list = Vec::new();
    for (i, tok) in moves.split_ascii_whitespace().enumerate() {
        let mv = Move::from_usi(tok)
            .map_err(|_| RenderCliError::Move(format!("move {}: {tok:?} is not USI", i + 1)))?;
        pos.check_move(mv)
            .map_err(|e| RenderCliError::Move(format!("move {} ({tok}) is illegal: {e}", i + 1)))?;
        pos.play_unchecked(mv);
        list.push(mv);
    }
    Ok((start, list))
}

/// Runs `komadai render`.
///
/// # Errors
/// Bad input or an unwritable output file.
pub fn run(args: &RenderArgs) -> Result<(), RenderCliError> {
    let opts = args.options();
    let r = Renderer::shared();
    let game = if let Some(path) = &args.game {
        let text = std::fs::read_to_string(path)?;
        let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        Some(parse_game_line(line)?)
    } else if let Some(path) = &args.kif {
        let record = crate::notation::read_record(&std::fs::read(path)?, None)?;
        Some((record.start, record.moves))
    } else {
        None
    };
    if args.gif && game.is_none() {
        return Err(RenderCliError::GifNeedsGame);
    }
    let bytes = if let Some((start, moves)) = game {
        if args.gif {
            r.game_gif(&start, &moves, &opts)?
        } else {
            let mut pos = start;
            for &m in &moves {
                pos.play_unchecked(m);
            }
            r.board_png(&pos, moves.last().copied(), &opts)
        }
    } else if let Some(sfen) = &args.sfen {
        let pos = Position::from_sfen(sfen)?;
        let last = match &args.last_move {
            Some(t) => Some(
                Move::from_usi(t).map_err(|_| RenderCliError::Move(format!("{t:?} is not USI")))?,
            ),
            None => None,
        };
        r.board_png(&pos, last, &opts)
    } else {
        return Err(RenderCliError::NoInput);
    };
    std::fs::write(&args.output, bytes)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_lines() {
        let (p, m) = parse_game_line("startpos moves 7g7f 3c3d").unwrap();
        assert_eq!(p.to_sfen(), Position::startpos().to_sfen());
        assert_eq!(m.len(), 2);
        let (p, m) = parse_game_line("position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5e4d").unwrap();
        assert_eq!(p.variant().size(), 5);
        assert_eq!(m.len(), 1);
        assert!(parse_game_line("startpos").unwrap().1.is_empty());
        assert!(parse_game_line("startpos moves 7g7e").is_err());
        assert!(parse_game_line("hello").is_err());
    }
}
