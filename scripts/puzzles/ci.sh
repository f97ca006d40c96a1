#!/usr/bin/env bash
# Independent check of the shipped tsume puzzles with cshogi (GPL-3.0, used
# only here as an external checker): mate in exactly the stated plies, no
# shorter mate, a unique first move, every attacker move in the main line a
# check. Exit status non-zero on any bad puzzle. Takes a few seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."
PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check cshogi==1.1.0
python3 scripts/puzzles/verify.py data/puzzles.tsv
