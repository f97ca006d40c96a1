#!/usr/bin/env python3
"""Search speed of two komadai builds side by side, in the same run.

Each build searches the same positions to the same fixed depth over USI
(`go depth D`, a fresh `usinewgame` before each position, so every search
starts from an empty table). The builds take turns position by position and
round by round, so a change of machine load hits both alike. The search is
single-threaded and deterministic: builds that search the same tree report
the same node counts, and then only the time differs.

    scripts/match/speed.py BUILD_A BUILD_B [--depth 12] [--rounds 3]
        [--positions scripts/match/openings.txt]

Positions: one USI `position` argument per line (`startpos moves ...` or
`sfen ...`), as in openings.txt. Prints, per build, the total nodes of one
round, the median total time of a round and nodes per second, then the
ratio of the times.
"""

import argparse
import statistics
import subprocess
import sys


def search(proc, position, depth):
    """Searches one position; returns (nodes, time in ms, best move)."""
    proc.stdin.write(f"usinewgame\nposition {position}\ngo depth {depth}\n")
    proc.stdin.flush()
    nodes = time_ms = None
    while True:
        line = proc.stdout.readline()
        if not line:
            sys.exit(f"the engine ended while searching {position!r}")
        words = line.split()
        if words[:1] == ["info"] and "nodes" in words and "time" in words:
            nodes = int(words[words.index("nodes") + 1])
            time_ms = int(words[words.index("time") + 1])
        elif words[:1] == ["bestmove"]:
            if nodes is None:
                sys.exit(f"no info line with nodes and time for {position!r}")
            return nodes, time_ms, words[1]


def start(binary):
    proc = subprocess.Popen(
        [binary, "usi"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    proc.stdin.write("usi\nisready\n")
    proc.stdin.flush()
    while proc.stdout.readline().strip() != "readyok":
        pass
    return proc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("builds", nargs=2, help="two komadai executables")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--positions", default="scripts/match/openings.txt")
    args = ap.parse_args()
    with open(args.positions) as f:
        positions = [line.strip() for line in f if line.strip() and not line.startswith("#")]

    procs = [start(b) for b in args.builds]
    # Per build: nodes of each position (first round), time of each round.
    nodes = [[None] * len(positions) for _ in procs]
    moves = [[None] * len(positions) for _ in procs]
    round_ms = [[] for _ in procs]
    for r in range(args.rounds):
        totals = [0, 0]
        for i, position in enumerate(positions):
            # Alternate which build goes first.
            order = (0, 1) if (r + i) % 2 == 0 else (1, 0)
            for b in order:
                n, ms, mv = search(procs[b], position, args.depth)
                if nodes[b][i] is None:
                    nodes[b][i], moves[b][i] = n, mv
                elif nodes[b][i] != n:
                    print(f"build {b + 1}: {n} nodes in round {r + 1}, "
                          f"{nodes[b][i]} before, at {position!r}", file=sys.stderr)
                totals[b] += ms
        for b in (0, 1):
            round_ms[b].append(totals[b])
    for p in procs:
        p.stdin.write("quit\n")
        p.stdin.flush()
        p.wait()

    print(f"{len(positions)} positions, depth {args.depth}, {args.rounds} rounds")
    for b, build in enumerate(args.builds):
        total = sum(nodes[b])
        ms = statistics.median(round_ms[b])
        print(f"build {b + 1} ({build}): {total} nodes, median round {ms} ms "
              f"(rounds: {', '.join(map(str, round_ms[b]))}), "
              f"{total / max(ms, 1) * 1000:.0f} nodes/s")
    same = sum(nodes[0][i] == nodes[1][i] for i in range(len(positions)))
    agree = sum(moves[0][i] == moves[1][i] for i in range(len(positions)))
    print(f"same node count at {same} of {len(positions)} positions, "
          f"same best move at {agree}")
    a, b = (statistics.median(t) for t in round_ms)
    print(f"time of build 2 / build 1: {b / max(a, 1):.3f}")


if __name__ == "__main__":
    main()
