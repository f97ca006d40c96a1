//! Scores: centipawns or a mate distance.

use std::fmt;

/// The internal score of "mate now"; mates found `n` plies ahead score `MATE - n`.
pub(crate) const MATE: i32 = 30_000;
/// Internal scores beyond this are mate scores.
pub(crate) const MATE_BOUND: i32 = 29_000;
/// Larger than any score.
pub(crate) const INF: i32 = 31_000;

/// A score from one side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (a pawn is about 100).
    Cp(i32),
    /// Mate in this many of the side's own moves; negative: it gets mated in
    /// that many moves of the opponent; `0`: it is mated now.
    Mate(i32),
}

impl Score {
    /// Converts an internal search score.
    #[must_use]
    pub(crate) fn from_internal(s: i32) -> Score {
        if s > MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s < -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }

    /// The score from the other side's point of view.
    #[must_use]
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(-c),
            Score::Mate(0) => Score::Mate(0),
            Score::Mate(n) => Score::Mate(-n),
        }
    }

    /// A single number for graphs and comparisons: mates map to ±(10 000 − moves).
    #[must_use]
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(c) => c.clamp(-9_000, 9_000),
            Score::Mate(n) if n > 0 => 10_000 - n,
            Score::Mate(n) => -10_000 - n,
        }
    }

    /// Whether this is a forced mate for the side (positive mate).
    #[must_use]
    pub fn is_winning_mate(self) -> bool {
        matches!(self, Score::Mate(n) if n > 0)
    }
}

impl fmt::Display for Score {
    /// USI style: `cp 35` or `mate 3` / `mate -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(120), Score::Cp(120));
        assert!(Score::Mate(1).as_cp() > Score::Mate(3).as_cp());
        assert!(Score::Mate(-1).as_cp() < Score::Mate(-3).as_cp());
        assert_eq!(Score::Cp(5).flip(), Score::Cp(-5));
        assert_eq!(Score::Mate(2).to_string(), "mate 2");
    }
}
