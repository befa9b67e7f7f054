"""The cross board's geometry in pixels: the 19 x 19 grid (`Grid`), where each square, house, panel row,
house slot and goal slot is, and the names of squares and pieces as players read and type them."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from PIL import Image, ImageDraw

from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK, Cross68, ScenePawn, board
from renderer.colours import (
    CHOICE,
    PAPER,
    PIECE_RGB,
    RGB,
    TRACE,
    WHITE,
    Box,
    blend,
)
from renderer.fonts import font, readable_size
from renderer.legend import tag_height
from renderer.writing import line_step

SIZE = 1024                    # posted size, px (square)
SAFE = (214, 214, 206)         # safe track squares
FOCUS = CHOICE                 # ring around the pawn the player is choosing
HIGHLIGHT = TRACE              # the moves traced
FADE = 0.72                    # houses not in play are faded this far towards PAPER
CLOSED_FRAME = 2               # px of a closed square's frame inside it
NUMBER_SHIFT = 3.5             # px
SHARED_PIECE = 11.5            # px, at chat size, of a piece's short side where two share a square (11 at least)


def tint(colour: str) -> RGB:
    """The light shade of a colour used for its corridor."""
    return blend(PIECE_RGB[colour], WHITE, 0.55)


def number_tile(colour: str, in_play: bool) -> RGB:
    """The ground of the square numbers written in a house (ink on it reads on every colour)."""
    light = blend(PIECE_RGB[colour], WHITE, 0.7)
    return light if in_play else blend(light, PAPER, FADE)


# --- geometry in pixels --------------------------------------------------------

def number_size(size: int) -> int:
    """The font size of the square numbers: readable at chat size (renderer.fonts.readable_size)."""
    return readable_size(size)


@dataclass(frozen=True)
class Grid:
    """The 19 x 19 grid inside a margin that holds the numbers of the four squares at the middle of
    the board's edges; every other square's number stands in the house cell beside it."""

    size: int
    geo: Cross68
    teams: bool = False   # 2 vs 2: each house panel names the partner on a line of its own
    tall: frozenset[str] = frozenset()   # the houses whose owner's name takes two lines (tag_lines)
    long_partner: frozenset[str] = frozenset()   # the houses whose partner line takes two

    @cached_property
    def margin(self) -> int:
        return round(font(number_size(self.size), True).getlength("88") + self.size / 200)

    @cached_property
    def cell(self) -> int:
        return (self.size - 2 * self.margin) // self.geo.grid_size

    @cached_property
    def origin(self) -> int:
        return (self.size - self.cell * self.geo.grid_size) // 2

    def box(self, c: int, r: int, c1: int | None = None, r1: int | None = None) -> Box:
        """Pixel box of cell (c, r), or of the block of cells (c, r)..(c1, r1)."""
        o, s = self.origin, self.cell
        c1, r1 = c if c1 is None else c1, r if r1 is None else r1
        return o + (c - 1) * s, o + (r - 1) * s, o + c1 * s, o + r1 * s

    def centre(self, cell: tuple[int, int]) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box(*cell)
        return (x0 + x1) / 2, (y0 + y1) / 2

    def goal_box(self) -> Box:
        """The goal: the block the corridors lead into, one step past each corridor's end."""
        ends = [_step_past(cells) for cells in self.geo.corridor_cells.values()]
        cs, rs = [c for c, _ in ends], [r for _, r in ends]
        return self.box(min(cs), min(rs), max(cs), max(rs))

    def goal_side(self, route: str) -> tuple[int, int]:
        """Unit (dc, dr) pointing from the goal's centre towards where `route`'s corridor enters."""
        cells = self.geo.corridor_cells[route]
        return cells[-2][0] - cells[-1][0], cells[-2][1] - cells[-1][1]

    def house_box(self, route: str) -> Box:
        (c0, r0), (c1, r1) = self.geo.houses[route]
        return self.box(c0, r0, c1, r1)

    def panel_box(self, route: str) -> Box:
        """The white panel inside a house holding its name, pawns, dice and notes: clear of the
        numbers along the two sides that face the arms."""
        (c0, r0), (c1, r1) = self.geo.houses[route]
        x0, y0, x1, y1 = self.house_box(route)
        middle, outer, inner = (self.geo.grid_size + 1) / 2, self.cell * 0.3, self.cell * 1.25
        left, right = (outer, inner) if c1 < middle else (inner, outer)
        top, bottom = (outer, inner) if r1 < middle else (inner, outer)
        return round(x0 + left), round(y0 + top), round(x1 - right), round(y1 - bottom)

    def number_boxes(self) -> dict[int, Box]:
        """Where each track square's number stands: in the house cell beside it (two squares that
        share a corner cell get a half each, the square below or above it the nearer half), or,
        for the squares at the middle of the board's edges, in the margin beyond them."""
        geo, grid = self.geo, self.geo.grid_size
        houses = [(c0, r0, c1, r1) for (c0, r0), (c1, r1) in geo.houses.values()]
        claims: dict[tuple[int, int], list[tuple[int, int, int]]] = defaultdict(list)
        boxes: dict[int, Box] = {}
        for square, (c, r) in geo.track_cells.items():
            for dc, dr in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                n = (c + dc, r + dr)
                if any(c0 <= n[0] <= c1 and r0 <= n[1] <= r1 for c0, r0, c1, r1 in houses):
                    claims[n].append((square, dc, dr))
                    break
            else:
                x0, y0, x1, y1 = self.box(c, r)
                m = self.margin
                boxes[square] = ((x0 - m, y0, x0, y1) if c == 1 else (x1, y0, x1 + m, y1) if c == grid
                                 else (x0, y0 - m, x1, y0) if r == 1 else (x0, y1, x1, y1 + m))
        for cell, squares in claims.items():
            x0, y0, x1, y1 = self.box(*cell)
            if len(squares) == 1:
                boxes[squares[0][0]] = (x0, y0, x1, y1)
                continue
            ym = (y0 + y1) // 2
            for square, _dc, dr in squares:
                near_bottom = dr == -1 if dr else not any(d == -1 for _, _, d in squares)
                boxes[square] = (x0, ym, x1, y1) if near_bottom else (x0, y0, x1, ym)
        return boxes

    def cell_at(self, xy: tuple[float, float]) -> tuple[int, int]:
        """The grid cell (column, row) holding the point `xy`."""
        return int((xy[0] - self.origin) // self.cell) + 1, int((xy[1] - self.origin) // self.cell) + 1


@lru_cache(maxsize=8)
def number_ink(size: int) -> dict[int, Box]:
    """Where each track square's number is inked (as static_board writes it): the box of its label."""
    layout, number_font, inks = Grid(size, board()), font(number_size(size), True), {}
    for square, (x0, y0, x1, y1) in layout.number_boxes().items():
        ink = Image.new("L", (x1 - x0, y1 - y0))
        ImageDraw.Draw(ink).text(((x1 - x0) / 2, (y1 - y0) / 2), str(square), font=number_font, fill=255, anchor="mm")
        left, top, right, bottom = ink.getbbox() or (0, 0, 0, 0)
        inks[square] = (x0 + left, y0 + top, x0 + right, y0 + bottom)
    return inks


def _step_past(cells: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    (c0, r0), (c1, r1) = cells[-2], cells[-1]
    return 2 * c1 - c0, 2 * r1 - r0


def goal_triangle(layout: Grid, route: str) -> list[tuple[float, float]]:
    """The goal's triangle on `route`'s side: its base on that side, its tip at the centre."""
    x0, y0, x1, y1 = layout.goal_box()
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    dx, dy = layout.goal_side(route)
    half = (x1 - x0) / 2
    bx, by = cx + dx * half, cy + dy * half          # middle of the base
    return [(bx - dy * half, by - dx * half), (bx + dy * half, by + dx * half), (cx, cy)]


# --- names of squares and pieces, as players read and type them ---------------------

def square_ref(geo: Cross68, route: str, progress: int) -> str:
    """A track square's bare number ("5"); a corridor square names its colour ("yellow H3")."""
    if progress == HOUSE:
        return f"{route} house"
    if progress >= GOAL:
        return "goal"
    if progress <= LAST_TRACK:
        return str(geo.track_square(route, progress))
    return f"{route} H{progress - LAST_TRACK}"


def piece_ref(pawn: ScenePawn) -> str:
    """As move codes name it: colour initial and number ("Y2")."""
    return f"{pawn.colour[0].upper()}{pawn.label}"


def cell_of(geo: Cross68, route: str, progress: int) -> tuple[int, int]:
    if progress <= LAST_TRACK:
        return geo.track_cells[geo.track_square(route, progress)]
    return geo.corridor_cells[route][progress - LAST_TRACK - 1]


def spot_of(layout: Grid, route: str, progress: int) -> tuple[float, float]:
    """Centre of a square of `route` (house: its first pawn slot; goal: the route's triangle)."""
    if progress == HOUSE:
        return house_slots(layout, route, 4)[0]
    if progress >= GOAL:
        pts = goal_triangle(layout, route)
        return sum(x for x, _ in pts) / 3, sum(y for _, y in pts) / 3
    return layout.centre(cell_of(layout.geo, route, progress))


# --- a house panel: name, goal count and partner, pawns at home, dice, notes -----------

def panel_rows(layout: Grid, route: str) -> tuple[float, float]:
    """The panel's rows under the name: where the status lines and the pawns at home begin (the
    notes follow the pawns, or the dice beside them)."""
    x0, y0, x1, y1 = layout.panel_box(route)
    pad, size = layout.cell // 5, readable_size(layout.size)
    status = y0 + pad + tag_height(2 if route in layout.tall else 1, size) + 2
    return status, status + line_step(size) * (1 + layout.teams + (route in layout.long_partner)) + 2


def house_pitch(layout: Grid) -> float:
    return layout.cell * 0.98


def house_slots(layout: Grid, route: str, n: int) -> list[tuple[float, float]]:
    """Slots for the `n` pawns of a route at home: rows of four at the left of the panel, under
    its status line (the dice stand on their right)."""
    x0, _, _, _ = layout.panel_box(route)
    _, top = panel_rows(layout, route)
    pitch = house_pitch(layout)
    return [(x0 + layout.cell // 5 + pitch * (i % 4 + 0.5), top + pitch * (i // 4 + 0.5)) for i in range(max(n, 4))]


def back_to_front(geo: Cross68, pawns: Sequence[ScenePawn]) -> list[ScenePawn]:
    """The pieces back to front: by colour, then number."""
    return sorted(pawns, key=lambda p: (geo.colours.index(p.colour) if p.colour in geo.colours else 9, p.label))


def home_slots(layout: Grid, pawns: Sequence[ScenePawn]) -> dict[str, tuple[float, float]]:
    """Each piece's own slot in its route's house, by its name ("Y2"), whether it is at home now or not: a
    piece brought out is traced from it, a piece sent home to it."""
    order, found = back_to_front(layout.geo, pawns), dict[str, tuple[float, float]]()
    for route in dict.fromkeys(p.route for p in order):
        members = [p for p in order if p.route == route]
        found.update(zip(map(piece_ref, members), house_slots(layout, route, len(members))))
    return found


def goal_slots(layout: Grid, route: str, n: int) -> list[tuple[float, float]]:
    """Rows parallel to the triangle's base (4, then 3, 2, 1 towards the tip), each centred."""
    x0, y0, x1, y1 = layout.goal_box()
    half = (x1 - x0) / 2
    dx, dy = layout.goal_side(route)
    pitch = half / 2.6
    slots: list[tuple[float, float]] = []
    for row, capacity in enumerate((4, 3, 2, 1, n)):
        count = min(capacity, n - len(slots))
        depth = half - pitch * (0.6 + min(row, 3) * 0.85)      # distance from the centre
        for i in range(count):
            along = (i - (count - 1) / 2) * pitch
            slots.append(((x0 + x1) / 2 + dx * depth + abs(dy) * along, (y0 + y1) / 2 + dy * depth + abs(dx) * along))
    return slots
