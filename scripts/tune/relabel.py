#!/usr/bin/env python3
"""Labels positions written by gen.py anew with another USI engine.

gen.py's rows come from the games of one engine (say komadai's self-play,
fast and close to the positions our search meets); this script asks the
labelling engine (say gpsshogi) for its score and best move in each of
them and keeps the game's result:

    python3 scripts/tune/gen.py --engine scripts/match/komadai-usi \
        --go "nodes {nodes}" --nodes 20000 --games 200 --seed 21 > self21.tsv
    python3 scripts/tune/relabel.py --engine /usr/games/gpsusi \
        --option Thread=1 --option LimitDepth=3 --go "byoyomi 1000" \
        < self21.tsv > gps21.tsv

Input and output are gen.py's format (sfen, score, bestmove, result from
the side to move). gpsusi keeps the options it is given (its
gpsusi.conf): `run_match.sh gps` sets LimitDepth back to 10 for matches. A
position the engine answers without a score (a book
move) or with resign is dropped; `--every N` labels every Nth row only;
`--quiet` only the rows `komadai tune-features` and `net-rows` would keep
as their source labelled them (no mate score, |cp| <= 3000, not in check,
best move neither a capture nor a promotion), so that the labelling
engine's time goes to positions a fit can use.
"""
import argparse
import sys

import cshogi

from gen import Usi


def quiet(sfen, score, best):
    """Whether a row passes the quiet test of engine::tune (for its source's label)."""
    kind, _, value = score.partition(" ")
    if kind != "cp" or abs(int(value)) > 3000 or best.endswith("+"):
        return False
    board = cshogi.Board(sfen)
    if board.is_check():
        return False
    return "*" in best or board.piece(cshogi.move_to(board.move_from_usi(best))) == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True, help="the labelling engine")
    ap.add_argument("--option", action="append", default=[],
                    help="NAME=VALUE for the labelling engine (repeatable)")
    ap.add_argument("--go", default="byoyomi 1000", help="its go arguments")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--quiet", action="store_true",
                    help="label only rows that are quiet as their source labelled them")
    args = ap.parse_args()
    engine = Usi(args.engine, args.option)
    labelled = 0
    for n, line in enumerate(sys.stdin):
        t = line.rstrip("\n").split("\t")
        if len(t) != 4 or n % args.every:
            continue
        sfen, score, best, result = t
        if args.quiet and not quiet(sfen, score, best):
            continue
        best, score = engine.go(sfen, args.go)
        if score is None or best in ("resign", "win"):
            continue
        print(f"{sfen}\t{score}\t{best}\t{result}")
        labelled += 1
        if labelled % 1000 == 0:
            sys.stdout.flush()
            print(f"{labelled} labelled", file=sys.stderr)
    engine.close()


if __name__ == "__main__":
    main()
