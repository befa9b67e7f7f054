"""The static Barricade board, drawn once per colour set: lines, points, goal, start areas, the grid's letters
and numbers; the barricade's sprite."""
from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from bot.games.barricade.board import Board
from renderer.barricade.geometry import (
    AXIS,
    BAR_RGB,
    FREE_RGB,
    GOAL_RGB,
    HIGHLIGHT,
    LAST_MOVE_RGB,
    LINE_RGB,
    PAWN_R,
    POINT_R,
    RING_R,
    START_LINE_RGB,
    WIDTH,
    axis_spots,
    centre,
    height,
    slot_centres,
    tint,
)
from renderer.colours import (
    DIE_SPENT,
    INK,
    PAPER,
    PIECE_RGB,
    PIP_SPENT,
    RGB,
    TO_MOVE_BAND,
    WHITE,
    shape_of,
)
from renderer.fonts import font
from renderer.sheet import StaticBoard, make_palette
from renderer.sprites import SUPERSAMPLE, draw_shape


def _circle(draw: ImageDraw.ImageDraw, xy: tuple[int, int], r: int, fill: RGB, outline: RGB, width: int) -> None:
    x, y = xy
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)


def _label(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, size: int, fill: RGB) -> None:
    draw.text(xy, text, font=font(size, True), fill=fill, anchor="mm")


@cache
def _palette() -> Image.Image:
    colours = list(PIECE_RGB.values())
    tints = [tint(c) for c in colours]
    grounds = [PAPER, WHITE, START_LINE_RGB, GOAL_RGB, TO_MOVE_BAND, DIE_SPENT, *tints]
    solid = [INK, BAR_RGB, LINE_RGB, LAST_MOVE_RGB, FREE_RGB, HIGHLIGHT, PIP_SPENT, *grounds, *colours]
    ramps = [(INK, g) for g in grounds] + [(LINE_RGB, PAPER)]
    ramps += [(WHITE, c) for c in colours + [BAR_RGB]] + [(INK, c) for c in colours] + \
        [(c, t) for c, t in zip(colours, tints)]
    ramps += [(c, g) for c in (HIGHLIGHT, LAST_MOVE_RGB, FREE_RGB) for g in (PAPER, WHITE, START_LINE_RGB)]
    return make_palette(solid, ramps, steps=3)


@cache
def static_board(board: Board, colours: tuple[str, ...], finished: bool = False) -> StaticBoard:
    im = Image.new("RGB", (WIDTH, height(len(colours), board, finished)), PAPER)
    draw = ImageDraw.Draw(im)
    for a, b in board.lines():
        draw.line((centre(board, a), centre(board, b)), fill=LINE_RGB, width=5)
    entries = {board.entry[c]: c for c in colours}
    for p in range(len(board.names)):
        xy = centre(board, p)
        if p == board.goal:   # a star: not a round yellow piece, whatever the eye
            draw.polygon(_star(xy, RING_R + 12), fill=GOAL_RGB, outline=INK, width=3)
        elif p in entries:
            _circle(draw, xy, POINT_R + 2, fill=tint(PIECE_RGB[entries[p]]), outline=PIECE_RGB[entries[p]], width=5)
        else:
            _circle(draw, xy, POINT_R, fill=START_LINE_RGB if p in board.start_line else WHITE, outline=INK, width=2)
    for xy, text in dict.fromkeys(spot for p in range(len(board.names)) for spot in axis_spots(board, p)):
        _label(draw, xy, text, AXIS, INK)   # every column's letter and every row's number, twice
    for colour in colours:
        slots = slot_centres(board, colour)
        (x0, y0), (x1, _) = slots[0], slots[-1]
        draw.rounded_rectangle((x0 - 24, y0 - 24, x1 + 24, y0 + 24), radius=14, fill=tint(PIECE_RGB[colour]),
                               outline=PIECE_RGB[colour], width=3)
        for x, y in slots:
            draw_shape(draw, shape_of(colour), (x - 15, y - 15, x + 15, y + 15), outline=PIECE_RGB[colour], width=2)
    return StaticBoard.build(im, _palette())


def _star(xy: tuple[int, int], r: float) -> list[tuple[float, float]]:
    """A five-pointed star of outer radius `r`, a point up."""
    x, y = xy
    return [(x + (r if i % 2 == 0 else r * 0.5) * math.sin(i * math.pi / 5),
             y - (r if i % 2 == 0 else r * 0.5) * math.cos(i * math.pi / 5)) for i in range(10)]


@cache
def barricade_sprite(side: int = 2 * PAWN_R) -> Image.Image:
    """A barricade (antialiased RGBA)."""
    k = SUPERSAMPLE
    big = Image.new("RGBA", (side * k, side * k), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle((0, 0, side * k - 1, side * k - 1), radius=7 * k, fill=BAR_RGB, outline=WHITE,
                                          width=3 * k)
    return big.reduce(k)
