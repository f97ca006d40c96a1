//! A real PostgreSQL server for the tests that run against both backends.
//!
//! The server is found or started once per test binary:
//! - `KOMADAI_TEST_POSTGRES` (e.g. `postgres://postgres@127.0.0.1:5432`):
//!   a running server to use (`.ci/run` starts one and sets it);
//! - else, when PostgreSQL's server binaries are installed (`initdb` on the
//!   PATH or in `/usr/lib/postgresql/*/bin`), a throwaway cluster in a
//!   temporary directory on 127.0.0.1 and a free port, stopped by a watchdog
//!   when the test process ends. PostgreSQL refuses to run as root, so as
//!   root the cluster belongs to the `postgres` user;
//! - else the PostgreSQL tests are skipped with one line on stderr, unless
//!   `KOMADAI_REQUIRE_POSTGRES=1`, which makes them fail instead.
//!
//! Every test gets a database of its own ([`fresh_database`]).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Where the server is: a URL without a database name.
struct Server {
    base: String,
    /// Keeps the throwaway cluster's directory alive.
    _dir: Option<tempfile::TempDir>,
}

static SERVER: OnceLock<Option<Server>> = OnceLock::new();
static COUNTER: AtomicUsize = AtomicUsize::new(0);

fn required() -> bool {
    std::env::var("KOMADAI_REQUIRE_POSTGRES").is_ok_and(|v| v == "1")
}

/// The directory of PostgreSQL's server binaries, if they are installed.
fn bin_dir() -> Option<PathBuf> {
    if let Ok(path) = std::env::var("PATH") {
        for dir in std::env::split_paths(&path) {
            if dir.join("initdb").is_file() && dir.join("pg_ctl").is_file() {
                return Some(dir);
            }
        }
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|d| d.join("initdb").is_file())
        .collect();
    found.sort();
    found.pop()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Runs a PostgreSQL program, as the `postgres` user when we are root.
fn pg_command(bin: &Path, program: &str, root: bool) -> Command {
    if root {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(bin.join(program));
        c
    } else {
        Command::new(bin.join(program))
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

// The watchdog outlives the test process on purpose (it stops the cluster
// once the tests are gone), so it is never waited for.
#[allow(clippy::zombie_processes)]
fn start_cluster(bin: &Path) -> Server {
    let root = is_root();
    let dir = tempfile::Builder::new()
        .prefix("komadai-pg-")
        .tempdir()
        .expect("temp dir");
    let data = dir.path().join("data");
    std::fs::create_dir(&data).expect("data dir");
    if root {
        let ok = Command::new("chown")
            .args(["-R", "postgres:postgres"])
            .arg(dir.path())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "chown of the cluster directory to postgres failed");
    }
    let out = pg_command(bin, "initdb", root)
        .args([
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--no-sync",
            "-D",
        ])
        .arg(&data)
        .output()
        .expect("initdb runs");
    assert!(
        out.status.success(),
        "initdb failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let port = free_port();
    let opts = format!(
        "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
        dir.path().display()
    );
    let out = pg_command(bin, "pg_ctl", root)
        .args(["-w", "-t", "60", "-D"])
        .arg(&data)
        .arg("-l")
        .arg(dir.path().join("log"))
        .args(["-o", &opts, "start"])
        .output()
        .expect("pg_ctl runs");
    assert!(
        out.status.success(),
        "pg_ctl start failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        std::fs::read_to_string(dir.path().join("log")).unwrap_or_default()
    );
    // The watchdog stops the cluster when this test process is gone.
    let stop = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 1; done; {runas}{pg_ctl} -D {data} -m immediate stop >/dev/null 2>&1",
        pid = std::process::id(),
        runas = if root { "runuser -u postgres -- " } else { "" },
        pg_ctl = bin.join("pg_ctl").display(),
        data = data.display(),
    );
    Command::new("sh")
        .args(["-c", &stop])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("watchdog starts");
    Server {
        base: format!("postgres://postgres@127.0.0.1:{port}"),
        _dir: Some(dir),
    }
}

fn server() -> Option<&'static Server> {
    SERVER
        .get_or_init(|| {
            if let Ok(url) = std::env::var("KOMADAI_TEST_POSTGRES") {
                if !url.trim().is_empty() {
                    return Some(Server {
                        base: url.trim().trim_end_matches('/').to_string(),
                        _dir: None,
                    });
                }
            }
            match bin_dir() {
                Some(bin) => Some(start_cluster(&bin)),
                None if required() => panic!(
                    "KOMADAI_REQUIRE_POSTGRES=1 but no PostgreSQL server binary (initdb) is installed"
                ),
                None => {
                    eprintln!(
                        "skipping the PostgreSQL tests: no PostgreSQL server binary (initdb) is installed \
                         (apt-get install postgresql runs them; KOMADAI_REQUIRE_POSTGRES=1 makes this an error)"
                    );
                    None
                }
            }
        })
        .as_ref()
}

/// Whether the PostgreSQL tests run (a server is there).
pub fn available() -> bool {
    server().is_some()
}

/// A new, empty database on the test server: its URL. `None` when the
/// PostgreSQL tests are skipped.
pub fn fresh_database(name: &str) -> Option<String> {
    let server = server()?;
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .take(30)
        .collect();
    let db = format!("k_{clean}_{}_{n}", std::process::id());
    let mut admin =
        postgres::Client::connect(&format!("{}/postgres", server.base), postgres::NoTls)
            .expect("connect to the test server");
    admin
        .batch_execute(&format!("CREATE DATABASE {db}"))
        .expect("create the test database");
    Some(format!("{}/{db}", server.base))
}
