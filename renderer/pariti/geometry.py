"""Pariti's picture in pixels: its size and colours, where each square is, and the side panel's rows."""
from __future__ import annotations

from bot.games.pariti_board import N_FILES, N_RANKS, file_rank
from renderer.colours import CHOICE, PIECE_RGB, RGB, TRACE, WHITE, blend
from renderer.fonts import readable_size
from renderer.legend import PlayerTag, tag_height, tag_lines
from renderer.writing import line_step

WIDTH, HEIGHT = 1024, 1024
CELL = 92
AXIS = readable_size(WIDTH)             # the files' letters and the ranks' numbers: readable at chat size
BOARD_X, BOARD_Y = 52, 54               # top-left corner of the grid (a10)
PANEL_X = BOARD_X + N_FILES * CELL + 48
PANEL_W = WIDTH - PANEL_X - 14
PIECE = round(CELL * 0.86)              # diameter of a single piece

PINK = (246, 143, 192)                  # light, so its numbers are dark: told from blue by lightness too
PIECE_FILL: dict[int, RGB] = {0: PIECE_RGB["blue"], 1: PINK}
LIGHT_SQUARE = (240, 228, 203)
DARK_SQUARE = (225, 207, 172)
LAST = TRACE                            # the last move's path
FOCUS = CHOICE                          # the focused piece and its reachable squares
REACH = blend(FOCUS, WHITE, 0.75)
PAIR_RING = (200, 160, 20)
MUTED = (120, 116, 110)
SLOT = (222, 218, 208)


# --- geometry in pixels --------------------------------------------------------

def square_box(square: int) -> tuple[int, int, int, int]:
    f, r = file_rank(square)
    x0 = BOARD_X + f * CELL
    y0 = BOARD_Y + (N_RANKS - 1 - r) * CELL   # rank 1 at the bottom (boards.md section 3)
    return x0, y0, x0 + CELL, y0 + CELL


def centre(square: int) -> tuple[float, float]:
    x0, y0, x1, y1 = square_box(square)
    return (x0 + x1) / 2, (y0 + y1) / 2


# The side panel, every word readable at chat size: per seat a name band across the panel (up to three
# lines: a name is never cut further than bot.domain.names cuts it), a line of the seat's numbers with the
# pairs made, and eight pair slots; then the draw counter, then notes (who won, the focused
# piece, the last move). `tall`: how many lines each seat's name takes.
TEXT_X, TEXT_W = PANEL_X + 14, PANEL_W - 28
TEXT = readable_size(WIDTH, bold=False)
SLOT_PITCH = TEXT_W // 4
LINE = line_step(TEXT)
PANEL_BOTTOM = HEIGHT - 16                  # inside the panel's frame
COUNTER_LINES = 2                           # "Turns without a new pair", wrapped
Tall = tuple[int, int]
NAME_W = TEXT_W + 6   # a name band across the panel: the pairs made are counted on the numbers' line below


def band(seat: int, tall: Tall) -> int:
    """The height of a seat's name band."""
    return tag_height(tall[seat], AXIS)


def seat_top(seat: int, tall: Tall) -> int:
    return 76 + sum(band(s, tall) + LINE + 2 * SLOT_PITCH + 14 for s in range(seat))


def parity_y(seat: int, tall: Tall) -> int:
    """The top of a seat's parity line, under its name."""
    return seat_top(seat, tall) + band(seat, tall) + 2


def slot_centre(seat: int, i: int, tall: Tall) -> tuple[float, float]:
    return TEXT_X + SLOT_PITCH * (i % 4 + 0.5), parity_y(seat, tall) - 2 + LINE + SLOT_PITCH * (i // 4 + 0.5)


def counter_y(tall: Tall) -> int:
    return seat_top(2, tall)


def counter_bar(tall: Tall) -> tuple[int, int, int, int]:
    y = counter_y(tall) + COUNTER_LINES * LINE
    return TEXT_X, y + 52, TEXT_X + TEXT_W, y + 66


def name_lines(tag: PlayerTag) -> list[str]:
    """A seat's name in its band, beside the pairs made, on as many lines as a name of
    bot.domain.names.NAME_LIMIT wide characters needs (readable_size cannot shrink)."""
    return tag_lines(tag, NAME_W, AXIS, 3)
