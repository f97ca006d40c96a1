#!/usr/bin/env python3
"""Where two engines' judgements of their games part, ply by ply.

For every game in the CSA folders given, this takes each engine's last
score at or before a ply (cshogi.cli records the mover's score from
Sente's side after every move), turns both to ENGINE's point of view
(default komadai), and prints the medians by ply for the games ENGINE won
and for those it lost, with the share of positions the opponent already
rates at OPPONENT_CP or more in its favour:

    python3 scripts/match/disagree.py scripts/match/out/komadai-vs-gpsshogi-*/csa

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
            names, moves, end = read_csa(path)
            side = next((s for s, n in names.items() if n == engine), None)
            won = winner(end, len(moves)) if end else None
            if side is None or won is None:
                continue
            own, theirs = {}, {}
            for i, (csa, score) in enumerate(moves):
                if score is None or abs(score) >= MATE:
                    continue
                score = score if side == "+" else -score
                (own if csa[0] == side else theirs)[i + 1] = score
            yield won == side, len(moves), own, theirs


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


if __name__ == "__main__":
    main()
