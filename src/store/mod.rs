//! The SQLite store: players, servers, challenges, games, moves, ratings,
//! answered requests, the scheduler's outbox (with retries and dead letters),
//! the computer's jobs, the quarantine, the action log, and online backups.
//!
//! Synchronous rusqlite; the schema lives only in `migrations/NNNN_name.sql`
//! (append-only, applied on open by `rusqlite_migration`, version in
//! `PRAGMA user_version`). Every connection runs in WAL mode with foreign keys
//! on and a busy timeout.
//!
//! Durability: `synchronous = NORMAL`. In WAL mode a committed transaction is
//! in the WAL file before `COMMIT` returns, so it survives any crash of the
//! process (tests/crash.rs kills the console with SIGKILL at random moments and
//! finds every acknowledged move); the WAL is fsynced at checkpoints, so an
//! OS crash or power loss can lose the most recent commits but never corrupts
//! the database. `FULL` would fsync on every commit: on this project's VM that
//! costs about 4 ms per move against 0.36 ms (benches/store.rs), an order of
//! magnitude for a risk the host's storage layer usually covers.

use std::path::Path;

use rusqlite::{params, Connection, OptionalExtension, Transaction};
use rusqlite_migration::{Migrations, M};

mod backup;
mod rows;

pub use backup::{backup, BackupReport};
pub use rows::{
    ChallengeRow, DeadlineRow, GameRow, NewChallenge, NewGame, OutboxRow, PlayerRow, QuarantineRow,
    Settings,
};
pub use work::{outbox_backoff, OUTBOX_BACKOFF_BASE, OUTBOX_BACKOFF_CAP, OUTBOX_MAX_ATTEMPTS};

/// A store error: SQLite or a failed migration.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite reported an error.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The schema could not be brought up to date.
    #[error("migration: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// A row holds something the code does not understand (a corrupted or
    /// hand-edited database).
    #[error("corrupt row: {0}")]
    Corrupt(String),
    /// Optimistic concurrency: the game changed since it was read.
    #[error("the game was changed concurrently")]
    Conflict,
}

/// Result type of the store.
pub type StoreResult<T> = Result<T, StoreError>;

/// The migrations, in order. Embedded in the binary.
#[must_use]
pub fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("../../migrations/0001_initial.sql")),
        M::up(include_str!("../../migrations/0002_challenge_start.sql")),
        M::up(include_str!("../../migrations/0003_puzzles.sql")),
        M::up(include_str!("../../migrations/0004_learn.sql")),
        // Rebuilds `players`: run with foreign keys off (see `Store::setup`)
        // and checked before it commits.
        M::up_with_hook(
            include_str!("../../migrations/0005_trust.sql"),
            players_still_referenced,
        ),
        M::up(include_str!("../../migrations/0006_ladder_threads.sql")),
    ])
}

/// After `players` was rebuilt: every row that refers to a player still
/// finds it (`PRAGMA foreign_key_check`, limited to references to
/// `players`, so an unrelated old inconsistency does not stop the bot from
/// starting).
fn players_still_referenced(tx: &Transaction<'_>) -> rusqlite_migration::HookResult {
    let dangling: i64 = tx.query_row(
        "SELECT COUNT(*) FROM pragma_foreign_key_check WHERE parent = 'players'",
        [],
        |r| r.get(0),
    )?;
    if dangling > 0 {
        return Err(rusqlite_migration::HookError::Hook(format!(
            "{dangling} rows refer to players that are missing after rebuilding the table"
        )));
    }
    Ok(())
}

/// Number of migrations (the schema version after opening).
#[must_use]
pub fn schema_version() -> usize {
    6
}

/// A connection to the database, migrated to the latest schema.
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens (creating if needed) the database file and migrates it.
    pub fn open(path: impl AsRef<Path>) -> StoreResult<Store> {
        let conn = Connection::open(path)?;
        Store::setup(conn)
    }

    /// A private in-memory database (tests and tools).
    pub fn open_in_memory() -> StoreResult<Store> {
        Store::setup(Connection::open_in_memory()?)
    }

    fn setup(mut conn: Connection) -> StoreResult<Store> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        // Foreign keys are off while migrating: a migration that rebuilds a
        // table (SQLite's documented way to change a constraint) drops the
        // old table, which with foreign keys on would delete or refuse the
        // rows referring to it. Such migrations end with
        // `PRAGMA foreign_key_check`, so nothing dangling is committed.
        conn.pragma_update(None, "foreign_keys", "OFF")?;
        migrations().to_latest(&mut conn)?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        Ok(Store { conn })
    }

    /// The schema version (`PRAGMA user_version`).
    pub fn user_version(&self) -> StoreResult<i64> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// `PRAGMA integrity_check` result ("ok" when healthy).
    pub fn integrity_check(&self) -> StoreResult<String> {
        Ok(self
            .conn
            .pragma_query_value(None, "integrity_check", |r| r.get(0))?)
    }

    /// Runs `f` in one IMMEDIATE transaction (it takes the write lock at once,
    /// so two writers never both read stale data and then fail to upgrade).
    /// If `f` fails, the transaction rolls back.
    pub fn transaction<T, E: From<StoreError>>(
        &mut self,
        f: impl FnOnce(&Tx<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(StoreError::from)?;
        let out = f(&Tx { tx: &tx })?;
        tx.commit().map_err(StoreError::from)?;
        Ok(out)
    }

    /// Read-only access outside an explicit transaction.
    #[must_use]
    pub fn reader(&self) -> Reader<'_> {
        Reader { conn: &self.conn }
    }
}

/// Queries that only read.
pub struct Reader<'a> {
    conn: &'a Connection,
}

/// Reads and writes inside a transaction.
pub struct Tx<'a> {
    tx: &'a Transaction<'a>,
}

impl std::ops::Deref for Tx<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.tx
    }
}

macro_rules! read_queries {
    ($($body:tt)*) => {
        impl Reader<'_> { $($body)* }
        impl Tx<'_> { $($body)* }
    };
}

mod lead;
mod work;

read_queries! {
    /// A player by Discord user id.
    pub fn player(&self, id: i64) -> StoreResult<Option<PlayerRow>> {
        Ok(self
            .c()
            .query_row(&format!("SELECT {} FROM players WHERE user_id = ?1", PlayerRow::COLUMNS), [id], PlayerRow::from_row)
            .optional()?)
    }

    /// A challenge by id.
    pub fn challenge(&self, id: i64) -> StoreResult<Option<ChallengeRow>> {
        Ok(self
            .c()
            .query_row(&format!("SELECT {} FROM challenges WHERE id = ?1", ChallengeRow::COLUMNS), [id], ChallengeRow::from_row)
            .optional()?)
    }

    /// Open challenges addressed to `user` (or open to anyone), newest first.
    pub fn open_challenges_for(&self, user: i64) -> StoreResult<Vec<ChallengeRow>> {
        let mut st = self.c().prepare_cached(&format!(
            "SELECT {} FROM challenges WHERE status = 'open' AND (challenged = ?1 OR challenged IS NULL OR challenger = ?1) ORDER BY id DESC LIMIT 25",
            ChallengeRow::COLUMNS
        ))?;
        let rows = st.query_map([user], ChallengeRow::from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// A game by id.
    pub fn game(&self, id: i64) -> StoreResult<Option<GameRow>> {
        Ok(self
            .c()
            .query_row(&format!("SELECT {} FROM games WHERE id = ?1", GameRow::COLUMNS), [id], GameRow::from_row)
            .optional()?)
    }

    /// The USI moves of a game in order.
    pub fn moves(&self, game_id: i64) -> StoreResult<Vec<String>> {
        let mut st = self.c().prepare_cached("SELECT usi FROM moves WHERE game_id = ?1 ORDER BY ply")?;
        let rows = st.query_map([game_id], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The active games of a player, oldest deadline first.
    pub fn active_games_of(&self, user: i64) -> StoreResult<Vec<GameRow>> {
        let mut st = self.c().prepare_cached(&format!(
            "SELECT {} FROM games WHERE status = 'active' AND (sente = ?1 OR gote = ?1) ORDER BY deadline, id",
            GameRow::COLUMNS
        ))?;
        let rows = st.query_map([user], GameRow::from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The most recent games of a player (any status), newest first.
    pub fn recent_games_of(&self, user: i64, limit: i64) -> StoreResult<Vec<GameRow>> {
        let mut st = self.c().prepare_cached(&format!(
            "SELECT {} FROM games WHERE sente = ?1 OR gote = ?1 ORDER BY id DESC LIMIT ?2",
            GameRow::COLUMNS
        ))?;
        let rows = st.query_map([user, limit], GameRow::from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Active games whose deadline is at or before `now`.
    pub fn overdue_games(&self, now: i64) -> StoreResult<Vec<GameRow>> {
        let mut st = self.c().prepare_cached(&format!(
            "SELECT {} FROM games WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= ?1 ORDER BY deadline",
            GameRow::COLUMNS
        ))?;
        let rows = st.query_map([now], GameRow::from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Active games with a deadline (for reminders).
    pub fn games_with_deadline(&self) -> StoreResult<Vec<GameRow>> {
        let mut st = self.c().prepare_cached(&format!(
            "SELECT {} FROM games WHERE status = 'active' AND deadline IS NOT NULL AND reminded < 3",
            GameRow::COLUMNS
        ))?;
        let rows = st.query_map([], GameRow::from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Open challenges that expired at or before `now`.
    pub fn expired_challenges(&self, now: i64) -> StoreResult<Vec<ChallengeRow>> {
        let mut st = self.c().prepare_cached(&format!(
            "SELECT {} FROM challenges WHERE status = 'open' AND expires_at <= ?1",
            ChallengeRow::COLUMNS
        ))?;
        let rows = st.query_map([now], ChallengeRow::from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Players of a server ranked by rating (players with rated games only).
    /// Without a guild, everyone.
    pub fn leaderboard(&self, guild: Option<i64>, limit: i64) -> StoreResult<Vec<PlayerRow>> {
        let sql = format!(
            "SELECT {} FROM players p WHERE rated_games > 0 AND (?1 IS NULL OR EXISTS (
                SELECT 1 FROM games g WHERE g.guild_id = ?1 AND g.rated = 1 AND (g.sente = p.user_id OR g.gote = p.user_id)))
             ORDER BY rating DESC, user_id LIMIT ?2",
            PlayerRow::COLUMNS_P
        );
        let mut st = self.c().prepare_cached(&sql)?;
        let rows = st.query_map(params![guild, limit], PlayerRow::from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// (wins, losses, draws, aborted) of a player over finished games.
    pub fn record_of(&self, user: i64) -> StoreResult<(i64, i64, i64, i64)> {
        Ok(self.c().query_row(
            "SELECT
                COALESCE(SUM((result = 'sente' AND sente = ?1) OR (result = 'gote' AND gote = ?1)), 0),
                COALESCE(SUM((result = 'gote' AND sente = ?1) OR (result = 'sente' AND gote = ?1)), 0),
                COALESCE(SUM(result = 'draw'), 0),
                COALESCE(SUM(result = 'aborted'), 0)
             FROM games WHERE status = 'finished' AND (sente = ?1 OR gote = ?1)",
            [user],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?)
    }

    /// (wins, losses, draws) of `user` in finished games against `opponent`.
    pub fn record_against(&self, user: i64, opponent: i64) -> StoreResult<(i64, i64, i64)> {
        Ok(self.c().query_row(
            "SELECT
                COALESCE(SUM((result = 'sente' AND sente = ?1) OR (result = 'gote' AND gote = ?1)), 0),
                COALESCE(SUM((result = 'gote' AND sente = ?1) OR (result = 'sente' AND gote = ?1)), 0),
                COALESCE(SUM(result = 'draw'), 0)
             FROM games WHERE status = 'finished'
               AND ((sente = ?1 AND gote = ?2) OR (sente = ?2 AND gote = ?1))",
            [user, opponent],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?)
    }

    /// Finished 9×9 games of `user` against `opponent`, in the order they
    /// ended: (handicap, whether `user` won).
    pub fn results_against(&self, user: i64, opponent: i64) -> StoreResult<Vec<(Option<String>, bool)>> {
        let mut st = self.c().prepare_cached(
            "SELECT handicap, (result = 'sente' AND sente = ?1) OR (result = 'gote' AND gote = ?1)
             FROM games WHERE status = 'finished' AND variant = 'standard'
               AND ((sente = ?1 AND gote = ?2) OR (sente = ?2 AND gote = ?1))
             ORDER BY finished_at, id",
        )?;
        let rows = st.query_map([user, opponent], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Notices of the outbox that are not dead letters (due or not), oldest
    /// first: (id, payload).
    pub fn outbox(&self) -> StoreResult<Vec<(i64, String)>> {
        let mut st = self.c().prepare_cached("SELECT id, payload FROM outbox WHERE dead = 0 ORDER BY id")?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The stored answer to a request id, if it was answered before.
    pub fn answered(&self, request_id: &str) -> StoreResult<Option<String>> {
        Ok(self
            .c()
            .query_row("SELECT response FROM requests WHERE request_id = ?1", [request_id], |r| r.get(0))
            .optional()?)
    }

    /// Server settings: (game channel, threads on).
    pub fn server(&self, guild: i64) -> StoreResult<Option<(Option<i64>, bool)>> {
        Ok(self
            .c()
            .query_row("SELECT game_channel, threads FROM servers WHERE guild_id = ?1", [guild], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?)
    }
}

impl Reader<'_> {
    fn c(&self) -> &Connection {
        self.conn
    }
}

impl Tx<'_> {
    fn c(&self) -> &Connection {
        self.tx
    }

    /// Creates the player or updates the display name.
    pub fn upsert_player(&self, id: i64, name: &str, now: i64) -> StoreResult<()> {
        self.tx.execute(
            "INSERT INTO players (user_id, display_name, created_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name",
            params![id, name, now],
        )?;
        Ok(())
    }

    /// Saves a player's settings.
    pub fn save_settings(&self, id: i64, s: &Settings) -> StoreResult<()> {
        self.tx.execute(
            "UPDATE players SET notation = ?2, piece_style = ?3, theme = ?4, language = ?5, dms = ?6
             WHERE user_id = ?1",
            params![id, s.notation, s.piece_style, s.theme, s.language, s.dms],
        )?;
        Ok(())
    }

    /// Saves server settings.
    pub fn save_server(&self, guild: i64, channel: Option<i64>, threads: bool) -> StoreResult<()> {
        self.tx.execute(
            "INSERT INTO servers (guild_id, game_channel, threads) VALUES (?1, ?2, ?3)
             ON CONFLICT (guild_id) DO UPDATE SET game_channel = excluded.game_channel, threads = excluded.threads",
            params![guild, channel, threads],
        )?;
        Ok(())
    }

    /// Inserts a challenge and returns its id.
    pub fn insert_challenge(&self, c: &NewChallenge) -> StoreResult<i64> {
        self.tx.execute(
            "INSERT INTO challenges (guild_id, channel_id, challenger, challenged, variant, handicap, rule,
                days_per_move, rated, color, rematch_of, created_at, expires_at, start_sfen)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            params![
                c.guild_id,
                c.channel_id,
                c.challenger,
                c.challenged,
                c.variant,
                c.handicap,
                c.rule,
                c.days_per_move,
                c.rated,
                c.color,
                c.rematch_of,
                c.created_at,
                c.expires_at,
                c.start_sfen
            ],
        )?;
        Ok(self.tx.last_insert_rowid())
    }

    /// Moves an open challenge to a final status; false if it was not open.
    pub fn close_challenge(
        &self,
        id: i64,
        status: &str,
        game_id: Option<i64>,
    ) -> StoreResult<bool> {
        let n = self.tx.execute(
            "UPDATE challenges SET status = ?2, game_id = ?3 WHERE id = ?1 AND status = 'open'",
            params![id, status, game_id],
        )?;
        Ok(n == 1)
    }

    /// Inserts a game and returns its id.
    pub fn insert_game(&self, g: &NewGame) -> StoreResult<i64> {
        self.tx.execute(
            "INSERT INTO games (guild_id, channel_id, variant, handicap, rule, days_per_move, rated,
                sente, gote, start_sfen, sfen, deadline, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11, ?12, ?12)",
            params![
                g.guild_id, g.channel_id, g.variant, g.handicap, g.rule, g.days_per_move, g.rated,
                g.sente, g.gote, g.start_sfen, g.deadline, g.created_at
            ],
        )?;
        Ok(self.tx.last_insert_rowid())
    }

    /// Appends a move if the game is still at `version`, bumping the version,
    /// and stores the new position and deadline. `Conflict` if someone else
    /// changed the game first.
    #[allow(clippy::too_many_arguments)]
    pub fn append_move(
        &self,
        game_id: i64,
        version: i64,
        ply: i64,
        usi: &str,
        sfen: &str,
        deadline: Option<i64>,
        now: i64,
    ) -> StoreResult<()> {
        let n = self.tx.execute(
            "UPDATE games SET sfen = ?3, ply = ?4, deadline = ?5, reminded = 0, takeback_by = NULL,
                count_by = NULL, version = version + 1, updated_at = ?6
             WHERE id = ?1 AND version = ?2 AND status = 'active'",
            params![game_id, version, sfen, ply, deadline, now],
        )?;
        if n != 1 {
            return Err(StoreError::Conflict);
        }
        self.tx.execute(
            "INSERT INTO moves (game_id, ply, usi, played_at) VALUES (?1, ?2, ?3, ?4)",
            params![game_id, ply, usi, now],
        )?;
        Ok(())
    }

    /// Removes the last move (takeback) if the game is at `version`.
    pub fn remove_last_move(
        &self,
        game_id: i64,
        version: i64,
        sfen: &str,
        deadline: Option<i64>,
        now: i64,
    ) -> StoreResult<()> {
        let n = self.tx.execute(
            "UPDATE games SET sfen = ?3, ply = ply - 1, deadline = ?4, reminded = 0, takeback_by = NULL,
                count_by = NULL, version = version + 1, updated_at = ?5
             WHERE id = ?1 AND version = ?2 AND status = 'active' AND ply > 0",
            params![game_id, version, sfen, deadline, now],
        )?;
        if n != 1 {
            return Err(StoreError::Conflict);
        }
        self.tx.execute(
            "DELETE FROM moves WHERE game_id = ?1 AND ply = (SELECT MAX(ply) FROM moves WHERE game_id = ?1)",
            [game_id],
        )?;
        Ok(())
    }

    /// Ends a game if it is at `version`.
    pub fn finish_game(
        &self,
        game_id: i64,
        version: i64,
        result: &str,
        reason: &str,
        now: i64,
    ) -> StoreResult<()> {
        let n = self.tx.execute(
            "UPDATE games SET status = 'finished', result = ?3, reason = ?4, deadline = NULL,
                version = version + 1, updated_at = ?5, finished_at = ?5
             WHERE id = ?1 AND version = ?2 AND status = 'active'",
            params![game_id, version, result, reason, now],
        )?;
        if n != 1 {
            return Err(StoreError::Conflict);
        }
        Ok(())
    }

    /// Records a pending takeback or counting offer (column `takeback_by` or `count_by`).
    pub fn set_offer(
        &self,
        game_id: i64,
        version: i64,
        takeback: bool,
        by: Option<i64>,
    ) -> StoreResult<()> {
        let sql = if takeback {
            "UPDATE games SET takeback_by = ?3, version = version + 1 WHERE id = ?1 AND version = ?2 AND status = 'active'"
        } else {
            "UPDATE games SET count_by = ?3, version = version + 1 WHERE id = ?1 AND version = ?2 AND status = 'active'"
        };
        if self.tx.execute(sql, params![game_id, version, by])? != 1 {
            return Err(StoreError::Conflict);
        }
        Ok(())
    }

    /// Sets the game's thread.
    pub fn set_thread(&self, game_id: i64, thread: i64) -> StoreResult<()> {
        self.tx.execute(
            "UPDATE games SET thread_id = ?2 WHERE id = ?1",
            params![game_id, thread],
        )?;
        Ok(())
    }

    /// Marks reminders as sent (bit 1: half time, bit 2: 10 % left).
    pub fn mark_reminded(&self, game_id: i64, bits: i64) -> StoreResult<()> {
        self.tx.execute(
            "UPDATE games SET reminded = reminded | ?2 WHERE id = ?1",
            params![game_id, bits],
        )?;
        Ok(())
    }

    /// Updates a player's rating and writes the history row.
    pub fn set_rating(
        &self,
        user: i64,
        game_id: i64,
        before: f64,
        after: f64,
        now: i64,
    ) -> StoreResult<()> {
        self.tx.execute(
            "UPDATE players SET rating = ?2, rated_games = rated_games + 1 WHERE user_id = ?1",
            params![user, after],
        )?;
        self.tx.execute(
            "INSERT INTO rating_history (user_id, game_id, before, after, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![user, game_id, before, after, now],
        )?;
        Ok(())
    }

    /// Remembers the answer to a request id.
    pub fn remember_request(&self, request_id: &str, response: &str, now: i64) -> StoreResult<()> {
        self.tx.execute(
            "INSERT OR IGNORE INTO requests (request_id, response, at) VALUES (?1, ?2, ?3)",
            params![request_id, response, now],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_valid() {
        migrations().validate().unwrap();
    }

    #[test]
    fn opens_and_migrates() {
        let s = Store::open_in_memory().unwrap();
        assert_eq!(s.user_version().unwrap(), schema_version() as i64);
        assert_eq!(s.integrity_check().unwrap(), "ok");
    }
}
