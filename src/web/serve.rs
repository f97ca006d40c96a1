//! The game pages over HTTP (hyper 0.14): [`handle`] for any server that
//! routes `/g/…` here (the HTTP server of `serve` does), and `komadai web`,
//! a server of only the pages (and `/healthz`) over a database.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hyper::header::{HeaderName, HeaderValue, ACCEPT_LANGUAGE};
use hyper::service::{make_service_fn, service_fn};
use hyper::{Body, Request, Response, Server, StatusCode};

use super::{respond, PageRequest, PageResponse};
use crate::app::{App, SeededDice, SystemClock};
use crate::store::Store;

/// `komadai web`: serve the game pages of a database on their own.
#[derive(Debug, clap::Args)]
pub struct WebArgs {
    /// The database: a SQLite file or a `postgres://…` URL (the bot's).
    #[arg(long, default_value = "komadai.db", env = "KOMADAI_DB")]
    pub db: PathBuf,
    /// The address to listen on.
    #[arg(
        long,
        value_name = "ADDR",
        default_value = "127.0.0.1:8080",
        env = "KOMADAI_WEB"
    )]
    pub listen: SocketAddr,
}

/// Answers a request for a game page (blocking work off the runtime).
pub async fn handle(app: Arc<App>, req: Request<Body>) -> Response<Body> {
    let method = req.method().as_str().to_string();
    let path = req.uri().path().to_string();
    let query = req.uri().query().map(str::to_string);
    let accept = req
        .headers()
        .get(ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let answer = tokio::task::spawn_blocking(move || {
        respond(
            &app,
            &PageRequest {
                method: &method,
                path: &path,
                query: query.as_deref(),
                accept_language: accept.as_deref(),
            },
        )
    })
    .await;
    match answer {
        Ok(r) => to_hyper(r),
        Err(e) => {
            tracing::error!(error = %e, "a game page panicked");
            to_hyper(PageResponse::plain(500, "internal error"))
        }
    }
}

fn to_hyper(r: PageResponse) -> Response<Body> {
    let mut out = Response::new(Body::from(r.body));
    *out.status_mut() = StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    for (name, value) in r.headers {
        if let Ok(v) = HeaderValue::from_str(&value) {
            out.headers_mut().insert(HeaderName::from_static(name), v);
        }
    }
    out
}

/// Binds `addr` and serves the game pages (and `/healthz`) of `app` until
/// `shutdown` completes. Returns the bound address (port 0 picks one).
pub fn bind(
    addr: SocketAddr,
    app: Arc<App>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(SocketAddr, impl Future<Output = hyper::Result<()>>), hyper::Error> {
    let make = make_service_fn(move |_| {
        let app = app.clone();
        async move {
            Ok::<_, Infallible>(service_fn(move |req: Request<Body>| {
                let app = app.clone();
                async move {
                    let r = if req.uri().path() == "/healthz" {
                        health(app).await
                    } else {
                        handle(app, req).await
                    };
                    Ok::<_, Infallible>(r)
                }
            }))
        }
    });
    let server = Server::try_bind(&addr)?
        .http1_header_read_timeout(Duration::from_secs(10))
        .serve(make);
    let bound = server.local_addr();
    Ok((bound, server.with_graceful_shutdown(shutdown)))
}

async fn health(app: Arc<App>) -> Response<Body> {
    let ok = tokio::task::spawn_blocking(move || app.with_store(|s| s.peek(|_| ())))
        .await
        .is_ok_and(|r| matches!(r, Ok(Ok(()))));
    to_hyper(if ok {
        PageResponse::plain(200, "ok")
    } else {
        PageResponse::plain(503, "database unavailable")
    })
}

/// `komadai web`: opens the database (migrating it if need be) and serves
/// until Ctrl-C or SIGTERM.
pub fn run(args: &WebArgs) -> Result<(), Box<dyn std::error::Error>> {
    let store = Store::open(&args.db)?;
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let app = Arc::new(App::new(
        store,
        Arc::new(SystemClock),
        Arc::new(SeededDice::new(seed)),
    ));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let (bound, server) = bind(args.listen, app, stopped())?;
        // Scripts and tests read the address from this first line; the
        // log (RUST_LOG, as for `serve`) follows.
        println!("listening on http://{bound}");
        crate::discord::init_tracing();
        server.await?;
        Ok(())
    })
}

/// Completes on Ctrl-C or (on Unix) SIGTERM.
async fn stopped() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
