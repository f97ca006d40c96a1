//! The PostgreSQL backend: a pool of connections to one server that several
//! komadai processes share.
//!
//! Transactions run at READ COMMITTED. A move is serialised by its game
//! row: `UPDATE … WHERE version = ?` waits for a concurrent writer of the
//! same game and then finds the version changed (`StoreError::Conflict`).
//! Work that must happen once (notices, the computer's replies) is claimed
//! with `FOR UPDATE SKIP LOCKED` and an expiring lease. A transaction that
//! PostgreSQL aborts as a deadlock victim or a serialization failure is run
//! again, up to [`RETRIES`] times.
//!
//! The schema lives in `migrations/postgres/` (its history starts at the
//! SQLite schema version it equals); a test checks that both schemas have
//! the same tables and columns. Migrating takes an advisory lock, so
//! processes that start together migrate one after the other.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::error::Error as StdError;
use std::time::Duration;

use bytes::BytesMut;
use postgres::error::SqlState;
use postgres::types::{to_sql_checked, IsNull, ToSql, Type};
use postgres::{Client, NoTls, Statement};

use super::sql::{dollar_params, Backend, Db, Row, Val};
use super::{StoreError, StoreResult};

/// How often a transaction is run again after a deadlock or a
/// serialization failure.
pub const RETRIES: usize = 3;

/// The PostgreSQL schema history: (the schema version it brings the
/// database to, its SQL). Version numbers are those of the SQLite history.
const MIGRATIONS: &[(i64, &str)] = &[
    (6, include_str!("../../migrations/postgres/0006_schema.sql")),
    (
        7,
        include_str!("../../migrations/postgres/0007_orientation.sql"),
    ),
    (
        8,
        include_str!("../../migrations/postgres/0008_points_taler_danger.sql"),
    ),
    (
        9,
        include_str!("../../migrations/postgres/0009_community.sql"),
    ),
    (
        10,
        include_str!("../../migrations/postgres/0010_game_pages.sql"),
    ),
    (
        11,
        include_str!("../../migrations/postgres/0011_leagues.sql"),
    ),
];

/// Key of the advisory lock held while migrating ("komadai" in ASCII).
const MIGRATION_LOCK: i64 = 0x006b_6f6d_6164_6169;

impl ToSql for Val {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn StdError + Sync + Send>> {
        match self {
            Val::Null => Ok(IsNull::Yes),
            Val::Int(i) => match *ty {
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                #[allow(clippy::cast_precision_loss)]
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR => i.to_string().to_sql(ty, out),
                _ => i.to_sql(ty, out),
            },
            Val::Real(f) => f.to_sql(ty, out),
            Val::Text(s) => s.as_str().to_sql(ty, out),
        }
    }

    fn accepts(ty: &Type) -> bool {
        matches!(
            *ty,
            Type::INT8
                | Type::INT4
                | Type::INT2
                | Type::BOOL
                | Type::FLOAT8
                | Type::TEXT
                | Type::VARCHAR
                | Type::BPCHAR
                | Type::NAME
                | Type::UNKNOWN
        )
    }

    to_sql_checked!();
}

fn val_of(row: &postgres::Row, i: usize) -> StoreResult<Val> {
    let ty = row.columns()[i].type_();
    let v = match *ty {
        Type::INT8 => row.try_get::<_, Option<i64>>(i)?.map(Val::Int),
        Type::INT4 => row
            .try_get::<_, Option<i32>>(i)?
            .map(|v| Val::Int(v.into())),
        Type::INT2 => row
            .try_get::<_, Option<i16>>(i)?
            .map(|v| Val::Int(v.into())),
        Type::BOOL => row
            .try_get::<_, Option<bool>>(i)?
            .map(|v| Val::Int(v.into())),
        Type::FLOAT8 => row.try_get::<_, Option<f64>>(i)?.map(Val::Real),
        Type::FLOAT4 => row
            .try_get::<_, Option<f32>>(i)?
            .map(|v| Val::Real(v.into())),
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => {
            row.try_get::<_, Option<String>>(i)?.map(Val::Text)
        }
        _ => {
            return Err(StoreError::Corrupt(format!(
                "column {} has type {ty}, which the store does not read",
                row.columns()[i].name()
            )))
        }
    };
    Ok(v.unwrap_or(Val::Null))
}

/// A pooled connection with the statements it has prepared.
pub(crate) struct PgConn {
    client: Client,
    statements: HashMap<String, Statement>,
}

/// Opens connections for the pool.
pub(crate) struct Manager {
    config: postgres::Config,
}

impl r2d2::ManageConnection for Manager {
    type Connection = PgConn;
    type Error = postgres::Error;

    fn connect(&self) -> Result<PgConn, postgres::Error> {
        Ok(PgConn {
            client: self.config.connect(NoTls)?,
            statements: HashMap::new(),
        })
    }

    fn is_valid(&self, conn: &mut PgConn) -> Result<(), postgres::Error> {
        conn.client.simple_query("").map(|_| ())
    }

    fn has_broken(&self, conn: &mut PgConn) -> bool {
        conn.client.is_closed()
    }
}

/// One transaction as a [`Db`].
struct PgDb<'a> {
    tx: RefCell<postgres::Transaction<'a>>,
    statements: RefCell<&'a mut HashMap<String, Statement>>,
    /// Set when PostgreSQL aborted the transaction in a way that running it
    /// again can cure (deadlock, serialization failure).
    retry: Cell<bool>,
}

impl PgDb<'_> {
    fn statement(&self, sql: &str) -> StoreResult<Statement> {
        if let Some(s) = self.statements.borrow().get(sql) {
            return Ok(s.clone());
        }
        let s = self
            .tx
            .borrow_mut()
            .prepare(&dollar_params(sql))
            .map_err(|e| self.failed(e))?;
        self.statements
            .borrow_mut()
            .insert(sql.to_string(), s.clone());
        Ok(s)
    }

    fn failed(&self, e: postgres::Error) -> StoreError {
        if matches!(
            e.code(),
            Some(&SqlState::T_R_DEADLOCK_DETECTED | &SqlState::T_R_SERIALIZATION_FAILURE)
        ) {
            self.retry.set(true);
        }
        StoreError::from(e)
    }
}

fn params(args: &[Val]) -> Vec<&(dyn ToSql + Sync)> {
    args.iter().map(|a| a as &(dyn ToSql + Sync)).collect()
}

impl Db for PgDb<'_> {
    fn backend(&self) -> Backend {
        Backend::Postgres
    }

    fn exec(&self, sql: &str, args: &[Val]) -> StoreResult<usize> {
        let st = self.statement(sql)?;
        let n = self
            .tx
            .borrow_mut()
            .execute(&st, &params(args))
            .map_err(|e| self.failed(e))?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    fn rows(&self, sql: &str, args: &[Val]) -> StoreResult<Vec<Row>> {
        let st = self.statement(sql)?;
        let rows = self
            .tx
            .borrow_mut()
            .query(&st, &params(args))
            .map_err(|e| self.failed(e))?;
        rows.iter()
            .map(|r| {
                (0..r.len())
                    .map(|i| val_of(r, i))
                    .collect::<StoreResult<Vec<_>>>()
                    .map(Row)
            })
            .collect()
    }
}

/// The PostgreSQL database: a pool of connections.
pub(crate) struct Postgres {
    pool: r2d2::Pool<Manager>,
    /// Waits for a connection.
    waits: super::Waits,
}

impl Postgres {
    /// Connects to `url` (`postgres://user:password@host:port/database`)
    /// and migrates the schema.
    pub(crate) fn open(url: &str) -> StoreResult<Postgres> {
        let config: postgres::Config = url.parse()?;
        let size = std::env::var("KOMADAI_DB_POOL")
            .ok()
            .and_then(|v| v.parse::<u32>().ok())
            .filter(|&n| n > 0)
            .unwrap_or(16);
        let pool = r2d2::Pool::builder()
            .max_size(size)
            .min_idle(Some(1))
            .connection_timeout(Duration::from_secs(10))
            .build(Manager { config })
            .map_err(|e| StoreError::Pool(e.to_string()))?;
        let pg = Postgres {
            pool,
            waits: super::Waits::default(),
        };
        pg.migrate()?;
        Ok(pg)
    }

    /// An idle connection, or (counted as a wait) the next one freed or
    /// opened.
    fn conn(&self) -> StoreResult<r2d2::PooledConnection<Manager>> {
        if let Some(c) = self.pool.try_get() {
            return Ok(c);
        }
        let since = std::time::Instant::now();
        let c = self.pool.get();
        self.waits.ended(since);
        c.map_err(|e| StoreError::Pool(e.to_string()))
    }

    pub(crate) fn pool_stats(&self) -> super::PoolStats {
        let state = self.pool.state();
        let (waits, wait_seconds) = self.waits.totals();
        super::PoolStats {
            in_use: state.connections.saturating_sub(state.idle_connections),
            idle: state.idle_connections,
            waits,
            wait_seconds,
        }
    }

    fn migrate(&self) -> StoreResult<()> {
        let mut conn = self.conn()?;
        let client = &mut conn.client;
        client.execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])?;
        let result = (|| -> StoreResult<()> {
            client.batch_execute(
                "CREATE TABLE IF NOT EXISTS komadai_schema (version BIGINT NOT NULL)",
            )?;
            let current: i64 = client
                .query_one("SELECT COALESCE(MAX(version), 0) FROM komadai_schema", &[])?
                .get(0);
            for &(version, sql) in MIGRATIONS {
                if version <= current {
                    continue;
                }
                let mut tx = client.transaction()?;
                tx.batch_execute(sql)?;
                tx.execute("DELETE FROM komadai_schema", &[])?;
                tx.execute(
                    "INSERT INTO komadai_schema (version) VALUES ($1)",
                    &[&version],
                )?;
                tx.commit()?;
            }
            Ok(())
        })();
        client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])?;
        result
    }

    /// The schema version.
    pub(crate) fn version(&self) -> StoreResult<i64> {
        let mut conn = self.conn()?;
        Ok(conn
            .client
            .query_one("SELECT COALESCE(MAX(version), 0) FROM komadai_schema", &[])?
            .get(0))
    }

    /// Runs `f` in one transaction (read-only when `read_only`), again
    /// after a deadlock or serialization failure.
    pub(crate) fn transaction<T, E: From<StoreError>>(
        &self,
        read_only: bool,
        mut f: impl FnMut(&dyn Db) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut tries = 0;
        loop {
            let mut conn = self.conn()?;
            let PgConn { client, statements } = &mut *conn;
            let tx = client
                .build_transaction()
                .read_only(read_only)
                .start()
                .map_err(StoreError::from)?;
            let db = PgDb {
                tx: RefCell::new(tx),
                statements: RefCell::new(statements),
                retry: Cell::new(false),
            };
            let out = f(&db);
            let retry = db.retry.get();
            let tx = db.tx.into_inner();
            match out {
                Ok(v) => match tx.commit() {
                    Ok(()) => return Ok(v),
                    Err(e)
                        if tries < RETRIES
                            && e.code() == Some(&SqlState::T_R_SERIALIZATION_FAILURE) =>
                    {
                        tries += 1;
                    }
                    Err(e) => return Err(StoreError::from(e).into()),
                },
                Err(e) => {
                    // Dropping the transaction rolls it back.
                    drop(tx);
                    if !(retry && tries < RETRIES) {
                        return Err(e);
                    }
                    tries += 1;
                }
            }
        }
    }

    /// `(table, column)` of every column of the store's tables.
    pub(crate) fn columns(&self) -> StoreResult<Vec<(String, String)>> {
        let rows = self.conn()?.client.query(
            "SELECT table_name::text, column_name::text
             FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name <> 'komadai_schema'
             ORDER BY 1, 2",
            &[],
        )?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }
}
