#!/usr/bin/env python3
"""Compares komadai's Japanese (KI2) move rendering with cshogi's independent
KI2 writer (cshogi.KI2.move_to_ki2) for every legal move of many positions:
seeded random playouts plus every position of the real games given as
arguments (KIF/CSA files).

Usage: check_ki2.py KOMADAI_BINARY [RECORD_FILES...]

Known, deliberate differences, reported but not failures:
- cshogi counts pseudo-legal candidates (a pinned piece still "could" go
  there); komadai counts legal ones.
- Where the movement word alone and the position word alone are both not
  unique, komadai writes both (JSA order: movement, then position, then the
  two combined, e.g. ６八金右寄 with golds on 7h, 5h and 5i); cshogi may write
  only the position word, which then fits two pieces. Such cases are counted
  when komadai reads cshogi's text as ambiguous.
"""
import random
import subprocess
import sys

import cshogi
import cshogi.CSA
import cshogi.KI2
import cshogi.KIF


def komadai_all(binary, sfen):
    out = subprocess.run(
        [binary, "notation", "--all", "--style", "japanese", "--sfen", sfen],
        check=True, capture_output=True, text=True,
    ).stdout
    return dict(line.split("\t", 1) for line in out.splitlines())


def pins_matter(board, move):
    """Whether a same-kind piece could reach the square only pseudo-legally."""
    to = cshogi.move_to(move)
    kind = cshogi.move_from_piece_type(move) if not cshogi.move_is_drop(move) else None
    legal = {cshogi.move_from(m) for m in board.legal_moves
             if not cshogi.move_is_drop(m) and cshogi.move_to(m) == to
             and cshogi.move_from_piece_type(m) == kind}
    pseudo = {cshogi.move_from(m) for m in board.pseudo_legal_moves
              if not cshogi.move_is_drop(m) and cshogi.move_to(m) == to
              and cshogi.move_from_piece_type(m) == kind}
    return legal != pseudo


def cshogi_text_is_ambiguous(binary, sfen, text):
    out = subprocess.run(
        [binary, "notation", "--sfen", sfen, "--move", text, "--style", "usi"],
        capture_output=True, text=True,
    )
    return out.returncode != 0 and "several moves" in out.stderr


def positions(files, games=60, plies=80, seed=1):
    rng = random.Random(seed)
    for _ in range(games):
        board = cshogi.Board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            yield board.sfen()
            board.push(rng.choice(moves))
    for path in files:
        if path.endswith(".csa"):
            parser = cshogi.CSA.Parser.parse_file(path)[0]
        else:
            parser = cshogi.KIF.Parser.parse_file(path)
        board = cshogi.Board(parser.sfen)
        for m in parser.moves:
            yield board.sfen()
            board.push(m)


def main(argv):
    binary, files = argv[0], argv[1:]
    checked = differ = pinned = ambiguous = 0
    for sfen in positions(files):
        ours = komadai_all(binary, sfen)
        board = cshogi.Board(sfen)
        for m in board.legal_moves:
            usi = cshogi.move_to_usi(m)
            theirs = cshogi.KI2.move_to_ki2(m, board).replace("\u3000", "")
            mine = ours.get(usi, "?").replace("\u3000", "")
            checked += 1
            if mine != theirs:
                if pins_matter(board, m):
                    pinned += 1
                    continue
                if cshogi_text_is_ambiguous(binary, sfen, theirs):
                    ambiguous += 1
                    if ambiguous <= 3:
                        print("note: %s %s komadai=%s; cshogi=%s fits several pieces"
                              % (sfen, usi, mine, theirs))
                    continue
                differ += 1
                if differ <= 20:
                    print("DIFF %s %s komadai=%s cshogi=%s" % (sfen, usi, mine, theirs))
    print("KI2: %d moves compared with cshogi: %d differ; known differences: %d pinned"
          " candidates, %d where cshogi's shorter text fits several pieces"
          % (checked, differ, pinned, ambiguous))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
