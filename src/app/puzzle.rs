//! Tsume puzzle use cases: start a puzzle (daily or random), answer it move by
//! move against the stubbornest defence, the daily list and the streak.
//!
//! A player has at most one puzzle in progress. An answer is right when it is
//! a legal check after which mate within the remaining plies is still forced
//! (so other mates in time are accepted, not only the stored main line).

use rusqlite::{params, OptionalExtension};

use super::message::{Msg, Refusal, Who};
use super::{check_len, App, AppError, AppResult, BoardView, Caller, Place, Reply, DAY};
use crate::notation::{format_move, parse_move, InputContext, Style};
use crate::shogi::{Move, Position};
use crate::store::{Settings, StoreError, Tx};
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

fn db(e: rusqlite::Error) -> StoreError {
    StoreError::from(e)
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

struct PuzzleRow {
    id: String,
    plies: u32,
    sfen: String,
    solution: String,
}

fn puzzle_row(tx: &Tx<'_>, id: &str) -> AppResult<Option<PuzzleRow>> {
    Ok(tx
        .query_row(
            "SELECT id, plies, sfen, solution FROM puzzles WHERE id = ?1",
            [id],
            |r| {
                Ok(PuzzleRow {
                    id: r.get(0)?,
                    plies: r.get(1)?,
                    sfen: r.get(2)?,
                    solution: r.get(3)?,
                })
            },
        )
        .optional()
        .map_err(db)?)
}

/// The id of the puzzle at `index` (modulo the count) among those of `plies`.
fn nth_puzzle(tx: &Tx<'_>, plies: Option<u32>, index: u64) -> AppResult<Option<String>> {
    let count: i64 = tx
        .query_row(
            "SELECT COUNT(*) FROM puzzles WHERE ?1 IS NULL OR plies = ?1",
            [plies],
            |r| r.get(0),
        )
        .map_err(db)?;
    if count <= 0 {
        return Ok(None);
    }
    let offset = (index % count.unsigned_abs()) as i64;
    Ok(tx
        .query_row(
            "SELECT id FROM puzzles WHERE ?1 IS NULL OR plies = ?1 ORDER BY id LIMIT 1 OFFSET ?2",
            params![plies, offset],
            |r| r.get(0),
        )
        .optional()
        .map_err(db)?)
}

/// The caller's settings (defaults for someone the store does not know yet).
fn settings_of(tx: &Tx<'_>, caller: &Caller) -> AppResult<Settings> {
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
        game_id: 0,
        sfen: pos.to_sfen(),
        last_move: last.map(|m| m.to_string()),
        flip: attacker == crate::shogi::Color::Gote,
        piece_style: settings.piece_style.clone(),
        theme: settings.theme.clone(),
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
    day: Option<i64>,
    start: Position,
    pos: Position,
    played: Vec<Move>,
}

/// The caller's puzzle in progress, replayed to the current position.
fn session_of(tx: &Tx<'_>, caller: &Caller) -> AppResult<Option<Session>> {
    let found: Option<(String, Option<i64>, String)> = tx
        .query_row(
            "SELECT puzzle_id, day, moves FROM puzzle_sessions WHERE user_id = ?1",
            [caller.id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()
        .map_err(db)?;
    let Some((pid, day, moves)) = found else {
        return Ok(None);
    };
    let Some(row) = puzzle_row(tx, &pid)? else {
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
        day,
        start,
        pos,
        played,
    }))
}

/// Whether a `/move` without a game id answers the caller's puzzle: they
/// have one in progress and do not send the move from the thread of one of
/// their games (there the game is meant).
fn puzzle_takes_move(tx: &Tx<'_>, caller: &Caller, place: Place) -> AppResult<bool> {
    let has = tx
        .query_row(
            "SELECT 1 FROM puzzle_sessions WHERE user_id = ?1",
            [caller.id],
            |_| Ok(()),
        )
        .optional()
        .map_err(db)?
        .is_some();
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

fn date_of(day: i64) -> String {
    crate::i18n::utc(day * DAY)
        .split(' ')
        .next()
        .unwrap_or_default()
        .to_string()
}

impl App {
    /// Loads the shipped puzzles into the store; idempotent (existing ids are
    /// kept). Returns how many puzzles the store holds.
    pub fn load_puzzles(&self) -> AppResult<i64> {
        let puzzles = shipped();
        let mut store = self.store()?;
        store.transaction(|tx| -> AppResult<i64> {
            for p in &puzzles {
                tx.execute(
                    "INSERT OR IGNORE INTO puzzles (id, plies, sfen, solution) VALUES (?1, ?2, ?3, ?4)",
                    params![p.id, p.plies, p.sfen, p.solution_usi()],
                )
                .map_err(db)?;
            }
            Ok(tx
                .query_row("SELECT COUNT(*) FROM puzzles", [], |r| r.get(0))
                .map_err(db)?)
        })
    }

    /// `/puzzle [daily|random] [plies]`: starts a puzzle (replacing one in
    /// progress) and shows the diagram.
    pub fn start_puzzle(&self, caller: &Caller, kind: PuzzleKind) -> AppResult {
        let now = self.now();
        let mut store = self.store()?;
        store.transaction(|tx| -> AppResult {
            tx.upsert_player(caller.id, &caller.name, now)?;
            self.caps.take(tx, caller.id, super::caps::Kind::Puzzle, now)?;
            let (id, day) = match kind {
                PuzzleKind::Daily => {
                    let day = day_of(now);
                    let solved: Option<Option<i64>> = tx
                        .query_row(
                            "SELECT solved_at FROM daily_results WHERE day = ?1 AND user_id = ?2",
                            params![day, caller.id],
                            |r| r.get(0),
                        )
                        .optional()
                        .map_err(db)?;
                    if matches!(solved, Some(Some(_))) {
                        return Err(Refusal::DailyAlreadySolved.into());
                    }
                    let id = nth_puzzle(tx, None, mix(day.unsigned_abs()))?
                        .ok_or(Refusal::NoSuchPuzzle)?;
                    tx.execute(
                        "INSERT INTO daily_results (day, user_id, puzzle_id, attempts) VALUES (?1, ?2, ?3, 1)
                         ON CONFLICT (day, user_id) DO UPDATE SET attempts = attempts + 1",
                        params![day, caller.id, id],
                    )
                    .map_err(db)?;
                    (id, Some(day))
                }
                PuzzleKind::Random(plies) => {
                    if plies.is_some_and(|p| p % 2 == 0 || p > 13) {
                        return Err(Refusal::NoSuchPuzzle.into());
                    }
                    let seed = mix(now.unsigned_abs() ^ caller.id.unsigned_abs().rotate_left(21));
                    let id = nth_puzzle(tx, plies, seed)?.ok_or(Refusal::NoSuchPuzzle)?;
                    (id, None)
                }
            };
            let row = puzzle_row(tx, &id)?.ok_or(Refusal::NoSuchPuzzle)?;
            tx.execute(
                "INSERT OR REPLACE INTO puzzle_sessions (user_id, puzzle_id, day, moves, started_at)
                 VALUES (?1, ?2, ?3, '', ?4)",
                params![caller.id, row.id, day, now],
            )
            .map_err(db)?;
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
            reply.board = Some(board_of(&pos, pos.side_to_move(), None, &settings_of(tx, caller)?));
            Ok(reply)
        })
    }

    /// Answers one move in the caller's puzzle (lenient notation, like
    /// `/move`). A right move gets the stubbornest defence back; a move that
    /// gives no check or no longer forces mate in time ends the attempt and
    /// shows the solution.
    pub fn answer_puzzle(&self, caller: &Caller, text: &str) -> AppResult {
        check_len(text)?;
        let now = self.now();
        let mut store = self.store()?;
        store.transaction(|tx| -> AppResult {
            let Session {
                row,
                day,
                start,
                pos,
                played,
            } = session_of(tx, caller)?.ok_or(Refusal::NoActivePuzzle)?;
            let settings = settings_of(tx, caller)?;
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
            let good = after.in_check() && solver.mated_within(&after, left.saturating_sub(1)) == Some(true);
            let played_text = format_move(&pos, mv, style, played.last().copied());
            if !good {
                tx.execute("DELETE FROM puzzle_sessions WHERE user_id = ?1", [caller.id])
                    .map_err(db)?;
                let solution: Vec<Move> = row
                    .solution
                    .split_ascii_whitespace()
                    .map(Move::from_usi)
                    .collect::<Result<_, _>>()
                    .map_err(|_| internal(format!("bad solution {}", row.solution)))?;
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
                tx.execute("DELETE FROM puzzle_sessions WHERE user_id = ?1", [caller.id])
                    .map_err(db)?;
                let attempts = match day {
                    Some(d) => {
                        tx.execute(
                            "UPDATE daily_results SET solved_at = ?3 WHERE day = ?1 AND user_id = ?2 AND solved_at IS NULL",
                            params![d, caller.id, now],
                        )
                        .map_err(db)?;
                        tx.query_row(
                            "SELECT attempts FROM daily_results WHERE day = ?1 AND user_id = ?2",
                            params![d, caller.id],
                            |r| r.get(0),
                        )
                        .optional()
                        .map_err(db)?
                    }
                    None => None,
                };
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
            let defence = solver
                .stubborn_defence(&after, left.saturating_sub(1))
                .flatten()
                .ok_or_else(|| internal("no defence found".into()))?;
            let (d, rest) = defence;
            let next = after.after(d);
            let all = played
                .iter()
                .chain([&mv, &d])
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ");
            tx.execute(
                "UPDATE puzzle_sessions SET moves = ?2 WHERE user_id = ?1",
                params![caller.id, all],
            )
            .map_err(db)?;
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
        })
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
            let mut store = self.store()?;
            let (puzzle, playing) = store.transaction(|tx| -> AppResult<_> {
                Ok((
                    puzzle_takes_move(tx, caller, place)?,
                    !tx.active_games_of(caller.id)?.is_empty(),
                ))
            })?;
            drop(store);
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
        tx: &Tx<'_>,
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
        let mut store = self.store()?;
        store.transaction(|tx| -> AppResult {
            let mut stmt = tx
                .prepare(
                    "SELECT d.user_id, COALESCE(p.display_name, ''), d.attempts FROM daily_results d
                     LEFT JOIN players p ON p.user_id = d.user_id
                     WHERE d.day = ?1 AND d.solved_at IS NOT NULL
                     ORDER BY d.attempts, d.solved_at, d.user_id",
                )
                .map_err(db)?;
            let rows = stmt
                .query_map([day], |r| {
                    Ok((
                        Who {
                            id: r.get(0)?,
                            name: r.get(1)?,
                        },
                        r.get::<_, i64>(2)?,
                    ))
                })
                .map_err(db)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(db)?;
            Ok(Reply::public(
                Msg::PuzzleDailyList {
                    date: date_of(day),
                    rows,
                },
                caller.lang,
            ))
        })
    }

    /// The caller's streak: consecutive days, ending today or yesterday, on
    /// which they solved the daily puzzle.
    pub fn streak(&self, caller: &Caller) -> AppResult {
        let today = day_of(self.now());
        let mut store = self.store()?;
        store.transaction(|tx| -> AppResult {
            let mut stmt = tx
                .prepare(
                    "SELECT day FROM daily_results WHERE user_id = ?1 AND solved_at IS NOT NULL ORDER BY day DESC",
                )
                .map_err(db)?;
            let days = stmt
                .query_map([caller.id], |r| r.get::<_, i64>(0))
                .map_err(db)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(db)?;
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
            Ok(Reply::private(Msg::PuzzleStreak { days: streak }, caller.lang))
        })
    }
}
