#!/usr/bin/env bash
# Side by side in one run: komadai's tsume solver (criterion, benches/tsume.rs)
# and cshogi's DfPn (scripts/puzzles/bench_cshogi.py) on the same positions.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 scripts/puzzles/bench_cshogi.py data/puzzles.tsv data/tsume_hard.tsv
cargo bench --bench tsume
python3 scripts/puzzles/bench_cshogi.py data/puzzles.tsv data/tsume_hard.tsv
