//! The one SQL interface both backends implement: statements with `?N`
//! placeholders, arguments as [`Val`]s, rows as [`Row`]s of `Val`s.
//!
//! Every query of the store is written once against [`Db`]; SQLite runs
//! the text as it is, PostgreSQL gets `?N` rewritten to `$N`. The SQL is
//! the common subset of both dialects (`ON CONFLICT`, `RETURNING`,
//! `CAST(… AS BIGINT)`, `CASE WHEN` instead of summing booleans); where the
//! dialects must differ (`FOR UPDATE SKIP LOCKED`), [`Db::backend`] says
//! which one runs.

use super::{StoreError, StoreResult};

/// Which database a connection talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The embedded SQLite file (one writer at a time).
    Sqlite,
    /// A PostgreSQL server shared by several processes.
    Postgres,
}

/// A value going into or coming out of a statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// SQL NULL.
    Null,
    /// An integer (booleans are 0 and 1).
    Int(i64),
    /// A floating-point number.
    Real(f64),
    /// Text.
    Text(String),
}

impl From<i64> for Val {
    fn from(v: i64) -> Val {
        Val::Int(v)
    }
}

impl From<u32> for Val {
    fn from(v: u32) -> Val {
        Val::Int(i64::from(v))
    }
}

impl From<bool> for Val {
    fn from(v: bool) -> Val {
        Val::Int(i64::from(v))
    }
}

impl From<f64> for Val {
    fn from(v: f64) -> Val {
        Val::Real(v)
    }
}

impl From<&str> for Val {
    fn from(v: &str) -> Val {
        Val::Text(v.to_string())
    }
}

impl From<&String> for Val {
    fn from(v: &String) -> Val {
        Val::Text(v.clone())
    }
}

impl From<String> for Val {
    fn from(v: String) -> Val {
        Val::Text(v)
    }
}

impl<T: Into<Val>> From<Option<T>> for Val {
    fn from(v: Option<T>) -> Val {
        v.map_or(Val::Null, Into::into)
    }
}

impl<T: Clone + Into<Val>> From<&Option<T>> for Val {
    fn from(v: &Option<T>) -> Val {
        v.clone().map_or(Val::Null, Into::into)
    }
}

/// The arguments of a statement: `args![a, b, c]`.
macro_rules! args {
    ($($v:expr),* $(,)?) => {
        &[$($crate::store::sql::Val::from($v)),*][..]
    };
}
pub(crate) use args;

/// A result row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row(pub(crate) Vec<Val>);

impl Row {
    /// Column `i` as `T`.
    pub fn get<T: FromVal>(&self, i: usize) -> StoreResult<T> {
        let v = self
            .0
            .get(i)
            .ok_or_else(|| StoreError::Corrupt(format!("no column {i}")))?;
        T::from_val(v).ok_or_else(|| StoreError::Corrupt(format!("column {i}: unexpected {v:?}")))
    }
}

/// A Rust type a column converts to.
pub trait FromVal: Sized {
    /// The value as `Self`, if it is one.
    fn from_val(v: &Val) -> Option<Self>;
}

impl FromVal for i64 {
    fn from_val(v: &Val) -> Option<i64> {
        match v {
            Val::Int(i) => Some(*i),
            _ => None,
        }
    }
}

impl FromVal for u32 {
    fn from_val(v: &Val) -> Option<u32> {
        i64::from_val(v).and_then(|i| u32::try_from(i).ok())
    }
}

impl FromVal for bool {
    fn from_val(v: &Val) -> Option<bool> {
        i64::from_val(v).map(|i| i != 0)
    }
}

impl FromVal for f64 {
    fn from_val(v: &Val) -> Option<f64> {
        match v {
            Val::Real(f) => Some(*f),
            #[allow(clippy::cast_precision_loss)]
            Val::Int(i) => Some(*i as f64),
            _ => None,
        }
    }
}

impl FromVal for String {
    fn from_val(v: &Val) -> Option<String> {
        match v {
            Val::Text(s) => Some(s.clone()),
            _ => None,
        }
    }
}

impl<T: FromVal> FromVal for Option<T> {
    fn from_val(v: &Val) -> Option<Option<T>> {
        match v {
            Val::Null => Some(None),
            other => T::from_val(other).map(Some),
        }
    }
}

/// A connection (or transaction) that runs statements.
pub trait Db {
    /// Which database this is.
    fn backend(&self) -> Backend;
    /// Runs a statement; returns the number of rows it changed.
    fn exec(&self, sql: &str, args: &[Val]) -> StoreResult<usize>;
    /// Runs a query; returns every row.
    fn rows(&self, sql: &str, args: &[Val]) -> StoreResult<Vec<Row>>;
}

impl dyn Db + '_ {
    /// Every row, each converted by `f`.
    pub(crate) fn all<T>(
        &self,
        sql: &str,
        args: &[Val],
        f: impl Fn(&Row) -> StoreResult<T>,
    ) -> StoreResult<Vec<T>> {
        self.rows(sql, args)?.iter().map(f).collect()
    }

    /// The first row, converted by `f`, if there is one.
    pub(crate) fn opt<T>(
        &self,
        sql: &str,
        args: &[Val],
        f: impl Fn(&Row) -> StoreResult<T>,
    ) -> StoreResult<Option<T>> {
        self.rows(sql, args)?.first().map(f).transpose()
    }

    /// The first column of the first row (a query that always has one).
    pub(crate) fn value<T: FromVal>(&self, sql: &str, args: &[Val]) -> StoreResult<T> {
        self.rows(sql, args)?
            .first()
            .ok_or_else(|| StoreError::Corrupt(format!("no row from {sql}")))?
            .get(0)
    }

    /// `FOR UPDATE SKIP LOCKED` on PostgreSQL (rows other processes hold
    /// are skipped, not waited for); nothing on SQLite, where the writer
    /// is alone.
    pub(crate) fn skip_locked(&self) -> &'static str {
        match self.backend() {
            Backend::Sqlite => "",
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }

    /// `FOR UPDATE` on PostgreSQL (the rows are locked until the
    /// transaction ends); nothing on SQLite, where the writer is alone.
    pub(crate) fn for_update(&self) -> &'static str {
        match self.backend() {
            Backend::Sqlite => "",
            Backend::Postgres => " FOR UPDATE",
        }
    }
}

/// `?N` placeholders as PostgreSQL's `$N` (the store's SQL has no `?`
/// anywhere else).
#[must_use]
pub fn dollar_params(sql: &str) -> String {
    sql.replace('?', "$")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_convert_or_say_why_not() {
        let r = Row(vec![
            Val::Int(3),
            Val::Null,
            Val::Text("x".into()),
            Val::Real(1.5),
        ]);
        assert_eq!(r.get::<i64>(0).unwrap(), 3);
        assert!(r.get::<bool>(0).unwrap());
        assert_eq!(r.get::<Option<i64>>(1).unwrap(), None);
        assert_eq!(r.get::<String>(2).unwrap(), "x");
        assert!((r.get::<f64>(3).unwrap() - 1.5).abs() < 1e-9);
        assert!(r.get::<i64>(1).is_err(), "NULL is not an integer");
        assert!(r.get::<i64>(2).is_err());
        assert!(r.get::<i64>(9).is_err());
    }

    #[test]
    fn placeholders_become_dollars() {
        assert_eq!(
            dollar_params("SELECT a FROM t WHERE b = ?1 AND c = ?12"),
            "SELECT a FROM t WHERE b = $1 AND c = $12"
        );
    }
}
