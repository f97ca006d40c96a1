//! The app calls this wave's contract gives the adapter (an outbox with
//! attempts and backoff, the announcement of a public reply, computer jobs,
//! shutdown), gathered in one place.
//!
//! Until the app side lands these are stand-ins over today's API, marked
//! `MERGE:` — each body then becomes a call of the contract method, and the
//! in-memory backoff of [`Outbox`] goes away (the store keeps attempts and
//! due times). Nothing else in the adapter depends on how they work.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::app::{App, AppResult, Notice, Reply};

/// A notice that is due, with where it goes (the contract's `DueNotice`).
#[derive(Clone, Debug)]
pub(crate) struct DueNotice {
    /// Outbox id.
    pub id: i64,
    /// What happened (for the log).
    pub notice: Notice,
    /// The message to post.
    pub reply: Reply,
    /// Where to post it: the game's thread first, then its channel.
    pub places: Vec<i64>,
    /// A user who also wants it as a direct message.
    pub dm: Option<i64>,
    /// Failed attempts so far.
    pub attempts: i64,
}

/// The outbox as the delivery loop sees it.
pub(crate) struct Outbox {
    app: Arc<App>,
    /// MERGE: remove; the store keeps `attempts` and `next_attempt_at`.
    backoff: Mutex<HashMap<i64, (Instant, i64)>>,
}

/// Longest pause between two attempts of the stand-in backoff.
const MAX_BACKOFF: Duration = Duration::from_secs(300);

impl Outbox {
    pub(crate) fn new(app: Arc<App>) -> Outbox {
        Outbox {
            app,
            backoff: Mutex::new(HashMap::new()),
        }
    }

    fn backoff(&self) -> std::sync::MutexGuard<'_, HashMap<i64, (Instant, i64)>> {
        self.backoff
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// One scheduler step (deadlines, reminders, expiries).
    pub(crate) fn tick(&self) -> AppResult<usize> {
        self.app.tick()
    }

    /// Up to `limit` notices that are due. MERGE: `self.app.due_notices(limit)`.
    pub(crate) fn due(&self, limit: usize) -> AppResult<Vec<DueNotice>> {
        let now = Instant::now();
        let mut out = Vec::new();
        for (id, notice, reply) in self.app.pending_notices()? {
            if out.len() >= limit {
                break;
            }
            let attempts = match self.backoff().get(&id) {
                Some((at, _)) if *at > now => continue,
                Some((_, n)) => *n,
                None => 0,
            };
            let (places, dm) = self.places(&notice)?;
            out.push(DueNotice {
                id,
                notice,
                reply,
                places,
                dm,
                attempts,
            });
        }
        Ok(out)
    }

    fn places(&self, notice: &Notice) -> AppResult<(Vec<i64>, Option<i64>)> {
        let (places, dm) = match notice {
            Notice::Reminder {
                game_id, player, ..
            } => {
                let row = self.app.with_store(|s| s.reader().game(*game_id))??;
                let places = row.map_or_else(Vec::new, |g| {
                    g.thread_id.into_iter().chain(g.channel_id).collect()
                });
                (places, self.app.wants_dms(*player).then_some(*player))
            }
            Notice::Timeout { game_id } => {
                let row = self.app.with_store(|s| s.reader().game(*game_id))??;
                let places = row.map_or_else(Vec::new, |g| {
                    g.thread_id.into_iter().chain(g.channel_id).collect()
                });
                (places, None)
            }
            Notice::ChallengeExpired { challenge_id, .. } => {
                let row = self
                    .app
                    .with_store(|s| s.reader().challenge(*challenge_id))??;
                (
                    row.and_then(|c| c.data.channel_id).into_iter().collect(),
                    None,
                )
            }
        };
        let mut dedup: Vec<i64> = Vec::new();
        for p in places {
            if !dedup.contains(&p) {
                dedup.push(p);
            }
        }
        Ok((dedup, dm))
    }

    /// Delivered. MERGE: `self.app.ack_notice(id)`.
    pub(crate) fn ack(&self, id: i64) -> AppResult<()> {
        self.backoff().remove(&id);
        self.app.ack_notice(id)
    }

    /// Not delivered; `permanent`: it never will be (dead letter).
    /// MERGE: `self.app.notice_failed(id, error, permanent)`.
    pub(crate) fn failed(&self, id: i64, error: &str, permanent: bool) -> AppResult<()> {
        if permanent {
            tracing::warn!(notice = id, error, "notice dropped as undeliverable");
            self.backoff().remove(&id);
            return self.app.ack_notice(id);
        }
        let mut map = self.backoff();
        let attempts = map.get(&id).map_or(0, |e| e.1) + 1;
        let pause = Duration::from_secs(1 << attempts.clamp(0, 9)).min(MAX_BACKOFF);
        map.insert(id, (Instant::now() + pause, attempts));
        Ok(())
    }

    /// Due again at once (its announcement could not be posted).
    /// MERGE: `self.app.release_notice(id)`.
    pub(crate) fn release(&self, id: i64) -> AppResult<()> {
        self.backoff().remove(&id);
        Ok(())
    }
}

/// The outbox id of the notice repeating this public reply, if the app
/// wrote one. MERGE: `reply.announcement`.
pub(crate) fn announcement(_reply: &Reply) -> Option<i64> {
    None
}

/// Plays the computer's replies that are due; how many were played.
/// MERGE: `app.run_computer_jobs()` (today the computer answers inside the move).
pub(crate) fn run_computer_jobs(_app: &App) -> AppResult<usize> {
    Ok(0)
}

/// Stops every running search and drops queued engine work.
/// MERGE: `app.shutdown()`.
pub(crate) fn shutdown_app(_app: &App) {}
