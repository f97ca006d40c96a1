//! The `komadai notation` and `komadai kif` subcommands (argument structs and
//! logic; `crate::cli` only dispatches). This is the one file of the notation
//! module that does I/O.

use std::io::Write;

use clap::{Args, Subcommand, ValueEnum};

use super::{
    format_move, kif, parse_move, read_record, write_record, InputContext, RecordFormat, Style,
};
use crate::i18n::{Lang, Localize};
use crate::shogi::{Move, Position, STANDARD_START_SFEN};

/// Notation styles on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StyleArg {
    /// `7g7f`, `8h2b+`, `P*5e`.
    Usi,
    /// `P-7f`, `Bx2b+`, `S*4e`.
    Western,
    /// `P-76`, `Bx22+`, `S*45`.
    WesternNumeric,
    /// `▲７六歩`, `△同　歩`.
    Japanese,
}

impl From<StyleArg> for Style {
    fn from(s: StyleArg) -> Style {
        match s {
            StyleArg::Usi => Style::Usi,
            StyleArg::Western => Style::Western,
            StyleArg::WesternNumeric => Style::WesternNumeric,
            StyleArg::Japanese => Style::Japanese,
        }
    }
}

/// `komadai notation`: resolve a typed move in a position.
#[derive(Debug, Args)]
pub struct NotationArgs {
    /// The position (standard start if omitted).
    #[arg(long)]
    pub sfen: Option<String>,
    /// The move as a player would type it (`7g7f`, `P-7f`, `76歩`, `同歩`, ...).
    #[arg(long = "move", required_unless_present = "all")]
    pub text: Option<String>,
    /// Instead of one move, print every legal move (USI order) with its rendering.
    #[arg(long)]
    pub all: bool,
    /// The style of the rendering (and of candidates in an ambiguity error).
    #[arg(long, value_enum, default_value = "western")]
    pub style: StyleArg,
    /// The previous move in USI, for `同`.
    #[arg(long)]
    pub previous: Option<String>,
    /// Language of error messages: `en` or `de` (a Discord locale).
    #[arg(long, default_value = "en")]
    pub lang: String,
}

/// Record formats on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// KIF as UTF-8 (`.kifu`).
    Kifu,
    /// KIF as Shift-JIS (`.kif`).
    Kif,
    /// KI2 (Japanese notation without origins) as Shift-JIS (`.ki2`).
    Ki2,
    /// CSA V2.2.
    Csa,
    /// `position sfen … moves …`.
    Usi,
}

/// `komadai kif`: convert game records between KIF, CSA and USI.
#[derive(Debug, Args)]
pub struct KifArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: KifAction,
}

/// The `kif` actions.
#[derive(Debug, Subcommand)]
pub enum KifAction {
    /// Read a KIF/CSA/USI record (format from the extension or the content),
    /// check every move, and print it as `position … moves …`.
    Import {
        /// The record file.
        input: String,
    },
    /// Read a record and write it in another format.
    Export {
        /// The record file (KIF, CSA or USI).
        input: String,
        /// The output format.
        #[arg(long, value_enum)]
        to: FormatArg,
        /// Where to write (stdout if omitted).
        #[arg(long)]
        out: Option<String>,
        /// Leave move times out (e.g. when the source only has placeholders).
        #[arg(long)]
        without_times: bool,
    },
}

/// Runs `komadai notation`. Prints `USI<TAB>rendering` (for one move or, with
/// `--all`, every legal move), or returns the localised error.
pub fn run_notation(
    args: &NotationArgs,
    out: &mut dyn Write,
) -> Result<(), Box<dyn std::error::Error>> {
    let pos = Position::from_sfen(args.sfen.as_deref().unwrap_or(STANDARD_START_SFEN))?;
    let previous = match &args.previous {
        Some(p) => Some(Move::from_usi(p)?),
        None => None,
    };
    let style = Style::from(args.style);
    if args.all {
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        moves.sort_by_key(ToString::to_string);
        for mv in moves {
            writeln!(out, "{mv}\t{}", format_move(&pos, mv, style, previous))?;
        }
        return Ok(());
    }
    let ctx = InputContext {
        previous,
        style: Some(style),
    };
    match parse_move(&pos, args.text.as_deref().unwrap_or(""), ctx) {
        Ok(mv) => {
            writeln!(out, "{mv}\t{}", format_move(&pos, mv, style, previous))?;
            Ok(())
        }
        Err(e) => Err(e.localize(Lang::from_locale(&args.lang)).into()),
    }
}

/// Runs `komadai kif import|export`.
pub fn run_kif(args: &KifArgs, out: &mut dyn Write) -> Result<(), Box<dyn std::error::Error>> {
    let input = match &args.action {
        KifAction::Import { input } | KifAction::Export { input, .. } => input,
    };
    let meta = std::fs::metadata(input)?;
    if meta.len() > super::MAX_RECORD_BYTES as u64 {
        return Err(format!("{input}: larger than {} bytes", super::MAX_RECORD_BYTES).into());
    }
    let bytes = std::fs::read(input)?;
    let mut record = read_record(&bytes, RecordFormat::from_extension(input))
        .map_err(|e| format!("{input}: {e}"))?;
    match &args.action {
        KifAction::Import { .. } => {
            out.write_all(write_record(&record, RecordFormat::Usi)?.as_bytes())?;
        }
        KifAction::Export {
            to,
            out: path,
            without_times,
            ..
        } => {
            if *without_times {
                record.times.clear();
            }
            let bytes = match to {
                FormatArg::Kifu => write_record(&record, RecordFormat::Kif)?.into_bytes(),
                FormatArg::Kif => {
                    let text = write_record(&record, RecordFormat::Kif)?
                        .replace("encoding=UTF-8", "encoding=Shift_JIS");
                    kif::to_shift_jis(&text)
                }
                FormatArg::Ki2 => {
                    let text =
                        kif::write_ki2(&record)?.replace("encoding=UTF-8", "encoding=Shift_JIS");
                    kif::to_shift_jis(&text)
                }
                FormatArg::Csa => write_record(&record, RecordFormat::Csa)?.into_bytes(),
                FormatArg::Usi => write_record(&record, RecordFormat::Usi)?.into_bytes(),
            };
            match path {
                Some(p) => std::fs::write(p, bytes)?,
                None => out.write_all(&bytes)?,
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str, style: StyleArg) -> NotationArgs {
        NotationArgs {
            sfen: None,
            text: Some(text.to_string()),
            all: false,
            style,
            previous: None,
            lang: "de".to_string(),
        }
    }

    #[test]
    fn notation_writes_usi_and_rendering() {
        let mut out = Vec::new();
        run_notation(&args("P-76", StyleArg::Japanese), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "7g7f\t▲７六歩\n");
    }

    #[test]
    fn notation_errors_are_in_the_chosen_language() {
        let mut out = Vec::new();
        let e = run_notation(&args("7g7e", StyleArg::Usi), &mut out).unwrap_err();
        assert!(e.to_string().starts_with("unerlaubter Zug"), "{e}");
    }
}
