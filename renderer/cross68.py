"""The 68-square cross board (parcheesi, parcheesi-classic, parchis-maghreb).

Geometry comes only from data/boards/cross68.json through
bot.games.parcheesi.board.board(); what stands where comes from
`ruleset.scene(state)`. The static board (cross, numbers, houses, goal)
is drawn once per size and set of houses in play; each picture pastes the
pawns, the last move, the dice and the players onto it (renderer.common).

Each house carries its player's name (the legend), the pawns waiting in it,
and, for whoever must act, the dice and the notes.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache, partial
from itertools import chain
from typing import NamedTuple, Protocol, TypeVar

from PIL import Image, ImageDraw

from bot.domain import i18n
from bot.games.base import Result
from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK, Cross68, Cross68Scene, ScenePawn, board
from renderer.common import (
    CHAT_WIDTH,
    CHOICE,
    DIE_SPENT,
    INK,
    PAPER,
    PIECE_RGB,
    PIP_SPENT,
    RGB,
    SUPERSAMPLE,
    TO_MOVE_BAND,
    TRACE,
    WHITE,
    Box,
    PlayerTag,
    Sheet,
    StaticBoard,
    badge_radius,
    banner_box,
    blend,
    break_lines,
    die_sprite,
    disc_sprite,
    draw_shape,
    font,
    ink_on,
    label_size,
    line_step,
    make_palette,
    piece_reach,
    readable_size,
    result_text,
    shape_of,
    shown_name,
    tag_height,
    tag_lines,
    text_length,
    wrap_text,
)
from renderer.plan import (
    OVERLAYS,
    TEXTS,
    FloatBox,
    Item,
    Plan,
    Point,
    centred,
    crossings,
    first_clear,
    gapped,
    offset_line,
    overlap,
)
from renderer.writing import isolate

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
    """The font size of the square numbers: readable at chat size (renderer.common.readable_size)."""
    return readable_size(size)


@dataclass(frozen=True)
class Layout:
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
    """Where each track square's number is inked (as _static writes it): the box of its label."""
    layout, number_font, inks = Layout(size, board()), font(number_size(size), True), {}
    for square, (x0, y0, x1, y1) in layout.number_boxes().items():
        ink = Image.new("L", (x1 - x0, y1 - y0))
        ImageDraw.Draw(ink).text(((x1 - x0) / 2, (y1 - y0) / 2), str(square), font=number_font, fill=255, anchor="mm")
        left, top, right, bottom = ink.getbbox() or (0, 0, 0, 0)
        inks[square] = (x0 + left, y0 + top, x0 + right, y0 + bottom)
    return inks


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
    solid = [INK, HIGHLIGHT, FOCUS, PIP_SPENT, *grounds, blend(WHITE, PAPER, FADE), blend(INK, PAPER, FADE),
             *(blend(t, PAPER, FADE) for t in tints)]   # the corridors no piece follows (no ramp: 256 colours at most)
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
        house = next((h for h, (c0, r0, c1, r1) in houses.items() if c0 <= c <= c1 and r0 <= r <= r1), None)
        if house is not None:
            draw.rectangle((x0, y0, x1, y1), fill=number_tile(house, house in in_play), outline=INK,
                           width=max(1, line // 2))
    number_font = font(number_size(big.size), True)
    numbers = big.number_boxes()
    for square, cell in geo.track_cells.items():
        starts = [c for c, s in geo.start_square.items() if s == square]
        x0, y0, x1, y1 = big.box(*cell)
        draw.rectangle((x0, y0, x1, y1), fill=_ground(geo, square, in_play), outline=INK, width=line)
        if starts:   # the colour's shape, a cue that survives colour blindness
            r = big.cell * 0.36
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            draw_shape(draw, shape_of(starts[0]), (cx - r, cy - r, cx + r, cy + r),
                       outline=WHITE if starts[0] in in_play else blend(INK, PAPER, FADE), width=line * 2)
        elif square in geo.safe_squares:   # a ring marks every safe square
            r, cx, cy = big.cell * 0.36, (x0 + x1) / 2, (y0 + y1) / 2
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=INK, width=line)
        nx0, ny0, nx1, ny1 = numbers[square]
        draw.text(((nx0 + nx1) / 2, (ny0 + ny1) / 2), str(square), font=number_font, fill=INK, anchor="mm")
    for colour, cells in geo.corridor_cells.items():
        for cell in cells:
            draw.rectangle(big.box(*cell), fill=tint(colour) if colour in in_play else blend(tint(colour), PAPER, FADE),
                           outline=INK, width=line)
    gx0, gy0, gx1, gy1 = big.goal_box()
    centre = ((gx0 + gx1) / 2, (gy0 + gy1) / 2)
    for colour in geo.colours:
        draw.polygon(_triangle(big, colour), fill=PIECE_RGB[colour], outline=INK, width=line)
    draw.rectangle((gx0, gy0, gx1, gy1), outline=INK, width=line)
    draw.ellipse((centre[0] - line * 3, centre[1] - line * 3, centre[0] + line * 3, centre[1] + line * 3), fill=INK)
    rgb = image.reduce(k)
    return StaticBoard.build(rgb, _palette(geo))


def _ground(geo: Cross68, square: int, in_play: frozenset[str]) -> RGB:
    """A track square's colour: its colour's on a start square (faded where no piece follows that colour's
    route: Maghreb's green and blue, whose pieces follow red's and yellow's), grey on a safe one, else white."""
    starts = [c for c, s in geo.start_square.items() if s == square]
    if starts:
        return PIECE_RGB[starts[0]] if starts[0] in in_play else blend(PIECE_RGB[starts[0]], PAPER, FADE)
    return SAFE if square in geo.safe_squares else WHITE


def _triangle(layout: Layout, route: str) -> list[tuple[float, float]]:
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


def _cell(geo: Cross68, route: str, progress: int) -> tuple[int, int]:
    if progress <= LAST_TRACK:
        return geo.track_cells[geo.track_square(route, progress)]
    return geo.corridor_cells[route][progress - LAST_TRACK - 1]


def _spot(layout: Layout, route: str, progress: int) -> tuple[float, float]:
    """Centre of a square of `route` (house: its first pawn slot; goal: the route's triangle)."""
    if progress == HOUSE:
        return _house_slots(layout, route, 4)[0]
    if progress >= GOAL:
        pts = _triangle(layout, route)
        return sum(x for x, _ in pts) / 3, sum(y for _, y in pts) / 3
    return layout.centre(_cell(layout.geo, route, progress))


# --- a house panel: name, goal count and partner, pawns at home, dice, notes -----------

def _panel_rows(layout: Layout, route: str) -> tuple[float, float]:
    """The panel's rows under the name: where the status lines and the pawns at home begin (the
    notes follow the pawns, or the dice beside them)."""
    x0, y0, x1, y1 = layout.panel_box(route)
    pad, size = layout.cell // 5, readable_size(layout.size)
    status = y0 + pad + tag_height(2 if route in layout.tall else 1, size) + 2
    return status, status + line_step(size) * (1 + layout.teams + (route in layout.long_partner)) + 2


def _house_pitch(layout: Layout) -> float:
    return layout.cell * 0.98


def _house_slots(layout: Layout, route: str, n: int) -> list[tuple[float, float]]:
    """Slots for the `n` pawns of a route at home: rows of four at the left of the panel, under
    its status line (the dice stand on their right)."""
    x0, _, _, _ = layout.panel_box(route)
    _, top = _panel_rows(layout, route)
    pitch = _house_pitch(layout)
    return [(x0 + layout.cell // 5 + pitch * (i % 4 + 0.5), top + pitch * (i // 4 + 0.5)) for i in range(max(n, 4))]


def _order(geo: Cross68, pawns: Sequence[ScenePawn]) -> list[ScenePawn]:
    """The pieces back to front: by colour, then number."""
    return sorted(pawns, key=lambda p: (geo.colours.index(p.colour) if p.colour in geo.colours else 9, p.label))


def home_slots(layout: Layout, pawns: Sequence[ScenePawn]) -> dict[str, tuple[float, float]]:
    """Each piece's own slot in its route's house, by its name ("Y2"), whether it is at home now or not: a
    piece brought out is traced from it, a piece sent home to it."""
    order, found = _order(layout.geo, pawns), dict[str, tuple[float, float]]()
    for route in dict.fromkeys(p.route for p in order):
        members = [p for p in order if p.route == route]
        found.update(zip(map(piece_ref, members), _house_slots(layout, route, len(members))))
    return found


def _goal_slots(layout: Layout, route: str, n: int) -> list[tuple[float, float]]:
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


# --- pieces -----------------------------------------------------------------------------

def shown_label(pawn: ScenePawn) -> str:
    """The label a pawn carries: none in the goal, where pawns never move again (no move names
    them; their shapes count them), so that no text on the board is too small to read."""
    return "" if pawn.progress >= GOAL else pawn.label


def _track_diameter(layout: Layout) -> int:
    """A pawn alone on a track or corridor square: its label readable at chat size (test_chat_size)."""
    return round(layout.cell * 0.94)


def _fit(shape: str, diameter: float, reach: float) -> int:
    """`diameter`, shrunk so that a piece of `shape` reaches at most `reach` px from its centre."""
    return int(min(diameter, reach / piece_reach(shape, 1, False)))


def _body_box(shape: str, diameter: int, xy: tuple[float, float]) -> FloatBox:
    rx, ry = piece_reach(shape, diameter, True), piece_reach(shape, diameter, False)
    return xy[0] - rx, xy[1] - ry, xy[0] + rx, xy[1] + ry


@dataclass(frozen=True)
class Placed:
    pawn: ScenePawn
    xy: tuple[float, float]
    diameter: int
    text: int              # the label's font size (0: from the diameter)
    closed: bool = False   # stands on a square it closes with another (a bridge, a door)
    corner: int = 0        # sharing a track square with another (-1: top left, 1: bottom right): its label is drawn
                           # over both pieces, NUMBER_SHIFT px towards its own corner

    @property
    def shared(self) -> bool:
        return self.corner != 0

    @property
    def number_at(self) -> tuple[float, float]:
        """Where its label is centred."""
        return self.xy[0] + self.corner * NUMBER_SHIFT, self.xy[1] + self.corner * NUMBER_SHIFT


def pawn_places(layout: Layout, pawns: tuple[ScenePawn, ...], any_pair_blocks: bool = False,
                slots: dict[str, tuple[float, float]] | None = None) -> list[Placed]:
    """Where every pawn is drawn, back to front. A pawn alone fills its square; pawns sharing one
    stand inside it, smaller, corner to corner (never on a neighbouring square)."""
    geo, cell = layout.geo, layout.cell
    groups: dict[str | tuple[int, str] | None, list[ScenePawn]] = defaultdict(list)
    for p in pawns:
        key = geo.square_key(p.route, p.progress) if HOUSE < p.progress < GOAL else (p.progress, p.route)
        groups[key].append(p)
    order, slots = _order(geo, pawns), slots or home_slots(layout, pawns)
    places: list[Placed] = []
    for group in groups.values():
        group.sort(key=order.index)
        first = group[0]
        if first.progress == HOUSE:   # each pawn keeps its own slot, whoever else is at home
            places += [Placed(p, slots[piece_ref(p)], _fit(shape_of(p.colour), _track_diameter(layout), cell * 0.49),
                              label_size(_track_diameter(layout), p.label)) for p in group]
        elif first.progress >= GOAL:
            places += [Placed(p, xy, _fit(shape_of(p.colour), cell * 0.56, cell * 0.3), 0)
                       for p, xy in zip(group, _goal_slots(layout, first.route, len(group)))]
        elif len(group) == 1:   # its label as readable as the square numbers, inside its square
            places.append(Placed(first, _spot(layout, first.route, first.progress),
                                 _fit(shape_of(first.colour), _track_diameter(layout), cell / 2 - 1),
                                 label_size(_track_diameter(layout), first.label)))
        else:
            x, y = _spot(layout, first.route, first.progress)
            closed = any_pair_blocks or len({p.route for p in group}) == 1
            room = cell / 2 - (CLOSED_FRAME if closed else 1)   # inside the square (and a closed square's frame)
            if len(group) == 2:   # corner to corner along a diagonal, each readable at chat size: they overlap a little
                short = SHARED_PIECE * layout.size / CHAT_WIDTH
                for p, sign in zip(group, (-1, 1)):
                    shape = shape_of(p.colour)
                    # Its short side `short`; a diamond, drawn larger to hold a disc's number, holds 0.9 of one's.
                    diameter = math.ceil(max(short / 2 / min(piece_reach(shape, 1, True), piece_reach(shape, 1, False)),
                                             0.9 * short))
                    q = room - max(piece_reach(shape, diameter, True), piece_reach(shape, diameter, False))
                    places.append(Placed(p, (x + sign * q, y + sign * q), diameter,
                                         label_size(math.ceil(short), p.label), closed, sign))
                continue
            reach = cell * 0.22   # more: one per quarter
            q = room - reach
            places += [Placed(p, (x + dx, y + dy), _fit(shape_of(p.colour), 2 * reach, reach), 0, closed)
                       for p, (dx, dy) in zip(group, [(-q, -q), (q, -q), (-q, q), (q, q)])]
    return places


def _focused(pawn: ScenePawn, focus: str | None) -> bool:
    """`focus` names a pawn as colour initial + label ("Y2"), possibly followed by more."""
    if not focus:
        return False
    key = piece_ref(pawn)
    return focus.upper().startswith(key.upper()) and not focus[len(key):len(key) + 1].isalnum()


# --- the plan ---------------------------------------------------------------------------

class Move(NamedTuple):
    """A move traced: (route, from progress, to progress) as Cross68Scene.last_move; the `piece` that made it
    ("Y2", when known: a piece brought out is traced from its own house slot, and its order badge is no
    larger than it); and the pieces it sent `home` (captured), each (route, progress it stood at, piece)."""

    route: str
    start: int
    end: int
    piece: str | None = None
    home: tuple[tuple[str, int, str], ...] = ()


S = TypeVar("S")   # the game's state
S_contra = TypeVar("S_contra", contravariant=True)


class Cross68Game(Protocol[S_contra]):
    """What this family reads of a ruleset (the three Parcheesi rulesets): a position's scene and result."""

    def scene(self, state: S_contra) -> Cross68Scene: ...

    def result(self, state: S_contra) -> Result | None: ...


def layout(ruleset: Cross68Game[S], state: S, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
           traced: Sequence[S] = ()) -> Plan:
    return plan(ruleset.scene(state), players, locale, focus, moves=moves(ruleset, traced),
                result=ruleset.result(state), teams=getattr(state, "teams", False))


def moves(ruleset: Cross68Game[S], positions: Sequence[S]) -> list[Move]:
    """The moves made along `positions` (oldest first), in order, each with the piece that made it and
    the pieces it captured; a piece sent home by no move (a penalty) is traced as a move of its own."""
    views = [ruleset.scene(state) for state in positions]
    found: list[Move] = []
    for before, after in zip(views, views[1:]):
        home = tuple((b.route, b.progress, piece_ref(b)) for b, a in zip(before.pawns, after.pawns)
                     if a.progress == HOUSE and HOUSE < b.progress < GOAL)
        last = after.last_move
        if last is not None and last != before.last_move:
            route, start, end = last
            piece = next((piece_ref(a) for b, a in zip(before.pawns, after.pawns)
                          if a.route == route and (b.progress, a.progress) == (start, end)), None)
            found.append(Move(route, start, end, piece, tuple(h for h in home if h[2] != piece)))
        else:
            found += [Move(route, progress, HOUSE, piece) for route, progress, piece in home]
    return found


def picture(view: Cross68Scene, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
            size: int = SIZE, moves: Sequence[Move] = (), result: Result | None = None) -> Image.Image:
    """The board for `view` as a palette image (see plan)."""
    return plan(view, players, locale, focus, size, moves, result).picture()


def plan(view: Cross68Scene, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
         size: int = SIZE, moves: Sequence[Move] = (), result: Result | None = None, teams: bool = False) -> Plan:
    """The picture of `view`: `moves` (oldest first; default: the last move) traced under the
    pieces and numbered beside them; the house panels carry each player's name, pieces in the
    goal, partner, and for whoever acts the dice and notes; `result` names the winner in a panel."""
    geo = board()
    routes = frozenset(p.route for p in view.pawns)
    owners = _owners(view.pawns, players)
    names = {route: _name_lines(Layout(size, geo), players[seat]) for route, seat in owners.items()}
    partners = {route: _partner_lines(Layout(size, geo), partner, locale) for route in owners
                if (partner := _partner(route, owners, players, teams))}
    lay = Layout(size, geo, teams, frozenset(route for route, lines in names.items() if len(lines) > 1),
                 frozenset(route for route, lines in partners.items() if len(lines) > 1))
    items: list[Item] = [*_squares(size, routes), *_labels(size)]
    traced = [Move(*move) for move in moves] or ([Move(*view.last_move)] if view.last_move else [])
    slots = home_slots(lay, view.pawns)
    places = pawn_places(lay, view.pawns, view.any_pair_blocks, slots)
    shared: dict[str, list[Placed]] = defaultdict(list)   # the numbers of pieces sharing a square, drawn over both
    for place in places:
        if place.shared:
            shared[square_ref(geo, place.pawn.route, place.pawn.progress)].append(place)
    pieces = [_piece(lay, place, _focused(place.pawn, focus),
                     shared[square_ref(geo, place.pawn.route, place.pawn.progress)]
                     if place.shared and shared[square_ref(geo, place.pawn.route, place.pawn.progress)][-1] is place
                     else ())
              for place in places]
    acting = _acting_route(view, players, owners) if result is None else None
    words: list[Item] = []   # the panels' words: planned before the traces, which go round them
    for route in sorted(routes, key=geo.colours.index):
        tag = players[owners[route]] if route in owners else None
        words += _panel(lay, route, view, tag, names.get(route, ()), partners.get(route, ()), route == acting, locale)
    if acting is not None:
        notes = [i18n.render(note, locale, _namer(players)) for note in view.notes]
        words += _notes(lay, notes, _note_boxes(lay, view, acting, owners, routes, words), locale)
    banner = None
    if result is not None:
        shown = {seat: shown_name(names[route]) for route, seat in owners.items()}   # as the panels name them
        winners = [replace(tag, name=shown.get(seat, tag.name)) for seat, tag in enumerate(players)]
        banner = _banner(lay, result, winners, owners, locale,
                         [i.box for i in (*items, *pieces, *words) if i.kind != "square"])
    around = Around([i.box for i in (*items, *words, *([banner] if banner else [])) if i.kind in TEXTS],
                    [i.box for i in pieces])
    items += [_trace(lay, move, i, len(traced), slots, around) for i, move in enumerate(traced)]
    items += [_way_home(lay, route, progress, slots[piece], piece, around) for move in traced
              for route, progress, piece in move.home if piece in slots]
    items += pieces + words
    taken = [item.box for item in (*items, *([banner] if banner else [])) if item.kind in ("piece", "label", *OVERLAYS)]
    if len(traced) > 1:   # the order of the moves, beside the square each one left
        for i, move in enumerate(traced):
            start = slots[move.piece] if move.start == HOUSE and move.piece in slots else \
                _spot(lay, move.route, move.start)
            badge = _badge(lay, start, str(i + 1), taken)
            items.append(badge)
            taken.append(badge.box)
    if banner is not None:
        items.append(banner)
    return Plan((size, size), tuple(items), partial(_static, size, routes))


@lru_cache(maxsize=32)
def _squares(size: int, routes: frozenset[str]) -> tuple[Item, ...]:
    """The squares as players name them; the corridors and start squares of routes no piece follows are
    drawn muted (role "muted")."""
    lay = Layout(size, board())
    geo, found = lay.geo, []
    unused = {geo.start_square[c] for c in geo.colours if c not in routes}
    for square, cell in geo.track_cells.items():
        found.append(Item("square", str(square), lay.box(*cell), role="muted" if square in unused else ""))
    for colour, cells in geo.corridor_cells.items():
        found += [Item("square", f"{colour} H{k + 1}", lay.box(*cell), role="" if colour in routes else "muted")
                  for k, cell in enumerate(cells)]
    found += [Item("square", f"{route} house", lay.house_box(route)) for route in geo.colours]
    return (*found, Item("square", "goal", lay.goal_box()))


@lru_cache(maxsize=8)
def _labels(size: int) -> tuple[Item, ...]:
    return tuple(Item("label", str(square), box) for square, box in number_ink(size).items())


def _piece(lay: Layout, place: Placed, chosen: bool, numbers: Sequence[Placed] = ()) -> Item:
    """A piece's item; the front piece of a shared square also paints the `numbers` of the pieces there, once
    both are drawn: where it overlaps the back one, that one's number stays whole, outlined in its colour."""
    pawn, geo = place.pawn, lay.geo
    shape, ring = shape_of(pawn.colour), 4 if chosen else 0
    label = "" if place.shared else shown_label(pawn)   # drawn over both pieces of the square (_piece_label)
    sprite = disc_sprite(PIECE_RGB[pawn.colour], place.diameter, label, FOCUS if chosen else None, ring, shape,
                         place.text)
    square = square_ref(geo, pawn.route, pawn.progress)
    frame = lay.box(*_cell(geo, pawn.route, pawn.progress)) if place.closed else None

    def paint(sheet: Sheet) -> None:
        if frame is not None:   # a closed square (a bridge, a door): framed in ink over its outline, round its pawns
            w = CLOSED_FRAME
            sheet.draw.rectangle((frame[0] - w, frame[1] - w, frame[2] + w, frame[3] + w), outline=INK, width=2 * w)
        sheet.paste(sprite, place.xy)
        for other in numbers:
            fill = PIECE_RGB[other.pawn.colour]
            sheet.label(other.number_at, other.pawn.label, other.text, True, ink_on(fill), "mm", fill)
    return Item("piece", piece_ref(pawn), _body_box(shape, place.diameter, place.xy), square,
                "chosen" if chosen else "blockade" if place.closed else "", paint)


@dataclass(frozen=True)
class Around:
    """What a trace goes round: the `texts` it never crosses (a gap where no way round is short enough), and
    the `pieces` it had better not pass under (but those at its ends, which say where it goes)."""

    texts: list[FloatBox]
    pieces: list[FloatBox]

    def cost(self, a: Point, b: Point, margin: float, cell: int, ends: Sequence[FloatBox] = ()) -> float:
        """The length of the segment a-b, plus four cells for each text it would cross and one for each piece."""
        return (math.dist(a, b) + 4 * cell * crossings((a, b), self.texts, margin)
                + cell * crossings((a, b), [box for box in self.pieces if box not in ends]))


def _house_way(lay: Layout, route: str, far: Point, slot: Point, around: Around, margin: float,
               detour: bool = True) -> list[Point]:
    """The way from `far` (a square) to `slot` (in `route`'s house panel) that crosses the fewest words, the
    shortest of them: straight, or into the panel's side between two square numbers (the owner's name and the
    goal count stand above the slots, the notes below, the square numbers all round the panel), along the slots'
    row or under it; leaving `far` by a corner of its square where that goes clear of a number beside it; with
    `detour`, also round the numbers along the house's edge (a way home, dashed, reads as no move does)."""
    geo, cell, o = lay.geo, lay.cell, lay.origin
    (c0, r0), (c1, r1) = geo.houses[route]
    hx0, hy0, hx1, hy1 = lay.house_box(route)
    px0, py0, px1, py1 = lay.panel_box(route)
    middle = (geo.grid_size + 1) / 2
    region = (min(far[0], hx0) - cell, min(far[1], hy0) - cell, max(far[0], hx1) + cell, max(far[1], hy1) + cell)
    near = Around([box for box in around.texts if overlap(box, region)],
                  [box for box in around.pieces if overlap(box, region)])
    ends = [box for box in near.pieces if any(_holds(box, xy) for xy in (far, slot))]

    def cost(a: Point, b: Point) -> float:
        return near.cost(a, b, margin, cell, ends)

    def length(*points: Point) -> float:
        return sum(cost(a, b) for a, b in zip(points, points[1:]))

    edge = cell / 4   # beside the house, on the arm, clear of the numbers at its edge
    x_out, x_in = (hx1 + edge, px1 - 2) if c1 < middle else (hx0 - edge, px0 + 2)   # across the numbers
    y_out, y_in = (hy1 + edge, py1 - 2) if r1 < middle else (hy0 - edge, py0 + 2)
    ys = [slot[1]] + [o + k * cell for k in range(r0, r1) if abs(o + k * cell - slot[1]) <= 2 * cell]
    xs = [slot[0]] + [o + k * cell for k in range(c0, c1) if abs(o + k * cell - slot[0]) <= 2 * cell]
    # into the panel's side along the slots' row, or under it; or down (up) into it; from `far`, or along the
    # house's edge first, round the numbers on its other side
    sides = [[(x_in, y)] for y in ys] + [[(x_in, y), (slot[0], y)] for y in ys if abs(y - slot[1]) > cell / 2]
    entries = [[(x_out, side[0][1]), *side] for side in sides] + [[(x, y_out), (x, y_in)] for x in xs]
    if detour:
        entries += [[*bend, (x_out, side[0][1]), *side] for side in sides
                    for bend in ([(x_out, far[1])], [(far[0], y_out), (x_out, y_out)])]
        entries += [[*bend, (x, y_out), (x, y_in)] for x in xs
                    for bend in ([(far[0], y_out)], [(x_out, far[1]), (x_out, y_out)])]
    corners = [(o + i * cell, o + j * cell) for i in range(geo.grid_size + 1) for j in range(geo.grid_size + 1)
               if abs(o + i * cell - far[0]) <= cell and abs(o + j * cell - far[1]) <= cell]
    ways = [(cost(far, slot), [far, slot])]
    for entry in entries:
        lead = min(([far], *([far, corner] for corner in corners)), key=lambda way: length(*way, entry[0]))
        way = [*lead, *entry, slot]
        ways.append((length(*way), way))
    return min(ways, key=lambda found: found[0])[1]


def _holds(box: FloatBox, xy: Point) -> bool:
    return box[0] <= xy[0] <= box[2] and box[1] <= xy[1] <= box[3]


def _trace(lay: Layout, move: Move, index: int, count: int, slots: dict[str, Point], around: Around) -> Item:
    """A move: the squares left and reached outlined, and an arrow along the way, under the
    pieces; each move of a long absence in a lane of its own, so that they run apart. A piece
    brought out (or sent home) is traced from (or to) its own slot in the house, round the panel's words."""
    route, start, end, piece = move[:4]
    geo, cell = lay.geo, lay.cell
    width = max(3, cell // 9)
    steps = range(start, end + 1) if start <= end else (start, end)
    lane = (index - (count - 1) / 2) * cell * 0.5 / max(count - 1, 1) if count > 1 else 0.0
    points = offset_line([_spot(lay, route, p) for p in steps if p != HOUSE], lane)   # the way along the track
    if piece in slots and points and HOUSE in (start, end):   # in its lane, from (or to) the slot round the words
        way = _house_way(lay, route, points[0], slots[piece], around, width, detour=False)
        points = way[::-1] + points[1:] if start == HOUSE else way
    outlined = [lay.box(*_cell(geo, route, p)) for p in (start, end) if HOUSE < p < GOAL]
    if len(points) >= 2:   # from the square left to the edge of the pawn that arrived
        points[-1] = _towards(points[-1], points[-2], cell * 0.42)
    strokes = gapped(points, around.texts, width, cell / 2, 3 * width) if len(points) >= 2 else []
    xs, ys = ([x for x, _ in points] + [b[i] for b in outlined for i in (0, 2)],
              [y for _, y in points] + [b[i] for b in outlined for i in (1, 3)])
    box = (min(xs) - 3 * width, min(ys) - 3 * width, max(xs) + 3 * width, max(ys) + 3 * width)

    def paint(sheet: Sheet) -> None:
        for x0, y0, x1, y1 in outlined:
            sheet.draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=HIGHLIGHT, width=max(3, cell // 12))
        if strokes:
            sheet.arrow(strokes[-1], HIGHLIGHT, width, lead=strokes[:-1])
    return Item("trace", f"{square_ref(geo, route, start)}-{square_ref(geo, route, end)}", box, role=piece or "",
                paint=paint, strokes=tuple(map(tuple, strokes)))


def _way_home(lay: Layout, route: str, progress: int, slot: Point, piece: str, around: Around) -> Item:
    """A captured piece's way home: a dashed arrow from the square it was taken on to its slot in the
    house, round the panel's words, under the pieces (role "home"; ref as a move's: "<square>-<route> house")."""
    width = max(2, lay.cell // 14)
    points = _house_way(lay, route, _spot(lay, route, progress), slot, around, 2 * width)
    points[-1] = _towards(slot, points[-2], lay.cell * 0.42)
    strokes = gapped(points, around.texts, 2 * width, lay.cell / 2, 3 * width)
    xs, ys = [x for x, _ in (*points, slot)], [y for _, y in (*points, slot)]
    box = (min(xs) - 3 * width, min(ys) - 3 * width, max(xs) + 3 * width, max(ys) + 3 * width)
    return Item("trace", f"{square_ref(lay.geo, route, progress)}-{route} house", box, role="home " + piece,
                paint=lambda sheet: sheet.arrow(strokes[-1], HIGHLIGHT, width, dash=lay.cell // 4, lead=strokes[:-1])
                if strokes else None, strokes=tuple(map(tuple, strokes)))


def _towards(a: tuple[float, float], b: tuple[float, float], distance: float) -> tuple[float, float]:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length <= distance:
        return a
    return a[0] + (b[0] - a[0]) * distance / length, a[1] + (b[1] - a[1]) * distance / length


def _badge(lay: Layout, xy: tuple[float, float], text: str, taken: list[FloatBox]) -> Item:
    """A move's order number beside the square it left (centre `xy`), where it covers no piece and no
    number: at a corner of the square, else further away, always somewhere (every traced move has its
    number); its digits as large as the square numbers, readable at chat size even where the piece that
    moved shares its square and is drawn smaller."""
    size = number_size(lay.size)
    r = badge_radius(text, size)
    x, y = xy
    reach = [lay.cell * k / 2 for k in range(1, 13)]
    around = ((-1, -1), (1, -1), (-1, 1), (1, 1), (0, -1), (-1, 0), (1, 0), (0, 1))
    near = [(x + dx * d, y + dy * d) for d in reach for dx, dy in around]

    def anywhere() -> Iterator[tuple[float, float]]:
        """Then anywhere on the board, nearest first: sorted only once no near spot is clear (rare; the
        thousands of points of a whole board, sorted for every badge, were most of a board's plan)."""
        step = lay.cell / 4
        yield from sorted(((i * step, j * step) for i in range(1, int(lay.size / step))
                           for j in range(1, int(lay.size / step))), key=lambda s: math.dist(s, xy))

    box = first_clear((centred(spot, 2 * r, 2 * r) for spot in chain(near, anywhere())), taken,
                      (0, 0, lay.size, lay.size))
    box = box or centred(near[0], 2 * r, 2 * r)
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return Item("badge", text, box, paint=lambda sheet: sheet.badge(centre, text, size, HIGHLIGHT))


def _text_width(lay: Layout) -> int:
    """The width of a house panel's words (every panel is as wide)."""
    x0, _, x1, _ = lay.panel_box(lay.geo.colours[0])
    return x1 - x0 - 2 * (lay.cell // 5)


def _name_lines(lay: Layout, tag: PlayerTag) -> list[str]:
    """The lines of a house owner's name: two where one does not hold it (readable_size cannot shrink)."""
    return tag_lines(tag, _text_width(lay), readable_size(lay.size), 2)


def _partner_lines(lay: Layout, partner: str, locale: str) -> list[str]:
    """The partner's line in 2 vs 2, on two where one does not hold the name (as the name's own)."""
    width = _text_width(lay) - 8
    return break_lines(i18n.text("picture.partner", locale, player=partner), [width, width], readable_size(lay.size))


def _panel(lay: Layout, route: str, view: Cross68Scene, tag: PlayerTag | None, name: Sequence[str],
           partner: Sequence[str], acting: bool, locale: str) -> list[Item]:
    """A house panel's words: the owner's name; the pawns in the goal and the partner (2 vs 2);
    for the acting house, the dice beside the pawns at home (the notes follow: _note_boxes)."""
    x0, y0, x1, y1 = lay.panel_box(route)
    pad, cell, size = lay.cell // 5, lay.cell, readable_size(lay.size)
    status_y, pawns_y = _panel_rows(lay, route)
    width = x1 - x0 - 2 * pad
    items: list[Item] = []
    if tag and tag.to_move:    # a heavy frame round the panel, visible in the chat preview
        w = max(4, cell // 8)
        frame = (x0 - w, y0 - w, x1 + w, y1 + w)
        items.append(Item("square", f"{route} house", frame, role="to move",
                          paint=lambda sheet: sheet.draw.rounded_rectangle(
                              frame, radius=cell // 3 + w, outline=INK, width=w + 1)))
    if tag:
        items.append(Item("name", tag.name,
                          (x0 + pad, y0 + pad, x0 + pad + width, y0 + pad + tag_height(len(name), size)),
                          role="\n".join(name),
                          paint=lambda sheet: sheet.player_tag((x0 + pad, y0 + pad), width, tag, size, name)))
    mine = [p for p in view.pawns if p.route == route]
    arrived = sum(p.progress >= GOAL for p in mine)
    goal = i18n.text("picture.in_goal", locale, count=arrived, total=len(mine))   # from a small set: a cached label
    at = (x0 + pad + width / 2, status_y)
    items.append(Item("note", goal, (x0 + pad, status_y, x0 + pad + width, status_y + line_step(size)),
                      paint=lambda sheet: sheet.label(at, goal, size, anchor="ma")))
    items += [_text_item("note", line, (x0 + pad, status_y + (i + 1) * line_step(size)), width, size)
              for i, line in enumerate(partner)]
    if acting:
        die = round(cell * 0.96)
        spent = view.used_dice + (False,) * len(view.dice)
        for i, value in enumerate(view.dice):   # right of the pawns at home, side by side
            dx = x1 - pad - (len(view.dice) - i) * (die + 6) + 6
            box = (dx, pawns_y + 2, dx + die, pawns_y + 2 + die)
            sprite = die_sprite(value, die, spent[i])
            items.append(Item("die", str(value), box,
                              paint=partial(Sheet.paste, sprite=sprite, xy=box[:2], centred=False)))
    return items


def _note_boxes(lay: Layout, view: Cross68Scene, acting: str, owners: dict[str, int], routes: frozenset[str],
                items: list[Item]) -> list[FloatBox]:
    """Where the acting player's notes go, in reading order: under the pawns at home and the dice of
    the acting house, then of the player's other houses (a Maghreb side has two), then across the
    houses no one plays in (first those of the player's colours: a Maghreb side's second house), then
    under the pawns at home of the other players' houses, in the order of play (where no house is free)."""
    pad = lay.cell // 5
    found: list[FloatBox] = []
    colours = lay.geo.colours
    after = colours[colours.index(acting):] + colours[:colours.index(acting)]
    own = [r for r in colours if r != acting and r in owners and owners[r] == owners.get(acting)]
    for route in [acting] + own:
        x0, y0, x1, y1 = lay.panel_box(route)
        _, pawns_y = _panel_rows(lay, route)
        dice = [item.box[3] for item in items
                if item.kind == "die" and x0 <= item.box[0] <= x1 and y0 <= item.box[1] <= y1]
        top = max([pawns_y + _home_rows(view, route) * _house_pitch(lay), *dice]) + 1
        found.append((x0 + pad, top, x1 - pad, y1 - 1))
    second = next((p.colour for p in view.pawns if p.route == acting and p.colour != acting), acting)
    for route in sorted(lay.geo.colours, key=lambda route: route != second):
        if route not in routes:
            x0, y0, x1, y1 = lay.panel_box(route)
            found.append((x0 + pad, y0 + pad, x1 - pad, y1 - pad / 2))
    for route in after[1:]:
        if route in routes and route not in own:
            x0, y0, x1, y1 = lay.panel_box(route)
            _, pawns_y = _panel_rows(lay, route)
            found.append((x0 + pad, pawns_y + _home_rows(view, route) * _house_pitch(lay) + 1, x1 - pad, y1 - 1))
    return found


def _home_rows(view: Cross68Scene, route: str) -> int:
    """The rows of slots a house's pawns at home take (a Maghreb house holds eight slots)."""
    mine = [p for p in view.pawns if p.route == route]
    return 2 if len(mine) > 4 and any(p.progress == HOUSE for p in mine[4:]) else 1


def _text_item(kind: str, text: str, origin: tuple[float, float], width: float, size: int) -> Item:
    box = (origin[0], origin[1], origin[0] + width, origin[1] + line_step(size))
    return Item(kind, text, box, paint=lambda sheet: sheet.lines(origin, [text], int(width), size))


def _notes(lay: Layout, notes: list[str], boxes: list[FloatBox], locale: str) -> list[Item]:
    """The notes, as readable as the square numbers, in order through `boxes` (all as wide): each whole in
    one box where one holds it (the next box rather than a split), else its lines go on in the next box
    (four-player classic's call-out note takes five lines where the acting house has three); when they do
    not all fit, the last box's last line says how many more there are (never dropped silently)."""
    size, step = readable_size(lay.size, bold=False), line_step(readable_size(lay.size, bold=False))
    wrapped = [wrap_text(note, int(boxes[0][2] - boxes[0][0]), size, 12) for note in notes]   # whole, or counted
    rooms = [int((y1 - y0) // step) for _, y1, _, y0 in ((b[0], b[3], b[2], b[1]) for b in boxes)]
    spots = [(b, k) for b, room in enumerate(rooms) for k in range(room)]   # every line's place, in reading order
    items: list[Item] = []
    at = 0   # the next free place
    for i, lines in enumerate(wrapped):
        b, k = spots[at] if at < len(spots) else (len(boxes), 0)
        if b < len(boxes) and k + len(lines) > rooms[b] and len(lines) <= (rooms[b + 1] if b + 1 < len(boxes) else 0):
            at = spots.index((b + 1, 0))   # whole in the next box rather than split
        later = len(wrapped) - i - 1
        if at + len(lines) + (later > 0) > len(spots):   # no room for it (and a count of those after it)
            if at < len(spots):
                b, k = spots[min(at, len(spots) - 1)]
                x0, y0, x1, _ = boxes[b]
                items.append(_text_item("note", i18n.text("picture.more_notes", locale, count=later + 1),
                                        (x0, y0 + k * step), x1 - x0, size))
            break
        for n, line in enumerate(lines):
            b, k = spots[at]
            x0, y0, x1, _ = boxes[b]
            if n and k == 0:   # going on from the box before: marked so at both ends
                line = _marked(f"… {line}", line, x1 - x0, size)
            if n < len(lines) - 1 and spots[at + 1][0] != b:
                line = _marked(f"{line} …", line, x1 - x0, size)
            items.append(_text_item("note", line, (x0, y0 + k * step), x1 - x0, size))
            at += 1
    return items


def _marked(marked: str, line: str, width: float, size: int) -> str:
    """A note's line with its continuation mark where the mark fits in `width` px."""
    return marked if text_length(marked, size) <= width else line


def _namer(players: list[PlayerTag]) -> Callable[[int], str]:
    return lambda seat: isolate(players[seat].name) if seat < len(players) else str(seat + 1)


def _partner(route: str, owners: dict[str, int], players: list[PlayerTag], teams: bool) -> str | None:
    """In 2 vs 2 (seats 0+2 against 1+3, PM-10.1), the name of the house owner's partner."""
    if not teams or route not in owners or len(players) != 4:
        return None
    return isolate(players[(owners[route] + 2) % 4].name)


def _banner(lay: Layout, result: Result, players: list[PlayerTag], owners: dict[str, int], locale: str,
            taken: list[FloatBox]) -> Item:
    """Who won, in a house panel under its name where no pawn stands: the winner's first."""
    text = result_text(result, players, locale) or ""
    size = number_size(lay.size)
    winners = [route for route, seat in owners.items() if seat in result.winners]
    order = sorted(lay.geo.colours, key=lambda route: (route not in winners, lay.geo.colours.index(route)))
    x0, _, x1, _ = lay.panel_box(order[0])
    width = round((x1 - x0 - 8 + 0.8 * size) / 0.86)   # Sheet.banner's band then spans the panel at most
    boxes = []
    for route in order:
        x0, y0, x1, y1 = lay.panel_box(route)
        _, below = _panel_rows(lay, route)   # under the name and status lines
        boxes.append(banner_box(text, ((x0 + x1) / 2, (below + y1) / 2), width, size)[0])
    box = first_clear(boxes, taken) or boxes[0]
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return Item("banner", text, box, paint=lambda sheet: sheet.banner(centre, text, width, size))


def _owners(pawns: tuple[ScenePawn, ...], players: list[PlayerTag]) -> dict[str, int]:
    """Index in `players` of the player whose pieces follow each route."""
    owners: dict[str, int] = {}
    for p in pawns:
        for i, tag in enumerate(players):
            if p.colour in tag.colours:
                owners.setdefault(p.route, i)
    return owners


def _acting_route(view: Cross68Scene, players: list[PlayerTag], owners: dict[str, int]) -> str | None:
    """The house that shows the dice and notes: whoever must act, else the last mover."""
    for route, i in owners.items():
        if players[i].to_move:
            return route
    if view.last_move:
        return view.last_move[0]
    return next(iter(sorted(owners)), None) or next((p.route for p in view.pawns), None)
