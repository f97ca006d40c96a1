#!/usr/bin/env python3
"""Mates of 7 to 13 plies whose shortest length cshogi confirms, for
tests/tsume_shortest_mate.rs (`tsume::solve` must find exactly that length).

Usage: shortest_set.py OUT FILE...   (FILE: puzzle TSVs, `id plies sfen line`)

Candidates, in file order: each puzzle's position, and along its main line
(and along cshogi's DfPn line, or only that when the file has no line)
every position with the attacker to move, plus (after each attacker move of
the line) the position after every other defender reply, up to
`ALTERNATIVES` of them per defender move in cshogi's move order. Such a
position is mated within the plies left, often faster: that is what makes it
a good test of "the shortest mate, not just a mate".

The shortest length is decided with cshogi (GPL-3.0, used only here as an
external checker) by `verify.py`'s search: a mate within n plies for the
first odd n, and none within n - 2, every "no" decided exhaustively over
cshogi's legal moves. Kept: lengths 7 to 13, each position once, the
attacker not in check, cshogi's DfPn also proving the mate. Deterministic:
same files, same output.
"""

import hashlib
import os
import sys
import time

import cshogi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verify  # noqa: E402  (its exhaustive mate search over cshogi)

LOW, HIGH = 7, 13
ALTERNATIVES = 6


def shortest(sfen):
    """The shortest mate of the side to move in plies (up to HIGH), or None."""
    verify.MEMO.clear()
    board = cshogi.Board(sfen)
    for n in range(1, HIGH + 1, 2):
        if verify.attacker_mates_within(board, n):
            return n
    return None


def candidates(sfen, line):
    """The position, then along the main line the attacker-to-move positions
    and the defender's other replies."""
    board = cshogi.Board(sfen)
    yield board.sfen()
    for i, usi in enumerate(line):
        legal = {cshogi.move_to_usi(m): m for m in board.legal_moves}
        if usi not in legal:
            return
        if i % 2 == 1:
            others = [m for u, m in legal.items() if u != usi][:ALTERNATIVES]
            for m in others:
                board.push(m)
                if not board.is_check():
                    yield board.sfen()
                board.pop()
        board.push(legal[usi])
        if i % 2 == 1:
            yield board.sfen()


def main():
    out_path, files = sys.argv[1], sys.argv[2:]
    seen = set()
    rows = []
    start = time.time()
    for path in files:
        with open(path, encoding="utf-8") as f:
            for text in f:
                if text.startswith("#") or not text.strip():
                    continue
                cols = text.rstrip("\n").split("\t")
                pid, sfen = cols[0], cols[2]
                lines = [cols[3].split()] if len(cols) > 3 else []
                # cshogi's DfPn line too (any mating line will do).
                board = cshogi.Board(sfen)
                dfpn = cshogi.DfPn(nodes=1_000_000)
                if dfpn.search(board):
                    pv = [cshogi.move_to_usi(m) for m in dfpn.get_pv(board)]
                    if pv not in lines:
                        lines.append(pv)
                cands = [c for line in lines for c in candidates(sfen, line)]
                for cand in cands:
                    key = cand.rsplit(" ", 1)[0]
                    if key in seen:
                        continue
                    seen.add(key)
                    if cshogi.Board(cand).is_check():
                        continue
                    t0 = time.time()
                    n = shortest(cand)
                    if n is None or not LOW <= n <= HIGH:
                        continue
                    if not cshogi.DfPn(nodes=1_000_000).search(cshogi.Board(cand)):
                        print(f"{pid}: cshogi DfPn misses {cand}", file=sys.stderr)
                        continue
                    # The move number is not part of the position.
                    board_sfen = key + " 1"
                    digest = hashlib.sha1(key.encode()).hexdigest()[:12]
                    rows.append((f"s{n}-{digest}", n, board_sfen, pid))
                    print(f"{pid}: {n} plies ({time.time() - t0:.1f} s) {board_sfen}",
                          file=sys.stderr)
    counts = {}
    for r in rows:
        counts[r[1]] = counts.get(r[1], 0) + 1
    with open(out_path, "w", encoding="utf-8") as out:
        out.write("# Mates whose shortest length cshogi confirms, made by: python3 "
                  f"scripts/puzzles/shortest_set.py {out_path} {' '.join(files)}\n")
        out.write(f"# with cshogi {cshogi_version()}: the first odd n with a mate within n "
                  "plies, none within n - 2 (verify.py's exhaustive search), DfPn agrees.\n")
        out.write("# columns: id, shortest mate in plies, sfen (attacker to move), "
                  "the puzzle it was derived from\n")
        for r in rows:
            out.write("\t".join(str(c) for c in r) + "\n")
    per = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
    print(f"{len(rows)} positions ({per}) in {time.time() - start:.0f} s", file=sys.stderr)


def cshogi_version():
    try:
        from importlib.metadata import version
        return version("cshogi")
    except Exception:  # noqa: BLE001  (only for the header)
        return "unknown"


if __name__ == "__main__":
    main()
