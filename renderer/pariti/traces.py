"""What Pariti's board traces: the last move's path (round the pieces), the ways a chosen piece can go."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from PIL import Image

from bot.games.pariti import (
    is_step,
)
from renderer.colours import INK, RGB
from renderer.pariti.geometry import CELL, FOCUS, LAST, PIECE, REACH, centre, square_box
from renderer.plan import FloatBox
from renderer.sheet import Sheet


def span(path: Sequence[int]) -> FloatBox:
    boxes = [square_box(s) for s in path]
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def paint_piece(sheet: Sheet, square: int, sprite: Image.Image, chosen: bool) -> None:
    if chosen:   # the chosen piece: its square framed (its destinations are tinted, their pieces ringed)
        x0, y0, x1, y1 = square_box(square)
        sheet.draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=FOCUS, width=7)
    sheet.paste(sprite, centre(square))


def tint_square(sheet: Sheet, square: int) -> None:
    x0, y0, x1, y1 = square_box(square)
    sheet.draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=REACH, outline=FOCUS, width=3)


def draw_tree_path(sheet: Sheet, path: tuple[int, ...], strokes: list[list[tuple[float, float]]]) -> None:
    """A jump chain the focused piece can make, under the pieces: a thin line
    through its landings (`strokes`: apart round their names), a dot on each landing it goes on from."""
    if strokes:
        sheet.arrow(strokes[-1], FOCUS, 4, lead=strokes[:-1])
    for square in path[1:-1]:
        dot(sheet, *centre(square), 6, FOCUS)


def draw_last_move(sheet: Sheet, path: tuple[int, ...], strokes: Sequence[Sequence[tuple[float, float]]]) -> None:
    """Under the pieces: the start square outlined, then the arrow along `strokes` (last_move_line, apart round
    the names of the squares a chosen piece can reach); a dot on each landing in between."""
    x0, y0, x1, y1 = square_box(path[0])
    sheet.draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=LAST, width=6)
    if strokes:
        sheet.arrow(strokes[-1], LAST, 8, lead=strokes[:-1])
    for square in path[1:-1]:
        dot(sheet, *centre(square), 11, LAST)


def last_move_line(board: tuple[int, ...], path: tuple[int, ...]) -> list[tuple[float, float]]:
    """The last move's arrow: it steps straight or, jump by jump, arcs beside each jumped piece (PA-4.2,
    PA-4.3), its tip at the edge of the moved piece."""
    points = [centre(path[0])]
    for a, b in zip(path, path[1:]):
        if is_step((a, b)):
            points.append(centre(b))
        else:
            # Of the two arcs, the one that crosses fewer other pieces.
            others = [centre(sq) for sq, code in enumerate(board) if code and sq not in (a, b, (a + b) // 2)]
            points += min((_arc(a, b, side) for side in (1, -1)), key=lambda arc: crossings_of(arc, others))
    (ex, ey), reach = centre(path[-1]), PIECE / 2 + 4
    outside = [(x, y) for x, y in points if (x - ex) ** 2 + (y - ey) ** 2 > reach ** 2]
    lx, ly = outside[-1]
    scale = reach / ((lx - ex) ** 2 + (ly - ey) ** 2) ** 0.5
    return outside + [(ex + (lx - ex) * scale, ey + (ly - ey) * scale)]


def _arc(a: int, b: int, side: int) -> list[tuple[float, float]]:
    """Points of a jump from a to b (a excluded): a quadratic curve whose
    control point lies 1.1 cells to one side, so that its apex passes 0.55
    cell from the jumped piece's centre."""
    (ax, ay), (bx, by) = centre(a), centre(b)
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    cx = (ax + bx) / 2 + side * (by - ay) / length * CELL * 1.1
    cy = (ay + by) / 2 - side * (bx - ax) / length * CELL * 1.1
    return [
        ((1 - t) ** 2 * ax + 2 * t * (1 - t) * cx + t * t * bx, (1 - t) ** 2 * ay + 2 * t * (1 - t) * cy + t * t * by)
        for t in (i / 12 for i in range(1, 13))
    ]


def crossings_of(points: Iterable[tuple[float, float]], pieces: list[tuple[float, float]]) -> int:
    near = (PIECE / 2 + 6) ** 2
    return sum(1 for x, y in points for px, py in pieces if (x - px) ** 2 + (y - py) ** 2 < near)


def dot(sheet: Sheet, x: float, y: float, r: float, colour: RGB) -> None:
    sheet.draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=INK, width=2)
