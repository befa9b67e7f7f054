"""The Barricade (Malefiz) board picture.

The static board (lines, points, goal, start areas, the grid's letters and
numbers) is drawn once per colour set in full colour and converted once
to a fixed palette; each render copies it and pastes pawn and barricade
sprites, highlight rings, the die and the legend in that palette, so that
the palette PNG encodes fast.

A point is named by its column's letter and its row's number, printed along
the four sides, readable at chat size: the points, pawns and barricades carry
no names of their own (too small to read on a phone, test_chat_size), and the
letters and numbers of the points a player can choose now are highlighted.

`focus`: an action_group key of `Barricade`: a pawn ("e5", or "start" for
the start area) or a placement area ("rows:2-3"); or a whole move action.
"""
from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from functools import cache, partial
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.games.barricade import Barricade
from bot.games.barricade.board import Board
from bot.games.barricade.state import MOVE, PLACE, SIX, START, START_OF_TURN, State
from bot.games.barricade.words import START_NAME, group_area
from bot.present.results import result_text
from renderer.colours import (
    CHOICE,
    DIE_SPENT,
    INK,
    PAPER,
    PIECE_RGB,
    PIP_SPENT,
    RGB,
    TO_MOVE_BAND,
    TRACE,
    WHITE,
    blend,
    shape_of,
)
from renderer.fonts import CAPTURE_MARK, CHAT_WIDTH, PIECE_SIDE, WAY_HOME, at_chat, font, readable_size
from renderer.legend import PlayerTag, sentence_names, tag_lines
from renderer.plan import FloatBox, Item, Plan, centred, first_clear, offset_line, text_box
from renderer.sheet import Sheet, StaticBoard, badge_radius, banner_box, make_palette
from renderer.sprites import SUPERSAMPLE, die_sprite, disc_sprite, draw_shape, piece_reach
from renderer.writing import isolate

WIDTH = 1024
STEP = 54                     # distance between neighbouring points
AXIS = readable_size(WIDTH)   # the grid's letters and numbers, which name the points: readable at chat size
LEFT, TOP = 76, 72            # centre of point (0, 0), clear of the axis labels
POINT_R, PAWN_R, RING_R = 19, 21, 26
SLOT_STEP = 40                # start-area slots
LANES = 24                    # px the lanes of a long absence's traces spread over at most (rows are STEP apart)
DIE = 2 * AXIS - 16             # the die on a legend line: its pips readable at chat size (20 px at 400)
LEGEND_LINE = DIE + 4
HELD = math.ceil(PIECE_SIDE * WIDTH / CHAT_WIDTH)   # a barricade held, on its holder's legend line
TAG_Y = (LEGEND_LINE - AXIS - 12) // 2   # a name's band, centred on its legend line
BANNER_ROOM = 2 * AXIS + 24
BAR_RGB = (50, 44, 58)
LINE_RGB = (120, 112, 100)
GOAL_RGB = (250, 212, 80)
START_LINE_RGB = (222, 222, 222)
LAST_MOVE_RGB = TRACE
EARLIER_RGB = blend(TRACE, WHITE, 0.5)   # the older moves of a long absence (a step of the palette's ramp to WHITE)
RECENT = 4                    # the moves traced that lead (a round of four players')
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


def _circle(draw: ImageDraw.ImageDraw, xy: tuple[int, int], r: int, fill: RGB, outline: RGB, width: int) -> None:
    x, y = xy
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)


def _label(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, size: int, fill: RGB) -> None:
    draw.text(xy, text, font=font(size, True), fill=fill, anchor="mm")


@cache
def _grid(board: Board) -> tuple[dict[int, str], dict[int, str]]:
    """The column letters by x and the row numbers by y, as the points' names have them."""
    columns, rows = {}, {}
    for (x, y), name in zip(board.coords, board.names):
        columns[x] = name.rstrip("0123456789")
        rows[y] = name.lstrip("abcdefghijklmnopqrstuvwxyz")
    return columns, rows


def _axis_spots(board: Board, point: int) -> tuple[tuple[tuple[int, int], str], ...]:
    """Where the letter (above and below the board) and the number (left and right) naming `point` stand."""
    x, y = board.coords[point]
    columns, rows = _grid(board)
    letter, number = columns[x], rows[y]
    return (((LEFT + x * STEP, 24), letter), ((LEFT + x * STEP, rows_bottom(board) + 122), letter),
            ((27, TOP + y * STEP), number), ((WIDTH - 27, TOP + y * STEP), number))


# --- the static board, once per colour set ---------------------------------------

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
def _static(board: Board, colours: tuple[str, ...], finished: bool = False) -> StaticBoard:
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
    for xy, text in dict.fromkeys(spot for p in range(len(board.names)) for spot in _axis_spots(board, p)):
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
def _barricade_sprite(side: int = 2 * PAWN_R) -> Image.Image:
    """A barricade (antialiased RGBA)."""
    k = SUPERSAMPLE
    big = Image.new("RGBA", (side * k, side * k), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle((0, 0, side * k - 1, side * k - 1), radius=7 * k, fill=BAR_RGB, outline=WHITE,
                                          width=3 * k)
    return big.reduce(k)


# --- the plan -------------------------------------------------------------------------

def _focus_point(board: Board, focus: str | None) -> int | None:
    """START, a point, or None for an unknown focus."""
    pawn = (focus or "").split("-")[0]
    if pawn == START_NAME:
        return START
    return board.index.get(pawn)


def layout(ruleset: Barricade, state: State, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
           traced: Sequence[State] = ()) -> Plan:
    return plan(ruleset, state, players, focus, moves(traced),
                result_text(ruleset.result(state), sentence_names(players), locale))


class Move(NamedTuple):
    """A move as State.last_move has it (from None: a barricade placed), with what the position before it
    says of the way the pawn went: the die's `steps` and the `barricades` it could not pass (None when not
    known: a shortest way round the barricades standing now is traced)."""

    seat: int
    frm: int | None
    dest: int
    steps: int | None = None
    barricades: tuple[int, ...] | None = None
    home: tuple[tuple[int, int], ...] = ()   # the pawns it sent back to their start areas: (seat, index in pawns)


def moves(positions: Sequence[State]) -> list[Move]:
    """The pawn moves and barricade placements made along `positions` (oldest first), in order."""
    found: list[Move] = []
    for before, after in zip(positions, positions[1:]):
        if after.last_move is not None and after.last_move != before.last_move:
            dest = after.last_move[2]
            home = tuple((seat, i) for seat, (was, now) in enumerate(zip(before.pawns, after.pawns))
                         for i, (a, b) in enumerate(zip(was, now)) if a == dest and b == START)
            found.append(Move(*after.last_move, before.die, before.barricades, home))
        found += [Move(before.seat, None, p) for p in sorted(set(after.barricades) - set(before.barricades))]
    return found


def picture(ruleset: Barricade, state: State, players: list[PlayerTag], focus: str | None = None,
            moves: Sequence[Move] = (), result: str | None = None) -> Image.Image:
    """The board as a palette image (see plan)."""
    return plan(ruleset, state, players, focus, moves, result).picture()


def _ring(point_xy: tuple[float, float], r: float, colour: RGB, width: int,
          fill: RGB | None = None) -> Callable[[Sheet], None]:
    x, y = point_xy
    return lambda sheet: sheet.draw.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=width, fill=fill)


def plan(ruleset: Barricade, state: State, players: list[PlayerTag], focus: str | None = None,
         moves: Sequence[Move] = (), result: str | None = None) -> Plan:
    """The board: `moves` (oldest first; default: the last move) traced along the board's lines
    under the pieces and numbered beside them; the legend in the order of play, with the
    barricades each player holds and the die of the player to move; `result` under the legend."""
    board, colours = ruleset.board, state.colours
    size = (WIDTH, height(len(colours), board, bool(result)))
    items = [*_squares(board, colours), *_labels(board)]
    choices: list[int] = []   # the points the player can choose now, named in HIGHLIGHT along the sides
    if state.stage in (START_OF_TURN, PLACE):   # where the held barricade may go (BA-5.3)
        area = group_area(board, focus)         # the area being chosen in stands out
        for p in ruleset.free_points(state):
            xy, name = centre(board, p), board.names[p]
            if area is not None and p in area.points:
                items.append(Item("square", name, centred(xy, 2 * RING_R, 2 * RING_R), role="destination",
                                  paint=_ring(xy, RING_R, HIGHLIGHT, 7, WHITE)))
                choices.append(p)
            else:
                items.append(Item("square", name, centred(xy, 2 * POINT_R + 6, 2 * POINT_R + 6), role="free",
                                  paint=_ring(xy, POINT_R + 3, FREE_RGB, 3)))
    traced = [Move(*move) for move in moves] or ([Move(*state.last_move)] if state.last_move is not None else [])
    items += [_trace(board, colours, move, i, len(traced)) for i, move in enumerate(traced)]
    pawn = _focus_point(board, focus)
    if pawn is not None and pawn in state.pawns[state.seat] and state.stage == MOVE:
        for frm, dest in ruleset.moves(state):
            if frm == pawn:
                xy = centre(board, dest)
                items.append(Item("square", board.names[dest], centred(xy, 2 * RING_R, 2 * RING_R), role="destination",
                                  paint=_ring(xy, RING_R, HIGHLIGHT, 7, WHITE)))
                choices.append(dest)
    for xy, text in dict.fromkeys(spot for p in choices for spot in _axis_spots(board, p)):
        items.append(Item("label", text, text_box(xy, text, AXIS), role="choice",
                          paint=partial(Sheet.label, xy=xy, text=text, size=AXIS, bold=True, fill=HIGHLIGHT,
                                        anchor="mm", halo=PAPER)))
    items += _pieces(board, state, pawn if pawn is not None and pawn in state.pawns[state.seat] else None,
                     frozenset(home for move in traced for home in move.home))
    taken = [item.box for item in items if item.kind in ("piece", "label")]
    for move in traced:   # a pawn sent back to its start area: a ✕ beside the point, a dashed way to its slot
        for seat, index in move.home:
            mark = _capture_mark(board, move.dest, taken, size)
            taken.append(mark.box)
            slot = _start_slot(board, state, seat, index)
            items.insert(0, _way_home(centre(board, move.dest), slot, board.names[move.dest], colours[seat]))
            items.append(mark)
    if len(traced) > 1:   # the order of the moves, beside where each one started
        for i, (mover, left, reached, *_) in enumerate(traced):
            xy = (centre(board, reached) if left is None else slot_centres(board, colours[mover])[2] if left == START
                  else centre(board, left))
            r = badge_radius("88", AXIS)   # every badge as large
            d = POINT_R + r
            spots = [(xy[0] + dx * d * k, xy[1] + dy * d * k) for k in (1, 1.6, 2.2) for dx, dy in
                     ((-1, -1), (1, -1), (-1, 1), (1, 1), (0, -1.4), (0, 1.4), (-1.4, 0), (1.4, 0))]
            box = first_clear((centred(s, 2 * r, 2 * r) for s in spots), taken, (0, 0, *size))
            if box is not None:
                text, at = str(i + 1), ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
                items.append(Item("badge", text, box,
                                  paint=partial(Sheet.badge, xy=at, text=text, size=AXIS, radius=r,
                                                fill=LAST_MOVE_RGB if i >= len(traced) - RECENT else EARLIER_RGB)))
                taken.append(box)
    items += _legend(board, state, players, numbered=not result)
    if result:
        y = legend_top(board) + len(colours) * LEGEND_LINE + 12 + BANNER_ROOM / 2
        box, _ = banner_box(result, (WIDTH / 2, y), WIDTH - 100, AXIS)
        items.append(Item("banner", result, box,
                          paint=lambda sheet: sheet.banner((WIDTH / 2, y), result, WIDTH - 100, AXIS)))
    return Plan(size, tuple(items), partial(_static, board, colours, bool(result)))


@cache
def _squares(board: Board, colours: tuple[str, ...]) -> tuple[Item, ...]:
    found = [Item("square", name, centred(centre(board, p), STEP, STEP)) for p, name in enumerate(board.names)]
    for colour in colours:
        (x0, y0), (x1, _) = slot_centres(board, colour)[0], slot_centres(board, colour)[-1]
        found.append(Item("square", f"{colour} start", (x0 - 24, y0 - 24, x1 + 24, y0 + 24)))
    return tuple(found)


@cache
def _labels(board: Board) -> tuple[Item, ...]:
    return tuple(Item("label", text, text_box(xy, text, AXIS))
                 for xy, text in dict.fromkeys(spot for p in range(len(board.names)) for spot in _axis_spots(board, p)))


def _pieces(board: Board, state: State, chosen: int | None, captured: frozenset[tuple[int, int]] = frozenset()
            ) -> list[Item]:
    """Barricades, then pawns (a pawn in a start area is named "start", as moves name it); the
    chosen pawn framed in a square, unlike its destinations' rings; a pawn `captured` (seat, index) by a move
    traced ringed in the traces' colour in its start area (role "captured")."""
    items = []
    for p in state.barricades:
        xy, sprite = centre(board, p), _barricade_sprite()
        items.append(Item("piece", "barricade", centred(xy, *sprite.size), board.names[p],
                          paint=partial(Sheet.paste, sprite=sprite, xy=xy)))
    for seat, pawns in enumerate(state.pawns):
        colour, shape = state.colours[seat], shape_of(state.colours[seat])
        slots = iter(slot_centres(board, colour))
        for index, p in enumerate(pawns):
            at_start = p == START
            sent = at_start and (seat, index) in captured
            xy = next(slots) if at_start else centre(board, p)
            # Inside its point's cell, whatever its shape (a diamond is drawn larger than a disc).
            # In a start area, side by side, touching: PIECE_SIDE px at chat size.
            diameter = SLOT_STEP if at_start else 2 * PAWN_R + 2
            room = (SLOT_STEP if at_start else STEP - 4) / 2 / piece_reach(shape, 1, False)
            sprite = disc_sprite(PIECE_RGB[colour], int(min(diameter, room)), ring=LAST_MOVE_RGB if sent else None,
                                 ring_width=3 if sent else 0, shape=shape)
            is_chosen = seat == state.seat and p == chosen and not at_start
            w, h = (side - 6 * sent for side in sprite.size)   # its body: a ring grows the sprite
            items.append(Item("piece", START_NAME if at_start else board.names[p], centred(xy, w - 2, h - 2),
                              f"{colour} start" if at_start else board.names[p],
                              "chosen" if is_chosen else "captured" if sent else "",
                              partial(_paint_pawn, xy=xy, sprite=sprite, is_chosen=is_chosen)))
    return items


def _paint_pawn(sheet: Sheet, xy: tuple[int, int], sprite: Image.Image, is_chosen: bool) -> None:
    if is_chosen:   # a square frame: a destination is a ring
        r = RING_R + 3
        sheet.draw.rounded_rectangle((xy[0] - r, xy[1] - r, xy[0] + r, xy[1] + r), radius=6, outline=HIGHLIGHT, width=6)
    sheet.paste(sprite, xy)


def _path(board: Board, frm: int, dest: int, steps: int | None, barricades: Sequence[int]) -> list[int]:
    """The points along the board's lines from `frm` to `dest` that the pawn could have taken: never
    through a barricade (BA-3.5) nor twice through a point; of exactly `steps` steps when known (the one
    turning least), else a shortest way. A bounce (BA-6.2) goes onto the goal and back."""
    blocked = set(barricades) - {dest}
    if steps is not None and frm in board.bounce_paths and steps >= 2 and \
            dest not in _walks(board, frm, steps, blocked, dest):
        return [frm, board.goal, *_path(board, frm, dest, steps - 2, barricades)]
    if steps is not None:
        found = _walks(board, frm, steps, blocked, dest).get(dest)
        if found:
            return min(found, key=lambda way: (_turns(board, way), way))
    before = {frm: frm}
    queue = deque([frm])
    while queue and dest not in before:
        p = queue.popleft()
        for q in board.neighbours[p]:
            if q not in before and (q not in blocked or q == dest):
                before[q] = p
                queue.append(q)
    if dest not in before:   # walled in by barricades placed since: the board's own shortest way
        return _path(board, frm, dest, None, ())
    way = [dest]
    while way[-1] != frm:
        way.append(before[way[-1]])
    return way[::-1]


def _walks(board: Board, frm: int, steps: int, blocked: set[int], dest: int) -> dict[int, list[list[int]]]:
    """Every walk of `steps` steps from `frm` along the lines that passes no point of `blocked` and no point
    twice and passes the goal nowhere (it may end there), by where it ends (only those ending on `dest`)."""
    found: dict[int, list[list[int]]] = {}

    def walk(way: list[int]) -> None:
        if len(way) == steps + 1:
            if way[-1] == dest:
                found.setdefault(dest, []).append(list(way))
            return
        if way[-1] == board.goal or way[-1] in blocked:
            return
        for q in board.neighbours[way[-1]]:
            if q not in way:
                way.append(q)
                walk(way)
                way.pop()

    if frm not in blocked or frm == dest:
        walk([frm])
    return found


def _turns(board: Board, way: list[int]) -> int:
    """How often a way changes direction (the fewer, the easier it is to follow)."""
    heading = [(board.coords[b][0] - board.coords[a][0], board.coords[b][1] - board.coords[a][1])
               for a, b in zip(way, way[1:])]
    return sum(a != b for a, b in zip(heading, heading[1:]))


def _trace(board: Board, colours: tuple[str, ...], move: Move, index: int, count: int) -> Item:
    """A move along the board's lines, under the pieces: the point left ringed, the point reached
    ringed wider, an arrow between them; a barricade placed: its point ringed."""
    seat, frm, dest, steps, barricades = move[:5]
    tip = centre(board, dest)
    if frm is None:
        return Item("trace", f"bar:{board.names[dest]}", centred(tip, 2 * RING_R + 8, 2 * RING_R + 8),
                    paint=_ring(tip, RING_R + 2, LAST_MOVE_RGB, 5))
    if frm == START:   # the entry point is the first step (BA-3.2)
        path = _path(board, board.entry[colours[seat]], dest, steps - 1 if steps else None, barricades or ())
    else:
        path = _path(board, frm, dest, steps, barricades if barricades is not None else ())
    on_path: list[tuple[float, float]] = [centre(board, p) for p in path]
    if frm == START:
        on_path.insert(0, slot_centres(board, colours[seat])[2])
    lane = (index - (count - 1) / 2) * min(8, LANES / (count - 1)) if count > 1 else 0.0   # within the lines' room
    points = offset_line(on_path, lane)
    if len(points) >= 2:   # the tip at the ring of the point reached
        (ax, ay), (bx, by) = points[-2], points[-1]
        length = math.hypot(bx - ax, by - ay) or 1.0
        points[-1] = (bx + (ax - bx) * min(RING_R + 4, length / 2) / length,
                      by + (ay - by) * min(RING_R + 4, length / 2) / length)
    xs, ys = ([x for x, _ in points] + [tip[0] - RING_R - 4, tip[0] + RING_R + 4],
              [y for _, y in points] + [tip[1] - RING_R - 4, tip[1] + RING_R + 4])
    origin = None if frm == START or frm == dest else centre(board, frm)

    recent = index >= count - RECENT
    colour, width = (LAST_MOVE_RGB, 5) if recent else (EARLIER_RGB, 2)   # the last moves lead

    def paint(sheet: Sheet) -> None:
        if origin is not None and recent:
            _ring(origin, POINT_R + 3, LAST_MOVE_RGB, 3)(sheet)
        _ring(tip, RING_R + 2, colour, 5 if recent else 2)(sheet)
        if frm != dest and len(points) >= 2:
            sheet.arrow(points, colour, width)
    name = START_NAME if frm == START else board.names[frm]
    return Item("trace", f"{name}-{board.names[dest]}", (min(xs) - 15, min(ys) - 15, max(xs) + 15, max(ys) + 15),
                role=" ".join(board.names[p] for p in path), paint=paint,
                strokes=(tuple(points),) if frm != dest and len(points) >= 2 else ())


def _start_slot(board: Board, state: State, seat: int, index: int) -> tuple[int, int]:
    """The slot in its start area where the pawn `index` of `seat` (there now) is drawn (as _pieces draws them)."""
    at_start = sum(p == START for p in state.pawns[seat][:index])
    return slot_centres(board, state.colours[seat])[at_start]


def _capture_mark(board: Board, point: int, taken: list[FloatBox], size: tuple[int, int]) -> Item:
    """A capture's ✕ (CAPTURE_MARK px at chat size) beside the point where it happened, clear of every piece
    and label (the capturing pawn stands on the point)."""
    side = math.ceil(at_chat(CAPTURE_MARK, WIDTH))
    x, y = centre(board, point)
    spots = [(x + dx * d, y + dy * d) for d in (STEP * 0.55, STEP * 0.8, STEP * 1.1)
             for dx, dy in ((1, -1), (-1, -1), (1, 1), (-1, 1), (0, -1), (1, 0), (0, 1), (-1, 0))]
    box = first_clear((centred(s, side, side) for s in spots), taken, (0, 0, *size)) or centred(spots[0], side, side)
    xy = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return Item("trace", board.names[point], box, role="capture",
                paint=lambda sheet: sheet.cross(xy, side, LAST_MOVE_RGB, max(4, side // 6)), width=max(4, side // 6))


def _way_home(frm: tuple[int, int], slot: tuple[int, int], name: str, colour: str) -> Item:
    """A pawn's way back to its start area: a dashed arrow (WAY_HOME px at chat size) from the point it was taken
    on to its slot, under the pieces (role "home"; ref "<point>-<colour> start")."""
    width = math.ceil(at_chat(WAY_HOME, WIDTH))
    length = math.dist(frm, slot) or 1.0
    ux, uy = (slot[0] - frm[0]) / length, (slot[1] - frm[1]) / length
    points = ((frm[0] + ux * PAWN_R, frm[1] + uy * PAWN_R), (slot[0] - ux * PAWN_R, slot[1] - uy * PAWN_R))
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return Item("trace", f"{name}-{colour} start", (min(xs) - 15, min(ys) - 15, max(xs) + 15, max(ys) + 15),
                role="home", paint=lambda sheet: sheet.arrow(points, LAST_MOVE_RGB, width, dash=STEP / 3),
                strokes=(points,), width=width)


def _legend(board: Board, state: State, players: list[PlayerTag], numbered: bool) -> list[Item]:
    """One line per player in the order of play that was rolled for (seat order until then),
    numbered while the game goes on (on the final board, under "X wins", numbers would read as a
    ranking); the barricades each holds at the end of its line; the die of the player to move."""
    top, items = legend_top(board), []
    order = list(state.order) or list(range(len(players)))
    held = {seat: sum(h.seat == seat for h in state.held) for seat in order}
    rolled = dict(state.order_rolls)
    for line, seat in enumerate(order):
        if seat >= len(players):
            continue
        y = top + line * LEGEND_LINE
        tag = players[seat]
        right = WIDTH - 22
        if seat == state.seat and state.die is not None and state.stage in (MOVE, SIX, PLACE) or seat in rolled:
            value = rolled.get(seat, state.die)
            box = (right - DIE, y + 2, right, y + 2 + DIE)
            sprite = die_sprite(value, DIE, spent=seat in rolled or state.stage == PLACE)
            items.append(Item("die", str(value), box,
                              paint=partial(Sheet.paste, sprite=sprite, xy=box[:2], centred=False)))
            right = box[0] - 10
        for _ in range(held[seat] if seat in held else 0):   # a barricade held, framed in the holder's colour
            box = (right - HELD, y + (LEGEND_LINE - HELD) // 2, right, y + (LEGEND_LINE + HELD) // 2)
            frame = PIECE_RGB[state.colours[seat]]
            items.append(Item("piece", "barricade", box, f"{state.colours[seat]} held",
                              paint=partial(_held_barricade, box=box, frame=frame)))
            right = box[0] - 8
        shown = PlayerTag(f"{line + 1}. {isolate(tag.name)}" if state.order and numbered else tag.name, tag.colours,
                          tag.to_move)
        width = right - 22
        lines = tag_lines(shown, width, AXIS)
        items.append(Item("name", tag.name, (22, y + TAG_Y, 22 + width, y + TAG_Y + AXIS + 12), role=lines[0],
                          paint=partial(Sheet.player_tag, origin=(22, y + TAG_Y), width=width, tag=shown, size=AXIS,
                                        lines=lines)))
    return items


def _held_barricade(sheet: Sheet, box: tuple[int, int, int, int], frame: RGB) -> None:
    sheet.draw.rounded_rectangle(box, radius=6, fill=BAR_RGB, outline=frame, width=5)
