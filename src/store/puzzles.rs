//! Tsume puzzles, the players' puzzles in progress, the daily results, and
//! the beginners' course progress.

use super::sql::args;
use super::{Reader, StoreResult, Tx};

/// A row of `puzzles`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleRow {
    /// Id (e.g. `t3-0001`).
    pub id: String,
    /// Length of the mate in plies.
    pub plies: u32,
    /// Start position.
    pub sfen: String,
    /// The main line, USI moves separated by spaces.
    pub solution: String,
}

/// A player's puzzle in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleSession {
    /// Which puzzle.
    pub puzzle_id: String,
    /// The day, for the daily puzzle.
    pub day: Option<i64>,
    /// The moves played so far (both sides), USI separated by spaces.
    pub moves: String,
}

/// One solver of a day's puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyRow {
    /// User id.
    pub user_id: i64,
    /// Display name ("" when the player is unknown).
    pub name: String,
    /// Attempts until solved.
    pub attempts: i64,
}

read_queries! {
    /// A puzzle by id.
    pub fn puzzle(&self, id: &str) -> StoreResult<Option<PuzzleRow>> {
        self.c().opt("SELECT id, plies, sfen, solution FROM puzzles WHERE id = ?1", args![id], |r| {
            Ok(PuzzleRow {
                id: r.get(0)?,
                plies: r.get(1)?,
                sfen: r.get(2)?,
                solution: r.get(3)?,
            })
        })
    }

    /// The id of the puzzle at `index` (modulo their number) in id order,
    /// among those of `plies` (all without).
    pub fn nth_puzzle(&self, plies: Option<u32>, index: u64) -> StoreResult<Option<String>> {
        let count: i64 = self.c().value(
            "SELECT COUNT(*) FROM puzzles WHERE CAST(?1 AS BIGINT) IS NULL OR plies = ?1",
            args![plies],
        )?;
        if count <= 0 {
            return Ok(None);
        }
        let offset = i64::try_from(index % count.unsigned_abs()).unwrap_or(0);
        self.c().opt(
            "SELECT id FROM puzzles WHERE CAST(?1 AS BIGINT) IS NULL OR plies = ?1 ORDER BY id LIMIT 1 OFFSET ?2",
            args![plies, offset],
            |r| r.get(0),
        )
    }

    /// How many puzzles the store holds.
    pub fn puzzle_count(&self) -> StoreResult<i64> {
        self.c().value("SELECT COUNT(*) FROM puzzles", &[])
    }

    /// The player's puzzle in progress.
    pub fn puzzle_session(&self, user: i64) -> StoreResult<Option<PuzzleSession>> {
        self.c().opt(
            "SELECT puzzle_id, day, moves FROM puzzle_sessions WHERE user_id = ?1",
            args![user],
            |r| {
                Ok(PuzzleSession {
                    puzzle_id: r.get(0)?,
                    day: r.get(1)?,
                    moves: r.get(2)?,
                })
            },
        )
    }

    /// Whether the player has a puzzle in progress.
    pub fn has_puzzle_session(&self, user: i64) -> StoreResult<bool> {
        Ok(self
            .c()
            .opt("SELECT 1 FROM puzzle_sessions WHERE user_id = ?1", args![user], |_| Ok(()))?
            .is_some())
    }

    /// The player's result for a day's puzzle: `None` if they never
    /// started it, else when they solved it (if they did).
    pub fn daily_result(&self, day: i64, user: i64) -> StoreResult<Option<Option<i64>>> {
        self.c().opt(
            "SELECT solved_at FROM daily_results WHERE day = ?1 AND user_id = ?2",
            args![day, user],
            |r| r.get(0),
        )
    }

    /// Who solved a day's puzzle, fewest attempts first, then earliest.
    pub fn daily_solvers(&self, day: i64) -> StoreResult<Vec<DailyRow>> {
        self.c().all(
            "SELECT d.user_id, COALESCE(p.display_name, ''), d.attempts FROM daily_results d
             LEFT JOIN players p ON p.user_id = d.user_id
             WHERE d.day = ?1 AND d.solved_at IS NOT NULL
             ORDER BY d.attempts, d.solved_at, d.user_id",
            args![day],
            |r| {
                Ok(DailyRow {
                    user_id: r.get(0)?,
                    name: r.get(1)?,
                    attempts: r.get(2)?,
                })
            },
        )
    }

    /// The days on which the player solved the daily puzzle, latest first.
    pub fn solved_days(&self, user: i64) -> StoreResult<Vec<i64>> {
        self.c().all(
            "SELECT day FROM daily_results WHERE user_id = ?1 AND solved_at IS NOT NULL ORDER BY day DESC",
            args![user],
            |r| r.get(0),
        )
    }

    /// The player's lesson in the beginners' course (0-based), if they
    /// started it.
    pub fn lesson_of(&self, user: i64) -> StoreResult<Option<i64>> {
        self.c().opt("SELECT lesson FROM learn_progress WHERE user_id = ?1", args![user], |r| r.get(0))
    }
}

impl Tx<'_> {
    /// Adds a puzzle unless one with its id exists.
    pub fn insert_puzzle(&self, p: &PuzzleRow) -> StoreResult<()> {
        self.c().exec(
            "INSERT INTO puzzles (id, plies, sfen, solution) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (id) DO NOTHING",
            args![&p.id, p.plies, &p.sfen, &p.solution],
        )?;
        Ok(())
    }

    /// Counts an attempt at a day's puzzle (the first creates the row).
    pub fn count_daily_attempt(&self, day: i64, user: i64, puzzle_id: &str) -> StoreResult<()> {
        self.c().exec(
            "INSERT INTO daily_results (day, user_id, puzzle_id, attempts) VALUES (?1, ?2, ?3, 1)
             ON CONFLICT (day, user_id) DO UPDATE SET attempts = daily_results.attempts + 1",
            args![day, user, puzzle_id],
        )?;
        Ok(())
    }

    /// Starts a puzzle for the player, replacing the one in progress.
    pub fn start_puzzle_session(
        &self,
        user: i64,
        puzzle_id: &str,
        day: Option<i64>,
        now: i64,
    ) -> StoreResult<()> {
        self.c().exec(
            "INSERT INTO puzzle_sessions (user_id, puzzle_id, day, moves, started_at)
             VALUES (?1, ?2, ?3, '', ?4)
             ON CONFLICT (user_id) DO UPDATE SET puzzle_id = excluded.puzzle_id, day = excluded.day,
                moves = '', started_at = excluded.started_at",
            args![user, puzzle_id, day, now],
        )?;
        Ok(())
    }

    /// Stores the moves of the player's puzzle if they are still `before`
    /// (false: the player answered meanwhile, from another request).
    pub fn advance_puzzle_session(
        &self,
        user: i64,
        puzzle_id: &str,
        before: &str,
        moves: &str,
    ) -> StoreResult<bool> {
        let n = self.c().exec(
            "UPDATE puzzle_sessions SET moves = ?4 WHERE user_id = ?1 AND puzzle_id = ?2 AND moves = ?3",
            args![user, puzzle_id, before, moves],
        )?;
        Ok(n == 1)
    }

    /// Ends the player's puzzle if it is still at `moves` (false: it was
    /// answered or replaced meanwhile).
    pub fn end_puzzle_session(&self, user: i64, puzzle_id: &str, moves: &str) -> StoreResult<bool> {
        let n = self.c().exec(
            "DELETE FROM puzzle_sessions WHERE user_id = ?1 AND puzzle_id = ?2 AND moves = ?3",
            args![user, puzzle_id, moves],
        )?;
        Ok(n == 1)
    }

    /// Marks a day's puzzle solved (the first time counts) and returns the
    /// attempts it took.
    pub fn solve_daily(&self, day: i64, user: i64, now: i64) -> StoreResult<Option<i64>> {
        self.c().exec(
            "UPDATE daily_results SET solved_at = ?3 WHERE day = ?1 AND user_id = ?2 AND solved_at IS NULL",
            args![day, user, now],
        )?;
        self.c().opt(
            "SELECT attempts FROM daily_results WHERE day = ?1 AND user_id = ?2",
            args![day, user],
            |r| r.get(0),
        )
    }

    /// Sets the player's lesson in the beginners' course.
    pub fn set_lesson(&self, user: i64, lesson: i64, now: i64) -> StoreResult<()> {
        self.c().exec(
            "INSERT INTO learn_progress (user_id, lesson, updated_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (user_id) DO UPDATE SET lesson = excluded.lesson, updated_at = excluded.updated_at",
            args![user, lesson, now],
        )?;
        Ok(())
    }
}
