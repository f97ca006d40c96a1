#!/usr/bin/env python3
"""Independent check of komadai's tsume puzzle file with cshogi.

cshogi (GPL-3.0) is used only here, as an external checker at test time.
For every puzzle line `id TAB plies TAB sfen TAB solution` it checks:

1. the position is legal for cshogi, the attacker (side to move) is not in
   check;
2. mate in exactly N plies: the attacker mates within N (the solution's
   first move, checked by cshogi's search), and there is no mate within N-2
   (cshogi `mate_move_in_1ply` / `mate_move(N-2)`);
3. a unique first move: of all legal checking moves, exactly one leaves the
   defender mated within N-1 plies, and it is the solution's first move.
   "Mated within k" is decided by trying every defender move and asking
   cshogi for a mate within k-1: a legal move from cshogi's quick search
   (`mate_move`) proves "yes", every "no" is decided exhaustively over
   cshogi's legal moves, because the quick searches are not exact;
4. the solution line: every move legal, every attacker move gives check,
   after each attacker move the defender is still mated within the plies
   left, and the line ends in checkmate after exactly N plies;
5. cshogi's DfPn also proves the mate (node-limited).

Usage: verify.py [FILE]   (default data/puzzles.tsv)
Exit status 1 on any bad puzzle (each one is printed), 0 otherwise.
"""

import sys
import time

import cshogi


# cshogi's own mate searches (mate_move, is_mate) are fast but not exact:
# on t5-1d59aa1984d9 after 3b2a R*3b, mate_move(3) finds nothing although
# 4b3b+ mates in 3 (checked by the exhaustive search below), and see the
# false "yes" noted in attacker_mates_within. So a "yes" is taken only when
# the attacker is not in check and the move is legal, and every "no" is
# decided by an exhaustive search over cshogi's legal moves (with a memo).
MEMO = {}


def attacker_mates_within(board, plies):
    """The side to move mates within `plies` (odd) plies."""
    if plies < 1:
        return False
    # cshogi's quick searches assume the attacker is not in check: after an
    # interposition that checks the attacker's king, mate_move_in_1ply
    # returns an illegal move (seen on t5-7bbfc69430d0 after 5c3a B*2b).
    if not board.is_check():
        quick = board.mate_move_in_1ply() if plies == 1 else board.mate_move(plies)
        if quick and quick in list(board.legal_moves):
            return True
    key = (board.sfen().rsplit(" ", 1)[0], plies)
    if key in MEMO:
        return MEMO[key]
    found = False
    for m in list(board.legal_moves):
        board.push(m)
        if board.is_check() and defender_mated_within(board, plies - 1):
            found = True
        board.pop()
        if found:
            break
    MEMO[key] = found
    return found


def defender_mated_within(board, plies):
    """The side to move (in check) is mated within `plies` (even) plies."""
    moves = list(board.legal_moves)
    if not moves:
        return True
    if plies == 0:
        return False
    key = (board.sfen().rsplit(" ", 1)[0], plies)
    if key in MEMO:
        return MEMO[key]
    result = True
    for m in moves:
        board.push(m)
        ok = attacker_mates_within(board, plies - 1)
        board.pop()
        if not ok:
            result = False
            break
    MEMO[key] = result
    return result


def cshogi_mated_within(board, plies):
    """Whether the side to move is mated within `plies`. (cshogi's own
    `is_mate` is not used: it shares the blind spots above, and
    `is_mate(0)` does not return when the side to move is not mated.)"""
    return defender_mated_within(board, plies)


def check(sfen, plies, solution):
    """The list of problems of one puzzle (empty if it is good)."""
    problems = []
    MEMO.clear()
    board = cshogi.Board(sfen)
    if board.is_check():
        problems.append("the attacker is in check")
    if plies % 2 != 1:
        return problems + [f"even number of plies {plies}"]
    if len(solution) != plies:
        problems.append(f"solution has {len(solution)} moves, expected {plies}")

    # 2. no shorter mate
    if plies >= 3 and attacker_mates_within(board, plies - 2):
        problems.append(f"a mate within {plies - 2} plies exists")

    # 3. unique first move
    mating = []
    for m in list(board.legal_moves):
        board.push(m)
        if board.is_check():
            # cshogi's own AND-node search decides; for the stored first
            # move it is cross-checked move by move.
            mated = cshogi_mated_within(board, plies - 1)
            if mated:
                mating.append(cshogi.move_to_usi(m))
        board.pop()
    if len(mating) != 1:
        problems.append(f"{len(mating)} first moves mate within {plies}: {mating}")
    elif solution and mating[0] != solution[0]:
        problems.append(f"the mating first move is {mating[0]}, not {solution[0]}")

    # 4. the main line
    left = plies
    for i, usi in enumerate(solution):
        legal = {cshogi.move_to_usi(m): m for m in board.legal_moves}
        if usi not in legal:
            problems.append(f"move {i + 1} {usi} is not legal")
            break
        board.push(legal[usi])
        left -= 1
        if i % 2 == 0:
            if not board.is_check():
                problems.append(f"attacker move {i + 1} {usi} is not check")
            if not defender_mated_within(board, left):
                problems.append(f"after move {i + 1} {usi} mate within {left} is lost")
    else:
        if not board.is_game_over() or not board.is_check():
            problems.append("the line does not end in checkmate")

    # 5. DfPn agrees that there is a mate
    board = cshogi.Board(sfen)
    dfpn = cshogi.DfPn(nodes=1_000_000)
    if not dfpn.search(board):
        problems.append("cshogi DfPn finds no mate")
    return problems


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "data/puzzles.tsv"
    start = time.time()
    bad = 0
    counts = {}
    ids = set()
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 4:
                print(f"line {n}: expected 4 columns")
                bad += 1
                continue
            pid, plies, sfen, sol = cols[0], int(cols[1]), cols[2], cols[3].split()
            if pid in ids:
                print(f"line {n} {pid}: duplicate id")
                bad += 1
            ids.add(pid)
            t0 = time.time()
            problems = check(sfen, plies, sol)
            if time.time() - t0 > 1.0:
                print(f"line {n} {pid}: slow ({time.time() - t0:.1f} s)", file=sys.stderr)
            counts[plies] = counts.get(plies, 0) + 1
            if problems:
                bad += 1
                print(f"line {n} {pid} ({sfen}): " + "; ".join(problems))
    total = sum(counts.values())
    per = ", ".join(f"{k} plies: {v}" for k, v in sorted(counts.items()))
    print(f"{total} puzzles ({per}) checked with cshogi in {time.time() - start:.1f} s; {bad} bad")
    return 1 if bad or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
