#!/usr/bin/env python3
"""A patient beginner, as a USI engine: the opponent komadai's Beginner
level must still lose to (issue 19; `run_match.sh patient`).

It plays as a human who has just learnt the rules and takes their time:
it knows what the pieces are worth and nothing else, but it looks at every
one of its moves and every answer to each, and follows the captures to the
end, so it never leaves a piece to be taken for nothing, takes what is
given, and sees a mate in one either way. Among equally good moves it
picks one at random (seeded by the USI option `Seed`), so games differ.
It has no opening knowledge, no king safety and no plan.

    python3 -m cshogi.cli scripts/match/patient.py ...   # via a wrapper

Needs cshogi (pip install cshogi).
"""
import random
import sys

import cshogi

# What a beginner's book says the pieces are worth, indexed by cshogi's
# piece type (1 pawn .. 8 king, 9 tokin .. 14 dragon); in hand as unpromoted.
VALUE = [0, 1, 3, 4, 5, 8, 10, 6, 0, 6, 6, 6, 6, 10, 12]
HAND_VALUE = [1, 3, 4, 5, 6, 8, 10]  # cshogi's hand order: P L N S G B R
MATE = 10_000
QDEPTH = 8


def material(board):
    """Material from the side to move's point of view."""
    total = 0
    for piece in board.pieces:
        if piece:
            v = VALUE[piece & 15]
            total += v if piece < 16 else -v
    black, white = board.pieces_in_hand
    total += sum(c * v for c, v in zip(black, HAND_VALUE))
    total -= sum(c * v for c, v in zip(white, HAND_VALUE))
    return total if board.turn == cshogi.BLACK else -total


def captures(board):
    return [m for m in board.legal_moves if board.piece(cshogi.move_to(m))]


def quiesce(board, alpha, beta, depth):
    stand = material(board)
    if stand >= beta or depth == 0:
        return stand
    alpha = max(alpha, stand)
    moves = captures(board)
    moves.sort(key=lambda m: -VALUE[board.piece(cshogi.move_to(m)) & 15])
    for m in moves:
        board.push(m)
        score = -quiesce(board, -beta, -alpha, depth - 1)
        board.pop()
        if score >= beta:
            return score
        alpha = max(alpha, score)
    return alpha


def reply_value(board, alpha, beta):
    """The best answer's value for the side to move (one full ply, then captures)."""
    moves = list(board.legal_moves)
    if not moves:
        return -MATE
    # cshogi's mate in one assumes the side to move is not in check.
    if not board.is_check() and board.mate_move_in_1ply():
        return MATE
    best = -MATE
    for m in moves:
        board.push(m)
        score = -quiesce(board, -beta, -max(alpha, best), QDEPTH)
        board.pop()
        if score > best:
            best = score
            if best >= beta:
                break
    return best


def choose(board, rng):
    mate = 0 if board.is_check() else board.mate_move_in_1ply()
    if mate:
        return cshogi.move_to_usi(mate)
    moves = list(board.legal_moves)
    if not moves:
        return "resign"
    rng.shuffle(moves)
    # Captures first, so the bound tightens early; ties stay random.
    moves.sort(key=lambda m: -VALUE[board.piece(cshogi.move_to(m)) & 15])
    scored = []
    best = -MATE - 1
    for m in moves:
        board.push(m)
        # Equal scores matter (ties are chosen among): search with a bound
        # one below the best so far, so a tie is still found exactly.
        score = -reply_value(board, -MATE - 1, -(best - 1))
        board.pop()
        scored.append((score, m))
        best = max(best, score)
    ties = [m for s, m in scored if s == best]
    return cshogi.move_to_usi(rng.choice(ties))


def main():
    board = cshogi.Board()
    rng = random.Random(1)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "usi":
            print("id name patient-beginner")
            print("id author komadai")
            print("option name Seed type spin default 1 min 0 max 1000000")
            print("usiok")
        elif cmd == "setoption" and len(words) >= 5 and words[2] == "Seed":
            rng = random.Random(int(words[4]))
        elif cmd == "isready":
            print("readyok")
        elif cmd == "position":
            board.set_position(line.strip()[len("position "):])
        elif cmd == "go":
            print(f"bestmove {choose(board, rng)}")
        elif cmd == "quit":
            break
        sys.stdout.flush()


if __name__ == "__main__":
    main()
