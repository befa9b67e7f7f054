"""The 68-square cross board (parcheesi, parcheesi-classic, parchis-maghreb).

Geometry comes only from data/boards/cross68.json through
bot.games.parcheesi.board.board(); what stands where comes from
`ruleset.board_view(state)`. The static board (cross, numbers, houses, goal)
is drawn once per size and set of houses in play; each picture pastes the
pawns, the last move, the dice and the players onto it (renderer.common).

Each house carries its player's name (the legend), the pawns waiting in it,
and, for whoever must act, the dice and the notes.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property, lru_cache
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot import i18n
from bot.games.base import Ruleset
from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK, BoardView, Cross68, PawnView, board
from renderer.common import (
    CHOICE, DIE_SPENT, INK, PAPER, PIP_SPENT, PIECE_RGB, RGB, SUPERSAMPLE, TO_MOVE_BAND, TRACE, WHITE, Box, PlayerTag, Sheet,
    StaticBoard, blend, die_sprite, disc_sprite, draw_shape, encode_png, font, ink_on, label_reach, line_step,
    make_palette, piece_meets, piece_reach, readable_size, result_text, shape_of, text_length, wrap_text,
)

SIZE = 1024                    # posted size, px (square)
SAFE = (214, 214, 206)         # safe track squares
FOCUS = CHOICE                 # ring around the pawn the player is choosing
HIGHLIGHT = TRACE              # the moves traced
FADE = 0.72                    # houses not in play are faded this far towards PAPER
# Rulesets in which any two pieces on a square close it (MG-8.1), not only two of one side.
ANY_PAIR_BLOCKS = frozenset({"parchis-maghreb"})


def tint(colour: str) -> RGB:
    """The light shade of a colour used for its corridor."""
    return blend(PIECE_RGB[colour], WHITE, 0.55)


def number_tile(colour: str, in_play: bool) -> RGB:
    """The ground of the square numbers written in a house (ink on it reads on every colour)."""
    light = blend(PIECE_RGB[colour], WHITE, 0.7)
    return light if in_play else blend(light, PAPER, FADE)


# --- geometry in pixels --------------------------------------------------------

def number_size(size: int) -> int:
    """The font size of the square numbers: readable at chat size (renderer.common.readable_size)."""
    return readable_size(size)


@dataclass(frozen=True)
class Layout:
    """The 19 x 19 grid inside a margin that holds the numbers of the four squares at the middle of
    the board's edges; every other square's number stands in the house cell beside it."""

    size: int
    geo: Cross68

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
            for square, dc, dr in squares:
                near_bottom = dr == -1 if dr else not any(d == -1 for _, _, d in squares)
                boxes[square] = (x0, ym, x1, y1) if near_bottom else (x0, y0, x1, ym)
        return boxes

    def cell_at(self, xy: tuple[float, float]) -> tuple[int, int]:
        """The grid cell (column, row) holding the point `xy`."""
        return int((xy[0] - self.origin) // self.cell) + 1, int((xy[1] - self.origin) // self.cell) + 1


Side = tuple[int, int]   # (dc, dr): one step right, left, down or up
SIDES: tuple[Side, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True)
class SpreadRoom:
    """Where the pawns sharing a square may spread (see _spread)."""

    sides: dict[tuple[int, int], tuple[tuple[int, Side], ...]]   # per track or corridor cell, best first, ranked
    numbers: tuple[Box, ...]                                       # the square numbers' ink, never to cover


@lru_cache(maxsize=8)
def _spread_room(size: int) -> SpreadRoom:
    """For every track and corridor cell, the sides its pawns may spread into when they share it,
    best first, each with its rank: 0 beyond the grid (an empty margin), 1 a corridor (rarely
    occupied), 2 the goal (a pawn there would seem to have arrived), 3 a track square. Never a
    house (the square numbers stand there) nor the side where the square's own number stands."""
    layout = Layout(size, board())
    geo, grid = layout.geo, layout.geo.grid_size
    houses = [(c0, r0, c1, r1) for (c0, r0), (c1, r1) in geo.houses.values()]
    track = {cell: square for square, cell in geo.track_cells.items()}
    open_cells = {cell for cells in geo.corridor_cells.values() for cell in cells}
    gx0, gy0, gx1, gy1 = layout.goal_box()
    boxes = layout.number_boxes()
    sides = {}
    for cell in [*track, *open_cells]:
        ranked = []
        for i, (dc, dr) in enumerate(SIDES):
            c, r = cell[0] + dc, cell[1] + dr
            x, y = layout.centre((c, r))
            nx0, ny0, nx1, ny1 = boxes.get(track.get(cell, 0), (0, 0, 0, 0))
            if any(c0 <= c <= c1 and r0 <= r <= r1 for c0, r0, c1, r1 in houses) or (nx0 < x < nx1 and ny0 < y < ny1):
                continue
            beyond = not (1 <= c <= grid and 1 <= r <= grid)
            rank = 0 if beyond else 1 if (c, r) in open_cells else 2 if gx0 < x < gx1 and gy0 < y < gy1 else 3
            ranked.append((rank, i))
        sides[cell] = tuple((rank, SIDES[i]) for rank, i in sorted(ranked))
    number_font = font(number_size(size), True)
    numbers = []
    for square, (x0, y0, x1, y1) in boxes.items():   # the ink, as _static writes it
        ink = Image.new("L", (x1 - x0, y1 - y0))
        ImageDraw.Draw(ink).text(((x1 - x0) / 2, (y1 - y0) / 2), str(square), font=number_font, fill=255, anchor="mm")
        left, top, right, bottom = ink.getbbox() or (0, 0, 0, 0)
        numbers.append((x0 + left, y0 + top, x0 + right, y0 + bottom))
    return SpreadRoom(sides, tuple(numbers))


def _step_past(cells: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    (c0, r0), (c1, r1) = cells[-2], cells[-1]
    return 2 * c1 - c0, 2 * r1 - r0


# --- the static board -----------------------------------------------------------

def _palette(geo: Cross68) -> Image.Image:
    colours = [PIECE_RGB[c] for c in geo.colours]
    tints = [tint(c) for c in geo.colours]
    faded = [blend(c, PAPER, FADE) for c in colours]
    tiles = [number_tile(c, played) for c in geo.colours for played in (True, False)]
    grounds = [PAPER, WHITE, SAFE, TO_MOVE_BAND, DIE_SPENT, *colours, *tints, *faded, *tiles]
    solid = [INK, HIGHLIGHT, FOCUS, PIP_SPENT, *grounds, blend(WHITE, PAPER, FADE), blend(INK, PAPER, FADE)]
    ramps = [(INK, g) for g in grounds] + [(HIGHLIGHT, g) for g in grounds[:3] + colours + tints]
    ramps += [(FOCUS, g) for g in grounds[:3] + colours + tints] + [(WHITE, c) for c in colours]
    ramps += [(INK, HIGHLIGHT), (INK, FOCUS), (INK, blend(WHITE, PAPER, FADE))]
    return make_palette(solid, ramps, steps=4)


@lru_cache(maxsize=8)
def _static(size: int, in_play: frozenset[str]) -> StaticBoard:
    """The board without pieces; houses whose colour is not in play are faded."""
    geo = board()
    k = SUPERSAMPLE // 2            # drawn larger, then reduced: antialiased lines and text
    big = Layout(size * k, geo)
    image = Image.new("RGB", (size * k, size * k), PAPER)
    draw = ImageDraw.Draw(image)
    line = max(2, big.cell // 30)
    houses = {route: (c0, r0, c1, r1) for route, ((c0, r0), (c1, r1)) in geo.houses.items()}
    for route in geo.colours:
        fill = PIECE_RGB[route] if route in in_play else blend(PIECE_RGB[route], PAPER, FADE)
        draw.rectangle(big.house_box(route), fill=fill, outline=INK, width=line)
        panel = WHITE if route in in_play else blend(WHITE, PAPER, FADE)
        draw.rounded_rectangle(big.panel_box(route), radius=big.cell // 3, fill=panel, outline=INK, width=line)
    for x0, y0, x1, y1 in big.number_boxes().values():   # the numbers' tiles, light on the house colours
        x, y = (x0 + x1) / 2, (y0 + y1) / 2
        c, r = (x - big.origin) // big.cell + 1, (y - big.origin) // big.cell + 1
        route = next((h for h, (c0, r0, c1, r1) in houses.items() if c0 <= c <= c1 and r0 <= r <= r1), None)
        if route is not None:
            draw.rectangle((x0, y0, x1, y1), fill=number_tile(route, route in in_play), outline=INK, width=max(1, line // 2))
    number_font = font(number_size(big.size), True)
    numbers = big.number_boxes()
    for square, cell in geo.track_cells.items():
        starts = [c for c, s in geo.start_square.items() if s == square]
        x0, y0, x1, y1 = big.box(*cell)
        draw.rectangle((x0, y0, x1, y1), fill=_ground(geo, square), outline=INK, width=line)
        if starts:   # the colour's shape, a cue that survives colour blindness
            r = big.cell * 0.36
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            draw_shape(draw, shape_of(starts[0]), (cx - r, cy - r, cx + r, cy + r), outline=WHITE, width=line * 2)
        elif square in geo.safe_squares:   # a ring marks every safe square
            r, cx, cy = big.cell * 0.36, (x0 + x1) / 2, (y0 + y1) / 2
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=INK, width=line)
        nx0, ny0, nx1, ny1 = numbers[square]
        draw.text(((nx0 + nx1) / 2, (ny0 + ny1) / 2), str(square), font=number_font, fill=INK, anchor="mm")
    for colour, cells in geo.corridor_cells.items():
        for cell in cells:
            draw.rectangle(big.box(*cell), fill=tint(colour), outline=INK, width=line)
    gx0, gy0, gx1, gy1 = big.goal_box()
    centre = ((gx0 + gx1) / 2, (gy0 + gy1) / 2)
    for colour in geo.colours:
        draw.polygon(_triangle(big, colour), fill=PIECE_RGB[colour], outline=INK, width=line)
    draw.rectangle((gx0, gy0, gx1, gy1), outline=INK, width=line)
    draw.ellipse((centre[0] - line * 3, centre[1] - line * 3, centre[0] + line * 3, centre[1] + line * 3), fill=INK)
    rgb = image.reduce(k)
    return StaticBoard.build(rgb, _palette(geo))


def _ground(geo: Cross68, square: int) -> RGB:
    """A track square's colour: its colour's on a start square, grey on a safe one, else white."""
    starts = [c for c, s in geo.start_square.items() if s == square]
    return PIECE_RGB[starts[0]] if starts else SAFE if square in geo.safe_squares else WHITE


def _triangle(layout: Layout, route: str) -> list[tuple[float, float]]:
    """The goal's triangle on `route`'s side: its base on that side, its tip at the centre."""
    x0, y0, x1, y1 = layout.goal_box()
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    dx, dy = layout.goal_side(route)
    half = (x1 - x0) / 2
    bx, by = cx + dx * half, cy + dy * half          # middle of the base
    return [(bx - dy * half, by - dx * half), (bx + dy * half, by + dx * half), (cx, cy)]


# --- where pawns stand -----------------------------------------------------------

def _cell(geo: Cross68, route: str, progress: int) -> tuple[int, int]:
    if progress <= LAST_TRACK:
        return geo.track_cells[geo.track_square(route, progress)]
    return geo.corridor_cells[route][progress - LAST_TRACK - 1]


def _spot(layout: Layout, route: str, progress: int) -> tuple[float, float]:
    """Centre of where a pawn at `progress` is drawn (house and goal: their middle)."""
    if progress == HOUSE:   # the left of the panel, under the name (the dice go on the right)
        x0, y0, x1, y1 = layout.panel_box(route)
        return x0 + layout.cell * 1.7, y0 + layout.cell * 2.9
    if progress >= GOAL:
        pts = _triangle(layout, route)
        return sum(x for x, _ in pts) / 3, sum(y for _, y in pts) / 3
    return layout.centre(_cell(layout.geo, route, progress))


def _house_slots(layout: Layout, route: str, n: int) -> list[tuple[float, float]]:
    """Slots for the `n` pawns of a route: 2 x 2 for four, rows of four (across the panel) for more."""
    cols = 2 if n <= 4 else 4
    pitch = layout.cell * (1.3 if n <= 4 else 1.15)
    cx, cy = _spot(layout, route, HOUSE)
    if n > 4:
        x0, _, x1, _ = layout.panel_box(route)
        cx = (x0 + x1) / 2 - layout.cell * 0.6   # clear of the dice on the right
    return [(cx + (i % cols - (cols - 1) / 2) * pitch, cy + (i // cols - 0.5) * pitch) for i in range(n)]


def _goal_slots(layout: Layout, route: str, n: int) -> list[tuple[float, float]]:
    """Rows parallel to the triangle's base (4, then 3, 2, 1 towards the tip), each centred."""
    x0, y0, x1, y1 = layout.goal_box()
    half = (x1 - x0) / 2
    dx, dy = layout.goal_side(route)
    pitch = half / 2.6
    slots = []
    for row, capacity in enumerate((4, 3, 2, 1, n)):
        count = min(capacity, n - len(slots))
        depth = half - pitch * (0.6 + min(row, 3) * 0.85)      # distance from the centre
        for i in range(count):
            along = (i - (count - 1) / 2) * pitch
            slots.append(((x0 + x1) / 2 + dx * depth + abs(dy) * along, (y0 + y1) / 2 + dy * depth + abs(dx) * along))
    return slots

Place = tuple[PawnView, tuple[float, float], int, tuple[PawnView, ...]]   # pawn, centre, diameter, its square's pawns


def _pawn_places(layout: Layout, pawns: tuple[PawnView, ...]) -> list[Place]:
    """(pawn, centre, diameter, pawns sharing its square) for every pawn, in drawing order: the
    pawns that share a track or corridor square last (see _spread)."""
    geo, cell = layout.geo, layout.cell
    groups: dict[Any, list[PawnView]] = defaultdict(list)
    for p in pawns:
        key = geo.square_key(p.route, p.progress) if HOUSE < p.progress < GOAL else (p.progress, p.route)
        groups[key].append(p)
    order = sorted(pawns, key=lambda p: (geo.colours.index(p.colour) if p.colour in geo.colours else 9, p.label))
    places: list[Place] = []
    shared = []
    for group in groups.values():
        group.sort(key=order.index)
        first = group[0]
        if first.progress == HOUSE:   # each pawn keeps its own slot, whoever else is at home
            members = [p for p in order if p.route == first.route]
            slots = _house_slots(layout, first.route, len(members))
            spots, diameter = [slots[members.index(p)] for p in group], round(cell * 1.1)
        elif first.progress >= GOAL:
            spots, diameter = _goal_slots(layout, first.route, len(group)), round(cell * 0.56)
        elif len(group) == 1:   # the number is beside the square: the pawn fills it
            spots, diameter = [_spot(layout, first.route, first.progress)], _track_diameter(layout)
        else:
            shared.append(group)
            continue
        places += [(p, xy, diameter, tuple(group)) for p, xy in zip(group, spots)]
    crowded = {_cell(geo, g[0].route, g[0].progress) for g in shared}
    taken = {layout.cell_at(xy) for _, xy, _, _ in places} | crowded
    for group in shared:
        places += _spread(layout, group, taken, crowded)
    return places


def shown_label(pawn: PawnView) -> str:
    """The label a pawn carries: none in the goal, where pawns never move again (no move names
    them; their shapes count them), so that no text on the board is too small to read."""
    return "" if pawn.progress >= GOAL else pawn.label


def _track_diameter(layout: Layout) -> int:
    """A pawn on a track or corridor square: its label readable at chat size (test_chat_size)."""
    return round(layout.cell * 0.94)


LABEL_GAP = 2      # px between a pawn's label and the body of the pawn in front of it
NUMBER_GRACE = 4   # px of a square number's ink that a piece's tip may touch (a diamond alone beside its number: 2 to 5)


def _spread(layout: Layout, group: list[PawnView], taken: set[tuple[int, int]], crowded: set[tuple[int, int]]) -> list[Place]:
    """The pawns sharing a square, as large as a pawn alone (two labels cannot both be readable
    within one square): the first stands on the square as it would alone, in front; each next one
    stands behind it, far enough out that its whole label shows, towards the best side
    (_spread_room) where no pawn stands (cells in `taken`) and, if it can, not in line with
    another shared square or its spread (cells in `crowded`: two groups end to end would read as
    one) and clear of the square numbers. Back to front; the cell spread into joins both sets."""
    cell = _cell(layout.geo, group[0].route, group[0].progress)
    room, diameter = _spread_room(layout.size), _track_diameter(layout)
    x, y = layout.centre(cell)

    def spots(side: Side) -> list[tuple[float, float]]:   # front first
        (dc, dr), horizontal = side, side[1] == 0
        found, out = [(x, y)], 0.0
        for front, back in zip(group, group[1:]):
            out += piece_reach(shape_of(front.colour), diameter, horizontal) + label_reach(diameter, back.label, horizontal) + LABEL_GAP
            found.append((x + dc * out, y + dr * out))
        return found

    def covers_a_number(side: Side) -> bool:   # a diamond is wider than a square
        return any(n[0] - diameter < px < n[2] + diameter and n[1] - diameter < py < n[3] + diameter   # near enough
                   and piece_meets(shape_of(p.colour), diameter, (px, py), n, NUMBER_GRACE)
                   for p, (px, py) in zip(group[1:], spots(side)[1:]) for n in room.numbers)

    def beside(side: Side) -> tuple[int, int]:
        return cell[0] + side[0], cell[1] + side[1]

    def lines_up_with_a_group(side: Side) -> bool:   # beside it, or behind this square
        c, r = beside(side)
        return (cell[0] - side[0], cell[1] - side[1]) in crowded or \
            any((c + dc, r + dr) in crowded and (c + dc, r + dr) != cell for dc, dr in SIDES)

    ranked = [side for _, side in room.sides[cell]]
    candidates = [side for side in ranked if beside(side) not in taken] or ranked
    side = min(candidates, key=lambda side: (lines_up_with_a_group(side), covers_a_number(side)))   # the first of equals
    taken.add(beside(side))
    crowded.add(beside(side))
    return [(p, xy, diameter, tuple(group)) for p, xy in reversed(list(zip(group, spots(side))))]


def _focused(pawn: PawnView, focus: str | None) -> bool:
    """`focus` names a pawn as colour initial + label ("Y2"), possibly followed by more."""
    if not focus:
        return False
    key = f"{pawn.colour[0].upper()}{pawn.label}"
    return focus.upper().startswith(key.upper()) and not focus[len(key):len(key) + 1].isalnum()


@lru_cache(maxsize=32)
def _tray_sprite(width: int, height: int, fill: RGB, rounded: tuple[bool, bool, bool, bool]) -> Image.Image:
    """A bar under the pawns sharing a square (_spread), its `rounded` corners (top left, top
    right, bottom right, bottom left) at the far end: an ink outline inside a white halo, which
    parts it from a bar beside it."""
    k, line = SUPERSAMPLE, 2 * SUPERSAMPLE
    big = Image.new("RGBA", (width * k, height * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    radius = (min(width, height) // 2 - 1) * k   # (Pillow fails on rounded ends of exactly half the side)
    draw.rounded_rectangle((0, 0, width * k - 1, height * k - 1), radius=radius, fill=WHITE, corners=rounded)
    draw.rounded_rectangle((line, line, width * k - 1 - line, height * k - 1 - line), radius=radius - line, fill=fill,
                           outline=INK, width=line, corners=rounded)
    return big.reduce(k)


def _draw_tray(sheet: Sheet, layout: Layout, group: tuple[PawnView, ...], far: tuple[float, float], closed: bool) -> None:
    """The bar that ties a shared square's pawns to it, square at the square's end and round at
    the other: dark when they close the square (a bridge, a door), else the square's own ground."""
    geo, first = layout.geo, group[0]
    x, y = layout.centre(_cell(geo, first.route, first.progress))
    # Two pawns on a corridor square follow one route: they close it.
    fill = INK if closed else _ground(geo, geo.track_square(first.route, first.progress))
    half, reach = layout.cell / 2, _track_diameter(layout) / 2 + max(5, layout.cell // 10)   # the square; a rim round the last pawn
    dx, dy = (far[0] > x) - (far[0] < x), (far[1] > y) - (far[1] < y)
    x0, x1 = sorted((x - (dx or 1) * half, far[0] + (dx * reach or half)))
    y0, y1 = sorted((y - (dy or 1) * half, far[1] + (dy * reach or half)))
    rounded = (dx < 0 or dy < 0, dx > 0 or dy < 0, dx > 0 or dy > 0, dx < 0 or dy > 0)
    sheet.paste(_tray_sprite(round(x1 - x0), round(y1 - y0), fill, rounded), ((x0 + x1) / 2, (y0 + y1) / 2))


# --- one picture -----------------------------------------------------------------

Move = tuple[str, int, int]   # (route, from progress, to progress), as BoardView.last_move


def render(ruleset: Ruleset, state: Any, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
           history: Sequence[Any] = ()) -> bytes:
    result = ruleset.result(state)
    return encode_png(picture(ruleset.board_view(state), players, locale, focus, any_pair_blocks=ruleset.id in ANY_PAIR_BLOCKS,
                              moves=moves(ruleset, history), result=result_text(result, players, locale)))


def moves(ruleset: Ruleset, history: Sequence[Any]) -> list[Move]:
    """The moves made along `history` (positions, oldest first), in order."""
    lasts = [ruleset.board_view(state).last_move for state in history]
    return [last for before, last in zip(lasts, lasts[1:]) if last is not None and last != before]


def picture(view: BoardView, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
            any_pair_blocks: bool = False, size: int = SIZE, moves: Sequence[Move] = (),
            result: str | None = None) -> Image.Image:
    """The board for `view` as a palette image: `moves` (oldest first; default: the last move) are
    traced and numbered in order; `result` (who won) is written across the middle."""
    geo = board()
    layout = Layout(size, geo)
    routes = frozenset(p.route for p in view.pawns)
    sheet = Sheet(_static(size, routes))
    owners = _owners(view.pawns, players)
    traced = list(moves) or ([view.last_move] if view.last_move else [])
    for move in traced:
        _draw_move(sheet, layout, *move)
    for pawn, xy, diameter, group in _pawn_places(layout, view.pawns):
        if len(group) > 1 and pawn is group[-1] and HOUSE < pawn.progress < GOAL:   # drawn first: the farthest
            _draw_tray(sheet, layout, group, xy, any_pair_blocks or len({p.route for p in group}) == 1)
        ring = 4 if _focused(pawn, focus) else 0
        sheet.paste(disc_sprite(PIECE_RGB[pawn.colour], diameter, shown_label(pawn), FOCUS if ring else None, ring,
                                shape_of(pawn.colour)), xy)
    if len(traced) > 1:   # the order of the moves, where each one started
        for i, (route, start, end) in enumerate(traced):
            sheet.badge(_badge_spot(layout, route, start, end), str(i + 1), number_size(size), HIGHLIGHT)
    acting = _acting_route(view, players, owners)
    for route in sorted(routes, key=geo.colours.index):
        tag = players[owners[route]] if route in owners else None
        _draw_house_text(sheet, layout, route, tag, view if route == acting and result is None else None, locale, players)
    if result:
        x0, y0, x1, y1 = layout.goal_box()
        sheet.banner(((x0 + x1) / 2, (y0 + y1) / 2), result, size - 2 * layout.margin, number_size(size))
    return sheet.finish()


def _badge_spot(layout: Layout, route: str, start: int, end: int) -> tuple[float, float]:
    """Where a move's order number goes: on the square it left, towards its top left corner (a
    pawn still there stays readable), or at the home spot for a pawn that came out."""
    x, y = _spot(layout, route, start)
    if start == HOUSE:
        return x, y
    return x - layout.cell * 0.3, y - layout.cell * 0.3


def _owners(pawns: tuple[PawnView, ...], players: list[PlayerTag]) -> dict[str, int]:
    """Index in `players` of the player whose pieces follow each route."""
    owners = {}
    for p in pawns:
        for i, tag in enumerate(players):
            if p.colour in tag.colours:
                owners.setdefault(p.route, i)
    return owners


def _acting_route(view: BoardView, players: list[PlayerTag], owners: dict[str, int]) -> str | None:
    """The house that shows the dice and notes: whoever must act, else the last mover."""
    for route, i in owners.items():
        if players[i].to_move:
            return route
    if view.last_move:
        return view.last_move[0]
    return next(iter(sorted(owners)), None) or next((p.route for p in view.pawns), None)


def _draw_move(sheet: Sheet, layout: Layout, route: str, start: int, end: int) -> None:
    """Outline the squares left and reached, and an arrow along the way between them."""
    geo, cell = layout.geo, layout.cell
    steps = range(start, end + 1) if start <= end else (start, end)
    points = [_spot(layout, route, p) for p in steps]
    for p in (start, end):
        if HOUSE < p < GOAL:
            x0, y0, x1, y1 = layout.box(*_cell(geo, route, p))
            sheet.draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=HIGHLIGHT, width=max(3, cell // 12))
    # Shorten both ends so that the arrow runs between the pawns, its tip visible.
    if len(points) >= 2:
        points[0] = _towards(points[0], points[1], cell * 0.3)
        points[-1] = _towards(points[-1], points[-2], cell * 0.42)
        sheet.arrow(points, HIGHLIGHT, max(3, cell // 9))


def _towards(a: tuple[float, float], b: tuple[float, float], distance: float) -> tuple[float, float]:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length <= distance:
        return a
    return a[0] + (b[0] - a[0]) * distance / length, a[1] + (b[1] - a[1]) * distance / length


def _draw_house_text(sheet: Sheet, layout: Layout, route: str, tag: PlayerTag | None, acting: BoardView | None,
                     locale: str, players: list[PlayerTag]) -> None:
    """The owner's name at the top of the panel; for the acting house, the dice and notes at its bottom."""
    x0, y0, x1, y1 = layout.panel_box(route)
    pad, cell = layout.cell // 5, layout.cell
    if tag and tag.to_move:    # a heavy frame, visible in the chat preview
        w = max(4, cell // 8)
        sheet.draw.rounded_rectangle((x0 - w, y0 - w, x1 + w, y1 + w), radius=cell // 3 + w, outline=INK, width=w + 1)
    if tag:   # readable at chat size; a long name a little smaller rather than cut short
        size, room = readable_size(layout.size), x1 - x0 - 2 * pad
        shown = ("▶ " if tag.to_move else "") + tag.name   # as draw_player_tag writes it
        while size > cell * 0.5 and text_length(shown, size, tag.to_move) > \
                room - len(tag.colours) * (size + 4) - 20:
            size -= 1
        sheet.player_tag((x0 + pad, y0 + pad), room, tag, size)
    if acting is None:
        return
    die = round(cell * 1.2)
    _, home_y = _spot(layout, route, HOUSE)
    spent = acting.used_dice + (False,) * len(acting.dice)
    for i, value in enumerate(acting.dice):   # right of the pawns at home, one above the other
        sheet.paste(die_sprite(value, die, spent[i]), (x1 - pad - die / 2, home_y + (i - (len(acting.dice) - 1) / 2) * die * 1.12))
    name_of = lambda seat: players[seat].name if seat < len(players) else str(seat + 1)  # noqa: E731
    y = home_y + cell * 1.35
    size, width = round(cell * 0.36), x1 - x0 - 2 * pad
    for note in acting.notes:    # under the dice, as many as fit
        lines = wrap_text(i18n.render(note, locale, name_of), width, size, 3)
        if y + line_step(size) * len(lines) > y1 - pad / 2:
            break
        y += sheet.lines((x0 + pad, y), lines, width, size)
