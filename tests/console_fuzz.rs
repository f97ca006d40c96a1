//! Bad input: every console command with missing, extra, huge (10 KB) or
//! garbage arguments gets a clear refusal, and nothing panics (a seeded fuzz
//! loop over console lines, run through the real binary and database).

use std::io::Write;
use std::process::{Command, Stdio};

const COMMANDS: [&str; 21] = [
    "challenge",
    "accept",
    "decline",
    "cancel",
    "move",
    "m",
    "board",
    "games",
    "resign",
    "abort",
    "declare",
    "count",
    "takeback",
    "rematch",
    "export",
    "settings",
    "stats",
    "leaderboard",
    "press",
    "help",
    "frobnicate",
];

fn garbage(rng: &mut fastrand::Rng) -> String {
    match rng.u8(..8) {
        0 => String::new(),
        1 => "x".repeat(10_240),
        2 => (0..rng.usize(1..40)).map(|_| rng.char(..)).collect(),
        3 => format!("game={}", rng.i64(..)),
        4 => format!("@{}", ["bob", "alice", "", "🦀", "carol"][rng.usize(..5)]),
        5 => [
            "P-7f",
            "7g7f",
            "同歩",
            "P*5e",
            "+",
            "=",
            "▲７六歩",
            "accept:1",
            "takeback-yes:1",
            "rematch:99",
        ][rng.usize(..10)]
        .to_string(),
        6 => format!(
            "{}={}",
            [
                "days", "rated", "color", "variant", "handicap", "rule", "sfen", "notation",
                "style", "theme", "language", "dms", "request", "bogus"
            ][rng.usize(..14)],
            [
                "1",
                "7",
                "yes",
                "no",
                "random",
                "minishogi",
                "2-pieces",
                "try",
                "4k4/9/9/9/9/9/9/9/4K4_b_-_1",
                "dark",
                "de",
                "",
                "-5",
                "x"
            ][rng.usize(..14)]
        ),
        _ => rng.u32(..).to_string(),
    }
}

#[test]
fn seeded_fuzz_over_console_lines() {
    let mut rng = fastrand::Rng::with_seed(0xf022);
    let mut script =
        String::from("alice challenge @bob rated=no color=sente\nbob accept\nalice move P-7f\n");
    let mut lines = 3;
    for _ in 0..3000 {
        let user =
            ["alice", "bob", "carol:de", "x".repeat(40).as_str(), "🦀"][rng.usize(..5)].to_string();
        let cmd = COMMANDS[rng.usize(..COMMANDS.len())];
        let args: Vec<String> = (0..rng.usize(0..4)).map(|_| garbage(&mut rng)).collect();
        script.push_str(&format!("{user} {cmd} {}\n", args.join(" ")));
        lines += 1;
    }
    script.push_str(&format!("{}\n", "z".repeat(20_000)));
    script.push_str(":clock +999d\n:tick\n:bogus\n");
    lines += 4;

    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_komadai"))
        .args(["console", "--json", "--start", "1800000000", "--db"])
        .arg(dir.path().join("fuzz.db"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let writer = {
        let mut stdin = child.stdin.take().unwrap();
        std::thread::spawn(move || stdin.write_all(script.as_bytes()))
    };
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        out.status.success(),
        "console died: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let replies: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("every reply is JSON"))
        .collect();
    assert!(
        replies.len() >= lines - 10,
        "{} replies for {lines} lines",
        replies.len()
    );
    for r in &replies {
        assert!(r.get("error").is_none(), "internal error: {r}");
        let text = r["text"].as_str().unwrap_or_default();
        assert!(!text.is_empty(), "every reply says something: {r}");
        assert!(text.chars().count() < 5000, "replies stay short");
    }
    let refused = replies.iter().filter(|r| r["ok"] == false).count();
    assert!(refused > 1000, "garbage is refused ({refused})");
}
