//! Queries of the game page: the database's page key and stored analyses.

use super::sql::args;

use super::{Reader, StoreError, StoreResult, Tx};

read_queries! {
    /// The key game page addresses are signed with (hex; made by
    /// migration 0010, the same for every process over this database).
    pub fn page_secret(&self) -> StoreResult<String> {
        self.c()
            .opt("SELECT secret FROM page_secret WHERE id = 1", &[], |r| r.get(0))?
            .ok_or_else(|| StoreError::Corrupt("page_secret has no row".into()))
    }

    /// The latest analysis of a game: (evaluations, turning points), as
    /// [`Tx::save_analysis`] stored them.
    pub fn analysis(&self, game_id: i64) -> StoreResult<Option<(String, String)>> {
        self.c().opt(
            "SELECT evals, turning FROM analyses WHERE game_id = ?1",
            args![game_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
    }
}

impl Tx<'_> {
    /// Keeps the analysis of a game (replacing an earlier one).
    pub fn save_analysis(
        &self,
        game_id: i64,
        evals: &str,
        turning: &str,
        now: i64,
    ) -> StoreResult<()> {
        self.c().exec(
            "INSERT INTO analyses (game_id, evals, turning, analysed_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (game_id) DO UPDATE SET evals = excluded.evals, turning = excluded.turning, analysed_at = excluded.analysed_at",
            args![game_id, evals, turning, now],
        )?;
        Ok(())
    }
}
