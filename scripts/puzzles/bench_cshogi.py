#!/usr/bin/env python3
"""cshogi's DfPn on the same positions as benches/tsume.rs, for comparison.

Usage: bench_cshogi.py FILE...  (puzzle TSV files). Prints, per file, the
total time of DfPn.search over all positions (median of 5 runs) and how many
it proved. cshogi is GPL-3.0 and used only here, as an external tool.
"""

import statistics
import sys
import time

import cshogi


def load(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            out.append(cols[2])
    return out


def run(sfens):
    boards = [cshogi.Board(s) for s in sfens]
    start = time.perf_counter()
    proved = 0
    for b in boards:
        dfpn = cshogi.DfPn(nodes=10_000_000)
        if dfpn.search(b):
            proved += 1
    return time.perf_counter() - start, proved


def main():
    for path in sys.argv[1:]:
        sfens = load(path)
        runs = [run(sfens) for _ in range(5)]
        t = statistics.median(r[0] for r in runs)
        print(f"cshogi DfPn {path}: {len(sfens)} positions, proved {runs[0][1]}, "
              f"median total {t * 1000:.2f} ms ({t / len(sfens) * 1e6:.1f} us each)")


if __name__ == "__main__":
    main()
