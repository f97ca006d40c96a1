//! A game: start position, move list and position history, and every way a
//! game ends under SPEC §1 (checkmate, no legal move, sennichite, perpetual
//! check, the minishogi repetition rule, 320 plies, entering king under three
//! rules, resignation, timeout, abort).

use super::movegen::IllegalMove;
use super::position::{promotion_zone, Position};
use super::types::{Color, Move, PieceKind, Square, Variant};

/// A game without result after this many plies is a draw.
pub const MAX_PLIES: usize = 320;

/// Games that end by resignation, timeout or abort before this many plies are aborted.
pub const ABORT_PLIES: usize = 10;

/// The entering-king (jishogi) rule chosen when the game is created.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EnteringKingRule {
    /// The side to move may declare a win under the 27-point conditions.
    #[default]
    Declaration27,
    /// With both kings in the opponent's camp, the players may agree to count:
    /// under 24 points loses, both at 24 or more is a draw.
    Counting24,
    /// The first king to reach the opponent king's start square wins.
    Try,
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser is in check with no legal move.
    Checkmate,
    /// The loser has no legal move at all (no stalemate draw in shogi).
    NoLegalMoves,
    /// The loser gave check with every move of a fourfold repetition.
    PerpetualCheck,
    /// Minishogi: a fourth repetition without perpetual check loses for Sente.
    Repetition,
    /// The winner declared under the 27-point entering-king rule.
    Declaration,
    /// The loser had under 24 points when counting.
    Counting,
    /// The winner's king reached the opponent king's start square.
    Try,
    /// The loser resigned.
    Resignation,
    /// The loser missed the move deadline.
    Timeout,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position for the fourth time, no perpetual check.
    Sennichite,
    /// 320 plies without result.
    MaxPlies,
    /// Both sides had 24 points or more when counting.
    Counting,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// Nobody won.
    Draw(DrawReason),
    /// Ended before ply 10 by resignation, timeout or abort: no result.
    Aborted,
}

impl Outcome {
    /// The winner, if any.
    #[must_use]
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            _ => None,
        }
    }
}

/// A condition of the 27-point declaration that does not hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeclarationMissing {
    /// The king is not in the opponent's camp.
    KingNotInCamp,
    /// The declaring side is in check.
    InCheck,
    /// Fewer than 10 other own pieces in the camp.
    TooFewPiecesInCamp {
        /// Pieces (other than the king) in the camp.
        have: u32,
        /// Needed: 10.
        need: u32,
    },
    /// Too few points (pieces in the camp plus in hand).
    TooFewPoints {
        /// Points counted.
        have: u32,
        /// Needed: 28 for Sente, 27 for Gote.
        need: u32,
    },
}

/// Why a game action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver(Outcome),
    /// The move breaks a rule.
    #[error("illegal move: {0}")]
    Illegal(#[from] IllegalMove),
    /// The declaration conditions do not hold (every missing one listed).
    #[error("cannot declare: {0:?}")]
    CannotDeclare(Vec<DeclarationMissing>),
    /// The game's entering-king rule is a different one.
    #[error("the game's entering-king rule is {0:?}")]
    WrongRule(EnteringKingRule),
    /// Counting needs both kings in the opponent's camp.
    #[error("counting needs both kings in the opponent's camp")]
    KingsNotInCamp,
    /// Abort is only possible before ply 10.
    #[error("a game can only be aborted before ply {ABORT_PLIES}")]
    TooLateToAbort,
    /// There is no move to take back.
    #[error("there is no move to take back")]
    NothingToTakeBack,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HistoryEntry {
    key: u64,
    /// Whether the side to move was in check (so the move into it gave check).
    in_check: bool,
}

/// A game: the start position, the moves, the history of positions for the
/// repetition rules, and the outcome once there is one.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    rule: EnteringKingRule,
    position: Position,
    moves: Vec<Move>,
    history: Vec<HistoryEntry>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game from `start` (any checked position) under `rule`.
    #[must_use]
    pub fn new(start: Position, rule: EnteringKingRule) -> Game {
        let entry = HistoryEntry {
            key: start.key(),
            in_check: start.in_check(),
        };
        let mut g = Game {
            position: start.clone(),
            start,
            rule,
            moves: Vec::new(),
            history: vec![entry],
            outcome: None,
        };
        g.outcome = g.automatic_outcome();
        g
    }

    /// Replays `moves` from `start`, checking each; the first bad move is
    /// reported with its index.
    pub fn replay(
        start: Position,
        rule: EnteringKingRule,
        moves: &[Move],
    ) -> Result<Game, (usize, GameError)> {
        let mut g = Game::new(start, rule);
        for (i, &m) in moves.iter().enumerate() {
            g.play(m).map_err(|e| (i, e))?;
        }
        Ok(g)
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The entering-king rule.
    #[must_use]
    pub fn rule(&self) -> EnteringKingRule {
        self.rule
    }

    /// The moves played so far.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The number of plies played.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The outcome, once the game has ended.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// How often the current position (board, hands, side to move) has
    /// occurred in this game, including now. From 3 on, the status line warns.
    #[must_use]
    pub fn repetition_count(&self) -> usize {
        let key = self.position.key();
        self.history.iter().filter(|e| e.key == key).count()
    }

    /// Checks a move: the game must be running and the move legal.
    pub fn check_move(&self, mv: Move) -> Result<(), GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::GameOver(o));
        }
        self.position.check_move(mv)?;
        Ok(())
    }

    /// Plays a move and returns the outcome if the game ended with it.
    pub fn play(&mut self, mv: Move) -> Result<Option<Outcome>, GameError> {
        self.check_move(mv)?;
        let mover = self.position.side_to_move();
        let king_move = mv
            .from()
            .and_then(|f| self.position.piece_at(f))
            .is_some_and(|p| p.kind == PieceKind::King);
        self.position.play_unchecked(mv);
        self.moves.push(mv);
        self.history.push(HistoryEntry {
            key: self.position.key(),
            in_check: self.position.in_check(),
        });
        if self.rule == EnteringKingRule::Try
            && king_move
            && mv.to() == try_square(self.position.variant(), mover)
        {
            self.outcome = Some(Outcome::Win {
                winner: mover,
                reason: WinReason::Try,
            });
        } else {
            self.outcome = self.automatic_outcome();
        }
        Ok(self.outcome)
    }

    /// Outcomes that follow from the position and history alone.
    fn automatic_outcome(&self) -> Option<Outcome> {
        let pos = &self.position;
        let side = pos.side_to_move();
        if !pos.has_legal_move() {
            let reason = if pos.in_check() {
                WinReason::Checkmate
            } else {
                WinReason::NoLegalMoves
            };
            return Some(Outcome::Win {
                winner: !side,
                reason,
            });
        }
        if let Some(o) = self.repetition_outcome() {
            return Some(o);
        }
        if self.moves.len() >= MAX_PLIES {
            return Some(Outcome::Draw(DrawReason::MaxPlies));
        }
        None
    }

    /// At the fourth occurrence of a position: sennichite, perpetual check, or
    /// (minishogi) a loss for Sente.
    fn repetition_outcome(&self) -> Option<Outcome> {
        let now = self.history.len() - 1;
        let key = self.history[now].key;
        let occurrences: Vec<usize> = (0..=now).filter(|&i| self.history[i].key == key).collect();
        if occurrences.len() < 4 {
            return None;
        }
        let first = occurrences[0];
        // The move from history[i] to history[i + 1] was made by the side to
        // move in history[i]; it gave check if history[i + 1] is in check.
        let mut all_checks = [true, true];
        let mut mover = self.side_at(first);
        for i in first..now {
            if !self.history[i + 1].in_check {
                all_checks[mover.index()] = false;
            }
            mover = !mover;
        }
        let perpetual = match all_checks {
            [true, false] => Some(Color::Sente),
            [false, true] => Some(Color::Gote),
            _ => None,
        };
        Some(match (perpetual, self.position.variant()) {
            (Some(checker), _) => Outcome::Win {
                winner: !checker,
                reason: WinReason::PerpetualCheck,
            },
            (None, Variant::Standard) => Outcome::Draw(DrawReason::Sennichite),
            (None, Variant::Minishogi) => Outcome::Win {
                winner: Color::Gote,
                reason: WinReason::Repetition,
            },
        })
    }

    fn side_at(&self, history_index: usize) -> Color {
        let start = self.start.side_to_move();
        if history_index % 2 == 0 {
            start
        } else {
            !start
        }
    }

    /// `loser` resigns. Before ply 10 the game is aborted instead.
    pub fn resign(&mut self, loser: Color) -> Result<Outcome, GameError> {
        self.end_by(loser, WinReason::Resignation)
    }

    /// `loser` missed the deadline. Before ply 10 the game is aborted instead.
    pub fn timeout(&mut self, loser: Color) -> Result<Outcome, GameError> {
        self.end_by(loser, WinReason::Timeout)
    }

    fn end_by(&mut self, loser: Color, reason: WinReason) -> Result<Outcome, GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::GameOver(o));
        }
        let o = if self.moves.len() < ABORT_PLIES {
            Outcome::Aborted
        } else {
            Outcome::Win {
                winner: !loser,
                reason,
            }
        };
        self.outcome = Some(o);
        Ok(o)
    }

    /// Aborts the game (only before ply 10): no result.
    pub fn abort(&mut self) -> Result<Outcome, GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::GameOver(o));
        }
        if self.moves.len() >= ABORT_PLIES {
            return Err(GameError::TooLateToAbort);
        }
        self.outcome = Some(Outcome::Aborted);
        Ok(Outcome::Aborted)
    }

    /// The side to move declares a win under the 27-point rule.
    pub fn declare(&mut self) -> Result<Outcome, GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::GameOver(o));
        }
        if self.rule != EnteringKingRule::Declaration27 {
            return Err(GameError::WrongRule(self.rule));
        }
        let missing = declaration_check(&self.position);
        if !missing.is_empty() {
            return Err(GameError::CannotDeclare(missing));
        }
        let o = Outcome::Win {
            winner: self.position.side_to_move(),
            reason: WinReason::Declaration,
        };
        self.outcome = Some(o);
        Ok(o)
    }

    /// Whether counting is possible now (24-point rule, both kings in camp).
    #[must_use]
    pub fn can_count(&self) -> bool {
        self.outcome.is_none()
            && self.rule == EnteringKingRule::Counting24
            && Color::ALL.iter().all(|&c| king_in_camp(&self.position, c))
    }

    /// Both players agreed to count under the 24-point rule: ends the game.
    pub fn count(&mut self) -> Result<Outcome, GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::GameOver(o));
        }
        if self.rule != EnteringKingRule::Counting24 {
            return Err(GameError::WrongRule(self.rule));
        }
        if !self.can_count() {
            return Err(GameError::KingsNotInCamp);
        }
        let s = count_points(&self.position, Color::Sente);
        let g = count_points(&self.position, Color::Gote);
        let o = match (s >= 24, g >= 24) {
            (true, true) => Outcome::Draw(DrawReason::Counting),
            (true, false) => Outcome::Win {
                winner: Color::Sente,
                reason: WinReason::Counting,
            },
            (false, true) => Outcome::Win {
                winner: Color::Gote,
                reason: WinReason::Counting,
            },
            // 54 points exist in all: both cannot be under 24.
            (false, false) => Outcome::Draw(DrawReason::Counting),
        };
        self.outcome = Some(o);
        Ok(o)
    }

    /// A random legal line of `plies` moves from the start position that
    /// ends no game on the way (no mate, no sennichite, no entering-king
    /// win), the same for the same `seed`: traffic for load tests, benches
    /// and the multi-process tests.
    #[must_use]
    pub fn random_line(seed: u64, plies: usize) -> Vec<Move> {
        let mut rng = fastrand::Rng::with_seed(seed);
        'retry: loop {
            let mut game = Game::new(Position::startpos(), EnteringKingRule::default());
            while game.ply() < plies {
                let mut cands: Vec<Move> = game.position().legal_moves().iter().copied().collect();
                loop {
                    if cands.is_empty() {
                        continue 'retry;
                    }
                    let m = cands.swap_remove(rng.usize(..cands.len()));
                    let mut next = game.clone();
                    if matches!(next.play(m), Ok(None)) {
                        game = next;
                        break;
                    }
                }
            }
            return game.moves;
        }
    }

    /// Takes back the last move (for friendly games and games against the
    /// computer); a finished game is reopened only if it ended by a move.
    pub fn undo(&mut self) -> Result<Move, GameError> {
        let last = *self.moves.last().ok_or(GameError::NothingToTakeBack)?;
        let mut moves = self.moves.clone();
        moves.pop();
        let g = Game::replay(self.start.clone(), self.rule, &moves).map_err(|(_, e)| e)?;
        *self = g;
        Ok(last)
    }
}

/// The square a king of `c` must reach under the try rule: the opponent
/// king's start square (5a / 5i on 9×9, 1a / 5e in minishogi).
#[must_use]
pub fn try_square(v: Variant, c: Color) -> Square {
    match (v, c) {
        (Variant::Standard, Color::Sente) => Square::SQ_5A,
        (Variant::Standard, Color::Gote) => Square::SQ_5I,
        (Variant::Minishogi, Color::Sente) => Square::SQ_1A,
        (Variant::Minishogi, Color::Gote) => Square::SQ_5E,
    }
}

fn king_in_camp(pos: &Position, c: Color) -> bool {
    pos.king_square(c)
        .is_some_and(|k| promotion_zone(pos.variant(), c).has(k))
}

/// Which conditions of the 27-point declaration the side to move misses
/// (empty: it may declare).
#[must_use]
pub fn declaration_check(pos: &Position) -> Vec<DeclarationMissing> {
    let c = pos.side_to_move();
    let camp = promotion_zone(pos.variant(), c);
    let mut missing = Vec::new();
    if !king_in_camp(pos, c) {
        missing.push(DeclarationMissing::KingNotInCamp);
    }
    if pos.in_check() {
        missing.push(DeclarationMissing::InCheck);
    }
    let in_camp = pos.pieces_of(c) & camp;
    let others: Vec<Square> = in_camp
        .filter(|&sq| pos.piece_at(sq).is_some_and(|p| p.kind != PieceKind::King))
        .collect();
    let have = others.len() as u32;
    if have < 10 {
        missing.push(DeclarationMissing::TooFewPiecesInCamp { have, need: 10 });
    }
    let mut points: u32 = others
        .iter()
        .filter_map(|&sq| pos.piece_at(sq))
        .map(|p| p.kind.impasse_points())
        .sum();
    points += hand_points(pos, c);
    let need = match c {
        Color::Sente => 28,
        Color::Gote => 27,
    };
    if points < need {
        missing.push(DeclarationMissing::TooFewPoints { have: points, need });
    }
    missing
}

fn hand_points(pos: &Position, c: Color) -> u32 {
    pos.hand(c)
        .iter()
        .map(|(k, n)| k.impasse_points() * u32::from(n))
        .sum()
}

/// Points of `c` for the 24-point counting rule: every own piece on the board
/// (king excluded) and in hand; rook and bishop 5, others 1.
#[must_use]
pub fn count_points(pos: &Position, c: Color) -> u32 {
    let board: u32 = pos
        .pieces_of(c)
        .filter_map(|sq| pos.piece_at(sq))
        .map(|p| p.kind.impasse_points())
        .sum();
    board + hand_points(pos, c)
}
