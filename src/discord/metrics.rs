//! What the adapter measures, through the `metrics` facade, rendered in
//! Prometheus' text format for `/metrics` by a [`PrometheusHandle`] (no
//! listener of the exporter's own: the route is ours). The gateway and the
//! HTTP endpoint record through the same calls.
//!
//! - `komadai_interactions_total{kind, command, outcome}`: interactions
//!   handled; `kind` is `command`, `component` or `autocomplete` (or
//!   `unknown` for a request refused before it was read), `outcome` one of
//!   [`Outcome`].
//! - `komadai_interaction_seconds{kind}`: time from receiving an interaction
//!   to its answer being sent (histogram).
//! - `komadai_notices_in_delivery`: outbox notices this process is
//!   delivering right now (gauge, set by the delivery loop).
//! - `komadai_computer_replies_total`: computer moves played by the worker.
//!
//! Read from the app at each scrape ([`record_status`]):
//! - `komadai_due_notices`, `komadai_pending_computer_replies`: work
//!   waiting in the shared database (the same for every process);
//! - `komadai_engine_jobs{pool, state}`: engine jobs `running` or `queued`
//!   in this process's `game` and `analysis` pools, and
//!   `komadai_engine_threads{pool}`;
//! - `komadai_db_connections{state}`: this process's connections `in_use`
//!   or `idle`; `komadai_db_waits_total` and
//!   `komadai_db_wait_microseconds_total`: how often and how long a caller
//!   waited for one;
//! - `komadai_status_errors_total`: scrapes whose database read failed.

use std::sync::OnceLock;
use std::time::Duration;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// How an interaction ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The use case succeeded and was answered.
    Ok,
    /// A user mistake, answered with a localised refusal.
    Refused,
    /// An internal error (or a panic), answered with an apology.
    InternalError,
    /// Shutdown overtook it; answered "restarting".
    Restarting,
    /// The answer could not be sent.
    Unanswered,
    /// An HTTP request without a valid signature (refused with 401).
    BadSignature,
}

impl Outcome {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Refused => "refused",
            Outcome::InternalError => "internal_error",
            Outcome::Restarting => "restarting",
            Outcome::Unanswered => "unanswered",
            Outcome::BadSignature => "bad_signature",
        }
    }
}

/// Histogram buckets of the interaction latency, in seconds: Discord's
/// limits (the 3 s of the first answer) sit between them.
const LATENCY_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0,
];

/// The process-wide recorder, installed on first use. `None` when another
/// recorder was installed first (an embedding program's own).
pub(crate) fn handle() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full("komadai_interaction_seconds".into()),
                    LATENCY_BUCKETS,
                )
                .ok()?;
            match builder.install_recorder() {
                Ok(h) => Some(h),
                Err(e) => {
                    tracing::warn!(error = %e, "no metrics: another recorder is installed");
                    None
                }
            }
        })
        .as_ref()
}

/// The metrics in Prometheus' text format (empty without a recorder).
pub(crate) fn render() -> String {
    handle().map_or_else(String::new, |h| {
        h.run_upkeep();
        h.render()
    })
}

/// A label value from user-controlled text: at most 32 characters of
/// `[a-z0-9_-]`, so odd custom ids cannot blow up the label set.
pub(crate) fn bounded(s: &str) -> String {
    let v: String = s
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
        .take(32)
        .collect::<String>()
        .to_ascii_lowercase();
    if v.is_empty() {
        "other".into()
    } else {
        v
    }
}

/// One interaction handled.
pub(crate) fn interaction(kind: &'static str, command: &str, outcome: Outcome, took: Duration) {
    metrics::counter!(
        "komadai_interactions_total",
        "kind" => kind,
        "command" => command.to_string(),
        "outcome" => outcome.label()
    )
    .increment(1);
    metrics::histogram!("komadai_interaction_seconds", "kind" => kind).record(took.as_secs_f64());
}

/// A request refused for its signature.
pub(crate) fn bad_signature() {
    metrics::counter!(
        "komadai_interactions_total",
        "kind" => "unknown",
        "command" => "none",
        "outcome" => Outcome::BadSignature.label()
    )
    .increment(1);
}

/// Notices being delivered by this process right now.
pub(crate) fn notices_in_delivery(n: usize) {
    metrics::gauge!("komadai_notices_in_delivery").set(n as f64);
}

/// The app's status, as gauges (and the two wait counters, which the store
/// keeps as running totals).
pub(crate) fn record_status(status: &crate::app::Status) {
    metrics::gauge!("komadai_due_notices").set(status.backlog.due_notices as f64);
    metrics::gauge!("komadai_pending_computer_replies")
        .set(status.backlog.pending_computer_replies as f64);
    for (pool, load) in [("game", status.engine), ("analysis", status.analysis)] {
        metrics::gauge!("komadai_engine_threads", "pool" => pool).set(load.threads as f64);
        metrics::gauge!("komadai_engine_jobs", "pool" => pool, "state" => "running")
            .set(load.running as f64);
        metrics::gauge!("komadai_engine_jobs", "pool" => pool, "state" => "queued")
            .set(load.queued as f64);
    }
    let db = status.db;
    metrics::gauge!("komadai_db_connections", "state" => "in_use").set(f64::from(db.in_use));
    metrics::gauge!("komadai_db_connections", "state" => "idle").set(f64::from(db.idle));
    metrics::counter!("komadai_db_waits_total").absolute(db.waits);
    // The facade's counters are integers: the time waited in microseconds.
    metrics::counter!("komadai_db_wait_microseconds_total")
        .absolute((db.wait_seconds * 1e6).round() as u64);
}

/// A scrape whose status read failed (the other metrics still go out).
pub(crate) fn status_error() {
    metrics::counter!("komadai_status_errors_total").increment(1);
}

/// Computer replies played.
pub(crate) fn computer_replies(n: usize) {
    metrics::counter!("komadai_computer_replies_total").increment(n as u64);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_from_user_text_are_bounded() {
        assert_eq!(bounded("move"), "move");
        assert_eq!(bounded("Accept"), "accept");
        assert_eq!(bounded("a\"b}c\n"), "abc");
        assert_eq!(bounded(""), "other");
        assert_eq!(bounded(&"x".repeat(100)).len(), 32);
    }

    #[test]
    fn recorded_interactions_are_rendered() {
        assert!(handle().is_some());
        interaction(
            "command",
            "unit-test-cmd",
            Outcome::Refused,
            Duration::from_millis(3),
        );
        let text = render();
        assert!(
            text.contains(
                "komadai_interactions_total{kind=\"command\",command=\"unit-test-cmd\",outcome=\"refused\"} 1"
            ),
            "{text}"
        );
        assert!(
            text.contains("komadai_interaction_seconds_bucket"),
            "{text}"
        );
    }
}
