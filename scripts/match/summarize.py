#!/usr/bin/env python3
"""Score and Elo difference (95 % error bar) from a cshogi.cli log.

Usage: summarize.py LOG NAME1 NAME2 [--times FILE1 FILE2]
       summarize.py --csa DIR NAME1 NAME2 [--times FILE1 FILE2]

Reads the last running score line `NAME1 vs NAME2: W-L-D (x%)` (English) and
counts foul endings (`反則`, e.g. illegal moves; cshogi.cli only reports those
in Japanese) and the kinds of game ends. With --csa it scores the CSA
records of a match folder instead (one file per game, players in the `N+`
and `N-` lines, the end in the `%` line). --times adds each side's thinking
time per move, from the files usi_timer.py wrote (one millisecond count per
line), so every table shows whether the time was really equal.
"""
import glob
import os
import math
import re
import sys


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def read_csa(path):
    """Players ({"+": name, "-": name}), moves ([csa move, score or None]: the
    `'**` comment cshogi.cli writes after a move holds the mover's score, in
    centipawns from Sente's side), the end line (None while the game runs)
    and the length of the opening (the moves before the first one an engine
    played: cshogi.cli writes a `T` line after each engine move, none after
    an opening's) of one CSA record."""
    names = {}
    moves = []
    end = None
    opening = None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.strip()
        if line.startswith("N+") or line.startswith("N-"):
            names[line[1]] = line[2:]
        elif re.match(r"^[+-]\d{4}[A-Z]{2}", line):
            moves.append([line, None])
        elif line.startswith("T") and moves and opening is None:
            opening = len(moves) - 1
        elif line.startswith("'**") and moves:
            t = line[3:].split()
            if t and re.fullmatch(r"-?\d+", t[0]):
                moves[-1][1] = int(t[0])
        elif line.startswith("%"):
            end = line
    return names, moves, end, len(moves) if opening is None else opening


def winner(end, n_moves):
    """The side ("+" or "-") that won a game ending with `end` after
    `n_moves` moves; None for a draw or an end this does not know."""
    to_move = "+" if n_moves % 2 == 0 else "-"
    other = "-" if to_move == "+" else "+"
    if end in ("%TORYO", "%TSUMI", "%ILLEGAL_MOVE", "%TIME_UP"):
        return other
    if end == "%KACHI":
        return to_move
    if end in ("%+ILLEGAL_ACTION", "%-ILLEGAL_ACTION"):
        return "-" if end[1] == "+" else "+"
    return None  # %SENNICHITE, %JISHOGI, %HIKIWAKE, ...


def from_csa(folder, n1):
    """(wins, losses, draws, ends) of n1 over the CSA records in folder."""
    w = l = d = 0
    ends = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.csa"))):
        names, moves, end, _ = read_csa(path)
        if end is None:
            continue  # unfinished game
        ends[end] = ends.get(end, 0) + 1
        side = winner(end, len(moves))
        if side is None:
            d += 1
        elif names.get(side) == n1:
            w += 1
        else:
            l += 1
    return w, l, d, ends


# Moves answered faster than this were not searched: an opening book's
# moves (gpsshogi plays up to 30 plies from its book, BookDepth 30), a
# forced reply or one found before the search. They lower a side's mean,
# so the report also gives the mean of the other moves alone.
INSTANT_MS = 50


def time_report(name, path):
    """One line: mean, median and largest thinking time per move of `name`
    from a usi_timer.py file, and the mean of its moves that took at least
    INSTANT_MS."""
    try:
        ms = sorted(float(x) for x in open(path, encoding="utf-8") if x.strip())
    except (OSError, ValueError) as err:
        return f"{name}: no times ({err})"
    if not ms:
        return f"{name}: no timed moves"
    mean = sum(ms) / len(ms)
    median = ms[len(ms) // 2]
    searched = [t for t in ms if t >= INSTANT_MS]
    rest = (f"; {len(ms) - len(searched)} under {INSTANT_MS} ms, the other "
            f"{len(searched)} {sum(searched) / len(searched):.0f} ms on average"
            if searched and len(searched) < len(ms) else "")
    return (f"{name}: {mean:.0f} ms per move on average (median {median:.0f}, "
            f"max {ms[-1]:.0f}) over {len(ms)} moves{rest}")


def main():
    args = sys.argv[1:]
    times = None
    if "--times" in args:
        i = args.index("--times")
        times = args[i + 1:i + 3]
        del args[i:i + 3]
    sys.argv = [sys.argv[0]] + args
    status = summarize()
    if times and len(times) == 2 and status == 0:
        print("time per move:")
        print("  " + time_report(sys.argv[-2], times[0]))
        print("  " + time_report(sys.argv[-1], times[1]))
    return status


def summarize():
    if sys.argv[1] == "--csa":
        folder, n1, n2 = sys.argv[2], sys.argv[3], sys.argv[4]
        w, l, d, ends = from_csa(folder, n1)
        n = w + l + d
        if n == 0:
            print("no finished games in", folder)
            return 1
        report(n1, n2, w, l, d)
        print("game ends:", ", ".join(f"{k} {v}" for k, v in sorted(ends.items())))
        return 0
    log, n1, n2 = sys.argv[1], sys.argv[2], sys.argv[3]
    text = open(log, encoding="utf-8", errors="replace").read()
    pat = re.compile(r"^%s vs %s: (\d+)-(\d+)-(\d+)" % (re.escape(n1), re.escape(n2)), re.M)
    found = pat.findall(text)
    if not found:
        print("no finished games in", log)
        return 1
    w, l, d = map(int, found[-1])
    report(n1, n2, w, l, d)
    ends = {
        "mate/resign": len(re.findall(r"^まで\d+手で(先手|後手)の勝ち", text, re.M)),
        "sennichite": len(re.findall(r"千日手", text)),
        "max plies": len(re.findall(r"持将棋", text)),
        "declaration": len(re.findall(r"入玉宣言", text)),
        "foul (illegal move / perpetual check)": len(re.findall(r"反則", text)),
        "time": len(re.findall(r"切れ負け", text)),
    }
    print("game ends:", ", ".join(f"{k} {v}" for k, v in ends.items()))
    return 0


def report(n1, n2, w, l, d):
    n = w + l + d
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + l * (0 - s) ** 2 + d * (0.5 - s) ** 2) / n
    se = math.sqrt(var / n) if n > 1 else 0.5
    lo, hi = elo(s - 1.96 * se), elo(s + 1.96 * se)
    print(f"{n1} vs {n2}: {n} games, +{w} -{l} ={d}, score {100 * s:.1f} %")
    if s in (0.0, 1.0):
        # No spread to estimate from: bound the score with the rule of three.
        bound = elo(1 - 3 / n) if s == 1.0 else elo(3 / n)
        sign = ">=" if s == 1.0 else "<="
        print(f"Elo difference {sign} {bound:+.0f} (95 %, rule of three; score {100 * s:.0f} %)")
    else:
        low = f"{lo:+.0f}" if s - 1.96 * se > 0 else "-inf"
        high = f"{hi:+.0f}" if s + 1.96 * se < 1 else "+inf"
        if low == "-inf" or high == "+inf":
            print(f"Elo difference {elo(s):+.0f} (95 % interval {low} .. {high})")
        else:
            print(f"Elo difference {elo(s):+.0f} ± {(hi - lo) / 2:.0f} (95 % interval {low} .. {high})")


if __name__ == "__main__":
    sys.exit(main())
