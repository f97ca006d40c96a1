#!/usr/bin/env python3
"""Joins files of gen.py rows so that `tune.py --holdout tail` holds out the
end of every file, not only of the last one: first the leading nine tenths
of each file, then the last tenth of each. Rows stay in game order, so the
held-out rows are mostly whole games.

    python3 scripts/tune/tails.py <(zcat data/tune/a.tsv.gz) <(zcat data/tune/b.tsv.gz) |
        komadai tune-features > rows.txt
"""
import sys


def main():
    heads, tails = [], []
    for path in sys.argv[1:]:
        with open(path) as f:
            rows = [line for line in f.read().split("\n") if len(line.split("\t")) == 4]
        cut = int(len(rows) * 0.9)
        heads += rows[:cut]
        tails += rows[cut:]
    for row in heads + tails:
        print(row)


if __name__ == "__main__":
    main()
