"""The cross board's geometry in pixels: the 19 x 19 grid (`Grid`), where each square, house, panel row,
house slot and goal slot is, and the names of squares and pieces as players read and type them."""
from __future__ import annotations

from bisect import bisect_right
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
from renderer.fonts import font, pixel_box, readable_size
from renderer.legend import tag_height
from renderer.writing import line_step

SIZE = 1024                    # posted size, px (square)
SAFE = (214, 214, 206)         # safe track squares
FOCUS = CHOICE                 # ring around the pawn the player is choosing
HIGHLIGHT = TRACE              # the moves traced
FADED = blend(TRACE, WHITE, 0.6)   # the older moves of a long absence (a step of the palette's TRACE-WHITE ramp)
RECENT = 4                     # the moves traced that lead (a round of four players' moves)
FADE = 0.72                    # houses not in play are faded this far towards PAPER
CLOSED_FRAME = 2               # px of a closed square's frame inside it


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


# The grid's columns (and rows alike), in steps (`Grid.cell`: a track square's length along its arm): the arms'
# three columns ACROSS steps wide, so that their squares are long rectangles across the arm (as printed Spanish
# boards draw them: two pieces stand side by side in one) and the houses hold only what they show; the house
# columns beside an arm, where the square numbers stand (two in a corner cell, one above the other), NUMBERS.
ACROSS, NUMBERS = 1.85, 1.2
# The numbers in a house's row are narrower than a step: drawn condensed to this fraction of their width.
CONDENSED = 0.8


@dataclass(frozen=True)
class Grid:
    """The 19 x 19 grid inside a margin that holds the numbers of the four squares at the middle of
    the board's edges; every other square's number stands in the house cell beside it. Its columns
    (and rows) are of three widths (ACROSS, NUMBERS, one step)."""

    size: int
    geo: Cross68
    teams: bool = False   # 2 vs 2: each house panel names the partner on a line of its own
    tall: frozenset[str] = frozenset()   # the houses whose owner's name takes two lines (tag_lines)
    long_partner: frozenset[str] = frozenset()   # the houses whose partner line takes two
    taller: frozenset[str] = frozenset()   # the houses whose owner's name takes three lines

    @cached_property
    def margin(self) -> int:
        return round(font(number_size(self.size), True).getlength("88") + self.size / 200)

    @cached_property
    def widths(self) -> tuple[float, ...]:
        """Each column's (and row's) width in steps."""
        middle = (self.geo.grid_size + 1) // 2
        return tuple(ACROSS if abs(c - middle) <= 1 else NUMBERS if abs(c - middle) == 2 else 1.0
                     for c in range(1, self.geo.grid_size + 1))

    @cached_property
    def step(self) -> float:
        return (self.size - 2 * self.margin) / sum(self.widths)

    @cached_property
    def cell(self) -> int:
        """A step in whole pixels: a track square's short side, what the sizes of pieces and lines follow."""
        return int(self.step)

    @cached_property
    def edges(self) -> tuple[int, ...]:
        """The pixel x (and y) of the grid's lines, left to right: edges[c - 1] and edges[c] bound column c."""
        found, at = [], (self.size - self.step * sum(self.widths)) / 2
        for width in (0.0, *self.widths):
            at += width * self.step
            found.append(round(at))
        return tuple(found)

    @cached_property
    def origin(self) -> int:
        return self.edges[0]

    def box(self, c: int, r: int, c1: int | None = None, r1: int | None = None) -> Box:
        """Pixel box of cell (c, r), or of the block of cells (c, r)..(c1, r1)."""
        e = self.edges
        c1, r1 = c if c1 is None else c1, r if r1 is None else r1
        return e[c - 1], e[r - 1], e[c1], e[r1]

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
        middle, outer, inner = (self.geo.grid_size + 1) / 2, self.cell * 0.3, self.cell * (NUMBERS + 0.25)
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
        return bisect_right(self.edges, xy[0]), bisect_right(self.edges, xy[1])


def number_mask(square: int, box: Box, size: int) -> Image.Image:
    """A square's number as static_board inks it in `box` on a picture `size` px wide: centred, condensed where
    the box is narrower than the number (a house's row, CONDENSED at most)."""
    number_font, text = font(number_size(size), True), str(square)
    left, top, right, bottom = pixel_box(number_font, text, anchor="lt")
    drawn = Image.new("L", (right - left, bottom - top))
    ImageDraw.Draw(drawn).text((-left, -top), text, font=number_font, fill=255, anchor="lt")
    w, h = box[2] - box[0], box[3] - box[1]
    room = w - 4 * size / SIZE
    if drawn.width > room:
        drawn = drawn.resize((max(round(drawn.width * CONDENSED), round(room)), drawn.height),
                             Image.Resampling.LANCZOS)
    mask = Image.new("L", (w, h))
    mask.paste(drawn, (round((w - drawn.width) / 2), round((h - drawn.height) / 2)))
    return mask


@lru_cache(maxsize=8)
def number_ink(size: int) -> dict[int, Box]:
    """Where each track square's number is inked (as static_board writes it): the box of its label."""
    inks = {}
    for square, box in Grid(size, board()).number_boxes().items():
        left, top, right, bottom = number_mask(square, box, size).getbbox() or (0, 0, 0, 0)
        inks[square] = (box[0] + left, box[1] + top, box[0] + right, box[1] + bottom)
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
    lines = 3 if route in layout.taller else 2 if route in layout.tall else 1
    status = y0 + pad + tag_height(lines, size) + 2
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


def goal_pitch(layout: Grid) -> float:
    """The distance between two pieces in the goal."""
    x0, _, x1, _ = layout.goal_box()
    return (x1 - x0) / 2 / 2.6


def goal_slots(layout: Grid, route: str, n: int) -> list[tuple[float, float]]:
    """Rows parallel to the triangle's base (4, then 3, 2, 1 towards the tip), each centred."""
    x0, y0, x1, y1 = layout.goal_box()
    half = (x1 - x0) / 2
    dx, dy = layout.goal_side(route)
    pitch = goal_pitch(layout)
    slots: list[tuple[float, float]] = []
    for row, capacity in enumerate((4, 3, 2, 1, n)):
        count = min(capacity, n - len(slots))
        depth = half - pitch * (0.6 + min(row, 3) * 0.85)      # distance from the centre
        for i in range(count):
            along = (i - (count - 1) / 2) * pitch
            slots.append(((x0 + x1) / 2 + dx * depth + abs(dy) * along, (y0 + y1) / 2 + dy * depth + abs(dx) * along))
    return slots
