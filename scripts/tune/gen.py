#!/usr/bin/env python3
"""Training positions for the evaluation, labelled by Fairy-Stockfish.

Fairy-Stockfish (Debian build, USI mode, one thread) plays itself from the
match openings; with probability --random a legal move is picked at random
instead, so that the games also reach lopsided positions. Every position
Fairy-Stockfish searched is written with its score, its best move and the
game's result, all from the side to move:

    sfen \t score_cp \t bestmove \t result (1 win, 0.5 draw, 0 loss)

Positions with a mate score are written with score "mate N" and skipped by
the tuner. Usage:

    python3 scripts/tune/gen.py --games 100 --seed 1 > positions.tsv
"""
import argparse
import random
import subprocess
import sys

import cshogi


class Usi:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("usi")
        self.wait("usiok")
        self.send("setoption name Threads value 1")
        self.send("setoption name USI_Hash value 16")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine died")
            if line.startswith(token):
                return line

    def go(self, sfen, nodes):
        self.send(f"position sfen {sfen}")
        self.send(f"go nodes {nodes}")
        score = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine died")
            t = line.split()
            if t and t[0] == "info" and "score" in t:
                i = t.index("score")
                score = f"{t[i + 1]} {t[i + 2]}"
            if t and t[0] == "bestmove":
                return t[1], score

    def close(self):
        self.send("quit")
        self.p.wait(timeout=5)


def play(engine, rng, openings, args):
    board = cshogi.Board()
    for m in rng.choice(openings):
        board.push_usi(m)
    rows = []
    result = None  # from sente's point of view
    for _ in range(args.max_plies):
        if board.is_game_over():
            result = 0.0 if board.turn == cshogi.BLACK else 1.0
            break
        if board.is_draw() == cshogi.REPETITION_DRAW:
            result = 0.5
            break
        sfen = board.sfen()
        stm = board.turn
        if rng.random() < args.random and not board.is_check():
            move = rng.choice(list(board.legal_moves))
            board.push(move)
            continue
        best, score = engine.go(sfen, rng.randint(args.nodes // 2, args.nodes))
        if best in ("resign", "win"):
            lost = best == "resign"
            result = (0.0 if lost else 1.0) if stm == cshogi.BLACK else (1.0 if lost else 0.0)
            break
        rows.append((sfen, score, best, stm))
        kind, val = score.split()
        if kind == "mate" or abs(int(val)) > args.adjudicate:
            # Decided: the side to move wins if the score is for it.
            v = int(val)
            wins = v > 0
            result = (1.0 if wins else 0.0) if stm == cshogi.BLACK else (0.0 if wins else 1.0)
            break
        board.push_usi(best)
    if result is None:
        result = 0.5
    for sfen, score, best, stm in rows:
        r = result if stm == cshogi.BLACK else 1.0 - result
        print(f"{sfen}\t{score}\t{best}\t{r}")
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=30000)
    ap.add_argument("--random", type=float, default=0.06)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--adjudicate", type=int, default=4000)
    ap.add_argument("--openings", default="scripts/match/openings.txt")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    openings = []
    with open(args.openings) as f:
        for line in f:
            t = line.split()
            if t and t[0] == "startpos":
                openings.append(t[2:] if len(t) > 2 else [])
    engine = Usi(args.engine)
    for g in range(args.games):
        play(engine, rng, openings, args)
        print(f"game {g + 1}/{args.games}", file=sys.stderr)
    engine.close()


if __name__ == "__main__":
    main()
