"""Independent legal-move oracles for komadai's differential tests.

Two oracles, both used only as external test tools:

* standard shogi (9x9): cshogi (PyPI ``cshogi``), whose legal move generator
  handles uchifuzume (including a pinned capturer), nifu, dead drops and forced
  promotion;
* minishogi (5x5): Fairy-Stockfish through pyffish (PyPI ``pyffish``). It uses
  its own FEN and coordinates, which this module converts to and from SFEN and
  USI. It wrongly lists pawn-drop mates as legal, so those are filtered here.

Every function takes and returns SFEN positions and USI moves, so callers never
see the oracles' own notations.
"""

from __future__ import annotations

import importlib.metadata

import cshogi
import pyffish

STANDARD = "standard"
MINISHOGI = "minishogi"
VARIANTS = (STANDARD, MINISHOGI)

FSF_VARIANT = "minishogi"

#: Hand piece order of an SFEN hands field.
HAND_ORDER = "RBGSNLP"

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def fnv1a64(text: str) -> int:
    """FNV-1a 64-bit hash of the UTF-8 bytes of ``text``."""
    h = FNV_OFFSET
    for byte in text.encode("utf-8"):
        h ^= byte
        h = (h * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def digest(moves: list[str]) -> str:
    """The TSV digest of a move list: FNV-1a 64 of the bytewise-sorted moves
    joined by single spaces, as 16 lowercase hex digits."""
    return f"{fnv1a64(' '.join(sort_moves(moves))):016x}"


def sort_moves(moves: list[str]) -> list[str]:
    """USI moves sorted bytewise (as Rust sorts strings)."""
    return sorted(moves, key=lambda m: m.encode("utf-8"))


def oracle_versions() -> str:
    """Both oracles with their versions, for TSV headers."""
    return f"{oracle_name(STANDARD)} (9x9); {oracle_name(MINISHOGI)} (5x5)"


def variant_of(sfen: str) -> str:
    """``minishogi`` for a board of five ranks, else ``standard``."""
    board = sfen.split()[0]
    return MINISHOGI if board.count("/") == 4 else STANDARD


def key_of(sfen: str) -> str:
    """The position part of an SFEN (board, side, hands), without the move number."""
    return " ".join(sfen.split()[:3])


# --------------------------------------------------------------------------
# SFEN hands


def parse_hands(field: str) -> dict[str, int]:
    """Parses an SFEN hands field (``-`` or e.g. ``2Pb``) into letter -> count."""
    counts: dict[str, int] = {}
    if field == "-":
        return counts
    number = ""
    for ch in field:
        if ch.isdigit():
            number += ch
        else:
            counts[ch] = counts.get(ch, 0) + (int(number) if number else 1)
            number = ""
    return counts


def format_hands(counts: dict[str, int]) -> str:
    """Formats hands in SFEN order: Sente (uppercase) first, each side in the
    order R B G S N L P, counts before letters, ``-`` if both are empty."""
    out = []
    for letters in (HAND_ORDER, HAND_ORDER.lower()):
        for letter in letters:
            n = counts.get(letter, 0)
            if n == 1:
                out.append(letter)
            elif n > 1:
                out.append(f"{n}{letter}")
    return "".join(out) or "-"


def canonical_sfen(sfen: str) -> str:
    """Rewrites the hands field of an SFEN into canonical order."""
    board, side, hands, *rest = sfen.split()
    return " ".join([board, side, format_hands(parse_hands(hands)), *rest])


# --------------------------------------------------------------------------
# Standard shogi: cshogi


def cshogi_board(sfen: str) -> cshogi.Board:
    """A cshogi board set to ``sfen``."""
    return cshogi.Board(sfen)


def standard_legal(sfen: str) -> list[str]:
    """Legal moves (USI, unsorted) of a 9x9 position according to cshogi."""
    board = cshogi_board(sfen)
    return [cshogi.move_to_usi(m) for m in board.legal_moves]


def standard_perft(board: cshogi.Board, depth: int) -> int:
    """Leaf count of the legal move tree, bulk-counting the last ply."""
    moves = list(board.legal_moves)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    total = 0
    for m in moves:
        board.push(m)
        total += standard_perft(board, depth - 1)
        board.pop()
    return total


def standard_divide(sfen: str, depth: int) -> dict[str, int]:
    """Perft split by first move (USI -> leaves)."""
    board = cshogi_board(sfen)
    out = {}
    for m in list(board.legal_moves):
        board.push(m)
        out[cshogi.move_to_usi(m)] = standard_perft(board, depth - 1)
        board.pop()
    return out


# --------------------------------------------------------------------------
# Minishogi: Fairy-Stockfish (pyffish)
#
# FSF's minishogi FEN lists the ranks from the top (Gote's side) like SFEN, with
# the same piece letters and '+' for promoted pieces, so the board field is the
# same text. The differences: hands go in brackets after the board with one
# letter per piece (``[GPp]``, ``[-]`` when empty); the side letter is ``w`` for
# the first player (Sente) and ``b`` for Gote; squares are named like chess
# (files a..e from the left, ranks 1..5 from Sente's side), so FSF ``a1`` is USI
# ``5e``; drops are written ``P@c3``.


def sfen_to_fen(sfen: str) -> str:
    """Converts a minishogi SFEN into an FSF FEN."""
    fields = sfen.split()
    board, side, hands = fields[:3]
    counts = parse_hands(hands)
    fsf_hand = "".join(
        letter * counts.get(letter, 0) for letter in HAND_ORDER + HAND_ORDER.lower()
    )
    fsf_side = "w" if side == "b" else "b"
    return f"{board}[{fsf_hand}] {fsf_side} - - 0 1"


def fen_to_sfen(fen: str, move_number: int) -> str:
    """Converts an FSF minishogi FEN into an SFEN with the given move number."""
    head, fsf_side = fen.split()[:2]
    board, _, hand = head.partition("[")
    hand = hand.rstrip("]")
    counts: dict[str, int] = {}
    for letter in hand.replace("-", ""):
        counts[letter] = counts.get(letter, 0) + 1
    side = "b" if fsf_side == "w" else "w"
    return f"{board} {side} {format_hands(counts)} {move_number}"


def fsf_square_to_usi(square: str) -> str:
    """FSF square (``a1``) to USI square (``5e``) on the 5x5 board."""
    file = 5 - (ord(square[0]) - ord("a"))
    rank = chr(ord("a") + 5 - int(square[1:]))
    return f"{file}{rank}"


def usi_square_to_fsf(square: str) -> str:
    """USI square (``5e``) to FSF square (``a1``) on the 5x5 board."""
    file = chr(ord("a") + 5 - int(square[0]))
    rank = 5 - (ord(square[1]) - ord("a"))
    return f"{file}{rank}"


def fsf_move_to_usi(move: str) -> str:
    """FSF move (``a1b2``, ``b4b5+``, ``P@c3``) to USI (``5e4d``, ``4b4a+``, ``P*3c``)."""
    if "@" in move:
        letter, square = move.split("@")
        return f"{letter.upper()}*{fsf_square_to_usi(square)}"
    promote = move.endswith("+")
    body = move.rstrip("+")
    return fsf_square_to_usi(body[:2]) + fsf_square_to_usi(body[2:4]) + ("+" if promote else "")


def usi_move_to_fsf(move: str) -> str:
    """USI move to FSF move (inverse of :func:`fsf_move_to_usi`)."""
    if "*" in move:
        letter, square = move.split("*")
        return f"{letter}@{usi_square_to_fsf(square)}"
    promote = move.endswith("+")
    body = move.rstrip("+")
    return usi_square_to_fsf(body[:2]) + usi_square_to_fsf(body[2:4]) + ("+" if promote else "")


def fen_board(fen: str) -> dict[str, str]:
    """The pieces of an FSF FEN board as FSF square -> piece text (``+P``, ``k``)."""
    board = fen.split("[")[0]
    pieces = {}
    for row, text in enumerate(board.split("/")):
        rank = 5 - row
        file = 0
        promoted = ""
        for ch in text:
            if ch.isdigit():
                file += int(ch)
            elif ch == "+":
                promoted = "+"
            else:
                pieces[f"{chr(ord('a') + file)}{rank}"] = promoted + ch
                promoted = ""
                file += 1
    return pieces


def square_in_front_of_enemy_king(fen: str) -> str | None:
    """The FSF square where a pawn of the side to move would check the enemy king."""
    sente = fen.split()[1] == "w"
    enemy_king = "k" if sente else "K"
    for square, piece in fen_board(fen).items():
        if piece == enemy_king:
            rank = int(square[1:]) + (-1 if sente else 1)
            return f"{square[0]}{rank}" if 1 <= rank <= 5 else None
    return None


def is_pawn_drop(fsf_move: str, square: str | None) -> bool:
    """Whether an FSF move drops a pawn on ``square``."""
    return square is not None and fsf_move.upper() == f"P@{square.upper()}"


def is_pawn_drop_mate(fen: str, fsf_move: str) -> bool:
    """Whether an FSF pawn drop is a drop mate (uchifuzume), which FSF's
    minishogi wrongly lists as legal. Only a pawn dropped right in front of the
    enemy king can be one; it is a mate when the opponent has no legal reply."""
    if not is_pawn_drop(fsf_move, square_in_front_of_enemy_king(fen)):
        return False
    return not pyffish.legal_moves(FSF_VARIANT, fen, [fsf_move])


def fsf_legal(fen: str) -> list[str]:
    """Legal FSF moves of an FSF minishogi FEN, pawn-drop mates removed."""
    return [m for m in pyffish.legal_moves(FSF_VARIANT, fen, []) if not is_pawn_drop_mate(fen, m)]


def minishogi_legal(sfen: str) -> list[str]:
    """Legal moves (USI, unsorted) of a 5x5 position according to Fairy-Stockfish,
    pawn-drop mates filtered."""
    return [fsf_move_to_usi(m) for m in fsf_legal(sfen_to_fen(sfen))]


def minishogi_perft(fen: str, depth: int) -> int:
    """Leaf count of the legal move tree of an FSF FEN (bulk-counting the last ply)."""
    moves = fsf_legal(fen)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    return sum(minishogi_perft(pyffish.get_fen(FSF_VARIANT, fen, [m]), depth - 1) for m in moves)


def minishogi_divide(sfen: str, depth: int) -> dict[str, int]:
    """Perft split by first move (USI -> leaves)."""
    fen = sfen_to_fen(sfen)
    return {
        fsf_move_to_usi(m): minishogi_perft(pyffish.get_fen(FSF_VARIANT, fen, [m]), depth - 1)
        for m in fsf_legal(fen)
    }


# --------------------------------------------------------------------------
# Either variant


def legal_moves(sfen: str) -> list[str]:
    """Sorted legal USI moves of any SFEN (the variant is read from the board)."""
    if variant_of(sfen) == MINISHOGI:
        return sort_moves(minishogi_legal(sfen))
    return sort_moves(standard_legal(sfen))


def divide(sfen: str, depth: int) -> dict[str, int]:
    """Perft split by first move for any SFEN."""
    if variant_of(sfen) == MINISHOGI:
        return minishogi_divide(sfen, depth)
    return standard_divide(sfen, depth)


def oracle_name(variant: str) -> str:
    """Human-readable name and version of the oracle used for a variant."""
    if variant == STANDARD:
        return f"cshogi {importlib.metadata.version('cshogi')}"
    return (
        f"Fairy-Stockfish via pyffish {importlib.metadata.version('pyffish')}, "
        "pawn-drop mates filtered"
    )
