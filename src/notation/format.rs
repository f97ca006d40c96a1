//! Writing a move in its position: USI, Western (Hodges) and Japanese (KI2).

use super::ki2;
use super::width::{kanji_name, FULL_DIGITS, KANJI_DIGITS};
use super::Style;
use crate::shogi::{Color, Move, MoveList, PieceKind, Position, Square};

/// Writes `mv` (a legal move of `pos`) in `style`. `previous` is the move that
/// led to `pos`; Japanese writes `同` when `mv` lands on its destination.
///
/// Western gives the origin only when another piece of the same kind could
/// also go there (`G6i-5h`), `+` for a promotion and `=` for a declined one.
/// Japanese writes `成`/`不成` only when promotion was possible, `打` only when
/// a piece of the same kind on the board could also go there, and the KI2
/// disambiguators (上 引 寄 左 右 直) as Japanese kifu do; in the rare
/// positions where no disambiguator suffices it appends the origin, `(77)`.
///
/// ```
/// use komadai::notation::{format_move, Style};
/// use komadai::shogi::{Move, Position};
/// let pos = Position::startpos();
/// let mv = Move::from_usi("7g7f").unwrap();
/// assert_eq!(format_move(&pos, mv, Style::Western, None), "P-7f");
/// assert_eq!(format_move(&pos, mv, Style::WesternNumeric, None), "P-76");
/// assert_eq!(format_move(&pos, mv, Style::Japanese, None), "▲７六歩");
/// assert_eq!(format_move(&pos, mv, Style::Usi, None), "7g7f");
/// ```
#[must_use]
pub fn format_move(pos: &Position, mv: Move, style: Style, previous: Option<Move>) -> String {
    match style {
        Style::Usi => mv.to_string(),
        Style::Western => western(pos, mv, &pos.legal_moves(), false),
        Style::WesternNumeric => western(pos, mv, &pos.legal_moves(), true),
        Style::Japanese => japanese(pos, mv, &pos.legal_moves(), previous, true),
    }
}

/// A square as Japanese writes it: full-width file, kanji rank (`７六`).
#[must_use]
pub fn japanese_square(sq: Square) -> String {
    let mut s = String::new();
    s.push(FULL_DIGITS[usize::from(sq.file())]);
    s.push(KANJI_DIGITS[usize::from(sq.rank() - 1)]);
    s
}

fn western_square(sq: Square, numeric: bool) -> String {
    if numeric {
        format!("{}{}", sq.file(), sq.rank())
    } else {
        sq.to_string()
    }
}

/// The kind that moves (the piece on the origin, or the dropped kind).
pub(crate) fn moving_kind(pos: &Position, mv: Move) -> Option<PieceKind> {
    match mv {
        Move::Normal { from, .. } => pos.piece_at(from).map(|p| p.kind),
        Move::Drop { kind, .. } => Some(kind),
    }
}

/// Origins of the mover's pieces of exactly `kind` with a legal move to `to`.
pub(crate) fn origins(pos: &Position, legal: &[Move], kind: PieceKind, to: Square) -> Vec<Square> {
    let mut out: Vec<Square> = legal
        .iter()
        .filter_map(|m| match *m {
            Move::Normal { from, to: t, .. }
                if t == to && pos.piece_at(from).map(|p| p.kind) == Some(kind) =>
            {
                Some(from)
            }
            _ => None,
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether `mv` is a board move that could also have been played with the other
/// promotion choice.
fn promotion_choice(legal: &[Move], mv: Move) -> bool {
    match mv {
        Move::Normal { from, to, promote } => legal.contains(&Move::Normal {
            from,
            to,
            promote: !promote,
        }),
        Move::Drop { .. } => false,
    }
}

fn piece_letters(kind: PieceKind) -> String {
    if kind.is_promoted() {
        format!("+{}", kind.usi_char())
    } else {
        kind.usi_char().to_string()
    }
}

pub(crate) fn western(pos: &Position, mv: Move, legal: &MoveList, numeric: bool) -> String {
    let kind = moving_kind(pos, mv).unwrap_or(PieceKind::Pawn);
    let mut s = piece_letters(kind);
    match mv {
        Move::Drop { to, .. } => {
            s.push('*');
            s.push_str(&western_square(to, numeric));
        }
        Move::Normal { from, to, promote } => {
            if origins(pos, legal, kind, to).len() > 1 {
                s.push_str(&western_square(from, numeric));
            }
            s.push(if pos.piece_at(to).is_some() { 'x' } else { '-' });
            s.push_str(&western_square(to, numeric));
            if promote {
                s.push('+');
            } else if promotion_choice(legal, mv) {
                s.push('=');
            }
        }
    }
    s
}

/// The mark of the side to move: ▲ for Sente, △ for Gote.
pub(crate) fn side_mark(c: Color) -> char {
    match c {
        Color::Sente => '▲',
        Color::Gote => '△',
    }
}

/// The destination as KIF and KI2 write it: `７六`, or `同` (with a full-width
/// space after it when the piece name is one character).
pub(crate) fn japanese_destination(to: Square, kind: PieceKind, previous: Option<Move>) -> String {
    if previous.map(Move::to) == Some(to) {
        if kanji_name(kind).chars().count() == 1 {
            "同　".to_string()
        } else {
            "同".to_string()
        }
    } else {
        japanese_square(to)
    }
}

pub(crate) fn japanese(
    pos: &Position,
    mv: Move,
    legal: &MoveList,
    previous: Option<Move>,
    mark: bool,
) -> String {
    let us = pos.side_to_move();
    let kind = moving_kind(pos, mv).unwrap_or(PieceKind::Pawn);
    let to = mv.to();
    let mut s = String::new();
    if mark {
        s.push(side_mark(us));
    }
    s.push_str(&japanese_destination(to, kind, previous));
    s.push_str(kanji_name(kind));
    match mv {
        Move::Drop { .. } => {
            if !origins(pos, legal, kind, to).is_empty() {
                s.push('打');
            }
        }
        Move::Normal { from, promote, .. } => {
            let cands = origins(pos, legal, kind, to);
            let choice = ki2::choose(us, kind, from, to, &cands);
            if let Some((dir, side)) = choice {
                if let Some(side) = side {
                    s.push(side.kanji());
                }
                if let Some(dir) = dir {
                    s.push(dir.kanji());
                }
            }
            if promote {
                s.push('成');
            } else if promotion_choice(legal, mv) {
                s.push_str("不成");
            }
            if choice.is_none() {
                s.push_str(&format!("({}{})", from.file(), from.rank()));
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(sfen: &str, usi: &str, style: Style, prev: Option<&str>) -> String {
        let pos = Position::from_sfen(sfen).unwrap();
        let mv = Move::from_usi(usi).unwrap();
        assert!(pos.is_legal(mv), "{usi} illegal in {sfen}");
        format_move(&pos, mv, style, prev.map(|p| Move::from_usi(p).unwrap()))
    }

    const AFTER_76_34: &str = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";

    #[test]
    fn western_examples() {
        assert_eq!(f(AFTER_76_34, "8h2b+", Style::Western, None), "Bx2b+");
        assert_eq!(f(AFTER_76_34, "8h2b", Style::Western, None), "Bx2b=");
        assert_eq!(
            f(AFTER_76_34, "8h2b+", Style::WesternNumeric, None),
            "Bx22+"
        );
        assert_eq!(f(AFTER_76_34, "8h2b+", Style::Japanese, None), "▲２二角成");
        assert_eq!(f(AFTER_76_34, "8h2b", Style::Japanese, None), "▲２二角不成");
        // Both golds can reach 5h from the start: origin given.
        assert_eq!(
            f(
                crate::shogi::STANDARD_START_SFEN,
                "6i5h",
                Style::Western,
                None
            ),
            "G6i-5h"
        );
        assert_eq!(
            f(
                crate::shogi::STANDARD_START_SFEN,
                "6i5h",
                Style::Japanese,
                None
            ),
            "▲５八金左"
        );
        assert_eq!(
            f(
                crate::shogi::STANDARD_START_SFEN,
                "4i5h",
                Style::Japanese,
                None
            ),
            "▲５八金右"
        );
        assert_eq!(
            f(
                crate::shogi::STANDARD_START_SFEN,
                "6i5h",
                Style::WesternNumeric,
                None
            ),
            "G69-58"
        );
    }

    #[test]
    fn same_square_and_drops() {
        // 1. P-7f P-3d 2. Bx2b+ Sx2b: the silver recaptures on the same square.
        let sfen = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4";
        assert_eq!(f(sfen, "3a2b", Style::Japanese, Some("8h2b+")), "△同　銀");
        assert_eq!(f(sfen, "3a2b", Style::Western, Some("8h2b+")), "Sx2b");
        let drop = "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5";
        assert_eq!(f(drop, "B*4e", Style::Western, None), "B*4e");
        assert_eq!(f(drop, "B*4e", Style::Japanese, None), "▲４五角");
        assert_eq!(f(drop, "B*4e", Style::Usi, None), "B*4e");
    }
}
