#!/usr/bin/env python3
"""Reads KIF/CSA files with cshogi (an independent parser from PyPI) and prints
each one's start position and USI move list as `path<TAB>position ...`, in the
form `komadai kif import` prints.

With `--expect FILE` (lines `path<TAB>position ...`, as komadai wrote them) it
compares instead and exits non-zero on any difference.

cshogi API used (cshogi 0.9+): cshogi.KIF.Parser.parse_file(path) -> Parser
(.kif is read as cp932, .kifu as UTF-8); cshogi.CSA.Parser.parse_file(path)
-> list of Parser; Parser.sfen (start), Parser.moves (ints),
cshogi.move_to_usi(move).
"""
import sys

import cshogi
import cshogi.CSA
import cshogi.KIF


def usi_line(path):
    if path.endswith(".csa"):
        parsers = cshogi.CSA.Parser.parse_file(path)
        parser = parsers[0]
    else:
        parser = cshogi.KIF.Parser.parse_file(path)
    sfen = parser.sfen
    # Compare positions without the move number field.
    fields = sfen.split(" ")
    start = " ".join(fields[:3]) + " 1"
    head = "position startpos" if start == cshogi.STARTING_SFEN else "position sfen " + start
    moves = [cshogi.move_to_usi(m) for m in parser.moves]
    return head + (" moves " + " ".join(moves) if moves else "")


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
    for path in paths:
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
        print("cshogi read %d komadai exports, %d differ" % (len(paths), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
