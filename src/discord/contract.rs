//! The app calls the adapter makes about work that outlives one interaction
//! (the outbox with attempts and backoff, the announcements of a public
//! reply, the computer's jobs, shutdown), gathered in one place so the
//! delivery loop and the handler depend on nothing else of how they work.

use std::sync::Arc;

use crate::app::{App, AppResult, Reply, Status};

pub(crate) use crate::app::DueNotice;

/// The outbox as the delivery loop sees it.
pub(crate) struct Outbox {
    app: Arc<App>,
}

impl Outbox {
    pub(crate) fn new(app: Arc<App>) -> Outbox {
        Outbox { app }
    }

    /// One scheduler step (deadlines, reminders, expiries).
    pub(crate) fn tick(&self) -> AppResult<usize> {
        self.app.tick()
    }

    /// Up to `limit` notices that are due (leased to this process while it
    /// delivers them).
    pub(crate) fn due(&self, limit: usize) -> AppResult<Vec<DueNotice>> {
        self.app.due_notices(limit)
    }

    /// Delivered.
    pub(crate) fn ack(&self, id: i64) -> AppResult<()> {
        self.app.ack_notice(id)
    }

    /// Not delivered; `permanent`: it never will be (a dead letter at once),
    /// else retried with backoff until it becomes one.
    pub(crate) fn failed(&self, id: i64, error: &str, permanent: bool) -> AppResult<()> {
        self.app.notice_failed(id, error, permanent)
    }

    /// Due again at once (its announcement could not be posted).
    pub(crate) fn release(&self, id: i64) -> AppResult<()> {
        self.app.release_notice(id)
    }
}

/// The outbox ids of the notices repeating this public reply.
pub(crate) fn announcements(reply: &Reply) -> Vec<i64> {
    reply.announcements.clone()
}

/// Plays the computer's replies that are due; how many were played.
pub(crate) fn run_computer_jobs(app: &App) -> AppResult<usize> {
    app.run_computer_jobs()
}

/// Stops every running search and drops queued engine work.
pub(crate) fn shutdown_app(app: &App) {
    app.shutdown();
}

/// A trivial read of the database (`/healthz`): an error says why it failed.
pub(crate) fn health(app: &App) -> AppResult<()> {
    app.game_channel(0).map(drop)
}

/// What `/metrics` reports beside the counters: backlog, engine and
/// database pools.
pub(crate) fn status(app: &App) -> AppResult<Status> {
    app.status()
}
