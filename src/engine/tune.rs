//! Training rows for fitting the evaluation (`scripts/tune/`): positions
//! scored by another engine become feature counts ([`super::eval::features`]).
//!
//! Input lines (written by `scripts/tune/gen.py`):
//! `sfen \t score \t bestmove \t result`, where score is `cp N` or `mate N`
//! and score and result (1, 0.5, 0) are from the side to move. Only quiet
//! positions are kept, since the evaluation only ever judges quiet ones (the
//! search resolves captures first): the side to move is not in check, the
//! best move is neither a capture nor a promotion, and the score is a
//! centipawn score within `max_cp`.
//!
//! Output: one header line `# layout name:start:len ...`, then per kept
//! position `score \t result \t index:count index:count ...` (non-zero counts).

use std::io::{self, BufRead, Write};

use super::eval::{features, layout};
use super::nn;
use crate::shogi::{Move, Position};

/// What happened to the input lines.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct TuneStats {
    /// Rows written.
    pub kept: u64,
    /// Lines that did not parse (bad SFEN, move or score).
    pub malformed: u64,
    /// Mate scores, scores beyond the limit, checks, captures and promotions.
    pub not_quiet: u64,
}

/// Converts scored positions to feature rows (see the module documentation).
///
/// # Errors
/// Reading or writing fails.
pub fn write_rows<R: BufRead, W: Write>(
    input: R,
    mut out: W,
    max_cp: i32,
) -> io::Result<TuneStats> {
    write!(out, "# layout")?;
    for (name, start, len) in layout::GROUPS {
        write!(out, " {name}:{start}:{len}")?;
    }
    writeln!(out)?;
    for_each_quiet(input, max_cp, |score, result, pos| {
        write!(out, "{score}\t{result}\t")?;
        let mut first = true;
        for (i, n) in features(pos).into_iter().enumerate() {
            if n != 0 {
                if !first {
                    write!(out, " ")?;
                }
                first = false;
                write!(out, "{i}:{n}")?;
            }
        }
        writeln!(out)
    })
}

/// Calls `keep` with score, result and position of every quiet row of
/// `input` (see the module documentation) and counts the rest.
fn for_each_quiet<R: BufRead>(
    input: R,
    max_cp: i32,
    mut keep: impl FnMut(i32, f32, &Position) -> io::Result<()>,
) -> io::Result<TuneStats> {
    let mut stats = TuneStats::default();
    for line in input.lines() {
        let line = line?;
        match row(&line, max_cp) {
            Row::Malformed => stats.malformed += 1,
            Row::NotQuiet => stats.not_quiet += 1,
            Row::Keep { score, result, pos } => {
                stats.kept += 1;
                keep(score, result, &pos)?;
            }
        }
    }
    Ok(stats)
}

/// Bytes of one record of [`write_net_rows`].
pub const NET_ROW_BYTES: usize = 6 + 4 * nn::ACTIVE;

/// Converts scored positions to training records for the network
/// (`scripts/nn/train.py`), the same quiet positions [`write_rows`] keeps.
/// Each record is little-endian and [`NET_ROW_BYTES`] long: the score
/// (i16), the linear evaluation (i16, [`super::eval::evaluate_linear`]), the
/// result (u8: 0 loss, 1 draw, 2 win), a zero byte, then the lit inputs
/// ([`nn::active`], u16) from the side to move's view and from the other
/// side's, [`nn::ACTIVE`] each, padded with [`nn::FEATURES`].
///
/// # Errors
/// Reading or writing fails.
pub fn write_net_rows<R: BufRead, W: Write>(
    input: R,
    mut out: W,
    max_cp: i32,
) -> io::Result<TuneStats> {
    let mut rec = Vec::with_capacity(NET_ROW_BYTES);
    let stats = for_each_quiet(input, max_cp, |score, result, pos| {
        rec.clear();
        let lin = super::eval::evaluate_linear(pos).clamp(-32_000, 32_000);
        rec.extend_from_slice(&(score as i16).to_le_bytes());
        rec.extend_from_slice(&(lin as i16).to_le_bytes());
        rec.push((result * 2.0).round().clamp(0.0, 2.0) as u8);
        rec.push(0);
        let us = pos.side_to_move();
        for persp in [us, !us] {
            let mut lit = [nn::FEATURES as u16; nn::ACTIVE];
            nn::active(pos, persp, &mut lit);
            for f in lit {
                rec.extend_from_slice(&f.to_le_bytes());
            }
        }
        out.write_all(&rec)
    })?;
    out.flush()?;
    Ok(stats)
}

enum Row {
    Malformed,
    NotQuiet,
    Keep {
        score: i32,
        result: f32,
        pos: Box<Position>,
    },
}

fn row(line: &str, max_cp: i32) -> Row {
    let mut cols = line.split('\t');
    let (Some(sfen), Some(score), Some(best), Some(result)) =
        (cols.next(), cols.next(), cols.next(), cols.next())
    else {
        return Row::Malformed;
    };
    let (Ok(pos), Ok(mv), Ok(result)) = (
        Position::from_sfen(sfen),
        Move::from_usi(best),
        result.trim().parse::<f32>(),
    ) else {
        return Row::Malformed;
    };
    let score = match score.split_once(' ') {
        Some(("cp", v)) => match v.parse::<i32>() {
            Ok(v) => v,
            Err(_) => return Row::Malformed,
        },
        Some(("mate", _)) => return Row::NotQuiet,
        _ => return Row::Malformed,
    };
    if !pos.is_legal(mv) {
        return Row::Malformed;
    }
    if score.abs() > max_cp || pos.in_check() || pos.is_capture(mv) || mv.is_promotion() {
        return Row::NotQuiet;
    }
    Row::Keep {
        score,
        result,
        pos: Box::new(pos),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_quiet_positions_and_counts_the_rest() {
        let start = Position::startpos().to_sfen();
        let input = format!(
            "{start}\tcp 30\t7g7f\t0.5\n\
             {start}\tmate 3\t7g7f\t1\n\
             {start}\tcp 9000\t7g7f\t1\n\
             {start}\tcp 30\t7g7e\t1\n\
             garbage\n\
             lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1\tcp 10\t8h2b+\t1\n"
        );
        let mut out = Vec::new();
        let stats = write_rows(input.as_bytes(), &mut out, 3000).unwrap();
        assert_eq!(
            stats,
            TuneStats {
                kept: 1,
                malformed: 2,
                not_quiet: 3
            }
        );
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        assert!(lines.next().unwrap().starts_with("# layout piece:0:14 "));
        let row = lines.next().unwrap();
        let cols: Vec<&str> = row.split('\t').collect();
        assert_eq!(&cols[..2], ["30", "0.5"]);
        // The counts say what the evaluation sums: 9 pawns each, tempo once.
        let counts: Vec<(usize, i32)> = cols[2]
            .split(' ')
            .map(|t| {
                let (i, n) = t.split_once(':').unwrap();
                (i.parse().unwrap(), n.parse().unwrap())
            })
            .collect();
        let dot: i32 = counts
            .iter()
            .map(|&(i, n)| super::super::eval::WEIGHTS[i] * n)
            .sum();
        assert_eq!(
            dot,
            super::super::eval::evaluate_linear(&Position::startpos())
        );
        assert!(counts.contains(&(layout::TEMPO, 1)));
        assert!(lines.next().is_none());
    }

    #[test]
    fn network_records_hold_the_same_quiet_positions() {
        let start = Position::startpos();
        let input = format!(
            "{s}\tcp 30\t7g7f\t0.5\n{s}\tmate 3\t7g7f\t1\n{s}\tcp -40\t2g2f\t0\n",
            s = start.to_sfen()
        );
        let mut out = Vec::new();
        let stats = write_net_rows(input.as_bytes(), &mut out, 3000).unwrap();
        assert_eq!((stats.kept, stats.not_quiet, stats.malformed), (2, 1, 0));
        assert_eq!(out.len(), 2 * NET_ROW_BYTES);
        let rec = &out[NET_ROW_BYTES..];
        let word = |i: usize| i16::from_le_bytes([rec[i], rec[i + 1]]);
        assert_eq!(word(0), -40);
        assert_eq!(
            i32::from(word(2)),
            super::super::eval::evaluate_linear(&start)
        );
        assert_eq!(rec[4], 0, "a loss");
        let mut lit = [0u16; nn::ACTIVE];
        nn::active(&start, start.side_to_move(), &mut lit);
        let first = u16::from_le_bytes([rec[6], rec[7]]);
        assert_eq!(first, lit[0]);
        assert_eq!(out[4], 1, "a draw");
    }
}
