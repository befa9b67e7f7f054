"""Pariti's 7 x 10 board (PA-1.1): square names, start squares and the
neighbour / jump tables the ruleset walks.

Geometry is read once from data/boards/pariti.json (also read by the renderer
through this module). A square is an index 0..69: file + 7 * (rank - 1), so
a1 = 0, g1 = 6, a2 = 7, ..., g10 = 69.
"""
from __future__ import annotations

import json

from bot.core.data_files import data_file

DATA_FILE = data_file("boards", "pariti.json")

_DATA = json.loads(DATA_FILE.read_text(encoding="utf-8"))

FILES: str = _DATA["files"]
N_FILES = len(FILES)
N_RANKS: int = _DATA["ranks"]
N_SQUARES = N_FILES * N_RANKS

SQUARE_NAMES: tuple[str, ...] = tuple(f"{FILES[i % N_FILES]}{i // N_FILES + 1}" for i in range(N_SQUARES))
SQUARE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SQUARE_NAMES)}

# The squares the shuffled pieces fill at setup, in filling order (PA-2.1).
START_SQUARES: tuple[int, ...] = tuple(SQUARE_INDEX[name] for name in _DATA["start_squares"])

_DIRECTIONS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def file_rank(square: int) -> tuple[int, int]:
    """(file 0..6, rank 0..9) of a square index."""
    return square % N_FILES, square // N_FILES


def _on_board(f: int, r: int) -> bool:
    return 0 <= f < N_FILES and 0 <= r < N_RANKS


def _index(f: int, r: int) -> int:
    return f + N_FILES * r


def _neighbours(square: int) -> tuple[int, ...]:
    f, r = file_rank(square)
    return tuple(_index(f + df, r + dr) for df, dr in _DIRECTIONS if _on_board(f + df, r + dr))


def _jumps(square: int) -> tuple[tuple[int, int], ...]:
    f, r = file_rank(square)
    return tuple(
        (_index(f + df, r + dr), _index(f + 2 * df, r + 2 * dr))
        for df, dr in _DIRECTIONS
        if _on_board(f + 2 * df, r + 2 * dr)
    )


# Per square: the (up to) eight neighbours a step reaches (PA-4.1), and the
# (jumped square, landing square) pairs of a jump (PA-4.2).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(s) for s in range(N_SQUARES))
JUMPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_jumps(s) for s in range(N_SQUARES))
