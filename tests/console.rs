//! End-to-end tests through the console binary, each run on a real SQLite
//! file and on a real PostgreSQL database (`tests/common/pg.rs`): whole games
//! to every kind of result, ratings, refusals in English and German.

use std::io::Write;
use std::process::{Command, Stdio};

use komadai::notation::{format_move, Style};
use komadai::shogi::{Move, Position};
use serde_json::Value;

use crate::pg;

/// The console clock's start in most tests.
const START: i64 = 1_800_000_000;
const DAY: i64 = 86_400;

/// The database a test runs on.
#[derive(Clone, Copy)]
enum Backend {
    Sqlite,
    Postgres,
}

struct Console {
    _dir: tempfile::TempDir,
    db: std::ffi::OsString,
}

impl Console {
    /// A console over a new, empty database.
    fn on(backend: Backend) -> Console {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = match backend {
            Backend::Sqlite => dir.path().join("komadai.db").into_os_string(),
            Backend::Postgres => pg::fresh_database("console")
                .expect("the PostgreSQL tests run only with a server")
                .into(),
        };
        Console { _dir: dir, db }
    }

    /// Runs a script (one session of the console) and returns one JSON value per reply.
    fn run(&self, script: &str) -> Vec<Value> {
        self.run_at(START, &[], script)
    }

    /// Runs a script in a console whose clock starts at `start`, with
    /// environment variables set (caps such as `KOMADAI_VACATION_DAYS`).
    fn run_at(&self, start: i64, env: &[(&str, &str)], script: &str) -> Vec<Value> {
        let db = &self.db;
        let mut child = Command::new(env!("CARGO_BIN_EXE_komadai"))
            .args(["console", "--json", "--seed", "7", "--start"])
            .arg(start.to_string())
            .arg("--db")
            .arg(db)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("console starts");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(script.as_bytes())
            .expect("write");
        let out = child.wait_with_output().expect("console ends");
        assert!(
            out.status.success(),
            "stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .expect("utf-8")
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect()
    }
}

fn text(v: &Value) -> &str {
    v["text"].as_str().unwrap_or_default()
}

/// The replies without the console's own lines (`:clock`, `:tick`).
fn without_console(out: Vec<Value>) -> Vec<Value> {
    out.into_iter().filter(|v| v["to"] != "console").collect()
}

/// The direct messages among the replies: (recipient as `dm NAME`, text).
fn direct_messages(out: &[Value]) -> Vec<(&str, &str)> {
    out.iter()
        .filter(|v| v["to"].as_str().is_some_and(|t| t.starts_with("dm ")))
        .map(|v| (v["to"].as_str().unwrap_or_default(), text(v)))
        .collect()
}

fn ok(v: &Value) -> bool {
    v["ok"].as_bool() == Some(true)
}

/// A seeded random game from the start that ends in checkmate, with its
/// moves written in Western notation.
fn mating_game() -> Vec<String> {
    for seed in 0..500u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut pos = Position::startpos();
        let mut prev: Option<Move> = None;
        let mut written = Vec::new();
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer mates, then checks and captures, so the game ends.
            let mate = moves.iter().copied().find(|&m| pos.after(m).is_checkmate());
            let forcing: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| pos.gives_check(m) || pos.is_capture(m))
                .collect();
            let m = match mate {
                Some(m) => m,
                None if !forcing.is_empty() && rng.u8(..4) > 0 => {
                    forcing[rng.usize(..forcing.len())]
                }
                None => moves[rng.usize(..moves.len())],
            };
            written.push(format_move(&pos, m, Style::Western, prev));
            prev = Some(m);
            pos.play_unchecked(m);
            if pos.is_checkmate() {
                if written.len() >= 10 {
                    return written;
                }
                break;
            }
        }
    }
    panic!("no mating game found");
}

fn alternate(moves: &[String]) -> String {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| format!("{} move {m}\n", if i % 2 == 0 { "alice" } else { "bob" }))
        .collect()
}

fn full_rated_game_to_checkmate_changes_ratings(b: Backend) {
    let c = Console::on(b);
    let moves = mating_game();
    let script = format!(
        "alice challenge @bob days=3 rated=yes color=sente\nbob accept\n{}alice stats\nbob stats\n",
        alternate(&moves)
    );
    let out = c.run(&script);
    assert!(out.iter().all(ok), "{out:#?}");
    // The console writes deadlines as UTC, never Discord's timestamp markup.
    assert!(
        text(&out[1]).contains(" to move by 20") && text(&out[1]).ends_with(" UTC."),
        "{}",
        text(&out[1])
    );
    assert!(out.iter().all(|o| !text(o).contains("<t:")), "{out:#?}");
    // Captures are commented with the material balance.
    assert!(
        out.iter()
            .any(|o| text(o).contains(" Material: ☗ ahead by ")
                || text(o).contains(" Material: ☖ ahead by ")
                || text(o).contains(" Material is even.")),
        "{out:#?}"
    );
    let last_move = &out[out.len() - 3];
    assert!(
        text(last_move).contains("wins by checkmate"),
        "{}",
        text(last_move)
    );
    let winner_is_alice = moves.len() % 2 == 1;
    let (w, l) = if winner_is_alice {
        (&out[out.len() - 2], &out[out.len() - 1])
    } else {
        (&out[out.len() - 1], &out[out.len() - 2])
    };
    assert!(
        text(w).contains("rating 1516 (1 rated game), 10 points, 1000 Taler; 1 win, 0 losses"),
        "{}",
        text(w)
    );
    assert!(
        text(l).contains("rating 1484 (1 rated game), -10 points, 1000 Taler; 0 wins, 1 loss"),
        "{}",
        text(l)
    );
    // Every move reply carries the board.
    assert!(out[2..out.len() - 2].iter().all(|v| v["board"].is_string()));
    // After the end, /export without a game id takes the finished game.
    let out = c.run(
        "alice export kif
alice export gif
",
    );
    assert!(out.iter().all(ok), "{out:#?}");
    assert!(
        text(&out[0]).contains("Game #1 as KIF"),
        "{}",
        text(&out[0])
    );
    assert!(
        text(&out[1]).contains("Game #1 as GIF"),
        "{}",
        text(&out[1])
    );
}

fn sennichite_is_a_draw_and_perpetual_check_loses(b: Backend) {
    let c = Console::on(b);
    let cycle = "alice move R-3h\nbob move R-7b\nalice move R-2h\nbob move R-8b\n";
    let script =
        format!("alice challenge @bob rated=yes color=sente\nbob accept\n{cycle}{cycle}{cycle}");
    let out = c.run(&script);
    let last = text(out.last().unwrap());
    assert!(last.contains("Draw by sennichite"), "{last}");
    assert!(text(&out[out.len() - 5]).contains("Warning: this position has now occurred 3 times"));

    let c = Console::on(b);
    let cycle = "alice move 5e4e\nbob move 4a5a\nalice move 4e5e\nbob move 5a4a\n";
    let script = format!(
        "alice challenge @bob rated=no color=sente sfen=5k3/9/9/9/4R4/9/9/9/4K4_b_-_1\nbob accept\n{cycle}{cycle}{cycle}"
    );
    let out = c.run(&script);
    // Whoever may accept sees the set-up position before agreeing to it.
    assert!(
        text(&out[0]).contains("challenger plays Sente, from a set-up position (shown below)."),
        "{}",
        text(&out[0])
    );
    assert_eq!(out[0]["board"], "5k3/9/9/9/4R4/9/9/9/4K4 b - 1");
    let last = text(out.last().unwrap());
    assert!(last.contains("bob wins by perpetual check"), "{last}");
}

fn points_taler_stakes_and_a_sennichite_replayed_at_once(b: Backend) {
    let c = Console::on(b);
    let cycle = "alice move R-3h\nbob move R-7b\nalice move R-2h\nbob move R-8b\n";
    // Ten plies, so that resigning is a loss rather than an abort.
    let opening = "alice move P-7f\nbob move P-3d\nalice move P-2f\nbob move P-8d\nalice move P-2e\nbob move P-8e\nalice move G-7h\nbob move G-3b\nalice move P-2d\nbob move Px2d\n";
    let script = format!(
        "alice challenge @bob rated=no stake=50\n\
         alice challenge @bob stake=5000\n\
         alice challenge @bob rated=yes color=sente stake=300\n\
         bob accept\n\
         alice stats\n\
         {opening}\
         alice resign\n\
         alice press resign-yes:1\n\
         bob stats\n\
         bob leaderboard by=taler\n\
         bob leaderboard by=points\n\
         alice challenge @bob rated=yes color=sente stake=100 sennichite=yes\n\
         bob accept\n\
         {cycle}{cycle}{cycle}\
         bob move P-7f\n\
         bob settings language=de\n\
         bob stats\n\
         bob leaderboard by=chips\n\
         alice challenge @bob stake=-5\n\
         alice:de challenge @bob stake=100001\n"
    );
    let out = c.run(&script);
    let t: Vec<&str> = out.iter().map(text).collect();
    // Refusals say why and change nothing.
    assert!(
        !ok(&out[0]) && t[0].contains("Only rated games can have a stake"),
        "{}",
        t[0]
    );
    assert!(
        !ok(&out[1]) && t[1].contains("alice has 1000 Taler, not enough for a stake of 5000."),
        "{}",
        t[1]
    );
    assert!(ok(&out[2]) && ok(&out[3]), "{out:#?}");
    // The challenge states the terms bob agrees to by accepting.
    assert!(
        t[2].contains("rated, entering king: 27-point declaration, challenger plays Sente, stake 300 Taler each (the winner takes both).")
            && !t[2].contains("sennichite"),
        "{}",
        t[2]
    );
    assert!(
        t[20].contains("stake 100 Taler each (the winner takes both), sennichite: replayed at once with colours swapped."),
        "{}",
        t[20]
    );
    // Both stakes went into the pot when the game started.
    assert!(t[4].contains(", 0 points, 700 Taler;"), "{}", t[4]);
    assert!(
        t[16].contains("bob wins")
            && t[16].contains("bob: 1500 → 1516, +10 points.")
            && t[16].contains("alice: 1500 → 1484, −10 points.")
            && t[16].contains("bob takes the pot of 600 Taler."),
        "{}",
        t[16]
    );
    assert!(
        t[17].contains("rating 1516 (1 rated game), 10 points, 1300 Taler;"),
        "{}",
        t[17]
    );
    assert_eq!(
        t[18],
        "Leaderboard by Taler:\n1. bob — 1300 Taler (1 game)\n2. alice — 700 Taler (1 game)"
    );
    assert_eq!(
        t[19],
        "Leaderboard by points:\n1. bob — 10 points (1 game)\n2. alice — -10 points (1 game)"
    );
    // The fourth repetition is a draw, the stakes go back, and the next
    // game starts at once with colours swapped and the same stake.
    let draw = t[33];
    assert!(
        draw.contains("Draw by sennichite")
            && draw.contains("The stakes go back: 100 Taler each.")
            && draw.contains(
                "Game #2 is replayed at once, as the challenge asked: game #3, colours swapped, ☗ bob (Sente) vs ☖ alice (Gote). bob to move by "
            ),
        "{draw}"
    );
    assert!(
        ok(&out[34]) && t[34].contains("#3: bob played ▲７六歩 (P-7f)"),
        "{}",
        t[34]
    );
    // 1300 + 100 back - 100 for the replay; the draw moved the rating a little.
    assert!(
        t[36].contains("(2 gewertete Partien), 10 Punkte, 1200 Taler;"),
        "{}",
        t[36]
    );
    assert!(!ok(&out[37]) && t[37].contains("by=chips"), "{}", t[37]);
    assert!(
        !ok(&out[38])
            && t[38] == "I do not understand “stake=-5”: stake is a whole number from 0 to 100000.",
        "{}",
        t[38]
    );
    assert!(
        !ok(&out[39])
            && t[39]
                == "Das verstehe ich nicht: „stake=100001“. stake ist eine ganze Zahl von 0 bis 100000.",
        "{}",
        t[39]
    );
}

/// The danger help: asked for with `danger`, in English and German, and on by
/// default (`danger=auto`) on the boards of a game against the Beginner.
fn danger_help_outlines_hanging_pieces_and_rates_a_pieces_targets(b: Backend) {
    let c = Console::on(b);
    let out = c.run(
        "alice challenge @bob rated=no color=sente sfen=l3k4/7r1/9/9/L3G2S1/9/9/9/4K4_b_B_1\n\
         bob accept\n\
         alice danger\n\
         alice danger 2e\n\
         alice danger B*\n\
         alice danger 5a\n\
         bob danger 9a\n\
         alice settings language=de\n\
         alice danger 9e\n\
         alice board\n\
         alice challenge @bob rated=yes color=sente\n\
         bob accept\n\
         alice danger game=2\n",
    );
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(
        ok(&out[2])
            && out[2]["visibility"] == "caller"
            && t[2]
                == "Danger check, game #1: attacked and not defended (red): silver 2e, lance 9e.",
        "{:#?}",
        out[2]
    );
    assert_eq!(out[2]["danger"]["hanging"], serde_json::json!(["2e", "9e"]));
    // The silver: forward to 2d it is still on the rook's file, undefended;
    // sideways it is not a silver move. Its diagonal steps are safe.
    assert_eq!(out[3]["danger"]["selected"], "2e", "{:#?}", out[3]);
    assert_eq!(
        out[3]["danger"]["unsafe"],
        serde_json::json!(["2d"]),
        "{:#?}",
        out[3]
    );
    assert!(
        t[3].ends_with("Your silver on 2e: 4 safe squares (green); it could be taken without recapture on 2d (orange)."),
        "{}",
        t[3]
    );
    assert!(
        ok(&out[4]) && t[4].contains("Your bishop in hand:"),
        "{}",
        t[4]
    );
    assert!(
        !ok(&out[5]) && t[5].contains("You have no piece at “5a”."),
        "{}",
        t[5]
    );
    assert!(!ok(&out[6]) && t[6].contains("not your turn"), "{}", t[6]);
    assert!(
        t[8].contains(
            "Gefahrencheck, Partie #1: angegriffen und ungedeckt (rot): Silber 2e, Lanze 9e."
        ) && t[8].contains("Dein Stein (Lanze auf 9e):"),
        "{}",
        t[8]
    );
    // A public board in a game between members never shows one side's help.
    assert!(out[9]["danger"].is_null(), "{:#?}", out[9]);
    assert!(
        !ok(&out[12]) && t[12].contains("nie in gewerteten Partien"),
        "{}",
        t[12]
    );

    // Against the Beginner the help is on by default, on the public boards
    // too (the member is the only player), and off with danger=off.
    let c = Console::on(b);
    let out = c.run(
        "alice play level=beginner color=sente\n\
         alice board\n\
         alice settings danger=off\n\
         alice board\n",
    );
    assert!(out[1]["danger"]["hanging"].is_array(), "{:#?}", out[1]);
    assert!(out[3]["danger"].is_null(), "{:#?}", out[3]);
}

fn declaration_resignation_abort_and_timeout(b: Backend) {
    // Entering-king declaration from a position where Sente may declare.
    let c = Console::on(b);
    let out = c.run(
        "alice challenge @bob rated=no color=sente sfen=RRBBK4/GGGGSS3/9/9/9/9/9/9/8k_b_2P_1\nbob accept\nbob declare\nalice declare\n",
    );
    assert!(text(&out[2]).contains("not your turn"), "{}", text(&out[2]));
    assert!(
        text(&out[3]).contains("alice wins by entering-king declaration"),
        "{}",
        text(&out[3])
    );

    // Declaring without the conditions names what is missing.
    let c = Console::on(b);
    let out = c.run("alice challenge @bob rated=no color=sente\nbob accept\nalice declare\n");
    assert!(
        text(&out[2]).contains("your king is not in the opponent's camp"),
        "{}",
        text(&out[2])
    );
    assert!(
        text(&out[2]).contains("points, 28 needed"),
        "{}",
        text(&out[2])
    );

    let opening = "alice move P-7f\nbob move P-3d\nalice move P-2f\nbob move P-8d\nalice move P-2e\nbob move P-8e\nalice move G-7h\nbob move G-3b\nalice move P-2d\n";
    // Resignation under 10 plies aborts; abort works; at ply 10 abort is refused.
    let c = Console::on(b);
    let out = c.run(&format!("alice challenge @bob rated=yes color=sente\nbob accept\n{opening}bob resign\nbob press resign-yes:1\nalice stats\n"));
    assert!(text(&out[out.len() - 2]).contains("aborted before ply 10"));
    assert!(text(out.last().unwrap()).contains("rating 1500 (0 rated games)"));
    let c = Console::on(b);
    let out = c.run(&format!("alice challenge @bob rated=yes color=sente\nbob accept\n{opening}bob move Px2d\nalice abort\nalice resign\nalice press resign-yes:1\nbob stats\n"));
    assert!(text(&out[out.len() - 4]).contains("only be aborted before ply 10"));
    assert!(text(&out[out.len() - 3]).contains("You will lose the game"));
    assert!(text(&out[out.len() - 2]).contains("bob wins by resignation"));
    assert!(text(out.last().unwrap())
        .contains("rating 1516 (1 rated game), 10 points, 1000 Taler; 1 win, 0 losses"));

    // Timeout: the clock runs past the deadline; reminders come first, once each.
    let c = Console::on(b);
    let out = c.run(&format!(
        "alice challenge @bob days=2 rated=yes color=sente\nbob accept\n{opening}bob move Px2d\n:clock +1d\n:tick\n:tick\n:clock +20h\n:tick\n:clock +4h\n:tick\nalice stats\n"
    ));
    let notices: Vec<&str> = out
        .iter()
        .filter(|v| v["to"] == "notice")
        .map(text)
        .collect();
    assert_eq!(notices.len(), 3, "{notices:#?}");
    assert!(notices[0].contains("Reminder: alice"), "{}", notices[0]);
    assert!(
        notices[1].contains("Reminder: alice") && notices[1].contains("4 h left"),
        "{}",
        notices[1]
    );
    assert!(
        notices[2].contains("bob wins by the move deadline passed")
            || notices[2].contains("bob wins by"),
        "{}",
        notices[2]
    );
    assert!(text(out.last().unwrap())
        .contains("rating 1484 (1 rated game), -10 points, 1000 Taler; 0 wins, 1 loss"));
}

fn handicap_and_minishogi_games_are_unrated(b: Backend) {
    let c = Console::on(b);
    let out = c.run(
        "alice challenge @bob rated=yes handicap=2-pieces\nalice challenge @bob handicap=2-pieces color=gote\nbob accept\nbob move P-7f\nalice move P-3d\nbob board\n",
    );
    assert!(text(&out[0]).contains("never rated"), "{}", text(&out[0]));
    assert!(
        text(&out[2]).contains("alice to move"),
        "Gote (the giver) moves first: {}",
        text(&out[2])
    );
    assert_eq!(
        out[2]["board"],
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert!(text(&out[3]).contains("not your turn"));
    let c = Console::on(b);
    let out = c.run(
        "alice challenge @bob variant=minishogi color=sente\nbob accept\nalice move 4e4d\nbob move 2a2b\nalice resign\nalice press resign-yes:1\nalice stats\n",
    );
    assert!(out.iter().all(ok), "{out:#?}");
    assert_eq!(out[1]["board"], "rbsgk/4p/5/P4/KGSBR b - 1");
    assert!(text(out.last().unwrap()).contains("(0 rated games)"));
}

fn illegal_and_malformed_moves_are_refused_in_english_and_german(b: Backend) {
    let c = Console::on(b);
    let out = c.run(
        "alice challenge @bob rated=no color=sente sfen=4k4/9/9/9/9/9/4P4/9/4K4_b_P_1\nbob accept\nalice move P*5e\nalice:de move P*5e\nalice move zz9\nalice:de move zz9\nalice move K-5a\nalice:de move 5i4i4h\nbob move K-4a\n",
    );
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(
        t[2].contains("Move refused") && t[2].to_lowercase().contains("nifu"),
        "{}",
        t[2]
    );
    assert!(
        t[3].contains("Zug abgelehnt") && t[3].contains("Nifu"),
        "{}",
        t[3]
    );
    assert!(t[4].starts_with("Move refused"), "{}", t[4]);
    assert!(t[5].starts_with("Zug abgelehnt"), "{}", t[5]);
    assert!(t[6].starts_with("Move refused"), "{}", t[6]);
    assert!(t[7].starts_with("Zug abgelehnt"), "{}", t[7]);
    assert!(t[8].contains("not your turn"), "{}", t[8]);
    assert!(out[2..]
        .iter()
        .all(|v| !ok(v) && v["visibility"] == "caller"));
}

fn games_survive_a_restart_and_buttons_still_work(b: Backend) {
    let c = Console::on(b);
    let out = c.run("alice challenge @bob rated=no color=sente\n");
    let accept = out[0]["buttons"][0].as_str().unwrap().to_string();
    // A new process: the challenge and its button survive.
    let out = c.run(&format!(
        "carol press {accept}\nbob press {accept}\nalice move P-7f\n"
    ));
    assert!(text(&out[0]).contains("not addressed to you"));
    assert!(text(&out[1]).contains("Game #1 begins"));
    let out = c.run("bob move P-3d\nalice board\nalice export kif\n");
    assert!(out.iter().all(ok), "{out:#?}");
    assert!(text(&out[1]).contains("ply 2"));
}

fn challenges_expire_decline_cancel_and_rematch(b: Backend) {
    let c = Console::on(b);
    let out = c.run(
        "alice challenge @bob\ncarol decline 1\nbob decline 1\nalice challenge @bob\nbob cancel 2\nalice cancel 2\nalice challenge\nalice accept 3\n:clock +8d\n:tick\nbob accept 3\n",
    );
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(t[1].contains("not addressed to you"), "{}", t[1]);
    assert!(t[2].contains("bob declined challenge #1"), "{}", t[2]);
    assert!(t[4].contains("Only the challenger"), "{}", t[4]);
    assert!(t[5].contains("Challenge #2 was withdrawn"), "{}", t[5]);
    assert!(t[6].contains("open challenge (#3)"), "{}", t[6]);
    assert!(
        t[7].contains("cannot accept your own challenge"),
        "{}",
        t[7]
    );
    assert!(t[9].contains("Challenge #3 by alice expired"), "{}", t[9]);
    assert!(t[10].contains("no such open challenge"), "{}", t[10]);

    // Rematch after a finished game swaps colours.
    let c = Console::on(b);
    let out = c.run(
        "alice challenge @bob rated=no color=sente\nbob accept\nalice resign\nalice press resign-yes:1\nbob rematch 1\nalice press accept:2\n",
    );
    assert!(
        text(&out[2]).contains("aborts the game"),
        "{}",
        text(&out[2])
    );
    assert_eq!(out[2]["visibility"], "caller");
    assert!(text(&out[3]).contains("aborted"), "{}", text(&out[3]));
    assert_eq!(out[3]["buttons"][0], "rematch:1");
    assert!(
        text(&out[5]).contains("☗ bob (Sente) vs ☖ alice (Gote)"),
        "{}",
        text(&out[5])
    );
}

fn takeback_count_export_settings_and_leaderboard(b: Backend) {
    let c = Console::on(b);
    let out = c.run(
        "alice challenge @bob rated=no color=sente\nbob accept\nalice move P-7f\nbob move P-3d\nbob takeback\nalice press takeback-no:1\nbob takeback\nalice press takeback-yes:1\nalice board\nalice count\nalice export csa\nalice export sfen\nalice:de settings notation=japanese theme=dark language=de\nbob move P-8d\nalice move 2g2f\nalice settings notation=klingon\n",
    );
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(t[4].contains("bob asks to take back"), "{}", t[4]);
    assert!(t[5].contains("declined"), "{}", t[5]);
    assert!(t[7].contains("1 ply undone"), "{}", t[7]);
    assert!(t[8].contains("ply 1"), "{}", t[8]);
    assert!(t[9].contains("another entering-king rule"), "{}", t[9]);
    assert!(
        out[10]["file"].is_null() && t[10].contains("CSA"),
        "{}",
        t[10]
    );
    assert!(
        t[12].contains("Notation: Japanisch (７六歩)")
            && t[12].contains("Farbschema: Dunkel")
            && t[12].contains("Sprache: Deutsch"),
        "{}",
        t[12]
    );
    assert!(
        t[14].contains("alice zieht ▲２六歩 (P-2f)"),
        "a public move in Japanese with the Western form beside: {}",
        t[14]
    );
    assert!(
        t[15].contains("klingon")
            && t[15].starts_with("Das verstehe ich nicht")
            && t[15].contains("usi, western, western-numeric, japanese"),
        "{}",
        t[15]
    );

    // A rated game shows up on the leaderboard.
    let c = Console::on(b);
    let out = c.run(
        "alice challenge @bob rated=yes color=sente\nbob accept\nalice move P-7f\nbob move P-3d\nalice move P-2f\nbob move P-8d\nalice move P-2e\nbob move P-8e\nalice move G-7h\nbob move G-3b\nalice move P-2d\nbob move Px2d\nbob resign\nbob press resign-yes:1\nalice leaderboard\n",
    );
    let last = text(out.last().unwrap());
    assert!(
        last.contains("Leaderboard by rating:\n1. alice — 1516 (1 game)\n2. bob — 1484 (1 game)"),
        "{last}"
    );
}

/// Everyone following a thread sees every board the same way up (Sente at
/// the bottom), whoever it was drawn for; boards only one player sees follow
/// that player's `orientation` setting.
fn public_boards_keep_sente_at_the_bottom_private_ones_follow_the_setting(b: Backend) {
    let c = Console::on(b);
    let out = c.run(
        "alice challenge @bob rated=no color=gote\nbob accept\nbob move P-7f\nalice move P-3d\nalice board\nalice replay\nalice settings orientation=sente\nalice replay\nbob replay\nalice:de settings orientation=own language=de\nalice replay\nalice settings orientation=upside-down\n",
    );
    let t: Vec<&str> = out.iter().map(text).collect();
    // The start, both moves (each drawn for the player to move next) and
    // /board are public: never flipped, although alice plays Gote.
    for i in 1..=4 {
        assert_eq!(out[i]["visibility"], "public", "{}", t[i]);
        assert_eq!(out[i]["flip"], false, "public board {i}: {}", t[i]);
    }
    // alice's own replay: her side (Gote) at the bottom by default...
    assert_eq!(out[5]["visibility"], "caller");
    assert_eq!(out[5]["flip"], true, "{}", t[5]);
    // ...Sente at the bottom once she asks for it; bob is Sente anyway.
    assert!(
        t[6].contains("boards only you see: Sente at the bottom"),
        "{}",
        t[6]
    );
    assert_eq!(out[7]["flip"], false, "{}", t[7]);
    assert_eq!(out[8]["flip"], false, "{}", t[8]);
    assert!(
        t[9].contains("Bretter nur für dich: Meine Seite unten")
            && t[9].contains("Notation: Westlich (P-7f)"),
        "{}",
        t[9]
    );
    assert_eq!(out[10]["flip"], true, "{}", t[10]);
    assert!(!ok(&out[11]) && t[11].contains("upside-down"), "{}", t[11]);
}

fn playing_the_computer_with_hints_takeback_and_analysis(b: Backend) {
    let c = Console::on(b);
    let out = c.run(
        "alice play level=beginner color=sente\nalice move P-7f\nalice hint\nalice takeback\nalice board\nalice resign\nalice press resign-yes:1\nalice analyze\nalice stats\n",
    );
    assert!(out.iter().all(ok), "{out:#?}");
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(
        t[0].contains("Game #1 begins: ☗ alice (Sente) vs ☖ komadai (Beginner) (Gote)")
            && t[0].contains("no deadline. alice to move."),
        "{}",
        t[0]
    );
    assert!(
        t[1].contains("alice played ▲７六歩 (P-7f)")
            && t[1].contains("komadai (Beginner) played △"),
        "{}",
        t[1]
    );
    assert!(
        !t[1].contains("by 20"),
        "no deadline against the computer: {}",
        t[1]
    );
    assert!(t[2].starts_with("Hint: "), "{}", t[2]);
    assert_eq!(out[2]["visibility"], "caller");
    assert!(
        t[3].contains("Takeback accepted") && t[3].contains("2 plies undone"),
        "{}",
        t[3]
    );
    assert!(t[4].contains("ply 0"), "{}", t[4]);
    assert!(t[7].starts_with("Analysis of game #1"), "{}", t[7]);
    assert!(out[7]["buttons"].as_array().is_none_or(|b| b.is_empty()));
    assert!(
        t[8].contains("Against komadai Beginner") || t[8].contains("0 wins"),
        "{}",
        t[8]
    );

    // The computer gives a handicap as Gote and moves first.
    let c = Console::on(b);
    let out = c.run("alice play level=beginner handicap=6-pieces\n");
    assert!(
        text(&out[0]).contains("komadai (Beginner) played"),
        "{}",
        text(&out[0])
    );

    // No hints in rated games.
    let c = Console::on(b);
    let out = c
        .run("alice challenge @bob rated=yes color=sente\nbob accept\nalice hint\nalice:de hint\n");
    assert!(
        text(&out[2]).contains("never in rated games"),
        "{}",
        text(&out[2])
    );
    assert!(
        text(&out[3]).contains("nie in gewerteten Partien"),
        "{}",
        text(&out[3])
    );
}

fn replay_steps_through_a_game_with_buttons(b: Backend) {
    let c = Console::on(b);
    let out = c.run(
        "alice challenge @bob rated=no color=sente\nbob accept\nalice move P-7f\nbob move P-3d\nalice move Bx2b+\nalice replay\nalice replay ply=0\nalice press replay-next:1:1\nalice:de press replay-last:1:3\ncarol replay game=1\nalice replay ply=x\nalice press replay-next:1\n",
    );
    let t: Vec<&str> = out.iter().map(text).collect();
    // The last position by default, with the move that led there.
    assert!(
        t[5].contains("ply 3 of 3") && t[5].contains("☗Bx2b+"),
        "{}",
        t[5]
    );
    assert_eq!(out[5]["visibility"], "caller");
    let buttons = |v: &Value| -> Vec<String> {
        v["buttons"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|b| b.as_str().map(String::from))
            .collect()
    };
    assert_eq!(
        buttons(&out[5]),
        [
            "replay-first:1:0",
            "replay-back:1:2",
            "replay-next:1:3",
            "replay-last:1:3"
        ]
    );
    // The start position: the first position of the game, nothing moved yet.
    assert!(t[6].contains("start position (3 plies follow)"), "{}", t[6]);
    assert_eq!(
        out[6]["board"],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
    // A button steps forward; the board is the one after ☗P-7f.
    assert!(t[7].contains("ply 1 of 3: ☗P-7f"), "{}", t[7]);
    assert_eq!(out[7]["last_move"], "7g7f");
    assert!(t[8].contains("Halbzug 3 von 3"), "{}", t[8]);
    // Not one's own game; bad arguments; a malformed button.
    assert!(!ok(&out[9]), "{}", out[9]);
    assert!(!ok(&out[10]), "{}", out[10]);
    assert!(!ok(&out[11]), "{}", out[11]);
}

fn the_handicap_ladder_starts_at_six_pieces(b: Backend) {
    let c = Console::on(b);
    let out = c.run("alice play ladder\nalice:de stats\n");
    assert!(
        text(&out[0])
            .starts_with("Handicap ladder: you are 10 kyu. komadai (Strong) gives you 6 pieces"),
        "{}",
        text(&out[0])
    );
    // Six pieces removed from Gote's camp: no rook, bishop, lances, knights.
    // (The computer, giving the handicap, has already made its first move.)
    let board = out[0]["board"].as_str().unwrap_or_default();
    let placement = board.split(' ').next().unwrap_or_default();
    assert!(
        !placement.contains(['r', 'b', 'l', 'n']) && placement.matches('s').count() == 2,
        "{board}"
    );
    assert!(ok(&out[1]), "{}", out[1]);
}

fn the_learn_course_from_the_pawn_to_a_minishogi_game(b: Backend) {
    let c = Console::on(b);
    let out = c.run(
        "alice learn\nalice learn 5f5e\nalice learn 9i9h\nalice learn 9i9c+\n\
         alice learn lesson=11\nalice learn P*4d\nalice:de learn P*4d\nalice learn P*6d\n\
         alice learn N*4b\nalice learn N*4d\nalice learn P*1b\nalice learn G*3a\nalice learn G*1b\n\
         alice:de learn G*5b\nalice learn\nalice move 5d5c\nalice learn 5d5c\nalice learn lesson=99\n",
    );
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(t[0].starts_with("Lesson 1/15 — The pawn."), "{}", t[0]);
    assert_eq!(out[0]["visibility"], "caller");
    assert!(out[0]["board"].is_string());
    assert!(
        t[1].starts_with("Right: Px5e") && t[1].contains("Lesson 2/15 — The lance"),
        "{}",
        t[1]
    );
    // A legal but wrong move: a hint, the same lesson.
    assert!(
        t[2].contains("is legal, but not the answer") && t[2].contains("all the way"),
        "{}",
        t[2]
    );
    assert!(t[3].contains("Lesson 3/15 — The knight"), "{}", t[3]);
    // Skip to the forbidden drops: the rules core names each rule.
    assert!(
        t[4].starts_with("Lesson 11/15 — Forbidden drop 1"),
        "{}",
        t[4]
    );
    assert!(!ok(&out[5]) && t[5].contains("pawn"), "{}", t[5]);
    assert!(!ok(&out[6]), "{}", t[6]);
    assert!(t[7].contains("Lesson 12/15"), "{}", t[7]);
    assert!(!ok(&out[8]), "a knight on the second-last rank: {}", t[8]);
    assert!(t[9].contains("Lesson 13/15"), "{}", t[9]);
    assert!(!ok(&out[10]), "a pawn drop that mates: {}", t[10]);
    assert!(t[11].contains("no mate yet"), "{}", t[11]);
    assert!(t[12].contains("Lesson 14/15 — A first mate"), "{}", t[12]);
    assert!(
        t[13].starts_with("Richtig: G*5b") && t[13].contains("Lektion 15/15 — Eine ganze Partie"),
        "{}",
        t[13]
    );
    // The last lesson starts a minishogi game against the Beginner.
    assert!(
        t[14].contains("Lesson 15/15") && t[14].contains("komadai (Beginner)"),
        "{}",
        t[14]
    );
    let board = out[14]["board"].as_str().unwrap_or_default();
    assert_eq!(board.split('/').count(), 5, "a 5×5 board: {board}");
    assert!(
        ok(&out[15]) && t[15].contains("alice played ▲") && t[15].contains("(P-5c)"),
        "/move plays in the minishogi game: {}",
        t[15]
    );
    assert!(!ok(&out[16]) && t[16].contains("is a game"), "{}", t[16]);
    assert!(!ok(&out[17]) && t[17].contains("1 to 15"), "{}", t[17]);
}

/// Vacation pauses the deadline of the player to move and gives it back
/// exactly, across restarts of the process; the allowance ends it by itself
/// at the moment it runs out, even when the scheduler runs late.
fn vacation_pauses_deadlines_exactly_across_restarts(b: Backend) {
    let c = Console::on(b);
    let opening = "alice challenge @bob days=3 rated=yes color=sente\nbob accept\nalice move P-7f\nbob move P-3d\n";
    let out = c.run(&format!(
        "{opening}:clock +1d\nalice vacation on\nalice vacation on\n:tick\n"
    ));
    let out = without_console(out);
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(
        t[4].contains("You are on vacation")
            && t[4].contains("1 game against members, 1 paused now"),
        "{}",
        t[4]
    );
    assert_eq!(out[4]["visibility"], "caller");
    assert!(t[5].contains("already on vacation"), "{}", t[5]);
    let notice = out
        .iter()
        .find(|v| v["to"] == "notice")
        .map(text)
        .unwrap_or_default();
    assert!(
        notice.contains("Game #1: alice is on vacation until"),
        "{notice}"
    );

    // A new process four days later: no timeout while away.
    let later = START + 5 * DAY;
    let out = without_console(c.run_at(
        later,
        &[],
        "bob:de stats\n:tick\nalice vacation\nalice vacation off\n:tick\n",
    ));
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(!t.iter().any(|t| t.contains("is over")), "{t:#?}");
    assert!(
        t[1].contains("On vacation since") && t[1].contains("4 of 14 days used"),
        "{}",
        t[1]
    );
    assert!(
        t[2].contains("Welcome back")
            && t[2].contains("1 game resumed")
            && t[2].contains("4 of 14 days used"),
        "{}",
        t[2]
    );
    // Two days were left when the vacation began: the deadline is two days
    // after the return, to the second.
    let back = out
        .iter()
        .filter(|v| v["to"] == "notice")
        .map(text)
        .collect::<Vec<_>>();
    let due = komadai::i18n::utc(later + 2 * DAY);
    assert!(
        back.iter()
            .any(|n| n.contains("alice is back from vacation and to move by") && n.contains(&due)),
        "{back:#?} {due}"
    );

    // The restored deadline holds across another restart: not a second
    // early, and the timeout right after.
    let out = c.run_at(later + 2 * DAY - 1, &[], ":tick\n");
    assert!(!out.iter().any(|v| text(v).contains("is over")), "{out:#?}");
    // (Before ply 10 a passed deadline aborts the game.)
    let out = c.run_at(later + 2 * DAY, &[], ":tick\nalice stats\n");
    assert!(
        out.iter()
            .any(|v| text(v).contains("Game #1 is over. The game was aborted")),
        "{out:#?}"
    );
    assert!(
        text(out.last().unwrap()).contains("Vacation this year: 4 of 14 days used."),
        "{}",
        text(out.last().unwrap())
    );

    // A two-day allowance: the scheduler, running two days late, ends the
    // vacation at the moment it ran out, and the deadline counts from there.
    let c = Console::on(b);
    let env = [("KOMADAI_VACATION_DAYS", "2")];
    let out = without_console(c.run_at(
        START,
        &env,
        &format!("{opening}:clock +1d\nalice:de vacation on\n"),
    ));
    assert!(
        text(&out[4]).contains("Noch 2 Tage Urlaub"),
        "{}",
        text(&out[4])
    );
    let out = without_console(c.run_at(
        START + 5 * DAY,
        &env,
        ":tick\nalice:de vacation\nalice:de vacation on\n",
    ));
    let t: Vec<&str> = out.iter().map(text).collect();
    let due = komadai::i18n::utc(START + 3 * DAY + 2 * DAY);
    assert!(
        t.iter()
            .any(|n| n.contains("alice is back from vacation") && n.contains(&due)),
        "{t:#?} {due}"
    );
    assert!(
        t[t.len() - 2].contains("Nicht im Urlaub")
            && t[t.len() - 2].contains("2 von 2 Tagen genommen"),
        "{}",
        t[t.len() - 2]
    );
    assert!(
        t[t.len() - 1].contains("aufgebraucht"),
        "{}",
        t[t.len() - 1]
    );

    // Both away: the one who comes back first does not restart the other's
    // clock.
    let c = Console::on(b);
    let out = without_console(c.run(&format!(
        "{opening}alice move P-2f\nbob vacation on\nalice vacation on\nalice vacation off\n:clock +10d\n:tick\nbob vacation off\n"
    )));
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(t[7].contains("0 games resumed"), "{}", t[7]);
    assert!(!t.iter().any(|x| x.contains("is over")), "{t:#?}");
    assert!(
        t.last().unwrap().contains("1 game resumed"),
        "{}",
        t.last().unwrap()
    );

    // A game that becomes the turn of a player on vacation starts paused.
    let c = Console::on(b);
    let out = without_console(c.run(&format!("{opening}alice move P-2f\nalice vacation on\nbob move P-8d\n:clock +10d\n:tick\nalice vacation off\n")));
    assert!(text(&out[5]).contains("0 paused now"), "{}", text(&out[5]));
    assert!(!out.iter().any(|v| text(v).contains("is over")), "{out:#?}");
    assert!(
        text(out.last().unwrap()).contains("1 game resumed"),
        "{}",
        text(out.last().unwrap())
    );
}

/// Conditional premoves: a line is checked move by move, played at once
/// when its condition comes, continued, and dropped when the game leaves it.
fn premove_lines_are_followed_then_dropped(b: Backend) {
    let c = Console::on(b);
    let out = c.run(
        "alice challenge @bob rated=no color=sente\nbob accept\nalice move P-7f\n\
         alice premove 3c3d 2g2f 8c8d 2f2e\nalice premove P-8d P-2f\nalice premove 3c3d 6i7h\n\
         bob premove 7g7f 3c3d\nalice:de premove 3c3d\nalice premove\nbob move P-3d\nalice premove\n",
    );
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(
        t[3].contains("premove line saved")
            && t[3].contains("1. if P-3d → P-2f, then if P-8d → P-2e"),
        "{}",
        t[3]
    );
    assert_eq!(out[3]["visibility"], "caller");
    assert!(t[4].contains("2. if P-8d → P-2f"), "{}", t[4]);
    assert!(
        t[5].contains("Your line 1 answers the same move differently"),
        "{}",
        t[5]
    );
    assert!(t[6].contains("It is your move"), "{}", t[6]);
    assert!(
        t[7].contains("Ein Vorauszug besteht aus Paaren") && t[7].contains("1 Zug angegeben"),
        "{}",
        t[7]
    );
    assert!(
        t[8].contains("1. if P-3d") && t[8].contains("2. if P-8d"),
        "{}",
        t[8]
    );
    // bob's P-3d is line 1's condition: alice's P-2f follows in the same reply.
    assert!(
        t[9].starts_with("#1: bob played △３四歩 (P-3d)"),
        "{}",
        t[9]
    );
    assert!(t[9].contains("alice had prepared the answer (conditional premove):\n#1: alice played ▲２六歩 (P-2f). bob to move"), "{}", t[9]);
    // Line 1 continues; line 2 (another condition) is gone.
    assert!(
        t[10].contains("1. if P-8d → P-2e") && !t[10].contains("2."),
        "{}",
        t[10]
    );
    // bob leaves the line: it is dropped and nothing is played for alice.
    // alice is told so by direct message, and nobody else hears of it.
    let out = c.run("bob move P-4d\n:tick\nalice premove\nalice board\n");
    let dms = direct_messages(&out);
    assert_eq!(dms.len(), 1, "{dms:?}");
    assert_eq!(dms[0].0, "dm alice");
    assert!(
        dms[0].1.starts_with(
            "Game #1: your opponent played △４四歩 (P-4d), which none of your premove lines expected. \
             That line was dropped; nothing was played for you. It is your move."
        ),
        "{}",
        dms[0].1
    );
    let rest: Vec<Value> = without_console(out)
        .into_iter()
        .filter(|v| v["to"] != "notice" && v["to"] != "dm alice")
        .collect();
    let t: Vec<&str> = rest.iter().map(text).collect();
    assert!(!t[0].contains("prepared"), "{}", t[0]);
    assert!(t[1].contains("you have no premove lines"), "{}", t[1]);
    assert!(t[2].contains("ply 4"), "{}", t[2]);

    // Moves are checked where they are played; a line that extends another
    // with the same answers is kept, and both go on when it fires.
    let out = c.run(
        "alice move P-2e\nalice premove 8c8d 2e2d 8d8e 5i5i\nalice premove 8c8d 2e2d 8d8e 2d2c+\n\
         alice premove 8c8d 2e2d 8d8e 2d2c+ 3a3b 2c3b\nalice premove clear=9\nbob move P-8d\nalice premove\n",
    );
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(
        t[1].contains("Move 4 of the line: illegal move"),
        "{}",
        t[1]
    );
    assert!(
        t[2].contains("1. if P-8d → P-2d, then if P-8e → Px2c+"),
        "{}",
        t[2]
    );
    assert!(
        t[3].contains("2. if P-8d → P-2d, then if P-8e → Px2c+, then if S-3b → +Px3b"),
        "{}",
        t[3]
    );
    assert!(t[4].contains("no premove line 9"), "{}", t[4]);
    assert!(t[5].contains("alice had prepared the answer"), "{}", t[5]);
    assert!(
        t[6].contains("1. if P-8e → Px2c+\n2. if P-8e → Px2c+, then if S-3b → +Px3b"),
        "{}",
        t[6]
    );
    let out = c.run("alice premove clear=1\nalice premove clear=all\nalice premove\n");
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(t[0].contains("1 premove line deleted"), "{}", t[0]);
    assert!(t[1].contains("1 premove line deleted"), "{}", t[1]);
    assert!(t[2].contains("no premove lines"), "{}", t[2]);

    // Never against the computer.
    let c = Console::on(b);
    let out = c.run("alice play level=easy color=sente\nalice premove 1c1d 1g1f\n");
    assert!(
        text(&out[1]).contains("Premoves are for games between members"),
        "{}",
        text(&out[1])
    );
}

/// Premoves from a handicap start (Gote, the giver, moves first) and a
/// takeback that drops them.
fn premoves_from_a_handicap_start_and_after_a_takeback(b: Backend) {
    let c = Console::on(b);
    let out = c.run(
        "alice challenge @bob rated=no handicap=lance color=gote\nbob accept\nalice move 3c3d\n\
         alice premove 7g7f 4c4d 2g2f 8c8d\nbob move 7g7f\nalice premove\nalice board\nbob takeback\nalice press takeback-yes:1\nalice premove\n",
    );
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(
        t[1].contains("Game #1 begins") && t[1].contains("alice to move"),
        "{}",
        t[1]
    );
    assert!(
        t[3].contains("1. if P-7f → P-4d, then if P-2f → P-8d"),
        "{}",
        t[3]
    );
    assert!(
        t[4].contains("alice had prepared the answer")
            && t[4].contains("alice played △４四歩 (P-4d)"),
        "{}",
        t[4]
    );
    assert!(t[5].contains("1. if P-2f → P-8d"), "{}", t[5]);
    assert!(t[6].contains("ply 3"), "{}", t[6]);
    assert!(t[8].contains("2 plies undone"), "{}", t[8]);
    assert!(
        t.last().unwrap().contains("no premove lines"),
        "{}",
        t.last().unwrap()
    );
}

/// Server settings: only Manage Server changes them; they apply to
/// challenges (days, rated) and to the language of members who chose none.
fn server_settings_apply_to_challenges_and_language(b: Backend) {
    let c = Console::on(b);
    let out = without_console(c.run(
        ":guild 42\nalice server\nalice server rated=no\n:manager carol\n\
         carol:de server rated=no days=7 language=de threads=no channel=555\n\
         alice challenge @bob\nalice challenge @bob rated=yes\nbob challenge @alice days=1 rated=no\n\
         alice settings language=en\nalice server\ncarol server days=4\n:guild none\nalice challenge @carol\ndave server\n",
    ));
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(
        t[0].starts_with("Server settings: Games start in the channel where they are accepted")
            && t[0].contains("rated games allowed; default 3 days"),
        "{}",
        t[0]
    );
    assert!(
        t[1].contains("Only members with the Manage Server permission"),
        "{}",
        t[1]
    );
    assert!(
        t[2].starts_with("Servereinstellungen gespeichert.")
            && t[2].contains("keine Threads")
            && t[2].contains("gewertete Partien aus; Standard 7 Tage pro Zug; Sprache: Deutsch"),
        "{}",
        t[2]
    );
    // alice has no language of her own: the server's German applies.
    assert!(
        t[3].contains("alice fordert bob heraus")
            && t[3].contains("7 Tage pro Zug, freundschaftlich"),
        "{}",
        t[3]
    );
    assert!(
        t[4].contains("Auf diesem Server gibt es keine gewerteten Partien"),
        "{}",
        t[4]
    );
    assert!(t[5].contains("1 Tag pro Zug"), "{}", t[5]);
    // Her own choice wins over the server's.
    assert!(
        t[7].starts_with("Server settings:") && t[7].contains("language: German"),
        "{}",
        t[7]
    );
    assert!(
        t[8].contains("Tage pro Zug müssen 1, 2, 3, 5, 7 oder 14 sein"),
        "{}",
        t[8]
    );
    assert!(!ok(&out[8]), "{}", t[8]);
    // Elsewhere the defaults apply again.
    assert!(t[9].contains("3 days per move, rated"), "{}", t[9]);
    assert!(t[10].contains("only on a server"), "{}", t[10]);
}

/// Following a game or a member: their moves come by direct message to
/// the follower only, until they stop; `/games server` lists live games.
fn following_games_and_members_and_the_servers_games(b: Backend) {
    let c = Console::on(b);
    let out = without_console(c.run(
        ":guild 7\nalice challenge @bob rated=no color=sente\nbob accept\ncarol follow game=1\n\
         dave:de follow @alice\ncarol follow\nalice follow game=1\ncarol follow game=1\nalice move P-7f\n:tick\n\
         carol follow stop game=1\nbob move P-3d\n:tick\ncarol games server\ndave:de games server\n\
         dave:de follow stop\ndave:de follow\n:guild 8\ncarol follow game=1\ncarol games server\n",
    ));
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(
        t[2].contains("You now follow game #1 (☗ alice vs ☖ bob)"),
        "{}",
        t[2]
    );
    assert!(
        t[3].contains("Du folgst jetzt den Partien von alice"),
        "{}",
        t[3]
    );
    assert!(t[4].contains("You follow (1 of 20): game #1"), "{}", t[4]);
    assert!(t[5].contains("You see your own moves anyway"), "{}", t[5]);
    assert!(t[6].contains("You follow that already"), "{}", t[6]);
    // The move reaches both followers privately, and nobody else.
    let dms = direct_messages(&out);
    assert_eq!(dms.len(), 3, "{dms:#?}");
    assert!(
        dms[0]
            .1
            .starts_with("[followed] #1: alice played ▲７六歩 (P-7f)"),
        "{dms:#?}"
    );
    let mut to: Vec<&str> = dms.iter().map(|d| d.0).collect();
    to.sort_unstable();
    // carol stopped before bob's move: only dave (following alice) gets it.
    assert_eq!(to, ["dm carol", "dm dave", "dm dave"], "{dms:#?}");
    assert!(dms.iter().all(|d| out
        .iter()
        .any(|v| v["to"] == d.0 && v["visibility"] == "caller")));
    let i = t
        .iter()
        .position(|x| x.contains("1 follow ended"))
        .expect("stop");
    let games = t
        .iter()
        .position(|x| x.starts_with("Live games on this server (1):"))
        .expect("games");
    assert!(
        games > i && t[games].contains("#1 ☗ alice vs ☖ bob — ply 2, alice to move"),
        "{}",
        t[games]
    );
    assert!(
        t[games + 1].contains("Laufende Partien auf diesem Server (1):"),
        "{}",
        t[games + 1]
    );
    assert!(
        t[games + 2].contains("1 Folgen beendet"),
        "{}",
        t[games + 2]
    );
    assert!(
        t[games + 3].contains("Du folgst noch nichts"),
        "{}",
        t[games + 3]
    );
    // Another server neither sees nor follows this server's game.
    assert!(t[games + 4].contains("another server"), "{}", t[games + 4]);
    assert!(
        t[games + 5].contains("No games are being played on this server"),
        "{}",
        t[games + 5]
    );
}

/// `/privacy` says what is stored; erasing waits for running games, then
/// replaces the name in finished games and deletes the rest.
fn privacy_report_and_erasure(b: Backend) {
    let c = Console::on(b);
    let alice = komadai::console::user_id("alice");
    let out = c.run(&format!(
        "dave privacy\nalice challenge @bob rated=no color=sente\nbob accept\ncarol follow @alice\nalice follow @carol\n\
         alice settings dms=yes\nalice move P-7f\nbob move P-3d\nalice privacy\nalice press erase-yes:{alice}\n\
         bob press erase-yes:{alice}\nalice resign\nalice press resign-yes:1\nalice:de privacy\n\
         alice:de press erase-yes:{alice}\nbob replay game=1\ncarol follow\nbob leaderboard\n"
    ));
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(t[0].contains("stores nothing about you"), "{}", t[0]);
    assert!(
        t[8].contains("1 game (1 going)")
            && t[8].contains("1 follow")
            && t[8].contains("Erase my data"),
        "{}",
        t[8]
    );
    assert_eq!(out[8]["buttons"][0], format!("erase-yes:{alice}"));
    assert_eq!(out[8]["visibility"], "caller");
    assert!(
        t[9].contains("You still play 1 game: finish or resign it first"),
        "{}",
        t[9]
    );
    assert!(t[10].contains("someone else's"), "{}", t[10]);
    assert!(t[13].contains("1 Partie (0 laufend)"), "{}", t[13]);
    assert!(
        t[14].starts_with("Erledigt")
            && t[14].contains("Deine 1 Partie zeigt jetzt „former member“"),
        "{}",
        t[14]
    );
    // The opponent's record keeps the game, with the new name in it.
    let store = komadai::store::Store::open(std::path::Path::new(&c.db)).expect("store");
    let name = store
        .read(|r| r.player(alice))
        .expect("read")
        .map(|p| p.display_name);
    assert_eq!(name.as_deref(), Some("former member"));
    let game = store
        .read(|r| r.game(1))
        .expect("read")
        .expect("the game stays");
    assert_eq!((game.sente, game.status.as_str()), (alice, "finished"));
    assert!(t[16].contains("You follow nothing yet"), "{}", t[16]);
    // A new look finds only a new member's defaults.
    let out = c.run("alice privacy\nalice stats\n");
    assert!(
        text(&out[0]).contains("1 game (0 going), 0 rating changes, 0 open challenges, 0 follows"),
        "{}",
        text(&out[0])
    );
    assert!(
        text(&out[1]).contains("rating 1500 (0 rated games), 0 points, 1000 Taler"),
        "{}",
        text(&out[1])
    );
}

/// The lines of a standings table (in its code block, after the header).
fn standings_rows(text: &str) -> Vec<&str> {
    text.split("```")
        .nth(1)
        .expect("a table")
        .lines()
        .skip(2)
        .collect()
}

/// The games a `:tick` started, from their start notices: (game, sente, gote).
fn started_games(out: &[Value]) -> Vec<(i64, String, String)> {
    out.iter()
        .filter(|v| v["to"] == "notice")
        .filter_map(|v| {
            let t = text(v);
            let (_, start) = t.split_once('\n')?;
            let id = start.split_once('#')?.1;
            let id: i64 = id[..id.find(|c: char| !c.is_ascii_digit())?].parse().ok()?;
            let sente = start.split_once("☗ ")?.1.split_once(" (Sente)")?.0;
            let gote = start.split_once("☖ ")?.1.split_once(" (Gote)")?.0;
            Some((id, sente.to_string(), gote.to_string()))
        })
        .collect()
}

/// A full six-player round robin, one console process per round (so every
/// round survives a restart): an early resignation that counts, a timeout,
/// a withdrawal whose later pairings are lost without a game, and the final
/// standings checked against the results the test itself produced.
fn league_round_robin_to_its_final_standings(b: Backend, german: bool) {
    let c = Console::on(b);
    let players = ["alice", "bob", "carol", "dave", "erin", "frank"];
    let language = if german { "de" } else { "en" };
    let mut script = format!(
        ":guild 7\n:manager boss\nboss server language={language}\nalice league create Autumn League\n\
         boss league create Autumn League format=rr start=now players=6 days=2\n"
    );
    for p in players {
        script.push_str(&format!("{p} league join\n"));
    }
    script.push_str("gina league join\nalice league pairings\nalice league standings\n");
    let out = without_console(c.run(&script));
    let t: Vec<&str> = out.iter().map(text).collect();
    let w = |en: &'static str, de: &'static str| if german { de } else { en };
    assert!(
        t[1].contains(w("Manage Server", "Server verwalten")) && !ok(&out[1]),
        "{}",
        t[1]
    );
    assert!(t[2].contains("**Autumn League** (#1)"), "{}", t[2]);
    assert_eq!(out[2]["buttons"][0], "league-join:1");
    assert!(t[8].contains("6"), "{}", t[8]);
    assert!(
        t[9].contains(w(
            "That league is full (6 players)",
            "Diese Liga ist voll (6 Spieler)"
        )) && !ok(&out[9]),
        "{}",
        t[9]
    );
    assert!(
        t[10].contains(w("not started yet", "noch nicht begonnen")),
        "{}",
        t[10]
    );
    assert!(
        t[11].contains(w("not started yet", "noch nicht begonnen")),
        "{}",
        t[11]
    );

    // Halves of a point each player scored, as this test decides the games.
    let mut expected: std::collections::HashMap<&str, i64> =
        players.iter().map(|p| (*p, 0)).collect();
    let mut clock = START;
    // Each round is a new console process on the same database; the
    // server is set again in each.
    let mut out = without_console(c.run_at(clock, &[], ":guild 7\n:tick\n"));
    let mut withdrawn = false;
    for round in 1..=5 {
        let begins = if german {
            format!("Runde {round} von 5 beginnt")
        } else {
            format!("round {round} of 5 begins")
        };
        let post = out
            .iter()
            .map(text)
            .find(|t| t.contains(&begins))
            .unwrap_or_else(|| panic!("round {round} is posted: {out:#?}"));
        // The withdrawn player's pairings are decided without a game.
        for line in post.lines().filter(|l| withdrawn && l.contains("frank")) {
            assert!(
                line.contains(w("(withdrawal, no game)", "(Rückzug, ohne Partie)")),
                "{line}"
            );
            let winner = players
                .iter()
                .find(|p| **p != "frank" && line.contains(*p))
                .expect("an opponent");
            *expected.get_mut(winner).unwrap() += 2;
        }
        let games = started_games(&out);
        assert_eq!(
            games.len(),
            if withdrawn { 2 } else { 3 },
            "round {round}: {games:?}"
        );
        let mut script = ":guild 7\n".to_string();
        let mut timeout = false;
        for (board, (id, sente, gote)) in games.iter().enumerate() {
            let (sente, gote) = (sente.as_str(), gote.as_str());
            if round == 1 && board == 0 {
                // A resignation before ply 10 still loses in a league, and
                // a league game cannot be aborted.
                script.push_str(&format!(
                    "{sente} abort game={id}\n{sente} resign game={id}\n{sente} press resign-yes:{id}\n"
                ));
                *expected.get_mut(gote).unwrap() += 2;
            } else if round == 1 && board == 2 {
                // Sente never moves: the deadline passes.
                timeout = true;
                *expected.get_mut(gote).unwrap() += 2;
            } else if round == 2 && (sente == "frank" || gote == "frank") {
                script.push_str("frank league leave\nfrank press league-withdraw:1\n");
                withdrawn = true;
                let other = if sente == "frank" { gote } else { sente };
                *expected.get_mut(other).unwrap() += 2;
            } else {
                let (winner, loser) = if (round + board) % 2 == 0 {
                    (sente, gote)
                } else {
                    (gote, sente)
                };
                script.push_str(&format!(
                    "{sente} move 7g7f game={id}\n{loser} resign game={id}\n{loser} press resign-yes:{id}\n"
                ));
                *expected.get_mut(winner).unwrap() += 2;
            }
        }
        if timeout {
            script.push_str(":clock +3d\n");
        }
        script.push_str(":tick\nalice league standings\n");
        out = without_console(c.run_at(clock, &[], &script));
        if timeout {
            clock += 3 * DAY;
        }
        let t: Vec<&str> = out.iter().map(text).collect();
        if round == 1 {
            assert!(
                t[0].contains(w("cannot be aborted", "nicht abbrechen")) && !ok(&out[0]),
                "{}",
                t[0]
            );
            assert!(
                t.iter().any(
                    |t| t.contains(w("by the move deadline passed", "Zugfrist ist abgelaufen"))
                ),
                "{t:#?}"
            );
        }
        if round == 2 {
            let asked = t
                .iter()
                .position(|t| t.contains(w("Withdraw from", "zurückziehen?")))
                .expect("asked first");
            assert_eq!(out[asked]["visibility"], "caller");
            assert!(
                t[asked + 1].contains(w("frank withdrew from", "frank hat sich aus der Liga")),
                "{}",
                t[asked + 1]
            );
        }
        let standings = t.last().unwrap();
        assert!(standings.contains("```"), "{standings}");
    }
    // The last round's results end the league: the final standings.
    let t: Vec<&str> = out.iter().map(text).collect();
    let last = t
        .iter()
        .find(|t| {
            t.contains(w(
                "Final standings of **Autumn League**",
                "Abschlusstabelle der Liga **Autumn League**",
            ))
        })
        .unwrap_or_else(|| panic!("final standings: {t:#?}"));
    let table = standings_rows(last);
    assert_eq!(table.len(), 6, "{last}");
    let mut previous = i64::MAX;
    for line in &table {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let name = cells[1];
        let points: i64 = cells[cells.len() - 5].parse().expect("whole points");
        assert_eq!(points * 2, expected[name], "{name}: {last}");
        assert!(points <= previous, "ordered by points: {last}");
        previous = points;
        assert_eq!(line.contains('×'), name == "frank", "{line}");
        // Every pairing was decided: five games per player, the withdrawn
        // one's forfeits included.
        let wdl: i64 = cells[cells.len() - 3..]
            .iter()
            .map(|c| c.parse::<i64>().unwrap())
            .sum();
        assert_eq!(wdl, 5, "{line}");
    }
    assert!(
        last.contains(w("Congratulations, ", "Herzlichen Glückwunsch, ")),
        "{last}"
    );
    // Nothing more happens: the league is over.
    let after = without_console(c.run_at(
        clock + 30 * DAY,
        &[],
        ":guild 7\n:tick\nalice league list\nbob league join 1\n",
    ));
    let t: Vec<&str> = after.iter().map(text).collect();
    assert!(t[0].contains(w("finished", "beendet")), "{t:#?}");
    assert!(!ok(&after[1]), "{}", t[1]);
}

/// A Swiss league of five: one bye a round (a point, never twice to the
/// same player), no rematches, minishogi; erasure waits while a member
/// plays in it; the final standings add up.
fn league_swiss_rounds_with_byes(b: Backend) {
    let c = Console::on(b);
    let players = ["ann", "ben", "cat", "dan", "eve"];
    let mut script = ":guild 9\n:manager boss\n\
        boss league create Winter Swiss format=swiss rounds=3 variant=minishogi days=1 start=now players=8\n"
        .to_string();
    for p in players {
        script.push_str(&format!("{p} league join\n"));
    }
    script.push_str("boss league start\n");
    let out = without_console(c.run(&script));
    let t: Vec<&str> = out.iter().map(text).collect();
    assert!(
        t[0].contains("Swiss system, 3 rounds, minishogi, 1 day per move"),
        "{}",
        t[0]
    );
    assert!(t[6].contains("has started with 5 players"), "{}", t[6]);
    let mut met = std::collections::HashSet::new();
    let mut byes = Vec::new();
    let mut wins: std::collections::HashMap<String, i64> = std::collections::HashMap::new();
    let mut out = without_console(c.run(":guild 9\n:tick\nann privacy\n"));
    for round in 1..=3 {
        let post = out
            .iter()
            .map(text)
            .find(|t| t.contains(&format!("round {round} of 3 begins")))
            .unwrap_or_else(|| panic!("round {round}: {out:#?}"));
        let bye = post
            .lines()
            .find(|l| l.contains("bye (1 point)"))
            .and_then(|l| players.iter().find(|p| l.contains(*p)))
            .expect("a bye");
        assert!(!byes.contains(bye), "{bye} had a bye before: {post}");
        byes.push(*bye);
        *wins.entry((*bye).to_string()).or_default() += 1;
        let games = started_games(&out);
        assert_eq!(games.len(), 2, "{post}");
        let mut script = ":guild 9\n".to_string();
        for (id, sente, gote) in &games {
            let pair = if sente < gote {
                (sente.clone(), gote.clone())
            } else {
                (gote.clone(), sente.clone())
            };
            assert!(met.insert(pair), "a rematch in round {round}: {post}");
            // Gote resigns at once: in a league, a loss.
            script.push_str(&format!(
                "{gote} resign game={id}\n{gote} press resign-yes:{id}\n"
            ));
            *wins.entry(sente.clone()).or_default() += 1;
        }
        if round == 1 {
            let privacy = out
                .iter()
                .find(|v| text(v).contains("Erase"))
                .expect("the privacy answer");
            let button = privacy["buttons"][0].as_str().expect("the erase button");
            script.push_str(&format!("ann press {button}\n"));
        }
        script.push_str(":tick\n");
        out = without_console(c.run(&script));
        if round == 1 {
            let refused = out
                .iter()
                .map(text)
                .find(|t| t.contains("still play in league #1"));
            assert!(refused.is_some(), "{out:#?}");
        }
    }
    let last = out
        .iter()
        .map(text)
        .find(|t| t.contains("Final standings of **Winter Swiss**"))
        .unwrap_or_else(|| panic!("{out:#?}"));
    let table = standings_rows(last);
    assert_eq!(table.len(), 5, "{last}");
    for line in table {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let points: i64 = cells[2].parse().expect("whole points");
        assert_eq!(points, wins.get(cells[1]).copied().unwrap_or(0), "{line}");
    }
}

fn league_round_robin_in_english(b: Backend) {
    league_round_robin_to_its_final_standings(b, false);
}

fn league_round_robin_in_german(b: Backend) {
    league_round_robin_to_its_final_standings(b, true);
}

/// Every test above, once on SQLite and once on PostgreSQL.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[test]
            fn $name() {
                super::$name(super::Backend::Sqlite);
            })*
        }
        mod postgres {
            $(#[test]
            fn $name() {
                if super::pg::available() {
                    super::$name(super::Backend::Postgres);
                }
            })*
        }
    };
}

on_both_backends!(
    league_round_robin_in_english,
    league_round_robin_in_german,
    league_swiss_rounds_with_byes,
    privacy_report_and_erasure,
    following_games_and_members_and_the_servers_games,
    server_settings_apply_to_challenges_and_language,
    vacation_pauses_deadlines_exactly_across_restarts,
    premove_lines_are_followed_then_dropped,
    premoves_from_a_handicap_start_and_after_a_takeback,
    full_rated_game_to_checkmate_changes_ratings,
    sennichite_is_a_draw_and_perpetual_check_loses,
    points_taler_stakes_and_a_sennichite_replayed_at_once,
    danger_help_outlines_hanging_pieces_and_rates_a_pieces_targets,
    declaration_resignation_abort_and_timeout,
    handicap_and_minishogi_games_are_unrated,
    illegal_and_malformed_moves_are_refused_in_english_and_german,
    games_survive_a_restart_and_buttons_still_work,
    challenges_expire_decline_cancel_and_rematch,
    takeback_count_export_settings_and_leaderboard,
    public_boards_keep_sente_at_the_bottom_private_ones_follow_the_setting,
    playing_the_computer_with_hints_takeback_and_analysis,
    replay_steps_through_a_game_with_buttons,
    the_handicap_ladder_starts_at_six_pieces,
    the_learn_course_from_the_pawn_to_a_minishogi_game,
);
