"""The Barricade picture in pixels: its sizes and colours, where each point, start slot and legend line
is, and the grid's letters and numbers that name the points."""
from __future__ import annotations

from bot.games.barricade.board import Board
from renderer.colours import (
    CHOICE,
    PAPER,
    TRACE,
    WHITE,
    blend,
)
from renderer.fonts import readable_size

WIDTH = 1024
STEP = 54                     # distance between neighbouring points
AXIS = readable_size(WIDTH)   # the grid's letters and numbers, which name the points: readable at chat size
LEFT, TOP = 76, 72            # centre of point (0, 0), clear of the axis labels
POINT_R, PAWN_R, RING_R = 19, 21, 26
SLOT_STEP = 40                # start-area slots
DIE = 2 * AXIS - 16             # the die on a legend line: its pips readable at chat size (20 px at 400)
LEGEND_LINE = DIE + 4
TAG_Y = (LEGEND_LINE - AXIS - 12) // 2   # a name's band, centred on its legend line
BANNER_ROOM = 2 * AXIS + 24
BAR_RGB = (50, 44, 58)
LINE_RGB = (120, 112, 100)
GOAL_RGB = (250, 212, 80)
START_LINE_RGB = (222, 222, 222)
LAST_MOVE_RGB = TRACE
HIGHLIGHT = CHOICE            # the pawn chosen, where it can go, the held barricade's places
FREE_RGB = blend(CHOICE, PAPER, 0.45)   # a free point outside the area being chosen in


def centre(board: Board, point: int) -> tuple[int, int]:
    x, y = board.coords[point]
    return LEFT + x * STEP, TOP + y * STEP


def rows_bottom(board: Board) -> int:
    return TOP + max(y for _, y in board.coords) * STEP


def slot_centres(board: Board, colour: str) -> list[tuple[int, int]]:
    """The five start-area slots under the colour's entry point (BA-1.2)."""
    ex, _ = centre(board, board.entry[colour])
    y = rows_bottom(board) + 64
    return [(ex + (i - 2) * SLOT_STEP, y) for i in range(5)]


def height(n_players: int, board: Board, finished: bool = False) -> int:
    """The picture's height: the board, then one legend line per player, then (a finished game)
    who won, where no piece can be."""
    return legend_top(board) + n_players * LEGEND_LINE + 12 + (BANNER_ROOM if finished else 0)


def legend_top(board: Board) -> int:
    return rows_bottom(board) + 146


def tint(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return blend(rgb, WHITE, 0.72)



def grid(board: Board) -> tuple[dict[int, str], dict[int, str]]:
    """The column letters by x and the row numbers by y, as the points' names have them."""
    columns, rows = {}, {}
    for (x, y), name in zip(board.coords, board.names):
        columns[x] = name.rstrip("0123456789")
        rows[y] = name.lstrip("abcdefghijklmnopqrstuvwxyz")
    return columns, rows


def axis_spots(board: Board, point: int) -> tuple[tuple[tuple[int, int], str], ...]:
    """Where the letter (above and below the board) and the number (left and right) naming `point` stand."""
    x, y = board.coords[point]
    columns, rows = grid(board)
    letter, number = columns[x], rows[y]
    return (((LEFT + x * STEP, 24), letter), ((LEFT + x * STEP, rows_bottom(board) + 122), letter),
            ((27, TOP + y * STEP), number), ((WIDTH - 27, TOP + y * STEP), number))
