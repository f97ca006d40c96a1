//! The command line as other tools use it: `komadai perft` and `komadai legal`.

use std::io::Write;
use std::process::{Command, Stdio};

fn komadai(args: &[&str], stdin: &str) -> (String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_komadai"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("binary finishes");
    (
        String::from_utf8(out.stdout).expect("utf-8"),
        out.status.success(),
    )
}

#[test]
fn perft_prints_the_count_on_its_last_line() {
    let (out, ok) = komadai(&["perft", "--depth", "3"], "");
    assert!(ok);
    assert_eq!(out.lines().last(), Some("25470"));
    let (out, ok) = komadai(
        &[
            "perft",
            "--depth",
            "2",
            "--sfen",
            "rbsgk/4p/5/P4/KGSBR b - 1",
        ],
        "",
    );
    assert!(ok);
    assert_eq!(out.lines().last(), Some("181"));
}

#[test]
fn perft_divide_lists_moves_then_total() {
    let (out, ok) = komadai(&["perft", "--depth", "2", "--divide"], "");
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 31);
    assert!(lines.contains(&"7g7f 30"));
    assert_eq!(lines[30], "900");
}

#[test]
fn perft_rejects_a_bad_sfen() {
    let (_, ok) = komadai(&["perft", "--depth", "1", "--sfen", "garbage"], "");
    assert!(!ok);
}

#[test]
fn legal_reads_lines_and_reports_errors_in_place() {
    let input = "rbsgk/4p/5/P4/KGSBR b - 1\nnot an sfen\nk8/2G6/1G7/9/9/9/9/9/8K w - 1\n";
    let (out, ok) = komadai(&["legal"], input);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    let first: Vec<&str> = lines[0].split(' ').collect();
    assert_eq!(first.len(), 14);
    let mut sorted = first.clone();
    sorted.sort_unstable();
    assert_eq!(first, sorted, "bytewise sorted");
    assert!(lines[1].starts_with("error: "));
    assert_eq!(lines[2], "", "no legal move: empty line");
    let (out, _) = komadai(&["legal", "--sfen", "4k4/9/9/9/9/9/9/9/4K4 b - 1"], "");
    assert_eq!(out.trim_end(), "5i4h 5i4i 5i5h 5i6h 5i6i");
}
