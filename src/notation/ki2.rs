//! The KI2 disambiguators of Japanese kifu: 上 引 寄 (how the piece moves) and
//! 左 右 直 (which of the pieces moves), seen from the moving player's side.
//!
//! The same filter serves the parser (what does `５八金右` mean?) and the
//! writer (which word makes this move unique?), so the two always agree.

use crate::shogi::{Color, PieceKind, Square};

/// How the piece moves relative to its own side: 上 (forward), 引 (back), 寄 (sideways).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// 上 (also written 行 or 入): towards the opponent.
    Up,
    /// 引: back towards the own side.
    Down,
    /// 寄: along the rank.
    Sideways,
}

/// Which of several pieces moves: 左, 右 (from the mover's view) or 直 (straight up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// 左: the leftmost piece as the mover sees the board.
    Left,
    /// 右: the rightmost piece.
    Right,
    /// 直: the piece moving straight forward (golds, silvers and promoted minor pieces).
    Straight,
}

impl Direction {
    /// The kanji.
    #[must_use]
    pub const fn kanji(self) -> char {
        match self {
            Direction::Up => '上',
            Direction::Down => '引',
            Direction::Sideways => '寄',
        }
    }
}

impl Side {
    /// The kanji.
    #[must_use]
    pub const fn kanji(self) -> char {
        match self {
            Side::Left => '左',
            Side::Right => '右',
            Side::Straight => '直',
        }
    }
}

/// The direction of a move from `from` to `to` for `us`.
pub(crate) fn direction(us: Color, from: Square, to: Square) -> Direction {
    let (f, t) = (i32::from(from.rank()), i32::from(to.rank()));
    let forward = match us {
        Color::Sente => f - t,
        Color::Gote => t - f,
    };
    match forward.signum() {
        1 => Direction::Up,
        -1 => Direction::Down,
        _ => Direction::Sideways,
    }
}

/// How far left a square is from `us`'s view (larger = further left).
fn leftness(us: Color, sq: Square) -> i32 {
    match us {
        Color::Sente => i32::from(sq.file()),
        Color::Gote => 10 - i32::from(sq.file()),
    }
}

/// The origins among `cands` that the disambiguators describe.
pub(crate) fn filter(
    us: Color,
    to: Square,
    cands: &[Square],
    dir: Option<Direction>,
    side: Option<Side>,
) -> Vec<Square> {
    let s: Vec<Square> = cands
        .iter()
        .copied()
        .filter(|&c| dir.is_none_or(|d| direction(us, c, to) == d))
        .collect();
    match side {
        None => s,
        Some(Side::Straight) => s
            .into_iter()
            .filter(|&c| c.file() == to.file() && direction(us, c, to) == Direction::Up)
            .collect(),
        Some(Side::Left) => {
            let best = s.iter().map(|&c| leftness(us, c)).max();
            s.into_iter()
                .filter(|&c| Some(leftness(us, c)) == best)
                .collect()
        }
        Some(Side::Right) => {
            let best = s.iter().map(|&c| leftness(us, c)).min();
            s.into_iter()
                .filter(|&c| Some(leftness(us, c)) == best)
                .collect()
        }
    }
}

/// The shortest KI2 disambiguator that singles out `from` among `cands`
/// (the origins of all pieces of the mover's kind that can legally reach
/// `to`), following the JSA order: movement first, then position, then both.
/// `None` when no combination does (the writer then gives the origin square).
pub(crate) fn choose(
    us: Color,
    kind: PieceKind,
    from: Square,
    to: Square,
    cands: &[Square],
) -> Option<(Option<Direction>, Option<Side>)> {
    if cands.len() <= 1 {
        return Some((None, None));
    }
    let dir = direction(us, from, to);
    let unique = |d: Option<Direction>, s: Option<Side>| filter(us, to, cands, d, s) == [from];
    if unique(Some(dir), None) {
        return Some((Some(dir), None));
    }
    // 直 is for golds, silvers and promoted minor pieces, never for dragon and horse.
    let straight_ok = !matches!(kind, PieceKind::Dragon | PieceKind::Horse);
    let mut sides = Vec::with_capacity(3);
    if straight_ok {
        sides.push(Side::Straight);
    }
    sides.extend([Side::Left, Side::Right]);
    for s in sides.iter().copied() {
        if unique(None, Some(s)) {
            return Some((None, Some(s)));
        }
    }
    for s in sides {
        if unique(Some(dir), Some(s)) {
            return Some((Some(dir), Some(s)));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golds_on_the_back_rank() {
        // Golds on 6i, 5i and 4i, all able to reach 5h: 左, 直, 右.
        let c = [Square::SQ_6I, Square::SQ_5I, Square::SQ_4I];
        let to = Square::SQ_5H;
        let pick = |f| choose(Color::Sente, PieceKind::Gold, f, to, &c);
        assert_eq!(pick(Square::SQ_6I), Some((None, Some(Side::Left))));
        assert_eq!(pick(Square::SQ_5I), Some((None, Some(Side::Straight))));
        assert_eq!(pick(Square::SQ_4I), Some((None, Some(Side::Right))));
    }

    #[test]
    fn movement_comes_first() {
        // Golds on 4h and 6i to 5h: 寄 and 上.
        let c = [Square::SQ_4H, Square::SQ_6I];
        let to = Square::SQ_5H;
        assert_eq!(
            choose(Color::Sente, PieceKind::Gold, Square::SQ_4H, to, &c),
            Some((Some(Direction::Sideways), None))
        );
        assert_eq!(
            choose(Color::Sente, PieceKind::Gold, Square::SQ_6I, to, &c),
            Some((Some(Direction::Up), None))
        );
    }

    #[test]
    fn gote_sees_the_board_turned() {
        // Gote golds on 4a and 6a to 5b: from Gote's side 4a is on the left.
        let c = [Square::SQ_4A, Square::SQ_6A];
        let to = Square::SQ_5B;
        assert_eq!(
            choose(Color::Gote, PieceKind::Gold, Square::SQ_4A, to, &c),
            Some((None, Some(Side::Left)))
        );
    }
}
