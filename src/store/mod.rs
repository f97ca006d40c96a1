//! The store: players, servers, challenges, games, moves, ratings,
//! answered requests, the scheduler's outbox (with retries and dead letters),
//! the computer's jobs, the quarantine, the action log, puzzles, lessons and
//! online backups. All SQL of komadai lives in this module; the app calls
//! typed methods on [`Tx`] (a write transaction) and [`Reader`] (a read-only
//! one) and sees no database type.
//!
//! Two backends run the same queries (`sql.rs`): the embedded SQLite file
//! (the default, one process) and PostgreSQL (`--db postgres://…`, several
//! processes over one database). The SQLite schema lives in
//! `migrations/NNNN_name.sql` (append-only, applied on open by
//! `rusqlite_migration`, version in `PRAGMA user_version`); PostgreSQL's in
//! `migrations/postgres/`, numbered by the SQLite version it equals.
//!
//! SQLite durability: WAL with `synchronous = NORMAL`. A committed
//! transaction is in the WAL file before `COMMIT` returns, so it survives any
//! crash of the process (tests/crash.rs kills the console with SIGKILL at
//! random moments and finds every acknowledged move); the WAL is fsynced at
//! checkpoints, so an OS crash or power loss can lose the most recent
//! commits but never corrupts the database. `FULL` would fsync on every
//! commit: on this project's VM that costs about 4 ms per move against
//! 0.36 ms (benches/store.rs), an order of magnitude for a risk the host's
//! storage layer usually covers.

use std::path::Path;

use rusqlite::Transaction;
use rusqlite_migration::{Migrations, M};

mod backup;
mod pg;
mod rows;
pub(crate) mod sql;
mod sqlite;

pub use backup::{backup, BackupReport};
pub use community::{Followed, PremoveRow, ServerRow, StoredAbout, VacationRow};
pub use league::{LeaguePlayerRow, LeagueRow, NewLeague, PairingRow};
pub use load::SeedGame;
pub use puzzles::{DailyRow, PuzzleRow, PuzzleSession};
pub use rows::{
    Backlog, ChallengeRow, DeadlineRow, GameRow, NewChallenge, NewGame, OutboxRow, PlayerRow,
    QuarantineRow, Ranking, Settings,
};
pub use sql::Backend;
pub use work::{outbox_backoff, OUTBOX_BACKOFF_BASE, OUTBOX_BACKOFF_CAP, OUTBOX_MAX_ATTEMPTS};

use sql::{args, Db};

/// A store error: the database, a failed migration, or a row that makes no sense.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite reported an error.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL reported an error.
    #[error("database: {0}")]
    Postgres(#[from] postgres::Error),
    /// No connection could be had from the pool in time.
    #[error("database pool: {0}")]
    Pool(String),
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
    /// The operation exists for the other backend only.
    #[error("{0}")]
    Unsupported(&'static str),
}

/// Result type of the store.
pub type StoreResult<T> = Result<T, StoreError>;

/// The SQLite migrations, in order. Embedded in the binary.
#[must_use]
pub fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("../../migrations/0001_initial.sql")),
        M::up(include_str!("../../migrations/0002_challenge_start.sql")),
        M::up(include_str!("../../migrations/0003_puzzles.sql")),
        M::up(include_str!("../../migrations/0004_learn.sql")),
        // Rebuilds `players`: run with foreign keys off (see `Sqlite::setup`)
        // and checked before it commits.
        M::up_with_hook(
            include_str!("../../migrations/0005_trust.sql"),
            players_still_referenced,
        ),
        M::up(include_str!("../../migrations/0006_ladder_threads.sql")),
        M::up(include_str!("../../migrations/0007_orientation.sql")),
        // Rebuilds `players` (as 0005 does).
        M::up_with_hook(
            include_str!("../../migrations/0008_points_taler_danger.sql"),
            players_still_referenced,
        ),
        M::up(include_str!("../../migrations/0009_community.sql")),
        M::up(include_str!("../../migrations/0010_game_pages.sql")),
        M::up(include_str!("../../migrations/0011_leagues.sql")),
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
    11
}

/// Whether `db` names a PostgreSQL database rather than a SQLite file.
#[must_use]
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// How the connections of this process are used right now, and how often
/// a caller had to wait for one (for `/metrics`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PoolStats {
    /// Connections running a transaction or a read (SQLite: the writer, if
    /// locked, and readers in use).
    pub in_use: u32,
    /// Open connections nobody uses (SQLite: idle readers).
    pub idle: u32,
    /// Times a caller found no free connection and waited (PostgreSQL: for
    /// a pooled or a new connection; SQLite: for the writer lock).
    pub waits: u64,
    /// Seconds spent in those waits, in all.
    pub wait_seconds: f64,
}

/// Counts the waits for a connection.
#[derive(Debug, Default)]
struct Waits {
    count: std::sync::atomic::AtomicU64,
    micros: std::sync::atomic::AtomicU64,
}

impl Waits {
    /// One wait that began at `since` ended now.
    fn ended(&self, since: std::time::Instant) {
        use std::sync::atomic::Ordering::Relaxed;
        let micros = u64::try_from(since.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.count.fetch_add(1, Relaxed);
        self.micros.fetch_add(micros, Relaxed);
    }

    /// (waits, seconds waited).
    fn totals(&self) -> (u64, f64) {
        use std::sync::atomic::Ordering::Relaxed;
        (
            self.count.load(Relaxed),
            self.micros.load(Relaxed) as f64 / 1e6,
        )
    }
}

enum Inner {
    Sqlite(sqlite::Sqlite),
    Postgres(pg::Postgres),
}

/// The database, migrated to the latest schema: SQLite (a writer and a
/// pool of readers) or a pool of PostgreSQL connections. Shared by every
/// request of the process; transactions are serialised by the database, not
/// by the caller.
pub struct Store {
    inner: Inner,
}

impl Store {
    /// Opens (creating if needed) the database and migrates it: a SQLite
    /// file, or PostgreSQL when `db` is a `postgres://` URL.
    pub fn open(db: impl AsRef<Path>) -> StoreResult<Store> {
        let db = db.as_ref();
        if let Some(url) = db.to_str().filter(|s| is_postgres_url(s)) {
            return Ok(Store {
                inner: Inner::Postgres(pg::Postgres::open(url)?),
            });
        }
        Ok(Store {
            inner: Inner::Sqlite(sqlite::Sqlite::open(db)?),
        })
    }

    /// A private in-memory SQLite database (tests and tools).
    pub fn open_in_memory() -> StoreResult<Store> {
        Ok(Store {
            inner: Inner::Sqlite(sqlite::Sqlite::open_in_memory()?),
        })
    }

    /// Which database this is.
    #[must_use]
    pub fn backend(&self) -> Backend {
        match self.inner {
            Inner::Sqlite(_) => Backend::Sqlite,
            Inner::Postgres(_) => Backend::Postgres,
        }
    }

    /// Connections in use and idle, and the waits for one so far.
    #[must_use]
    pub fn pool_stats(&self) -> PoolStats {
        match &self.inner {
            Inner::Sqlite(s) => s.pool_stats(),
            Inner::Postgres(p) => p.pool_stats(),
        }
    }

    /// The schema version (`PRAGMA user_version` on SQLite).
    pub fn user_version(&self) -> StoreResult<i64> {
        match &self.inner {
            Inner::Sqlite(s) => Ok(s
                .writer()
                .pragma_query_value(None, "user_version", |r| r.get(0))?),
            Inner::Postgres(p) => p.version(),
        }
    }

    /// `PRAGMA integrity_check` result ("ok" when healthy); PostgreSQL
    /// checks itself and answers "ok" when a query runs.
    pub fn integrity_check(&self) -> StoreResult<String> {
        match &self.inner {
            Inner::Sqlite(s) => {
                Ok(s.writer()
                    .pragma_query_value(None, "integrity_check", |r| r.get(0))?)
            }
            Inner::Postgres(_) => {
                self.read(|r| r.c().value::<i64>("SELECT 1", &[]))?;
                Ok("ok".into())
            }
        }
    }

    /// `(table, column)` of every column of the store's tables, sorted
    /// (to compare the two backends' schemas).
    pub fn schema_columns(&self) -> StoreResult<Vec<(String, String)>> {
        let mut columns = match &self.inner {
            Inner::Sqlite(s) => s.with_reader(|c| -> StoreResult<Vec<(String, String)>> {
                let mut st = c.prepare(
                    "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p
                     WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'",
                )?;
                let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })??,
            Inner::Postgres(p) => p.columns()?,
        };
        columns.sort();
        Ok(columns)
    }

    /// Runs `f` in one write transaction. If `f` fails, the transaction
    /// rolls back. On PostgreSQL, `f` runs again (up to three times) when
    /// the server aborted it as a deadlock victim or a serialization
    /// failure; on SQLite it runs once.
    pub fn transaction<T, E: From<StoreError>>(
        &self,
        mut f: impl FnMut(&Tx<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        match &self.inner {
            Inner::Sqlite(s) => s.write(|db| f(&Tx { r: Reader { db } })),
            Inner::Postgres(p) => p.transaction(false, |db| f(&Tx { r: Reader { db } })),
        }
    }

    /// Runs `f` on one consistent snapshot and returns what it returns (for
    /// tests and tools, whose reads may simply panic on an error).
    pub fn peek<T>(&self, f: impl FnOnce(&Reader<'_>) -> T) -> StoreResult<T> {
        let mut f = Some(f);
        self.read(|r| Ok::<_, StoreError>(f.take().map(|f| f(r))))?
            .ok_or(StoreError::Unsupported("a snapshot read ran twice"))
    }

    /// Runs `f` in one read-only transaction: one consistent snapshot, and
    /// on SQLite a reader connection that never waits for the writer.
    pub fn read<T, E: From<StoreError>>(
        &self,
        mut f: impl FnMut(&Reader<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        match &self.inner {
            Inner::Sqlite(s) => s.read(|db| f(&Reader { db })),
            Inner::Postgres(p) => p.transaction(true, |db| f(&Reader { db })),
        }
    }
}

/// Queries that only read, inside a read-only transaction.
pub struct Reader<'a> {
    db: &'a dyn Db,
}

/// Reads and writes inside a transaction. Every query of [`Reader`] is
/// available on it too (it dereferences to the reader of its transaction),
/// so code that only reads takes a `&Reader` and works in both.
pub struct Tx<'a> {
    r: Reader<'a>,
}

impl<'a> std::ops::Deref for Tx<'a> {
    type Target = Reader<'a>;
    fn deref(&self) -> &Reader<'a> {
        &self.r
    }
}

macro_rules! read_queries {
    ($($body:tt)*) => {
        impl Reader<'_> { $($body)* }
    };
}

mod community;
mod lead;
mod league;
mod load;
mod page;
mod puzzles;
mod work;

impl Reader<'_> {
    /// The stake each player put into game `game_id` (that of the accepted
    /// challenge that started it; 0 when none).
    pub fn stake_of_game(&self, game_id: i64) -> StoreResult<i64> {
        let rows = self.c().rows(
            "SELECT CAST(COALESCE(MAX(stake), 0) AS BIGINT) FROM challenges WHERE game_id = ?1 AND status = 'accepted'",
            args![game_id],
        )?;
        match rows.first() {
            Some(r) => Ok(r.get(0)?),
            None => Ok(0),
        }
    }

    /// The game that replays `game_id`'s sennichite, if any.
    pub fn replayed_by(&self, game_id: i64) -> StoreResult<Option<i64>> {
        let rows = self.c().rows(
            "SELECT id FROM games WHERE replay_of = ?1 ORDER BY id LIMIT 1",
            args![game_id],
        )?;
        match rows.first() {
            Some(r) => Ok(Some(r.get(0)?)),
            None => Ok(None),
        }
    }

    /// Whether game `game_id` replays a sennichite (its accepted challenge's option).
    pub fn sennichite_replay_of_game(&self, game_id: i64) -> StoreResult<bool> {
        let rows = self.c().rows(
            "SELECT CAST(COALESCE(MAX(sennichite_replay), 0) AS BIGINT)
             FROM challenges WHERE game_id = ?1 AND status = 'accepted'",
            args![game_id],
        )?;
        match rows.first() {
            Some(r) => Ok(r.get::<i64>(0)? == 1),
            None => Ok(false),
        }
    }

    fn c(&self) -> &dyn Db {
        self.db
    }

    /// Which database the transaction runs on.
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.db.backend()
    }
}

impl Tx<'_> {
    fn c(&self) -> &dyn Db {
        self.r.db
    }
}

read_queries! {
    /// A player by Discord user id.
    pub fn player(&self, id: i64) -> StoreResult<Option<PlayerRow>> {
        self.c().opt(
            &format!("SELECT {} FROM players WHERE user_id = ?1", PlayerRow::COLUMNS),
            args![id],
            PlayerRow::from_row,
        )
    }

    /// A challenge by id.
    pub fn challenge(&self, id: i64) -> StoreResult<Option<ChallengeRow>> {
        self.c().opt(
            &format!("SELECT {} FROM challenges WHERE id = ?1", ChallengeRow::COLUMNS),
            args![id],
            ChallengeRow::from_row,
        )
    }

    /// Open challenges addressed to `user` (or open to anyone), newest first.
    pub fn open_challenges_for(&self, user: i64) -> StoreResult<Vec<ChallengeRow>> {
        self.c().all(
            &format!(
                "SELECT {} FROM challenges WHERE status = 'open' AND (challenged = ?1 OR challenged IS NULL OR challenger = ?1) ORDER BY id DESC LIMIT 25",
                ChallengeRow::COLUMNS
            ),
            args![user],
            ChallengeRow::from_row,
        )
    }

    /// A game by id.
    pub fn game(&self, id: i64) -> StoreResult<Option<GameRow>> {
        self.c().opt(
            &format!("SELECT {} FROM games WHERE id = ?1", GameRow::COLUMNS),
            args![id],
            GameRow::from_row,
        )
    }

    /// The USI moves of a game in order.
    pub fn moves(&self, game_id: i64) -> StoreResult<Vec<String>> {
        self.c().all("SELECT usi FROM moves WHERE game_id = ?1 ORDER BY ply", args![game_id], |r| r.get(0))
    }

    /// The active games of a player, oldest deadline first.
    pub fn active_games_of(&self, user: i64) -> StoreResult<Vec<GameRow>> {
        self.c().all(
            &format!(
                "SELECT {} FROM games WHERE status = 'active' AND (sente = ?1 OR gote = ?1) ORDER BY deadline, id",
                GameRow::COLUMNS
            ),
            args![user],
            GameRow::from_row,
        )
    }

    /// The most recent games of a player (any status), newest first.
    pub fn recent_games_of(&self, user: i64, limit: i64) -> StoreResult<Vec<GameRow>> {
        self.c().all(
            &format!(
                "SELECT {} FROM games WHERE sente = ?1 OR gote = ?1 ORDER BY id DESC LIMIT ?2",
                GameRow::COLUMNS
            ),
            args![user, limit],
            GameRow::from_row,
        )
    }

    /// Active games whose deadline is at or before `now`.
    pub fn overdue_games(&self, now: i64) -> StoreResult<Vec<GameRow>> {
        self.c().all(
            &format!(
                "SELECT {} FROM games WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= ?1 ORDER BY deadline",
                GameRow::COLUMNS
            ),
            args![now],
            GameRow::from_row,
        )
    }

    /// Active games with a deadline (for reminders).
    pub fn games_with_deadline(&self) -> StoreResult<Vec<GameRow>> {
        self.c().all(
            &format!(
                "SELECT {} FROM games WHERE status = 'active' AND deadline IS NOT NULL AND reminded < 3",
                GameRow::COLUMNS
            ),
            &[],
            GameRow::from_row,
        )
    }

    /// Open challenges that expired at or before `now`.
    pub fn expired_challenges(&self, now: i64) -> StoreResult<Vec<ChallengeRow>> {
        self.c().all(
            &format!(
                "SELECT {} FROM challenges WHERE status = 'open' AND expires_at <= ?1",
                ChallengeRow::COLUMNS
            ),
            args![now],
            ChallengeRow::from_row,
        )
    }

    /// Players of a server ranked by rating, points or Taler (players with
    /// rated games only). Without a guild, everyone.
    pub fn leaderboard(
        &self,
        guild: Option<i64>,
        by: Ranking,
        limit: i64,
    ) -> StoreResult<Vec<PlayerRow>> {
        let order = match by {
            Ranking::Elo => "rating DESC",
            Ranking::Points => "points DESC, rating DESC",
            Ranking::Taler => "taler DESC, rating DESC",
        };
        self.c().all(
            &format!(
                "SELECT {} FROM players p WHERE rated_games > 0 AND (CAST(?1 AS BIGINT) IS NULL OR EXISTS (
                    SELECT 1 FROM games g WHERE g.guild_id = ?1 AND g.rated = 1 AND (g.sente = p.user_id OR g.gote = p.user_id)))
                 ORDER BY {order}, user_id LIMIT ?2",
                PlayerRow::COLUMNS_P
            ),
            args![guild, limit],
            PlayerRow::from_row,
        )
    }

    /// (wins, losses, draws, aborted) of a player over finished games.
    pub fn record_of(&self, user: i64) -> StoreResult<(i64, i64, i64, i64)> {
        let rows = self.c().rows(
            "SELECT
                CAST(COALESCE(SUM(CASE WHEN (result = 'sente' AND sente = ?1) OR (result = 'gote' AND gote = ?1) THEN 1 ELSE 0 END), 0) AS BIGINT),
                CAST(COALESCE(SUM(CASE WHEN (result = 'gote' AND sente = ?1) OR (result = 'sente' AND gote = ?1) THEN 1 ELSE 0 END), 0) AS BIGINT),
                CAST(COALESCE(SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END), 0) AS BIGINT),
                CAST(COALESCE(SUM(CASE WHEN result = 'aborted' THEN 1 ELSE 0 END), 0) AS BIGINT)
             FROM games WHERE status = 'finished' AND (sente = ?1 OR gote = ?1)",
            args![user],
        )?;
        let r = rows.first().ok_or_else(|| StoreError::Corrupt("no record row".into()))?;
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
    }

    /// (wins, losses, draws) of `user` in finished games against `opponent`.
    pub fn record_against(&self, user: i64, opponent: i64) -> StoreResult<(i64, i64, i64)> {
        let rows = self.c().rows(
            "SELECT
                CAST(COALESCE(SUM(CASE WHEN (result = 'sente' AND sente = ?1) OR (result = 'gote' AND gote = ?1) THEN 1 ELSE 0 END), 0) AS BIGINT),
                CAST(COALESCE(SUM(CASE WHEN (result = 'gote' AND sente = ?1) OR (result = 'sente' AND gote = ?1) THEN 1 ELSE 0 END), 0) AS BIGINT),
                CAST(COALESCE(SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END), 0) AS BIGINT)
             FROM games WHERE status = 'finished'
               AND ((sente = ?1 AND gote = ?2) OR (sente = ?2 AND gote = ?1))",
            args![user, opponent],
        )?;
        let r = rows.first().ok_or_else(|| StoreError::Corrupt("no record row".into()))?;
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    }

    /// Finished 9×9 games of `user` against `opponent`, in the order they
    /// ended: (handicap, whether `user` won).
    pub fn results_against(&self, user: i64, opponent: i64) -> StoreResult<Vec<(Option<String>, bool)>> {
        self.c().all(
            "SELECT handicap, CASE WHEN (result = 'sente' AND sente = ?1) OR (result = 'gote' AND gote = ?1) THEN 1 ELSE 0 END
             FROM games WHERE status = 'finished' AND variant = 'standard'
               AND ((sente = ?1 AND gote = ?2) OR (sente = ?2 AND gote = ?1))
             ORDER BY finished_at, id",
            args![user, opponent],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
    }

    /// Notices of the outbox that are not dead letters (due or not), oldest
    /// first: (id, payload).
    pub fn outbox(&self) -> StoreResult<Vec<(i64, String)>> {
        self.c().all("SELECT id, payload FROM outbox WHERE dead = 0 ORDER BY id", &[], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
    }

    /// The stored answer to a request id, if it was answered before.
    pub fn answered(&self, request_id: &str) -> StoreResult<Option<String>> {
        self.c().opt("SELECT response FROM requests WHERE request_id = ?1", args![request_id], |r| r.get(0))
    }

}

impl Tx<'_> {
    /// Creates the player or updates the display name.
    pub fn upsert_player(&self, id: i64, name: &str, now: i64) -> StoreResult<()> {
        self.c().exec(
            "INSERT INTO players (user_id, display_name, created_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name",
            args![id, name, now],
        )?;
        Ok(())
    }

    /// Locks a player's row until the transaction ends, so that checks of
    /// their counts (active games, open challenges) in concurrent
    /// transactions of other processes run one after the other. (Every
    /// write transaction already runs alone on SQLite.)
    pub fn lock_player(&self, id: i64) -> StoreResult<()> {
        let c = self.c();
        let sql = format!(
            "SELECT user_id FROM players WHERE user_id = ?1{}",
            c.for_update()
        );
        c.rows(&sql, args![id])?;
        Ok(())
    }

    /// Saves a player's settings.
    pub fn save_settings(&self, id: i64, s: &Settings) -> StoreResult<()> {
        self.c().exec(
            "UPDATE players SET notation = ?2, piece_style = ?3, theme = ?4, language = ?5, dms = ?6,
                    orientation = ?7, danger = ?8, dots = ?9, names = ?10
             WHERE user_id = ?1",
            args![
                id,
                &s.notation,
                &s.piece_style,
                &s.theme,
                &s.language,
                s.dms,
                &s.orientation,
                &s.danger,
                s.dots,
                s.names
            ],
        )?;
        Ok(())
    }

    /// Inserts a challenge and returns its id.
    pub fn insert_challenge(&self, c: &NewChallenge) -> StoreResult<i64> {
        self.c().value(
            "INSERT INTO challenges (guild_id, channel_id, challenger, challenged, variant, handicap, rule,
                days_per_move, rated, color, rematch_of, created_at, expires_at, start_sfen, stake,
                sennichite_replay)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16) RETURNING id",
            args![
                c.guild_id,
                c.channel_id,
                c.challenger,
                c.challenged,
                &c.variant,
                &c.handicap,
                &c.rule,
                c.days_per_move,
                c.rated,
                &c.color,
                c.rematch_of,
                c.created_at,
                c.expires_at,
                &c.start_sfen,
                c.stake,
                c.sennichite_replay
            ],
        )
    }

    /// Moves an open challenge to a final status; false if it was not open.
    pub fn close_challenge(
        &self,
        id: i64,
        status: &str,
        game_id: Option<i64>,
    ) -> StoreResult<bool> {
        let n = self.c().exec(
            "UPDATE challenges SET status = ?2, game_id = ?3 WHERE id = ?1 AND status = 'open'",
            args![id, status, game_id],
        )?;
        Ok(n == 1)
    }

    /// Inserts a game and returns its id.
    pub fn insert_game(&self, g: &NewGame) -> StoreResult<i64> {
        self.c().value(
            "INSERT INTO games (guild_id, channel_id, variant, handicap, rule, days_per_move, rated,
                sente, gote, start_sfen, sfen, deadline, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11, ?12, ?12) RETURNING id",
            args![
                g.guild_id, g.channel_id, &g.variant, &g.handicap, &g.rule, g.days_per_move, g.rated,
                g.sente, g.gote, &g.start_sfen, g.deadline, g.created_at
            ],
        )
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
        let n = self.c().exec(
            "UPDATE games SET sfen = ?3, ply = ?4, deadline = ?5, paused_left = NULL, reminded = 0, takeback_by = NULL,
                count_by = NULL, version = version + 1, updated_at = ?6
             WHERE id = ?1 AND version = ?2 AND status = 'active'",
            args![game_id, version, sfen, ply, deadline, now],
        )?;
        if n != 1 {
            return Err(StoreError::Conflict);
        }
        self.c().exec(
            "INSERT INTO moves (game_id, ply, usi, played_at) VALUES (?1, ?2, ?3, ?4)",
            args![game_id, ply, usi, now],
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
        let n = self.c().exec(
            "UPDATE games SET sfen = ?3, ply = ply - 1, deadline = ?4, paused_left = NULL, reminded = 0, takeback_by = NULL,
                count_by = NULL, version = version + 1, updated_at = ?5
             WHERE id = ?1 AND version = ?2 AND status = 'active' AND ply > 0",
            args![game_id, version, sfen, deadline, now],
        )?;
        if n != 1 {
            return Err(StoreError::Conflict);
        }
        self.c().exec(
            "DELETE FROM moves WHERE game_id = ?1 AND ply = (SELECT MAX(ply) FROM moves WHERE game_id = ?1)",
            args![game_id],
        )?;
        // The game left every premove line: they began after the move taken back.
        self.drop_game_premoves(game_id)?;
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
        let n = self.c().exec(
            "UPDATE games SET status = 'finished', result = ?3, reason = ?4, deadline = NULL, paused_left = NULL,
                version = version + 1, updated_at = ?5, finished_at = ?5
             WHERE id = ?1 AND version = ?2 AND status = 'active'",
            args![game_id, version, result, reason, now],
        )?;
        if n != 1 {
            return Err(StoreError::Conflict);
        }
        self.drop_game_premoves(game_id)?;
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
        if self.c().exec(sql, args![game_id, version, by])? != 1 {
            return Err(StoreError::Conflict);
        }
        Ok(())
    }

    /// Sets the game's thread.
    pub fn set_thread(&self, game_id: i64, thread: i64) -> StoreResult<()> {
        self.c().exec(
            "UPDATE games SET thread_id = ?2 WHERE id = ?1",
            args![game_id, thread],
        )?;
        Ok(())
    }

    /// Marks reminders as sent (bit 1: half time, bit 2: 10 % left). False
    /// when every one of `bits` was marked already (by another process that
    /// sends that reminder).
    pub fn mark_reminded(&self, game_id: i64, bits: i64) -> StoreResult<bool> {
        let n = self.c().exec(
            "UPDATE games SET reminded = reminded | ?2 WHERE id = ?1 AND (reminded & ?2) <> ?2",
            args![game_id, bits],
        )?;
        Ok(n == 1)
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
        self.c().exec(
            "UPDATE players SET rating = ?2, rated_games = rated_games + 1 WHERE user_id = ?1",
            args![user, after],
        )?;
        self.c().exec(
            "INSERT INTO rating_history (user_id, game_id, before, after, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            args![user, game_id, before, after, now],
        )?;
        Ok(())
    }

    /// Adds to a player's points and Taler (negative: takes away).
    pub fn add_to_purse(&self, user: i64, points: i64, taler: i64) -> StoreResult<()> {
        self.c().exec(
            "UPDATE players SET points = points + ?2, taler = taler + ?3 WHERE user_id = ?1",
            args![user, points, taler],
        )?;
        Ok(())
    }

    /// Takes `stake` Taler from a player's balance for a game's pot; false
    /// (and nothing taken) when the balance is smaller.
    pub fn take_stake(&self, user: i64, stake: i64) -> StoreResult<bool> {
        let n = self.c().exec(
            "UPDATE players SET taler = taler - ?2 WHERE user_id = ?1 AND taler >= ?2",
            args![user, stake],
        )?;
        Ok(n == 1)
    }

    /// Marks game `game_id` as the replay of `of`'s sennichite.
    pub fn set_replay_of(&self, game_id: i64, of: i64) -> StoreResult<()> {
        self.c().exec(
            "UPDATE games SET replay_of = ?2 WHERE id = ?1",
            args![game_id, of],
        )?;
        Ok(())
    }

    /// Claims a request id for the transaction that answers it (its answer
    /// follows with [`Tx::answer_request`] before the commit). False when
    /// it was answered already; on PostgreSQL a concurrent claim of the same
    /// id waits for this transaction and then finds it answered.
    pub fn claim_request(&self, request_id: &str, now: i64) -> StoreResult<bool> {
        self.remember_request(request_id, "", now)
    }

    /// Stores the answer to a request id claimed in this transaction.
    pub fn answer_request(&self, request_id: &str, response: &str) -> StoreResult<()> {
        self.c().exec(
            "UPDATE requests SET response = ?2 WHERE request_id = ?1",
            args![request_id, response],
        )?;
        Ok(())
    }

    /// Remembers the answer to a request id. False when the request was
    /// answered already (by another process, at the same time).
    pub fn remember_request(
        &self,
        request_id: &str,
        response: &str,
        now: i64,
    ) -> StoreResult<bool> {
        let n = self.c().exec(
            "INSERT INTO requests (request_id, response, at) VALUES (?1, ?2, ?3)
             ON CONFLICT (request_id) DO NOTHING",
            args![request_id, response, now],
        )?;
        Ok(n == 1)
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
