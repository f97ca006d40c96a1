#!/usr/bin/env python3
"""Which of an engine's moves its opponent's score turns against, and who
sees a mate first.

For every move ENGINE (default komadai) played after the opening line, up
to ply TO, this takes the opponent's last score before the move and its
first score after it (cshogi.cli records the mover's score after every
move), both from ENGINE's side in the opponent's centipawns, and calls the
difference the move's *swing*: negative when the opponent liked ENGINE's
position less after the move and its own reply. Moves where either score
is missing, a mate or beyond ±CLIP are left out. It prints the mean swing
by moved piece (drops apart), then the king moves by where the king went
from and to (squares as the mover sees the board, so 5i is its own king's
starting square), each with the results of the games in which ENGINE
played that king move first.

A swing is one reply's worth of the opponent's judgement, not proof of a
mistake: on 7 December 2026 gpsshogi's scores dropped by about 110 of its
centipawns after komadai's K-5h, yet komadai scored better in the games
where it played K-5h (`RESULTS.md`). Compare with the results before
trusting a swing.

Last, for the decided games, the first ply at which each engine reported a
mate (a score of ±MATE or more) for the winner, counted back from the end,
and the opponent's score MATE_BEFORE plies before its own first mate report
in the games ENGINE lost: whether those games were already lost before the
mate search could decide them.

    python3 scripts/match/moves.py scripts/match/out/komadai-vs-gpsshogi-*/csa
"""
import argparse
import collections
import glob
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import read_csa, winner  # noqa: E402

MATE = 30000
FILES = "123456789"
RANKS = "abcdefghi"


def swings(moves, side, first, last, clip):
    """(index, swing) for each of `side`'s moves at plies first..last."""
    sign = 1 if side == "+" else -1
    for i, (csa, _) in enumerate(moves):
        if csa[0] != side or not first <= i + 1 <= last or i == 0 or i + 1 >= len(moves):
            continue
        before, after = moves[i - 1][1], moves[i + 1][1]
        if before is None or after is None or max(abs(before), abs(after)) > clip:
            continue
        yield i, sign * (after - before)


def own_view(csa):
    """A CSA king move's from and to squares as the mover sees the board
    (USI names: the mover's king starts on 5i)."""
    f0, r0, f1, r1 = (int(c) for c in csa[1:5])
    if csa[0] == "-":
        f0, r0, f1, r1 = 10 - f0, 10 - r0, 10 - f1, 10 - r1
    return f"{FILES[f0 - 1]}{RANKS[r0 - 1]}-{FILES[f1 - 1]}{RANKS[r1 - 1]}"


def first_mates(moves, side):
    """The first index at which each engine ("own", "opp") reported a mate
    for `side` (positive) and against it (negative), from `side`'s view."""
    sign = 1 if side == "+" else -1
    found = {}
    for i, (csa, score) in enumerate(moves):
        if score is None or abs(score) < MATE:
            continue
        who = "own" if csa[0] == side else "opp"
        found.setdefault((who, sign * score > 0), i)
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folders", nargs="+", help="folders of CSA records")
    ap.add_argument("--engine", default="komadai")
    ap.add_argument("--to", type=int, default=40, metavar="PLY")
    ap.add_argument("--clip", type=int, default=3000)
    ap.add_argument("--mate-before", type=int, default=20, metavar="PLIES")
    args = ap.parse_args()

    by_piece = collections.defaultdict(list)
    by_king = collections.defaultdict(list)
    king_results = collections.defaultdict(lambda: [0, 0])
    lead = {True: collections.defaultdict(list), False: collections.defaultdict(list)}
    before = {"own": [], "opp": []}
    games = 0
    for folder in args.folders:
        for path in sorted(glob.glob(os.path.join(folder, "*.csa"))):
            names, moves, end, opening = read_csa(path)
            side = next((s for s, n in names.items() if n == args.engine), None)
            won = winner(end, len(moves)) if end else None
            if side is None or won is None:
                continue
            games += 1
            for i, swing in swings(moves, side, opening + 1, args.to, args.clip):
                csa = moves[i][0]
                piece = csa[5:7] + (" drop" if csa[1:3] == "00" else "")
                by_piece[piece].append(swing)
                if csa[5:7] == "OU":
                    by_king[own_view(csa)].append(swing)
            king = next((m for m, _ in moves[opening:] if m[0] == side and m[5:7] == "OU"), None)
            king_results[own_view(king) if king else "none"][0 if won == side else 1] += 1

            found = first_mates(moves, side)
            ours = won == side
            for who in ("own", "opp"):
                if (who, ours) in found:
                    lead[ours][who].append(len(moves) - found[(who, ours)])
            if not ours and ("opp", False) in found:
                sign = 1 if side == "+" else -1
                at = found[("opp", False)] - args.mate_before
                for who in ("own", "opp"):
                    seen = [sign * s for c, s in moves[:max(0, at) + 1]
                            if s is not None and (c[0] == side) == (who == "own")]
                    if seen:
                        before[who].append(max(-args.clip, min(args.clip, seen[-1])))

    print(f"{games} decided games; {args.engine}'s moves after the opening up to ply {args.to}")
    print("piece      moves  mean swing")
    for piece, v in sorted(by_piece.items(), key=lambda kv: sum(kv[1])):
        print(f"{piece:9} {len(v):6}  {statistics.mean(v):10.0f}")
    print("king move  moves  mean swing   results of the games where it came first (W-L)")
    for move, v in sorted(by_king.items(), key=lambda kv: sum(kv[1])):
        w, l = king_results.get(move, (0, 0))
        print(f"{move:9} {len(v):6}  {statistics.mean(v):10.0f}   {w}-{l}")
    w, l = king_results.get("none", (0, 0))
    print(f"no king move: {w}-{l}")
    for ours in (True, False):
        label = "won" if ours else "lost"
        for who in ("own", "opp"):
            v = lead[ours][who]
            name = args.engine if who == "own" else "opponent"
            if v:
                print(f"games {args.engine} {label}: {name} first reported the mate "
                      f"in {len(v)}, a median {statistics.median(v):.0f} plies before the end")
    for who in ("opp", "own"):
        v = before[who]
        name = args.engine if who == "own" else "opponent"
        if v:
            print(f"games {args.engine} lost, {args.mate_before} plies before the opponent's first "
                  f"mate report: {name}'s median {statistics.median(v):.0f} ({len(v)} games)")


if __name__ == "__main__":
    main()
