#!/usr/bin/env python3
"""Screens a network against the tactics suite before any match.

Plays `tests/data/tactics.txt` as `tests/engine_tactics.rs` does (Strong:
mate search first, then the main search; 250,000 nodes; a 16 MB table; a
fresh engine per position), but over USI with a given network file, so a
candidate written by `train.py --write` needs no build and no test run:

    python3 scripts/nn/tactics.py target/release/komadai candidate.bin
    python3 scripts/nn/tactics.py target/release/komadai off

`off` plays the linear evaluation alone, `shipped` the network in the
binary. Prints each failure and the count; exits 1 if any position fails.
Two engines run at a time (`--jobs`).
"""

import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SUITE = os.path.join(ROOT, "tests", "data", "tactics.txt")
NODES = 250_000
# The highest mate length in plies each kind accepts (`Score::Mate(n)` of
# the test counts the winner's moves: 1, 2 and 3 of them).
MATE_PLIES = {"mate1": 1, "mate3": 3, "mate5": 5}


def cases():
    for line in open(SUITE, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        kind, sfen, answers = (p.strip() for p in line.split(" | "))
        yield kind, sfen, answers.split()


def options(net):
    if net == "off":
        return ["setoption name EvalNet value false"]
    opts = ["setoption name EvalNet value true"]
    if net != "shipped":
        opts.append(f"setoption name EvalFile value {os.path.abspath(net)}")
    return opts


def solve(engine, net, sfen):
    """The move played and the last reported mate length in plies, if any."""
    script = "\n".join(
        ["usi", "setoption name USI_Hash value 16", *options(net), "isready",
         f"position sfen {sfen}", f"go nodes {NODES}"]) + "\n"
    proc = subprocess.Popen([engine, "usi"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    proc.stdin.write(script)
    proc.stdin.flush()
    mate = None
    best = ""
    # `quit` stops a search: it goes only after the answer.
    for line in proc.stdout:
        words = line.split()
        if line.startswith("info string error"):
            proc.kill()
            raise SystemExit(line.strip())
        if "score" in words:
            i = words.index("score")
            mate = int(words[i + 2]) if words[i + 1] == "mate" else None
        if words[:1] == ["bestmove"]:
            best = words[1]
            break
    proc.communicate("quit\n", timeout=60)
    return best, mate


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("engine", help="a komadai binary")
    ap.add_argument("net", help="a network file, `shipped` or `off`")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    todo = list(cases())
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda c: solve(args.engine, args.net, c[1]), todo))
    failures = 0
    for (kind, sfen, answers), (best, mate) in zip(todo, results):
        limit = MATE_PLIES.get(kind)
        mate_ok = limit is None or (mate is not None and 0 < mate <= limit)
        if best not in answers or not mate_ok:
            failures += 1
            print(f"{kind} {sfen}: played {best} (mate {mate}), expected {'/'.join(answers)}")
    print(f"{len(todo) - failures} of {len(todo)} solved ({args.net})")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
