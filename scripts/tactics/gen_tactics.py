#!/usr/bin/env python3
"""Generates tests/data/tactics.txt: positions with known best moves.

External tools only (GPL, never linked): cshogi (pip) for legal moves and
exact short mates, Debian's fairy-stockfish for the non-mate positions.

Positions come from seeded random playouts biased towards captures, drops
and checks. Kinds:
  mate1/mate3/mate5  - the shortest mate has this many plies (cshogi
                       mate_move_in_1ply / mate_move(n)); every first move
                       that mates within that length is listed.
  capture / defence  - fairy-stockfish (MultiPV 2, fixed depth) finds a best
                       move at least MARGIN better than any other and no mate;
                       "capture" if it captures, else "defence" (in check or
                       a forced quiet reply). With --verify-ms a second,
                       longer search (MultiPV 2 for that many ms) must agree
                       on the move and the margin: depth 9 alone let through
                       answers that a deeper look reverses.

Line format: `kind | sfen | move [move ...]`.
Usage: gen_tactics.py [--seed 1] [--depth 9] [--verify-ms 1500] [--out tests/data/tactics.txt]
"""
import argparse
import random
import shutil
import subprocess

import cshogi

MARGIN = 400


def usi(m):
    return cshogi.move_to_usi(m)


def has_mate(b, n):
    if n == 1:
        return b.mate_move_in_1ply() != 0
    return b.mate_move(n) != 0


def mate_solutions(b, n):
    sols = []
    for m in list(b.legal_moves):
        b.push(m)
        ok = False
        if b.is_check():
            replies = list(b.legal_moves)
            if not replies:
                ok = True
            elif n >= 3:
                ok = True
                for r in replies:
                    b.push(r)
                    good = has_mate(b, n - 2)
                    b.pop()
                    if not good:
                        ok = False
                        break
        b.pop()
        if ok:
            sols.append(usi(m))
    return sols


class Fsf:
    def __init__(self):
        exe = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
        self.p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.cmd("usi")
        self.wait("usiok")
        self.cmd("setoption name Threads value 1")
        self.cmd("setoption name MultiPV value 2")
        self.cmd("isready")
        self.wait("readyok")

    def cmd(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait(self, word):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("fairy-stockfish died")
            lines.append(line.strip())
            if line.startswith(word):
                return lines

    def best_two(self, sfen, depth=None, movetime=None):
        self.cmd("usinewgame")
        self.cmd("position sfen " + sfen)
        self.cmd("go depth %d" % depth if movetime is None else "go movetime %d" % movetime)
        lines = self.wait("bestmove")
        best = {}
        for l in lines:
            w = l.split()
            if w[:1] != ["info"] or "multipv" not in w or "score" not in w or "pv" not in w:
                continue
            mpv = int(w[w.index("multipv") + 1])
            i = w.index("score")
            kind, val = w[i + 1], int(w[i + 2])
            score = val if kind == "cp" else (100000 - abs(val)) * (1 if val > 0 else -1)
            best[mpv] = (score, w[w.index("pv") + 1], kind)
        return best


def playout(rng, board, plies):
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            return False
        caps = [m for m in moves if cshogi.move_is_capture(m)] if hasattr(cshogi, "move_is_capture") else []
        if not caps:
            caps = [m for m in moves if board.piece(cshogi.move_to(m)) != 0 and not cshogi.move_is_drop(m)]
        if caps and rng.random() < 0.35:
            m = rng.choice(caps)
        else:
            m = rng.choice(moves)
        board.push(m)
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="tests/data/tactics.txt")
    ap.add_argument("--depth", type=int, default=9)
    ap.add_argument("--verify-ms", type=int, default=0)
    ap.add_argument("--want", default="mate1=14,mate3=14,mate5=8,capture=16,defence=10")
    args = ap.parse_args()
    want = {k: int(v) for k, v in (kv.split("=") for kv in args.want.split(","))}
    have = {k: [] for k in want}
    rng = random.Random(args.seed)
    fsf = Fsf()
    seen = set()
    tries = 0
    while any(len(have[k]) < want[k] for k in want) and tries < 20000:
        tries += 1
        b = cshogi.Board()
        if not playout(rng, b, rng.randint(16, 70)):
            continue
        if b.is_game_over() or not list(b.legal_moves):
            continue
        sfen = b.sfen()
        key = sfen.split(" ")[0]
        if key in seen:
            continue
        seen.add(key)
        # Mates, shortest length first.
        kind = None
        if b.mate_move_in_1ply():
            kind, n = "mate1", 1
        elif b.mate_move(3):
            kind, n = "mate3", 3
        elif b.mate_move(5):
            kind, n = "mate5", 5
        if kind:
            if len(have[kind]) < want[kind]:
                sols = mate_solutions(b, n)
                if sols:
                    have[kind].append("%s | %s | %s" % (kind, sfen, " ".join(sols)))
            continue
        if len(have["capture"]) >= want["capture"] and len(have["defence"]) >= want["defence"]:
            continue
        two = fsf.best_two(sfen, args.depth)
        if 1 not in two or 2 not in two:
            continue
        (s1, m1, k1), (s2, m2, _) = two[1], two[2]
        if k1 != "cp" or abs(s1) > 3000 or s1 - s2 < MARGIN:
            continue
        if args.verify_ms:
            again = fsf.best_two(sfen, movetime=args.verify_ms)
            if 1 not in again or 2 not in again:
                continue
            (v1, n1, j1), (v2, _, _) = again[1], again[2]
            if n1 != m1 or j1 != "cp" or v1 - v2 < MARGIN:
                continue
        mv = b.move_from_usi(m1)
        is_cap = not cshogi.move_is_drop(mv) and b.piece(cshogi.move_to(mv)) != 0
        kind = "capture" if is_cap else "defence"
        # A defence must be forced: the player is in check or the side is
        # not already far ahead (a quiet move that holds).
        if kind == "defence" and not b.is_check() and s1 > 600:
            continue
        if len(have[kind]) < want[kind]:
            have[kind].append("%s | %s | %s" % (kind, sfen, m1))
            print({k: len(v) for k, v in have.items()}, flush=True)
    with open(args.out, "w") as f:
        f.write("# Tactical positions with known best moves; generated by\n")
        f.write("# scripts/tactics/gen_tactics.py --seed %d --depth %d --verify-ms %d\n"
                % (args.seed, args.depth, args.verify_ms))
        f.write("# (cshogi mates; fairy-stockfish MultiPV 2 for captures/defences,\n")
        f.write("# margin %d, confirmed by the longer search when --verify-ms > 0).\n" % MARGIN)
        f.write("# kind | sfen | accepted first move(s)\n")
        for k in want:
            for line in have[k]:
                f.write(line + "\n")
    print({k: len(v) for k, v in have.items()}, "tries", tries, flush=True)


if __name__ == "__main__":
    main()
