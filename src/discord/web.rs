//! The HTTP server of `serve`: Discord's interactions endpoint (`POST /`,
//! with `--http`), `/healthz`, `/metrics` and the read-only game pages
//! (`/g/…`, answered by [`crate::web`]) (hyper 0.14).
//!
//! Discord signs every request it sends to the endpoint with Ed25519 over
//! `X-Signature-Timestamp` followed by the raw body; a request whose
//! signature does not verify against the application's public key is
//! refused with 401 before anything else is read from it (Discord sends such
//! a request on purpose when the endpoint URL is saved). A PING is answered
//! with a PONG; every other interaction goes through the same handler as the
//! gateway's, and its first answer becomes the body of the HTTP reply.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use ed25519_dalek::{Signature, VerifyingKey};
use futures_util::StreamExt;
use hyper::body::HttpBody;
use hyper::header::{CONTENT_LENGTH, CONTENT_TYPE};
use hyper::service::{make_service_fn, service_fn};
use hyper::{Body, Method, Request, Response, Server, StatusCode};
use serenity::all::{Http, Interaction};
use tokio::sync::oneshot;

use super::first::{BodySlot, FirstAnswer, HttpAnswer};
use super::handler::Bot;
use super::{contract, metrics, text};
use crate::app::App;
use crate::i18n::Lang;

/// Largest request body taken (Discord's interactions are a few KiB).
pub(crate) const MAX_BODY: usize = 1 << 20;
/// Discord drops an interaction not answered within 3 s; the handler defers
/// well before that, so waiting longer only holds a connection.
const ANSWER_WITHIN: Duration = Duration::from_millis(2900);

/// How long a connection may take to send a request's headers.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// The application's public key, from its hex form in the developer portal.
pub(crate) fn public_key(hex_key: &str) -> Result<VerifyingKey, String> {
    let bytes = hex::decode(hex_key.trim()).map_err(|e| format!("not hex: {e}"))?;
    let bytes: [u8; 32] = bytes
        .try_into()
        .map_err(|b: Vec<u8>| format!("{} bytes, expected 32", b.len()))?;
    VerifyingKey::from_bytes(&bytes).map_err(|e| format!("not an Ed25519 key: {e}"))
}

/// Whether `signature` (hex) signs `timestamp` followed by `body`.
pub(crate) fn verify(key: &VerifyingKey, timestamp: &str, body: &[u8], signature: &str) -> bool {
    let Ok(Ok(bytes)) = hex::decode(signature.trim()).map(<[u8; 64]>::try_from) else {
        return false;
    };
    let mut message = Vec::with_capacity(timestamp.len() + body.len());
    message.extend_from_slice(timestamp.as_bytes());
    message.extend_from_slice(body);
    key.verify_strict(&message, &Signature::from_bytes(&bytes))
        .is_ok()
}

/// The interactions endpoint: the handler, the REST client for what comes
/// after the first answer, and the key requests are checked against.
pub(crate) struct Interactions {
    pub bot: Bot,
    pub http: Arc<Http>,
    pub key: VerifyingKey,
}

/// What the server answers.
pub(crate) struct Web {
    pub app: Arc<App>,
    /// `None`: only `/healthz` and `/metrics` (beside the gateway).
    pub interactions: Option<Interactions>,
    /// True once shutdown began (`/healthz` then says so).
    pub closing: tokio::sync::watch::Receiver<bool>,
    /// With the gateway: its shards, which `/healthz` wants all connected.
    pub shards: Option<Arc<serenity::gateway::ShardManager>>,
}

/// Binds `addr` (an error now rather than a panic later) and serves until
/// `shutdown` completes; connections in flight then finish.
pub(crate) fn bind(
    addr: SocketAddr,
    web: Web,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(SocketAddr, impl Future<Output = hyper::Result<()>>), hyper::Error> {
    let web = Arc::new(web);
    let make = make_service_fn(move |_| {
        let web = web.clone();
        async move {
            Ok::<_, Infallible>(service_fn(move |req| {
                let web = web.clone();
                async move { Ok::<_, Infallible>(route(&web, req).await) }
            }))
        }
    });
    // A client that never finishes its headers is not waited for.
    let server = Server::try_bind(&addr)?
        .http1_header_read_timeout(HEADER_READ_TIMEOUT)
        .serve(make);
    let bound = server.local_addr();
    Ok((bound, server.with_graceful_shutdown(shutdown)))
}

fn plain(status: StatusCode, body: impl Into<String>) -> Response<Body> {
    let mut r = Response::new(Body::from(body.into()));
    *r.status_mut() = status;
    r.headers_mut().insert(
        CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

fn json(value: &serde_json::Value) -> Response<Body> {
    let mut r = Response::new(Body::from(value.to_string()));
    r.headers_mut().insert(
        CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    r
}

async fn route(web: &Web, req: Request<Body>) -> Response<Body> {
    if crate::web::is_page_path(req.uri().path()) {
        return crate::web::serve::handle(web.app.clone(), req).await;
    }
    match (req.method(), req.uri().path()) {
        (&Method::GET, "/healthz") => health(web).await,
        (&Method::GET, "/metrics") => {
            let app = web.app.clone();
            match tokio::task::spawn_blocking(move || contract::status(&app)).await {
                Ok(Ok(status)) => metrics::record_status(&status),
                Ok(Err(e)) => {
                    tracing::warn!(error = %e, "reading the status for /metrics failed");
                    metrics::status_error();
                }
                Err(e) => {
                    tracing::warn!(error = %e, "reading the status for /metrics panicked");
                    metrics::status_error();
                }
            }
            let mut r = plain(StatusCode::OK, metrics::render());
            r.headers_mut().insert(
                CONTENT_TYPE,
                hyper::header::HeaderValue::from_static("text/plain; version=0.0.4"),
            );
            r
        }
        (&Method::POST, "/" | "/interactions") => match &web.interactions {
            Some(ix) => interaction(ix, req).await,
            None => plain(StatusCode::NOT_FOUND, "not found"),
        },
        (_, "/healthz" | "/metrics" | "/" | "/interactions") => {
            plain(StatusCode::METHOD_NOT_ALLOWED, "method not allowed")
        }
        _ => plain(StatusCode::NOT_FOUND, "not found"),
    }
}

/// 200 "ok" when the database answers a trivial read, else 503 and why.
async fn health(web: &Web) -> Response<Body> {
    if *web.closing.borrow() {
        return plain(StatusCode::SERVICE_UNAVAILABLE, "shutting down");
    }
    if let Some(shards) = &web.shards {
        if let Some(why) = shards_down(shards).await {
            return plain(StatusCode::SERVICE_UNAVAILABLE, why);
        }
    }
    let app = web.app.clone();
    match tokio::task::spawn_blocking(move || contract::health(&app)).await {
        Ok(Ok(())) => plain(StatusCode::OK, "ok"),
        Ok(Err(e)) => plain(StatusCode::SERVICE_UNAVAILABLE, format!("database: {e}")),
        Err(e) => plain(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("database check failed: {e}"),
        ),
    }
}

/// Why the gateway is not ready: no shard yet, or the first shard that is
/// not connected (serenity starts them one after another).
async fn shards_down(shards: &serenity::gateway::ShardManager) -> Option<String> {
    let runners = shards.runners.lock().await;
    if runners.is_empty() {
        return Some("gateway: no shard started yet".into());
    }
    let mut ids: Vec<_> = runners.keys().copied().collect();
    ids.sort_unstable_by_key(|id| id.0);
    ids.into_iter().find_map(|id| {
        let stage = runners[&id].stage;
        (stage != serenity::gateway::ConnectionStage::Connected)
            .then(|| format!("gateway: shard {} is {stage}", id.0))
    })
}

/// Reads a body of at most [`MAX_BODY`] bytes; a larger one is a 413.
async fn read_limited(
    req: Request<Body>,
) -> Result<(hyper::http::request::Parts, Vec<u8>), Response<Body>> {
    let too_large = || plain(StatusCode::PAYLOAD_TOO_LARGE, "request body too large");
    let (parts, mut body) = req.into_parts();
    let declared = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    while let Some(chunk) = body.data().await {
        let chunk = chunk.map_err(|e| plain(StatusCode::BAD_REQUEST, format!("reading: {e}")))?;
        if bytes.len() + chunk.len() > MAX_BODY {
            return Err(too_large());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok((parts, bytes))
}

async fn interaction(ix: &Interactions, req: Request<Body>) -> Response<Body> {
    let (parts, body) = match read_limited(req).await {
        Ok(v) => v,
        Err(r) => return r,
    };
    let header = |name: &str| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    };
    let signature = header("x-signature-ed25519");
    let timestamp = header("x-signature-timestamp");
    if signature.is_empty() || !verify(&ix.key, timestamp, &body, signature) {
        metrics::bad_signature();
        return plain(StatusCode::UNAUTHORIZED, "invalid request signature");
    }
    let value: serde_json::Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => return plain(StatusCode::BAD_REQUEST, format!("not JSON: {e}")),
    };
    if value["type"] == 1 {
        return json(&serde_json::json!({"type": 1}));
    }
    let interaction: Interaction = match serde_json::from_value(value) {
        Ok(i) => i,
        Err(e) => {
            tracing::warn!(error = %e, "an interaction serenity cannot read");
            return plain(StatusCode::BAD_REQUEST, format!("not an interaction: {e}"));
        }
    };
    let (locale, app_id) = match &interaction {
        Interaction::Command(c) | Interaction::Autocomplete(c) => {
            (c.locale.clone(), Some(c.application_id))
        }
        Interaction::Component(c) => (c.locale.clone(), Some(c.application_id)),
        _ => (String::new(), None),
    };
    let lang = Lang::from_locale(&locale);
    // Edits and follow-ups are webhooks of the application.
    if let (None, Some(id)) = (ix.http.application_id(), app_id) {
        ix.http.set_application_id(id);
    }
    if *ix.bot.closing.borrow() {
        return message(text::restarting(lang));
    }
    let (tx, rx) = oneshot::channel();
    let guard = ix.bot.inflight.enter();
    let (bot, http) = (ix.bot.clone(), ix.http.clone());
    tokio::spawn(async move {
        let _guard = guard;
        let first = FirstAnswer::Body(BodySlot::new(tx));
        bot.dispatch(&http, &first, interaction).await;
    });
    match tokio::time::timeout(ANSWER_WITHIN, rx).await {
        Ok(Ok(answer)) => reply(answer),
        // The handler ended without answering: it panicked, or this kind of
        // interaction is not one the bot handles.
        Ok(Err(_)) => {
            tracing::error!("an interaction ended without an answer");
            message(text::apology(lang))
        }
        Err(_) => {
            tracing::error!("no first answer in time");
            plain(StatusCode::INTERNAL_SERVER_ERROR, "no answer in time")
        }
    }
}

/// An ephemeral message as the whole answer.
fn message(content: &str) -> Response<Body> {
    json(&serde_json::json!({
        "type": 4,
        "data": {"content": content, "flags": 64, "allowed_mentions": {"parse": []}},
    }))
}

/// Tells the handler when the body was taken by the connection.
struct Written(Option<oneshot::Sender<()>>);

impl Drop for Written {
    fn drop(&mut self) {
        if let Some(tx) = self.0.take() {
            let _ = tx.send(());
        }
    }
}

/// The handler's first answer as the HTTP reply; the handler learns when
/// hyper has written it (the body stream is dropped), so that its edits and
/// follow-ups cannot overtake it.
fn reply(answer: HttpAnswer) -> Response<Body> {
    let written = Written(Some(answer.written));
    let len = answer.body.len();
    let stream = futures_util::stream::iter([Ok::<_, Infallible>(answer.body)]).map(move |chunk| {
        let _keep = &written;
        chunk
    });
    let mut r = Response::new(Body::wrap_stream(stream));
    if let Ok(v) = hyper::header::HeaderValue::from_str(&answer.content_type) {
        r.headers_mut().insert(CONTENT_TYPE, v);
    }
    r.headers_mut().insert(CONTENT_LENGTH, len.into());
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};

    /// A fixed key (no randomness needed: any 32 bytes are a signing key).
    fn keys() -> (SigningKey, VerifyingKey) {
        let signing = SigningKey::from_bytes(&[7u8; 32]);
        let verifying = signing.verifying_key();
        (signing, verifying)
    }

    fn sign(key: &SigningKey, timestamp: &str, body: &[u8]) -> String {
        let mut m = timestamp.as_bytes().to_vec();
        m.extend_from_slice(body);
        hex::encode(key.sign(&m).to_bytes())
    }

    #[test]
    fn a_good_signature_verifies() {
        let (s, v) = keys();
        let body = br#"{"type":1}"#;
        let sig = sign(&s, "1700000000", body);
        assert!(verify(&v, "1700000000", body, &sig));
        // Upper-case hex is hex too.
        assert!(verify(&v, "1700000000", body, &sig.to_uppercase()));
    }

    #[test]
    fn a_changed_body_timestamp_or_key_fails() {
        let (s, v) = keys();
        let body = br#"{"type":1}"#;
        let sig = sign(&s, "1700000000", body);
        assert!(!verify(&v, "1700000000", br#"{"type":2}"#, &sig));
        assert!(!verify(&v, "1700000001", body, &sig));
        let other = SigningKey::from_bytes(&[8u8; 32]).verifying_key();
        assert!(!verify(&other, "1700000000", body, &sig));
    }

    #[test]
    fn malformed_signatures_fail_without_panicking() {
        let (_, v) = keys();
        for sig in [
            "",
            "zz",
            "00",
            &"0".repeat(128),
            &"g".repeat(128),
            &"0".repeat(130),
        ] {
            assert!(!verify(&v, "1", b"{}", sig), "{sig}");
        }
    }

    #[test]
    fn the_public_key_is_read_from_hex() {
        let (_, v) = keys();
        let hex_key = hex::encode(v.to_bytes());
        assert_eq!(public_key(&hex_key), Ok(v));
        assert_eq!(public_key(&format!(" {hex_key}\n")), Ok(v));
        assert!(public_key("abc").is_err());
        assert!(public_key(&"00".repeat(31)).is_err());
    }
}
