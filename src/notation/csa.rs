//! CSA V2.2, the record format of computer shogi (Floodgate, many GUIs).

use super::record::{GameRecord, RecordError, RecordFormat, Termination};
use super::width::{csa_code, kind_from_csa};
use super::{parse_move, InputContext};
use crate::shogi::{Color, Move, Piece, PieceKind, Position, Square, Variant, STANDARD_START_SFEN};

fn sign(c: Color) -> char {
    match c {
        Color::Sente => '+',
        Color::Gote => '-',
    }
}

/// The CSA text of one move in its position: `+7776FU`, `-0055KA`, `+8822UM`.
#[must_use]
pub fn move_text(pos: &Position, mv: Move) -> String {
    let us = sign(pos.side_to_move());
    match mv {
        Move::Drop { kind, to } => format!("{us}00{}{}{}", to.file(), to.rank(), csa_code(kind)),
        Move::Normal { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            let after = if promote {
                kind.promote().unwrap_or(kind)
            } else {
                kind
            };
            format!(
                "{us}{}{}{}{}{}",
                from.file(),
                from.rank(),
                to.file(),
                to.rank(),
                csa_code(after)
            )
        }
    }
}

fn one_line(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).take(200).collect()
}

/// Writes a record as CSA V2.2.
pub fn write(record: &GameRecord) -> Result<String, RecordError> {
    if record.start.variant() != Variant::Standard {
        return Err(RecordError::Unsupported(RecordFormat::Csa));
    }
    let mut out = String::from("V2.2\n");
    if let Some(n) = &record.sente {
        out.push_str(&format!("N+{}\n", one_line(n)));
    }
    if let Some(n) = &record.gote {
        out.push_str(&format!("N-{}\n", one_line(n)));
    }
    if let Some(e) = &record.event {
        out.push_str(&format!("$EVENT:{}\n", one_line(e)));
    }
    if let Some(t) = &record.start_time {
        out.push_str(&format!("$START_TIME:{}\n", one_line(t)));
    }
    let start = &record.start;
    for rank in 1..=9u8 {
        out.push_str(&format!("P{rank}"));
        for file in (1..=9u8).rev() {
            match Square::new(file, rank).and_then(|sq| start.piece_at(sq)) {
                Some(p) => {
                    out.push(sign(p.color));
                    out.push_str(csa_code(p.kind));
                }
                None => out.push_str(" * "),
            }
        }
        out.push('\n');
    }
    for c in Color::ALL {
        let hand = start.hand(c);
        if !hand.is_empty() {
            out.push('P');
            out.push(sign(c));
            for (k, n) in hand.iter() {
                for _ in 0..n {
                    out.push_str("00");
                    out.push_str(csa_code(k));
                }
            }
            out.push('\n');
        }
    }
    out.push(sign(start.side_to_move()));
    out.push('\n');
    let mut pos = start.clone();
    for (i, &mv) in record.moves.iter().enumerate() {
        out.push_str(&move_text(&pos, mv));
        out.push('\n');
        if let Some(t) = record.time(i) {
            out.push_str(&format!("T{t}\n"));
        }
        pos.play_unchecked(mv);
    }
    if let Some(t) = record.termination {
        let to_move = pos.side_to_move();
        let s = match t {
            Termination::Resign => "%TORYO".to_string(),
            Termination::Checkmate => "%TSUMI".to_string(),
            Termination::Sennichite => "%SENNICHITE".to_string(),
            Termination::Jishogi => "%JISHOGI".to_string(),
            Termination::EnteringKingWin => "%KACHI".to_string(),
            Termination::TimeUp => "%TIME_UP".to_string(),
            Termination::IllegalWin => format!("%{}ILLEGAL_ACTION", sign(!to_move)),
            Termination::IllegalLoss => format!("%{}ILLEGAL_ACTION", sign(to_move)),
            Termination::Abort => "%CHUDAN".to_string(),
            Termination::MaxMoves => "%MAX_MOVES".to_string(),
        };
        out.push_str(&s);
        out.push('\n');
    }
    Ok(out)
}

/// The board being set up by `PI`, `P1`..`P9` and `P+`/`P-` lines.
struct Setup {
    board: [Option<Piece>; 81],
    hands: [[u8; 7]; 2],
    touched: bool,
}

impl Setup {
    fn standard() -> Setup {
        let mut board = [None; 81];
        if let Ok(p) = Position::from_sfen(STANDARD_START_SFEN) {
            for sq in Square::all() {
                board[sq.index()] = p.piece_at(sq);
            }
        }
        Setup {
            board,
            hands: [[0; 7]; 2],
            touched: true,
        }
    }

    fn to_sfen(&self, side: Color) -> String {
        let mut ranks = Vec::new();
        for rank in 1..=9u8 {
            let mut s = String::new();
            let mut empty = 0;
            for file in (1..=9u8).rev() {
                let p = Square::new(file, rank).and_then(|sq| self.board[sq.index()]);
                match p {
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push_str(&p.sfen());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            ranks.push(s);
        }
        let hands = super::record::sfen_hands(&self.hands);
        format!("{} {} {hands} 1", ranks.join("/"), side.sfen_char())
    }
}

fn square_at(b: &[u8], i: usize) -> Option<(u8, u8)> {
    let f = b.get(i)?.checked_sub(b'0')?;
    let r = b.get(i + 1)?.checked_sub(b'0')?;
    (f <= 9 && r <= 9).then_some((f, r))
}

/// Reads CSA text (V2, V2.1, V2.2; several statements per line separated by `,`).
pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
    let mut record = GameRecord::new(Position::startpos(), Vec::new());
    let mut setup = Setup {
        board: [None; 81],
        hands: [[0; 7]; 2],
        touched: false,
    };
    let mut pos: Option<Position> = None;
    let mut prev: Option<Move> = None;
    let mut times: Vec<Option<u32>> = Vec::new();
    for (idx, raw) in text.lines().enumerate() {
        let line_no = idx + 1;
        let raw = raw.trim_end_matches('\r');
        if raw.starts_with('\'') {
            continue;
        }
        for stmt in raw.split(',') {
            let s = stmt.trim();
            let syntax = || RecordError::Syntax {
                line: line_no,
                text: s.to_string(),
            };
            if s.is_empty() || s.starts_with('\'') || s.starts_with('V') {
                continue;
            }
            if let Some(name) = s.strip_prefix("N+") {
                record.sente = Some(name.to_string());
            } else if let Some(name) = s.strip_prefix("N-") {
                record.gote = Some(name.to_string());
            } else if let Some(kv) = s.strip_prefix('$') {
                if let Some((k, v)) = kv.split_once(':') {
                    match k {
                        "EVENT" => record.event = Some(v.to_string()),
                        "START_TIME" => record.start_time = Some(v.to_string()),
                        _ => {}
                    }
                }
            } else if let Some(rest) = s.strip_prefix("PI") {
                setup = Setup::standard();
                let b = rest.as_bytes();
                for chunk in b.chunks(4) {
                    let (f, r) = square_at(chunk, 0).ok_or_else(syntax)?;
                    let sq = Square::new(f, r).ok_or_else(syntax)?;
                    setup.board[sq.index()] = None;
                }
            } else if s.starts_with("P+") || s.starts_with("P-") {
                let color = if s.as_bytes()[1] == b'+' {
                    Color::Sente
                } else {
                    Color::Gote
                };
                let b = &s.as_bytes()[2..];
                setup.touched = true;
                for chunk in b.chunks(4) {
                    let (f, r) = square_at(chunk, 0).ok_or_else(syntax)?;
                    let code = std::str::from_utf8(chunk.get(2..4).ok_or_else(syntax)?)
                        .map_err(|_| syntax())?;
                    if code == "AL" {
                        return Err(syntax());
                    }
                    let kind = kind_from_csa(code).ok_or_else(syntax)?;
                    if f == 0 && r == 0 {
                        if !kind.is_hand_kind() {
                            return Err(syntax());
                        }
                        let n = &mut setup.hands[color.index()][kind.index()];
                        *n = n.saturating_add(1);
                    } else {
                        let sq = Square::new(f, r).ok_or_else(syntax)?;
                        setup.board[sq.index()] = Some(Piece::new(color, kind));
                    }
                }
            } else if let Some(row) = s.strip_prefix('P') {
                let rank = row
                    .as_bytes()
                    .first()
                    .map(|b| b.wrapping_sub(b'0'))
                    .ok_or_else(syntax)?;
                if !(1..=9).contains(&rank) {
                    return Err(syntax());
                }
                setup.touched = true;
                let cells: Vec<char> = row.chars().skip(1).collect();
                for (i, file) in (1..=9u8).rev().enumerate() {
                    let cell: String = cells.iter().skip(i * 3).take(3).collect();
                    let sq = Square::new(file, rank).ok_or_else(syntax)?;
                    let cell = format!("{cell:<3}");
                    setup.board[sq.index()] = match cell.chars().next() {
                        Some('+' | '-') => {
                            let color = if cell.starts_with('+') {
                                Color::Sente
                            } else {
                                Color::Gote
                            };
                            let kind = kind_from_csa(cell.get(1..3).ok_or_else(syntax)?)
                                .ok_or_else(syntax)?;
                            Some(Piece::new(color, kind))
                        }
                        _ if cell.trim() == "*" || cell.trim().is_empty() => None,
                        _ => return Err(syntax()),
                    };
                }
            } else if s == "+" || s == "-" {
                if pos.is_none() {
                    let side = if s == "+" { Color::Sente } else { Color::Gote };
                    let sfen = if setup.touched {
                        setup.to_sfen(side)
                    } else {
                        STANDARD_START_SFEN.to_string()
                    };
                    let p = Position::from_sfen(&sfen).map_err(|e| RecordError::BadPosition {
                        line: line_no,
                        reason: e.to_string(),
                    })?;
                    record.start = p.clone();
                    pos = Some(p);
                }
            } else if s.starts_with('+') || s.starts_with('-') {
                let p = match pos.as_mut() {
                    Some(p) => p,
                    None => {
                        let side = if s.starts_with('+') {
                            Color::Sente
                        } else {
                            Color::Gote
                        };
                        let sfen = if setup.touched {
                            setup.to_sfen(side)
                        } else {
                            STANDARD_START_SFEN.to_string()
                        };
                        let p =
                            Position::from_sfen(&sfen).map_err(|e| RecordError::BadPosition {
                                line: line_no,
                                reason: e.to_string(),
                            })?;
                        record.start = p.clone();
                        pos.insert(p)
                    }
                };
                if record.termination.is_some() {
                    continue;
                }
                let number = record.moves.len() + 1;
                let mtext: String = s.chars().take(7).collect();
                let bad = |error| RecordError::BadMove {
                    line: line_no,
                    number,
                    text: s.to_string(),
                    error,
                };
                if s.len() < 7 || !s.is_ascii() {
                    return Err(syntax());
                }
                let want = if s.starts_with('+') {
                    Color::Sente
                } else {
                    Color::Gote
                };
                if want != p.side_to_move() {
                    return Err(RecordError::Syntax {
                        line: line_no,
                        text: s.to_string(),
                    });
                }
                let mv = parse_move(p, &mtext, InputContext::after(prev)).map_err(bad)?;
                p.play_unchecked(mv);
                prev = Some(mv);
                record.moves.push(mv);
                times.push(None);
                // V2.2 allows the time after a comma on the same line: handled as its own statement.
            } else if let Some(t) = s.strip_prefix('T') {
                let secs: u32 = t
                    .trim()
                    .split('.')
                    .next()
                    .unwrap_or("")
                    .parse()
                    .map_err(|_| syntax())?;
                if let Some(last) = times.last_mut() {
                    *last = Some(secs);
                }
            } else if let Some(special) = s.strip_prefix('%') {
                let to_move = pos.as_ref().map_or(Color::Sente, Position::side_to_move);
                let t = match special {
                    "TORYO" => Some(Termination::Resign),
                    "TSUMI" => Some(Termination::Checkmate),
                    "SENNICHITE" => Some(Termination::Sennichite),
                    "JISHOGI" | "HIKIWAKE" => Some(Termination::Jishogi),
                    "KACHI" => Some(Termination::EnteringKingWin),
                    "TIME_UP" => Some(Termination::TimeUp),
                    "ILLEGAL_MOVE" => Some(Termination::IllegalLoss),
                    "CHUDAN" => Some(Termination::Abort),
                    "MAX_MOVES" => Some(Termination::MaxMoves),
                    "+ILLEGAL_ACTION" | "-ILLEGAL_ACTION" => {
                        let culprit = if special.starts_with('+') {
                            Color::Sente
                        } else {
                            Color::Gote
                        };
                        Some(if culprit == to_move {
                            Termination::IllegalLoss
                        } else {
                            Termination::IllegalWin
                        })
                    }
                    _ => None,
                };
                if record.termination.is_none() {
                    record.termination = t;
                }
            } else {
                return Err(syntax());
            }
        }
    }
    if pos.is_none() && setup.touched {
        let sfen = setup.to_sfen(Color::Sente);
        record.start = Position::from_sfen(&sfen).map_err(|e| RecordError::BadPosition {
            line: text.lines().count(),
            reason: e.to_string(),
        })?;
    }
    record.times = if times.iter().any(Option::is_some) {
        times
    } else {
        Vec::new()
    };
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let text =
            "V2.2\nN+A\nN-B\nPI\n+\n+7776FU\nT3\n-3334FU\nT2\n+8822UM\n-3122GI\n+0045KA\n%TORYO\n";
        let r = parse(text).unwrap();
        let usi: Vec<String> = r.moves.iter().map(ToString::to_string).collect();
        assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
        assert_eq!(r.times, vec![Some(3), Some(2), None, None, None]);
        assert_eq!(r.termination, Some(Termination::Resign));
        let out = write(&r).unwrap();
        assert!(out.contains("+8822UM\n"), "{out}");
        assert_eq!(parse(&out).unwrap(), r);
    }

    #[test]
    fn floodgate_style_lines() {
        // Comments, several statements on one line, times with fractions,
        // a board given row by row and hands as P+00XX.
        let text = "'CSA encoding=UTF-8\nV2.2\nN+sente\nN-gote\n$EVENT:test\n'comment\n\
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n\
P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n\
+\n+7776FU,T1.5\n-3334FU,T2\n'** a comment after a move\n%CHUDAN\n";
        let r = parse(text).unwrap();
        assert_eq!(r.moves.len(), 2);
        assert_eq!(r.times, vec![Some(1), Some(2)]);
        assert_eq!(r.termination, Some(Termination::Abort));
        assert_eq!(r.event.as_deref(), Some("test"));
        assert!(r.start == Position::startpos());
    }

    #[test]
    fn handicap_and_errors() {
        let r = parse("PI82HI22KA\n-\n-5142OU\n").unwrap();
        assert_eq!(
            r.start.to_sfen(),
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        assert_eq!(r.moves.len(), 1);
        match parse("PI\n+\n+7776FU\n-7776FU\n") {
            Err(RecordError::BadMove {
                line: 4, number: 2, ..
            }) => {}
            other => panic!("{other:?}"),
        }
    }
}
