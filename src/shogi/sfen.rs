//! SFEN parsing and printing. Parsing is total: any text gives a checked
//! position or an error, and the setup check reports every problem at once.

use super::position::{board_mask, dead_squares, Position};
use super::types::{Color, Piece, PieceKind, Square, Variant};

/// Longest SFEN text accepted (a full SFEN is under 130 characters).
pub const MAX_SFEN_LEN: usize = 256;

/// Why a text is not a valid SFEN position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SfenError {
    /// The text cannot be read as SFEN at all.
    #[error("SFEN syntax: {0}")]
    Syntax(#[from] SfenSyntaxError),
    /// The text reads, but the setup breaks the rules (every problem listed).
    #[error("illegal setup: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Setup(Vec<SetupProblem>),
}

/// A syntax error in an SFEN text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SfenSyntaxError {
    /// The text is longer than [`MAX_SFEN_LEN`].
    #[error("text too long ({0} bytes)")]
    TooLong(usize),
    /// Not 3 or 4 space-separated fields.
    #[error("expected 3 or 4 fields (board, side, hands[, move number]), found {0}")]
    FieldCount(usize),
    /// The board field has neither 9 nor 5 ranks.
    #[error("the board has {0} ranks; expected 9 (shogi) or 5 (minishogi)")]
    RankCount(usize),
    /// A rank of the board does not have exactly as many squares as the board is wide.
    #[error("rank {rank} describes {squares} squares, expected {expected}")]
    RankWidth {
        /// Rank 1..=9 (a..i).
        rank: usize,
        /// Squares described.
        squares: usize,
        /// Width of the board.
        expected: usize,
    },
    /// A character that is not a piece letter, digit, `+` or `/`.
    #[error("unexpected character {0:?} in the board")]
    BadBoardChar(char),
    /// `+` in front of a piece that cannot promote, or at the end of a rank.
    #[error("'+' must precede a piece that can promote")]
    BadPromotion,
    /// The side to move is not `b` or `w`.
    #[error("side to move must be 'b' or 'w', found {0:?}")]
    BadSide(String),
    /// The hands field is malformed.
    #[error("hands field {0:?} is malformed")]
    BadHand(String),
    /// The move number is not a positive integer.
    #[error("move number {0:?} is not a positive number")]
    BadMoveNumber(String),
}

/// A rule the setup breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupProblem {
    /// A side has no king.
    #[error("{0:?} has no king")]
    MissingKing(Color),
    /// A side has more than one king.
    #[error("{0:?} has {1} kings")]
    TooManyKings(Color, u32),
    /// More pieces of an (unpromoted) kind than the set holds, board and hands together.
    #[error("{count} pieces of kind {kind:?} (at most {max})")]
    TooManyPieces {
        /// The unpromoted kind.
        kind: PieceKind,
        /// How many there are.
        count: u32,
        /// How many the set has.
        max: u32,
    },
    /// Two unpromoted pawns of one side on a file.
    #[error("{color:?} has two pawns on file {file} (nifu)")]
    Nifu {
        /// Whose pawns.
        color: Color,
        /// The file.
        file: u8,
    },
    /// A pawn, lance or knight where it could never move.
    #[error("{piece:?} on {square} can never move")]
    DeadPiece {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// The side that is not to move is in check.
    #[error("{0:?} is not to move but is in check")]
    OpponentInCheck(Color),
    /// A piece kind that minishogi does not have (knight, lance).
    #[error("minishogi has no {0:?}")]
    NotInVariant(PieceKind),
}

/// How many pieces of each unpromoted kind a set holds, both sides together.
#[must_use]
pub fn piece_limit(v: Variant, kind: PieceKind) -> u32 {
    match (v, kind.unpromote()) {
        (Variant::Standard, PieceKind::Pawn) => 18,
        (Variant::Standard, PieceKind::Lance | PieceKind::Knight) => 4,
        (Variant::Standard, PieceKind::Silver | PieceKind::Gold) => 4,
        (_, PieceKind::Bishop | PieceKind::Rook | PieceKind::King) => 2,
        (Variant::Minishogi, PieceKind::Pawn | PieceKind::Silver | PieceKind::Gold) => 2,
        (Variant::Minishogi, _) => 0,
        _ => 0,
    }
}

impl Position {
    /// Parses and checks an SFEN (`<board> <side> <hands> [<move number>]`, an
    /// optional leading `sfen ` is accepted). Minishogi is recognised by its
    /// five ranks of five.
    pub fn from_sfen(text: &str) -> Result<Position, SfenError> {
        Position::parse_sfen(text, false)
    }

    /// Parses and checks the SFEN of a composed tsume problem: like
    /// [`Position::from_sfen`], except that the side to move (the attacker)
    /// may have no king, as is usual in composed problems. The defender must
    /// still have exactly one king; every other rule of the setup is checked.
    pub fn from_sfen_tsume(text: &str) -> Result<Position, SfenError> {
        Position::parse_sfen(text, true)
    }

    fn parse_sfen(text: &str, attacker_king_optional: bool) -> Result<Position, SfenError> {
        if text.len() > MAX_SFEN_LEN {
            return Err(SfenSyntaxError::TooLong(text.len()).into());
        }
        let text = text.trim();
        let text = text.strip_prefix("sfen ").unwrap_or(text);
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        if !(3..=4).contains(&fields.len()) {
            return Err(SfenSyntaxError::FieldCount(fields.len()).into());
        }
        let mut pos = parse_board(fields[0])?;
        pos.side = match fields[1] {
            "b" => Color::Sente,
            "w" => Color::Gote,
            other => return Err(SfenSyntaxError::BadSide(truncate(other)).into()),
        };
        parse_hands(&mut pos, fields[2])?;
        if let Some(n) = fields.get(3) {
            pos.move_number = n
                .parse::<u32>()
                .ok()
                .filter(|&n| (1..=1_000_000).contains(&n))
                .ok_or_else(|| SfenSyntaxError::BadMoveNumber(truncate(n)))?;
        }
        pos.refresh();
        let mut problems = pos.setup_problems();
        if attacker_king_optional {
            let side = pos.side;
            problems.retain(|p| *p != SetupProblem::MissingKing(side));
        }
        if problems.is_empty() {
            Ok(pos)
        } else {
            Err(SfenError::Setup(problems))
        }
    }

    /// Every rule the setup breaks (empty for a legal position).
    fn setup_problems(&self) -> Vec<SetupProblem> {
        let v = self.variant;
        let mut out = Vec::new();
        for c in Color::ALL {
            let kings = self.pieces(c, PieceKind::King).count();
            if kings == 0 {
                out.push(SetupProblem::MissingKing(c));
            } else if kings > 1 {
                out.push(SetupProblem::TooManyKings(c, kings));
            }
        }
        for kind in PieceKind::HAND {
            let promoted = kind.promote();
            let mut count = self.by_kind[kind.index()].count();
            if let Some(p) = promoted {
                count += self.by_kind[p.index()].count();
            }
            count += u32::from(self.hands[0].count(kind)) + u32::from(self.hands[1].count(kind));
            let max = piece_limit(v, kind);
            if max == 0 && count > 0 {
                out.push(SetupProblem::NotInVariant(kind));
            } else if count > max {
                out.push(SetupProblem::TooManyPieces { kind, count, max });
            }
        }
        for c in Color::ALL {
            let pawns = self.pieces(c, PieceKind::Pawn);
            for file in 1..=v.size() {
                if (pawns & super::Bitboard::file(file)).count() > 1 {
                    out.push(SetupProblem::Nifu { color: c, file });
                }
            }
            for kind in [PieceKind::Pawn, PieceKind::Lance, PieceKind::Knight] {
                for sq in self.pieces(c, kind) & dead_squares(v, c, kind) {
                    out.push(SetupProblem::DeadPiece {
                        piece: Piece::new(c, kind),
                        square: sq,
                    });
                }
            }
        }
        let them = !self.side;
        if let Some(k) = self.kings[them.index()] {
            if self.pieces(them, PieceKind::King).count() == 1
                && self.is_attacked(k, self.side, self.occupied())
            {
                out.push(SetupProblem::OpponentInCheck(them));
            }
        }
        out
    }

    /// The SFEN text of this position.
    #[must_use]
    pub fn to_sfen(&self) -> String {
        let size = self.variant.size();
        let mut s = String::with_capacity(100);
        for rank in 1..=size {
            let mut empty = 0;
            for file in (1..=size).rev() {
                let sq = Square::new(file, rank).expect("on the grid");
                match self.board[sq.index()] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push_str(&p.sfen());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank < size {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side.sfen_char());
        s.push(' ');
        s.push_str(&self.hands_sfen());
        s.push(' ');
        s.push_str(&self.move_number.to_string());
        s
    }

    /// The hands field of the SFEN (`-` when both are empty).
    #[must_use]
    pub fn hands_sfen(&self) -> String {
        let mut s = String::new();
        for c in Color::ALL {
            for (kind, n) in self.hands[c.index()].iter() {
                if n > 1 {
                    s.push_str(&n.to_string());
                }
                s.push_str(&Piece::new(c, kind).sfen());
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

fn truncate(s: &str) -> String {
    s.chars().take(16).collect()
}

fn parse_board(field: &str) -> Result<Position, SfenError> {
    let rows: Vec<&str> = field.split('/').collect();
    let variant = match rows.len() {
        9 => Variant::Standard,
        5 => Variant::Minishogi,
        n => return Err(SfenSyntaxError::RankCount(n).into()),
    };
    let size = usize::from(variant.size());
    let mut pos = Position::empty(variant);
    for (r, row) in rows.iter().enumerate() {
        let mut file = size; // next file to fill, counting down
        let mut squares = 0usize;
        let mut promoted = false;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                if promoted || d == 0 {
                    return Err(if promoted {
                        SfenSyntaxError::BadPromotion
                    } else {
                        SfenSyntaxError::BadBoardChar(ch)
                    }
                    .into());
                }
                squares += d as usize;
                file = file.saturating_sub(d as usize);
                continue;
            }
            if ch == '+' {
                if promoted {
                    return Err(SfenSyntaxError::BadPromotion.into());
                }
                promoted = true;
                continue;
            }
            let kind = PieceKind::from_usi_char(ch)
                .filter(|_| ch.is_ascii_alphabetic())
                .ok_or(SfenSyntaxError::BadBoardChar(ch))?;
            let kind = if promoted {
                kind.promote().ok_or(SfenSyntaxError::BadPromotion)?
            } else {
                kind
            };
            promoted = false;
            let color = if ch.is_ascii_uppercase() {
                Color::Sente
            } else {
                Color::Gote
            };
            squares += 1;
            if squares > size || file == 0 {
                return Err(SfenSyntaxError::RankWidth {
                    rank: r + 1,
                    squares,
                    expected: size,
                }
                .into());
            }
            let sq = Square::new(file as u8, (r + 1) as u8).expect("inside the grid");
            pos.put(sq, Piece::new(color, kind));
            file -= 1;
        }
        if promoted {
            return Err(SfenSyntaxError::BadPromotion.into());
        }
        if squares != size {
            return Err(SfenSyntaxError::RankWidth {
                rank: r + 1,
                squares,
                expected: size,
            }
            .into());
        }
    }
    debug_assert!((pos.occupied() & !board_mask(variant)).is_empty());
    Ok(pos)
}

fn parse_hands(pos: &mut Position, field: &str) -> Result<(), SfenError> {
    if field == "-" {
        return Ok(());
    }
    let bad = || SfenError::from(SfenSyntaxError::BadHand(truncate(field)));
    let mut count: Option<u32> = None;
    for ch in field.chars() {
        if let Some(d) = ch.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 18 || (count.is_none() && d == 0) {
                return Err(bad());
            }
            count = Some(n);
            continue;
        }
        let kind = PieceKind::from_usi_char(ch)
            .filter(|k| k.is_hand_kind() && ch.is_ascii_alphabetic())
            .ok_or_else(bad)?;
        let n = count.take().unwrap_or(1);
        if n < 1 {
            return Err(bad());
        }
        let color = if ch.is_ascii_uppercase() {
            Color::Sente
        } else {
            Color::Gote
        };
        if pos.hands[color.index()].count(kind) > 0 {
            return Err(bad());
        }
        for _ in 0..n {
            pos.add_to_hand(color, kind);
        }
    }
    if count.is_some() {
        return Err(bad());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::STANDARD_START_SFEN;

    #[test]
    fn start_round_trips() {
        let p = Position::from_sfen(STANDARD_START_SFEN).unwrap();
        assert_eq!(p.to_sfen(), STANDARD_START_SFEN);
        let m = Position::minishogi_startpos();
        assert_eq!(m.to_sfen(), "rbsgk/4p/5/P4/KGSBR b - 1");
        assert_eq!(m.variant(), Variant::Minishogi);
    }

    #[test]
    fn hands_round_trip() {
        let s = "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1";
        assert_eq!(Position::from_sfen(s).unwrap().to_sfen(), s);
    }

    #[test]
    fn reports_every_problem() {
        // Two sente kings, no gote king, nifu, a dead pawn, and a dead knight.
        let err = Position::from_sfen("P3N4/9/9/9/9/9/4P4/4P4/3KK4 b - 1").unwrap_err();
        let SfenError::Setup(problems) = err else {
            panic!("{err:?}")
        };
        assert!(problems.contains(&SetupProblem::MissingKing(Color::Gote)));
        assert!(problems.contains(&SetupProblem::TooManyKings(Color::Sente, 2)));
        assert!(problems.contains(&SetupProblem::Nifu {
            color: Color::Sente,
            file: 5
        }));
        assert!(problems.iter().any(
            |p| matches!(p, SetupProblem::DeadPiece { square, .. } if *square == Square::SQ_9A)
        ));
        assert!(problems.iter().any(
            |p| matches!(p, SetupProblem::DeadPiece { square, .. } if *square == Square::SQ_5A)
        ));
        assert_eq!(problems.len(), 5, "{problems:?}");
    }

    #[test]
    fn too_many_pieces_and_opponent_in_check() {
        let err = Position::from_sfen("4k4/4R4/9/9/9/9/9/9/4K4 b 2R 1").unwrap_err();
        let SfenError::Setup(problems) = err else {
            panic!()
        };
        assert!(problems.contains(&SetupProblem::TooManyPieces {
            kind: PieceKind::Rook,
            count: 3,
            max: 2
        }));
        assert!(problems.contains(&SetupProblem::OpponentInCheck(Color::Gote)));
    }

    #[test]
    fn syntax_errors() {
        for s in [
            "",
            "9/9/9 b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG+KGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 0P 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b K 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - -3",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN０ b - 1",
        ] {
            assert!(
                matches!(Position::from_sfen(s), Err(SfenError::Syntax(_))),
                "{s}"
            );
        }
    }

    #[test]
    fn tsume_setup_may_lack_the_attacker_king() {
        // A composed problem: Sente attacks without a king.
        let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
        assert!(Position::from_sfen(sfen).is_err());
        let p = Position::from_sfen_tsume(sfen).unwrap();
        assert_eq!(p.king_square(Color::Sente), None);
        assert!(p.is_legal(crate::shogi::Move::from_usi("G*5b").unwrap()));
        // The defender still needs its king, and the other rules still hold.
        assert!(Position::from_sfen_tsume("9/9/4P4/9/9/9/9/9/9 b G 1").is_err());
        assert!(Position::from_sfen_tsume("4k4/9/4P4/9/9/9/9/9/9 w G 1").is_err());
        assert!(Position::from_sfen_tsume("4k4/9/4P4/4P4/9/9/9/9/9 b G 1").is_err());
    }
}
