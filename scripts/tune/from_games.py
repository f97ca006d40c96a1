#!/usr/bin/env python3
"""Training positions from match records, labelled by the opponent's own scores.

`scripts/match/run_match.sh` keeps every game as CSA; after each move the
record holds the mover's score (`'** score pv`; cshogi.cli writes it in
centipawns from Sente's point of view, whoever moved). For the moves of one engine (by its name in the record,
default Fairy-Stockfish) this writes the position before the move, that
score, the move played and the game's result, all from the side to move, in
the format of `gen.py`:

    sfen \t cp N (or mate N) \t bestmove \t result (1 win, 0.5 draw, 0 loss)

These are the positions our engine actually reaches against that opponent,
judged by the opponent's search at match speed. Usage:

    python3 scripts/tune/from_games.py scripts/match/out/*fsf*/csa/*.csa > games.tsv
"""
import argparse
import sys

import cshogi

# cshogi.cli writes a mate as ±100000 (and ±30000 or more for mates in N).
MATE = 30000


def records(path):
    """(names, moves with their scores, result for Sente) of one CSA file."""
    names = ["", ""]
    moves = []  # (csa move, score or None)
    result = None
    last = None
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [line.rstrip("\n") for line in f]
    for i, line in enumerate(lines):
        if line.startswith("N+"):
            names[0] = line[2:]
        elif line.startswith("N-"):
            names[1] = line[2:]
        elif len(line) == 7 and line[0] in "+-" and line[1:5].isdigit():
            moves.append([line, None])
            last = len(moves) - 1
        elif line.startswith("'**") and last is not None:
            t = line[3:].split()
            if t:
                try:
                    moves[last][1] = int(t[0])
                except ValueError:
                    pass
        elif line.startswith("%"):
            result = (line, i)
    return names, moves, result


def sente_result(moves, result):
    """1, 0.5 or 0 for Sente, or None when the record does not say."""
    if result is None:
        return None
    tag = result[0]
    # The side that played the last move is the winner of %TORYO (the other
    # side resigned) and of %KACHI is the side to move (it declared).
    side_to_move = len(moves) % 2  # 0: Sente to move
    if tag.startswith("%TORYO") or tag.startswith("%TSUMI"):
        return 0.0 if side_to_move == 0 else 1.0
    if tag.startswith("%KACHI"):
        return 1.0 if side_to_move == 0 else 0.0
    if tag.startswith("%SENNICHITE") or tag.startswith("%JISHOGI") or tag.startswith("%HIKIWAKE"):
        return 0.5
    if tag.startswith("%ILLEGAL_MOVE") or tag.startswith("%TIME_UP"):
        return 0.0 if side_to_move == 0 else 1.0
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--engine", default="fsf", help="the engine whose scores label positions")
    args = ap.parse_args()
    written = 0
    for path in args.files:
        names, moves, result = records(path)
        if args.engine not in names:
            continue
        side = names.index(args.engine)  # 0: the engine is Sente
        res = sente_result(moves, result)
        if res is None:
            res = 0.5
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
                if mover == 1:
                    score = -score
                label = f"mate {score}" if abs(score) >= MATE else f"cp {score}"
                r = res if mover == 0 else 1.0 - res
                print(f"{sfen}\t{label}\t{cshogi.move_to_usi(mv)}\t{r}")
                written += 1
            board.push(mv)
    print(f"{written} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
