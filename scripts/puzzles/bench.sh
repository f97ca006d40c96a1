#!/usr/bin/env bash
# Side by side in one run, on the same positions: komadai's df-pn
# (benches/tsume_side.rs) and cshogi's DfPn (scripts/puzzles/bench_cshogi.py).
# Both only prove mate (a fresh searcher per position, node limit 10M,
# median total of 5 runs); komadai's `solve` (shortest mate and main line,
# which cshogi is not asked for) is printed for reference. cshogi runs
# before and after komadai, so that a change of machine load shows.
# Then the criterion benchmark (benches/tsume.rs) unless --quick.
set -euo pipefail
cd "$(dirname "$0")/../.."
sets=(data/puzzles.tsv data/tsume_hard.tsv)
cargo bench --quiet --no-run --bench tsume_side
uptime
python3 scripts/puzzles/bench_cshogi.py "${sets[@]}"
cargo bench --quiet --bench tsume_side -- "${sets[@]}"
python3 scripts/puzzles/bench_cshogi.py "${sets[@]}"
uptime
if [[ "${1:-}" != "--quick" ]]; then
    cargo bench --bench tsume
fi
