//! KIF, the record format of Kifu for Windows, ShogiGUI, lishogi and 81Dojo.
//!
//! Export writes UTF-8 text (`.kifu`; [`to_shift_jis`] makes a `.kif`) with
//! `手合割` for the standard and handicap starts, a BOD diagram for any other
//! start, `(77)` origins, `打` for every drop, `同　`, move times where known and
//! the result. Import reads UTF-8 or Shift-JIS, the same header fields, BOD
//! diagrams, the main line (variations are skipped) and validates every move
//! with the rules core, reporting the first bad line with its number.

use super::format::moving_kind;
use super::record::{GameRecord, RecordError, RecordFormat, Termination};
use super::width::{kanji_count, kanji_name, kind_from_kanji, parse_kanji_count, KANJI_DIGITS};
use super::{japanese_square, parse_move, InputContext, MoveInputError};
use crate::shogi::{Color, Handicap, Move, PieceKind, Position, Variant, STANDARD_START_SFEN};

/// The KIF name (`手合割`) of a handicap.
#[must_use]
pub fn handicap_name(h: Handicap) -> &'static str {
    match h {
        Handicap::Lance => "香落ち",
        Handicap::Bishop => "角落ち",
        Handicap::Rook => "飛車落ち",
        Handicap::RookLance => "飛香落ち",
        Handicap::TwoPieces => "二枚落ち",
        Handicap::FourPieces => "四枚落ち",
        Handicap::SixPieces => "六枚落ち",
        Handicap::EightPieces => "八枚落ち",
        Handicap::TenPieces => "十枚落ち",
    }
}

/// Handicap starts that KIF names but komadai does not offer as games; they
/// are read (and written back) by name. The SFENs follow the JSA setups.
const OTHER_HANDICAPS: [(&str, &str); 4] = [
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// Encodes KIF text as Shift-JIS for a `.kif` file (characters Shift-JIS
/// lacks become numeric character references).
#[must_use]
pub fn to_shift_jis(text: &str) -> Vec<u8> {
    encoding_rs::SHIFT_JIS.encode(text).0.into_owned()
}

/// One-character BOD name of a kind (成銀 is 全 on the board).
fn bod_char(kind: PieceKind) -> char {
    match kind {
        PieceKind::ProLance => '杏',
        PieceKind::ProKnight => '圭',
        PieceKind::ProSilver => '全',
        k => kanji_name(k).chars().next().unwrap_or('・'),
    }
}

fn hand_text(pos: &Position, c: Color) -> String {
    let hand = pos.hand(c);
    if hand.is_empty() {
        return "なし".to_string();
    }
    let items: Vec<String> = hand
        .iter()
        .map(|(k, n)| format!("{}{}", bod_char(k), kanji_count(n)))
        .collect();
    items.join("　") + "　"
}

/// The BOD diagram of a 9×9 position.
#[must_use]
pub fn bod(pos: &Position) -> String {
    let (s, g) = ("先手", "後手");
    let mut out = format!("{g}の持駒：{}\n", hand_text(pos, Color::Gote));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 1..=9u8 {
        out.push('|');
        for file in (1..=9u8).rev() {
            match crate::shogi::Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                Some(p) => {
                    out.push(if p.color == Color::Gote { 'v' } else { ' ' });
                    out.push(bod_char(p.kind));
                }
                None => out.push_str(" ・"),
            }
        }
        out.push('|');
        out.push(KANJI_DIGITS[usize::from(rank - 1)]);
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    out.push_str(&format!("{s}の持駒：{}\n", hand_text(pos, Color::Sente)));
    if pos.side_to_move() == Color::Gote {
        out.push_str(&format!("{g}番\n"));
    }
    out
}

/// The KIF text of one move: `７六歩(77)`, `同　歩(77)`, `２二角成(88)`, `５五角打`.
/// A declined promotion has no `不成`: the origin already makes the move exact,
/// and some readers (cshogi) refuse the word.
#[must_use]
pub fn move_text(pos: &Position, mv: Move, previous: Option<Move>) -> String {
    let kind = moving_kind(pos, mv).unwrap_or(PieceKind::Pawn);
    let mut s = if previous.map(Move::to) == Some(mv.to()) {
        "同　".to_string()
    } else {
        japanese_square(mv.to())
    };
    s.push_str(kanji_name(kind));
    match mv {
        Move::Drop { .. } => s.push('打'),
        Move::Normal { from, promote, .. } => {
            if promote {
                s.push('成');
            }
            s.push_str(&format!("({}{})", from.file(), from.rank()));
        }
    }
    s
}

fn time_text(this: u32, total: u32) -> String {
    format!(
        "({:>2}:{:02}/{:02}:{:02}:{:02})",
        this / 60,
        this % 60,
        total / 3600,
        total / 60 % 60,
        total % 60
    )
}

/// The header lines shared by KIF and KI2, and the labels of the two sides
/// (先手/後手, or 下手/上手 in handicap games).
fn header(
    record: &GameRecord,
    first_line: &str,
) -> Result<(String, &'static str, &'static str), RecordError> {
    if record.start.variant() != Variant::Standard {
        return Err(RecordError::Unsupported(RecordFormat::Kif));
    }
    let start_sfen = record.start.to_sfen();
    let other = OTHER_HANDICAPS
        .iter()
        .find(|(_, sfen)| *sfen == start_sfen)
        .map(|(n, _)| *n);
    let handicap_label = record.handicap().map(handicap_name).or(other);
    let (s_label, g_label) = if handicap_label.is_some() {
        ("下手", "上手")
    } else {
        ("先手", "後手")
    };
    let mut out = format!("{first_line}\n# ---- komadai 棋譜ファイル ----\n");
    if let Some(t) = &record.start_time {
        out.push_str(&format!("開始日時：{}\n", one_line(t)));
    }
    if let Some(e) = &record.event {
        out.push_str(&format!("棋戦：{}\n", one_line(e)));
    }
    if record.is_standard_start() {
        out.push_str("手合割：平手\n");
    } else if let Some(name) = handicap_label {
        out.push_str(&format!("手合割：{name}\n"));
    }
    out.push_str(&format!(
        "{s_label}：{}\n",
        one_line(record.sente.as_deref().unwrap_or(""))
    ));
    out.push_str(&format!(
        "{g_label}：{}\n",
        one_line(record.gote.as_deref().unwrap_or(""))
    ));
    if !record.is_standard_start() && handicap_label.is_none() {
        out.push_str(&bod(&record.start));
    }
    Ok((out, s_label, g_label))
}

/// The closing `まで…` line for a record that ended, `to_move` being the side
/// to move in the final position.
fn summary(t: Termination, n: usize, to_move: Color, s_label: &str, g_label: &str) -> String {
    let label = |c: Color| if c == Color::Sente { s_label } else { g_label };
    let result = match t {
        Termination::Sennichite => "千日手".to_string(),
        Termination::Jishogi => "持将棋".to_string(),
        Termination::Abort => "中断".to_string(),
        Termination::MaxMoves => "引き分け".to_string(),
        Termination::EnteringKingWin => format!("{}の入玉勝ち", label(to_move)),
        Termination::IllegalWin => format!("{}の反則勝ち", label(to_move)),
        Termination::IllegalLoss => format!("{}の反則負け", label(to_move)),
        Termination::Resign | Termination::Checkmate | Termination::TimeUp => {
            format!("{}の勝ち", label(!to_move))
        }
    };
    format!("まで{n}手で{result}\n")
}

/// Writes a record as KIF (UTF-8 text).
pub fn write(record: &GameRecord) -> Result<String, RecordError> {
    let (mut out, s_label, g_label) = header(record, "#KIF version=2.0 encoding=UTF-8")?;
    out.push_str("手数----指手---------消費時間--\n");
    let mut pos = record.start.clone();
    let mut prev = None;
    let mut totals = [0u32; 2];
    let has_times = record.times.iter().any(Option::is_some);
    for (i, &mv) in record.moves.iter().enumerate() {
        let text = move_text(&pos, mv, prev);
        let mut line = format!("{:>4} {}", i + 1, text);
        if has_times {
            let t = record.time(i).unwrap_or(0);
            let side = pos.side_to_move().index();
            totals[side] = totals[side].saturating_add(t);
            let pad = 14usize.saturating_sub(display_width(&text));
            line.push_str(&" ".repeat(pad));
            line.push_str(&time_text(t, totals[side]));
        }
        out.push_str(&line);
        out.push('\n');
        pos.play_unchecked(mv);
        prev = Some(mv);
    }
    let n = record.moves.len();
    if let Some(t) = record.termination {
        out.push_str(&format!("{:>4} {}\n", n + 1, t.kif()));
        out.push_str(&summary(t, n, pos.side_to_move(), s_label, g_label));
    }
    Ok(out)
}

/// Writes a record as KI2 (UTF-8 text): the KIF header, then the moves in
/// Japanese notation with the KI2 disambiguators and without origins, one to a
/// line (`▲７六歩`), then the result. Times are not kept. One move per line
/// because cshogi's KI2 reader (1.1.0) misreads lines with several moves;
/// komadai reads both layouts. KI2 files are traditionally Shift-JIS: see
/// [`to_shift_jis`].
pub fn write_ki2(record: &GameRecord) -> Result<String, RecordError> {
    let (mut out, s_label, g_label) = header(record, "#KI2 version=2.0 encoding=UTF-8")?;
    let mut pos = record.start.clone();
    let mut prev = None;
    for &mv in &record.moves {
        out.push_str(&super::format_move(&pos, mv, super::Style::Japanese, prev));
        out.push('\n');
        pos.play_unchecked(mv);
        prev = Some(mv);
    }
    if let Some(t) = record.termination {
        let n = record.moves.len();
        out.push_str(&summary(t, n, pos.side_to_move(), s_label, g_label));
    }
    Ok(out)
}

fn one_line(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).take(200).collect()
}

fn display_width(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

fn special(text: &str) -> Option<Termination> {
    Some(match text {
        "投了" => Termination::Resign,
        "詰み" => Termination::Checkmate,
        "千日手" => Termination::Sennichite,
        "持将棋" => Termination::Jishogi,
        "入玉勝ち" | "宣言勝ち" | "入玉宣言" => Termination::EnteringKingWin,
        "切れ負け" => Termination::TimeUp,
        "反則勝ち" => Termination::IllegalWin,
        "反則負け" => Termination::IllegalLoss,
        "中断" => Termination::Abort,
        "最大手数" => Termination::MaxMoves,
        _ => return None,
    })
}

/// Splits `( 0:12/00:01:23)` off the end of a move line; returns the rest and
/// the move's seconds.
fn split_time(rest: &str) -> (&str, Option<u32>) {
    let t = rest.trim_end();
    if t.ends_with(')') {
        if let Some(open) = t.rfind('(') {
            let inner = &t[open + 1..t.len() - 1];
            if let Some((this, _total)) = inner.split_once('/') {
                let secs = this.trim().split(':').try_fold(0u32, |acc, part| {
                    part.trim()
                        .parse::<u32>()
                        .ok()
                        .map(|v| acc.saturating_mul(60).saturating_add(v))
                });
                if secs.is_some() {
                    return (&t[..open], secs);
                }
            }
        }
    }
    (t, None)
}

#[derive(Default)]
struct Bod {
    rows: Vec<String>,
    hands: [String; 2],
    gote_to_move: bool,
    seen: bool,
}

fn parse_hand(text: &str, c: Color, counts: &mut [[u8; 7]; 2]) -> Option<()> {
    let text = text.trim().trim_end_matches('　');
    if text.is_empty() || text == "なし" {
        return Some(());
    }
    for item in text.split(['　', ' ']).filter(|s| !s.is_empty()) {
        let mut cs = item.chars();
        let kind = kind_from_kanji(cs.next()?)?;
        if !kind.is_hand_kind() {
            return None;
        }
        let n = parse_kanji_count(cs.as_str())?;
        counts[c.index()][kind.index()] = counts[c.index()][kind.index()].saturating_add(n);
    }
    Some(())
}

fn bod_to_sfen(b: &Bod) -> Option<String> {
    if b.rows.len() != 9 {
        return None;
    }
    let mut ranks = Vec::new();
    for row in &b.rows {
        let cells: Vec<char> = row.chars().collect();
        if cells.len() != 18 {
            return None;
        }
        let mut s = String::new();
        let mut empty = 0;
        for pair in cells.chunks(2) {
            let (mark, piece) = (pair[0], pair[1]);
            if piece == '・' {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            let kind = kind_from_kanji(piece)?;
            let color = if mark == 'v' {
                Color::Gote
            } else {
                Color::Sente
            };
            s.push_str(&crate::shogi::Piece::new(color, kind).sfen());
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        ranks.push(s);
    }
    let mut counts = [[0u8; 7]; 2];
    parse_hand(&b.hands[0], Color::Sente, &mut counts)?;
    parse_hand(&b.hands[1], Color::Gote, &mut counts)?;
    let hands = super::record::sfen_hands(&counts);
    let side = if b.gote_to_move { 'w' } else { 'b' };
    Some(format!("{} {side} {hands} 1", ranks.join("/")))
}

/// The start position a `手合割` name stands for (`None` for unknown names).
fn handicap_start(name: &str) -> Option<Position> {
    let name = name.trim().trim_end_matches('\u{3000}');
    if name == "平手" {
        return Position::from_sfen(STANDARD_START_SFEN).ok();
    }
    if let Some(h) = Handicap::ALL
        .into_iter()
        .find(|&h| handicap_name(h) == name)
    {
        return Some(h.start_position());
    }
    let (_, sfen) = OTHER_HANDICAPS.iter().find(|(n, _)| *n == name)?;
    Position::from_sfen(sfen).ok()
}

/// Reads KIF text (already decoded).
pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
    let mut record = GameRecord::new(Position::startpos(), Vec::new());
    let mut handicap: Option<Position> = None;
    let mut bod = Bod::default();
    let mut pos: Option<Position> = None;
    let mut prev: Option<Move> = None;
    // Whether anything of a KIF/KI2 record was seen (headers, diagram, moves).
    let mut recognized = false;
    for (idx, raw) in text.lines().enumerate() {
        let line_no = idx + 1;
        let line = raw.trim_end_matches(['\r', ' ', '\u{3000}']);
        let trimmed = line.trim_start();
        if trimmed.is_empty()
            || trimmed.starts_with('#')
            || trimmed.starts_with('*')
            || trimmed.starts_with('&')
        {
            continue;
        }
        if trimmed.starts_with("変化") || trimmed.starts_with("まで") {
            if trimmed.starts_with("変化") {
                break;
            }
            if record.termination.is_none() {
                record.termination = if trimmed.contains("千日手") {
                    Some(Termination::Sennichite)
                } else if trimmed.contains("持将棋") {
                    Some(Termination::Jishogi)
                } else if trimmed.contains("中断") {
                    Some(Termination::Abort)
                } else if trimmed.contains("の勝ち") {
                    Some(Termination::Resign)
                } else {
                    None
                };
            }
            break;
        }
        let first = trimmed.chars().next().unwrap_or(' ');
        if matches!(first, '▲' | '△' | '☗' | '☖') {
            // KI2: moves without numbers or origins, `▲７六歩    △３四歩`.
            recognized = true;
            let start = match pos.as_mut() {
                Some(p) => p,
                None => {
                    let p = start_position(&bod, handicap.take(), line_no)?;
                    record.start = p.clone();
                    pos.insert(p)
                }
            };
            if record.termination.is_some() {
                break;
            }
            let mut token = String::new();
            let mut tokens = Vec::new();
            for c in trimmed.chars() {
                if matches!(c, '▲' | '△' | '☗' | '☖') && !token.trim().is_empty() {
                    tokens.push(std::mem::take(&mut token));
                }
                token.push(c);
            }
            tokens.push(token);
            for t in tokens {
                let t = t.trim();
                let word: String = t
                    .chars()
                    .filter(|c| !matches!(c, '▲' | '△' | '☗' | '☖'))
                    .collect();
                if let Some(term) = special(word.trim()) {
                    record.termination = Some(term);
                    break;
                }
                let mv = parse_move(start, t, InputContext::after(prev)).map_err(|error| {
                    RecordError::BadMove {
                        line: line_no,
                        number: record.moves.len() + 1,
                        text: t.to_string(),
                        error,
                    }
                })?;
                start.play_unchecked(mv);
                prev = Some(mv);
                record.moves.push(mv);
                record.times.push(None);
            }
            continue;
        }
        if first.is_ascii_digit() {
            recognized = true;
            // A move line.
            let start = match pos.as_mut() {
                Some(p) => p,
                None => {
                    let p = start_position(&bod, handicap.take(), line_no)?;
                    record.start = p.clone();
                    pos.insert(p)
                }
            };
            if record.termination.is_some() {
                break;
            }
            let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
            let number: usize = trimmed[..digits].parse().unwrap_or(0);
            let rest = trimmed[digits..].trim_start_matches([' ', '\t']);
            let (mtext, secs) = split_time(rest.trim_end().trim_end_matches('+'));
            let mtext = mtext.trim_end_matches([' ', '\t', '\u{3000}', '+']);
            let bad = |error| RecordError::BadMove {
                line: line_no,
                number: record.moves.len() + 1,
                text: mtext.to_string(),
                error,
            };
            if let Some(t) = special(mtext) {
                record.termination = Some(t);
                continue;
            }
            if number != record.moves.len() + 1 {
                return Err(RecordError::Syntax {
                    line: line_no,
                    text: line.to_string(),
                });
            }
            let mv = match parse_move(start, mtext, InputContext::after(prev)) {
                Ok(m) => m,
                // KIF writes 成 when a piece promotes; without it, no promotion.
                Err(MoveInputError::Ambiguous { candidates, .. })
                    if candidates.len() == 2
                        && candidates[0].from().is_some()
                        && candidates[0].from() == candidates[1].from() =>
                {
                    candidates
                        .into_iter()
                        .find(|m| !m.is_promotion())
                        .ok_or_else(|| RecordError::Syntax {
                            line: line_no,
                            text: line.to_string(),
                        })?
                }
                Err(e) => return Err(bad(e)),
            };
            start.play_unchecked(mv);
            prev = Some(mv);
            record.moves.push(mv);
            record.times.push(secs);
            continue;
        }
        if pos.is_some() {
            // Headers and diagrams come before the moves; ignore stray lines.
            continue;
        }
        if trimmed.starts_with('|') {
            let inner = trimmed.trim_start_matches('|');
            let cells: String = inner.split('|').next().unwrap_or("").to_string();
            bod.rows.push(cells);
            bod.seen = true;
            recognized = true;
            continue;
        }
        if trimmed.starts_with('+') || trimmed.starts_with('９') || trimmed.starts_with("手数") {
            recognized |= trimmed.starts_with("手数");
            continue;
        }
        if matches!(trimmed, "後手番" | "上手番") {
            bod.gote_to_move = true;
            continue;
        }
        if matches!(trimmed, "先手番" | "下手番") {
            continue;
        }
        if let Some((key, value)) = trimmed.split_once('：').or_else(|| trimmed.split_once(':')) {
            recognized = true;
            let value = value.trim().trim_end_matches('\u{3000}').to_string();
            match key.trim() {
                "先手" | "下手" => record.sente = Some(value).filter(|v| !v.is_empty()),
                "後手" | "上手" => record.gote = Some(value).filter(|v| !v.is_empty()),
                "開始日時" => record.start_time = Some(value),
                "棋戦" => record.event = Some(value),
                "手合割" => {
                    handicap = match handicap_start(&value) {
                        Some(p) => Some(p),
                        None if value.starts_with("その他") => None,
                        None => {
                            return Err(RecordError::BadPosition {
                                line: line_no,
                                reason: format!("unknown handicap {value:?}"),
                            })
                        }
                    }
                }
                "先手の持駒" | "下手の持駒" => {
                    bod.hands[0] = value;
                    bod.seen = true;
                }
                "後手の持駒" | "上手の持駒" => {
                    bod.hands[1] = value;
                    bod.seen = true;
                }
                _ => {}
            }
            continue;
        }
        // Unknown header-area lines (e.g. `手数＝0 ...` after a diagram) are skipped.
    }
    if !recognized {
        // Nothing of a KIF/KI2 record: refuse instead of returning an empty game.
        return Err(RecordError::Syntax {
            line: 1,
            text: text.lines().next().unwrap_or("").chars().take(80).collect(),
        });
    }
    if pos.is_none() {
        record.start = start_position(&bod, handicap, text.lines().count())?;
    }
    if record.times.iter().all(Option::is_none) {
        record.times.clear();
    }
    Ok(record)
}

fn start_position(
    bod: &Bod,
    handicap: Option<Position>,
    line: usize,
) -> Result<Position, RecordError> {
    if bod.seen && !bod.rows.is_empty() {
        let sfen = bod_to_sfen(bod).ok_or_else(|| RecordError::BadPosition {
            line,
            reason: "the board diagram cannot be read".to_string(),
        })?;
        return Position::from_sfen(&sfen).map_err(|e| RecordError::BadPosition {
            line,
            reason: e.to_string(),
        });
    }
    Ok(match handicap {
        Some(p) => p,
        None => Position::from_sfen(STANDARD_START_SFEN).map_err(|e| RecordError::BadPosition {
            line,
            reason: e.to_string(),
        })?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_game_round_trip() {
        let text = "手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:02/00:00:02)\n   3 ２二角成(88) ( 0:03/00:00:04)\n   4 同　銀(31)   ( 0:04/00:00:06)\n   5 ４五角打     ( 0:05/00:00:09)\n   6 投了\nまで5手で先手の勝ち\n";
        let r = parse(text).unwrap();
        let usi: Vec<String> = r.moves.iter().map(ToString::to_string).collect();
        assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
        assert_eq!(r.times, vec![Some(1), Some(2), Some(3), Some(4), Some(5)]);
        assert_eq!(r.termination, Some(Termination::Resign));
        assert_eq!(r.sente.as_deref(), Some("A"));
        let out = write(&r).unwrap();
        assert!(out.contains("   4 同　銀(31)"), "{out}");
        assert!(out.contains("   5 ４五角打"), "{out}");
        assert!(out.contains("まで5手で先手の勝ち"), "{out}");
        assert_eq!(parse(&out).unwrap(), r);
    }

    #[test]
    fn bod_start_round_trip() {
        let start = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G2Pr 1").unwrap();
        let mut r = GameRecord::new(start, vec![Move::from_usi("G*5b").unwrap()]);
        r.termination = Some(Termination::Checkmate);
        let out = write(&r).unwrap();
        assert!(out.contains("先手の持駒：金　歩二"), "{out}");
        let back = parse(&out).unwrap();
        assert_eq!(back.start, r.start);
        assert_eq!(back.moves, r.moves);
    }

    #[test]
    fn kifu_for_windows_style_in_shift_jis() {
        // Layout as Kifu for Windows writes it: CRLF, version line, comments,
        // bookmarks, a declined promotion, times over a minute, a variation.
        let text = "#KIF version=2.0 encoding=Shift_JIS\r\n\
# ---- Kifu for Windows V7 棋譜ファイル ----\r\n\
開始日時：2024/01/31 19:00:00\r\n\
終了日時：2024/01/31 20:00:00\r\n\
手合割：平手　　\r\n\
先手：先手さん\r\n\
後手：後手さん\r\n\
手数----指手---------消費時間--\r\n\
*対局前のコメント\r\n\
   1 ７六歩(77)   ( 0:16/00:00:16)\r\n\
*初手のコメント\r\n\
   2 ３四歩(33)   ( 1:05/00:01:05)\r\n\
&しおり\r\n\
   3 ２二角不成(88) ( 0:03/00:00:19)+\r\n\
   4 同　銀(31)   ( 0:02/00:01:07)\r\n\
   5 中断         ( 0:00/00:00:19)\r\n\
まで4手で中断\r\n\
\r\n\
変化：3手\r\n\
   3 ２二角成(88) ( 0:03/00:00:19)\r\n";
        let bytes = to_shift_jis(text);
        assert!(std::str::from_utf8(&bytes).is_err());
        let r = crate::notation::read_record(&bytes, None).unwrap();
        let usi: Vec<String> = r.moves.iter().map(ToString::to_string).collect();
        assert_eq!(usi, ["7g7f", "3c3d", "8h2b", "3a2b"]);
        assert_eq!(r.times, vec![Some(16), Some(65), Some(3), Some(2)]);
        assert_eq!(r.termination, Some(Termination::Abort));
        assert_eq!(r.sente.as_deref(), Some("先手さん"));
        assert_eq!(r.start_time.as_deref(), Some("2024/01/31 19:00:00"));
        // Export writes the times back per side and the declined promotion without 不成.
        let out = write(&r).unwrap();
        assert!(out.contains("   2 ３四歩(33)    ( 1:05/00:01:05)"), "{out}");
        assert!(out.contains("   3 ２二角(88)"), "{out}");
        assert!(out.contains("   4 同　銀(31)    ( 0:02/00:01:07)"), "{out}");
        assert!(out.contains("まで4手で中断"), "{out}");
    }

    #[test]
    fn handicap_games_use_shitate_and_uwate() {
        let start = Handicap::TwoPieces.start_position();
        let mut r = GameRecord::new(start, vec![Move::from_usi("5a4b").unwrap()]);
        r.sente = Some("S".into());
        r.gote = Some("G".into());
        r.termination = Some(Termination::Resign);
        let out = write(&r).unwrap();
        assert!(
            out.contains("手合割：二枚落ち\n下手：S\n上手：G\n"),
            "{out}"
        );
        assert!(out.contains("   1 ４二玉(51)"), "{out}");
        assert!(out.contains("まで1手で上手の勝ち"), "{out}");
        assert_eq!(parse(&out).unwrap(), r);
    }

    #[test]
    fn bod_with_gote_to_move_and_promoted_pieces() {
        let start = Position::from_sfen("4k4/4+S4/9/9/9/9/9/9/4K4 w RB 1").unwrap();
        let r = GameRecord::new(start, vec![Move::from_usi("5a5b").unwrap()]);
        let out = write(&r).unwrap();
        assert!(out.contains("| ・ ・ ・ ・ 全 ・ ・ ・ ・|二"), "{out}");
        assert!(out.contains("後手番"), "{out}");
        assert!(
            out.contains("   1 同　玉(51)") || out.contains("   1 ５二玉(51)"),
            "{out}"
        );
        let back = parse(&out).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn ki2_round_trip_with_disambiguators() {
        // 1. P-7f P-3d 2. G4i-5h (５八金右) G4a-5b (５二金左 from Gote's side) 3. Bx2b+ Sx2b.
        let usi = ["7g7f", "3c3d", "4i5h", "4a5b", "8h2b+", "3a2b", "B*4e"];
        let moves: Vec<Move> = usi.iter().map(|u| Move::from_usi(u).unwrap()).collect();
        let mut r = GameRecord::new(Position::startpos(), moves);
        r.termination = Some(Termination::Resign);
        let out = write_ki2(&r).unwrap();
        assert!(out.contains("▲５八金右"), "{out}");
        assert!(out.contains("△同　銀"), "{out}");
        assert!(out.contains("\n▲４五角\nまで7手で先手の勝ち"), "{out}");
        let back = parse(&out).unwrap();
        assert_eq!(back.moves, r.moves);
        assert_eq!(back.termination, Some(Termination::Resign));
        // Shift-JIS, as KI2 files usually are.
        let sjis = to_shift_jis(&out);
        assert_eq!(
            crate::notation::read_record(&sjis, None).unwrap().moves,
            r.moves
        );
    }

    #[test]
    fn text_that_is_no_record_is_refused() {
        assert!(matches!(
            parse("hello\nworld\n"),
            Err(RecordError::Syntax { line: 1, .. })
        ));
        assert!(matches!(parse(""), Err(RecordError::Syntax { .. })));
    }

    #[test]
    fn bad_move_reports_its_line() {
        let text = "手数----指手--\n   1 ７六歩(77)\n   2 ７六歩(77)\n";
        match parse(text) {
            Err(RecordError::BadMove {
                line: 3, number: 2, ..
            }) => {}
            other => panic!("{other:?}"),
        }
    }
}
