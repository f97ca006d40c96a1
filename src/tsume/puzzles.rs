//! The puzzle collection: the record of one puzzle, the TSV file format and
//! the collection shipped in the binary (`data/puzzles.tsv`).
//!
//! File format: lines starting with `#` are comments; every other line is
//! `id TAB plies TAB sfen TAB solution`, the solution being the main line in
//! USI moves separated by spaces (attacker's shortest mate, defender's
//! stubbornest defence).

use crate::shogi::{Move, Position};

/// The collection shipped with komadai (made by `komadai puzzles generate`,
/// checked by `scripts/puzzles/verify.py`).
pub const SHIPPED_TSV: &str = include_str!("../../data/puzzles.tsv");

/// One tsume puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Stable identifier derived from the position ([`puzzle_id`]).
    pub id: String,
    /// The mate length in plies (odd).
    pub plies: u32,
    /// The position, attacker to move.
    pub sfen: String,
    /// The main line, `plies` moves long.
    pub solution: Vec<Move>,
}

impl Puzzle {
    /// The position of the puzzle.
    ///
    /// # Errors
    /// When the SFEN is not a valid tsume setup.
    pub fn position(&self) -> Result<Position, crate::shogi::SfenError> {
        Position::from_sfen_tsume(&self.sfen)
    }

    /// The solution as USI text (moves separated by spaces).
    #[must_use]
    pub fn solution_usi(&self) -> String {
        self.solution
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// One TSV line (without the newline).
    #[must_use]
    pub fn tsv_line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}",
            self.id,
            self.plies,
            self.sfen,
            self.solution_usi()
        )
    }
}

/// A stable identifier for a puzzle: `t{plies}-` and 12 hex digits of the
/// FNV-1a hash of its SFEN (without the move number).
#[must_use]
pub fn puzzle_id(plies: u32, sfen: &str) -> String {
    let key: Vec<&str> = sfen.split_ascii_whitespace().take(3).collect();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.join(" ").bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("t{plies}-{:012x}", h >> 16)
}

/// Reads a puzzle file. Every line is checked: the position parses, the
/// solution is a sequence of legal moves of the stated length.
///
/// # Errors
/// The first bad line, with its number.
pub fn parse_tsv(text: &str) -> Result<Vec<Puzzle>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() != 4 {
            return Err(format!(
                "line {n}: expected 4 columns, found {}",
                cols.len()
            ));
        }
        let plies: u32 = cols[1]
            .parse()
            .map_err(|_| format!("line {n}: bad plies {:?}", cols[1]))?;
        let mut pos = Position::from_sfen_tsume(cols[2]).map_err(|e| format!("line {n}: {e}"))?;
        let mut solution = Vec::new();
        for u in cols[3].split_ascii_whitespace() {
            let m = Move::from_usi(u).map_err(|_| format!("line {n}: bad move {u:?}"))?;
            pos.play(m)
                .map_err(|e| format!("line {n}: illegal move {u}: {e}"))?;
            solution.push(m);
        }
        if solution.len() != plies as usize {
            return Err(format!(
                "line {n}: {} moves for {plies} plies",
                solution.len()
            ));
        }
        if !pos.is_checkmate() {
            return Err(format!("line {n}: the solution does not end in mate"));
        }
        out.push(Puzzle {
            id: cols[0].to_string(),
            plies,
            sfen: cols[2].to_string(),
            solution,
        });
    }
    Ok(out)
}

/// The shipped collection.
///
/// # Panics
/// Never in a released build: a test parses the shipped file.
#[must_use]
pub fn shipped() -> Vec<Puzzle> {
    parse_tsv(SHIPPED_TSV).expect("the shipped puzzle file is checked by a test")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_ignore_the_move_number() {
        let a = puzzle_id(1, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
        let b = puzzle_id(1, "4k4/9/4P4/9/9/9/9/9/4K4 b G 7");
        assert_eq!(a, b);
        assert!(a.starts_with("t1-"));
        assert_eq!(a.len(), 3 + 12);
    }

    #[test]
    fn bad_lines_are_refused() {
        let good = "x\t1\t4k4/9/4P4/9/9/9/9/9/4K4 b G 1\tG*5b";
        assert_eq!(parse_tsv(good).unwrap().len(), 1);
        for bad in [
            "x\t1\t4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
            "x\t3\t4k4/9/4P4/9/9/9/9/9/4K4 b G 1\tG*5b",
            "x\t1\t4k4/9/4P4/9/9/9/9/9/4K4 b G 1\tG*4b",
            "x\t1\t4k4/9/4P4/9/9/9/9/9/4K4 b G 1\tG*5a",
        ] {
            assert!(parse_tsv(bad).is_err(), "{bad}");
        }
    }
}
