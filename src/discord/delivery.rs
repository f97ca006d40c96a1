//! Getting messages out when Discord misbehaves: what a failed REST call
//! means (retry, fall back, give up), short in-call retries that honour
//! rate limits, and the delivery of one outbox notice — DM first when the
//! player asked for it, then the game's thread, then its channel.

use std::future::Future;
use std::time::{Duration, Instant};

use serenity::all::{ChannelId, Http, UserId};

use super::contract::DueNotice;
use super::handler::Bot;
use super::out::Outgoing;
use super::text;

/// Pause after a 429 whose `retry_after` is unknown. (With serenity's own
/// rate limiter — production — 429s are waited out inside serenity; behind a
/// REST proxy serenity drops the error body, so the value is not visible.)
const RATE_LIMIT_PAUSE: Duration = Duration::from_millis(1000);
/// First pause after a server error; doubled on each retry.
const SERVER_ERROR_PAUSE: Duration = Duration::from_millis(250);

/// What a failed REST call means for the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// 429: try again after this long.
    RateLimited(Duration),
    /// 5xx or the connection failed: try again later.
    Transient,
    /// The place is gone or closed to the bot (404 Unknown Channel, 403
    /// Missing Access, ...): try the next place, never this one again.
    Gone,
    /// 50007: the user does not accept direct messages.
    CannotDm,
    /// Anything else the request itself is wrong for (400, an expired
    /// interaction token): retrying changes nothing.
    Refused,
}

/// Discord's error code for "cannot send messages to this user".
pub(crate) const CANNOT_DM: isize = 50007;

/// What an HTTP status and Discord error code mean.
pub(crate) fn classify_status(status: u16, code: isize) -> Failure {
    match (status, code) {
        (_, CANNOT_DM) => Failure::CannotDm,
        (429, _) => Failure::RateLimited(RATE_LIMIT_PAUSE),
        (s, _) if s >= 500 => Failure::Transient,
        (403 | 404, _) => Failure::Gone,
        _ => Failure::Refused,
    }
}

/// Classifies a failed request.
pub(crate) fn classify(e: &serenity::Error) -> Failure {
    match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            classify_status(r.status_code.as_u16(), r.error.code)
        }
        serenity::Error::Http(serenity::http::HttpError::Request(_)) | serenity::Error::Io(_) => {
            Failure::Transient
        }
        _ => Failure::Refused,
    }
}

/// Runs `call` until it succeeds, fails for good, or `budget` would be
/// exceeded: a 429 is retried after its pause, a 5xx after a short,
/// doubling pause.
pub(crate) async fn with_retries<T, F, Fut>(budget: Duration, call: F) -> serenity::Result<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = serenity::Result<T>>,
{
    retry_by(budget, classify, call).await
}

/// [`with_retries`] for any error, classified by `kind`.
async fn retry_by<T, E, F, Fut>(
    budget: Duration,
    kind: fn(&E) -> Failure,
    mut call: F,
) -> Result<T, E>
where
    E: std::fmt::Display,
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let end = Instant::now() + budget;
    let mut pause = SERVER_ERROR_PAUSE;
    loop {
        let e = match call().await {
            Ok(v) => return Ok(v),
            Err(e) => e,
        };
        let wait = match kind(&e) {
            Failure::RateLimited(d) => d,
            Failure::Transient => {
                let p = pause;
                pause *= 2;
                p
            }
            Failure::Gone | Failure::CannotDm | Failure::Refused => return Err(e),
        };
        if Instant::now() + wait > end {
            return Err(e);
        }
        tracing::debug!(error = %e, wait_ms = wait.as_millis() as u64, "retrying a REST call");
        tokio::time::sleep(wait).await;
    }
}

/// How long one delivery attempt may retry a single REST call.
const CALL_BUDGET: Duration = Duration::from_secs(5);

/// Posts `out` in `channel` with retries.
pub(crate) async fn post(http: &Http, channel: i64, out: &Outgoing) -> serenity::Result<()> {
    let ch = ChannelId::new(u64::try_from(channel).unwrap_or(1).max(1));
    with_retries(CALL_BUDGET, || ch.send_message(http, out.message()))
        .await
        .map(drop)
}

/// Sends `out` to `user` as a direct message with retries.
pub(crate) async fn direct(http: &Http, user: i64, out: &Outgoing) -> serenity::Result<()> {
    let uid = UserId::new(u64::try_from(user).unwrap_or(1).max(1));
    with_retries(CALL_BUDGET, || uid.direct_message(http, out.message()))
        .await
        .map(drop)
}

/// Posts `out` in the first of `places` that takes it. `Ok(Some(place))`:
/// posted there; `Ok(None)`: every place is gone; `Err`: a failure worth
/// retrying later.
pub(crate) async fn post_first(
    http: &Http,
    places: &[i64],
    out: &Outgoing,
) -> Result<Option<i64>, (Failure, String)> {
    for &place in places {
        match post(http, place, out).await {
            Ok(()) => return Ok(Some(place)),
            Err(e) => match classify(&e) {
                Failure::Gone | Failure::Refused => {
                    tracing::info!(place, error = %e, "place gone, trying the next one");
                }
                f => return Err((f, e.to_string())),
            },
        }
    }
    Ok(None)
}

/// Opens a thread for game `game_id` in `channel`, stores it and posts
/// `out` there. `Ok(false)`: no thread can be opened there (no permission,
/// not a text channel), post in the channel instead; `Err`: a failure worth
/// retrying later.
async fn post_in_new_thread(
    bot: &Bot,
    http: &Http,
    channel: i64,
    game_id: i64,
    name: &str,
    out: &Outgoing,
) -> Result<bool, String> {
    use serenity::all::{AutoArchiveDuration, ChannelType, CreateThread};
    let ch = ChannelId::new(u64::try_from(channel).unwrap_or(1).max(1));
    let builder = CreateThread::new(name)
        .kind(ChannelType::PublicThread)
        .auto_archive_duration(AutoArchiveDuration::OneWeek);
    let thread = match with_retries(CALL_BUDGET, || ch.create_thread(http, builder.clone())).await {
        Ok(t) => t,
        Err(e) => {
            return match classify(&e) {
                Failure::RateLimited(_) | Failure::Transient => Err(e.to_string()),
                _ => {
                    tracing::info!(game_id, error = %e, "no thread for the league game, using the channel");
                    Ok(false)
                }
            }
        }
    };
    let thread_id = i64::try_from(thread.id.get()).unwrap_or(i64::MAX);
    let app = bot.app.clone();
    let stored = tokio::task::spawn_blocking(move || app.set_game_thread(game_id, thread_id)).await;
    if !matches!(stored, Ok(Ok(()))) {
        tracing::error!(game_id, "could not store the league game's thread");
    }
    match post(http, thread_id, out).await {
        Ok(()) => Ok(true),
        Err(e) => match classify(&e) {
            Failure::RateLimited(_) | Failure::Transient => Err(e.to_string()),
            // The thread refuses the post: the channel gets it.
            _ => Ok(false),
        },
    }
}

/// What has been done for a notice in an earlier attempt of this process
/// (so a retry does not repeat a leg that worked).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Legs {
    pub dm_done: bool,
    pub public_done: bool,
}

/// Delivers one notice: the DM leg (if asked for), then the public post in
/// the thread or channel; acknowledges, or reports the failure to the
/// outbox. Never panics; a failure here concerns only this notice.
pub(crate) async fn deliver(bot: &Bot, http: &Http, n: DueNotice) {
    let id = n.id;
    let legs = bot.legs(id);
    let reply = n.reply.clone();
    let rendered =
        tokio::task::spawn_blocking(move || super::handler::render_or_fallback(&reply)).await;
    let out = match rendered {
        Ok(out) => out,
        Err(e) => {
            bot.outbox_call(move |o| o.failed(id, &format!("rendering: {e}"), false))
                .await;
            return;
        }
    };
    let mut legs = legs;
    let mut note: Option<Outgoing> = None;
    if let (Some(user), false) = (n.dm, legs.dm_done) {
        let mut dm = out.clone();
        dm.buttons.clear();
        dm.mentions.clear();
        if let Some(&place) = n.places.first() {
            let lang = bot.lang_of(user).await;
            dm.content = format!(
                "{}\n{}",
                dm.content,
                text::dm_link(lang, u64::try_from(place).unwrap_or(0))
            );
        }
        match direct(http, user, &dm).await {
            Ok(()) => legs.dm_done = true,
            Err(e) => match classify(&e) {
                Failure::CannotDm => {
                    legs.dm_done = true;
                    if let Some(lang) = bot.dms_failed(user).await {
                        let uid = u64::try_from(user).unwrap_or(0);
                        note = Some(Outgoing {
                            mentions: vec![uid],
                            ..Outgoing::text(&text::dm_failed(lang, uid), false)
                        });
                    }
                }
                Failure::Gone | Failure::Refused => {
                    tracing::info!(notice = id, error = %e, "DM undeliverable, skipped");
                    legs.dm_done = true;
                }
                Failure::RateLimited(_) | Failure::Transient => {
                    tracing::warn!(notice = id, error = %e, "DM failed, will retry");
                }
            },
        }
    }
    if let Some(note) = &note {
        if let Err((_, e)) = post_first(http, &n.places, note).await {
            tracing::warn!(notice = id, error = %e, "the DM note could not be posted");
        }
    }
    let mut gone = false;
    let mut error = String::new();
    if let (Some((game_id, name)), Some(&channel), false) =
        (&n.thread, n.places.first(), legs.public_done)
    {
        // A league game: its own thread, as a game accepted by a member gets.
        match post_in_new_thread(bot, http, channel, *game_id, name, &out).await {
            Ok(true) => legs.public_done = true,
            Ok(false) => {}
            Err(e) => error = e,
        }
    }
    if !legs.public_done && error.is_empty() {
        match post_first(http, &n.places, &out).await {
            Ok(Some(_)) => legs.public_done = true,
            Ok(None) => {
                gone = !n.places.is_empty();
                legs.public_done = n.places.is_empty();
                error = "every place of the notice is gone".into();
            }
            Err((_, e)) => error = e,
        }
    }
    if legs.public_done && (legs.dm_done || n.dm.is_none()) {
        bot.forget_legs(id);
        bot.outbox_call(move |o| o.ack(id)).await;
    } else if gone && (n.dm.is_none() || legs.dm_done) {
        // Nowhere public to say it: delivered by DM, or undeliverable.
        bot.forget_legs(id);
        if legs.dm_done && n.dm.is_some() {
            bot.outbox_call(move |o| o.ack(id)).await;
        } else {
            tracing::warn!(notice = id, notice_kind = ?n.notice, "{error}");
            bot.outbox_call(move |o| o.failed(id, &error, true)).await;
        }
    } else {
        bot.remember_legs(id, legs);
        if error.is_empty() {
            error = "the direct message failed".into();
        }
        tracing::warn!(notice = id, attempts = n.attempts + 1, "{error}");
        bot.outbox_call(move |o| o.failed(id, &error, false)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_classified_as_discord_means_them() {
        assert_eq!(classify_status(403, 50007), Failure::CannotDm);
        assert_eq!(classify_status(404, 10003), Failure::Gone);
        assert_eq!(classify_status(403, 50001), Failure::Gone);
        assert_eq!(classify_status(500, 0), Failure::Transient);
        assert_eq!(classify_status(502, 0), Failure::Transient);
        assert!(matches!(classify_status(429, 0), Failure::RateLimited(_)));
        assert!(matches!(classify_status(429, -1), Failure::RateLimited(_)));
        assert_eq!(classify_status(400, 50035), Failure::Refused);
        assert_eq!(classify_status(404, 10062), Failure::Gone);
    }

    /// A failed call: (status, code).
    #[derive(Debug)]
    struct Status(u16, isize);

    impl std::fmt::Display for Status {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{} {}", self.0, self.1)
        }
    }

    fn kind(e: &Status) -> Failure {
        classify_status(e.0, e.1)
    }

    #[tokio::test]
    async fn retries_stop_at_a_permanent_failure_and_at_the_budget() {
        let mut calls = 0;
        let r: Result<(), Status> = retry_by(Duration::from_secs(10), kind, || {
            calls += 1;
            let e = if calls < 3 {
                Status(502, 0)
            } else {
                Status(404, 10003)
            };
            async move { Err(e) }
        })
        .await;
        assert!(r.is_err());
        assert_eq!(calls, 3, "two server errors retried, the 404 not");
        let mut calls = 0;
        let r: Result<(), Status> = retry_by(Duration::from_millis(300), kind, || {
            calls += 1;
            async { Err(Status(500, 0)) }
        })
        .await;
        assert!(r.is_err());
        assert_eq!(
            calls, 2,
            "250 ms, then the next pause would pass the budget"
        );
        let mut calls = 0;
        let started = Instant::now();
        let r: Result<u8, Status> = retry_by(Duration::from_secs(5), kind, || {
            calls += 1;
            let r = if calls == 1 {
                Err(Status(429, 0))
            } else {
                Ok(7)
            };
            async move { r }
        })
        .await;
        assert_eq!(r.ok(), Some(7));
        assert!(started.elapsed() >= RATE_LIMIT_PAUSE, "waited out the 429");
    }
}
