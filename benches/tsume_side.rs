//! komadai's df-pn on puzzle files, timed like `scripts/puzzles/bench_cshogi.py`
//! times cshogi's DfPn: per file, the total time to prove mate on every
//! position (a fresh searcher each, median of 5 runs). Both only prove
//! mate; neither looks for the shortest one. Then `solve` (shortest mate and
//! main line, what the bot uses) on the same positions, for reference.
//!
//! Run: `cargo bench --bench tsume_side [-- FILE...]` (default: the shipped
//! puzzles and the hard set); `scripts/puzzles/bench.sh` runs it between two
//! runs of the cshogi script. Not criterion: the figure to compare is the
//! same total that the cshogi script measures.

use std::time::Instant;

use komadai::shogi::Position;
use komadai::tsume::puzzles::parse_tsv;
use komadai::tsume::{solve, Dfpn, Proof, Verdict};

const NODES: u64 = 10_000_000;
const RUNS: usize = 5;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; anything else is a puzzle file.
    let mut files: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    // `--each`: also one line per position (nodes and time of df-pn).
    let each = std::env::args().any(|a| a == "--each");
    // `--no-solve`: df-pn only (what is compared with cshogi).
    let no_solve = std::env::args().any(|a| a == "--no-solve");
    if files.is_empty() {
        files = vec!["data/puzzles.tsv".into(), "data/tsume_hard.tsv".into()];
    }
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable puzzle file");
        let set: Vec<(Position, u32)> = parse_tsv(&text)
            .expect("puzzle file parses")
            .iter()
            .map(|p| (p.position().expect("valid position"), p.plies))
            .collect();
        let n = set.len() as f64;
        if each {
            for (pos, plies) in &set {
                let start = Instant::now();
                let mut df = Dfpn::new(NODES);
                let r = df.prove(pos);
                println!(
                    "  {plies:>2} plies {:>9} nodes {:>9.1} us {} {}",
                    df.nodes(),
                    start.elapsed().as_secs_f64() * 1e6,
                    if matches!(r, Proof::Mate { .. }) {
                        "mate"
                    } else {
                        "??"
                    },
                    pos.to_sfen()
                );
            }
        }
        let mut proved = 0;
        let mut nodes = 0;
        let mut times = Vec::new();
        for run in 0..RUNS {
            let start = Instant::now();
            let mut ok = 0;
            let mut count = 0;
            for (pos, _) in &set {
                let mut df = Dfpn::new(NODES);
                if matches!(df.prove(pos), Proof::Mate { .. }) {
                    ok += 1;
                }
                count += df.nodes();
            }
            times.push(start.elapsed().as_secs_f64());
            if run == 0 {
                proved = ok;
                nodes = count;
            }
        }
        let t = median(times);
        println!(
            "komadai Dfpn {path}: {} positions, proved {proved}, median total {:.2} ms ({:.1} us each), {nodes} nodes",
            set.len(),
            t * 1e3,
            t / n * 1e6
        );
        if no_solve {
            continue;
        }
        let mut times = Vec::new();
        let mut exact = 0;
        for run in 0..RUNS {
            let start = Instant::now();
            let mut ok = 0;
            for (pos, plies) in &set {
                if let Verdict::Mate { plies: p, .. } = solve(pos, NODES, 13) {
                    if p == *plies {
                        ok += 1;
                    }
                }
            }
            times.push(start.elapsed().as_secs_f64());
            if run == 0 {
                exact = ok;
            }
        }
        let t = median(times);
        println!(
            "komadai solve (shortest mate + main line) {path}: {exact} of {} at the stated length, median total {:.2} ms ({:.1} us each)",
            set.len(),
            t * 1e3,
            t / n * 1e6
        );
    }
}
