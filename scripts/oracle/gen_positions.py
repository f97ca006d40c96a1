#!/usr/bin/env python3
"""Generate oracle-labelled shogi positions for komadai's differential test.

Positions come from seeded random playouts from the start position: cshogi
plays standard shogi, Fairy-Stockfish (pyffish) plays minishogi. Each game
draws its own bias towards captures, drops, promotions and checks, so the set
holds many positions in check, with pieces in hand and with promoted pieces, and
the games that end in mate contribute their final position.

Output is TSV, one position a line after a ``#`` header:

    SFEN<TAB>COUNT<TAB>DIGEST

COUNT is the number of legal moves according to the oracle and DIGEST the
FNV-1a 64-bit hash of the bytewise-sorted USI moves joined by single spaces
(see oracles.digest). Positions are unique (ignoring the move number), and the
output depends only on the arguments.

With ``--from FILE`` the script labels the SFEN lines of FILE instead of
generating positions (blank lines and ``#`` comments are skipped; the variant
is read from each board).

Examples:

    python3 scripts/oracle/gen_positions.py --variant standard -n 10000 --seed 1 \\
        -o tests/data/legal_standard.tsv
    python3 scripts/oracle/gen_positions.py --from scripts/oracle/probes.sfen \\
        -o tests/data/legal_probes.tsv
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

import cshogi
import pyffish

import oracles


@dataclass
class Style:
    """How one playout chooses its moves and which positions it keeps."""

    capture: float  # extra weight of a capture
    drop: float  # extra weight of a drop
    promotion: float  # extra weight of a promotion
    check: float  # probability of playing a check when one is found
    mate: float  # probability of playing a mate in one when the oracle finds one
    squeeze: float  # probability of playing the move leaving the fewest replies
    keep: float  # probability of keeping an ordinary position
    max_plies: int

    @classmethod
    def draw(cls, rng: random.Random, variant: str) -> Style:
        """A random style; about one game in eight is a plain uniform playout."""
        longest = 260 if variant == oracles.STANDARD else 120
        if rng.random() < 0.125:
            return cls(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, rng.uniform(0.1, 0.3), rng.randint(20, longest))
        return cls(
            capture=rng.choice([0.0, 2.0, 5.0, 12.0]),
            drop=rng.choice([0.0, 1.0, 3.0, 8.0]),
            promotion=rng.choice([0.0, 2.0, 6.0]),
            check=rng.choice([0.0, 0.15, 0.35, 0.6, 0.85]),
            mate=rng.choice([0.0, 0.5, 1.0]),
            squeeze=rng.choice([0.0, 0.0, 0.2, 0.5]),
            keep=rng.uniform(0.1, 0.35),
            max_plies=rng.randint(20, longest),
        )


class StandardGame:
    """A 9x9 game played on a cshogi board."""

    def __init__(self) -> None:
        self.board = cshogi.Board()

    def sfen(self) -> str:
        """The current position as canonical SFEN."""
        return oracles.canonical_sfen(self.board.sfen())

    def legal(self) -> list[str]:
        """Legal USI moves, sorted."""
        return oracles.sort_moves([cshogi.move_to_usi(m) for m in self.board.legal_moves])

    def in_check(self) -> bool:
        """Whether the side to move is in check."""
        return self.board.is_check()

    def is_capture(self, usi: str) -> bool:
        """Whether a (non-drop) move lands on a piece."""
        return "*" not in usi and self.board.piece(cshogi.move_to(self.board.move_from_usi(usi))) != 0

    def checks(self, moves: list[str], rng: random.Random) -> list[str]:
        """The checking moves among ``moves``."""
        del rng
        checking = {cshogi.move_to_usi(m) for m in self.board.check_moves}
        return [m for m in moves if m in checking]

    def pawn_drop_check(self) -> bool:
        """Whether a pawn drop that checks (a candidate uchifuzume) is legal."""
        return any(
            cshogi.move_is_drop(m) and cshogi.move_drop_hand_piece(m) == cshogi.HPAWN
            for m in self.board.check_moves
        )

    def mate_in_one(self, moves: list[str]) -> str | None:
        """A mating move found by cshogi's one-ply mate search, if any."""
        found = self.board.mate_move_in_1ply()
        usi = cshogi.move_to_usi(found) if found else None
        return usi if usi in moves else None

    def replies(self, moves: list[str], rng: random.Random) -> dict[str, int]:
        """Number of legal replies after each move."""
        del rng
        out = {}
        for m in moves:
            self.board.push_usi(m)
            out[m] = sum(1 for _ in self.board.legal_moves)
            self.board.pop()
        return out

    def play(self, usi: str) -> None:
        """Plays a legal move."""
        self.board.push_usi(usi)


class MinishogiGame:
    """A 5x5 game played through Fairy-Stockfish FENs."""

    #: How many moves to test with (slow) FSF calls when looking for a check
    #: or for the move leaving the fewest replies.
    CHECK_SAMPLE = 6

    def __init__(self) -> None:
        self.fen = pyffish.start_fen(oracles.FSF_VARIANT)
        self.ply = 0
        self._moves: list[str] | None = None
        self._pawn_drop_check = False

    def sfen(self) -> str:
        """The current position as SFEN."""
        return oracles.fen_to_sfen(self.fen, self.ply + 1)

    def legal(self) -> list[str]:
        """Legal USI moves (pawn-drop mates filtered), sorted."""
        if self._moves is None:
            raw = pyffish.legal_moves(oracles.FSF_VARIANT, self.fen, [])
            front = oracles.square_in_front_of_enemy_king(self.fen)
            self._pawn_drop_check = any(oracles.is_pawn_drop(m, front) for m in raw)
            legal = [m for m in raw if not oracles.is_pawn_drop_mate(self.fen, m)]
            self._moves = oracles.sort_moves([oracles.fsf_move_to_usi(m) for m in legal])
        return self._moves

    def pawn_drop_check(self) -> bool:
        """Whether FSF lists a pawn drop that checks (legal or a drop mate)."""
        self.legal()
        return self._pawn_drop_check

    def mate_in_one(self, moves: list[str]) -> str | None:
        """Not searched in minishogi (each test would cost an FSF call); checks
        end enough of its short games in mate."""
        del moves
        return None

    def in_check(self) -> bool:
        """Whether the side to move is in check."""
        return pyffish.gives_check(oracles.FSF_VARIANT, self.fen, [])

    def is_capture(self, usi: str) -> bool:
        """Whether a (non-drop) move lands on a piece."""
        if "*" in usi:
            return False
        target = oracles.usi_square_to_fsf(usi[2:4])
        return target in oracles.fen_board(self.fen)

    def checks(self, moves: list[str], rng: random.Random) -> list[str]:
        """Checking moves among a small random sample of ``moves``."""
        sample = rng.sample(moves, min(len(moves), self.CHECK_SAMPLE))
        return [
            m
            for m in sample
            if pyffish.gives_check(oracles.FSF_VARIANT, self.fen, [oracles.usi_move_to_fsf(m)])
        ]

    def replies(self, moves: list[str], rng: random.Random) -> dict[str, int]:
        """Number of replies FSF lists after each move of a small random sample."""
        sample = rng.sample(moves, min(len(moves), self.CHECK_SAMPLE))
        return {
            m: len(pyffish.legal_moves(oracles.FSF_VARIANT, self.fen, [oracles.usi_move_to_fsf(m)]))
            for m in sample
        }

    def play(self, usi: str) -> None:
        """Plays a legal move."""
        self.fen = pyffish.get_fen(oracles.FSF_VARIANT, self.fen, [oracles.usi_move_to_fsf(usi)])
        self.ply += 1
        self._moves = None


def choose_move(game, moves: list[str], style: Style, rng: random.Random) -> str:
    """Picks a move: a mate in one with probability ``style.mate`` when one is
    found, else with probability ``style.squeeze`` the move leaving the fewest
    replies (which drives games towards mate), else a check with probability
    ``style.check`` when one is found, otherwise a weighted choice favouring
    captures, drops and promotions."""
    if style.mate and rng.random() < style.mate:
        mate = game.mate_in_one(moves)
        if mate:
            return mate
    if style.squeeze and rng.random() < style.squeeze:
        replies = game.replies(moves, rng)
        fewest = min(replies.values())
        return rng.choice([m for m, n in replies.items() if n == fewest])
    if style.check and rng.random() < style.check:
        checks = game.checks(moves, rng)
        if checks:
            return rng.choice(checks)
    weights = []
    for m in moves:
        w = 1.0
        if "*" in m:
            w += style.drop
        else:
            if m.endswith("+"):
                w += style.promotion
            if style.capture and game.is_capture(m):
                w += style.capture
        weights.append(w)
    return rng.choices(moves, weights=weights)[0]


def generate(variant: str, count: int, seed: int, log=None) -> list[tuple[str, list[str]]]:
    """``count`` unique positions with their sorted legal moves, from seeded playouts."""
    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[tuple[str, list[str]]] = []
    games = 0
    while len(out) < count:
        games += 1
        style = Style.draw(rng, variant)
        game = StandardGame() if variant == oracles.STANDARD else MinishogiGame()
        for _ in range(style.max_plies + 1):
            moves = game.legal()
            # Keep every final position, and more often positions in check or
            # where a pawn drop gives check (the candidates for uchifuzume).
            keep = style.keep
            if not moves:
                keep = 1.0
            elif game.pawn_drop_check():
                keep = max(keep, 0.9)
            elif game.in_check():
                keep = max(keep, 0.6)
            if rng.random() < keep:
                sfen = game.sfen()
                key = oracles.key_of(sfen)
                if key not in seen:
                    seen.add(key)
                    out.append((sfen, moves))
                    if len(out) == count:
                        break
            if not moves:
                break
            game.play(choose_move(game, moves, style, rng))
        if log and games % 50 == 0:
            log(f"{games} games, {len(out)} positions")
    return out


def label(path: str) -> list[tuple[str, list[str] | None]]:
    """Reads SFEN lines and asks the oracle about each. ``#`` comment lines are
    kept (as rows without moves) so they reach the TSV; blank lines are skipped."""
    out: list[tuple[str, list[str] | None]] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("#"):
                out.append((line, None))
            elif line:
                sfen = oracles.canonical_sfen(line)
                out.append((sfen, oracles.legal_moves(sfen)))
    return out


def write_tsv(path: str, header: list[str], rows: list[tuple[str, list[str] | None]]) -> None:
    """Writes ``# header`` lines then ``SFEN\\tCOUNT\\tDIGEST`` rows (a row
    without moves is a comment line, written as is)."""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for h in header:
            f.write(f"# {h}\n")
        for sfen, moves in rows:
            if moves is None:
                f.write(f"{sfen}\n")
            else:
                f.write(f"{sfen}\t{len(moves)}\t{oracles.digest(moves)}\n")


def summary(rows: list[tuple[str, list[str] | None]]) -> str:
    """Counts of interesting positions, for the log."""
    rows = [(sfen, moves) for sfen, moves in rows if moves is not None]
    n = len(rows)
    checks = sum(1 for sfen, _ in rows if _in_check(sfen))
    none = sum(1 for _, moves in rows if not moves)
    hands = sum(1 for sfen, _ in rows if sfen.split()[2] != "-")
    promoted = sum(1 for sfen, _ in rows if "+" in sfen.split()[0])

    def pct(k: int) -> str:
        return f"{100.0 * k / n:.1f}%" if n else "-"

    return (
        f"{n} positions: in check {checks} ({pct(checks)}), no legal move {none}, "
        f"pieces in hand {hands} ({pct(hands)}), promoted pieces {promoted} ({pct(promoted)})"
    )


def _in_check(sfen: str) -> bool:
    if oracles.variant_of(sfen) == oracles.MINISHOGI:
        return pyffish.gives_check(oracles.FSF_VARIANT, oracles.sfen_to_fen(sfen), [])
    return oracles.cshogi_board(sfen).is_check()


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=oracles.VARIANTS, default=oracles.STANDARD)
    parser.add_argument("-n", type=int, default=1000, help="number of positions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--from", dest="source", metavar="FILE", help="label the SFENs of FILE")
    parser.add_argument("-o", "--output", required=True, help="TSV file to write")
    parser.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args(argv)

    log = None if args.quiet else (lambda msg: print(msg, file=sys.stderr))
    started = time.monotonic()
    if args.source:
        rows = label(args.source)
        command = f"scripts/oracle/gen_positions.py --from {args.source} -o {args.output}"
        oracle = oracles.oracle_versions()
    else:
        rows = generate(args.variant, args.n, args.seed, log)
        command = (
            f"scripts/oracle/gen_positions.py --variant {args.variant} -n {args.n} "
            f"--seed {args.seed} -o {args.output}"
        )
        oracle = oracles.oracle_name(args.variant)
    header = [
        f"generated by: python3 {command}",
        f"oracle: {oracle}",
        "columns: SFEN<TAB>number of legal moves<TAB>FNV-1a 64 of the sorted USI moves joined by spaces",
    ]
    write_tsv(args.output, header, rows)
    if log:
        log(summary(rows))
        log(f"wrote {args.output} in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
