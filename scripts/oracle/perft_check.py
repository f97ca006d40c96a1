#!/usr/bin/env python3
"""Spot-check ``komadai perft`` against a perft written on the oracles.

Takes a few positions spread evenly over a TSV or SFEN file (positions without
a legal move are skipped), runs ``BIN perft --depth D --divide --sfen SFEN`` on
each and compares the per-move leaf counts with a perft on cshogi (9x9) or on
Fairy-Stockfish with pawn-drop mates filtered (5x5). Both bulk-count the last
ply. Exit status 1 on any difference.

Example:

    python3 scripts/oracle/perft_check.py target/release/komadai \\
        tests/data/legal_standard.tsv --positions 5 --depth 3
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

import compare
import oracles


def pick(sfens: list[str], k: int) -> list[str]:
    """``k`` positions spread evenly over the list."""
    if k >= len(sfens):
        return sfens
    step = len(sfens) / k
    return [sfens[int(i * step)] for i in range(k)]


def komadai_divide(binary: str, sfen: str, depth: int) -> dict[str, int]:
    """``BIN perft --divide`` as move -> leaves (the total line is dropped)."""
    result = subprocess.run(
        [binary, "perft", "--depth", str(depth), "--divide", "--sfen", sfen],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        sys.exit(f"{binary} perft failed on {sfen!r}: {result.stderr.strip()}")
    out = {}
    for line in result.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2:
            out[parts[0]] = int(parts[1])
    return out


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="path to the komadai binary")
    parser.add_argument("file", help="TSV or SFEN file")
    parser.add_argument("--positions", type=int, default=5, help="how many positions")
    parser.add_argument("--depth", type=int, default=3)
    args = parser.parse_args(argv)

    candidates = [
        sfen for sfen, recorded in compare.read_positions(args.file)
        if recorded is None or recorded[0] > 0
    ]
    failures = 0
    for sfen in pick(candidates, args.positions):
        started = time.monotonic()
        theirs = oracles.divide(sfen, args.depth)
        ours = komadai_divide(args.binary, sfen, args.depth)
        total_theirs, total_ours = sum(theirs.values()), sum(ours.values())
        status = "ok" if ours == theirs else "DIFFERS"
        print(f"perft {args.depth} {sfen}: oracle {total_theirs}, komadai {total_ours} "
              f"{status} ({time.monotonic() - started:.1f} s)")
        if ours != theirs:
            failures += 1
            for move in sorted(set(ours) | set(theirs)):
                if ours.get(move) != theirs.get(move):
                    print(f"  {move}: oracle {theirs.get(move)}, komadai {ours.get(move)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
