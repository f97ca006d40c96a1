//! `komadai self-play`, the source of the network's training rows, run as
//! `scripts/nn/README.md` runs it: the rows of a round repeat exactly, and a
//! round played with an earlier network (`--eval-file`) repeats too.

use crate::run::komadai;

fn self_play(extra: &[&str]) -> (bool, String, String) {
    let mut args = vec![
        "self-play",
        "--seed",
        "7",
        "--nodes",
        "300",
        "--first",
        "40",
        "--games",
        "2",
    ];
    args.extend_from_slice(extra);
    komadai(&args)
}

#[test]
fn rows_repeat_and_a_network_file_plays_as_the_shipped_network() {
    let (ok, linear, err) = self_play(&[]);
    assert!(ok, "{err}");
    assert!(linear.lines().count() > 20, "{linear}");
    assert!(
        linear.lines().all(|l| l.split('\t').count() == 4),
        "{linear}"
    );
    assert_eq!(
        self_play(&[]).1,
        linear,
        "the same seed plays the same games"
    );

    let (ok, with_net, err) = self_play(&["--eval-net", "true"]);
    assert!(ok, "{err}");
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/src/engine/nn.bin");
    let (ok, from_file, err) = self_play(&["--eval-net", "true", "--eval-file", shipped]);
    assert!(ok, "{err}");
    assert_eq!(
        from_file, with_net,
        "the shipped bytes from a file play alike"
    );
    assert_ne!(with_net, linear, "the network changes the scores");
}

#[test]
fn a_missing_network_file_stops_before_any_game() {
    let (ok, out, err) = self_play(&["--eval-net", "true", "--eval-file", "/nonexistent/net.bin"]);
    assert!(!ok);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("/nonexistent/net.bin"), "{err}");
}
