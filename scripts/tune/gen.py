#!/usr/bin/env python3
"""Training positions for the evaluation, labelled by a reference engine.

The labelling engine (--engine, by default Fairy-Stockfish, Debian build,
USI mode, one thread) plays itself from the match openings; with
probability --random a legal move is picked at random instead, so that the
games also reach lopsided positions. With --opponent it plays that engine
instead (e.g. komadai, colours alternating from game to game), so that the
positions are the ones our engine reaches against it. Every position the
labelling engine searched is written with its score, its best move and the
game's result, all from the side to move:

    sfen \t score_cp \t bestmove \t result (1 win, 0.5 draw, 0 loss)

Positions with a mate score are written with score "mate N" and skipped by
the tuner. Usage:

    python3 scripts/tune/gen.py --games 100 --seed 1 > positions.tsv

gpsshogi as the labeller against komadai (gpsshogi has no `go nodes` and
stretches a short byoyomi to about 1 s; its LimitDepth option bounds its
search instead, 30-100 ms a move at 4):

    python3 scripts/tune/gen.py --engine /usr/games/gpsusi \
        --option Thread=1 --option LimitDepth=4 --go "byoyomi 1000" \
        --opponent scripts/match/komadai-usi --nodes 40000 \
        --games 300 --seed 1 > gps1.tsv
"""
import argparse
import random
import subprocess
import sys

import cshogi


class Usi:
    def __init__(self, path, options):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("usi")
        self.wait("usiok")
        for opt in options:
            name, value = opt.split("=", 1)
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")
        self.send("usinewgame")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine died")
            if line.startswith(token):
                return line

    def go(self, sfen, limit):
        """Searches `sfen` with `go <limit>`; the best move and the last score."""
        self.send(f"position sfen {sfen}")
        self.send(f"go {limit}")
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


def limit(template, rng, nodes):
    """The `go` arguments: {nodes} becomes a node count between nodes/2 and nodes."""
    return template.format(nodes=rng.randint(nodes // 2, nodes))


def for_sente(stm, stm_wins):
    """A game's result from Sente's point of view."""
    return float(stm_wins == (stm == cshogi.BLACK))


def play(engine, opponent, labeller_colour, rng, openings, args):
    """One game; `opponent` (or `engine` itself when None) plays the colour
    that is not `labeller_colour`."""
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
        theirs = opponent is not None and stm != labeller_colour
        mover, template = (opponent, args.opponent_go) if theirs else (engine, args.go)
        best, score = mover.go(sfen, limit(template, rng, args.nodes))
        if best in ("resign", "win"):
            result = for_sente(stm, best == "win")
            break
        if theirs or score is None:
            # The opponent's move, or a book move (no search): played, not labelled.
            board.push_usi(best)
            continue
        rows.append((sfen, score, best, stm))
        kind, val = score.split()
        if kind == "mate" or abs(int(val)) > args.adjudicate:
            # Decided: the side to move wins if the score is for it.
            result = for_sente(stm, int(val) > 0)
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
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish",
                    help="the labelling engine")
    ap.add_argument("--option", action="append",
                    help="NAME=VALUE for the labelling engine (repeatable; "
                    "default Threads=1 and USI_Hash=16)")
    ap.add_argument("--go", default="nodes {nodes}",
                    help="its go arguments; {nodes} is drawn from nodes/2..nodes")
    ap.add_argument("--opponent", help="an engine playing the other colour")
    ap.add_argument("--opponent-option", action="append", default=[])
    ap.add_argument("--opponent-go", default="nodes {nodes}")
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
    engine = Usi(args.engine, args.option or ["Threads=1", "USI_Hash=16"])
    opponent = Usi(args.opponent, args.opponent_option) if args.opponent else None
    for g in range(args.games):
        colour = cshogi.BLACK if g % 2 == 0 else cshogi.WHITE
        play(engine, opponent, colour, rng, openings, args)
        print(f"game {g + 1}/{args.games}", file=sys.stderr)
    engine.close()
    if opponent is not None:
        opponent.close()


if __name__ == "__main__":
    main()
