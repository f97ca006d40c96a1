//! The lenient move parser: USI, Western (Hodges, letter or numeric ranks),
//! Japanese (KI2 and KIF with origin), CSA, in half or full width.

use super::format::{japanese, moving_kind, western};
use super::ki2::{self, Direction, Side};
use super::width::{kind_from_csa, kind_from_kanji, normalize_char};
use super::{InputContext, MoveInputError, Style};
use crate::shogi::{attacks, Bitboard, IllegalMove, Move, MoveList, PieceKind, Position, Square};

/// Longest move text accepted, in characters; longer input is refused before
/// it is read.
pub const MAX_MOVE_INPUT_CHARS: usize = 200;

/// Why a text cannot be read as a move (syntax only).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// Nothing but spaces and marks.
    #[error("empty input")]
    Empty,
    /// Longer than [`MAX_MOVE_INPUT_CHARS`].
    #[error("input too long ({len} characters, at most {max})")]
    TooLong {
        /// Characters given.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// Words, not a move: three letters in a row, which no notation writes
    /// (CSA's piece names have two letters, Western's one).
    #[error("words, not a move")]
    NotAMove,
    /// A character that has no meaning in any move notation.
    #[error("unexpected character {ch:?}")]
    UnexpectedChar {
        /// The character (after width normalisation).
        ch: char,
    },
    /// A file digit without a rank after it (ranks are a–i, 1–9 or 一–九).
    #[error("a square needs a file and a rank, e.g. 7f, 76 or ７六")]
    IncompleteSquare,
    /// No destination square (and no `同`).
    #[error("no destination square")]
    MissingDestination,
    /// More squares than origin and destination.
    #[error("too many squares")]
    TooManySquares,
    /// Two different pieces named.
    #[error("more than one piece named")]
    TooManyPieces,
    /// Both promotion and non-promotion asked for.
    #[error("both promotion and no promotion given")]
    ConflictingPromotion,
    /// A drop without the piece to drop (`*5e`).
    #[error("a drop needs the piece, e.g. P*5e or ５五歩打")]
    DropWithoutPiece,
    /// A drop with an origin square.
    #[error("a drop has no origin square")]
    DropWithOrigin,
    /// Promotion asked for a drop.
    #[error("drops never promote")]
    PromotingDrop,
}

#[derive(Debug, Default)]
struct Parsed {
    piece: Option<PieceKind>,
    squares: Vec<Square>,
    origin: Option<Square>,
    from_hand: bool,
    same: bool,
    promote: Option<bool>,
    drop: bool,
    board_move: bool,
    dir: Option<Direction>,
    side: Option<Side>,
    /// A piece written after two squares (CSA `7776FU`): the piece after the move.
    piece_after_squares: bool,
    /// Strict USI syntax (`7g7f`): no `+` means no promotion.
    usi: bool,
    kanji: bool,
    numeric: bool,
}

fn set_promote(p: &mut Parsed, v: bool) -> Result<(), ParseMoveError> {
    match p.promote {
        Some(old) if old != v => Err(ParseMoveError::ConflictingPromotion),
        _ => {
            p.promote = Some(v);
            Ok(())
        }
    }
}

fn set_piece(p: &mut Parsed, k: PieceKind) -> Result<(), ParseMoveError> {
    if p.piece.is_some_and(|old| old != k) {
        return Err(ParseMoveError::TooManyPieces);
    }
    if p.squares.len() == 2 {
        p.piece_after_squares = true;
    }
    p.piece = Some(k);
    Ok(())
}

fn western_letter(c: char) -> Option<PieceKind> {
    match c {
        'h' => Some(PieceKind::Horse),
        'd' => Some(PieceKind::Dragon),
        't' => Some(PieceKind::ProPawn),
        _ => PieceKind::from_usi_char(c),
    }
}

/// Reads the text into its parts without looking at the position.
fn scan(text: &str) -> Result<Parsed, ParseMoveError> {
    let cs: Vec<char> = text.chars().filter_map(normalize_char).collect();
    if cs.is_empty() {
        return Err(ParseMoveError::Empty);
    }
    if text.split_whitespace().any(|word| {
        let mut run = 0;
        word.chars().filter_map(normalize_char).any(|c| {
            run = if c.is_ascii_alphabetic() { run + 1 } else { 0 };
            run >= 3
        })
    }) {
        return Err(ParseMoveError::NotAMove);
    }
    let mut p = Parsed::default();
    let mut i = 0;
    let digit = |c: char| c.to_digit(10).map(|d| d as u8);
    while i < cs.len() {
        let c = cs[i];
        let next = cs.get(i + 1).copied();
        match c {
            '0'..='9' => {
                let f = digit(c).unwrap_or(0);
                let r = match next {
                    Some(n @ '0'..='9') => {
                        p.numeric = true;
                        digit(n).unwrap_or(0)
                    }
                    Some(n @ 'a'..='i') => n as u8 - b'a' + 1,
                    _ => return Err(ParseMoveError::IncompleteSquare),
                };
                if f == 0 && r == 0 && p.squares.is_empty() {
                    p.from_hand = true;
                } else {
                    let sq = Square::new(f, r).ok_or(ParseMoveError::IncompleteSquare)?;
                    if p.squares.len() == 2 {
                        return Err(ParseMoveError::TooManySquares);
                    }
                    p.squares.push(sq);
                }
                i += 2;
                continue;
            }
            '(' => {
                let f = cs.get(i + 1).and_then(|&c| digit(c));
                let r = cs.get(i + 2).and_then(|&c| digit(c));
                if cs.get(i + 3) != Some(&')') {
                    return Err(ParseMoveError::UnexpectedChar { ch: c });
                }
                let sq = f
                    .zip(r)
                    .and_then(|(f, r)| Square::new(f, r))
                    .ok_or(ParseMoveError::IncompleteSquare)?;
                if p.origin.is_some() {
                    return Err(ParseMoveError::TooManySquares);
                }
                p.origin = Some(sq);
                i += 4;
                continue;
            }
            '+' => {
                if let Some(k) = next.and_then(western_letter).and_then(PieceKind::promote) {
                    // `+P` is a promoted pawn (tokin), `+B` a horse, `+R` a dragon.
                    set_piece(&mut p, k)?;
                    i += 2;
                    continue;
                }
                if !(i == 0 && next.is_some_and(|n| n.is_ascii_digit())) {
                    // A leading `+` before digits is CSA's Sente sign.
                    set_promote(&mut p, true)?;
                }
            }
            '-' => {
                if !(i == 0 && next.is_some_and(|n| n.is_ascii_digit())) {
                    p.board_move = true;
                }
            }
            'x' => p.board_move = true,
            '*' => p.drop = true,
            '=' => set_promote(&mut p, false)?,
            '!' | '?' => {}
            'a'..='z' => {
                let two: String = cs[i..cs.len().min(i + 2)].iter().collect();
                if two.len() == 2 {
                    if let Some(k) = kind_from_csa(&two) {
                        set_piece(&mut p, k)?;
                        i += 2;
                        continue;
                    }
                }
                let k = western_letter(c).ok_or(ParseMoveError::UnexpectedChar { ch: c })?;
                set_piece(&mut p, k)?;
            }
            '同' | '仝' => {
                p.kanji = true;
                p.same = true;
            }
            '成' => {
                p.kanji = true;
                let promoted = next.and_then(kind_from_kanji).and_then(PieceKind::promote);
                match promoted {
                    Some(k) if p.piece.is_none() => {
                        set_piece(&mut p, k)?;
                        i += 2;
                        continue;
                    }
                    _ => set_promote(&mut p, true)?,
                }
            }
            '不' => {
                p.kanji = true;
                if next != Some('成') {
                    return Err(ParseMoveError::UnexpectedChar { ch: c });
                }
                set_promote(&mut p, false)?;
                i += 2;
                continue;
            }
            '生' => set_promote(&mut p, false)?,
            'り' => {}
            '打' => {
                p.kanji = true;
                p.drop = true;
            }
            '右' => p.side = Some(Side::Right),
            '左' => p.side = Some(Side::Left),
            '直' => p.side = Some(Side::Straight),
            '上' | '行' | '入' => p.dir = Some(Direction::Up),
            '引' => p.dir = Some(Direction::Down),
            '寄' => p.dir = Some(Direction::Sideways),
            _ => {
                let k = kind_from_kanji(c).ok_or(ParseMoveError::UnexpectedChar { ch: c })?;
                p.kanji = true;
                // Full names: 歩兵 香車 桂馬 銀将 金将 角行 飛車 玉将 王将 と金, 龍王/竜王 and 龍馬.
                let (k, skip) = match (c, next) {
                    ('歩', Some('兵'))
                    | ('香' | '飛', Some('車'))
                    | ('桂', Some('馬'))
                    | ('銀' | '金' | '玉' | '王', Some('将'))
                    | ('角', Some('行'))
                    | ('と', Some('金'))
                    | ('龍' | '竜', Some('王')) => (k, 2),
                    ('龍' | '竜', Some('馬')) => (PieceKind::Horse, 2),
                    _ => (k, 1),
                };
                set_piece(&mut p, k)?;
                i += skip;
                continue;
            }
        }
        i += 1;
    }
    p.usi = !p.kanji && Move::from_usi(text.trim()).is_ok();
    Ok(p)
}

/// Reads the move a player typed and resolves it to exactly one legal move of
/// `pos`.
///
/// Accepts USI (`7g7f`, `8h2b+`, `P*5e`), Western (`P-7f`, `Bx2b+`, `S*4e`,
/// `G6i-5h`, `P-76`, `R68-64+`, with `=` for a declined promotion), Japanese
/// (`76歩`, `７六歩`, `▲２二角成`, `△同　歩`, `５八金右`, `５五角打`,
/// `７六歩(77)`) and CSA (`+7776FU`), in any case and width, with or without
/// spaces and side marks. The piece may be left out when the squares decide it.
/// `同` takes its square from `ctx.previous`. A promotion left open where
/// both choices are legal is ambiguous, except in strict USI (`2c2b` means no
/// promotion there, as the USI protocol defines).
///
/// ```
/// use komadai::notation::{parse_move, InputContext};
/// use komadai::shogi::{Move, Position};
/// let pos = Position::startpos();
/// let want = Move::from_usi("7g7f").unwrap();
/// for text in ["7g7f", "P-7f", "P76", "76歩", "▲７六歩", "p-7F", "７六歩(77)"] {
///     assert_eq!(parse_move(&pos, text, InputContext::default()), Ok(want));
/// }
/// ```
pub fn parse_move(pos: &Position, text: &str, ctx: InputContext) -> Result<Move, MoveInputError> {
    if text.len() > MAX_MOVE_INPUT_CHARS * 4 || text.chars().count() > MAX_MOVE_INPUT_CHARS {
        return Err(ParseMoveError::TooLong {
            len: text.chars().count(),
            max: MAX_MOVE_INPUT_CHARS,
        }
        .into());
    }
    let p = scan(text)?;
    let legal = pos.legal_moves();
    resolve(pos, &legal, &p, ctx)
}

fn resolve(
    pos: &Position,
    legal: &MoveList,
    p: &Parsed,
    ctx: InputContext,
) -> Result<Move, MoveInputError> {
    let us = pos.side_to_move();
    // Origin and destination.
    // `同` stands for the previous move's destination. Newspapers write
    // `７六同歩` after a page break: an explicit square is the destination then.
    let (mut from, to) = match (p.same, p.squares.as_slice()) {
        (true, []) => {
            let to = ctx
                .previous
                .map(Move::to)
                .ok_or(MoveInputError::NoPreviousMove)?;
            (None, to)
        }
        (false, []) => return Err(ParseMoveError::MissingDestination.into()),
        (_, [to]) => (None, *to),
        (_, [f, t]) => (Some(*f), *t),
        (_, _) => return Err(ParseMoveError::TooManySquares.into()),
    };
    if let Some(o) = p.origin {
        if from.is_some() {
            return Err(ParseMoveError::TooManySquares.into());
        }
        from = Some(o);
    }
    let drop = p.drop || p.from_hand;
    if drop {
        if from.is_some() {
            return Err(ParseMoveError::DropWithOrigin.into());
        }
        if p.piece.is_none() {
            return Err(ParseMoveError::DropWithoutPiece.into());
        }
        if p.promote == Some(true) {
            return Err(ParseMoveError::PromotingDrop.into());
        }
    }
    // What the written piece and promotion mean.
    let mut piece = p.piece;
    let mut promote = p.promote;
    if p.usi && promote.is_none() {
        promote = Some(false);
    }
    if p.piece_after_squares && !drop {
        // CSA names the piece after the move: `8822UM` is a promoting bishop.
        if let (Some(k), Some(f)) = (piece, from) {
            let actual = pos.piece_at(f).map(|q| q.kind);
            if actual.and_then(PieceKind::promote) == Some(k) {
                piece = actual;
                promote = Some(true);
            } else if actual == Some(k) && promote.is_none() {
                promote = Some(false);
            }
        }
    }

    let mut cands: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.to() == to)
        .filter(|m| from.is_none_or(|f| m.from() == Some(f)))
        .filter(|m| !drop || m.is_drop())
        .filter(|m| !(p.board_move && m.is_drop()))
        .filter(|m| piece.is_none_or(|k| moving_kind(pos, *m) == Some(k)))
        .filter(|m| promote.is_none_or(|pr| m.is_drop() || m.is_promotion() == pr))
        .filter(|m| !(promote == Some(true) && m.is_drop()))
        .collect();
    if p.dir.is_some() || p.side.is_some() {
        let mut origins: Vec<Square> = cands.iter().filter_map(|m| m.from()).collect();
        origins.sort_unstable();
        origins.dedup();
        let keep = ki2::filter(us, to, &origins, p.dir, p.side);
        cands.retain(|m| m.from().is_some_and(|f| keep.contains(&f)));
    }
    // Without 打 or `*`, a board move is meant when there is one (KI2 rule).
    if !drop && cands.iter().any(|m| !m.is_drop()) {
        cands.retain(|m| !m.is_drop());
    }
    cands.sort_unstable();
    cands.dedup();
    let style = ctx.style.unwrap_or(if p.kanji {
        Style::Japanese
    } else if p.usi {
        Style::Usi
    } else if p.numeric {
        Style::WesternNumeric
    } else {
        Style::Western
    });
    let write = |moves: &[Move]| -> Vec<String> {
        moves
            .iter()
            .map(|&m| match style {
                Style::Usi => m.to_string(),
                Style::Western => western(pos, m, legal, false),
                Style::WesternNumeric => western(pos, m, legal, true),
                Style::Japanese => japanese(pos, m, legal, ctx.previous, true),
            })
            .collect()
    };
    match cands.len() {
        1 => Ok(cands[0]),
        0 => match explain(pos, p, piece, from, to, drop, promote) {
            Some(e) => Err(e),
            None => {
                // Legal moves go there, just not as written: offer them.
                let mut near: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| m.to() == to)
                    .filter(|m| from.is_none_or(|f| m.from() == Some(f)))
                    .filter(|m| piece.is_none_or(|k| moving_kind(pos, *m) == Some(k)))
                    .collect();
                near.sort_unstable();
                if near.is_empty() {
                    return Err(MoveInputError::NoPieceCanReach { kind: piece, to });
                }
                let written = write(&near);
                Err(MoveInputError::NotAsWritten {
                    candidates: near,
                    written,
                })
            }
        },
        _ => {
            let written = write(&cands);
            Err(MoveInputError::Ambiguous {
                candidates: cands,
                written,
            })
        }
    }
}

/// Why nothing fits: the rule a fully described move breaks, the wrong piece,
/// or that no piece can get there; `None` when a legal move of the written
/// piece does go there, only not as written (disambiguator, promotion mark).
fn explain(
    pos: &Position,
    p: &Parsed,
    piece: Option<PieceKind>,
    from: Option<Square>,
    to: Square,
    drop: bool,
    promote: Option<bool>,
) -> Option<MoveInputError> {
    let us = pos.side_to_move();
    if drop {
        let kind = piece.unwrap_or(PieceKind::Pawn);
        return pos
            .check_move(Move::Drop { kind, to })
            .err()
            .map(MoveInputError::Illegal);
    }
    if let Some(f) = from {
        let actual = pos.piece_at(f).map(|q| q.kind);
        if let (Some(k), Some(a)) = (piece, actual) {
            if pos.piece_at(f).is_some_and(|q| q.color == us) && a != k {
                return Some(MoveInputError::WrongPiece {
                    from: f,
                    written: k,
                    actual: Some(a),
                });
            }
        }
        let mv = Move::Normal {
            from: f,
            to,
            promote: promote.unwrap_or(false),
        };
        return pos.check_move(mv).err().map(MoveInputError::Illegal);
    }
    let Some(kind) = piece else {
        return Some(MoveInputError::NoPieceCanReach { kind: None, to });
    };
    // Pieces of that kind that move that way, ignoring everything else.
    let mut errors: Vec<IllegalMove> = Vec::new();
    let mut any_legal = false;
    for sq in pos.pieces(us, kind) {
        if !attacks(us, kind, sq, Bitboard::EMPTY).has(to) {
            continue;
        }
        match pos.check_move(Move::Normal {
            from: sq,
            to,
            promote: promote.unwrap_or(false),
        }) {
            Ok(()) => any_legal = true,
            Err(e) => errors.push(e),
        }
    }
    if !any_legal && !p.board_move && kind.is_hand_kind() && pos.hand(us).count(kind) > 0 {
        if let Err(e) = pos.check_move(Move::Drop { kind, to }) {
            if errors.is_empty() {
                return Some(MoveInputError::Illegal(e));
            }
        }
    }
    if any_legal {
        return None;
    }
    let informative = errors
        .iter()
        .find(|e| !matches!(e, IllegalMove::PathBlocked { .. }));
    Some(match informative.or(errors.first()) {
        Some(&e) => MoveInputError::Illegal(e),
        None => MoveInputError::NoPieceCanReach { kind: piece, to },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_not_moves_but_two_letter_notations_still_are() {
        for text in ["hello world", "ｈｅｌｌｏ", "resign", "pawn 7f", "7g7fxyz"] {
            assert_eq!(scan(text).err(), Some(ParseMoveError::NotAMove), "{text}");
        }
        for text in [
            "7776FU", "+7776fu", "Px7d", "+Bx4d", "P-7f", "Hx5e", "S*4e", "7g7f+", "g 5b", "P 7 f",
        ] {
            assert_ne!(scan(text).err(), Some(ParseMoveError::NotAMove), "{text}");
        }
    }

    fn pm(sfen: &str, text: &str, prev: Option<&str>) -> Result<Move, MoveInputError> {
        let pos = Position::from_sfen(sfen).unwrap();
        let ctx = InputContext::after(prev.map(|p| Move::from_usi(p).unwrap()));
        parse_move(&pos, text, ctx)
    }

    #[test]
    fn start_position_forms() {
        let s = crate::shogi::STANDARD_START_SFEN;
        let want = Move::from_usi("7g7f").unwrap();
        for t in [
            "7g7f",
            "P-7f",
            "P76",
            "P-76",
            "76歩",
            "７六歩",
            "7六歩",
            "▲７六歩",
            " p 7 f ",
            "+7776FU",
            "７六歩(77)",
            "☗76FU",
            "76",
        ] {
            assert_eq!(pm(s, t, None), Ok(want), "{t}");
        }
    }

    #[test]
    fn errors_have_kinds() {
        let s = crate::shogi::STANDARD_START_SFEN;
        assert_eq!(pm(s, "", None), Err(ParseMoveError::Empty.into()));
        assert_eq!(pm(s, "同歩", None), Err(MoveInputError::NoPreviousMove));
        assert!(matches!(
            pm(s, "G-5h", None),
            Err(MoveInputError::Ambiguous { .. })
        ));
        assert!(matches!(
            pm(s, "7g7e", None),
            Err(MoveInputError::Illegal(_))
        ));
        assert!(matches!(
            pm(s, "P*5e", None),
            Err(MoveInputError::Illegal(IllegalMove::NotInHand(_)))
        ));
        assert!(matches!(
            pm(s, "R-2a", None),
            Err(MoveInputError::NoPieceCanReach { .. }) | Err(MoveInputError::Illegal(_))
        ));
        assert!(matches!(
            pm(s, "zz", None),
            Err(MoveInputError::Unparseable(_))
        ));
        let long = "7".repeat(201);
        assert!(matches!(
            pm(s, &long, None),
            Err(MoveInputError::Unparseable(ParseMoveError::TooLong { .. }))
        ));
    }
}
