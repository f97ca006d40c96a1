//! The game page in a real browser: a live game of a few moves is made
//! through the app layer over a temporary SQLite store, the page server
//! (`web::bind`, what `komadai web` runs) listens on 127.0.0.1 on a free
//! port, and headless Chromium loads the page and steps through the game.
//!
//! Stepping: the page's script honours `#ply=N` (show ply N), then
//! `press=next,prev,…` (clicks those buttons, through their click handlers)
//! and `keys=ArrowRight,…` (sends those keydown events to the document, as
//! a keyboard does). `chromium --dump-dom` prints the DOM after the script
//! ran; the test reads the shown ply, the SFEN and the board picture's URL
//! from it and compares them with positions computed here by the rules
//! core.
//!
//! Chromium is Debian's `chromium` package (or `KOMADAI_CHROMIUM`). Without
//! it the browser test is skipped with one line on stderr, unless
//! `KOMADAI_REQUIRE_CHROMIUM=1` (set by `.ci/run`), which makes it fail.
//! With `KOMADAI_WEB_SHOTS=DIR` the test also writes screenshots there.
//!
//! A second test runs the real binary's `komadai web` over the same kind of
//! database and checks the answers over HTTP (200, HEAD, 404, 405).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use komadai::app::{App, Caller, ChallengeOptions, ManualClock, Msg, Place, SeededDice};
use komadai::i18n::Lang;
use komadai::shogi::{Color, Move, Position};
use komadai::store::Store;

/// The moves of the live game (Sente: Alice, Gote: Bob).
const MOVES: [&str; 5] = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"];

fn required() -> bool {
    std::env::var("KOMADAI_REQUIRE_CHROMIUM").is_ok_and(|v| v == "1")
}

/// The Chromium binary, if one is installed.
fn chromium() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("KOMADAI_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var("PATH").unwrap_or_default();
    for name in ["chromium", "chromium-browser", "google-chrome", "chrome"] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// An app over a SQLite file in `dir` with the live game; its id.
fn live_game(dir: &Path) -> (App, i64) {
    let app = App::new(
        Store::open(dir.join("komadai.db")).unwrap(),
        Arc::new(ManualClock::new(1_800_000_000)),
        Arc::new(SeededDice::new(5)),
    );
    let alice = Caller::new(101, "Alice", Lang::En);
    let bob = Caller::new(102, "Bob", Lang::En);
    let place = Place {
        guild: Some(1),
        channel: Some(2),
    };
    let opts = ChallengeOptions {
        color: Some(Color::Sente),
        ..ChallengeOptions::default()
    };
    let r = app
        .challenge(&alice, Some((102, "Bob")), &opts, place)
        .unwrap();
    let Msg::ChallengeMade { id, .. } = r.msg else {
        panic!("challenge answered {:?}", r.msg)
    };
    let game = app.accept(&bob, id, place).unwrap().board.unwrap().game_id;
    for (i, mv) in MOVES.iter().enumerate() {
        let who = if i % 2 == 0 { &alice } else { &bob };
        app.play_move(who, Some(game), mv, place, None).unwrap();
    }
    (app, game)
}

/// The SFEN after each ply, from the rules core.
fn expected_sfens() -> Vec<String> {
    let mut pos = Position::startpos();
    let mut out = vec![pos.to_sfen()];
    for m in MOVES {
        pos.play_unchecked(Move::from_usi(m).unwrap());
        out.push(pos.to_sfen());
    }
    out
}

/// Runs the page server on a free port of 127.0.0.1 in a runtime of its
/// own; the runtime (and the server) ends when the returned guard drops.
fn start_server(app: App) -> (String, tokio::runtime::Runtime) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let base = rt.block_on(async {
        let (bound, server) = komadai::web::bind(
            "127.0.0.1:0".parse().unwrap(),
            Arc::new(app),
            std::future::pending(),
        )
        .unwrap();
        tokio::spawn(server);
        format!("http://{bound}")
    });
    (base, rt)
}

/// Chromium's headless run over `url` with `extra` flags; its stdout.
fn browser(bin: &Path, profile: &Path, extra: &[&str], url: &str) -> String {
    let out = Command::new(bin)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--hide-scrollbars",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("running chromium");
    assert!(
        out.status.success(),
        "chromium failed on {url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// What the page shows after the script ran: (ply, SFEN, board src).
fn shown(dom: &str) -> (usize, String, String) {
    let between = |from: &str, to: &str| -> String {
        let start = dom
            .find(from)
            .unwrap_or_else(|| panic!("{from} not in the DOM:\n{dom}"))
            + from.len();
        let end = dom[start..].find(to).unwrap() + start;
        dom[start..end].to_string()
    };
    let ply = between("<body data-ply=\"", "\"").parse().unwrap();
    let sfen = between("<code id=\"sfen\">", "</code>");
    let tag_start = dom.find("<img id=\"board\"").expect("board picture");
    let tag = &dom[tag_start..tag_start + dom[tag_start..].find('>').unwrap()];
    let src_at = tag.find("src=\"").unwrap() + 5;
    let src = tag[src_at..src_at + tag[src_at..].find('"').unwrap()].to_string();
    (ply, sfen, src)
}

#[test]
fn chromium_steps_through_a_live_game() {
    let Some(bin) = chromium() else {
        assert!(
            !required(),
            "KOMADAI_REQUIRE_CHROMIUM=1 but no chromium binary was found"
        );
        eprintln!(
            "skipped: no chromium binary (install Debian's chromium, or set KOMADAI_CHROMIUM)"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (app, game) = live_game(dir.path());
    let token = app.page_token(game).unwrap();
    let (base, _rt) = start_server(app);
    let page = format!("{base}/g/{token}");
    let profile = dir.path().join("chromium-profile");
    let sfens = expected_sfens();
    let last = MOVES.len();

    // (what the URL asks for, the ply it must show)
    let cases: Vec<(String, usize)> = vec![
        (String::new(), last),
        ("#ply=0".into(), 0),
        ("#ply=2".into(), 2),
        ("#ply=1&press=next,next".into(), 3),
        ("#ply=4&press=prev,prev,prev".into(), 1),
        ("#ply=2&press=first".into(), 0),
        ("#ply=0&press=last".into(), last),
        (
            "#ply=0&keys=ArrowRight,ArrowRight,ArrowRight,ArrowRight".into(),
            4,
        ),
        ("#ply=3&keys=ArrowLeft,End,ArrowLeft".into(), last - 1),
        // Past either end the view stays at the end.
        ("#ply=0&press=prev".into(), 0),
        (format!("#ply={last}&press=next"), last),
        ("?n=japanese&lang=de#ply=1&press=next".into(), 2),
    ];
    for (suffix, ply) in &cases {
        let url = format!("{page}{suffix}");
        let dom = browser(&bin, &profile, &["--dump-dom"], &url);
        let (got_ply, got_sfen, src) = shown(&dom);
        assert_eq!(got_ply, *ply, "ply shown for {suffix:?}");
        assert_eq!(got_sfen, sfens[*ply], "position shown for {suffix:?}");
        assert_eq!(
            src,
            format!("{token}/board/{ply}.png"),
            "board for {suffix:?}"
        );
        // The current move line and the marked move agree with the ply.
        assert!(
            dom.contains(&format!(
                "<li value=\"{ply}\" data-ply=\"{ply}\" class=\"on\">"
            )),
            "move {ply} marked for {suffix:?}"
        );
    }
    // The German page speaks German and writes the moves in Japanese.
    let de = browser(
        &bin,
        &profile,
        &["--dump-dom"],
        &format!("{page}?n=japanese&lang=de"),
    );
    assert!(
        de.contains("Halbzug 5 / 5") && de.contains("▲７六歩"),
        "{de}"
    );

    if let Ok(shots) = std::env::var("KOMADAI_WEB_SHOTS") {
        std::fs::create_dir_all(&shots).unwrap();
        for (name, size, suffix) in [
            ("start", "1200,900", "#ply=0"),
            ("middle", "1200,900", "#ply=3"),
            ("german", "1200,900", "?lang=de&n=japanese#ply=4"),
            ("mobile", "400,1300", "#ply=2"),
        ] {
            let file = Path::new(&shots).join(format!("{name}.png"));
            browser(
                &bin,
                &profile,
                &[
                    &format!("--screenshot={}", file.display()),
                    &format!("--window-size={size}"),
                ],
                &format!("{page}{suffix}"),
            );
        }
    }
}

/// A finished game that was analysed: the page shows the graph (and the
/// result) and may be cached.
#[test]
fn a_finished_analysed_game_shows_its_graph() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::new(
        Store::open(dir.path().join("komadai.db")).unwrap(),
        Arc::new(ManualClock::new(1_800_000_000)),
        Arc::new(SeededDice::new(5)),
    );
    let alice = Caller::new(101, "Alice", Lang::En);
    let bob = Caller::new(102, "Bob", Lang::En);
    let place = Place::default();
    let opts = ChallengeOptions {
        color: Some(Color::Sente),
        ..ChallengeOptions::default()
    };
    let r = app
        .challenge(&alice, Some((102, "Bob")), &opts, place)
        .unwrap();
    let Msg::ChallengeMade { id, .. } = r.msg else {
        panic!("challenge answered {:?}", r.msg)
    };
    let game = app.accept(&bob, id, place).unwrap().board.unwrap().game_id;
    // A quiet opening and a pawn exchange on file 2 (Sente rook ends en
    // prise to the bishop on 3c), then Bob (Gote) resigns all the same.
    let moves = [
        "7g7f", "3c3d", "2g2f", "4c4d", "2f2e", "2b3c", "3i4h", "8b4b", "5i6h", "5a6b", "6h7h",
        "6b7b", "5g5f", "3a3b", "4i5h", "4a5b", "2e2d", "2c2d", "2h2d",
    ];
    for (i, mv) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { &alice } else { &bob };
        app.play_move(who, Some(game), mv, place, None).unwrap();
    }
    app.game_action(
        &bob,
        Some(game),
        komadai::app::Action::ResignConfirmed,
        place,
    )
    .unwrap();
    let token = app.page_token(game).unwrap();
    let get = |path: &str| {
        komadai::web::respond(
            &app,
            &komadai::web::PageRequest {
                method: "GET",
                path,
                query: None,
                accept_language: None,
            },
        )
    };
    let page = format!("/g/{token}");
    assert!(!String::from_utf8(get(&page).body)
        .unwrap()
        .contains("graph.png"));
    assert_eq!(get(&format!("{page}/graph.png")).status, 404);
    app.analyze(&alice, Some(game), place).unwrap();
    let r = get(&page);
    assert_eq!(r.header("cache-control"), Some("public, max-age=3600"));
    let html = String::from_utf8(r.body).unwrap();
    assert!(
        html.contains(&format!("src=\"{token}/graph.png\"")),
        "{html}"
    );
    assert!(
        html.contains("Bob resigns") || html.contains("wins by resignation"),
        "{html}"
    );
    let graph = get(&format!("{page}/graph.png"));
    assert_eq!(graph.status, 200);
    assert!(graph.body.starts_with(b"\x89PNG"));

    if let (Some(bin), Ok(shots)) = (chromium(), std::env::var("KOMADAI_WEB_SHOTS")) {
        std::fs::create_dir_all(&shots).unwrap();
        let (base, _rt) = start_server(app);
        for (name, size) in [("finished", "1200,1100"), ("finished-mobile", "400,1700")] {
            browser(
                &bin,
                &dir.path().join("chromium-profile"),
                &[
                    &format!(
                        "--screenshot={}",
                        Path::new(&shots).join(format!("{name}.png")).display()
                    ),
                    &format!("--window-size={size}"),
                ],
                &format!("{base}{page}"),
            );
        }
    }
}

/// `komadai web`: the real binary over a database made by another process
/// (the test), so the address the test computes is the one it answers.
#[cfg(unix)]
#[test]
fn komadai_web_serves_pages_of_a_database() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let (app, game) = live_game(dir.path());
    let token = app.page_token(game).unwrap();
    drop(app);
    /// Ends the server however the test ends.
    struct Killed(std::process::Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut child = Killed(
        Command::new(env!("CARGO_BIN_EXE_komadai"))
            .args(["web", "--listen", "127.0.0.1:0", "--db"])
            .arg(dir.path().join("komadai.db"))
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let client = hyper::Client::new();
        let call = |method: &str, path: &str| {
            let req = hyper::Request::builder()
                .method(method)
                .uri(format!("{base}{path}"))
                .body(hyper::Body::empty())
                .unwrap();
            let client = client.clone();
            async move {
                let r = tokio::time::timeout(Duration::from_secs(30), client.request(req))
                    .await
                    .expect("an answer in time")
                    .unwrap();
                let status = r.status().as_u16();
                let headers = r.headers().clone();
                let body = hyper::body::to_bytes(r.into_body()).await.unwrap();
                (status, headers, body)
            }
        };
        let (status, headers, body) = call("GET", &format!("/g/{token}")).await;
        assert_eq!(status, 200);
        assert_eq!(headers["cache-control"], "no-store");
        let html = String::from_utf8(body.to_vec()).unwrap();
        assert!(html.contains("☗Bx2b+") && html.contains("Alice"), "{html}");
        let (status, headers, body) = call("HEAD", &format!("/g/{token}/board/2.png")).await;
        assert_eq!(status, 200);
        assert_eq!(headers["content-type"], "image/png");
        assert!(body.is_empty());
        let (status, _, body) = call("GET", &format!("/g/{token}/board/2.png")).await;
        assert_eq!(status, 200);
        assert!(body.starts_with(b"\x89PNG"));
        let (status, _, body) = call("GET", &format!("/g/{game}-{}", "f".repeat(32))).await;
        assert_eq!((status, &body[..]), (404, &b"not found"[..]));
        let (status, headers, _) = call("POST", &format!("/g/{token}")).await;
        assert_eq!(status, 405);
        assert_eq!(headers["allow"], "GET, HEAD");
        let (status, _, _) = call("GET", "/healthz").await;
        assert_eq!(status, 200);
    });
}
