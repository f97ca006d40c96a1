//! The embedded SQLite backend: one writer connection behind a mutex and a
//! small pool of read-only connections beside it.
//!
//! In WAL mode readers never wait for the writer and see the last commit
//! before their read began, so autocomplete, `/games`, `/replay` and
//! `/export` run while a move is being written. An in-memory database (tests
//! and tools) is private to its connection, so there every read goes through
//! the writer.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::Duration;

use rusqlite::types::{ToSqlOutput, Value, ValueRef};
use rusqlite::{Connection, OpenFlags};

use super::sql::{Backend, Db, Row, Val};
use super::{migrations, StoreError, StoreResult};

/// Read connections kept open for reuse (more are opened under load and
/// closed afterwards).
const IDLE_READERS: usize = 4;

/// How much of the database file readers map into memory.
const MMAP_BYTES: i64 = 256 << 20;

impl rusqlite::ToSql for Val {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Val::Null => ToSqlOutput::Owned(Value::Null),
            Val::Int(i) => ToSqlOutput::Owned(Value::Integer(*i)),
            Val::Real(f) => ToSqlOutput::Owned(Value::Real(*f)),
            Val::Text(s) => ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())),
        })
    }
}

fn val_of(v: ValueRef<'_>) -> StoreResult<Val> {
    Ok(match v {
        ValueRef::Null => Val::Null,
        ValueRef::Integer(i) => Val::Int(i),
        ValueRef::Real(f) => Val::Real(f),
        ValueRef::Text(t) => Val::Text(
            std::str::from_utf8(t)
                .map_err(|e| StoreError::Corrupt(format!("text that is not UTF-8: {e}")))?
                .to_string(),
        ),
        ValueRef::Blob(_) => return Err(StoreError::Corrupt("unexpected blob".into())),
    })
}

/// A connection (or a transaction on it) as a [`Db`].
pub(crate) struct SqliteDb<'a>(pub(crate) &'a Connection);

impl Db for SqliteDb<'_> {
    fn backend(&self) -> Backend {
        Backend::Sqlite
    }

    fn exec(&self, sql: &str, args: &[Val]) -> StoreResult<usize> {
        let mut st = self.0.prepare_cached(sql)?;
        Ok(st.execute(rusqlite::params_from_iter(args))?)
    }

    fn rows(&self, sql: &str, args: &[Val]) -> StoreResult<Vec<Row>> {
        let mut st = self.0.prepare_cached(sql)?;
        let n = st.column_count();
        let mut rows = st.query(rusqlite::params_from_iter(args))?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let mut vals = Vec::with_capacity(n);
            for i in 0..n {
                vals.push(val_of(r.get_ref(i)?)?);
            }
            out.push(Row(vals));
        }
        Ok(out)
    }
}

/// The SQLite database: the writer, and where readers come from.
pub(crate) struct Sqlite {
    writer: Mutex<Connection>,
    /// Waits for the writer lock.
    waits: super::Waits,
    /// Reader connections out of the pool right now.
    readers_in_use: std::sync::atomic::AtomicU32,
    /// `None` for an in-memory database (reads use the writer), or when the
    /// reader pool is switched off.
    file: Option<PathBuf>,
    readers: Mutex<Vec<Connection>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic inside a use case unwinds through the transaction, which rolls
    // back when dropped: the connection is consistent, so take it over.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Sqlite {
    pub(crate) fn open(path: &Path) -> StoreResult<Sqlite> {
        let conn = Connection::open(path)?;
        // `KOMADAI_SQLITE_READERS=0` sends every read through the writer, as
        // before the reader pool existed (benches/contention.rs measures
        // both in one run).
        let readers = std::env::var("KOMADAI_SQLITE_READERS").map_or(true, |v| v.trim() != "0");
        Sqlite::setup(conn, readers.then(|| path.to_path_buf()))
    }

    pub(crate) fn open_in_memory() -> StoreResult<Sqlite> {
        Sqlite::setup(Connection::open_in_memory()?, None)
    }

    fn setup(mut conn: Connection, file: Option<PathBuf>) -> StoreResult<Sqlite> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.busy_timeout(Duration::from_secs(10))?;
        // Foreign keys are off while migrating: a migration that rebuilds a
        // table (SQLite's documented way to change a constraint) drops the
        // old table, which with foreign keys on would delete or refuse the
        // rows referring to it. Such migrations end with
        // `PRAGMA foreign_key_check`, so nothing dangling is committed.
        conn.pragma_update(None, "foreign_keys", "OFF")?;
        migrations().to_latest(&mut conn)?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        Ok(Sqlite {
            writer: Mutex::new(conn),
            waits: super::Waits::default(),
            readers_in_use: std::sync::atomic::AtomicU32::new(0),
            file,
            readers: Mutex::new(Vec::new()),
        })
    }

    /// The writer connection (for pragmas and the backup); a wait for it
    /// is counted.
    pub(crate) fn writer(&self) -> MutexGuard<'_, Connection> {
        match self.writer.try_lock() {
            Ok(guard) => guard,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => {
                let since = std::time::Instant::now();
                let guard = lock(&self.writer);
                self.waits.ended(since);
                guard
            }
        }
    }

    pub(crate) fn pool_stats(&self) -> super::PoolStats {
        let writer_busy = u32::from(matches!(
            self.writer.try_lock(),
            Err(TryLockError::WouldBlock)
        ));
        let idle = u32::try_from(lock(&self.readers).len()).unwrap_or(u32::MAX);
        let (waits, wait_seconds) = self.waits.totals();
        super::PoolStats {
            in_use: writer_busy
                + self
                    .readers_in_use
                    .load(std::sync::atomic::Ordering::Relaxed),
            idle,
            waits,
            wait_seconds,
        }
    }

    /// A reader connection, an idle one or a new one, lent until dropped.
    fn take_reader(&self, path: &Path) -> StoreResult<Lent<'_>> {
        let conn = match lock(&self.readers).pop() {
            Some(c) => c,
            None => open_reader(path)?,
        };
        self.readers_in_use
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(Lent {
            db: self,
            conn: Some(conn),
        })
    }

    /// Runs `f` in one IMMEDIATE transaction (it takes the write lock at
    /// once, so two writers never both read stale data and then fail to
    /// upgrade). If `f` fails, the transaction rolls back.
    pub(crate) fn write<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&dyn Db) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut conn = self.writer();
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(StoreError::from)?;
        let out = f(&SqliteDb(&tx))?;
        tx.commit().map_err(StoreError::from)?;
        Ok(out)
    }

    /// Runs `f` in one read transaction on a reader connection: it sees one
    /// snapshot and never waits for the writer.
    pub(crate) fn read<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&dyn Db) -> Result<T, E>,
    ) -> Result<T, E> {
        let Some(path) = &self.file else {
            let conn = self.writer();
            let tx = conn.unchecked_transaction().map_err(StoreError::from)?;
            let out = f(&SqliteDb(&tx));
            // Nothing was written: ending the read cannot lose anything.
            let _ = tx.rollback();
            return out;
        };
        let conn = self.take_reader(path)?;
        let tx = conn.unchecked_transaction().map_err(StoreError::from)?;
        let out = f(&SqliteDb(&tx));
        let _ = tx.rollback();
        out
    }

    /// Runs `f` with a reader connection outside a transaction (each
    /// statement sees the latest commit).
    pub(crate) fn with_reader<T>(&self, f: impl FnOnce(&Connection) -> T) -> StoreResult<T> {
        let Some(path) = &self.file else {
            return Ok(f(&self.writer()));
        };
        let conn = self.take_reader(path)?;
        Ok(f(&conn))
    }
}

/// A reader connection out of the pool; put back (or closed when enough
/// are idle) when dropped, also when a use case panics.
struct Lent<'a> {
    db: &'a Sqlite,
    conn: Option<Connection>,
}

impl std::ops::Deref for Lent<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn.as_ref().expect("lent until dropped")
    }
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        self.db
            .readers_in_use
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        if let Some(conn) = self.conn.take() {
            let mut idle = lock(&self.db.readers);
            if idle.len() < IDLE_READERS {
                idle.push(conn);
            }
        }
    }
}

fn open_reader(path: &Path) -> StoreResult<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI,
    )?;
    conn.busy_timeout(Duration::from_secs(10))?;
    // Pages through the OS's page cache: a reader's own cache is dropped
    // after every commit of the writer, and mapped pages are cheap to read
    // again.
    conn.pragma_update(None, "mmap_size", MMAP_BYTES)?;
    Ok(conn)
}
