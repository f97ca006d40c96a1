//! A fake Discord on 127.0.0.1 for end-to-end tests: REST (hyper) plus a
//! gateway (tokio-tungstenite). The bot reaches REST through serenity's
//! `HttpBuilder::proxy` and finds the gateway through `GET /gateway`. The
//! fake sends `INTERACTION_CREATE` dispatches shaped like Discord's, records
//! every REST request the bot makes, and serves minimal but complete answers.
//!
//! Faults can be programmed per route ([`Fake::fail`]) or drawn at random
//! with a seed ([`Fake::random_faults`]): 500/502, 429 with `retry_after` in
//! the JSON body and the headers (as Discord sends them), 404 Unknown Channel
//! (10003), 403 Missing Access (50001), 403 Cannot send messages to this user
//! (50007) and answers delayed by some time; [`Fake::drop_gateway`] drops the
//! gateway connection without a close frame, and the fake accepts RESUME.

#![allow(dead_code)]

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use hyper::service::{make_service_fn, service_fn};
use hyper::{Body, Request, Response, Server};
use serde_json::{json, Value};
use tokio::sync::{mpsc, Notify};
use tokio_tungstenite::tungstenite::Message as WsMessage;

pub const APP_ID: u64 = 700_000_000_000_000_001;
pub const BOT_ID: u64 = 700_000_000_000_000_002;
pub const GUILD: u64 = 700_000_000_000_000_003;
pub const CHANNEL: u64 = 700_000_000_000_000_004;
const TIMESTAMP: &str = "2026-11-29T12:00:00.000000+00:00";
/// Tells a gateway session to drop its connection.
const DROP: &str = "\u{0}drop";

/// One REST request the bot made.
#[derive(Clone, Debug)]
pub struct Call {
    pub method: String,
    pub path: String,
    /// The JSON body, or `payload_json` of a multipart body.
    pub json: Value,
    /// Files of a multipart body: (field name, file name, bytes).
    pub files: Vec<(String, String, Vec<u8>)>,
    pub at: Instant,
    /// The HTTP status the fake answered with.
    pub status: u16,
    /// The injected fault, if any.
    pub fault: Option<Fault>,
}

impl Call {
    /// Whether the fake answered with success.
    pub fn ok(&self) -> bool {
        self.status < 300
    }

    /// Whether a PNG file is attached.
    pub fn has_png(&self) -> bool {
        self.files
            .iter()
            .any(|(_, _, b)| b.starts_with(b"\x89PNG\r\n\x1a\n"))
    }

    /// The message data: `data` of an interaction callback, else the body.
    pub fn message(&self) -> &Value {
        if self.json.get("type").is_some() && self.json.get("data").is_some() {
            &self.json["data"]
        } else {
            &self.json
        }
    }

    /// The text content.
    pub fn content(&self) -> String {
        self.message()["content"].as_str().unwrap_or("").to_string()
    }

    /// Whether it is ephemeral (flag 64).
    pub fn ephemeral(&self) -> bool {
        self.message()["flags"].as_u64().unwrap_or(0) & 64 != 0
    }

    /// The custom ids of its buttons.
    pub fn buttons(&self) -> Vec<String> {
        let mut v = Vec::new();
        for row in self.message()["components"]
            .as_array()
            .into_iter()
            .flatten()
        {
            for c in row["components"].as_array().into_iter().flatten() {
                if let Some(id) = c["custom_id"].as_str() {
                    v.push(id.to_string());
                }
            }
        }
        v
    }

    /// The interaction callback type (4 message, 5/6 deferred, 8 autocomplete).
    pub fn kind(&self) -> u64 {
        self.json["type"].as_u64().unwrap_or(0)
    }
}

/// A failure the fake answers a request with.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// A bare server error (500, 502, ...).
    Status(u16),
    /// 429 with `retry_after` seconds (body, `Retry-After` and the
    /// `X-RateLimit-*` headers); the route stays limited for that long.
    RateLimited(f64),
    /// 404 Unknown Channel (10003): the channel or thread was deleted.
    UnknownChannel,
    /// 403 Missing Access (50001): the bot cannot see the channel any more.
    MissingAccess,
    /// 403 Cannot send messages to this user (50007): DMs closed.
    CannotDm,
    /// Answers normally, but only after this long.
    Delay(Duration),
    /// Any other Discord error: status and JSON error code (e.g. 404 with
    /// 10062 Unknown interaction).
    Json(u16, i64),
}

impl Fault {
    fn response(&self) -> Option<Response<Body>> {
        Some(match self {
            Fault::Status(code) => respond(
                *code,
                json!({"message": "Internal Server Error", "code": 0}),
            ),
            Fault::RateLimited(secs) => {
                let mut r = respond(
                    429,
                    json!({"message": "You are being rate limited.",
                           "retry_after": secs, "global": false}),
                );
                let h = r.headers_mut();
                let v = |s: String| hyper::header::HeaderValue::from_str(&s).ok();
                for (name, value) in [
                    ("retry-after", v(format!("{}", secs.ceil() as u64))),
                    ("x-ratelimit-limit", v("5".into())),
                    ("x-ratelimit-remaining", v("0".into())),
                    ("x-ratelimit-reset-after", v(format!("{secs:.3}"))),
                    ("x-ratelimit-bucket", v("fake-bucket".into())),
                    ("x-ratelimit-scope", v("user".into())),
                ] {
                    if let Some(value) = value {
                        h.insert(name, value);
                    }
                }
                r
            }
            Fault::UnknownChannel => {
                respond(404, json!({"message": "Unknown Channel", "code": 10003}))
            }
            Fault::MissingAccess => {
                respond(403, json!({"message": "Missing Access", "code": 50001}))
            }
            Fault::CannotDm => respond(
                403,
                json!({"message": "Cannot send messages to this user", "code": 50007}),
            ),
            Fault::Json(status, code) => respond(
                *status,
                json!({"message": "Unknown interaction", "code": code}),
            ),
            Fault::Delay(_) => return None,
        })
    }
}

/// A programmed fault: requests whose method and path match get `fault`
/// (`times` times, or for ever).
struct Rule {
    method: String,
    path: String,
    fault: Fault,
    times: Option<usize>,
}

/// Faults drawn at random: each matching request fails with probability `rate`.
struct RandomFaults {
    rng: fastrand::Rng,
    rate: f64,
    faults: Vec<Fault>,
}

/// An answer to one interaction, after any deferral was resolved.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The message (callback, or the edit/follow-up after a deferral).
    pub call: Call,
    /// The first callback's type.
    pub first_kind: u64,
    /// From sending the event to the first callback.
    pub latency: Duration,
}

#[derive(Default)]
struct State {
    ws_url: Mutex<String>,
    calls: Mutex<Vec<Call>>,
    changed: Notify,
    gateway: Mutex<Option<mpsc::UnboundedSender<String>>>,
    sessions: AtomicUsize,
    seq: AtomicU64,
    ids: AtomicU64,
    sent: Mutex<HashMap<String, Instant>>,
    /// Users that do not accept DMs (answer 50007).
    dm_closed: Mutex<Vec<u64>>,
    /// Channels where thread creation is refused (403).
    no_threads: Mutex<Vec<u64>>,
    /// Programmed faults, first match wins.
    rules: Mutex<Vec<Rule>>,
    /// Random faults (seeded).
    random: Mutex<Option<RandomFaults>>,
    /// Routes under a 429 until then.
    limited: Mutex<HashMap<String, Instant>>,
    /// Faults injected so far.
    faults: AtomicUsize,
    /// Gateway connections dropped on purpose.
    drops: AtomicUsize,
    /// RESUMEs accepted.
    resumes: AtomicUsize,
    /// Every interaction made, by id (what an HTTP endpoint is sent).
    payloads: Mutex<HashMap<String, Value>>,
    /// The `shard` field of every IDENTIFY.
    identified: Mutex<Vec<Value>>,
    /// With several shards (IDENTIFY said `[id, total]`, total > 1): the
    /// live session of each shard, by shard id, and the total.
    shards: Mutex<HashMap<u64, mpsc::UnboundedSender<String>>>,
    shard_total: AtomicU64,
    /// The shard of each session id (for RESUME).
    session_shards: Mutex<HashMap<String, u64>>,
}

/// The fake Discord.
#[derive(Clone)]
pub struct Fake {
    pub http_addr: SocketAddr,
    state: Arc<State>,
}

fn user_json(id: u64) -> Value {
    json!({
        "id": id.to_string(),
        "username": format!("user{id}"),
        "discriminator": "0",
        "global_name": format!("Player{}", id % 100_000),
        "avatar": null,
    })
}

fn bot_user() -> Value {
    json!({"id": BOT_ID.to_string(), "username": "komadai", "discriminator": "0",
           "global_name": null, "avatar": null, "bot": true})
}

fn message_json(id: u64, channel: &str, content: &str) -> Value {
    json!({
        "id": id.to_string(),
        "channel_id": channel,
        "author": bot_user(),
        "content": content,
        "timestamp": TIMESTAMP,
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": false,
        "type": 0,
    })
}

fn parse_multipart(content_type: &str, body: &[u8]) -> (Value, Vec<(String, String, Vec<u8>)>) {
    let Some(boundary) = content_type.split("boundary=").nth(1) else {
        return (Value::Null, Vec::new());
    };
    let boundary = boundary.trim_matches('"');
    let delim = format!("--{boundary}").into_bytes();
    let mut json = Value::Null;
    let mut files = Vec::new();
    let mut parts = Vec::new();
    let mut start = 0;
    while let Some(pos) = find(&body[start..], &delim) {
        let at = start + pos;
        if start > 0 {
            parts.push(&body[start..at]);
        }
        start = at + delim.len();
    }
    for part in parts {
        let part = part.strip_prefix(b"\r\n").unwrap_or(part);
        let Some(split) = find(part, b"\r\n\r\n") else {
            continue;
        };
        let headers = String::from_utf8_lossy(&part[..split]).to_string();
        let mut data = &part[split + 4..];
        if data.ends_with(b"\r\n") {
            data = &data[..data.len() - 2];
        }
        let field = |key: &str| {
            headers
                .split(';')
                .find_map(|h| h.trim().strip_prefix(&format!("{key}=\"")))
                .and_then(|v| v.split('"').next())
                .map(str::to_string)
        };
        let name = field("name").unwrap_or_default();
        if name == "payload_json" {
            json = serde_json::from_slice(data).unwrap_or(Value::Null);
        } else {
            files.push((name, field("filename").unwrap_or_default(), data.to_vec()));
        }
    }
    (json, files)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn respond(status: u16, body: Value) -> Response<Body> {
    let mut r = Response::new(if status == 204 {
        Body::empty()
    } else {
        Body::from(body.to_string())
    });
    *r.status_mut() = hyper::StatusCode::from_u16(status).unwrap_or(hyper::StatusCode::OK);
    r.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    r
}

async fn handle(state: Arc<State>, req: Request<Body>) -> Result<Response<Body>, Infallible> {
    let method = req.method().to_string();
    let path = req.uri().path().trim_start_matches("/api/v10").to_string();
    let content_type = req
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body = hyper::body::to_bytes(req.into_body())
        .await
        .map(|b| b.to_vec())
        .unwrap_or_default();
    let (json, files) = if content_type.starts_with("multipart/") {
        parse_multipart(&content_type, &body)
    } else {
        (
            serde_json::from_slice(&body).unwrap_or(Value::Null),
            Vec::new(),
        )
    };
    let next_id = || 800_000_000_000_000_000 + state.ids.fetch_add(1, Ordering::SeqCst);
    if let Some(fault) = pick_fault(&state, &method, &path) {
        state.faults.fetch_add(1, Ordering::SeqCst);
        if let Fault::Delay(d) = fault {
            tokio::time::sleep(d).await;
        } else if let Some(r) = fault.response() {
            let status = r.status().as_u16();
            record(&state, method, path, json, files, status, Some(fault));
            return Ok(r);
        }
    }
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let response = match (method.as_str(), parts.as_slice()) {
        ("GET", ["gateway"]) => respond(200, json!({"url": *state.ws_url.lock().unwrap()})),
        ("GET", ["gateway", "bot"]) => respond(
            200,
            json!({"url": *state.ws_url.lock().unwrap(), "shards": 1,
                   "session_start_limit": {"total": 1000, "remaining": 999,
                                           "reset_after": 0, "max_concurrency": 1}}),
        ),
        ("GET", ["oauth2", "applications", "@me"]) => respond(
            200,
            json!({"id": APP_ID.to_string(), "name": "komadai", "bot_public": true}),
        ),
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => respond(200, json!([])),
        ("POST", ["interactions", _, _, "callback"]) => respond(204, Value::Null),
        ("DELETE", ["webhooks", ..]) => respond(204, Value::Null),
        ("PATCH", ["webhooks", _, _, "messages", _]) | ("POST", ["webhooks", _, _]) => {
            respond(200, message_json(next_id(), &CHANNEL.to_string(), ""))
        }
        ("POST", ["channels", ch, "threads"]) => {
            let ch_id: u64 = ch.parse().unwrap_or(0);
            if state.no_threads.lock().unwrap().contains(&ch_id) {
                respond(
                    403,
                    json!({"message": "Missing Permissions", "code": 50013}),
                )
            } else {
                respond(
                    201,
                    json!({
                        "id": next_id().to_string(),
                        "guild_id": GUILD.to_string(),
                        "parent_id": ch,
                        "owner_id": BOT_ID.to_string(),
                        "type": 11,
                        "name": json["name"],
                        "thread_metadata": {"archived": false, "auto_archive_duration": 10080,
                                            "archive_timestamp": TIMESTAMP, "locked": false},
                    }),
                )
            }
        }
        ("POST", ["channels", ch, "messages"]) => {
            let ch_id: u64 = ch.parse().unwrap_or(0);
            if ch_id >= 900_000_000_000_000_000 {
                // DM channel of a user who closed DMs.
                let user = ch_id - 900_000_000_000_000_000 + 1;
                if state.dm_closed.lock().unwrap().contains(&user) {
                    let r = respond(
                        403,
                        json!({"message": "Cannot send messages to this user", "code": 50007}),
                    );
                    record(
                        &state,
                        method,
                        path,
                        json,
                        files,
                        403,
                        Some(Fault::CannotDm),
                    );
                    return Ok(r);
                }
            }
            respond(
                200,
                message_json(next_id(), ch, json["content"].as_str().unwrap_or("")),
            )
        }
        ("POST", ["users", "@me", "channels"]) => {
            let user: u64 = json["recipient_id"]
                .as_str()
                .and_then(|s| s.parse().ok())
                .or_else(|| json["recipient_id"].as_u64())
                .unwrap_or(1);
            respond(
                200,
                json!({"id": (900_000_000_000_000_000 + user - 1).to_string(), "type": 1,
                       "recipients": [user_json(user)]}),
            )
        }
        _ => respond(404, json!({"message": "Unknown route", "code": 0})),
    };
    let status = response.status().as_u16();
    record(&state, method, path, json, files, status, None);
    Ok(response)
}

/// The routes a random fault may hit: everything but the gateway address
/// and the command registration (a bot that cannot start is another test).
fn randomly_faulty(path: &str) -> bool {
    !path.starts_with("/gateway") && !path.ends_with("/commands")
}

fn pick_fault(state: &State, method: &str, path: &str) -> Option<Fault> {
    let key = format!("{method} {path}");
    {
        let mut limited = state.limited.lock().unwrap();
        if let Some(until) = limited.get(&key).copied() {
            let left = until.saturating_duration_since(Instant::now());
            if !left.is_zero() {
                return Some(Fault::RateLimited(left.as_secs_f64()));
            }
            limited.remove(&key);
        }
    }
    let mut fault = None;
    {
        let mut rules = state.rules.lock().unwrap();
        if let Some(i) = rules
            .iter()
            .position(|r| (r.method.is_empty() || r.method == method) && path.contains(&r.path))
        {
            fault = Some(rules[i].fault.clone());
            if let Some(n) = rules[i].times.as_mut() {
                *n -= 1;
                if *n == 0 {
                    rules.remove(i);
                }
            }
        }
    }
    if fault.is_none() && randomly_faulty(path) {
        if let Some(r) = state.random.lock().unwrap().as_mut() {
            if r.rng.f64() < r.rate && !r.faults.is_empty() {
                fault = Some(r.faults[r.rng.usize(..r.faults.len())].clone());
            }
        }
    }
    if let Some(Fault::RateLimited(secs)) = &fault {
        state
            .limited
            .lock()
            .unwrap()
            .insert(key, Instant::now() + Duration::from_secs_f64(*secs));
    }
    fault
}

fn record(
    state: &State,
    method: String,
    path: String,
    json: Value,
    files: Vec<(String, String, Vec<u8>)>,
    status: u16,
    fault: Option<Fault>,
) {
    state.calls.lock().unwrap().push(Call {
        method,
        path,
        json,
        files,
        at: Instant::now(),
        status,
        fault,
    });
    state.changed.notify_waiters();
}

async fn gateway_session(state: Arc<State>, stream: tokio::net::TcpStream) {
    let Ok(mut ws) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}, "s": null, "t": null});
    if ws.send(WsMessage::Text(hello.to_string())).await.is_err() {
        return;
    }
    // Wait for IDENTIFY (a new session) or RESUME (after a dropped connection).
    let (resumed, shard) = loop {
        match ws.next().await {
            Some(Ok(WsMessage::Text(t))) => {
                let v: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
                if v["op"] == 2 {
                    let shard = v["d"]["shard"].clone();
                    state.identified.lock().unwrap().push(shard.clone());
                    let id = shard[0].as_u64().unwrap_or(0);
                    let total = shard[1].as_u64().unwrap_or(1);
                    state.shard_total.store(total, Ordering::SeqCst);
                    break (false, [id, total]);
                }
                if v["op"] == 6 {
                    let session = v["d"]["session_id"].as_str().unwrap_or_default();
                    let id = state
                        .session_shards
                        .lock()
                        .unwrap()
                        .get(session)
                        .copied()
                        .unwrap_or(0);
                    let total = state.shard_total.load(Ordering::SeqCst).max(1);
                    break (true, [id, total]);
                }
            }
            Some(Ok(_)) => {}
            _ => return,
        }
    };
    let ws_url = state.ws_url.lock().unwrap().clone();
    let seq = state.seq.fetch_add(1, Ordering::SeqCst) + 1;
    let first = if resumed {
        state.resumes.fetch_add(1, Ordering::SeqCst);
        json!({"op": 0, "s": seq, "t": "RESUMED", "d": {}})
    } else {
        let session = format!("session-{seq}");
        state
            .session_shards
            .lock()
            .unwrap()
            .insert(session.clone(), shard[0]);
        json!({"op": 0, "s": seq, "t": "READY", "d": {
            "v": 10, "user": bot_user(), "guilds": [],
            "session_id": session, "resume_gateway_url": ws_url,
            "shard": shard, "application": {"id": APP_ID.to_string(), "flags": 0},
        }})
    };
    if ws.send(WsMessage::Text(first.to_string())).await.is_err() {
        return;
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    *state.gateway.lock().unwrap() = Some(tx.clone());
    state.shards.lock().unwrap().insert(shard[0], tx.clone());
    // However the session ends, it is no longer the one to send to.
    struct Gone(Arc<State>, mpsc::UnboundedSender<String>, u64);
    impl Drop for Gone {
        fn drop(&mut self) {
            let mut g = self.0.gateway.lock().unwrap();
            if g.as_ref().is_some_and(|t| t.same_channel(&self.1)) {
                *g = None;
            }
            let mut shards = self.0.shards.lock().unwrap();
            if shards.get(&self.2).is_some_and(|t| t.same_channel(&self.1)) {
                shards.remove(&self.2);
            }
        }
    }
    let _gone = Gone(state.clone(), tx, shard[0]);
    if !resumed {
        state.sessions.fetch_add(1, Ordering::SeqCst);
    }
    state.changed.notify_waiters();
    loop {
        tokio::select! {
            incoming = ws.next() => match incoming {
                Some(Ok(WsMessage::Text(t))) => {
                    let v: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
                    if v["op"] == 1 {
                        let ack = json!({"op": 11, "d": null, "s": null, "t": null});
                        if ws.send(WsMessage::Text(ack.to_string())).await.is_err() {
                            break;
                        }
                    }
                }
                Some(Ok(WsMessage::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
            out = rx.recv() => match out {
                // Dropped on purpose: no close frame, as when a connection breaks.
                Some(text) if text == DROP => return,
                Some(text) => {
                    if ws.send(WsMessage::Text(text)).await.is_err() {
                        break;
                    }
                }
                None => break,
            },
        }
    }
}

impl Fake {
    /// Starts REST and gateway on ephemeral ports of 127.0.0.1.
    pub async fn start() -> Fake {
        let state = Arc::new(State::default());
        let ws = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        *state.ws_url.lock().unwrap() = format!("ws://{}", ws.local_addr().unwrap());
        let st = state.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = ws.accept().await {
                tokio::spawn(gateway_session(st.clone(), stream));
            }
        });
        let st = state.clone();
        let make = make_service_fn(move |_| {
            let st = st.clone();
            async move { Ok::<_, Infallible>(service_fn(move |req| handle(st.clone(), req))) }
        });
        let server = Server::bind(&SocketAddr::from(([127, 0, 0, 1], 0))).serve(make);
        let http_addr = server.local_addr();
        tokio::spawn(server);
        Fake { http_addr, state }
    }

    /// The REST base for `HttpBuilder::proxy`.
    pub fn base(&self) -> String {
        format!("http://{}", self.http_addr)
    }

    /// Every REST call so far.
    pub fn calls(&self) -> Vec<Call> {
        self.state.calls.lock().unwrap().clone()
    }

    /// The REST calls from the `from`-th on (calls are kept in order), for
    /// long runs that read only what is new.
    pub fn calls_from(&self, from: usize) -> Vec<Call> {
        let calls = self.state.calls.lock().unwrap();
        calls.get(from..).map(<[Call]>::to_vec).unwrap_or_default()
    }

    /// Makes DMs to `user` fail with 50007.
    pub fn close_dms(&self, user: u64) {
        self.state.dm_closed.lock().unwrap().push(user);
    }

    /// Answers requests with `method` (empty: any) whose path contains
    /// `path` with `fault`, `times` times (`None`: until [`Fake::heal`]).
    pub fn fail(&self, method: &str, path: &str, fault: Fault, times: Option<usize>) {
        self.state.rules.lock().unwrap().push(Rule {
            method: method.to_string(),
            path: path.to_string(),
            fault,
            times,
        });
    }

    /// Removes every programmed fault.
    pub fn heal(&self) {
        self.state.rules.lock().unwrap().clear();
    }

    /// Fails each request (but the gateway address and the command
    /// registration) with probability `rate`, drawing the fault from
    /// `faults`, with a seeded generator.
    pub fn random_faults(&self, seed: u64, rate: f64, faults: Vec<Fault>) {
        *self.state.random.lock().unwrap() = Some(RandomFaults {
            rng: fastrand::Rng::with_seed(seed),
            rate,
            faults,
        });
    }

    /// How many faults were injected so far.
    pub fn faults_injected(&self) -> usize {
        self.state.faults.load(Ordering::SeqCst)
    }

    /// Drops the gateway connection (no close frame); the bot should resume.
    pub fn drop_gateway(&self) {
        if let Some(tx) = self.state.gateway.lock().unwrap().take() {
            let _ = tx.send(DROP.to_string());
            self.state.drops.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// How many sessions were resumed after a dropped connection.
    pub fn resumes(&self) -> usize {
        self.state.resumes.load(Ordering::SeqCst)
    }

    /// Whether a gateway connection is up (identified or resumed).
    pub fn connected(&self) -> bool {
        self.state.gateway.lock().unwrap().is_some()
    }

    /// Makes thread creation in `channel` fail with 403 (missing permissions).
    pub fn refuse_threads(&self, channel: u64) {
        self.state.no_threads.lock().unwrap().push(channel);
    }

    /// Waits until `pred` holds for the recorded calls (or the time is up).
    pub async fn wait_for<T>(
        &self,
        limit: Duration,
        mut pred: impl FnMut(&[Call]) -> Option<T>,
    ) -> Option<T> {
        let end = Instant::now() + limit;
        loop {
            let notified = self.state.changed.notified();
            if let Some(t) = pred(&self.state.calls.lock().unwrap()) {
                return Some(t);
            }
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            let _ = tokio::time::timeout(left.min(Duration::from_millis(50)), notified).await;
        }
    }

    /// Waits until `n` gateway sessions have been identified.
    pub async fn wait_sessions(&self, n: usize, limit: Duration) -> bool {
        let end = Instant::now() + limit;
        while self.state.sessions.load(Ordering::SeqCst) < n {
            if Instant::now() > end {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        true
    }

    fn dispatch(
        &self,
        kind: u64,
        user: u64,
        locale: &str,
        channel: u64,
        data: Value,
        extra: Value,
    ) -> String {
        self.dispatch_in(GUILD, kind, user, locale, channel, data, extra)
    }

    /// Makes an interaction in `guild` and sends it to the session of the
    /// guild's shard (`(guild >> 22) % total`, as Discord routes it) when
    /// the bot runs several shards — dropped, as on Discord, while that
    /// shard is down — else to the one session.
    #[allow(clippy::too_many_arguments)]
    fn dispatch_in(
        &self,
        guild: u64,
        kind: u64,
        user: u64,
        locale: &str,
        channel: u64,
        data: Value,
        extra: Value,
    ) -> String {
        let n = self.state.ids.fetch_add(1, Ordering::SeqCst);
        let id = (600_000_000_000_000_000 + n).to_string();
        let mut d = json!({
            "id": id,
            "application_id": APP_ID.to_string(),
            "type": kind,
            "token": format!("token-{id}"),
            "version": 1,
            "data": data,
            "guild_id": guild.to_string(),
            "channel_id": channel.to_string(),
            "member": member_json(user, "2251799813685247"),
            "locale": locale,
            "guild_locale": "en-US",
            "entitlements": [],
            "app_permissions": "2251799813685247",
            "authorizing_integration_owners": {"0": GUILD.to_string()},
            "context": 0,
            "attachment_size_limit": 10_485_760,
        });
        if let (Some(map), Some(extra)) = (d.as_object_mut(), extra.as_object()) {
            for (k, v) in extra {
                map.insert(k.clone(), v.clone());
            }
        }
        self.state
            .payloads
            .lock()
            .unwrap()
            .insert(id.clone(), d.clone());
        let seq = self.state.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let frame = json!({"op": 0, "s": seq, "t": "INTERACTION_CREATE", "d": d});
        self.state
            .sent
            .lock()
            .unwrap()
            .insert(id.clone(), Instant::now());
        let total = self.state.shard_total.load(Ordering::SeqCst);
        if total > 1 {
            if let Some(tx) = self
                .state
                .shards
                .lock()
                .unwrap()
                .get(&((guild >> 22) % total))
            {
                let _ = tx.send(frame.to_string());
            }
        } else if let Some(tx) = self.state.gateway.lock().unwrap().as_ref() {
            let _ = tx.send(frame.to_string());
        }
        id
    }

    /// Sends a slash command; `options` is Discord's option array. User
    /// options (`type` 6) get their `resolved` entry.
    pub fn command(
        &self,
        user: u64,
        locale: &str,
        channel: u64,
        name: &str,
        options: Value,
    ) -> String {
        self.command_in(GUILD, user, locale, channel, name, options)
    }

    /// [`Fake::command`] in another server.
    pub fn command_in(
        &self,
        guild: u64,
        user: u64,
        locale: &str,
        channel: u64,
        name: &str,
        options: Value,
    ) -> String {
        self.dispatch_in(
            guild,
            2,
            user,
            locale,
            channel,
            command_data(name, options),
            Value::Null,
        )
    }

    /// [`Fake::command`] from a member without any permission (so without
    /// Manage Server).
    pub fn command_unprivileged(
        &self,
        user: u64,
        locale: &str,
        channel: u64,
        name: &str,
        options: Value,
    ) -> String {
        let data = command_data(name, options);
        let member = member_json(user, "0");
        self.dispatch_in(
            GUILD,
            2,
            user,
            locale,
            channel,
            data,
            json!({ "member": member }),
        )
    }

    /// [`Fake::button`] in another server.
    pub fn button_in(
        &self,
        guild: u64,
        user: u64,
        locale: &str,
        channel: u64,
        custom_id: &str,
    ) -> String {
        let data = json!({"custom_id": custom_id, "component_type": 2});
        let message = message_json(1, &channel.to_string(), "");
        self.dispatch_in(
            guild,
            3,
            user,
            locale,
            channel,
            data,
            json!({"message": message}),
        )
    }

    /// Sends an autocomplete request; the option named `focused` is focused.
    pub fn autocomplete(
        &self,
        user: u64,
        locale: &str,
        channel: u64,
        name: &str,
        options: Value,
    ) -> String {
        let data = json!({"id": "500000000000000001", "name": name, "type": 1, "options": options});
        self.dispatch(4, user, locale, channel, data, Value::Null)
    }

    /// Presses a button.
    pub fn button(&self, user: u64, locale: &str, channel: u64, custom_id: &str) -> String {
        self.button_in(GUILD, user, locale, channel, custom_id)
    }

    /// The answer to interaction `id`: its callback, and after a deferral
    /// the edit or follow-up that carries the message.
    pub async fn answer(&self, id: &str, limit: Duration) -> Option<Answer> {
        let callback = format!("/interactions/{id}/token-{id}/callback");
        let token = format!("/token-{id}");
        let sent = *self.state.sent.lock().unwrap().get(id)?;
        let first = self
            .wait_for(limit, |calls| {
                calls.iter().find(|c| c.path == callback && c.ok()).cloned()
            })
            .await?;
        let latency = first.at.saturating_duration_since(sent);
        let first_kind = first.kind();
        if first_kind != 5 && first_kind != 6 {
            return Some(Answer {
                call: first,
                first_kind,
                latency,
            });
        }
        let mut later = self
            .wait_for(limit, |calls| {
                calls
                    .iter()
                    .find(|c| {
                        c.path.starts_with("/webhooks/")
                            && c.path.contains(&token)
                            && c.method != "DELETE"
                            && c.ok()
                    })
                    .cloned()
            })
            .await?;
        // Editing the original keeps the deferral's visibility, as on Discord.
        let deferred_ephemeral = first.json["data"]["flags"].as_u64().unwrap_or(0) & 64 != 0;
        if later.method == "PATCH" && deferred_ephemeral {
            if let Some(body) = later.json.as_object_mut() {
                let flags = body.get("flags").and_then(Value::as_u64).unwrap_or(0) | 64;
                body.insert("flags".into(), Value::from(flags));
            }
        }
        Some(Answer {
            call: later,
            first_kind,
            latency,
        })
    }

    /// The `shard` arrays (`[id, total]`) of the IDENTIFYs so far.
    pub fn identified_shards(&self) -> Vec<Value> {
        self.state.identified.lock().unwrap().clone()
    }

    /// The interaction `id` as Discord would POST it to an interactions
    /// endpoint (the `d` of its gateway dispatch).
    pub fn payload(&self, id: &str) -> Value {
        self.state.payloads.lock().unwrap()[id].clone()
    }

    /// Records the HTTP reply of an interactions endpoint to interaction
    /// `id` as if it had been the REST callback, so that [`Fake::answer`]
    /// and the other helpers read it alike.
    pub fn record_http_answer(&self, id: &str, status: u16, content_type: &str, body: &[u8]) {
        let (json, files) = if content_type.starts_with("multipart/") {
            parse_multipart(content_type, body)
        } else {
            (
                serde_json::from_slice(body).unwrap_or(Value::Null),
                Vec::new(),
            )
        };
        let path = format!("/interactions/{id}/token-{id}/callback");
        record(&self.state, "POST".into(), path, json, files, status, None);
    }

    /// Messages the bot posted in `channel` through REST (accepted ones).
    pub fn channel_messages(&self, channel: &str) -> Vec<Call> {
        let path = format!("/channels/{channel}/messages");
        self.calls()
            .into_iter()
            .filter(|c| c.method == "POST" && c.path == path && c.ok())
            .collect()
    }
}

/// A slash command's interaction data; user options (`type` 6) get their
/// `resolved` entry.
fn command_data(name: &str, options: Value) -> Value {
    let mut users = serde_json::Map::new();
    for o in options.as_array().into_iter().flatten() {
        if let Some(id) = o["value"].as_str().filter(|_| o["type"] == 6) {
            let id: u64 = id.parse().unwrap_or(1);
            users.insert(id.to_string(), user_json(id));
        }
    }
    json!({"id": "500000000000000001", "name": name, "type": 1,
           "options": options, "resolved": {"users": users}})
}

/// A guild member as interactions carry it, with `permissions` (a bit set
/// as a decimal string).
fn member_json(user: u64, permissions: &str) -> Value {
    json!({
        "user": user_json(user),
        "roles": [],
        "joined_at": TIMESTAMP,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "permissions": permissions,
    })
}
