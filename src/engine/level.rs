//! The four computer strengths of `/play`.
//!
//! Strong searches for about 1.5 s after a short mate search. The weaker
//! levels score every legal move with a shallow search, add seeded noise and
//! never pick a move that loses more than their blunder cap against the best
//! one, so their mistakes are the plausible ones a human makes (a loose piece,
//! a slow plan), never absurd ones. Beginner also judges one move in seven or
//! so without looking at the answers at all, as a beginner who moves a piece
//! where it is taken; so a patient beginner, who checks every move and every
//! answer for material, beats it (`scripts/match/patient.py`). They answer
//! in a few milliseconds.

use std::time::{Duration, Instant};

use crate::shogi::{Move, Position};

use super::mate::MateSearch;
use super::score::Score;
use super::search::{Limits, SearchResult, Searcher};

/// A computer strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Looks one move ahead, often misjudges.
    Beginner,
    /// Looks two moves ahead, sometimes misjudges.
    Easy,
    /// A short real search with a little noise.
    Medium,
    /// The full engine: mate search first, then about 1.5 s of search.
    Strong,
}

/// How a weak level picks its move.
struct Style {
    depth: u32,
    nodes: u64,
    noise: i32,
    cap: i32,
    /// Probability (percent) of noticing a mate in one.
    sees_mate1: u32,
    /// Probability (percent) of judging a move without looking at the
    /// answers at all (by the position right after it): the beginner's
    /// mistake of moving a piece where it is taken, or taking a defended
    /// piece with a better one.
    overlooks: u32,
    mate_plies: u32,
}

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 4] = [Level::Beginner, Level::Easy, Level::Medium, Level::Strong];

    /// The level's name (English, as in the USI option).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "Beginner",
            Level::Easy => "Easy",
            Level::Medium => "Medium",
            Level::Strong => "Strong",
        }
    }

    /// Parses a name as given by [`Level::name`] (case-insensitive).
    #[must_use]
    pub fn from_name(s: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s))
    }

    /// The thinking time of Strong.
    pub const STRONG_TIME: Duration = Duration::from_millis(1500);

    /// The search limits of this level for a move started at `start` (the
    /// caller's clock reading). Only Strong uses time; the others count nodes.
    #[must_use]
    pub fn limits(self, start: Instant) -> Limits {
        match self {
            Level::Strong => Limits::time(start, Level::STRONG_TIME).with_mate_first(7),
            _ => Limits::nodes(self.style().nodes),
        }
    }

    fn style(self) -> Style {
        match self {
            Level::Beginner => Style {
                depth: 1,
                nodes: 30_000,
                noise: 220,
                cap: 500,
                sees_mate1: 60,
                mate_plies: 1,
                overlooks: 15,
            },
            Level::Easy => Style {
                depth: 2,
                nodes: 80_000,
                noise: 110,
                cap: 300,
                sees_mate1: 100,
                mate_plies: 1,
                overlooks: 0,
            },
            Level::Medium => Style {
                depth: 3,
                nodes: 300_000,
                noise: 35,
                cap: 120,
                sees_mate1: 100,
                mate_plies: 3,
                overlooks: 0,
            },
            Level::Strong => Style {
                depth: 64,
                nodes: u64::MAX,
                noise: 0,
                cap: 0,
                sees_mate1: 100,
                mate_plies: 7,
                overlooks: 0,
            },
        }
    }
}

/// Chooses the move of `level` at `pos`. `history` holds the earlier positions
/// of the game (see [`Searcher::search`]), `limits` usually comes from
/// [`Level::limits`], and `rng` supplies the weaker levels' noise. `best` is
/// `None` only when there is no legal move.
pub fn choose_move(
    searcher: &mut Searcher,
    pos: &Position,
    history: &[(u64, bool)],
    level: Level,
    limits: Limits,
    rng: &mut fastrand::Rng,
) -> SearchResult {
    if level == Level::Strong {
        return searcher.search(pos, history, limits, |_| {});
    }
    let style = level.style();
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return searcher.search(pos, history, limits, |_| {});
    }
    // Mates: in one for everyone who notices, short ones for Medium.
    if rng.u32(0..100) < style.sees_mate1 {
        let mut ms = MateSearch::new(20_000, limits.stop.clone(), limits.deadline);
        if let Some(line) = ms.find(pos, style.mate_plies) {
            return SearchResult {
                best: line.first().copied(),
                score: Score::Mate(line.len().div_ceil(2) as i32),
                pv: line,
                depth: style.mate_plies,
                nodes: ms.nodes(),
            };
        }
    }
    // (The die is cast only where it can show something, so the levels
    // that never overlook draw the same noise as before.)
    let depth = if style.overlooks > 0 && rng.u32(0..100) < style.overlooks {
        0
    } else {
        style.depth
    };
    let scored = searcher.score_root_moves(pos, history, depth, limits.clone());
    let scored: Vec<(Move, i32)> = if scored.is_empty() {
        // Out of budget before the first move was scored: shallow fallback.
        searcher.score_root_moves(pos, history, 1, Limits::default())
    } else {
        scored
    };
    let best = scored.iter().map(|&(_, s)| s).max().unwrap_or(0);
    let mut choice = scored[0];
    let mut choice_key = i32::MIN;
    for &(mv, s) in &scored {
        if s < best - style.cap {
            continue;
        }
        // Noise proportional to the level; losing mates are never chosen
        // while a move without one exists.
        let key = s.clamp(-20_000, 20_000) + rng.i32(-style.noise..=style.noise);
        if key > choice_key {
            choice_key = key;
            choice = (mv, s);
        }
    }
    SearchResult {
        best: Some(choice.0),
        score: Score::from_internal(choice.1),
        pv: vec![choice.0],
        depth: style.depth,
        nodes: searcher.nodes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_plays_a_legal_move() {
        let p = Position::startpos();
        for level in [Level::Beginner, Level::Easy, Level::Medium] {
            let mut rng = fastrand::Rng::with_seed(7);
            let mut s = Searcher::new(2);
            let r = choose_move(
                &mut s,
                &p,
                &[],
                level,
                Limits::nodes(level.style().nodes),
                &mut rng,
            );
            let mv = r.best.unwrap();
            assert!(p.is_legal(mv), "{level:?} {mv}");
        }
    }

    #[test]
    fn weak_levels_take_a_hanging_rook() {
        // Gote's rook on 4d hangs to the bishop: even Beginner takes it.
        let p = Position::from_sfen("4k4/9/9/5r3/9/9/9/1B7/4K4 b - 1").unwrap();
        for level in [Level::Beginner, Level::Easy, Level::Medium] {
            for seed in 0..5 {
                let mut rng = fastrand::Rng::with_seed(seed);
                let limits = Limits::nodes(level.style().nodes);
                let r = choose_move(&mut Searcher::new(2), &p, &[], level, limits, &mut rng);
                let m = r.best.unwrap().to_string();
                assert!(m.starts_with("8h4d"), "{level:?} seed {seed}: {m}");
            }
        }
    }

    #[test]
    fn beginner_sometimes_overlooks_the_recapture_and_easy_never() {
        // Taking the silver on 5c loses the rook to the gold behind it: a
        // look at the answers shows it, the position right after does not.
        let p = Position::from_sfen("4k4/4g4/4s4/9/4R4/9/9/9/4K4 b - 1").unwrap();
        let takes = |level: Level| {
            (0..100)
                .filter(|&seed| {
                    let mut rng = fastrand::Rng::with_seed(seed);
                    let limits = Limits::nodes(level.style().nodes);
                    let r = choose_move(&mut Searcher::new(2), &p, &[], level, limits, &mut rng);
                    r.best.unwrap().to_string().starts_with("5e5c")
                })
                .count()
        };
        let beginner = takes(Level::Beginner);
        assert!(
            (3..=40).contains(&beginner),
            "Beginner took {beginner} times in 100"
        );
        assert_eq!(takes(Level::Easy), 0);
    }

    #[test]
    fn weak_levels_judge_a_perpetual_check_by_the_game_history() {
        // From a Medium–Easy match: Gote, far ahead, checked with the horse
        // to and fro, and the fourth repetition lost it the game.
        let mut p = Position::from_sfen(
            "r7l/2g1k4/4p1ngp/p1p1s+bpp1/1N7/2PP2P1P/1P1SsP3/1K1+b5/L4+r3 w SP2g2n2l5p 110",
        )
        .unwrap();
        let mut history = Vec::new();
        for m in "6h7i 8h7g 7i6h 7g8h 6h7i 8h7g 7i6h 7g8h 6h7i 8h7g 7i6h 7g8h".split(' ') {
            history.push((p.key(), p.in_check()));
            p = p.after(Move::from_usi(m).unwrap());
        }
        let check = |history: &[(u64, bool)]| {
            let scored = Searcher::new(2).score_root_moves(&p, history, 3, Limits::nodes(300_000));
            scored
                .into_iter()
                .find(|(m, _)| m.to_string() == "6h7i")
                .unwrap()
                .1
        };
        // Without the game's history the check looks as good as the rest of
        // a won game; with it, it is the loss it is.
        assert!(check(&[]) > 1000, "{}", check(&[]));
        assert!(check(&history) < -20_000, "{}", check(&history));
        for level in [Level::Beginner, Level::Easy, Level::Medium] {
            for seed in 0..3 {
                let mut rng = fastrand::Rng::with_seed(seed);
                let limits = Limits::nodes(level.style().nodes);
                let mut s = Searcher::new(2);
                let r = choose_move(&mut s, &p, &history, level, limits, &mut rng);
                assert_ne!(r.best.unwrap().to_string(), "6h7i", "{level:?} seed {seed}");
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for l in Level::ALL {
            assert_eq!(Level::from_name(l.name()), Some(l));
        }
    }
}
