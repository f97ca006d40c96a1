#!/usr/bin/env python3
"""Two builds' results against the same opponent, game by game.

Usage: paired.py FOLDER_A FOLDER_B [--engine komadai]

Two runs of run_match.sh with the same OPENING_SEED play the same openings
with the same colours in the same order. This pairs their finished games by
opening and colour (the n-th game of a pair with the n-th), prints how
often both builds won, both lost, or only one of them won, and the
difference of their scores with a 95 % interval from the paired
differences. When the two builds' results on one opening and colour go
together, the paired interval is narrower than the one from the two scores
apart; both are printed. Draws count half. Each FOLDER is a match folder or
its csa/ folder.

    python3 scripts/match/paired.py scripts/match/out/<candidate>-seed109 \\
        scripts/match/out/<control>-seed109
"""
import argparse
import glob
import math
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import elo, read_csa, winner  # noqa: E402


def results(folder, engine):
    """{(opening, engine's colour, n): engine's score} over the finished
    games of a folder, in the order they were played."""
    if os.path.isdir(os.path.join(folder, "csa")):
        folder = os.path.join(folder, "csa")
    paths = sorted(glob.glob(os.path.join(folder, "*.csa")),
                   key=lambda p: os.path.basename(p).rsplit("+", 1)[-1])
    seen = defaultdict(int)
    out = {}
    for path in paths:
        names, moves, end, opening = read_csa(path)
        side = next((s for s, n in names.items() if n == engine), None)
        if side is None or end is None:
            continue
        won = winner(end, len(moves))
        score = 0.5 if won is None else 1.0 if won == side else 0.0
        key = (tuple(m for m, _ in moves[:opening]), side)
        out[key + (seen[key],)] = score
        seen[key] += 1
    return out


def interval(diffs):
    """Mean and 95 % half-width of a list of numbers (normal approximation)."""
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--engine", default="komadai")
    args = ap.parse_args()
    ra, rb = results(args.a, args.engine), results(args.b, args.engine)
    keys = sorted(set(ra) & set(rb), key=str)
    if not keys:
        print("no games to pair: are both runs of the same OPENING_SEED?")
        return 1
    sa = [ra[k] for k in keys]
    sb = [rb[k] for k in keys]
    both_won = sum(1 for a, b in zip(sa, sb) if a == b == 1)
    both_lost = sum(1 for a, b in zip(sa, sb) if a == b == 0)
    only_a = sum(1 for a, b in zip(sa, sb) if a > b)
    only_b = sum(1 for a, b in zip(sa, sb) if b > a)
    n = len(keys)
    ma, mb = sum(sa) / n, sum(sb) / n
    diff, half = interval([a - b for a, b in zip(sa, sb)])
    _, ha = interval(sa)
    _, hb = interval(sb)
    apart = math.sqrt(ha ** 2 + hb ** 2)
    print(f"{n} pairs ({len(ra) - n} and {len(rb) - n} games unpaired)")
    print(f"A: {100 * ma:.1f} % (Elo {elo(ma):+.0f}), B: {100 * mb:.1f} % (Elo {elo(mb):+.0f})")
    print(f"both won {both_won}, both lost {both_lost}, only A better {only_a}, "
          f"only B better {only_b}")
    print(f"A - B: {100 * diff:+.1f} points of score, 95 % interval ± {100 * half:.1f} "
          f"paired (± {100 * apart:.1f} from the two scores apart)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
