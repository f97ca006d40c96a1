//! A game record as files carry it: start position, moves, optional times,
//! players, date, result; and the formats it travels in.

use crate::shogi::{
    Color, DrawReason, Game, Handicap, Move, Outcome, Position, WinReason, STANDARD_START_SFEN,
};

use super::{csa, kif, usi, MoveInputError};

/// Largest record file accepted (1 MiB): far above any real game.
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// How a game record ended, in the terms KIF and CSA use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// 投了 / `%TORYO`: the side to move resigned.
    Resign,
    /// 詰み / `%TSUMI`: the side to move is checkmated.
    Checkmate,
    /// 千日手 / `%SENNICHITE`: fourfold repetition, draw.
    Sennichite,
    /// 持将棋 / `%JISHOGI`: impasse, draw.
    Jishogi,
    /// 入玉勝ち / `%KACHI`: the side to move wins by entering-king declaration (or try).
    EnteringKingWin,
    /// 切れ負け / `%TIME_UP`: the side to move ran out of time.
    TimeUp,
    /// 反則勝ち: the side to move wins by the opponent's foul (e.g. perpetual check).
    IllegalWin,
    /// 反則負け / `%ILLEGAL_MOVE`: the side to move loses by a foul.
    IllegalLoss,
    /// 中断 / `%CHUDAN`: the game was stopped (no result).
    Abort,
    /// `%MAX_MOVES`: the ply limit was reached, draw.
    MaxMoves,
}

impl Termination {
    /// The KIF word.
    #[must_use]
    pub const fn kif(self) -> &'static str {
        match self {
            Termination::Resign => "投了",
            Termination::Checkmate => "詰み",
            Termination::Sennichite => "千日手",
            Termination::Jishogi => "持将棋",
            Termination::EnteringKingWin => "入玉勝ち",
            Termination::TimeUp => "切れ負け",
            Termination::IllegalWin => "反則勝ち",
            Termination::IllegalLoss => "反則負け",
            Termination::Abort => "中断",
            Termination::MaxMoves => "最大手数",
        }
    }

    /// The winner, given the side to move when the game ended.
    #[must_use]
    pub fn winner(self, to_move: Color) -> Option<Color> {
        match self {
            Termination::Resign
            | Termination::Checkmate
            | Termination::TimeUp
            | Termination::IllegalLoss => Some(!to_move),
            Termination::EnteringKingWin | Termination::IllegalWin => Some(to_move),
            Termination::Sennichite
            | Termination::Jishogi
            | Termination::Abort
            | Termination::MaxMoves => None,
        }
    }

    /// The termination for a rules-core outcome, given the side to move at the end.
    #[must_use]
    pub fn from_outcome(outcome: Outcome, to_move: Color) -> Termination {
        match outcome {
            Outcome::Win { winner, reason } => match reason {
                WinReason::Checkmate | WinReason::NoLegalMoves => Termination::Checkmate,
                WinReason::Resignation => Termination::Resign,
                WinReason::Timeout => Termination::TimeUp,
                WinReason::Declaration | WinReason::Try | WinReason::Counting => {
                    if winner == to_move {
                        Termination::EnteringKingWin
                    } else {
                        Termination::Jishogi
                    }
                }
                WinReason::PerpetualCheck | WinReason::Repetition => {
                    if winner == to_move {
                        Termination::IllegalWin
                    } else {
                        Termination::IllegalLoss
                    }
                }
            },
            Outcome::Draw(DrawReason::Sennichite) => Termination::Sennichite,
            Outcome::Draw(DrawReason::MaxPlies) => Termination::MaxMoves,
            Outcome::Draw(DrawReason::Counting) => Termination::Jishogi,
            Outcome::Aborted => Termination::Abort,
        }
    }
}

/// A game record: everything KIF, CSA and USI files carry that komadai uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The start position (standard, a handicap, or any other position).
    pub start: Position,
    /// The moves, each legal in its position.
    pub moves: Vec<Move>,
    /// Seconds each move took, where known (empty, or one entry per move).
    pub times: Vec<Option<u32>>,
    /// Sente's (下手's in handicap games) name.
    pub sente: Option<String>,
    /// Gote's (上手's in handicap games) name.
    pub gote: Option<String>,
    /// When the game started, as written (`2024/01/31 19:00:00`).
    pub start_time: Option<String>,
    /// The event or title.
    pub event: Option<String>,
    /// How the game ended, if it did.
    pub termination: Option<Termination>,
}

impl GameRecord {
    /// A record of `moves` from `start` with nothing else known.
    #[must_use]
    pub fn new(start: Position, moves: Vec<Move>) -> GameRecord {
        GameRecord {
            start,
            moves,
            times: Vec::new(),
            sente: None,
            gote: None,
            start_time: None,
            event: None,
            termination: None,
        }
    }

    /// The record of a rules-core game (its outcome becomes the termination).
    #[must_use]
    pub fn from_game(game: &Game) -> GameRecord {
        let mut r = GameRecord::new(game.start().clone(), game.moves().to_vec());
        r.termination = game
            .outcome()
            .map(|o| Termination::from_outcome(o, game.position().side_to_move()));
        r
    }

    /// The handicap whose start position this record starts from, if any.
    #[must_use]
    pub fn handicap(&self) -> Option<Handicap> {
        let sfen = self.start.to_sfen();
        Handicap::ALL.into_iter().find(|h| h.start_sfen() == sfen)
    }

    /// Whether the record starts from the standard start position.
    #[must_use]
    pub fn is_standard_start(&self) -> bool {
        self.start.to_sfen() == STANDARD_START_SFEN
    }

    /// The position after all moves.
    #[must_use]
    pub fn final_position(&self) -> Position {
        let mut p = self.start.clone();
        for &m in &self.moves {
            p.play_unchecked(m);
        }
        p
    }

    /// The time of move `i` (0-based), if known.
    #[must_use]
    pub fn time(&self, i: usize) -> Option<u32> {
        self.times.get(i).copied().flatten()
    }
}

/// A file format for game records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordFormat {
    /// KIF (Kifu for Windows, lishogi, ShogiGUI; UTF-8 `.kifu` or Shift-JIS
    /// `.kif`). Reading also accepts KI2 (`.ki2`, moves without origins).
    Kif,
    /// CSA V2.2.
    Csa,
    /// `position sfen … moves …` (USI).
    Usi,
}

impl RecordFormat {
    /// The format for a file name's extension (`kif`, `kifu`, `ki2`, `csa`, `usi`, `sfen`).
    #[must_use]
    pub fn from_extension(path: &str) -> Option<RecordFormat> {
        let ext = path.rsplit('.').next()?.to_ascii_lowercase();
        match ext.as_str() {
            "kif" | "kifu" | "ki2" | "ki2u" => Some(RecordFormat::Kif),
            "csa" => Some(RecordFormat::Csa),
            "usi" | "sfen" => Some(RecordFormat::Usi),
            _ => None,
        }
    }
}

/// Why a record could not be read. Line numbers are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The file is larger than [`MAX_RECORD_BYTES`].
    #[error("record too large ({0} bytes)")]
    TooLarge(usize),
    /// The bytes are neither UTF-8 nor Shift-JIS.
    #[error("the file is neither UTF-8 nor Shift-JIS text")]
    Encoding,
    /// A line that cannot be read.
    #[error("line {line}: cannot read {text:?}")]
    Syntax {
        /// The line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// The start position is not valid.
    #[error("line {line}: bad start position: {reason}")]
    BadPosition {
        /// The line number (of the position's last line).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A move that the rules core refuses or that does not fit the position.
    #[error("line {line}: move {number} {text:?}: {error}")]
    BadMove {
        /// The line number.
        line: usize,
        /// The move number (1-based ply).
        number: usize,
        /// The move as written.
        text: String,
        /// Why.
        error: MoveInputError,
    },
    /// The game cannot be written in this format (e.g. minishogi in CSA).
    #[error("this record cannot be written as {0:?}")]
    Unsupported(RecordFormat),
}

/// Decodes record bytes: UTF-8 (with or without BOM) or Shift-JIS.
pub fn decode(bytes: &[u8]) -> Result<String, RecordError> {
    if bytes.len() > MAX_RECORD_BYTES {
        return Err(RecordError::TooLarge(bytes.len()));
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Ok(s.to_string());
    }
    let (text, _, had_errors) = encoding_rs::SHIFT_JIS.decode(bytes);
    if had_errors {
        return Err(RecordError::Encoding);
    }
    Ok(text.into_owned())
}

/// Guesses the format of a record's text.
#[must_use]
pub fn detect_format(text: &str) -> RecordFormat {
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.starts_with("position") || line.starts_with("startpos") || line.starts_with("sfen ")
        {
            return RecordFormat::Usi;
        }
        if line.starts_with('\'') {
            continue;
        }
        if line.starts_with("V2")
            || line.starts_with("N+")
            || line.starts_with("N-")
            || line.starts_with("PI")
            || line.starts_with("P1")
            || line.starts_with("$")
            || (line.len() >= 7
                && (line.starts_with('+') || line.starts_with('-'))
                && line.as_bytes()[1].is_ascii_digit())
        {
            return RecordFormat::Csa;
        }
        return RecordFormat::Kif;
    }
    RecordFormat::Kif
}

/// Reads a record from file bytes in `format` (or the detected one).
pub fn read_record(bytes: &[u8], format: Option<RecordFormat>) -> Result<GameRecord, RecordError> {
    let text = decode(bytes)?;
    match format.unwrap_or_else(|| detect_format(&text)) {
        RecordFormat::Kif => kif::parse(&text),
        RecordFormat::Csa => csa::parse(&text),
        RecordFormat::Usi => usi::parse(&text),
    }
}

/// Writes a record as text in `format` (KIF as UTF-8 text; encode it with
/// [`kif::to_shift_jis`] for a `.kif` file).
pub fn write_record(record: &GameRecord, format: RecordFormat) -> Result<String, RecordError> {
    match format {
        RecordFormat::Kif => kif::write(record),
        RecordFormat::Csa => csa::write(record),
        RecordFormat::Usi => Ok(usi::write(record)),
    }
}

/// The hands field of an SFEN for per-colour counts of the seven hand kinds
/// (index = `PieceKind` discriminant): rook first, Sente first, `-` if empty.
pub(crate) fn sfen_hands(counts: &[[u8; 7]; 2]) -> String {
    let mut hands = String::new();
    for c in Color::ALL {
        for k in crate::shogi::PieceKind::HAND.iter().rev() {
            let n = counts[c.index()][k.index()];
            if n > 0 {
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                hands.push_str(&crate::shogi::Piece::new(c, *k).sfen());
            }
        }
    }
    if hands.is_empty() {
        hands.push('-');
    }
    hands
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::EnteringKingRule;

    #[test]
    fn a_finished_game_becomes_a_record() {
        let start = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let mut game = Game::new(start, EnteringKingRule::default());
        game.play(Move::from_usi("G*5b").unwrap()).unwrap();
        let r = GameRecord::from_game(&game);
        assert_eq!(r.termination, Some(Termination::Checkmate));
        assert_eq!(
            r.termination.and_then(|t| t.winner(Color::Gote)),
            Some(Color::Sente)
        );
        let kif = write_record(&r, RecordFormat::Kif).unwrap();
        assert!(
            kif.contains("   1 ５二金打\n   2 詰み\nまで1手で先手の勝ち"),
            "{kif}"
        );
        let csa = write_record(&r, RecordFormat::Csa).unwrap();
        assert!(csa.ends_with("+0052KI\n%TSUMI\n"), "{csa}");
        assert_eq!(
            write_record(&r, RecordFormat::Usi).unwrap(),
            format!("position sfen {} moves G*5b\n", r.start.to_sfen())
        );
    }

    #[test]
    fn formats_are_detected() {
        assert_eq!(
            detect_format("position startpos moves 7g7f"),
            RecordFormat::Usi
        );
        assert_eq!(detect_format("'comment\nV2.2\nPI\n+\n"), RecordFormat::Csa);
        assert_eq!(detect_format("+7776FU\n"), RecordFormat::Csa);
        assert_eq!(
            detect_format("#KIF version=2.0\n手合割：平手\n"),
            RecordFormat::Kif
        );
        assert_eq!(detect_format("後手の持駒：なし\n"), RecordFormat::Kif);
        assert_eq!(
            RecordFormat::from_extension("game.KIFU"),
            Some(RecordFormat::Kif)
        );
        assert_eq!(RecordFormat::from_extension("game.txt"), None);
    }

    #[test]
    fn minishogi_records_travel_as_usi_only() {
        let r = GameRecord::new(Position::minishogi_startpos(), Vec::new());
        assert_eq!(
            write_record(&r, RecordFormat::Kif),
            Err(RecordError::Unsupported(RecordFormat::Kif))
        );
        assert_eq!(
            write_record(&r, RecordFormat::Csa),
            Err(RecordError::Unsupported(RecordFormat::Csa))
        );
        let usi = write_record(&r, RecordFormat::Usi).unwrap();
        assert_eq!(read_record(usi.as_bytes(), None).unwrap(), r);
    }
}
