//! The store's work queues and bookkeeping: the outbox with retries and dead
//! letters, the computer's jobs, the scheduler's quarantine, the action log
//! for cooldowns, the counting queries behind the caps, and pruning.

use super::sql::args;

use super::rows::{Backlog, DeadlineRow, OutboxRow, QuarantineRow};
use super::{Reader, StoreResult, Tx};

/// The first retry of a notice comes this many seconds after its failure;
/// each further failure doubles the wait.
pub const OUTBOX_BACKOFF_BASE: i64 = 30;
/// The longest wait between two attempts (6 hours).
pub const OUTBOX_BACKOFF_CAP: i64 = 6 * 3600;
/// After this many failed attempts a notice becomes a dead letter.
pub const OUTBOX_MAX_ATTEMPTS: i64 = 8;

/// Longest error text kept in the outbox or the quarantine.
const MAX_ERROR_CHARS: usize = 500;

/// Seconds to wait before the next attempt after the `attempts`-th failure
/// (1-based): 30 s, 60 s, 120 s, ... capped at [`OUTBOX_BACKOFF_CAP`].
#[must_use]
pub fn outbox_backoff(attempts: i64) -> i64 {
    let doublings = u32::try_from(attempts.saturating_sub(1).clamp(0, 30)).unwrap_or(30);
    OUTBOX_BACKOFF_BASE
        .saturating_mul(1_i64 << doublings)
        .min(OUTBOX_BACKOFF_CAP)
}

fn short(error: &str) -> String {
    error.chars().take(MAX_ERROR_CHARS).collect()
}

read_queries! {
    /// Notices due at `now` (not dead), oldest first, at most `limit`.
    pub fn due_outbox(&self, now: i64, limit: usize) -> StoreResult<Vec<OutboxRow>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.c().all(
            &format!(
                "SELECT {} FROM outbox WHERE dead = 0 AND next_attempt_at <= ?1 ORDER BY id LIMIT ?2",
                OutboxRow::COLUMNS
            ),
            args![now, limit],
            OutboxRow::from_row,
        )
    }

    /// Notices due at `now` and computer replies queued, across processes.
    pub fn backlog(&self, now: i64) -> StoreResult<Backlog> {
        let due_notices = self.c().value(
            "SELECT COUNT(*) FROM outbox WHERE dead = 0 AND next_attempt_at <= ?1",
            args![now],
        )?;
        let pending_computer_replies = self.c().value("SELECT COUNT(*) FROM computer_jobs", &[])?;
        Ok(Backlog {
            due_notices,
            pending_computer_replies,
        })
    }

    /// One outbox row (due or not, dead or not).
    pub fn outbox_row(&self, id: i64) -> StoreResult<Option<OutboxRow>> {
        self.c().opt(
            &format!("SELECT {} FROM outbox WHERE id = ?1", OutboxRow::COLUMNS),
            args![id],
            OutboxRow::from_row,
        )
    }

    /// The dead letters, oldest first.
    pub fn dead_letters(&self) -> StoreResult<Vec<OutboxRow>> {
        self.c().all(
            &format!("SELECT {} FROM outbox WHERE dead = 1 ORDER BY id", OutboxRow::COLUMNS),
            &[],
            OutboxRow::from_row,
        )
    }

    /// Every queued computer job: (game id, ply it answers), oldest first.
    pub fn computer_jobs(&self) -> StoreResult<Vec<(i64, i64)>> {
        self.c().all("SELECT game_id, ply FROM computer_jobs ORDER BY created_at, game_id", &[], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
    }

    /// Open challenges made by `user`.
    pub fn open_challenges_by(&self, user: i64) -> StoreResult<i64> {
        self.c().value(
            "SELECT COUNT(*) FROM challenges WHERE challenger = ?1 AND status = 'open'",
            args![user],
        )
    }

    /// Open challenges from `challenger` addressed to `challenged`.
    pub fn open_challenges_between(&self, challenger: i64, challenged: i64) -> StoreResult<i64> {
        self.c().value(
            "SELECT COUNT(*) FROM challenges WHERE challenger = ?1 AND challenged = ?2 AND status = 'open'",
            args![challenger, challenged],
        )
    }

    /// Active games of `user` against people (games against the computer,
    /// whose player ids are negative, are not counted).
    pub fn active_game_count(&self, user: i64) -> StoreResult<i64> {
        self.c().value(
            "SELECT COUNT(*) FROM games WHERE status = 'active' AND (sente = ?1 OR gote = ?1)
               AND sente >= 0 AND gote >= 0",
            args![user],
        )
    }

    /// Active games of `user` against the computer.
    pub fn active_computer_games(&self, user: i64) -> StoreResult<i64> {
        self.c().value(
            "SELECT COUNT(*) FROM games WHERE status = 'active' AND (sente = ?1 OR gote = ?1)
               AND (sente < 0 OR gote < 0)",
            args![user],
        )
    }

    /// How often `user` did `kind` at or after `since`.
    pub fn actions_since(&self, user: i64, kind: &str, since: i64) -> StoreResult<i64> {
        self.c().value(
            "SELECT COUNT(*) FROM actions WHERE user_id = ?1 AND kind = ?2 AND at >= ?3",
            args![user, kind, since],
        )
    }

    /// When `user` last did `kind` (within the retention period).
    pub fn last_action(&self, user: i64, kind: &str) -> StoreResult<Option<i64>> {
        self.c().value(
            "SELECT MAX(at) FROM actions WHERE user_id = ?1 AND kind = ?2",
            args![user, kind],
        )
    }

    /// The quarantined items (not released), most recent failure first.
    pub fn quarantined(&self) -> StoreResult<Vec<QuarantineRow>> {
        self.c().all(
            &format!(
                "SELECT {} FROM quarantine WHERE released = 0 ORDER BY last_at DESC, kind, ref_id",
                QuarantineRow::COLUMNS
            ),
            &[],
            QuarantineRow::from_row,
        )
    }

    /// Whether the item is quarantined.
    pub fn is_quarantined(&self, kind: &str, ref_id: i64) -> StoreResult<bool> {
        Ok(self
            .c()
            .opt(
                "SELECT 1 FROM quarantine WHERE kind = ?1 AND ref_id = ?2 AND released = 0",
                args![kind, ref_id],
                |_| Ok(()),
            )?
            .is_some())
    }

    /// The ids of the quarantined items of one kind.
    pub fn quarantined_ids(&self, kind: &str) -> StoreResult<Vec<i64>> {
        self.c().all(
            "SELECT ref_id FROM quarantine WHERE kind = ?1 AND released = 0 ORDER BY ref_id",
            args![kind],
            |r| r.get(0),
        )
    }

    /// Ids of active games whose deadline is at or before `now`, earliest first.
    pub fn overdue_game_ids(&self, now: i64) -> StoreResult<Vec<i64>> {
        self.c().all(
            "SELECT id FROM games WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= ?1
             ORDER BY deadline, id",
            args![now],
            |r| r.get(0),
        )
    }

    /// Ids of open challenges that expired at or before `now`.
    pub fn expired_challenge_ids(&self, now: i64) -> StoreResult<Vec<i64>> {
        self.c().all(
            "SELECT id FROM challenges WHERE status = 'open' AND expires_at <= ?1 ORDER BY expires_at, id",
            args![now],
            |r| r.get(0),
        )
    }

    /// Active games with a deadline and a reminder still to send.
    pub fn deadline_rows(&self) -> StoreResult<Vec<DeadlineRow>> {
        self.c().all(
            "SELECT id, days_per_move, deadline, reminded FROM games
             WHERE status = 'active' AND deadline IS NOT NULL AND reminded < 3 ORDER BY deadline, id",
            &[],
            |r| {
                Ok(DeadlineRow {
                    game_id: r.get(0)?,
                    days_per_move: r.get(1)?,
                    deadline: r.get(2)?,
                    reminded: r.get(3)?,
                })
            },
        )
    }

    /// Ids of active games against the computer that did not change since
    /// `before` (no move, no takeback).
    pub fn idle_computer_game_ids(&self, before: i64) -> StoreResult<Vec<i64>> {
        self.c().all(
            "SELECT id FROM games WHERE status = 'active' AND (sente < 0 OR gote < 0) AND updated_at <= ?1
             ORDER BY updated_at, id",
            args![before],
            |r| r.get(0),
        )
    }
}

impl Tx<'_> {
    /// Adds a notice due at `due_at` and returns its id.
    pub fn push_outbox_due(&self, payload: &str, now: i64, due_at: i64) -> StoreResult<i64> {
        self.c().value(
            "INSERT INTO outbox (payload, created_at, next_attempt_at) VALUES (?1, ?2, ?3) RETURNING id",
            args![payload, now, due_at],
        )
    }

    /// Adds a notice due at once and returns its id.
    pub fn push_outbox(&self, payload: &str, now: i64) -> StoreResult<i64> {
        self.push_outbox_due(payload, now, now)
    }

    /// Removes a delivered (or no longer relevant) notice.
    pub fn ack_outbox(&self, id: i64) -> StoreResult<()> {
        self.c()
            .exec("DELETE FROM outbox WHERE id = ?1", args![id])?;
        Ok(())
    }

    /// Hands a notice out until `until`: it is not due again before then
    /// unless it is acknowledged, failed or released first.
    pub fn lease_outbox(&self, id: i64, until: i64) -> StoreResult<()> {
        self.c().exec(
            "UPDATE outbox SET next_attempt_at = ?2 WHERE id = ?1",
            args![id, until],
        )?;
        Ok(())
    }

    /// Claims a notice that is due at `now` for this process until `until`;
    /// false when it is not due (any more): another process claimed it, or
    /// it was delivered or became a dead letter. On PostgreSQL a concurrent
    /// claim waits for the first and then finds it taken, so exactly one
    /// process delivers each notice.
    pub fn claim_outbox(&self, id: i64, now: i64, until: i64) -> StoreResult<bool> {
        let n = self.c().exec(
            "UPDATE outbox SET next_attempt_at = ?3 WHERE id = ?1 AND dead = 0 AND next_attempt_at <= ?2",
            args![id, now, until],
        )?;
        Ok(n == 1)
    }

    /// Records a failed delivery: the notice is retried after
    /// [`outbox_backoff`], or becomes a dead letter when the failure is
    /// `permanent` or this was attempt [`OUTBOX_MAX_ATTEMPTS`]. Returns
    /// whether it is dead now (false also when there is no such notice).
    pub fn outbox_failed(
        &self,
        id: i64,
        error: &str,
        now: i64,
        permanent: bool,
    ) -> StoreResult<bool> {
        let Some(attempts) = self.c().opt(
            "SELECT attempts FROM outbox WHERE id = ?1",
            args![id],
            |r| r.get::<i64>(0),
        )?
        else {
            return Ok(false);
        };
        let attempts = attempts.saturating_add(1);
        let dead = permanent || attempts >= OUTBOX_MAX_ATTEMPTS;
        self.c().exec(
            "UPDATE outbox SET attempts = ?2, last_error = ?3, dead = ?4, next_attempt_at = ?5 WHERE id = ?1",
            args![id, attempts, short(error), dead, now.saturating_add(outbox_backoff(attempts))],
        )?;
        Ok(dead)
    }

    /// Makes a notice due at `now` again, a dead letter included (its
    /// attempts are kept). False if there is no such notice.
    pub fn release_outbox(&self, id: i64, now: i64) -> StoreResult<bool> {
        let n = self.c().exec(
            "UPDATE outbox SET dead = 0, next_attempt_at = ?2 WHERE id = ?1",
            args![id, now],
        )?;
        Ok(n == 1)
    }

    /// Queues the computer's reply to `ply` of `game_id`. Idempotent: the
    /// same job again changes nothing; a job for another ply replaces the
    /// game's job (and its claim).
    pub fn enqueue_computer_job(&self, game_id: i64, ply: i64, now: i64) -> StoreResult<()> {
        self.c().exec(
            "INSERT INTO computer_jobs (game_id, ply, created_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (game_id) DO UPDATE SET ply = excluded.ply, created_at = excluded.created_at,
                claimed_until = NULL
             WHERE computer_jobs.ply <> excluded.ply",
            args![game_id, ply, now],
        )?;
        Ok(())
    }

    /// Claims up to `limit` jobs that are unclaimed or whose claim expired,
    /// oldest first, until `now + lease_secs`: (game id, ply). Jobs another
    /// process is claiming at this moment are skipped, not waited for.
    pub fn claim_computer_jobs(
        &self,
        now: i64,
        lease_secs: i64,
        limit: usize,
    ) -> StoreResult<Vec<(i64, i64)>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let jobs: Vec<(i64, i64)> = self.c().all(
            &format!(
                "SELECT game_id, ply FROM computer_jobs WHERE claimed_until IS NULL OR claimed_until <= ?1
                 ORDER BY created_at, game_id LIMIT ?2{}",
                self.c().skip_locked()
            ),
            args![now, limit],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let mut claimed = Vec::with_capacity(jobs.len());
        for (game_id, ply) in jobs {
            let n = self.c().exec(
                "UPDATE computer_jobs SET claimed_until = ?2
                 WHERE game_id = ?1 AND (claimed_until IS NULL OR claimed_until <= ?3)",
                args![game_id, now.saturating_add(lease_secs), now],
            )?;
            if n == 1 {
                claimed.push((game_id, ply));
            }
        }
        Ok(claimed)
    }

    /// Removes the game's job (done, or no longer needed).
    pub fn finish_computer_job(&self, game_id: i64) -> StoreResult<()> {
        self.c().exec(
            "DELETE FROM computer_jobs WHERE game_id = ?1",
            args![game_id],
        )?;
        Ok(())
    }

    /// Logs that `user` did `kind` at `now` (for cooldowns and rate limits).
    pub fn record_action(&self, user: i64, kind: &str, now: i64) -> StoreResult<()> {
        self.c().exec(
            "INSERT INTO actions (user_id, kind, at) VALUES (?1, ?2, ?3)",
            args![user, kind, now],
        )?;
        Ok(())
    }

    /// Forgets answered request ids older than `before`; returns how many.
    pub fn prune_requests(&self, before: i64) -> StoreResult<usize> {
        self.c()
            .exec("DELETE FROM requests WHERE at < ?1", args![before])
    }

    /// Forgets logged actions older than `before`; returns how many.
    pub fn prune_actions(&self, before: i64) -> StoreResult<usize> {
        self.c()
            .exec("DELETE FROM actions WHERE at < ?1", args![before])
    }

    /// Quarantines an item (again, after a release) and returns how often it
    /// has failed in all.
    pub fn quarantine(&self, kind: &str, ref_id: i64, error: &str, now: i64) -> StoreResult<i64> {
        self.c().value(
            "INSERT INTO quarantine (kind, ref_id, error, count, first_at, last_at) VALUES (?1, ?2, ?3, 1, ?4, ?4)
             ON CONFLICT (kind, ref_id) DO UPDATE SET error = excluded.error, count = quarantine.count + 1,
                last_at = excluded.last_at, released = 0
             RETURNING count",
            args![kind, ref_id, short(error), now],
        )
    }

    /// Takes an item out of quarantine (it is tried again; its failures
    /// stay counted); false if it was not quarantined.
    pub fn release_quarantine(&self, kind: &str, ref_id: i64) -> StoreResult<bool> {
        let n = self.c().exec(
            "UPDATE quarantine SET released = 1 WHERE kind = ?1 AND ref_id = ?2 AND released = 0",
            args![kind, ref_id],
        )?;
        Ok(n == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn backoff_doubles_from_thirty_seconds_up_to_six_hours() {
        assert_eq!(outbox_backoff(1), 30);
        assert_eq!(outbox_backoff(2), 60);
        assert_eq!(outbox_backoff(3), 120);
        assert_eq!(outbox_backoff(7), 30 * 64);
        // 30 s × 2^9 = 15 360 s is under the cap of 21 600 s; × 2^10 is past it.
        assert_eq!(outbox_backoff(10), 15_360);
        assert_eq!(outbox_backoff(11), OUTBOX_BACKOFF_CAP);
        assert_eq!(outbox_backoff(1000), OUTBOX_BACKOFF_CAP);
        assert_eq!(outbox_backoff(0), 30);
        assert_eq!(outbox_backoff(-5), 30);
    }

    #[test]
    fn a_notice_is_retried_with_backoff_and_dies_after_the_last_attempt() {
        let s = Store::open_in_memory().unwrap();
        let id = s.transaction(|tx| tx.push_outbox("{}", 100)).unwrap();
        let mut now = 100;
        for attempt in 1..OUTBOX_MAX_ATTEMPTS {
            let due = s.read(|r| r.due_outbox(now, 10)).unwrap();
            assert_eq!(due.len(), 1, "attempt {attempt}");
            assert_eq!(due[0].attempts, attempt - 1);
            let dead = s
                .transaction(|tx| tx.outbox_failed(id, "502", now, false))
                .unwrap();
            assert!(!dead);
            assert!(s
                .read(|r| r.due_outbox(now + outbox_backoff(attempt) - 1, 10))
                .unwrap()
                .is_empty());
            now += outbox_backoff(attempt);
        }
        assert_eq!(s.read(|r| r.due_outbox(now, 10)).unwrap().len(), 1);
        assert!(s
            .transaction(|tx| tx.outbox_failed(id, "502 again", now, false))
            .unwrap());
        assert!(s.read(|r| r.due_outbox(i64::MAX, 10)).unwrap().is_empty());
        let dead = s.read(|r| r.dead_letters()).unwrap();
        assert_eq!(dead.len(), 1);
        assert_eq!(dead[0].attempts, OUTBOX_MAX_ATTEMPTS);
        assert_eq!(dead[0].last_error.as_deref(), Some("502 again"));
        // Released: due at once, attempts kept.
        assert!(s.transaction(|tx| tx.release_outbox(id, now)).unwrap());
        assert_eq!(
            s.read(|r| r.due_outbox(now, 10)).unwrap()[0].attempts,
            OUTBOX_MAX_ATTEMPTS
        );
        assert!(!s.transaction(|tx| tx.release_outbox(id + 1, now)).unwrap());
    }

    #[test]
    fn a_permanent_failure_is_a_dead_letter_at_once() {
        let s = Store::open_in_memory().unwrap();
        let a = s.transaction(|tx| tx.push_outbox("a", 1)).unwrap();
        let b = s.transaction(|tx| tx.push_outbox_due("b", 1, 50)).unwrap();
        assert_eq!(
            s.read(|r| r.due_outbox(1, 10)).unwrap().len(),
            1,
            "b is not due yet"
        );
        assert!(s
            .transaction(|tx| tx.outbox_failed(a, "403", 1, true))
            .unwrap());
        assert!(s.read(|r| r.due_outbox(49, 10)).unwrap().is_empty());
        assert_eq!(s.read(|r| r.due_outbox(50, 10)).unwrap()[0].id, b);
        assert!(!s
            .transaction(|tx| tx.outbox_failed(999, "x", 1, true))
            .unwrap());
        // A lease hides a notice until it runs out.
        s.transaction(|tx| tx.lease_outbox(b, 120)).unwrap();
        assert!(s.read(|r| r.due_outbox(119, 10)).unwrap().is_empty());
        assert_eq!(s.read(|r| r.due_outbox(120, 10)).unwrap().len(), 1);
    }

    #[test]
    fn computer_jobs_are_claimed_with_a_lease() {
        let s = Store::open_in_memory().unwrap();
        s.transaction(|tx| {
            tx.upsert_player(1, "a", 0)?;
            tx.upsert_player(-1, "komadai", 0)?;
            for _ in 0..2 {
                tx.insert_game(&crate::store::NewGame {
                    guild_id: None,
                    channel_id: None,
                    variant: "standard".into(),
                    handicap: None,
                    rule: "declaration27".into(),
                    days_per_move: 14,
                    rated: false,
                    sente: 1,
                    gote: -1,
                    start_sfen: "x".into(),
                    deadline: None,
                    created_at: 0,
                })?;
            }
            tx.enqueue_computer_job(1, 1, 10)?;
            tx.enqueue_computer_job(1, 1, 11)?; // the same job again
            tx.enqueue_computer_job(2, 3, 12)
        })
        .unwrap();
        assert_eq!(s.read(|r| r.computer_jobs()).unwrap(), vec![(1, 1), (2, 3)]);
        let claimed = s
            .transaction(|tx| tx.claim_computer_jobs(20, 60, 1))
            .unwrap();
        assert_eq!(claimed, vec![(1, 1)]);
        let claimed = s
            .transaction(|tx| tx.claim_computer_jobs(21, 60, 5))
            .unwrap();
        assert_eq!(claimed, vec![(2, 3)], "game 1 is claimed until 80");
        assert!(s
            .transaction(|tx| tx.claim_computer_jobs(79, 60, 5))
            .unwrap()
            .is_empty());
        // Enqueuing the same ply keeps the claim; the lease runs out at 80.
        s.transaction(|tx| tx.enqueue_computer_job(1, 1, 30))
            .unwrap();
        assert!(s
            .transaction(|tx| tx.claim_computer_jobs(79, 60, 5))
            .unwrap()
            .is_empty());
        assert_eq!(
            s.transaction(|tx| tx.claim_computer_jobs(80, 60, 1))
                .unwrap(),
            vec![(1, 1)]
        );
        // A job for a later ply replaces the claimed one and is free at once
        // (it is newer than game 2's, whose lease ran out at 81).
        s.transaction(|tx| tx.enqueue_computer_job(1, 3, 90))
            .unwrap();
        assert_eq!(
            s.transaction(|tx| tx.claim_computer_jobs(91, 60, 5))
                .unwrap(),
            vec![(2, 3), (1, 3)]
        );
        s.transaction(|tx| tx.finish_computer_job(1)).unwrap();
        assert_eq!(s.read(|r| r.computer_jobs()).unwrap(), vec![(2, 3)]);
    }

    #[test]
    fn quarantine_counts_repeats_and_releases() {
        let s = Store::open_in_memory().unwrap();
        assert!(!s.read(|r| r.is_quarantined("game", 7)).unwrap());
        assert_eq!(
            s.transaction(|tx| tx.quarantine("game", 7, "bad sfen", 10))
                .unwrap(),
            1
        );
        assert_eq!(
            s.transaction(|tx| tx.quarantine("game", 7, "still bad", 20))
                .unwrap(),
            2
        );
        s.transaction(|tx| tx.quarantine("notice", 7, "json", 15))
            .unwrap();
        assert!(s.read(|r| r.is_quarantined("game", 7)).unwrap());
        assert!(!s.read(|r| r.is_quarantined("game", 8)).unwrap());
        assert_eq!(s.read(|r| r.quarantined_ids("game")).unwrap(), vec![7]);
        let list = s.read(|r| r.quarantined()).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(
            list[0],
            QuarantineRow {
                kind: "game".into(),
                ref_id: 7,
                error: "still bad".into(),
                count: 2,
                first_at: 10,
                last_at: 20
            }
        );
        assert!(s
            .transaction(|tx| tx.release_quarantine("game", 7))
            .unwrap());
        assert!(!s
            .transaction(|tx| tx.release_quarantine("game", 7))
            .unwrap());
        assert!(!s.read(|r| r.is_quarantined("game", 7)).unwrap());
        assert!(s.read(|r| r.quarantined_ids("game")).unwrap().is_empty());
        assert_eq!(s.read(|r| r.quarantined()).unwrap().len(), 1);
        // Failing again after the release: back, and the count goes on.
        assert_eq!(
            s.transaction(|tx| tx.quarantine("game", 7, "bad", 30))
                .unwrap(),
            3
        );
        assert!(s.read(|r| r.is_quarantined("game", 7)).unwrap());
    }

    #[test]
    fn actions_count_and_prune_with_the_requests() {
        let s = Store::open_in_memory().unwrap();
        s.transaction(|tx| {
            tx.record_action(1, "challenge", 100)?;
            tx.record_action(1, "challenge", 200)?;
            tx.record_action(1, "hint", 250)?;
            tx.record_action(2, "challenge", 300)?;
            tx.remember_request("old", "1:1", 100)?;
            tx.remember_request("new", "1:2", 300)
        })
        .unwrap();
        s.peek(|r| {
            assert_eq!(r.actions_since(1, "challenge", 0).unwrap(), 2);
            assert_eq!(r.actions_since(1, "challenge", 150).unwrap(), 1);
            assert_eq!(r.actions_since(1, "challenge", 201).unwrap(), 0);
            assert_eq!(r.last_action(1, "challenge").unwrap(), Some(200));
            assert_eq!(r.last_action(1, "resign").unwrap(), None);
        })
        .unwrap();
        assert_eq!(s.transaction(|tx| tx.prune_actions(200)).unwrap(), 1);
        assert_eq!(s.transaction(|tx| tx.prune_requests(200)).unwrap(), 1);
        s.peek(|r| {
            assert_eq!(r.actions_since(1, "challenge", 0).unwrap(), 1);
            assert_eq!(r.answered("old").unwrap(), None);
            assert_eq!(r.answered("new").unwrap().as_deref(), Some("1:2"));
        })
        .unwrap();
    }
}
