//! komadai scaled out over one PostgreSQL database: three HTTP workers
//! (`three_http_workers_one_database_two_kills`) and two gateway processes
//! that split the shards (`two_gateway_processes_split_the_shards`), each
//! with kills, duplicates and the clock passing deadlines.
//!
//! The HTTP test: three `komadai serve --http` workers behind a round-robin
//! "load balancer", one of them SIGKILLed twice.
//!
//! The fake Discord shapes each interaction and the test signs it (Ed25519,
//! as Discord does) and POSTs it to the next worker. Fifty games of 40 plies
//! are played, moves of all games at once; with them go autocomplete
//! requests (what a player's every keystroke sends), and every fifth move is
//! also POSTed to a second worker at the same moment with the same
//! interaction id (a load balancer's retry). Worker 1 is SIGKILLed twice
//! with requests in flight and restarted on the same address. Then the
//! clock (shared by the workers through `--clock-offset-file`) passes half
//! the move time, then 90 % of it, then the deadline, while every worker's
//! scheduler runs each second.
//!
//! Asserted: every game holds exactly its 40 moves, in order, legal; no
//! move acknowledged twice, and every move acknowledged is stored; every
//! request a live worker was sent is answered (in the HTTP body, or over
//! REST after a deferral) within 20 s — no deadlock, nothing lost without
//! an answer; a request cut off by the kill is a failed HTTP request, which
//! Discord shows the player as failed, and the player sends it again; each
//! game gets exactly one half-time reminder, one 10 %-left reminder and one
//! timeout notice across the three workers (exactly once: the outbox row is
//! claimed by one worker and the reminder bit set by one UPDATE).

use crate::fake_discord;

use crate::endpoint;

use crate::pg;

use crate::lines;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use endpoint::{free_port, opt, Endpoint, WAIT};
use fake_discord::{Call, Fake, CHANNEL};
use futures_util::future::join_all;
use komadai::notation::{format_move, Style};
use komadai::shogi::{Game, Move, Position};
use komadai::store::Store;
use serde_json::{json, Value};

const GAMES: usize = 50;
const PLIES: usize = 40;
const WORKERS: usize = 3;
/// Rounds in which worker 1 is killed with requests in flight.
const KILL_ROUNDS: [usize; 2] = [7, 23];
const DAY: i64 = 86_400;

/// The two players of game `g` (0-based): Sente challenges Gote.
fn player(g: usize, side: usize) -> u64 {
    300_000_000_000_000_000 + (2 * g + side) as u64
}

/// The line game `g` follows, each move in Western notation.
fn line_of(g: usize) -> Vec<(Move, String)> {
    let mut pos = Position::startpos();
    let mut last = None;
    Game::random_line(1000 + g as u64, PLIES)
        .into_iter()
        .map(|m| {
            let text = format_move(&pos, m, Style::Western, last);
            pos.play_unchecked(m);
            last = Some(m);
            (m, text)
        })
        .collect()
}

/// The three workers behind one "load balancer".
struct Cluster {
    fake: Fake,
    url: String,
    dir: tempfile::TempDir,
    addrs: Vec<String>,
    workers: Vec<Endpoint>,
    /// REST calls read so far.
    cursor: usize,
    /// Final answers (message text) by interaction id.
    answers: HashMap<String, Vec<String>>,
}

impl Cluster {
    /// The fake Discord and `workers` HTTP workers over `url`.
    async fn start(url: String, workers: usize) -> Cluster {
        let fake = Fake::start().await;
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("offset"), "0").expect("offset");
        let addrs: Vec<String> = (0..workers)
            .map(|_| format!("127.0.0.1:{}", free_port()))
            .collect();
        let mut c = Cluster {
            fake,
            url,
            dir,
            addrs,
            workers: Vec::new(),
            cursor: 0,
            answers: HashMap::new(),
        };
        for w in 0..workers {
            let ep = c.spawn(w).await;
            c.workers.push(ep);
        }
        c
    }

    /// A gateway process running shard `shard` of `total`.
    fn spawn_gateway(&self, shard: u32, total: u32) -> tokio::process::Child {
        let offset = self.dir.path().join("offset");
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.path().join(format!("shard{shard}.log")))
            .expect("log");
        tokio::process::Command::new(env!("CARGO_BIN_EXE_komadai"))
            .args(["serve", "--tick-seconds", "1"])
            .args(["--shards", &format!("{shard}..{shard}")])
            .args(["--total", &total.to_string()])
            .arg("--clock-offset-file")
            .arg(&offset)
            .args(["--db", &self.url])
            .env("DISCORD_TOKEN", "fake-token")
            .env("DISCORD_API_BASE", self.fake.base())
            .env_remove("DEV_GUILD_ID")
            .env_remove("KOMADAI_DB")
            .env_remove("KOMADAI_HTTP")
            .env_remove("KOMADAI_METRICS")
            .stdout(std::process::Stdio::from(log))
            .stderr(std::process::Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("komadai starts")
    }

    async fn spawn(&self, w: usize) -> Endpoint {
        let offset = self.dir.path().join("offset");
        let log: PathBuf = self.dir.path().join(format!("worker{w}.log"));
        Endpoint::start_worker(
            &self.fake,
            &self.addrs[w],
            &self.url,
            &log,
            &["--clock-offset-file", offset.to_str().expect("utf-8")],
        )
        .await
    }

    fn set_clock(&self, offset: i64) {
        let path = self.dir.path().join("offset");
        let tmp = self.dir.path().join("offset.new");
        std::fs::write(&tmp, offset.to_string()).expect("offset");
        std::fs::rename(tmp, path).expect("offset");
    }

    /// Reads the REST calls made since the last read: final answers of
    /// interactions (an immediate callback, or the edit or follow-up after
    /// a deferral) by id, and the other messages the workers posted.
    fn read_calls(&mut self) -> Vec<Call> {
        let new = self.fake.calls_from(self.cursor);
        self.cursor += new.len();
        let mut posts = Vec::new();
        for c in new {
            if !c.ok() {
                continue;
            }
            let parts: Vec<&str> = c.path.split('/').collect();
            let id = match parts.as_slice() {
                ["", "interactions", id, _, "callback"] if c.kind() == 4 || c.kind() == 8 => {
                    Some(id.to_string())
                }
                ["", "webhooks", _, token, ..] if c.method != "DELETE" => {
                    token.strip_prefix("token-").map(str::to_string)
                }
                _ => None,
            };
            match id {
                Some(id) => {
                    let text = if c.kind() == 8 {
                        c.json.to_string()
                    } else {
                        c.content()
                    };
                    self.answers.entry(id).or_default().push(text);
                }
                None if c.method == "POST" && c.path.ends_with("/messages") => posts.push(c),
                None => {}
            }
        }
        posts
    }

    /// Waits until each id in `expected` has as many final answers as
    /// workers took it.
    async fn wait_answers(&mut self, expected: &BTreeMap<String, usize>) {
        let end = Instant::now() + WAIT;
        loop {
            self.read_calls();
            let missing: Vec<&String> = expected
                .iter()
                .filter(|(id, &n)| self.answers.get(*id).map_or(0, Vec::len) < n)
                .map(|(id, _)| id)
                .collect();
            if missing.is_empty() {
                break;
            }
            assert!(
                Instant::now() < end,
                "requests taken but not answered within {WAIT:?} (deadlock or lost): {missing:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// The test's own connection to the database. Its PostgreSQL client keeps
/// a runtime of its own, which must not be dropped on an async thread.
struct Observer(Option<Store>);

impl Observer {
    fn open(url: &str) -> Observer {
        Observer(Some(tokio::task::block_in_place(|| {
            Store::open(url).expect("observer")
        })))
    }

    /// The stored moves of game `g` (0-based), in USI.
    fn moves(&self, g: usize) -> Vec<String> {
        let store = self.0.as_ref().expect("open");
        tokio::task::block_in_place(|| store.read(|r| r.moves(g as i64 + 1))).expect("read moves")
    }

    /// Game `g` (0-based) is finished.
    fn finished(&self, g: usize) -> bool {
        let store = self.0.as_ref().expect("open");
        let row = tokio::task::block_in_place(|| store.read(|r| r.game(g as i64 + 1)))
            .expect("read the game")
            .expect("the game exists");
        row.status == "finished"
    }

    /// Every game holds exactly its line, in order, legal; no move was
    /// acknowledged twice.
    fn check_games(&self, lines: &[Vec<(Move, String)>], acknowledged: &[(usize, usize)]) {
        lines::assert_lines_stored(lines, |g| self.moves(g), acknowledged);
    }
}

impl Drop for Observer {
    fn drop(&mut self) {
        let store = self.0.take();
        tokio::task::block_in_place(|| drop(store));
    }
}

/// One request sent to a worker.
struct Sent {
    worker: usize,
    id: String,
    /// The game and ply of the move.
    mv: (usize, usize),
}

/// Sends move `id` to a worker: whether it was taken (HTTP 200); `false`
/// when the connection failed.
async fn deliver(ep: &Endpoint, fake: &Fake, id: &str) -> bool {
    match ep.try_deliver(fake, id).await {
        Ok(r) => {
            assert_eq!(r.status, 200, "{id}: {}", r.text());
            true
        }
        Err(_) => false,
    }
}

fn sigkill(ep: &Endpoint) {
    let pid = ep
        .child
        .id()
        .and_then(|p| i32::try_from(p).ok())
        .and_then(rustix::process::Pid::from_raw)
        .expect("pid");
    rustix::process::kill_process(pid, rustix::process::Signal::KILL).expect("SIGKILL");
}

fn count_notices(posts: &[Call], games: usize, tally: &mut BTreeMap<(usize, &'static str), usize>) {
    for c in posts {
        let text = c.content();
        for g in 1..=games {
            if text.contains("Reminder:") && text.contains(&format!("game #{g};")) {
                *tally.entry((g, "reminder")).or_default() += 1;
            }
            if text.contains(&format!("Game #{g} is over.")) {
                *tally.entry((g, "over")).or_default() += 1;
            }
        }
    }
}

/// Moves the shared clock and waits until every game has `want` notices of
/// `kind`; then three more scheduler ticks must add nothing.
async fn pass_time(
    c: &mut Cluster,
    offset: i64,
    kind: &'static str,
    want: usize,
    games: usize,
    tally: &mut BTreeMap<(usize, &'static str), usize>,
) {
    c.set_clock(offset);
    let from = c.cursor;
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let posts = c.read_calls();
        count_notices(&posts, games, tally);
        let done = (1..=games).all(|g| tally.get(&(g, kind)).copied().unwrap_or(0) >= want);
        if done {
            break;
        }
        if Instant::now() > end {
            let calls: Vec<String> = c
                .fake
                .calls_from(from)
                .iter()
                .rev()
                .take(5)
                .map(|c| format!("{} {} {}: {}", c.status, c.method, c.path, c.json))
                .collect();
            panic!("{kind} notices missing: {tally:?}; the last calls: {calls:#?}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let posts = c.read_calls();
    count_notices(&posts, games, tally);
    for g in 1..=games {
        assert_eq!(
            tally.get(&(g, kind)).copied().unwrap_or(0),
            want,
            "game {g}: {kind} delivered once across the workers"
        );
    }
}

/// The shared clock passes half the move time, 90 % of it and the deadline
/// of every game: each gets one reminder at each step and one timeout
/// notice, from whichever process, and is finished.
async fn deadlines_pass(c: &mut Cluster, observer: &Observer, games: usize) {
    let mut tally = BTreeMap::new();
    c.read_calls();
    pass_time(c, 2 * DAY, "reminder", 1, games, &mut tally).await;
    pass_time(c, 2 * DAY + 18 * 3600, "reminder", 2, games, &mut tally).await;
    pass_time(c, 4 * DAY, "over", 1, games, &mut tally).await;
    for g in 1..=games {
        assert!(observer.finished(g - 1), "game {g} is over");
        assert_eq!(
            tally.get(&(g, "reminder")),
            Some(&2),
            "game {g}: no reminder after the end"
        );
    }
}

#[cfg(unix)]
/// The options of game `g`'s challenge: its second player, Sente for the
/// challenger, friendly, 3 days per move.
fn challenge_options(g: usize) -> Value {
    json!([
        opt("member", 6, json!(player(g, 1).to_string())),
        opt("color", 3, json!("sente")),
        opt("rated", 5, json!(false)),
        opt("days", 4, json!(3))
    ])
}

/// The options of a `/move` of `text` in game `g`.
fn move_options(text: &str, g: usize) -> Value {
    json!([opt("move", 3, json!(text)), opt("game", 4, json!(g + 1))])
}

/// The id of the Accept button under a challenge.
fn accept_button(call: &Call) -> String {
    call.buttons()
        .into_iter()
        .find(|b| b.starts_with("accept:"))
        .unwrap_or_else(|| panic!("an Accept button: {}", call.content()))
}

/// The answer to game `g`'s accept starts it.
fn assert_started(call: &Call, g: usize) {
    assert!(
        call.content().contains(&format!("Game #{}", g + 1)),
        "{}",
        call.content()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_http_workers_one_database_two_kills() {
    // The store is synchronous (postgres's blocking client): every use of
    // it here runs in block_in_place.
    let Some(url) = tokio::task::block_in_place(|| pg::fresh_database("http_workers")) else {
        return;
    };
    let mut c = Cluster::start(url.clone(), WORKERS).await;
    let fake = c.fake.clone();

    // Fifty challenges, each accepted with its button.
    for g in 0..GAMES {
        let id = fake.command(
            player(g, 0),
            "en-US",
            CHANNEL,
            "challenge",
            challenge_options(g),
        );
        let a = c.workers[g % WORKERS].answer(&fake, &id).await;
        let accept = accept_button(&a.call);
        let id = fake.button(player(g, 1), "en-US", CHANNEL, &accept);
        let a = c.workers[(g + 1) % WORKERS].answer(&fake, &id).await;
        assert_started(&a.call, g);
    }

    let lines: Vec<Vec<(Move, String)>> = (0..GAMES).map(line_of).collect();
    let observer = Observer::open(&url);
    let stored = |g: usize| observer.moves(g);
    let mut acknowledged: Vec<(usize, usize)> = Vec::new();
    let (mut duplicates, mut conflicts, mut cut_off, mut kills, mut suggestions) = (0, 0, 0, 0, 0);
    let mut sent_total = 0;
    let begin = Instant::now();
    for round in 0..3 * PLIES {
        let plies: Vec<usize> = (0..GAMES).map(|g| stored(g).len()).collect();
        if plies.iter().all(|&p| p == PLIES) {
            break;
        }
        // First the keystrokes: autocomplete for a third of the players to
        // move (all at once), each of which must list moves.
        let asks: Vec<(usize, usize, String)> = (0..GAMES)
            .filter(|&g| plies[g] < PLIES && (g + round) % 3 == 0)
            .map(|g| {
                let id = fake.autocomplete(
                    player(g, plies[g] % 2),
                    "en-US",
                    CHANNEL,
                    "move",
                    json!([
                        {"name": "move", "type": 3, "value": "", "focused": true},
                        opt("game", 4, json!(g + 1))
                    ]),
                );
                (g, (g + round + 1) % WORKERS, id)
            })
            .collect();
        let replies = join_all(
            asks.iter()
                .map(|(_, w, id)| c.workers[*w].try_deliver(&fake, id)),
        )
        .await;
        for ((g, w, _), r) in asks.iter().zip(replies) {
            let r = r.unwrap_or_else(|e| panic!("worker {w}: {e}"));
            let v: Value = serde_json::from_slice(&r.body).unwrap_or(Value::Null);
            let n = v["data"]["choices"].as_array().map_or(0, Vec::len);
            assert!((1..=25).contains(&n), "autocomplete in game {}: {v}", g + 1);
            suggestions += 1;
        }
        sent_total += asks.len();
        // Then the moves of all games at once.
        let mut sent = Vec::new();
        for g in 0..GAMES {
            let ply = plies[g];
            if ply == PLIES {
                continue;
            }
            let id = fake.command(
                player(g, ply % 2),
                "en-US",
                CHANNEL,
                "move",
                move_options(&lines[g][ply].1, g),
            );
            let w = (g + round) % WORKERS;
            sent.push(Sent {
                worker: w,
                id: id.clone(),
                mv: (g, ply),
            });
            if (g + round) % 5 == 0 {
                sent.push(Sent {
                    worker: (w + 1) % WORKERS,
                    id,
                    mv: (g, ply),
                });
            }
        }
        sent_total += sent.len();
        let killed = KILL_ROUNDS.contains(&round);
        let deliveries = join_all(
            sent.iter()
                .map(|s| deliver(&c.workers[s.worker], &fake, &s.id)),
        );
        let taken = if killed {
            let victim = &c.workers[1];
            let kill = async {
                tokio::time::sleep(Duration::from_millis(u64::from(fastrand::u8(5..40)))).await;
                sigkill(victim);
            };
            let (taken, ()) = tokio::join!(deliveries, kill);
            taken
        } else {
            deliveries.await
        };
        if killed {
            let fresh = c.spawn(1).await;
            let dead = std::mem::replace(&mut c.workers[1], fresh);
            dead.kill().await;
            kills += 1;
        }
        // How many answers each id must get: one per worker that took it,
        // except from the killed worker, which may have died before its
        // deferred answer went out.
        let mut expected: BTreeMap<String, usize> = BTreeMap::new();
        for (s, t) in sent.iter().zip(&taken) {
            match t {
                true if !(killed && s.worker == 1) => {
                    *expected.entry(s.id.clone()).or_default() += 1
                }
                true => {}
                false => {
                    assert!(
                        killed && s.worker == 1,
                        "worker {} refused a connection",
                        s.worker
                    );
                    cut_off += 1;
                }
            }
        }
        c.wait_answers(&expected).await;
        let mut seen = std::collections::HashSet::new();
        for s in &sent {
            if !seen.insert(&s.id) {
                continue;
            }
            let texts = c.answers.get(&s.id).cloned().unwrap_or_default();
            let (g, ply) = s.mv;
            let mut played = 0;
            for t in &texts {
                if t.contains(" played ") {
                    played += 1;
                } else if t.starts_with("Already done") {
                    duplicates += 1;
                } else if t.contains("changed at the same moment") {
                    conflicts += 1;
                } else {
                    panic!("game {} ply {ply}: {t}", g + 1);
                }
            }
            assert!(
                played <= 1,
                "game {} ply {ply} played twice: {texts:?}",
                g + 1
            );
            if played == 1 {
                acknowledged.push((g, ply));
            }
        }
    }
    let took = begin.elapsed();

    observer.check_games(&lines, &acknowledged);
    assert!(
        acknowledged.len() + cut_off >= GAMES * PLIES,
        "every move was acknowledged unless its request was cut off"
    );
    assert_eq!(kills, 2);
    assert!(duplicates > 0, "duplicates were sent and answered as done");
    assert!(suggestions > 0);

    // The clock moves; every worker's scheduler runs each second.
    deadlines_pass(&mut c, &observer, GAMES).await;
    eprintln!(
        "{GAMES} games, {} requests in {took:.1?}: {} moves acknowledged, {duplicates} duplicates answered as done, \
         {conflicts} conflicts, {cut_off} requests cut off by {kills} kills, {suggestions} autocomplete answers",
        sent_total,
        acknowledged.len()
    );
}

/// Servers of the gateway test: `(guild >> 22) % 2` is 0 for the first and
/// 1 for the second, so each goes to its own shard, as Discord routes them.
const SHARD_GUILDS: [u64; 2] = [
    700_000_000_000_000_003 & !(1 << 22),
    700_000_000_000_000_003 | (1 << 22),
];
const GATEWAY_GAMES: usize = 20;
/// The round in which the process of shard 1 is killed.
const GATEWAY_KILL_ROUND: usize = 9;

/// Two gateway processes split the shards (`--shards 0..0 --total 2` and
/// `--shards 1..1 --total 2`) over one PostgreSQL; the fake Discord routes
/// each server's interactions to its shard's session. Twenty games, half
/// in each server, are played to 40 plies; the process of shard 1 is
/// SIGKILLed once with moves in flight and started again (its server's
/// interactions are not delivered meanwhile, as on Discord). Asserted as
/// for the HTTP workers: every game stored once, in order, legal; no move
/// acknowledged twice; every delivered interaction answered; each reminder
/// and timeout notice delivered exactly once by the two processes.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_gateway_processes_split_the_shards() {
    assert_eq!((SHARD_GUILDS[0] >> 22) % 2, 0);
    assert_eq!((SHARD_GUILDS[1] >> 22) % 2, 1);
    let Some(url) = tokio::task::block_in_place(|| pg::fresh_database("gateway_workers")) else {
        return;
    };
    let mut c = Cluster::start(url.clone(), 0).await;
    let fake = c.fake.clone();
    let mut shards = [c.spawn_gateway(0, 2), c.spawn_gateway(1, 2)];
    assert!(
        fake.wait_sessions(2, WAIT).await,
        "both shards connect: {:?}",
        fake.identified_shards()
    );
    let guild = |g: usize| SHARD_GUILDS[g % 2];

    for g in 0..GATEWAY_GAMES {
        let id = fake.command_in(
            guild(g),
            player(g, 0),
            "en-US",
            CHANNEL,
            "challenge",
            challenge_options(g),
        );
        let a = fake
            .answer(&id, WAIT)
            .await
            .expect("the challenge is answered");
        let accept = accept_button(&a.call);
        let id = fake.button_in(guild(g), player(g, 1), "en-US", CHANNEL, &accept);
        let a = fake
            .answer(&id, WAIT)
            .await
            .expect("the accept is answered");
        assert_started(&a.call, g);
    }

    let lines: Vec<Vec<(Move, String)>> = (0..GATEWAY_GAMES).map(line_of).collect();
    let observer = Observer::open(&url);
    let stored = |g: usize| observer.moves(g);
    let (mut acknowledged, mut lost, mut kills) = (Vec::new(), 0, 0);
    for round in 0..3 * PLIES {
        let plies: Vec<usize> = (0..GATEWAY_GAMES).map(|g| stored(g).len()).collect();
        if plies.iter().all(|&p| p == PLIES) {
            break;
        }
        let sent: Vec<(usize, usize, String)> = (0..GATEWAY_GAMES)
            .filter(|&g| plies[g] < PLIES)
            .map(|g| {
                let ply = plies[g];
                let id = fake.command_in(
                    guild(g),
                    player(g, ply % 2),
                    "en-US",
                    CHANNEL,
                    "move",
                    move_options(&lines[g][ply].1, g),
                );
                (g, ply, id)
            })
            .collect();
        let killed = round == GATEWAY_KILL_ROUND;
        if killed {
            tokio::time::sleep(Duration::from_millis(u64::from(fastrand::u8(5..40)))).await;
            let _ = shards[1].start_kill();
            let _ = shards[1].wait().await;
            shards[1] = c.spawn_gateway(1, 2);
            kills += 1;
        }
        // Shard 0 answers everything; in the kill round, shard 1's
        // interactions may have died with the process (Discord shows the
        // player that it failed).
        let answers = join_all(sent.iter().map(|(g, _, id)| {
            let limit = if killed && g % 2 == 1 {
                Duration::from_secs(3)
            } else {
                WAIT
            };
            fake.answer(id, limit)
        }))
        .await;
        for ((g, ply, id), a) in sent.iter().zip(answers) {
            let Some(a) = a else {
                assert!(
                    killed && g % 2 == 1,
                    "game {} ply {ply}: {id} unanswered",
                    g + 1
                );
                lost += 1;
                continue;
            };
            let t = a.call.content();
            if t.contains(" played ") {
                acknowledged.push((*g, *ply));
            } else {
                panic!("game {} ply {ply}: {t}", g + 1);
            }
        }
        if killed {
            assert!(
                fake.wait_sessions(3, WAIT).await,
                "shard 1 is back: {:?}",
                fake.identified_shards()
            );
        }
    }
    observer.check_games(&lines, &acknowledged);
    assert!(acknowledged.len() + lost >= GATEWAY_GAMES * PLIES);
    assert_eq!(kills, 1);

    deadlines_pass(&mut c, &observer, GATEWAY_GAMES).await;
    let mut identified = fake.identified_shards();
    identified.sort_by_key(|s| s[0].as_u64());
    eprintln!(
        "{GATEWAY_GAMES} games over 2 shards: {} moves acknowledged, {lost} lost with the killed process, {kills} kill; IDENTIFYs {identified:?}",
        acknowledged.len()
    );
}
