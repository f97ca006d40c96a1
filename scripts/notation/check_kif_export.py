#!/usr/bin/env python3
"""Reads KIF/KI2/CSA files with cshogi (an independent parser from PyPI) and prints
each one's start position and USI move list as `path<TAB>position ...`, in the
form `komadai kif import` prints.

With `--expect FILE` (lines `path<TAB>position ...`, as komadai wrote them) it
compares instead and exits non-zero on any difference.

KI2 files are read move by move with cshogi.KI2.Parser.parse_move_str, so
that one known cshogi KI2 reader bug can be told apart: with a piece of the
same kind in hand, its 上/引/寄 filter counts the drop as a candidate (using a
meaningless origin) and may pick the drop although the text has no 打. Such
moves are counted as "cshogi KI2 drop bug" and checked to be komadai's move
with the drop excluded; the rest of the game is still compared.

cshogi API used (cshogi 1.1): cshogi.KIF.Parser.parse_file(path) -> Parser
(.kif is read as cp932, .kifu as UTF-8); cshogi.KI2.Parser.parse_file(path)
(cp932); cshogi.CSA.Parser.parse_file(path)
-> list of Parser; Parser.sfen (start), Parser.moves (ints),
cshogi.move_to_usi(move).
"""
import sys

import cshogi
import cshogi.CSA
import cshogi.KI2
import cshogi.KIF


def usi_line(path):
    if path.endswith(".csa"):
        parsers = cshogi.CSA.Parser.parse_file(path)
        parser = parsers[0]
    elif path.endswith(".ki2"):
        parser = cshogi.KI2.Parser.parse_file(path)
    else:
        parser = cshogi.KIF.Parser.parse_file(path)
    sfen = parser.sfen
    # Compare positions without the move number field.
    fields = sfen.split(" ")
    start = " ".join(fields[:3]) + " 1"
    head = "position startpos" if start == cshogi.STARTING_SFEN else "position sfen " + start
    moves = [cshogi.move_to_usi(m) for m in parser.moves]
    return head + (" moves " + " ".join(moves) if moves else "")


def check_ki2(path, want):
    """Returns (ok, number of moves where cshogi's KI2 drop bug struck)."""
    fields = want.split(" ")
    if fields[1] == "startpos":
        board = cshogi.Board()
        rest = fields[2:]
    else:
        board = cshogi.Board(" ".join(fields[2:6]))
        rest = fields[6:]
    expected = rest[1:] if rest and rest[0] == "moves" else []
    with open(path, encoding="cp932") as f:
        lines = [l.strip() for l in f if l.strip()[:1] in ("▲", "△")]
    if len(lines) != len(expected):
        return False, 0
    bug = 0
    for line, usi in zip(lines, expected):
        try:
            got = [cshogi.move_to_usi(m) for m in cshogi.KI2.Parser.parse_move_str(line, board)]
        except Exception:  # cshogi found no candidate
            return False, bug
        if got == [usi]:
            continue  # parse_move_str pushed it
        if len(got) == 1 and "*" in got[0] and "打" not in line and "*" not in usi:
            bug += 1
            board.pop()
            board.push_usi(usi)
            continue
        return False, bug
    return True, bug


def main(argv):
    expect = None
    if len(argv) >= 2 and argv[0] == "--expect":
        expect = {}
        with open(argv[1], encoding="utf-8") as f:
            for line in f:
                path, _, usi = line.rstrip("\n").partition("\t")
                expect[path] = usi
        argv = argv[2:]
        paths = list(expect)
    else:
        paths = argv
    bad = 0
    ki2_bug = 0
    for path in paths:
        if expect is not None and path.endswith(".ki2"):
            ok, n = check_ki2(path, expect[path])
            ki2_bug += n
            if not ok:
                bad += 1
                print("MISMATCH %s (KI2)" % path)
            continue
        try:
            got = usi_line(path)
        except Exception as e:  # report and go on
            got = "error: %r" % (e,)
        if expect is None:
            print(path + "\t" + got)
        elif got != expect[path]:
            bad += 1
            print("MISMATCH %s\n  komadai: %s\n  cshogi:  %s" % (path, expect[path][:300], got[:300]))
    if expect is not None:
        print("cshogi read %d komadai exports, %d differ (KI2 moves hit by cshogi's drop bug: %d)"
              % (len(paths), bad, ki2_bug))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
