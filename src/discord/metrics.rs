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
    fn label(self) -> &'static str {
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
