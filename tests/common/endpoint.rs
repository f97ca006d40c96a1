//! `komadai serve --http` as a child process: the real binary as Discord's
//! interactions endpoint, against the fake Discord of `fake_discord.rs`.
//! Interactions are signed with a test key (Ed25519, as Discord signs them)
//! and POSTed to the bot; the HTTP reply is recorded as the interaction's
//! first answer so that the fake's helpers read it like a REST callback.
//!
//! Include next to `fake_discord.rs`:
//! `#[path = "common/fake_discord.rs"] mod fake_discord;` and
//! `#[path = "common/endpoint.rs"] mod endpoint;`.

#![allow(dead_code)]

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use ed25519_dalek::{Signer, SigningKey};
use hyper::client::HttpConnector;
use hyper::{Body, Client, Method, Request};
use serde_json::{json, Value};

use crate::fake_discord::{self, Fake};

/// How long an endpoint may take to come up or to answer.
pub const WAIT: Duration = Duration::from_secs(20);

/// The bot's key pair, from fixed bytes (the public half goes into
/// DISCORD_PUBLIC_KEY).
pub fn bot_key() -> SigningKey {
    SigningKey::from_bytes(&[42u8; 32])
}

/// A slash command option.
pub fn opt(name: &str, kind: u64, value: Value) -> Value {
    json!({"name": name, "type": kind, "value": value})
}

/// A free port on 127.0.0.1 (bound and released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// One `komadai serve --http` process.
pub struct Endpoint {
    pub child: tokio::process::Child,
    pub base: String,
    client: Client<HttpConnector>,
    _dir: Option<tempfile::TempDir>,
}

/// An HTTP reply of the bot.
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).to_string()
    }
}

impl Endpoint {
    /// Starts `komadai serve --http` against `fake` with a SQLite database
    /// of its own; standard output is kept for [`Endpoint::sigterm`].
    pub async fn start(fake: &Fake, extra: &[&str]) -> Endpoint {
        let dir = tempfile::tempdir().expect("tempdir");
        let db = dir.path().join("bot.db");
        let addr = format!("127.0.0.1:{}", free_port());
        let mut ep = Endpoint::spawn(fake, &addr, db.as_os_str(), extra, Stdio::piped()).await;
        ep._dir = Some(dir);
        ep
    }

    /// Starts one worker listening on `addr` over database `db` (a file or
    /// a `postgres://` URL), its log appended to `log`. Ready once
    /// /healthz answers.
    pub async fn start_worker(
        fake: &Fake,
        addr: &str,
        db: &str,
        log: &Path,
        extra: &[&str],
    ) -> Endpoint {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .expect("log file");
        Endpoint::spawn(fake, addr, db.as_ref(), extra, Stdio::from(file)).await
    }

    async fn spawn(
        fake: &Fake,
        addr: &str,
        db: &std::ffi::OsStr,
        extra: &[&str],
        stdout: Stdio,
    ) -> Endpoint {
        let child = tokio::process::Command::new(env!("CARGO_BIN_EXE_komadai"))
            .args(["serve", "--http", addr, "--tick-seconds", "1"])
            .args(extra)
            .arg("--db")
            .arg(db)
            .env("DISCORD_TOKEN", "fake-token")
            .env("DISCORD_API_BASE", fake.base())
            .env(
                "DISCORD_PUBLIC_KEY",
                hex::encode(bot_key().verifying_key().to_bytes()),
            )
            .env_remove("DEV_GUILD_ID")
            .env_remove("KOMADAI_DB")
            .env_remove("KOMADAI_HTTP")
            .env_remove("KOMADAI_METRICS")
            .stdout(stdout)
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("komadai starts");
        let ep = Endpoint {
            child,
            base: format!("http://{addr}"),
            client: Client::new(),
            _dir: None,
        };
        let end = Instant::now() + WAIT;
        loop {
            if let Ok(r) = ep.get("/healthz").await {
                assert_eq!(r.status, 200, "{}", r.text());
                assert_eq!(r.text(), "ok");
                break;
            }
            assert!(Instant::now() < end, "the endpoint did not come up");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        ep
    }

    pub async fn send(&self, req: Request<Body>) -> hyper::Result<Reply> {
        let r = self.client.request(req).await?;
        let status = r.status().as_u16();
        let content_type = r
            .headers()
            .get(hyper::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let body = hyper::body::to_bytes(r.into_body()).await?.to_vec();
        Ok(Reply {
            status,
            content_type,
            body,
        })
    }

    pub async fn get(&self, path: &str) -> hyper::Result<Reply> {
        let req = Request::get(format!("{}{path}", self.base))
            .body(Body::empty())
            .expect("request");
        self.send(req).await
    }

    /// POSTs `body` to the endpoint with the given signature headers.
    pub async fn try_post(
        &self,
        body: Vec<u8>,
        signature: Option<(String, String)>,
    ) -> hyper::Result<Reply> {
        let mut req = Request::builder()
            .method(Method::POST)
            .uri(format!("{}/", self.base))
            .header("content-type", "application/json");
        if let Some((sig, ts)) = signature {
            req = req
                .header("X-Signature-Ed25519", sig)
                .header("X-Signature-Timestamp", ts);
        }
        self.send(req.body(Body::from(body)).expect("request"))
            .await
    }

    /// The status of a POST that declares a body of `len` bytes and sends
    /// none of it. The bot must refuse a body that is too large from its
    /// declared length, before reading it. Sending the body as well would
    /// race the bot's close of the connection: the client's write can fail
    /// with a broken pipe before it reads the answer.
    pub fn status_of_declared_post(&self, len: usize) -> u16 {
        use std::io::{BufRead, BufReader, Write};
        let addr = self.base.trim_start_matches("http://");
        let mut s = std::net::TcpStream::connect(addr).expect("connects");
        s.set_read_timeout(Some(WAIT)).expect("a read timeout");
        write!(
            s,
            "POST / HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\n\
             content-length: {len}\r\n\r\n"
        )
        .expect("the head is sent");
        let mut status_line = String::new();
        BufReader::new(s)
            .read_line(&mut status_line)
            .expect("a status line");
        status_line
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("not an HTTP status line: {status_line:?}"))
    }

    /// [`Endpoint::try_post`] that must get an HTTP answer.
    pub async fn post(&self, body: Vec<u8>, signature: Option<(String, String)>) -> Reply {
        self.try_post(body, signature)
            .await
            .expect("the endpoint answers")
    }

    /// The headers Discord would send with `body`, signed by `key`.
    pub fn sign(key: &SigningKey, body: &[u8]) -> (String, String) {
        let ts = "1764590000".to_string();
        let mut message = ts.as_bytes().to_vec();
        message.extend_from_slice(body);
        (hex::encode(key.sign(&message).to_bytes()), ts)
    }

    /// POSTs `body` signed by `key`, as Discord does.
    pub async fn signed(&self, key: &SigningKey, body: Vec<u8>) -> Reply {
        let signature = Endpoint::sign(key, &body);
        self.post(body, Some(signature)).await
    }

    /// Sends interaction `id` (made by the fake) signed with the bot's key;
    /// a 200 reply is recorded as its first answer. An error means the
    /// connection failed (Discord then shows the user that the interaction
    /// failed).
    pub async fn try_deliver(&self, fake: &Fake, id: &str) -> hyper::Result<Reply> {
        let body = fake.payload(id).to_string().into_bytes();
        let signature = Endpoint::sign(&bot_key(), &body);
        let r = self.try_post(body, Some(signature)).await?;
        if r.status == 200 {
            fake.record_http_answer(id, r.status, &r.content_type, &r.body);
        }
        Ok(r)
    }

    /// Sends interaction `id`, which must be answered with 200.
    pub async fn deliver(&self, fake: &Fake, id: &str) {
        let r = self
            .try_deliver(fake, id)
            .await
            .expect("the endpoint answers");
        assert_eq!(r.status, 200, "interaction {id}: {}", r.text());
    }

    /// Sends interaction `id` and waits for its answer (after a deferral,
    /// the REST edit or follow-up carrying the message).
    pub async fn answer(&self, fake: &Fake, id: &str) -> fake_discord::Answer {
        self.deliver(fake, id).await;
        let a = fake.answer(id, WAIT).await.expect("no answer");
        assert!(a.latency < Duration::from_secs(3), "{:?}", a.latency);
        a
    }

    /// SIGKILL, as an out-of-memory killer or a pulled plug would.
    pub async fn kill(mut self) {
        let _ = self.child.start_kill();
        let _ = self.child.wait().await;
    }

    /// SIGTERM; the process must exit cleanly within 2 s. Its log (standard
    /// output, when [`Endpoint::start`] kept it).
    #[cfg(unix)]
    pub async fn sigterm(mut self) -> String {
        let pid = self
            .child
            .id()
            .and_then(|p| i32::try_from(p).ok())
            .and_then(rustix::process::Pid::from_raw)
            .expect("pid");
        let signalled = Instant::now();
        rustix::process::kill_process(pid, rustix::process::Signal::TERM).expect("SIGTERM");
        let status = tokio::time::timeout(WAIT, self.child.wait())
            .await
            .expect("exits within 20 s")
            .expect("wait");
        let took = signalled.elapsed();
        let mut log = String::new();
        if let Some(mut out) = self.child.stdout.take() {
            use tokio::io::AsyncReadExt;
            let _ = out.read_to_string(&mut log).await;
        }
        println!("SIGTERM to exit: {took:?}");
        assert!(status.success(), "exit {status:?}: {log}");
        assert!(took < Duration::from_secs(2), "exit took {took:?}: {log}");
        assert!(!log.contains("panicked"), "{log}");
        log
    }
}
