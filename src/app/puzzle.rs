//! Tsume puzzle use cases: start a puzzle (daily or random), answer it move by
//! move against the stubbornest defence, the daily list and the streak.
//!
//! A player has at most one puzzle in progress. An answer is right when it is
//! a legal check after which mate within the remaining plies is still forced
//! (so other mates in time are accepted, not only the stored main line).

use super::message::{Msg, Refusal, Who};
use super::{check_len, App, AppError, AppResult, BoardView, Caller, Place, Reply, DAY};
use crate::notation::{format_move, parse_move, InputContext, Style};
use crate::shogi::{Move, Position};
use crate::store::{PuzzleRow, Reader, Settings};
use crate::tsume::puzzles::shipped;
use crate::tsume::MateSolver;

/// Node limit for judging one answer (the shipped puzzles need far fewer).
pub const PUZZLE_NODES: u64 = 2_000_000;

/// Which puzzle to start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleKind {
    /// Today's puzzle (UTC), the same for everyone.
    Daily,
    /// A random puzzle, optionally of a given length.
    Random(Option<u32>),
}

/// The UTC day number of a Unix time.
#[must_use]
pub fn day_of(t: i64) -> i64 {
    t.div_euclid(DAY)
}

/// Mixes a day number into an index (the same for everyone on that day).
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The caller's settings (defaults for someone the store does not know yet).
fn settings_of(tx: &Reader<'_>, caller: &Caller) -> AppResult<Settings> {
    Ok(tx
        .player(caller.id)?
        .map(|p| p.settings)
        .unwrap_or_default())
}

fn style_of(settings: &Settings) -> Style {
    Style::from_name(&settings.notation).unwrap_or_default()
}

/// The diagram in the solver's piece style and theme, seen from the
/// attacker's side (the solver is always the attacker).
fn board_of(
    pos: &Position,
    attacker: crate::shogi::Color,
    last: Option<Move>,
    settings: &Settings,
) -> BoardView {
    BoardView {
        last_move: last.map(|m| m.to_string()),
        flip: attacker == crate::shogi::Color::Gote && settings.orientation != "sente",
        ..BoardView::outside_game(pos.to_sfen(), settings)
    }
}

/// A line of moves from `start` in the player's notation.
fn line_text(start: &Position, moves: &[Move], style: Style) -> String {
    let mut pos = start.clone();
    let mut prev = None;
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        out.push(format_move(&pos, m, style, prev));
        if pos.play(m).is_err() {
            break;
        }
        prev = Some(m);
    }
    out.join(" ")
}

/// A puzzle in progress: its row and the moves played so far.
struct Session {
    row: PuzzleRow,
    /// The moves as stored (to check that nobody answered meanwhile).
    stored: String,
    day: Option<i64>,
    start: Position,
    pos: Position,
    played: Vec<Move>,
}

/// The caller's puzzle in progress, replayed to the current position.
fn session_of(tx: &Reader<'_>, caller: &Caller) -> AppResult<Option<Session>> {
    let Some(found) = tx.puzzle_session(caller.id)? else {
        return Ok(None);
    };
    let (pid, day, moves) = (found.puzzle_id, found.day, found.moves);
    let Some(row) = tx.puzzle(&pid)? else {
        return Ok(None);
    };
    let internal = |e: String| super::AppError::Internal(format!("puzzle {pid}: {e}"));
    let start = Position::from_sfen_tsume(&row.sfen).map_err(|e| internal(e.to_string()))?;
    let mut pos = start.clone();
    let mut played = Vec::new();
    for u in moves.split_ascii_whitespace() {
        let m = Move::from_usi(u).map_err(|_| internal(format!("bad move {u}")))?;
        pos.play(m).map_err(|e| internal(e.to_string()))?;
        played.push(m);
    }
    Ok(Some(Session {
        row,
        stored: moves,
        day,
        start,
        pos,
        played,
    }))
}

/// Whether a `/move` without a game id answers the caller's puzzle: they
/// have one in progress and do not send the move from the thread of one of
/// their games (there the game is meant).
fn puzzle_takes_move(tx: &Reader<'_>, caller: &Caller, place: Place) -> AppResult<bool> {
    let has = tx.has_puzzle_session(caller.id)?;
    if !has {
        return Ok(false);
    }
    // In a game's thread `/move` means that game (or nothing), never the puzzle.
    let in_game_thread = match place.channel {
        Some(ch) => tx.game_in_thread(ch)?.is_some(),
        None => false,
    };
    Ok(!in_game_thread)
}

impl App {
    /// Loads the shipped puzzles into the store; idempotent (existing ids are
    /// kept). Returns how many puzzles the store holds.
    pub fn load_puzzles(&self) -> AppResult<i64> {
        let puzzles = shipped();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<i64> {
            for p in &puzzles {
                tx.insert_puzzle(&PuzzleRow {
                    id: p.id.clone(),
                    plies: p.plies,
                    sfen: p.sfen.clone(),
                    solution: p.solution_usi(),
                })?;
            }
            Ok(tx.puzzle_count()?)
        })
    }

    /// `/puzzle [daily|random] [plies]`: starts a puzzle (replacing one in
    /// progress) and shows the diagram.
    pub fn start_puzzle(&self, caller: &Caller, kind: PuzzleKind) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult {
            tx.upsert_player(caller.id, &caller.name, now)?;
            self.caps
                .take(tx, caller.id, super::caps::Kind::Puzzle, now)?;
            let (id, day) = match kind {
                PuzzleKind::Daily => {
                    let day = day_of(now);
                    let solved = tx.daily_result(day, caller.id)?;
                    if matches!(solved, Some(Some(_))) {
                        return Err(Refusal::DailyAlreadySolved.into());
                    }
                    let id = tx
                        .nth_puzzle(None, mix(day.unsigned_abs()))?
                        .ok_or(Refusal::NoSuchPuzzle)?;
                    tx.count_daily_attempt(day, caller.id, &id)?;
                    (id, Some(day))
                }
                PuzzleKind::Random(plies) => {
                    if plies.is_some_and(|p| p % 2 == 0 || p > 13) {
                        return Err(Refusal::NoSuchPuzzle.into());
                    }
                    let seed = mix(now.unsigned_abs() ^ caller.id.unsigned_abs().rotate_left(21));
                    let id = tx.nth_puzzle(plies, seed)?.ok_or(Refusal::NoSuchPuzzle)?;
                    (id, None)
                }
            };
            let row = tx.puzzle(&id)?.ok_or(Refusal::NoSuchPuzzle)?;
            tx.start_puzzle_session(caller.id, &row.id, day, now)?;
            let pos = Position::from_sfen_tsume(&row.sfen)
                .map_err(|e| super::AppError::Internal(format!("puzzle {}: {e}", row.id)))?;
            let mut reply = Reply::private(
                Msg::PuzzleStart {
                    puzzle_id: row.id,
                    plies: row.plies,
                    daily: day.is_some(),
                    attacker: pos.side_to_move(),
                },
                caller.lang,
            );
            reply.board = Some(board_of(
                &pos,
                pos.side_to_move(),
                None,
                &settings_of(tx, caller)?,
            ));
            Ok(reply)
        })
    }

    /// Answers one move in the caller's puzzle (lenient notation, like
    /// `/move`). A right move gets the stubbornest defence back; a move that
    /// gives no check or no longer forces mate in time ends the attempt and
    /// shows the solution.
    ///
    /// The solver runs between two transactions, never inside one: the
    /// session is read, the answer judged, and the result written only if
    /// the session is still as it was read (else the caller is told to try
    /// again).
    pub fn answer_puzzle(&self, caller: &Caller, text: &str) -> AppResult {
        check_len(text)?;
        let now = self.now();
        let store = self.store()?;
        let (session, settings) = store.read(|r| -> AppResult<_> {
            Ok((
                session_of(r, caller)?.ok_or(Refusal::NoActivePuzzle)?,
                settings_of(r, caller)?,
            ))
        })?;
        let Session {
            row,
            stored,
            day,
            start,
            pos,
            played,
        } = session;
        let style = style_of(&settings);
        let attacker = start.side_to_move();
        let internal = |e: String| super::AppError::Internal(format!("puzzle {}: {e}", row.id));
        let ctx = InputContext {
            previous: played.last().copied(),
            style: None,
        };
        let mv = parse_move(&pos, text, ctx).map_err(Refusal::Move)?;
        let left = row.plies.saturating_sub(played.len() as u32);
        let after = pos.after(mv);
        let mut solver = MateSolver::new(PUZZLE_NODES);
        let good =
            after.in_check() && solver.mated_within(&after, left.saturating_sub(1)) == Some(true);
        let played_text = format_move(&pos, mv, style, played.last().copied());
        if !good {
            let solution: Vec<Move> = row
                .solution
                .split_ascii_whitespace()
                .map(Move::from_usi)
                .collect::<Result<_, _>>()
                .map_err(|_| internal(format!("bad solution {}", row.solution)))?;
            store.transaction(|tx| -> AppResult<()> {
                if !tx.end_puzzle_session(caller.id, &row.id, &stored)? {
                    return Err(Refusal::Conflict.into());
                }
                Ok(())
            })?;
            let mut reply = Reply::private(
                Msg::PuzzleFailed {
                    played: played_text,
                    not_check: !after.in_check(),
                    solution: line_text(&start, &solution, style),
                },
                caller.lang,
            );
            reply.board = Some(board_of(&start, attacker, None, &settings));
            return Ok(reply);
        }
        if after.is_checkmate() {
            let attempts = store.transaction(|tx| -> AppResult<Option<i64>> {
                if !tx.end_puzzle_session(caller.id, &row.id, &stored)? {
                    return Err(Refusal::Conflict.into());
                }
                match day {
                    Some(d) => Ok(tx.solve_daily(d, caller.id, now)?),
                    None => Ok(None),
                }
            })?;
            let mut reply = Reply::private(
                Msg::PuzzleSolved {
                    puzzle_id: row.id,
                    attempts,
                },
                caller.lang,
            );
            reply.board = Some(board_of(&after, attacker, Some(mv), &settings));
            return Ok(reply);
        }
        let (d, rest) = solver
            .stubborn_defence(&after, left.saturating_sub(1))
            .flatten()
            .ok_or_else(|| internal("no defence found".into()))?;
        let next = after.after(d);
        let all = played
            .iter()
            .chain([&mv, &d])
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        store.transaction(|tx| -> AppResult<()> {
            if !tx.advance_puzzle_session(caller.id, &row.id, &stored, &all)? {
                return Err(Refusal::Conflict.into());
            }
            Ok(())
        })?;
        let mut reply = Reply::private(
            Msg::PuzzleProgress {
                played: played_text,
                defence: format_move(&after, d, style, Some(mv)),
                plies_left: rest.unwrap_or(left.saturating_sub(2)),
            },
            caller.lang,
        );
        reply.board = Some(board_of(&next, attacker, Some(d), &settings));
        Ok(reply)
    }

    /// `/move` (and the console's `move`): answers the caller's puzzle when
    /// they have one in progress, name no game and are not in one of their
    /// games' threads; otherwise plays in their game.
    pub fn move_command(
        &self,
        caller: &Caller,
        game: Option<i64>,
        text: &str,
        place: Place,
        request: Option<&str>,
    ) -> AppResult {
        if game.is_none() {
            let store = self.store()?;
            let (puzzle, playing) = store.read(|tx| -> AppResult<_> {
                Ok((
                    puzzle_takes_move(tx, caller, place)?,
                    !tx.active_games_of(caller.id)?.is_empty(),
                ))
            })?;
            if puzzle {
                return match self.answer_puzzle(caller, text) {
                    // Someone with games may have meant one of them.
                    Err(AppError::Refused(r @ Refusal::Move(_))) if playing => {
                        Err(Refusal::InPuzzle(Box::new(r)).into())
                    }
                    other => other,
                };
            }
        }
        self.play_move(caller, game, text, place, request)
    }

    /// The position `/move` would play in when it answers a puzzle (see
    /// [`App::move_command`]), with the move before it; `None` when `/move`
    /// goes to a game.
    pub(super) fn puzzle_for_move(
        tx: &Reader<'_>,
        caller: &Caller,
        game: Option<i64>,
        place: Place,
    ) -> AppResult<Option<(Position, Option<Move>, Style)>> {
        if game.is_some() || !puzzle_takes_move(tx, caller, place)? {
            return Ok(None);
        }
        let style = style_of(&settings_of(tx, caller)?);
        Ok(session_of(tx, caller)?.map(|s| (s.pos, s.played.last().copied(), style)))
    }

    /// The daily list: who solved today's puzzle, fewest attempts first, then
    /// earliest.
    pub fn daily_list(&self, caller: &Caller) -> AppResult {
        let day = day_of(self.now());
        let rows = self.store()?.read(|r| r.daily_solvers(day))?;
        let rows = rows
            .into_iter()
            .map(|d| {
                (
                    Who {
                        id: d.user_id,
                        name: d.name,
                    },
                    d.attempts,
                )
            })
            .collect();
        Ok(Reply::public(
            Msg::PuzzleDailyList { day, rows },
            caller.lang,
        ))
    }

    /// The caller's streak: consecutive days, ending today or yesterday, on
    /// which they solved the daily puzzle.
    pub fn streak(&self, caller: &Caller) -> AppResult {
        let today = day_of(self.now());
        let days = self.store()?.read(|r| r.solved_days(caller.id))?;
        let mut streak = 0;
        let mut expect = match days.first() {
            Some(&d) if d == today || d == today - 1 => d,
            _ => today + 10,
        };
        for d in days {
            if d == expect {
                streak += 1;
                expect -= 1;
            } else {
                break;
            }
        }
        Ok(Reply::private(
            Msg::PuzzleStreak { days: streak },
            caller.lang,
        ))
    }
}
