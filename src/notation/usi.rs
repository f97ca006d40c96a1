//! SFEN + USI move list: `position sfen <sfen> moves 7g7f 3c3d …`.

use super::record::{GameRecord, RecordError};
use super::{MoveInputError, ParseMoveError};
use crate::shogi::{Move, Position, STANDARD_START_SFEN};

/// Writes `position startpos moves …` (standard start) or `position sfen … moves …`.
#[must_use]
pub fn write(record: &GameRecord) -> String {
    let sfen = record.start.to_sfen();
    let mut s = if sfen == STANDARD_START_SFEN {
        "position startpos".to_string()
    } else {
        format!("position sfen {sfen}")
    };
    if !record.moves.is_empty() {
        s.push_str(" moves");
        for m in &record.moves {
            s.push(' ');
            s.push_str(&m.to_string());
        }
    }
    s.push('\n');
    s
}

/// Reads `position (startpos | sfen <sfen>) [moves …]` (the word `position`
/// may be left out), checking every move with the rules core.
pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
    let (line_no, line) = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .find(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .ok_or(RecordError::Syntax {
            line: 1,
            text: String::new(),
        })?;
    let syntax = || RecordError::Syntax {
        line: line_no,
        text: line.chars().take(80).collect(),
    };
    let mut words = line.split_whitespace().peekable();
    if words.peek() == Some(&"position") {
        words.next();
    }
    let start = match words.next() {
        Some("startpos") => Position::startpos(),
        Some("sfen") => {
            let mut fields = Vec::new();
            while let Some(&w) = words.peek() {
                if w == "moves" {
                    break;
                }
                fields.push(w);
                words.next();
            }
            Position::from_sfen(&fields.join(" ")).map_err(|e| RecordError::BadPosition {
                line: line_no,
                reason: e.to_string(),
            })?
        }
        _ => return Err(syntax()),
    };
    let mut record = GameRecord::new(start.clone(), Vec::new());
    match words.next() {
        None => return Ok(record),
        Some("moves") => {}
        Some(_) => return Err(syntax()),
    }
    let mut pos = start;
    for (i, w) in words.enumerate() {
        let bad = |error| RecordError::BadMove {
            line: line_no,
            number: i + 1,
            text: w.chars().take(20).collect(),
            error,
        };
        let mv = Move::from_usi(w).map_err(|_| {
            bad(MoveInputError::Unparseable(
                ParseMoveError::UnexpectedChar {
                    ch: w.chars().next().unwrap_or(' '),
                },
            ))
        })?;
        pos.check_move(mv)
            .map_err(|e| bad(MoveInputError::Illegal(e)))?;
        pos.play_unchecked(mv);
        record.moves.push(mv);
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let r = parse("position startpos moves 7g7f 3c3d 8h2b+").unwrap();
        assert_eq!(r.moves.len(), 3);
        assert_eq!(write(&r), "position startpos moves 7g7f 3c3d 8h2b+\n");
        let h =
            parse("sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5a4b")
                .unwrap();
        assert_eq!(parse(&write(&h)).unwrap(), h);
        assert!(matches!(
            parse("position startpos moves 7g7f 7g7f"),
            Err(RecordError::BadMove { number: 2, .. })
        ));
    }
}
