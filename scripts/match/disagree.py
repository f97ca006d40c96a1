#!/usr/bin/env python3
"""Where two engines' judgements of their games part, ply by ply.

For every game in the CSA folders given, this takes each engine's last
score at or before a ply (cshogi.cli records the mover's score from
Sente's side after every move), turns both to ENGINE's point of view
(default komadai), and prints the medians by ply for the games ENGINE won
and for those it lost, with the share of positions the opponent already
rates at OPPONENT_CP or more in its favour; then, over all the games still
going at a ply, the mean of the opponent's scores (each clipped to
±CLIP) with twice its standard error. That mean compares two builds
played against the same opponent with far fewer games than their results:
it says how far behind the opponent thinks each build has fallen, ply by
ply, in every game rather than only at the end:

    python3 scripts/match/disagree.py scripts/match/out/komadai-vs-gpsshogi-*/csa

Last, how often each side's king has moved by ply KINGS (40 unless told):
a king that has not moved twice by then has not castled. Against
gpsshogi, komadai's mostly had not while gpsshogi's had, in the phase
where those games are lost; a network that only walks the king more did
no better (`scripts/match/RESULTS.md`, 7 December 2026, 17:48–20:09 UTC).

Scores are each engine's own centipawns: gpsshogi's are about twice ours
(`scripts/tune/README.md`, alpha 0.3-0.45), so compare the sign and the
trend, not the size. Mate scores are left out.
"""
import argparse
import glob
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import read_csa, winner  # noqa: E402

MATE = 30000


def games(folders, engine):
    """(won, last ply, {ply: engine's score}, {ply: opponent's score}) per
    finished, decided game, both scores from `engine`'s side."""
    for folder in folders:
        for path in sorted(glob.glob(os.path.join(folder, "*.csa"))):
            names, moves, end, _ = read_csa(path)
            side = next((s for s, n in names.items() if n == engine), None)
            won = winner(end, len(moves)) if end else None
            if side is None or won is None:
                continue
            own, theirs = {}, {}
            kings = {"+": [], "-": []}  # plies at which each side's king moved
            for i, (csa, score) in enumerate(moves):
                if csa[5:7] == "OU":
                    kings[csa[0]].append(i + 1)
                if score is None or abs(score) >= MATE:
                    continue
                score = score if side == "+" else -score
                (own if csa[0] == side else theirs)[i + 1] = score
            other = "-" if side == "+" else "+"
            yield won == side, len(moves), own, theirs, kings[side], kings[other]


def at(scores, ply):
    """The last score at or before `ply`, if any."""
    before = [p for p in scores if p <= ply]
    return scores[max(before)] if before else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folders", nargs="+", help="folders of CSA records")
    ap.add_argument("--engine", default="komadai")
    ap.add_argument("--opponent-cp", type=int, default=300)
    ap.add_argument("--plies", default="10,20,30,40,50,60,80,100")
    ap.add_argument("--clip", type=int, default=2000)
    ap.add_argument("--kings", type=int, default=40, metavar="PLY")
    args = ap.parse_args()
    rows = list(games(args.folders, args.engine))
    won = sum(1 for r in rows if r[0])
    print(f"{len(rows)} decided games, {args.engine} won {won}")
    print("ply  result  games  own median  opponent's median  opponent ahead")
    for ply in map(int, args.plies.split(",")):
        for result in (True, False):
            live = [r for r in rows if r[0] == result and r[1] > ply]
            own = [v for v in (at(r[2], ply) for r in live) if v is not None]
            theirs = [v for v in (at(r[3], ply) for r in live) if v is not None]
            if not own or not theirs:
                continue
            ahead = sum(1 for v in theirs if v <= -args.opponent_cp) / len(theirs)
            print(f"{ply:3}  {'won ' if result else 'lost'}    {len(live):5}  "
                  f"{statistics.median(own):10.0f}  {statistics.median(theirs):17.0f}  "
                  f"{ahead:14.0%}")
    print(f"ply  games  opponent's mean (each clipped to ±{args.clip}) ± 2 standard errors")
    for ply in map(int, args.plies.split(",")):
        theirs = [max(-args.clip, min(args.clip, v))
                  for v in (at(r[3], ply) for r in rows if r[1] > ply) if v is not None]
        if len(theirs) < 2:
            continue
        se = statistics.stdev(theirs) / len(theirs) ** 0.5
        print(f"{ply:3}  {len(theirs):5}  {statistics.mean(theirs):8.0f} ± {2 * se:.0f}")
    live = [r for r in rows if r[1] > args.kings]
    print(f"king moves by ply {args.kings} ({len(live)} games still going): "
          f"games with 0, 1, 2, 3 or more")
    for name, at_index in ((args.engine, 4), ("opponent", 5)):
        n = [sum(1 for r in live if min(3, sum(1 for p in r[at_index] if p <= args.kings)) == k)
             for k in range(4)]
        print(f"  {name:10} " + "  ".join(f"{k}: {c:3}" for k, c in enumerate(n)))


if __name__ == "__main__":
    main()
