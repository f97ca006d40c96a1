//! Labelled positions from the engine's own games, for fitting evaluations
//! (`scripts/tune/`, `scripts/nn/`): the engine plays itself at a fixed node
//! budget and every searched position is written with its search score, best
//! move and the game's result, in the row format of `scripts/tune/gen.py`:
//!
//! `sfen \t cp N|mate N \t bestmove \t result`
//!
//! with score and result (1, 0.5, 0) from the side to move's point of view.
//!
//! Games start from the start position (or a given opening line) followed by
//! a few uniformly random legal moves, and now and then a random move
//! replaces the engine's later on, so that the positions spread wider than
//! the engine's own preferences. Each game's randomness comes from the seed
//! and the game's number only, so a run can be repeated exactly and split
//! over processes (`--first`).

use std::io::{self, Write};

use super::game_history;
use super::score::Score;
use super::search::{Limits, Searcher};
use crate::shogi::{Color, EnteringKingRule, Game, Move, Outcome, Position};

/// How the games are played.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// Games to play.
    pub games: u64,
    /// Number of the first game (runs split over processes use disjoint ranges).
    pub first: u64,
    /// Seed of the whole run.
    pub seed: u64,
    /// Mean node budget a move; each move draws from 0.5× to 1.5× of it.
    pub nodes: u64,
    /// Uniformly random legal moves after the opening line: from 0 up to this.
    pub random_opening: u32,
    /// Chance in 1000 that a later move is a random legal move.
    pub random_per_mille: u32,
    /// No random moves after this ply.
    pub random_until: usize,
    /// Stop a game as decided once both sides' scores have been beyond this
    /// for `adjudicate_plies` plies in a row (the winner is the side ahead).
    pub adjudicate_cp: i32,
    /// See `adjudicate_cp`.
    pub adjudicate_plies: u32,
    /// Stop a game as a draw after this many plies.
    pub max_plies: usize,
    /// Opening lines (moves from the start position); empty: the start position.
    pub openings: Vec<Vec<Move>>,
    /// Transposition table size in MB.
    pub hash_mb: usize,
}

impl Default for SelfPlay {
    fn default() -> Self {
        SelfPlay {
            games: 100,
            first: 0,
            seed: 1,
            nodes: 10_000,
            random_opening: 8,
            random_per_mille: 40,
            random_until: 80,
            adjudicate_cp: 3_000,
            adjudicate_plies: 6,
            max_plies: 320,
            openings: Vec::new(),
            hash_mb: 16,
        }
    }
}

/// What a run produced.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SelfPlayStats {
    /// Games played.
    pub games: u64,
    /// Rows written.
    pub rows: u64,
    /// Games won by Sente, by Gote, and drawn (including stopped at `max_plies`).
    pub sente: u64,
    /// See `sente`.
    pub gote: u64,
    /// See `sente`.
    pub draws: u64,
}

/// One searched position waiting for its game's result.
struct Row {
    sfen: String,
    side: Color,
    score: Score,
    best: Move,
}

/// Plays the games and writes their rows to `out`; `progress` hears after
/// each game.
///
/// # Errors
/// Writing fails.
pub fn generate<W: Write>(
    cfg: &SelfPlay,
    mut out: W,
    mut progress: impl FnMut(&SelfPlayStats),
) -> io::Result<SelfPlayStats> {
    let mut stats = SelfPlayStats::default();
    let mut searcher = Searcher::new(cfg.hash_mb);
    for g in cfg.first..cfg.first + cfg.games {
        let mut rng = fastrand::Rng::with_seed(mix(cfg.seed, g));
        searcher.clear();
        let (rows, winner) = play_one(cfg, &mut searcher, &mut rng);
        for r in &rows {
            let result = match winner {
                Some(w) if w == r.side => "1",
                Some(_) => "0",
                None => "0.5",
            };
            let score = match r.score {
                Score::Cp(c) => format!("cp {c}"),
                Score::Mate(n) => format!("mate {n}"),
            };
            writeln!(out, "{}\t{}\t{}\t{}", r.sfen, score, r.best, result)?;
        }
        out.flush()?;
        stats.games += 1;
        stats.rows += rows.len() as u64;
        match winner {
            Some(Color::Sente) => stats.sente += 1,
            Some(Color::Gote) => stats.gote += 1,
            None => stats.draws += 1,
        }
        progress(&stats);
    }
    Ok(stats)
}

/// A well-spread 64-bit seed for game `g` of run `seed` (SplitMix64).
fn mix(seed: u64, g: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(g.wrapping_add(1).wrapping_mul(0xBF58_476D_1CE4_E5B9));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays one game; returns its searched positions and the winner (`None`: drawn).
fn play_one(
    cfg: &SelfPlay,
    searcher: &mut Searcher,
    rng: &mut fastrand::Rng,
) -> (Vec<Row>, Option<Color>) {
    let mut game = Game::new(Position::startpos(), EnteringKingRule::Declaration27);
    if !cfg.openings.is_empty() {
        let line = &cfg.openings[rng.usize(..cfg.openings.len())];
        for &mv in line {
            if game.play(mv).is_err() {
                break;
            }
        }
    }
    for _ in 0..rng.u32(..=cfg.random_opening) {
        if !play_random(&mut game, rng) {
            break;
        }
    }
    play_from(cfg, searcher, rng, game)
}

/// Plays `game` on to its end (see [`play_one`]).
fn play_from(
    cfg: &SelfPlay,
    searcher: &mut Searcher,
    rng: &mut fastrand::Rng,
    mut game: Game,
) -> (Vec<Row>, Option<Color>) {
    let mut rows = Vec::new();
    let mut decided = 0u32;
    let mut last_sign = 0i32;
    loop {
        if let Some(o) = game.outcome() {
            let winner = match o {
                Outcome::Win { winner, .. } => Some(winner),
                Outcome::Draw(_) | Outcome::Aborted => None,
            };
            return (rows, winner);
        }
        if game.ply() >= cfg.max_plies {
            return (rows, None);
        }
        let pos = game.position().clone();
        let side = pos.side_to_move();
        let budget = cfg.nodes / 2 + rng.u64(..=cfg.nodes.max(1));
        let r = searcher.search(&pos, &game_history(&game), Limits::nodes(budget), |_| {});
        let Some(best) = r.best else {
            // No legal move: the game's own rules end it on the next turn.
            return (rows, Some(!side));
        };
        rows.push(Row {
            sfen: pos.to_sfen(),
            side,
            score: r.score,
            best,
        });
        // Adjudication: the score from Sente's side beyond the limit, the
        // same way, for enough plies in a row.
        let sente_cp = match side {
            Color::Sente => r.score.as_cp(),
            Color::Gote => -r.score.as_cp(),
        };
        let sign = if sente_cp >= cfg.adjudicate_cp {
            1
        } else if sente_cp <= -cfg.adjudicate_cp {
            -1
        } else {
            0
        };
        decided = if sign != 0 && sign == last_sign {
            decided + 1
        } else {
            u32::from(sign != 0)
        };
        last_sign = sign;
        if decided >= cfg.adjudicate_plies {
            let winner = if sign > 0 { Color::Sente } else { Color::Gote };
            return (rows, Some(winner));
        }
        let random = game.ply() < cfg.random_until
            && rng.u32(..1000) < cfg.random_per_mille
            && !r.score.is_winning_mate();
        if random {
            if !play_random(&mut game, rng) {
                return (rows, Some(!side));
            }
        } else if game.play(best).is_err() {
            // The searcher only returns legal moves; never leave a broken game.
            return (rows, None);
        }
    }
}

/// Plays a uniformly random legal move; false when there is none.
fn play_random(game: &mut Game, rng: &mut fastrand::Rng) -> bool {
    if game.outcome().is_some() {
        return false;
    }
    let moves = game.position().legal_moves();
    if moves.is_empty() {
        return false;
    }
    let mv = moves[rng.usize(..moves.len())];
    game.play(mv).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> SelfPlay {
        SelfPlay {
            games: 2,
            nodes: 300,
            max_plies: 40,
            ..SelfPlay::default()
        }
    }

    #[test]
    fn rows_parse_and_results_agree_within_a_game() {
        let mut out = Vec::new();
        let stats = generate(&small(), &mut out, |_| {}).unwrap();
        assert_eq!(stats.games, 2);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len() as u64, stats.rows);
        assert!(stats.rows >= 2);
        for line in &lines {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 4, "{line}");
            let pos = Position::from_sfen(f[0]).unwrap();
            let mv = Move::from_usi(f[2]).unwrap();
            assert!(pos.is_legal(mv), "{line}");
            assert!(f[1].starts_with("cp ") || f[1].starts_with("mate "));
            assert!(["1", "0", "0.5"].contains(&f[3]));
        }
        // Every ply of a game is a row, so within a game the side to move
        // alternates and the two sides' results add up to one; only the
        // boundary between the two games may break that.
        let breaks = lines
            .windows(2)
            .filter(|w| {
                let a: Vec<&str> = w[0].split('\t').collect();
                let b: Vec<&str> = w[1].split('\t').collect();
                let side = |sfen: &str| sfen.split(' ').nth(1).map(str::to_owned);
                let alternate = side(a[0]) != side(b[0]);
                let sum = a[3].parse::<f32>().unwrap() + b[3].parse::<f32>().unwrap();
                !alternate || sum != 1.0
            })
            .count();
        assert!(breaks <= 1, "{breaks} breaks");
    }

    #[test]
    fn the_same_seed_gives_the_same_rows_and_another_seed_other_rows() {
        let run = |seed, first| {
            let cfg = SelfPlay {
                seed,
                first,
                ..small()
            };
            let mut out = Vec::new();
            generate(&cfg, &mut out, |_| {}).unwrap();
            out
        };
        assert_eq!(run(5, 0), run(5, 0));
        assert_ne!(run(5, 0), run(6, 0));
        assert_ne!(run(5, 0), run(5, 2));
    }

    #[test]
    fn a_decided_game_is_adjudicated_for_the_side_ahead() {
        // Sente has a rook and bishop extra: the game is stopped and scored
        // for Sente long before the ply limit.
        let cfg = SelfPlay {
            games: 1,
            nodes: 2_000,
            random_opening: 0,
            random_per_mille: 0,
            adjudicate_plies: 2,
            max_plies: 200,
            ..SelfPlay::default()
        };
        let start = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2R2BG 1").unwrap();
        let game = Game::new(start, EnteringKingRule::Declaration27);
        let mut searcher = Searcher::new(1);
        let mut rng = fastrand::Rng::with_seed(1);
        let (rows, winner) = play_from(&cfg, &mut searcher, &mut rng, game);
        assert_eq!(winner, Some(Color::Sente));
        assert!(rows.len() < 60, "{} rows", rows.len());
    }
}
