//! Queries of the trust-at-the-edges use cases: the game of a thread, the
//! handicap-ladder mark, the oldest use in a rate-limit window, and the
//! computer's job taken by the request that stored it.

use super::sql::args;

use super::{GameRow, Reader, StoreResult, Tx};

read_queries! {
    /// The game whose thread is `thread` (a channel id), if any.
    pub fn game_in_thread(&self, thread: i64) -> StoreResult<Option<GameRow>> {
        self.c().opt(
            &format!("SELECT {} FROM games WHERE thread_id = ?1 ORDER BY id DESC LIMIT 1", GameRow::COLUMNS),
            args![thread],
            GameRow::from_row,
        )
    }

    /// Whether `game_id` is a handicap-ladder game.
    pub fn is_ladder(&self, game_id: i64) -> StoreResult<bool> {
        Ok(self
            .c()
            .opt("SELECT ladder FROM games WHERE id = ?1", args![game_id], |r| r.get(0))?
            .unwrap_or(false))
    }

    /// Finished ladder games of `user`, in the order they ended:
    /// (handicap, whether `user` won).
    pub fn ladder_results(&self, user: i64) -> StoreResult<Vec<(Option<String>, bool)>> {
        self.c().all(
            "SELECT handicap, CASE WHEN (result = 'sente' AND sente = ?1) OR (result = 'gote' AND gote = ?1) THEN 1 ELSE 0 END
             FROM games WHERE status = 'finished' AND ladder = 1 AND (sente = ?1 OR gote = ?1)
             ORDER BY finished_at, id",
            args![user],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
    }

    /// The time of `user`'s oldest `kind` action at or after `since`.
    pub fn oldest_action_since(&self, user: i64, kind: &str, since: i64) -> StoreResult<Option<i64>> {
        self.c().value(
            "SELECT MIN(at) FROM actions WHERE user_id = ?1 AND kind = ?2 AND at >= ?3",
            args![user, kind, since],
        )
    }
}

impl Tx<'_> {
    /// Marks `game_id` as a handicap-ladder game.
    pub fn set_ladder(&self, game_id: i64) -> StoreResult<()> {
        self.c()
            .exec("UPDATE games SET ladder = 1 WHERE id = ?1", args![game_id])?;
        Ok(())
    }

    /// Takes the computer's job of `game_id` for the request that is about
    /// to search it inline, until `until`, so that the worker does not
    /// search it too; false when it is claimed by someone else.
    pub fn claim_computer_job(&self, game_id: i64, now: i64, until: i64) -> StoreResult<bool> {
        let n = self.c().exec(
            "UPDATE computer_jobs SET claimed_until = ?3
             WHERE game_id = ?1 AND (claimed_until IS NULL OR claimed_until <= ?2)",
            args![game_id, now, until],
        )?;
        Ok(n == 1)
    }

    /// Gives the computer's job of `game_id` back to the worker at once
    /// (the inline search did not finish).
    pub fn release_computer_job(&self, game_id: i64) -> StoreResult<()> {
        self.c().exec(
            "UPDATE computer_jobs SET claimed_until = NULL WHERE game_id = ?1",
            args![game_id],
        )?;
        Ok(())
    }
}
