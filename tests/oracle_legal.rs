//! Differential test of the legal move generator against independent oracles.
//!
//! The files in `tests/data/` list positions with the answer of an oracle that
//! shares no code with komadai, one position a line:
//!
//! ```text
//! SFEN<TAB>COUNT<TAB>DIGEST
//! ```
//!
//! COUNT is the number of legal moves and DIGEST the FNV-1a 64-bit hash
//! (offset 0xcbf29ce484222325, prime 0x100000001b3) of the UTF-8 bytes of the
//! bytewise-sorted USI moves joined by single spaces (the empty string when
//! there is none), as 16 lowercase hex digits. Lines starting with `#` are
//! comments. Only the count and digest are stored, to keep the files small;
//! `scripts/oracle/compare.py` prints the full lists.
//!
//! Where the data comes from:
//!
//! * `legal_standard.tsv`: 10,000 9×9 positions from seeded random playouts
//!   played and labelled by cshogi (PyPI `cshogi` 1.1.0), whose generator
//!   handles uchifuzume (including a pinned capturer), nifu, dead drops and
//!   forced promotion. The playouts are biased towards captures, drops,
//!   promotions, checks and mates, so the set is rich in positions in check,
//!   pieces in hand, promoted pieces and final (mated) positions.
//! * `legal_minishogi.tsv`: 2,000 5×5 positions played and labelled by
//!   Fairy-Stockfish through pyffish (PyPI `pyffish` 0.0.90), converted from
//!   its FEN and coordinates to SFEN and USI.
//! * `legal_probes.tsv`: hand-made rule probes (`scripts/oracle/probes.sfen`)
//!   labelled by the same oracles.
//!
//! Oracle quirks:
//!
//! * Fairy-Stockfish lists pawn-drop mates (uchifuzume) as legal, in minishogi
//!   as in shogi (e.g. `P*1b` in `8k/9/5B1G1/9/9/9/9/9/4K4 b P 1`). The
//!   scripts remove a pawn drop in front of the enemy king after which the
//!   opponent has no legal move.
//! * python-shogi misses uchifuzume when the only capturer of the pawn is
//!   pinned (`4R2sk/9/7G1/9/9/9/9/9/4K4 b P 1`); it is not used.
//!
//! To regenerate (needs `pip install cshogi==1.1.0 pyffish==0.0.90`; the output
//! depends only on the arguments):
//!
//! ```text
//! python3 scripts/oracle/gen_positions.py --variant standard -n 10000 --seed 1 -o tests/data/legal_standard.tsv
//! python3 scripts/oracle/gen_positions.py --variant minishogi -n 2000 --seed 1 -o tests/data/legal_minishogi.tsv
//! python3 scripts/oracle/gen_positions.py --from scripts/oracle/probes.sfen -o tests/data/legal_probes.tsv
//! ```
//!
//! `scripts/oracle/ci.sh` runs a fresh differential run with another seed.

use std::fmt::Write as _;
use std::path::PathBuf;

use komadai::shogi::Position;

/// FNV-1a 64-bit hash of `bytes`.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// One line of a data file.
struct Record {
    line: usize,
    sfen: String,
    count: usize,
    digest: String,
}

fn read_records(name: &str) -> Vec<Record> {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "data", name]
        .iter()
        .collect();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read tests/data/{name}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(
                cols.len(),
                3,
                "tests/data/{name}:{}: expected 3 columns: {l:?}",
                i + 1
            );
            Record {
                line: i + 1,
                sfen: cols[0].to_owned(),
                count: cols[1].parse().unwrap_or_else(|_| {
                    panic!("tests/data/{name}:{}: bad count {:?}", i + 1, cols[1])
                }),
                digest: cols[2].to_owned(),
            }
        })
        .collect()
}

/// Checks every position of a data file; panics with a report of all failures.
fn check_file(name: &str, min_positions: usize) {
    let records = read_records(name);
    assert!(
        records.len() >= min_positions,
        "tests/data/{name} has {} positions, expected at least {min_positions}",
        records.len()
    );
    let mut failures = 0;
    let mut report = String::new();
    for r in &records {
        let problem = match Position::from_sfen(&r.sfen) {
            Err(e) => Some(format!("komadai rejects the SFEN: {e}")),
            Ok(pos) => {
                let mut moves: Vec<String> =
                    pos.legal_moves().iter().map(ToString::to_string).collect();
                moves.sort_unstable();
                let joined = moves.join(" ");
                let digest = format!("{:016x}", fnv1a64(joined.as_bytes()));
                (moves.len() != r.count || digest != r.digest).then(|| {
                    format!(
                        "komadai: {} moves, digest {digest}; oracle: {} moves, digest {}\n  \
                         komadai moves: {joined}",
                        moves.len(),
                        r.count,
                        r.digest
                    )
                })
            }
        };
        if let Some(problem) = problem {
            failures += 1;
            if failures <= 10 {
                let _ = writeln!(
                    report,
                    "\ntests/data/{name}:{}: {}\n  {problem}\n  oracle's list: \
                     python3 scripts/oracle/compare.py target/release/komadai --sfen '{}'",
                    r.line, r.sfen, r.sfen
                );
            }
        }
    }
    assert!(
        failures == 0,
        "{failures} of {} positions in tests/data/{name} disagree with the oracle \
         (first 10 shown):{report}",
        records.len()
    );
}

#[test]
fn fnv1a64_matches_the_reference_values() {
    assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
}

#[test]
fn legal_standard_matches_cshogi() {
    check_file("legal_standard.tsv", 10_000);
}

#[test]
fn legal_minishogi_matches_fairy_stockfish() {
    check_file("legal_minishogi.tsv", 2_000);
}

#[test]
fn legal_probes_match_the_oracles() {
    check_file("legal_probes.tsv", 20);
}
