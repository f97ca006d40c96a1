//! The Discord adapter: slash commands, autocomplete, buttons, game threads
//! and the deadline scheduler, on serenity 0.12. All decisions stay in
//! [`crate::app`]; this module maps interactions to app calls and app replies
//! to Discord messages.
//!
//! Every interaction is handled in its own task; the synchronous app (SQLite,
//! board rendering) runs on tokio's blocking pool. Buttons carry the ids they
//! act on, and one global handler dispatches them, so they keep working after
//! a restart.

mod commands;
mod contract;
mod delivery;
mod first;
mod handler;
mod metrics;
mod out;
mod text;
mod web;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serenity::all::{ApplicationId, ClientBuilder, GatewayIntents, Http, HttpBuilder};
use serenity::http::{LightMethod, Request, Route};
use tokio::sync::{watch, Notify};

use crate::app::{App, Clock, SeededDice, SystemClock};
use crate::store::Store;

pub use commands::all as command_definitions;
pub use handler::DEFER_AFTER;

/// [`DEFER_AFTER`] in milliseconds (the default of `--defer-ms`).
const DEFER_MS: u64 = DEFER_AFTER.as_millis() as u64;

/// Options of `komadai serve` (the bot).
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// The database: a SQLite file (created and migrated if needed) or a
    /// `postgres://user:password@host/database` URL shared by several processes.
    #[arg(long, default_value = "komadai.db", env = "KOMADAI_DB")]
    pub db: PathBuf,
    /// The bot token from the Discord developer portal.
    #[arg(long, env = "DISCORD_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Register the commands in this server only (they update at once).
    #[arg(long, env = "DEV_GUILD_ID")]
    pub dev_guild: Option<u64>,
    /// Send every REST call to this base instead of Discord (tests, proxies).
    #[arg(long, env = "DISCORD_API_BASE")]
    pub api_base: Option<String>,
    /// Seconds between two runs of the deadline scheduler.
    #[arg(long, default_value_t = 60)]
    pub tick_seconds: u64,
    /// Milliseconds a command may take before its answer is deferred
    /// (Discord allows 3 s for the first answer; 0 defers every command).
    #[arg(long, default_value_t = DEFER_MS, value_parser = clap::value_parser!(u64).range(0..=2500))]
    pub defer_ms: u64,
    /// Tests only: a file holding seconds added to the system clock (read
    /// on every use), so deadlines can pass without waiting days.
    #[arg(long, hide = true)]
    pub clock_offset_file: Option<PathBuf>,
    /// Take Discord's interactions as signed HTTP requests on this address
    /// (the "Interactions Endpoint URL") instead of the gateway; also
    /// serves /healthz and /metrics. Needs DISCORD_PUBLIC_KEY.
    #[arg(long, value_name = "ADDR", env = "KOMADAI_HTTP", conflicts_with_all = ["shards", "metrics"])]
    pub http: Option<SocketAddr>,
    /// The application's public key (hex) from the developer portal: every
    /// request to the --http endpoint must be signed with it.
    #[arg(long, env = "DISCORD_PUBLIC_KEY")]
    pub public_key: Option<String>,
    /// With the gateway: serve /healthz and /metrics on this address.
    #[arg(long, value_name = "ADDR", env = "KOMADAI_METRICS")]
    pub metrics: Option<SocketAddr>,
    /// Run only the gateway shards FROM to TO (both included) of --total
    /// (several processes share one bot); without it the bot autoshards.
    #[arg(long, value_name = "FROM..TO", value_parser = parse_shard_range, requires = "total")]
    pub shards: Option<ShardRange>,
    /// The public base URL of the game pages (e.g. `https://shogi.example.org`,
    /// where this process's --http or --metrics server, or `komadai web`, is
    /// reachable): new games' messages then link to their page.
    #[arg(long, value_name = "URL", env = "KOMADAI_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// The number of shards of the whole bot (with --shards).
    #[arg(long, value_name = "N", requires = "shards", value_parser = clap::value_parser!(u32).range(1..=65_535))]
    pub total: Option<u32>,
}

/// `--shards FROM..TO`: the first and last shard this process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardRange {
    /// The first shard.
    pub from: u32,
    /// The last shard (included).
    pub to: u32,
}

/// Parses `FROM..TO` (both included, FROM ≤ TO).
fn parse_shard_range(s: &str) -> Result<ShardRange, String> {
    let (from, to) = s
        .split_once("..")
        .ok_or_else(|| format!("`{s}` is not FROM..TO (for example 0..3)"))?;
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("`{t}` is not a shard number"))
    };
    let (from, to) = (number(from)?, number(to.trim_start_matches('='))?);
    if from > to {
        return Err(format!("the first shard {from} is after the last {to}"));
    }
    Ok(ShardRange { from, to })
}

impl ServeArgs {
    /// What clap cannot check on one argument: the shards exist.
    pub fn check(&self) -> Result<(), String> {
        if let (Some(r), Some(total)) = (self.shards, self.total) {
            if r.to >= total {
                return Err(format!(
                    "--shards {}..{} needs shard {} but --total {total} has shards 0..{}",
                    r.from,
                    r.to,
                    r.to,
                    total - 1
                ));
            }
        }
        Ok(())
    }
}

/// The system clock plus an offset read from a file (tests of the real
/// binary: `--clock-offset-file`). A missing or unreadable file means 0.
struct OffsetClock(PathBuf);

impl Clock for OffsetClock {
    fn now(&self) -> i64 {
        let offset = std::fs::read_to_string(&self.0)
            .ok()
            .and_then(|s| s.trim().parse::<i64>().ok())
            .unwrap_or(0);
        SystemClock.now().saturating_add(offset)
    }
}

/// How the bot connects and how often the scheduler runs.
#[derive(Debug, Clone)]
pub struct BotConfig {
    /// The bot token.
    pub token: String,
    /// A REST base such as `http://127.0.0.1:PORT` replacing `https://discord.com`
    /// (serenity's rate limiter is then off); the gateway address comes from
    /// that base's `GET /gateway`.
    pub api_base: Option<String>,
    /// Register commands in this server only.
    pub dev_guild: Option<u64>,
    /// Interval of the deadline scheduler.
    pub tick_every: Duration,
    /// Answers that take longer than this are deferred first
    /// ([`DEFER_AFTER`] in production; tests use zero to force deferrals).
    pub defer_after: Duration,
}

/// How the bot takes interactions beyond [`BotConfig`]: the gateway (all
/// shards, or a range) or HTTP, and the extra endpoints.
#[derive(Debug, Clone, Default)]
pub struct Serving {
    /// Discord's interactions as signed HTTP requests (no gateway).
    pub http: Option<HttpEndpoint>,
    /// With the gateway: an address for /healthz and /metrics.
    pub metrics: Option<SocketAddr>,
    /// With the gateway: only these shards (`None`: autosharded).
    pub shards: Option<Shards>,
}

/// The interactions endpoint of `serve --http`.
#[derive(Debug, Clone)]
pub struct HttpEndpoint {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The application's public key, hex (from the developer portal).
    pub public_key: String,
}

/// Gateway shards `from..=to` of `total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shards {
    /// The first shard this process runs.
    pub from: u32,
    /// The last shard this process runs (included).
    pub to: u32,
    /// The bot's number of shards.
    pub total: u32,
}

/// Why the bot stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// No token was configured.
    #[error(
        "DISCORD_TOKEN is not set. Put your bot token from the Discord developer portal \
         into DISCORD_TOKEN (see the README), or play without Discord: `komadai console`"
    )]
    NoToken,
    /// serenity failed (login, gateway).
    #[error("discord: {0}")]
    Discord(#[from] serenity::Error),
    /// `--http` without a public key.
    #[error(
        "--http needs DISCORD_PUBLIC_KEY: copy the Public Key from your application's \
         General Information page in the Discord developer portal"
    )]
    NoPublicKey,
    /// The public key is not an Ed25519 key in hex.
    #[error("DISCORD_PUBLIC_KEY: {0}")]
    PublicKey(String),
    /// The HTTP server failed (bind, accept).
    #[error("http server: {0}")]
    Http(#[from] hyper::Error),
}

/// Runs the bot from the command line until SIGTERM or Ctrl-C.
pub fn serve(args: &ServeArgs) -> Result<(), Box<dyn std::error::Error>> {
    let token = args
        .token
        .clone()
        .filter(|t| !t.trim().is_empty())
        .ok_or(BotError::NoToken)?;
    if args.http.is_some() {
        // Refuse a bad key before opening anything.
        let key = args.public_key.as_deref().unwrap_or_default();
        if key.trim().is_empty() {
            return Err(BotError::NoPublicKey.into());
        }
        web::public_key(key).map_err(BotError::PublicKey)?;
    }
    init_tracing();
    let store = Store::open(&args.db)?;
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let clock: Arc<dyn Clock> = match &args.clock_offset_file {
        Some(path) => Arc::new(OffsetClock(path.clone())),
        None => Arc::new(SystemClock),
    };
    // Caps and rate limits: the defaults, or what the environment says.
    let caps = crate::app::Caps::from_env()?;
    let app = Arc::new(
        App::new(store, clock, Arc::new(SeededDice::new(seed)))
            .with_caps(caps)
            .with_public_url(args.public_url.clone()),
    );
    // The shipped puzzles go into the database (idempotent).
    if let Err(e) = app.load_puzzles() {
        tracing::error!("loading the puzzles: {e}");
    }
    let config = BotConfig {
        token,
        api_base: args.api_base.clone(),
        dev_guild: args.dev_guild,
        tick_every: Duration::from_secs(args.tick_seconds.max(1)),
        defer_after: Duration::from_millis(args.defer_ms),
    };
    let serving = Serving {
        http: args.http.map(|addr| HttpEndpoint {
            addr,
            public_key: args.public_key.clone().unwrap_or_default(),
        }),
        metrics: args.metrics,
        shards: args.shards.zip(args.total).map(|(r, total)| Shards {
            from: r.from,
            to: r.to,
            total,
        }),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let result = runtime.block_on(run_serving(config, serving, app.clone(), shutdown_signal()));
    // Work still running after the grace period (an engine search the app
    // could not stop) is not waited for: the process must end promptly.
    runtime.shutdown_timeout(Duration::from_millis(200));
    result?;
    close(app);
    Ok(())
}

/// Closes the database when the app is no longer used (rusqlite closes on
/// drop); if something still holds it, or dropping takes too long, the
/// process exits anyway — SQLite in WAL mode is consistent at every commit.
fn close(app: Arc<App>) {
    let Ok(app) = Arc::try_unwrap(app) else {
        tracing::warn!("work still running at exit; the database closes with the process");
        return;
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        drop(app);
        let _ = tx.send(());
    });
    match rx.recv_timeout(Duration::from_millis(500)) {
        Ok(()) => tracing::info!("database closed, bye"),
        Err(_) => tracing::warn!("closing took too long; the database closes with the process"),
    }
}

pub(crate) fn init_tracing() {
    // `RUST_LOG` as tracing-subscriber reads it: `debug`, `komadai=debug`,
    // `info,serenity=warn`, ...; info when unset or unreadable.
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Colours only on a terminal: a log file or journald gets plain
    // `key=value` fields.
    use std::io::IsTerminal;
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stdout().is_terminal())
        .try_init();
}

async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutting down");
}

/// Counts interactions in flight so that shutdown can wait for them.
#[derive(Default)]
pub(crate) struct InFlight {
    count: AtomicUsize,
    idle: Notify,
}

/// Decrements the in-flight count when dropped.
pub(crate) struct InFlightGuard(Arc<InFlight>);

impl InFlight {
    fn enter(self: &Arc<Self>) -> InFlightGuard {
        self.count.fetch_add(1, Ordering::SeqCst);
        InFlightGuard(self.clone())
    }

    async fn wait_idle(&self, limit: Duration) {
        let wait = async {
            loop {
                let notified = self.idle.notified();
                if self.count.load(Ordering::SeqCst) == 0 {
                    return;
                }
                notified.await;
            }
        };
        let _ = tokio::time::timeout(limit, wait).await;
    }
}

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

/// Runs the bot over the gateway, autosharded, until `shutdown` completes
/// ([`run_serving`] with the default [`Serving`]).
pub async fn run(
    config: BotConfig,
    app: Arc<App>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), BotError> {
    run_serving(config, Serving::default(), app, shutdown).await
}

/// Completes once shutdown began.
async fn closed(mut closing: watch::Receiver<bool>) {
    let _ = closing.wait_for(|c| *c).await;
}

/// Runs the bot until `shutdown` completes: takes interactions (over the
/// gateway, all shards or some, or as HTTP requests), registers the
/// commands, answers interactions, runs the deadline scheduler, the outbox
/// delivery and the computer worker. On shutdown the app stops its searches
/// first, new interactions are turned away, the shards close (or the HTTP
/// server stops accepting), in-flight interactions finish (or, after a
/// short grace, are answered with "restarting"), and the loops stop — all
/// within about a second and a half; the caller then drops the app, which
/// closes the store.
pub async fn run_serving(
    config: BotConfig,
    serving: Serving,
    app: Arc<App>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), BotError> {
    let key = match &serving.http {
        Some(h) if h.public_key.trim().is_empty() => return Err(BotError::NoPublicKey),
        Some(h) => Some(web::public_key(&h.public_key).map_err(BotError::PublicKey)?),
        None => None,
    };
    // Installs the recorder, so interactions are counted from the start.
    let _ = metrics::handle();
    let mut http = HttpBuilder::new(&config.token);
    if let Some(base) = &config.api_base {
        // serenity's rate limiter ignores the proxy, so it must be off.
        http = http
            .proxy(base.trim_end_matches('/'))
            .ratelimiter_disabled(true);
    }
    let inflight = Arc::new(InFlight::default());
    let (closing_tx, closing) = watch::channel(false);
    let bot = handler::Bot {
        app: app.clone(),
        dev_guild: config.dev_guild,
        defer_after: config.defer_after,
        registered: Arc::new(AtomicBool::new(false)),
        inflight: inflight.clone(),
        outbox: Arc::new(contract::Outbox::new(app.clone())),
        legs: Arc::default(),
        delivering: Arc::default(),
        wake_computer: Arc::new(Notify::new()),
        wake_delivery: Arc::new(Notify::new()),
        closing: closing.clone(),
    };
    let stopping = app.clone();
    tokio::spawn(async move {
        shutdown.await;
        // First stop the searches, so nothing waits for the engine, then
        // take no new interactions and close the gateway or the server.
        let _ = tokio::task::spawn_blocking(move || contract::shutdown_app(&stopping)).await;
        let _ = closing_tx.send(true);
        // Keep the sender alive: dropping it would read as "never closing".
        std::future::pending::<()>().await;
    });
    let (stop_tx, stop_rx) = watch::channel(false);
    let spawn_loops = |http: Arc<Http>| {
        (
            tokio::spawn(handler::scheduler(
                bot.clone(),
                http,
                config.tick_every,
                stop_rx.clone(),
            )),
            tokio::spawn(handler::computer_worker(bot.clone(), stop_rx.clone())),
        )
    };
    let (result, (scheduler, worker)) = match (serving.http, key) {
        (Some(endpoint), Some(key)) => {
            let http = Arc::new(http.build());
            let loops = spawn_loops(http.clone());
            let web = web::Web {
                app: app.clone(),
                interactions: None,
                closing: closing.clone(),
                shards: None,
            };
            let result = serve_http(bot.clone(), http, key, endpoint.addr, web).await;
            (result, loops)
        }
        _ => {
            let mut client = ClientBuilder::new_with_http(http.build(), GatewayIntents::GUILDS)
                .event_handler(bot.clone())
                .await?;
            let loops = spawn_loops(client.http.clone());
            let shards = client.shard_manager.clone();
            let down = closing.clone();
            tokio::spawn(async move {
                closed(down).await;
                shards.shutdown_all().await;
            });
            if let Some(addr) = serving.metrics {
                let web = web::Web {
                    app: app.clone(),
                    interactions: None,
                    closing: closing.clone(),
                    shards: Some(client.shard_manager.clone()),
                };
                let (bound, server) = web::bind(addr, web, closed(closing.clone()))?;
                tracing::info!(%bound, "serving /healthz and /metrics");
                tokio::spawn(server);
            }
            let result = match serving.shards {
                // serenity's range includes its end.
                Some(s) => client.start_shard_range(s.from..s.to, s.total).await,
                None => client.start_autosharded().await,
            };
            (result.map_err(BotError::from), loops)
        }
    };
    let _ = stop_tx.send(true);
    // In-flight interactions end within the grace (answered "restarting" if
    // need be); the margin covers sending those answers.
    inflight
        .wait_idle(handler::SHUTDOWN_GRACE + Duration::from_millis(600))
        .await;
    let _ = tokio::time::timeout(Duration::from_millis(400), async {
        let _ = scheduler.await;
        let _ = worker.await;
    })
    .await;
    result
}

/// `serve --http`: learns the application's id (the commands and the
/// interaction webhooks need it), registers the commands and serves the
/// interactions endpoint until shutdown.
async fn serve_http(
    bot: handler::Bot,
    http: Arc<Http>,
    key: ed25519_dalek::VerifyingKey,
    addr: SocketAddr,
    mut web: web::Web,
) -> Result<(), BotError> {
    let me = Request::new(Route::Oauth2ApplicationCurrent, LightMethod::Get);
    match http.fire::<serde_json::Value>(me).await {
        Ok(v) => {
            let id = v["id"].as_str().and_then(|s| s.parse::<u64>().ok());
            if let Some(id) = id.filter(|&id| id > 0) {
                http.set_application_id(ApplicationId::new(id));
            }
        }
        Err(e) => tracing::warn!(error = %e, "reading the application failed"),
    }
    if http.application_id().is_some() {
        bot.register(&http).await;
    } else {
        tracing::error!("the application id is unknown: the commands were not registered");
    }
    let closing = web.closing.clone();
    web.interactions = Some(web::Interactions { bot, http, key });
    let (bound, server) = web::bind(addr, web, closed(closing.clone()))?;
    tracing::info!(%bound, "listening for Discord's interactions");
    // Connections still open a moment after shutdown began are not waited for.
    tokio::select! {
        r = server => r?,
        () = async {
            closed(closing).await;
            tokio::time::sleep(handler::SHUTDOWN_GRACE).await;
        } => {}
    }
    Ok(())
}
