#!/usr/bin/env python3
"""Training positions from match records, labelled by the opponent's own scores.

`scripts/match/run_match.sh` keeps every game as CSA; after each move the
record holds the mover's score (`'** score pv`; cshogi.cli writes it in
centipawns from Sente's point of view, whoever moved). For the moves of one
engine (by its name in the record, default Fairy-Stockfish) this writes the position before the move, that
score, the move played and the game's result, all from the side to move, in
the format of `gen.py`:

    sfen \t cp N (or mate N) \t bestmove \t result (1 win, 0.5 draw, 0 loss)

These are the positions our engine actually reaches against that opponent,
judged by the opponent's search at match speed. Usage:

    python3 scripts/tune/from_games.py scripts/match/out/*fsf*/csa/*.csa > games.tsv
"""
import argparse
import os
import sys

import cshogi

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "match"))
from summarize import read_csa, winner  # noqa: E402

# cshogi.cli writes a mate as ±100000 (and ±30000 or more for mates in N).
MATE = 30000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--engine", default="fsf", help="the engine whose scores label positions")
    args = ap.parse_args()
    written = 0
    for path in args.files:
        names, moves, end, _ = read_csa(path)
        if args.engine not in names.values():
            continue
        side = 0 if names.get("+") == args.engine else 1  # 0: the engine is Sente
        won = winner(end, len(moves))
        res = 0.5 if won is None else (1.0 if won == "+" else 0.0)  # for Sente
        board = cshogi.Board()
        for i, (csa, score) in enumerate(moves):
            mover = i % 2
            try:
                mv = board.move_from_csa(csa[1:])
            except Exception:
                break
            if mv == 0 or not board.is_legal(mv):
                break
            if mover == side and score is not None:
                sfen = board.sfen()
                score = score if mover == 0 else -score  # to the side to move's
                label = f"mate {score}" if abs(score) >= MATE else f"cp {score}"
                r = res if mover == 0 else 1.0 - res
                print(f"{sfen}\t{label}\t{cshogi.move_to_usi(mv)}\t{r}")
                written += 1
            board.push(mv)
    print(f"{written} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
