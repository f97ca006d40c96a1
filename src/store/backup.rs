//! `komadai backup FILE`: a consistent copy of the live database through
//! SQLite's online backup API, taken while the bot keeps writing.
//!
//! The copy is made in one backup step (`sqlite3_backup_step(-1)`), which
//! reads every page inside one read transaction: in WAL mode that is a
//! snapshot of the last commit before the step began, and the bot's writers
//! are not blocked meanwhile. Every transaction committed before
//! [`backup`] is called is in the copy; later ones may or may not be, but
//! never half. The copy is written next to `dest` under a temporary name,
//! switched to a self-contained rollback-journal file (no `-wal`/`-shm` to
//! carry along), checked with `PRAGMA integrity_check`, and then renamed to
//! `dest`, so `dest` is either the old file or a complete new backup.
//!
//! Restore (README, "Backup and restore"): stop the bot, replace the database
//! file with the backup, delete the old database's `-wal` and `-shm` files,
//! start the bot.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

use super::{StoreError, StoreResult};

/// What a backup copied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupReport {
    /// Database pages copied.
    pub pages: i64,
    /// Size of the backup file in bytes.
    pub bytes: u64,
}

/// How often a busy or locked step is retried (100 ms apart) before giving up.
const BUSY_RETRIES: u32 = 100;

/// Copies the database at `db` to `dest` (replacing `dest` if it exists).
/// `db` must exist; it is neither created nor migrated.
pub fn backup(db: &Path, dest: &Path) -> StoreResult<BackupReport> {
    if db.to_str().is_some_and(super::is_postgres_url) {
        return Err(StoreError::Unsupported(
            "komadai backup copies the SQLite file; back up PostgreSQL with pg_dump",
        ));
    }
    if same_file(db, dest) {
        return Err(StoreError::Corrupt(format!(
            "the backup {} would overwrite the database",
            dest.display()
        )));
    }
    let src = Connection::open_with_flags(
        db,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    src.busy_timeout(Duration::from_secs(10))?;
    let tmp = partial_name(dest);
    remove_if_present(&tmp)?;
    let result = copy_into(&src, &tmp);
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            // Best effort: a partial copy is useless.
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
    };
    std::fs::rename(&tmp, dest).map_err(|e| io_error(dest, &e))?;
    let bytes = std::fs::metadata(dest)
        .map_err(|e| io_error(dest, &e))?
        .len();
    Ok(BackupReport {
        pages: report,
        bytes,
    })
}

fn copy_into(src: &Connection, tmp: &Path) -> StoreResult<i64> {
    let mut dst = Connection::open(tmp)?;
    let pages = {
        let b = Backup::new(src, &mut dst)?;
        let mut retries = 0;
        loop {
            match b.step(-1)? {
                StepResult::Done => break,
                StepResult::More => {}
                StepResult::Busy | StepResult::Locked => {
                    retries += 1;
                    if retries > BUSY_RETRIES {
                        return Err(StoreError::Corrupt(
                            "the database stayed locked; no backup taken".into(),
                        ));
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
                _ => {}
            }
        }
        i64::from(b.progress().pagecount)
    };
    // The copy carries the source's WAL flag; make it one self-contained file.
    dst.pragma_update(None, "journal_mode", "DELETE")?;
    let check: String = dst.pragma_query_value(None, "integrity_check", |r| r.get(0))?;
    if check != "ok" {
        return Err(StoreError::Corrupt(format!(
            "backup integrity check: {check}"
        )));
    }
    dst.close().map_err(|(_, e)| StoreError::from(e))?;
    Ok(pages)
}

/// `dir/.name.partial` next to `dest`.
fn partial_name(dest: &Path) -> PathBuf {
    let name = dest
        .file_name()
        .map_or_else(|| "backup".into(), |n| n.to_string_lossy().into_owned());
    dest.with_file_name(format!(".{name}.partial"))
}

fn remove_if_present(path: &Path) -> StoreResult<()> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_error(path, &e)),
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn io_error(path: &Path, e: &std::io::Error) -> StoreError {
    StoreError::Corrupt(format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn copies_a_database_and_refuses_to_overwrite_it() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("live.db");
        let s = Store::open(&db).unwrap();
        s.transaction(|tx| tx.upsert_player(1, "alice", 0)).unwrap();
        let dest = dir.path().join("copy.db");
        let report = backup(&db, &dest).unwrap();
        assert!(report.pages > 0);
        assert!(report.bytes > 0);
        let copy = Store::open(&dest).unwrap();
        assert_eq!(
            copy.read(|r| r.player(1)).unwrap().unwrap().display_name,
            "alice"
        );
        assert!(!partial_name(&dest).exists());
        // Again over the existing backup.
        s.transaction(|tx| tx.upsert_player(2, "bob", 0)).unwrap();
        drop(copy);
        backup(&db, &dest).unwrap();
        let copy = Store::open(&dest).unwrap();
        assert!(copy.read(|r| r.player(2)).unwrap().is_some());
        assert!(backup(&db, &db).is_err());
        assert!(backup(&dir.path().join("missing.db"), &dest).is_err());
    }
}
