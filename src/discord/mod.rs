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
mod handler;
mod out;
mod text;

use std::future::Future;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serenity::all::{ClientBuilder, GatewayIntents, HttpBuilder};
use tokio::sync::Notify;

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
}

/// Runs the bot from the command line until SIGTERM or Ctrl-C.
pub fn serve(args: &ServeArgs) -> Result<(), Box<dyn std::error::Error>> {
    let token = args
        .token
        .clone()
        .filter(|t| !t.trim().is_empty())
        .ok_or(BotError::NoToken)?;
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
    let app = Arc::new(App::new(store, clock, Arc::new(SeededDice::new(seed))).with_caps(caps));
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
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let result = runtime.block_on(run(config, app.clone(), shutdown_signal()));
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

fn init_tracing() {
    // `RUST_LOG` as tracing-subscriber reads it: `debug`, `komadai=debug`,
    // `info,serenity=warn`, ...; info when unset or unreadable.
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).try_init();
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

/// Runs the bot until `shutdown` completes: connects (autosharded), registers
/// the commands, answers interactions, runs the deadline scheduler, the
/// outbox delivery and the computer worker. On shutdown the app stops its
/// searches first, new interactions are turned away, the shards close,
/// in-flight interactions finish (or, after a short grace, are answered with
/// "restarting"), and the loops stop — all within about a second and a half;
/// the caller then drops the app, which closes the store.
pub async fn run(
    config: BotConfig,
    app: Arc<App>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), BotError> {
    let mut http = HttpBuilder::new(&config.token);
    if let Some(base) = &config.api_base {
        // serenity's rate limiter ignores the proxy, so it must be off.
        http = http
            .proxy(base.trim_end_matches('/'))
            .ratelimiter_disabled(true);
    }
    let inflight = Arc::new(InFlight::default());
    let (closing_tx, closing) = tokio::sync::watch::channel(false);
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
        closing,
    };
    let mut client = ClientBuilder::new_with_http(http.build(), GatewayIntents::GUILDS)
        .event_handler(bot.clone())
        .await?;
    let shards = client.shard_manager.clone();
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let scheduler = tokio::spawn(handler::scheduler(
        bot.clone(),
        client.http.clone(),
        config.tick_every,
        stop_rx.clone(),
    ));
    let worker = tokio::spawn(handler::computer_worker(bot.clone(), stop_rx));
    let stopping = app.clone();
    tokio::spawn(async move {
        shutdown.await;
        // First stop the searches, so nothing waits for the engine, then
        // take no new interactions and close the gateway.
        let _ = tokio::task::spawn_blocking(move || contract::shutdown_app(&stopping)).await;
        let _ = closing_tx.send(true);
        shards.shutdown_all().await;
        // Keep the sender alive: dropping it would read as "never closing".
        std::future::pending::<()>().await;
    });
    let result = client.start_autosharded().await;
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
    result.map_err(BotError::from)
}
