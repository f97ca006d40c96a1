//! The load benchmark (issue #18): a simulated community of 10,000 servers
//! with 100,000 active games and 2,000,000 stored moves, under mixed traffic
//! — 70 % `/move` autocomplete, 25 % `/move` answered with the board PNG,
//! 5 % other (`/games`, `/board` with its PNG, `/export` as KIF) — driven
//! through `komadai::app::App` exactly as the Discord adapter calls it
//! (`move_command` with a request id, the PNG encoded, the announcement
//! acknowledged; autocomplete and commands sent in the game's thread).
//!
//! One process seeds the database (`--seed`, `src/store/load.rs`) and
//! coordinates; the load runs in `--procs` child processes (this binary
//! again), each owning every `procs`-th game so two processes never play
//! the same game. For each `--threads` count the children run a closed loop
//! (each client thread sends its next request when the last is answered);
//! the best total is the saturating throughput. Then an open loop sends
//! requests at half that rate on a fixed schedule, latency counted from the
//! scheduled time (so queueing shows). Each child reports its peak RSS
//! (`VmHWM`). Output: one table.
//!
//! Run through `scripts/load/run.sh`, or by hand:
//! `cargo bench --bench load -- --db FILE_OR_URL --seed --procs 1`.
//! `cargo test --benches` runs a tiny version (a few dozen games, one
//! second) that only checks that every request succeeds.

mod scenario;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use komadai::app::{App, Caller, ManualClock, Place, SeededDice};
use komadai::i18n::Lang;
use komadai::notation::RecordFormat;
use komadai::shogi::Move;
use komadai::store::Store;

use scenario::{Layout, LINE_PLIES, T0, THREAD_BASE};

/// The request kinds, in the order of the table.
const OPS: [&str; 5] = ["autocomplete", "move+png", "games", "board+png", "export"];
const AUTOCOMPLETE: usize = 0;
const MOVE: usize = 1;
/// What a player has typed when autocomplete asks (every keystroke asks).
const TYPED: [&str; 8] = ["", "7", "P", "2g", "G", "76", "S", "+"];
/// Marks a game whose move is being played (the low bits hold its ply).
const BUSY: u32 = 1 << 31;
/// Seconds of each measurement spent warming up first (not counted).
const WARMUP_SECS: f64 = 2.0;

#[derive(Clone, Debug)]
struct Opts {
    db: Option<String>,
    seed: bool,
    only_seed: bool,
    layout: Layout,
    procs: usize,
    secs: f64,
    threads: Vec<usize>,
    open_workers: usize,
    /// Only `/move` requests (for profiling the move path).
    moves_only: bool,
    label: String,
    child: Option<usize>,
    tiny: bool,
}

fn parse_args() -> Opts {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: then
    // the run is tiny and only checks that everything answers.
    let tiny = !args.iter().any(|a| a == "--bench");
    let mut o = Opts {
        db: None,
        seed: false,
        only_seed: false,
        layout: Layout {
            games: 100_000,
            guilds: 10_000,
            avg_plies: 20,
        },
        procs: 1,
        secs: 15.0,
        threads: vec![2, 4, 8],
        open_workers: 32,
        moves_only: false,
        label: String::new(),
        child: None,
        tiny,
    };
    if tiny {
        o.seed = true;
        o.layout = Layout {
            games: 60,
            guilds: 6,
            avg_plies: 4,
        };
        o.secs = 1.0;
        o.threads = vec![2];
        o.open_workers = 2;
    }
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--bench" => {}
            "--db" => o.db = Some(val()),
            "--seed" => o.seed = true,
            "--only-seed" => {
                o.seed = true;
                o.only_seed = true;
            }
            "--games" => o.layout.games = val().parse().expect("--games N"),
            "--guilds" => o.layout.guilds = val().parse().expect("--guilds N"),
            "--avg-plies" => o.layout.avg_plies = val().parse().expect("--avg-plies N"),
            "--procs" => o.procs = val().parse().expect("--procs N"),
            "--secs" => o.secs = val().parse().expect("--secs S"),
            "--threads" => {
                o.threads = val()
                    .split(',')
                    .map(|t| t.parse().expect("--threads 2,4,8"))
                    .collect();
            }
            "--open-workers" => o.open_workers = val().parse().expect("--open-workers N"),
            "--moves-only" => o.moves_only = true,
            "--label" => o.label = val(),
            "--child" => o.child = Some(val().parse().expect("--child K")),
            // `cargo test --benches -- ARGS` passes the test harness's
            // arguments (filters, `--nocapture`): the tiny run ignores them.
            _ if tiny => {}
            other => panic!("unknown argument {other}"),
        }
    }
    assert!(o.layout.games % 2 == 0, "--games must be even");
    assert!(o.procs >= 1);
    o
}

fn main() {
    let o = parse_args();
    match o.child {
        Some(k) => child(&o, k),
        None => coordinator(o),
    }
}

// ---------------------------------------------------------------------------
// The load process.

/// A game this process plays in.
struct Slot {
    spec: scenario::Spec,
    /// Plies played; `BUSY` while a move is being played.
    ply: AtomicU32,
}

struct Load {
    app: App,
    slots: Vec<Slot>,
    lines: Vec<Vec<Move>>,
    moves_only: bool,
    proc_id: usize,
    requests: AtomicU64,
    errors: AtomicU64,
    first_error: std::sync::Mutex<Option<String>>,
}

fn caller(user: i64) -> Caller {
    Caller::new(user, &scenario::name_of(user), Lang::En)
}

impl Load {
    fn place(s: &scenario::Spec) -> Place {
        Place {
            guild: Some(s.guild),
            channel: Some(s.thread),
        }
    }

    /// The player to move at `ply` (every game starts with Sente to move).
    fn to_move(s: &scenario::Spec, ply: u32) -> i64 {
        if ply % 2 == 0 {
            s.sente
        } else {
            s.gote
        }
    }

    fn failed(&self, what: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut first = self
            .first_error
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        first.get_or_insert(what);
    }

    /// Runs one request chosen by `rng`; returns its kind, or `None` when
    /// there was nothing to do (every picked game was busy or used up).
    fn one(&self, rng: &mut fastrand::Rng) -> Option<usize> {
        let r = if self.moves_only {
            700
        } else {
            rng.u32(0..1000)
        };
        let slot = &self.slots[rng.usize(..self.slots.len())];
        let s = &slot.spec;
        let place = Self::place(s);
        match r {
            0..700 => {
                let seen = slot.ply.load(Ordering::Acquire);
                let who = caller(Self::to_move(s, seen & !BUSY));
                let typed = TYPED[rng.usize(..TYPED.len())];
                match self.app.move_suggestions(&who, None, typed, place, 25) {
                    // Nothing to suggest is wrong unless a move was played
                    // meanwhile (then the other player is to move).
                    Ok(v)
                        if v.is_empty()
                            && typed.is_empty()
                            && slot.ply.load(Ordering::Acquire) == seen
                            && seen & BUSY == 0 =>
                    {
                        self.failed(format!("no suggestions in game {}", s.index));
                    }
                    Ok(_) => {}
                    Err(e) => self.failed(format!("autocomplete: {e:?}")),
                }
                Some(AUTOCOMPLETE)
            }
            700..950 => {
                // A game nobody is moving in right now, with line left.
                for _ in 0..8 {
                    let slot = &self.slots[rng.usize(..self.slots.len())];
                    let ply = slot.ply.load(Ordering::Relaxed);
                    if ply & BUSY != 0 || ply as usize >= LINE_PLIES {
                        continue;
                    }
                    if slot
                        .ply
                        .compare_exchange(ply, ply | BUSY, Ordering::Acquire, Ordering::Relaxed)
                        .is_err()
                    {
                        continue;
                    }
                    let s = &slot.spec;
                    let who = caller(Self::to_move(s, ply));
                    let text = self.lines[s.line][ply as usize].to_string();
                    let n = self.requests.fetch_add(1, Ordering::Relaxed);
                    let request = format!("load-{}-{}-{n}", std::process::id(), self.proc_id);
                    let played =
                        self.app
                            .move_command(&who, None, &text, Self::place(s), Some(&request));
                    let next = match played {
                        Ok(r) => {
                            match r.board.as_ref().map(|b| b.png(r.lang)) {
                                Some(Ok(png)) if png.len() > 1000 => {}
                                other => self.failed(format!("move without a PNG: {other:?}")),
                            }
                            // The adapter posted the answer: the announcement
                            // is acknowledged, as the Discord handler does.
                            for id in r.announcements {
                                if let Err(e) = self.app.ack_notice(id) {
                                    self.failed(format!("ack: {e:?}"));
                                }
                            }
                            ply + 1
                        }
                        Err(e) => {
                            self.failed(format!("move {text} in game {}: {e:?}", s.index));
                            ply
                        }
                    };
                    slot.ply.store(next, Ordering::Release);
                    return Some(MOVE);
                }
                None
            }
            _ => {
                let player = if r % 2 == 0 { s.sente } else { s.gote };
                let who = caller(player);
                let kind = 2 + (r as usize % 3);
                let result = match kind {
                    2 => self.app.games(&who).map(|_| ()),
                    3 => self.app.board(&who, None, place).map(|r| {
                        let png = r.board.map(|b| b.png(r.lang));
                        if !matches!(png, Some(Ok(p)) if p.len() > 1000) {
                            self.failed("/board without a PNG".into());
                        }
                    }),
                    _ => self
                        .app
                        .export(&who, None, RecordFormat::Kif, place)
                        .map(|r| {
                            if r.attachment.is_none() {
                                self.failed("/export without a file".into());
                            }
                        }),
                };
                if let Err(e) = result {
                    self.failed(format!("{}: {e:?}", OPS[kind]));
                }
                Some(kind)
            }
        }
    }
}

/// Latencies in microseconds per request kind.
type Samples = Vec<Vec<u32>>;

fn micros(d: Duration) -> u32 {
    u32::try_from(d.as_micros()).unwrap_or(u32::MAX)
}

/// Closed loop: `threads` clients, each sending its next request as soon as
/// the last one is answered.
fn closed(load: &Arc<Load>, threads: usize, secs: f64) -> Samples {
    let start = Instant::now() + Duration::from_secs_f64(WARMUP_SECS);
    let end = start + Duration::from_secs_f64(secs);
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let load = load.clone();
            std::thread::spawn(move || {
                let mut rng = fastrand::Rng::with_seed(mix_seed(load.proc_id, t));
                let mut out: Samples = vec![Vec::new(); OPS.len()];
                loop {
                    let t0 = Instant::now();
                    if t0 >= end {
                        break;
                    }
                    if let Some(kind) = load.one(&mut rng) {
                        if t0 >= start {
                            out[kind].push(micros(t0.elapsed()));
                        }
                    }
                }
                out
            })
        })
        .collect();
    merge(
        handles
            .into_iter()
            .map(|h| h.join().expect("client thread")),
    )
}

/// Open loop: requests at `rate` per second on a fixed schedule (request
/// `k` is due at `k / rate` seconds), taken in order by whichever of the
/// `workers` threads is free, as the adapter hands each interaction to
/// tokio's blocking pool; latency counts from the moment a request was due,
/// so a request that waited for a free thread shows that wait.
fn open(load: &Arc<Load>, rate: f64, workers: usize, secs: f64) -> Samples {
    let begin = Instant::now();
    let warm = Duration::from_secs_f64(WARMUP_SECS);
    let total = Duration::from_secs_f64(WARMUP_SECS + secs);
    let next = Arc::new(AtomicU64::new(0));
    let handles: Vec<_> = (0..workers)
        .map(|w| {
            let (load, next) = (load.clone(), next.clone());
            std::thread::spawn(move || {
                let mut rng = fastrand::Rng::with_seed(mix_seed(load.proc_id, 1000 + w));
                let mut out: Samples = vec![Vec::new(); OPS.len()];
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let at = Duration::from_secs_f64(k as f64 / rate);
                    if at >= total {
                        break;
                    }
                    let due = begin + at;
                    let now = Instant::now();
                    if due > now {
                        std::thread::sleep(due - now);
                    }
                    if let Some(kind) = load.one(&mut rng) {
                        if at >= warm {
                            out[kind].push(micros(due.elapsed()));
                        }
                    }
                }
                out
            })
        })
        .collect();
    merge(
        handles
            .into_iter()
            .map(|h| h.join().expect("open-loop worker")),
    )
}

fn mix_seed(proc_id: usize, thread: usize) -> u64 {
    scenario::mix(((proc_id as u64) << 32) | thread as u64)
}

fn merge(parts: impl Iterator<Item = Samples>) -> Samples {
    let mut all: Samples = vec![Vec::new(); OPS.len()];
    for p in parts {
        for (a, b) in all.iter_mut().zip(p) {
            a.extend(b);
        }
    }
    all
}

/// `VmHWM` (peak resident set) and `VmRSS` of this process, in KiB.
fn rss_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

/// A load process: opens the store, learns where its games stand, then runs
/// the coordinator's commands from stdin, answering on stdout.
fn child(o: &Opts, k: usize) {
    let db = o.db.as_deref().expect("a child has --db");
    let store = Store::open(db).expect("the store opens");
    let lines = scenario::lines();
    let last = THREAD_BASE + o.layout.games as i64 - 1;
    let plies: std::collections::HashMap<i64, i64> = store
        .read(|r| r.plies_by_thread(THREAD_BASE, last))
        .expect("plies of the seeded games")
        .into_iter()
        .collect();
    let slots: Vec<Slot> = (k..o.layout.games)
        .step_by(o.procs)
        .filter_map(|i| {
            let spec = o.layout.spec(i);
            let ply = *plies.get(&spec.thread)?;
            Some(Slot {
                spec,
                ply: AtomicU32::new(u32::try_from(ply).expect("ply")),
            })
        })
        .collect();
    assert!(!slots.is_empty(), "no seeded games: seed first (--seed)");
    let load = Arc::new(Load {
        app: App::new(
            store,
            Arc::new(ManualClock::new(T0)),
            Arc::new(SeededDice::new(k as u64)),
        ),
        slots,
        lines,
        moves_only: o.moves_only,
        proc_id: k,
        requests: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        first_error: std::sync::Mutex::new(None),
    });
    let mut out = std::io::stdout().lock();
    writeln!(out, "ready {}", load.slots.len()).expect("stdout");
    out.flush().expect("stdout");
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let w: Vec<&str> = line.split_whitespace().collect();
        let samples = match w.as_slice() {
            ["closed", threads, secs] => closed(
                &load,
                threads.parse().expect("threads"),
                secs.parse().expect("secs"),
            ),
            ["open", rate, workers, secs] => open(
                &load,
                rate.parse().expect("rate"),
                workers.parse().expect("workers"),
                secs.parse().expect("secs"),
            ),
            ["quit"] => {
                let (hwm, rss) = rss_kib();
                writeln!(out, "rss {hwm} {rss}").expect("stdout");
                break;
            }
            _ => panic!("unknown command {line}"),
        };
        for (kind, lat) in samples.iter().enumerate() {
            let text: Vec<String> = lat.iter().map(ToString::to_string).collect();
            writeln!(out, "op {kind} {}", text.join(" ")).expect("stdout");
        }
        let errors = load.errors.swap(0, Ordering::Relaxed);
        let first = load
            .first_error
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
            .unwrap_or_default();
        writeln!(out, "errors {errors} {first}").expect("stdout");
        writeln!(out, "done").expect("stdout");
        out.flush().expect("stdout");
    }
}

// ---------------------------------------------------------------------------
// The coordinator.

struct Proc {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Proc {
    fn read_line(&mut self) -> String {
        let mut s = String::new();
        let n = self.stdout.read_line(&mut s).expect("child stdout");
        assert!(n > 0, "a load process ended early");
        s.trim_end().to_string()
    }
}

/// What one measurement found over all processes.
struct Phase {
    secs: f64,
    samples: Samples,
    errors: u64,
    first_error: String,
}

impl Phase {
    fn total_rate(&self) -> f64 {
        self.samples.iter().map(Vec::len).sum::<usize>() as f64 / self.secs
    }
}

fn run_phase(procs: &mut [Proc], command: &str, secs: f64) -> Phase {
    for p in procs.iter_mut() {
        writeln!(p.stdin, "{command}").expect("child stdin");
        p.stdin.flush().expect("child stdin");
    }
    let mut phase = Phase {
        secs,
        samples: vec![Vec::new(); OPS.len()],
        errors: 0,
        first_error: String::new(),
    };
    for p in procs.iter_mut() {
        loop {
            let line = p.read_line();
            let mut w = line.splitn(3, ' ');
            match w.next() {
                Some("op") => {
                    let kind: usize = w.next().and_then(|k| k.parse().ok()).expect("op kind");
                    phase.samples[kind].extend(
                        w.next()
                            .unwrap_or("")
                            .split_whitespace()
                            .map(|v| v.parse::<u32>().expect("latency")),
                    );
                }
                Some("errors") => {
                    phase.errors += w.next().and_then(|n| n.parse().ok()).unwrap_or(0);
                    if phase.first_error.is_empty() {
                        phase.first_error = w.next().unwrap_or("").to_string();
                    }
                }
                Some("done") => break,
                _ => panic!("unexpected line from a load process: {line}"),
            }
        }
    }
    for s in &mut phase.samples {
        s.sort_unstable();
    }
    phase
}

fn percentile_ms(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

fn print_phase(label: &str, what: &str, phase: &Phase) {
    println!(
        "{label} | {what}: {:.0} requests/s, {} errors{}",
        phase.total_rate(),
        phase.errors,
        if phase.errors > 0 {
            format!(" (first: {})", phase.first_error)
        } else {
            String::new()
        }
    );
    for (kind, s) in phase.samples.iter().enumerate() {
        if s.is_empty() {
            continue;
        }
        println!(
            "{label} |   {:<13} {:>8.1}/s   p50 {:>7.2} ms   p99 {:>7.2} ms",
            OPS[kind],
            s.len() as f64 / phase.secs,
            percentile_ms(s, 0.5),
            percentile_ms(s, 0.99),
        );
    }
}

fn coordinator(mut o: Opts) {
    let _tmp;
    if o.db.is_none() {
        let dir = tempfile::tempdir().expect("temp dir");
        o.db = Some(dir.path().join("load.db").display().to_string());
        _tmp = dir;
    }
    let db = o.db.clone().expect("db");
    let label = if o.label.is_empty() {
        format!(
            "{}-{}",
            if komadai::store::is_postgres_url(&db) {
                "pg"
            } else {
                "sqlite"
            },
            o.procs
        )
    } else {
        o.label.clone()
    };
    if o.seed {
        let t = Instant::now();
        let store = Store::open(&db).expect("the store opens");
        let lines = scenario::lines();
        let total = o.layout.total_plies();
        let mut next_report = 0;
        scenario::seed(&store, &o.layout, &lines, |done| {
            if done >= next_report {
                eprintln!(
                    "seeded {done}/{} games ({:.0} s)",
                    o.layout.games,
                    t.elapsed().as_secs_f64()
                );
                next_report = done + o.layout.games / 10;
            }
        })
        .expect("seeding");
        println!(
            "{label} | seeded {} servers, {} games, {total} moves in {:.0} s",
            o.layout.guilds,
            o.layout.games,
            t.elapsed().as_secs_f64()
        );
    }
    if o.only_seed {
        return;
    }
    let exe = std::env::current_exe().expect("own executable");
    let mut procs: Vec<Proc> = (0..o.procs)
        .map(|k| {
            let mut c = Command::new(&exe);
            c.args(["--child", &k.to_string(), "--db", &db])
                .args(["--procs", &o.procs.to_string()])
                .args(["--games", &o.layout.games.to_string()])
                .args(["--guilds", &o.layout.guilds.to_string()])
                .args(["--avg-plies", &o.layout.avg_plies.to_string()])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped());
            if o.moves_only {
                c.arg("--moves-only");
            }
            if !o.tiny {
                c.arg("--bench");
            }
            let mut child = c.spawn().expect("a load process starts");
            let stdin = child.stdin.take().expect("stdin");
            let stdout = BufReader::new(child.stdout.take().expect("stdout"));
            Proc {
                child,
                stdin,
                stdout,
            }
        })
        .collect();
    for p in &mut procs {
        let ready = p.read_line();
        assert!(ready.starts_with("ready "), "{ready}");
    }
    let mut best: Option<(usize, Phase)> = None;
    for &t in &o.threads {
        let phase = run_phase(&mut procs, &format!("closed {t} {}", o.secs), o.secs);
        print_phase(
            &label,
            &format!("closed loop, {t} clients per process"),
            &phase,
        );
        if o.tiny {
            assert_eq!(phase.errors, 0, "{}", phase.first_error);
            assert!(phase.samples[AUTOCOMPLETE].len() + phase.samples[MOVE].len() > 0);
        }
        if best
            .as_ref()
            .is_none_or(|(_, b)| phase.total_rate() > b.total_rate())
        {
            best = Some((t, phase));
        }
    }
    let (best_threads, saturated) = best.expect("at least one --threads");
    let half = saturated.total_rate() / 2.0;
    let phase = run_phase(
        &mut procs,
        &format!(
            "open {} {} {}",
            half / o.procs as f64,
            o.open_workers,
            o.secs
        ),
        o.secs,
    );
    print_phase(
        &label,
        &format!("open loop at half of the saturating {:.0}/s", 2.0 * half),
        &phase,
    );
    if o.tiny {
        assert_eq!(phase.errors, 0, "{}", phase.first_error);
    }
    let mut rss = Vec::new();
    for p in &mut procs {
        writeln!(p.stdin, "quit").expect("child stdin");
        p.stdin.flush().expect("child stdin");
        let line = p.read_line();
        let v: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .map(|n| n.parse().expect("rss"))
            .collect();
        rss.push(v[0]);
        let status = p.child.wait().expect("load process ends");
        assert!(status.success(), "a load process failed");
    }
    let rss_mb: Vec<String> = rss
        .iter()
        .map(|kib| format!("{:.0} MB", *kib as f64 / 1024.0))
        .collect();
    println!(
        "{label} | peak RSS per load process (VmHWM): {}",
        rss_mb.join(", ")
    );
    // One summary line for scripts/load/run.sh's table.
    let s = &saturated.samples;
    let h = &phase.samples;
    println!(
        "SUMMARY {label} sat={:.0}/s({}thr) move={:.0}/s ac_p50={:.2} ac_p99={:.2} move_p50={:.2} move_p99={:.2} | half: ac_p50={:.2} ac_p99={:.2} move_p50={:.2} move_p99={:.2} other_p99={:.2} | rss_mb={} errors={}",
        saturated.total_rate(),
        best_threads,
        s[MOVE].len() as f64 / saturated.secs,
        percentile_ms(&s[AUTOCOMPLETE], 0.5),
        percentile_ms(&s[AUTOCOMPLETE], 0.99),
        percentile_ms(&s[MOVE], 0.5),
        percentile_ms(&s[MOVE], 0.99),
        percentile_ms(&h[AUTOCOMPLETE], 0.5),
        percentile_ms(&h[AUTOCOMPLETE], 0.99),
        percentile_ms(&h[MOVE], 0.5),
        percentile_ms(&h[MOVE], 0.99),
        {
            let mut other: Vec<u32> = h[2..].iter().flatten().copied().collect();
            other.sort_unstable();
            percentile_ms(&other, 0.99)
        },
        rss_mb.join("/").replace(" MB", ""),
        saturated.errors + phase.errors,
    );
}
