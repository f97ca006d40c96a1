#!/usr/bin/env bash
# Differential test of komadai's legal move generator against independent
# oracles (cshogi for 9x9, Fairy-Stockfish for 5x5), run by CI after
# `cargo test`. Unlike tests/oracle_legal.rs, which checks committed data, this
# plays FRESH positions with another seed, so every CI run looks at positions
# the committed data does not have.
#
# Usage: scripts/oracle/ci.sh            (ORACLE_SEED=N to try another seed)
# Exit status: non-zero on any disagreement.
set -euo pipefail
cd "$(dirname "$0")/../.."

SEED="${ORACLE_SEED:-1001}"

echo "== installing the oracles"
PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check \
    cshogi==1.1.0 pyffish==0.0.90

echo "== the komadai binary (\$KOMADAI_BIN, or a release build)"
BIN=$(scripts/komadai-bin.sh)

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0

echo "== legal moves: fresh positions, seed $SEED"
python3 scripts/oracle/compare.py "$BIN" --generate 2000 --variant standard \
    --seed "$SEED" --save "$tmp/standard.tsv" || status=1
python3 scripts/oracle/compare.py "$BIN" --generate 200 --variant minishogi \
    --seed "$SEED" --save "$tmp/minishogi.tsv" || status=1

echo "== perft spot check"
python3 scripts/oracle/perft_check.py "$BIN" "$tmp/standard.tsv" --positions 8 --depth 3 || status=1
python3 scripts/oracle/perft_check.py "$BIN" "$tmp/minishogi.tsv" --positions 3 --depth 2 || status=1

if [ "$status" -ne 0 ]; then
    echo "== oracle differential test FAILED (seed $SEED)"
else
    echo "== oracle differential test passed (seed $SEED)"
fi
exit "$status"
