"""The moves traced: the path search that takes a trace round the words (`Around`, the way into a house), the
arrows of moves and of captured pieces going home, and the moves' order badges."""
from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import NamedTuple

from bot.games.parcheesi.board import GOAL, HOUSE
from renderer.cross68.geometry import FADED, HIGHLIGHT, RECENT, Grid, cell_of, number_size, spot_of, square_ref
from renderer.fonts import CAPTURE_MARK, WAY_HOME, at_chat
from renderer.plan import (
    FloatBox,
    Item,
    Point,
    centred,
    crossings,
    first_clear,
    gapped,
    offset_line,
    overlap,
)
from renderer.sheet import Sheet, badge_radius

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


def _house_way(lay: Grid, route: str, far: Point, slot: Point, around: Around, margin: float,
               detour: bool = True) -> list[Point]:
    """The way from `far` (a square) to `slot` (in `route`'s house panel) that crosses the fewest words, the
    shortest of them: straight, or into the panel's side between two square numbers (the owner's name and the
    goal count stand above the slots, the notes below, the square numbers all round the panel), along the slots'
    row or under it; leaving `far` by a corner of its square where that goes clear of a number beside it; with
    `detour`, also round the numbers along the house's edge (a way home, dashed, reads as no move does)."""
    geo, cell, e = lay.geo, lay.cell, lay.edges
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
    ys = [slot[1]] + [e[k] for k in range(r0, r1) if abs(e[k] - slot[1]) <= 2 * cell]
    xs = [slot[0]] + [e[k] for k in range(c0, c1) if abs(e[k] - slot[0]) <= 2 * cell]
    # into the panel's side along the slots' row, or under it; or down (up) into it; from `far`, or along the
    # house's edge first, round the numbers on its other side
    sides = [[(x_in, y)] for y in ys] + [[(x_in, y), (slot[0], y)] for y in ys if abs(y - slot[1]) > cell / 2]
    entries = [[(x_out, side[0][1]), *side] for side in sides] + [[(x, y_out), (x, y_in)] for x in xs]
    if detour:
        entries += [[*bend, (x_out, side[0][1]), *side] for side in sides
                    for bend in ([(x_out, far[1])], [(far[0], y_out), (x_out, y_out)])]
        entries += [[*bend, (x, y_out), (x, y_in)] for x in xs
                    for bend in ([(far[0], y_out)], [(x_out, far[1]), (x_out, y_out)])]
    c, r = lay.cell_at(far)   # the corners of `far`'s square
    corners = [(x, y) for x in e[max(c - 1, 0):c + 1] for y in e[max(r - 1, 0):r + 1]]
    ways = [(cost(far, slot), [far, slot])]
    for entry in entries:
        lead = min(([far], *([far, corner] for corner in corners)), key=lambda way: length(*way, entry[0]))
        way = [*lead, *entry, slot]
        ways.append((length(*way), way))
    return min(ways, key=lambda found: found[0])[1]


def _holds(box: FloatBox, xy: Point) -> bool:
    return box[0] <= xy[0] <= box[2] and box[1] <= xy[1] <= box[3]


def trace_item(lay: Grid, move: Move, index: int, count: int, slots: dict[str, Point], around: Around) -> Item:
    """A move: the squares left and reached outlined, and an arrow along the way, under the
    pieces; each move of a long absence in a lane of its own, so that they run apart. A piece
    brought out (or sent home) is traced from (or to) its own slot in the house, round the panel's words.
    The last RECENT moves lead; those before them (a long absence) are thin and pale, without outlines."""
    route, start, end, piece = move[:4]
    geo, cell = lay.geo, lay.cell
    recent = recent_move(index, count)
    width, colour = (max(3, cell // 9), HIGHLIGHT) if recent else (2, FADED)
    steps = range(start, end + 1) if start <= end else (start, end)
    lane = (index - (count - 1) / 2) * cell * 0.5 / max(count - 1, 1) if count > 1 else 0.0
    points = offset_line([spot_of(lay, route, p) for p in steps if p != HOUSE], lane)   # the way along the track
    if piece in slots and points and HOUSE in (start, end):   # in its lane, from (or to) the slot round the words
        way = _house_way(lay, route, points[0], slots[piece], around, width, detour=False)
        points = way[::-1] + points[1:] if start == HOUSE else way
    outlined = [lay.box(*cell_of(geo, route, p)) for p in (start, end) if HOUSE < p < GOAL and recent]
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
            sheet.arrow(strokes[-1], colour, width, lead=strokes[:-1])
    return Item("trace", f"{square_ref(geo, route, start)}-{square_ref(geo, route, end)}", box, role=piece or "",
                paint=paint, strokes=tuple(map(tuple, strokes)), width=width)


def recent_move(index: int, count: int) -> bool:
    """Whether the move `index` of `count` traced is one of the last RECENT, which lead."""
    return index >= count - RECENT


def way_home(lay: Grid, route: str, progress: int, slot: Point, piece: str, around: Around,
             mark: Point | None = None) -> Item:
    """A captured piece's way home: a dashed arrow, WAY_HOME px wide at chat size, from the square it was taken
    on (its capture's `mark` there) to its slot in the house, round the panel's words, under the pieces (role
    "home"; ref as a move's: "<square>-<route> house")."""
    width = math.ceil(at_chat(WAY_HOME, lay.size))
    points = _house_way(lay, route, mark or spot_of(lay, route, progress), slot, around, 2 * width)
    points[-1] = _towards(slot, points[-2], lay.cell * 0.5)
    strokes = gapped(points, around.texts, 2 * width, lay.cell / 2, 3 * width)
    xs, ys = [x for x, _ in (*points, slot)], [y for _, y in (*points, slot)]
    box = (min(xs) - 3 * width, min(ys) - 3 * width, max(xs) + 3 * width, max(ys) + 3 * width)
    return Item("trace", f"{square_ref(lay.geo, route, progress)}-{route} house", box, role="home " + piece,
                paint=lambda sheet: sheet.arrow(strokes[-1], HIGHLIGHT, width, dash=lay.cell // 3, lead=strokes[:-1])
                if strokes else None, strokes=tuple(map(tuple, strokes)), width=width)


def capture_mark(lay: Grid, route: str, progress: int, piece: str, xy: Point) -> Item:
    """A capture's mark on the square where `piece` was taken: a ✕ CAPTURE_MARK px wide at chat size, in the
    traces' colour (role "capture <piece>"; ref the square's)."""
    side = math.ceil(at_chat(CAPTURE_MARK, lay.size))
    width = max(4, side // 6)
    return Item("trace", square_ref(lay.geo, route, progress), centred(xy, side, side), role="capture " + piece,
                paint=lambda sheet: sheet.cross(xy, side, HIGHLIGHT, width), width=width)


def _towards(a: tuple[float, float], b: tuple[float, float], distance: float) -> tuple[float, float]:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length <= distance:
        return a
    return a[0] + (b[0] - a[0]) * distance / length, a[1] + (b[1] - a[1]) * distance / length


def badge_item(lay: Grid, xy: tuple[float, float], text: str, taken: list[FloatBox], recent: bool = True) -> Item:
    """A move's order number beside the square it left (centre `xy`), where it covers no piece and no
    number: at a corner of the square, else further away, always somewhere (every traced move has its
    number); its digits as large as the square numbers, readable at chat size even where the piece that
    moved shares its square and is drawn smaller. Every badge is as large (as "88" needs); an older move's
    (not `recent`) is pale."""
    size = number_size(lay.size)
    r = badge_radius("88", size)
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
    fill = HIGHLIGHT if recent else FADED
    return Item("badge", text, box, paint=lambda sheet: sheet.badge(centre, text, size, fill, r))
