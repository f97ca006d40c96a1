//! The command line: `komadai` (or `komadai serve`) runs the Discord bot;
//! `komadai console`, `perft`, `legal` and the tools around them.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::shogi::{divide, perft, Position, STANDARD_START_SFEN};

/// komadai — correspondence shogi for Discord.
#[derive(Debug, Parser)]
#[command(
    name = "komadai",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// What to do (default: run the bot).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of the bot when no subcommand is given.
    #[command(flatten)]
    pub serve: crate::discord::ServeArgs,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the Discord bot (the default): `DISCORD_TOKEN` from the environment.
    Serve(crate::discord::ServeArgs),
    /// Count the leaves of the legal move tree (the node count is the last line).
    Perft {
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// Position (standard start if omitted); 5×5 boards are minishogi.
        #[arg(long)]
        sfen: Option<String>,
        /// Print `move count` for every first move before the total.
        #[arg(long)]
        divide: bool,
    },
    /// Play through the app layer in a terminal: lines `USER COMMAND [ARGS]` on stdin.
    Console(crate::console::ConsoleArgs),
    /// Print the legal moves (USI, sorted, space-separated) of one position, or
    /// of every SFEN line read from stdin.
    Legal {
        /// One position; without it SFEN lines are read from stdin.
        #[arg(long)]
        sfen: Option<String>,
    },
    /// Resolve a typed move (any notation) and print its USI and rendering.
    Notation(crate::notation::cli::NotationArgs),
    /// Convert game records between KIF, CSA and USI (`import`, `export`).
    Kif(crate::notation::cli::KifArgs),
    /// Draw a position as PNG, or a game as an animated GIF.
    Render(crate::render::cli::RenderArgs),
    /// Copy the live database to FILE with SQLite's online backup API (a
    /// consistent snapshot, safe while the bot runs). Restore: see README.
    Backup {
        /// The SQLite database file to copy.
        #[arg(long, default_value = "komadai.db", env = "KOMADAI_DB")]
        db: std::path::PathBuf,
        /// Where to write the backup (replaced if it exists).
        file: std::path::PathBuf,
    },
    /// Serve the read-only game pages (`/g/<token>`) of a database on their
    /// own; `serve`'s HTTP server (--http or --metrics) serves them too.
    Web(crate::web::WebArgs),
    /// Speak the USI protocol on stdin/stdout (for shogi GUIs and match runners).
    Usi,
    /// Tsume puzzles: `generate` writes new ones as TSV lines to stdout.
    #[command(subcommand)]
    Puzzles(PuzzlesCommand),
    /// For `scripts/tune/`: scored positions (TSV on stdin) to evaluation
    /// feature rows on stdout (`engine::tune`).
    #[command(hide = true)]
    TuneFeatures {
        /// Drop positions scored beyond this many centipawns.
        #[arg(long, default_value_t = 3000)]
        max_cp: i32,
    },
    /// For `scripts/nn/`: scored positions (TSV on stdin) to the network's
    /// binary training records on stdout (`engine::tune::write_net_rows`).
    #[command(hide = true)]
    NetRows {
        /// Drop positions scored beyond this many centipawns.
        #[arg(long, default_value_t = 3000)]
        max_cp: i32,
    },
    /// For `scripts/tune/` and `scripts/nn/`: the engine plays itself and
    /// writes every searched position with its score, best move and the
    /// game's result (`engine::selfplay`) as TSV on stdout.
    #[command(hide = true)]
    SelfPlay {
        /// Games to play.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Number of the first game (split a run over processes).
        #[arg(long, default_value_t = 0)]
        first: u64,
        /// Seed of the run.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Mean node budget a move.
        #[arg(long, default_value_t = 10_000)]
        nodes: u64,
        /// Up to this many random moves after the opening line.
        #[arg(long, default_value_t = 8)]
        random_opening: u32,
        /// Chance in 1000 that a later move (before ply 80) is random.
        #[arg(long, default_value_t = 40)]
        random_per_mille: u32,
        /// Opening lines, one `startpos moves ...` a line (as scripts/match/openings.txt).
        #[arg(long)]
        openings: Option<std::path::PathBuf>,
        /// Whether the evaluation's network plays (off unless given: round 1
        /// of `scripts/nn/README.md` is the linear evaluation alone).
        #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
        eval_net: bool,
        /// A network file of `scripts/nn/train.py` in place of the shipped
        /// one (as the USI option `EvalFile`): the rows of a round played
        /// with an earlier network.
        #[arg(long)]
        eval_file: Option<std::path::PathBuf>,
    },
}

/// `komadai puzzles ...`.
#[derive(Debug, Subcommand)]
pub enum PuzzlesCommand {
    /// Find puzzles with a unique first move that mate in exactly `plies`
    /// (filters in `tsume::generate`) and print them as TSV lines.
    Generate {
        /// Mate length in plies (1, 3, 5, ...).
        #[arg(long)]
        plies: u32,
        /// How many puzzles.
        #[arg(long)]
        count: usize,
        /// Seed of the random positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Give up after this many candidate positions.
        #[arg(long, default_value_t = 50_000_000)]
        max_candidates: u64,
        /// Long mates for the benchmark and tests instead of puzzles: the
        /// shortest mate is `plies` up to `max-plies` long and the first move
        /// unique; no other puzzle filter (`tsume::generate::judge_long`).
        #[arg(long)]
        max_plies: Option<u32>,
    },
}

/// Runs the command line and returns the process exit code.
#[must_use]
pub fn main() -> ExitCode {
    // A `.env` file in the working directory (or above) fills in variables
    // that are not already set, before the arguments read them.
    if let Err(e) = dotenvy::dotenv() {
        if !e.not_found() {
            eprintln!("error: reading .env: {e}");
            return ExitCode::FAILURE;
        }
    }
    let cli = Cli::parse();
    let cmd = cli.command.unwrap_or(Command::Serve(cli.serve));
    if let Command::Serve(args) = &cmd {
        if let Err(msg) = args.check() {
            use clap::CommandFactory;
            Cli::command()
                .error(clap::error::ErrorKind::ArgumentConflict, msg)
                .exit();
        }
    }
    match run(cmd) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cmd: Command) -> Result<(), Box<dyn std::error::Error>> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match cmd {
        Command::Serve(args) => {
            drop(out);
            return crate::discord::serve(&args);
        }
        Command::Perft {
            depth,
            sfen,
            divide: split,
        } => {
            let pos = Position::from_sfen(sfen.as_deref().unwrap_or(STANDARD_START_SFEN))?;
            if split {
                let mut rows: Vec<(String, u64)> = divide(&pos, depth)
                    .into_iter()
                    .map(|(m, n)| (m.to_string(), n))
                    .collect();
                rows.sort();
                let mut total = 0;
                for (m, n) in rows {
                    writeln!(out, "{m} {n}")?;
                    total += n;
                }
                writeln!(out, "{total}")?;
            } else {
                writeln!(out, "{}", perft(&pos, depth))?;
            }
        }
        Command::Console(args) => {
            drop(out);
            return crate::console::run(&args);
        }
        Command::Legal { sfen: Some(s) } => {
            writeln!(out, "{}", legal_line(&s))?;
        }
        Command::Render(args) => crate::render::cli::run(&args)?,
        Command::Backup { db, file } => {
            let report = crate::store::backup(&db, &file)?;
            writeln!(
                out,
                "backup of {} written to {}: {} pages, {} bytes",
                db.display(),
                file.display(),
                report.pages,
                report.bytes
            )?;
        }
        Command::Web(args) => {
            drop(out);
            return crate::web::run(&args);
        }
        Command::Usi => {
            drop(out);
            crate::engine::usi::run_stdio()?;
            return Ok(());
        }
        Command::Legal { sfen: None } => {
            for line in std::io::stdin().lock().lines() {
                let line = line?;
                writeln!(out, "{}", legal_line(&line))?;
            }
        }
        Command::TuneFeatures { max_cp } => {
            let stats = crate::engine::tune::write_rows(std::io::stdin().lock(), &mut out, max_cp)?;
            eprintln!("{stats:?}");
        }
        Command::NetRows { max_cp } => {
            let stats =
                crate::engine::tune::write_net_rows(std::io::stdin().lock(), &mut out, max_cp)?;
            eprintln!("{stats:?}");
        }
        Command::SelfPlay {
            games,
            first,
            seed,
            nodes,
            random_opening,
            random_per_mille,
            openings,
            eval_net,
            eval_file,
        } => {
            crate::engine::nn::set_enabled(eval_net);
            if let Some(path) = &eval_file {
                crate::engine::nn::load(path)?;
            }
            let openings = match openings {
                Some(path) => read_openings(&std::fs::read_to_string(&path)?)
                    .map_err(|e| format!("{}: {e}", path.display()))?,
                None => Vec::new(),
            };
            let cfg = crate::engine::selfplay::SelfPlay {
                games,
                first,
                seed,
                nodes,
                random_opening,
                random_per_mille,
                openings,
                ..Default::default()
            };
            let stats = crate::engine::selfplay::generate(&cfg, &mut out, |s| {
                eprintln!("{s:?}");
            })?;
            eprintln!("{stats:?}");
        }
        Command::Notation(args) => crate::notation::cli::run_notation(&args, &mut out)?,
        Command::Kif(args) => crate::notation::cli::run_kif(&args, &mut out)?,
        Command::Puzzles(PuzzlesCommand::Generate {
            plies,
            count,
            seed,
            max_candidates,
            max_plies,
        }) => {
            if plies % 2 == 0 {
                return Err("plies must be odd".into());
            }
            let report = |n, t| eprintln!("found {n} after {t} candidates");
            let (found, rejects) = match max_plies {
                None => {
                    crate::tsume::generate::generate(plies, count, seed, max_candidates, report)
                }
                Some(most) => crate::tsume::generate::generate_long(
                    plies,
                    most,
                    count,
                    seed,
                    max_candidates,
                    report,
                ),
            };
            for p in &found {
                writeln!(out, "{}", p.tsv_line())?;
            }
            eprintln!("rejected: {rejects:?}");
        }
    }
    out.flush()?;
    Ok(())
}

/// The `legal` output for one SFEN: sorted USI moves, or `error: ...`.
#[must_use]
pub fn legal_line(sfen: &str) -> String {
    match Position::from_sfen(sfen) {
        Ok(pos) => {
            let mut moves: Vec<String> =
                pos.legal_moves().iter().map(ToString::to_string).collect();
            moves.sort_unstable();
            moves.join(" ")
        }
        Err(e) => format!("error: {e}"),
    }
}

/// Opening lines for `self-play`: `startpos moves m1 m2 ...` (or just the
/// moves) one a line; blank lines and `#` comments are skipped.
fn read_openings(text: &str) -> Result<Vec<Vec<crate::shogi::Move>>, String> {
    let mut lines = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let moves = line
            .trim_start_matches("startpos")
            .trim()
            .trim_start_matches("moves")
            .split_whitespace()
            .map(|m| {
                crate::shogi::Move::from_usi(m).map_err(|e| format!("line {}: {m}: {e}", n + 1))
            })
            .collect::<Result<Vec<_>, _>>()?;
        lines.push(moves);
    }
    Ok(lines)
}
