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

Rooms: geometry.py (sizes, colours, points and legend lines in pixels, the grid's names), static.py (the static
board and the barricade's sprite), paths.py (the way a move went, for its trace); here, the plan of a picture.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache, partial
from typing import NamedTuple

from PIL import Image

from bot.games.barricade import Barricade
from bot.games.barricade.board import Board
from bot.games.barricade.state import MOVE, PLACE, SIX, START, START_OF_TURN, State
from bot.games.barricade.words import START_NAME, group_area
from bot.present.results import result_text
from renderer.barricade.geometry import (
    AXIS,
    BANNER_ROOM,
    BAR_RGB,
    DIE,
    FREE_RGB,
    GOAL_RGB,
    HIGHLIGHT,
    LAST_MOVE_RGB,
    LEGEND_LINE,
    PAWN_R,
    POINT_R,
    RING_R,
    STEP,
    TAG_Y,
    WIDTH,
    axis_spots,
    centre,
    height,
    legend_top,
    slot_centres,
)
from renderer.barricade.paths import way_taken
from renderer.barricade.static import barricade_sprite, static_board
from renderer.colours import (
    PAPER,
    PIECE_RGB,
    RGB,
    WHITE,
    shape_of,
)
from renderer.legend import PlayerTag, sentence_names, tag_lines
from renderer.plan import Item, Plan, centred, first_clear, offset_line, text_box
from renderer.sheet import Sheet, badge_radius, banner_box
from renderer.sprites import die_sprite, disc_sprite, piece_reach
from renderer.writing import isolate

# What tests read of the board's geometry and colours.
__all__ = ["BAR_RGB", "FREE_RGB", "GOAL_RGB", "LAST_MOVE_RGB", "POINT_R", "RING_R", "Move", "axis_spots", "centre",
           "layout", "moves", "picture", "plan", "slot_centres"]

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


def moves(positions: Sequence[State]) -> list[Move]:
    """The pawn moves and barricade placements made along `positions` (oldest first), in order."""
    found: list[Move] = []
    for before, after in zip(positions, positions[1:]):
        if after.last_move is not None and after.last_move != before.last_move:
            found.append(Move(*after.last_move, before.die, before.barricades))
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
    for xy, text in dict.fromkeys(spot for p in choices for spot in axis_spots(board, p)):
        items.append(Item("label", text, text_box(xy, text, AXIS), role="choice",
                          paint=partial(Sheet.label, xy=xy, text=text, size=AXIS, bold=True, fill=HIGHLIGHT,
                                        anchor="mm", halo=PAPER)))
    items += _pieces(board, state, pawn if pawn is not None and pawn in state.pawns[state.seat] else None)
    taken = [item.box for item in items if item.kind in ("piece", "label")]
    if len(traced) > 1:   # the order of the moves, beside where each one started
        for i, (mover, left, reached, _, _) in enumerate(traced):
            xy = (centre(board, reached) if left is None else slot_centres(board, colours[mover])[2] if left == START
                  else centre(board, left))
            r = badge_radius(str(i + 1), AXIS)
            d = POINT_R + r
            spots = [(xy[0] + dx * d * k, xy[1] + dy * d * k) for k in (1, 1.6, 2.2) for dx, dy in
                     ((-1, -1), (1, -1), (-1, 1), (1, 1), (0, -1.4), (0, 1.4), (-1.4, 0), (1.4, 0))]
            box = first_clear((centred(s, 2 * r, 2 * r) for s in spots), taken, (0, 0, *size))
            if box is not None:
                text, at = str(i + 1), ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
                items.append(Item("badge", text, box,
                                  paint=partial(Sheet.badge, xy=at, text=text, size=AXIS, fill=LAST_MOVE_RGB)))
                taken.append(box)
    items += _legend(board, state, players, numbered=not result)
    if result:
        y = legend_top(board) + len(colours) * LEGEND_LINE + 12 + BANNER_ROOM / 2
        box, _ = banner_box(result, (WIDTH / 2, y), WIDTH - 100, AXIS)
        items.append(Item("banner", result, box,
                          paint=lambda sheet: sheet.banner((WIDTH / 2, y), result, WIDTH - 100, AXIS)))
    return Plan(size, tuple(items), partial(static_board, board, colours, bool(result)))


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
                 for xy, text in dict.fromkeys(spot for p in range(len(board.names)) for spot in axis_spots(board, p)))


def _pieces(board: Board, state: State, chosen: int | None) -> list[Item]:
    """Barricades, then pawns (a pawn in a start area is named "start", as moves name it); the
    chosen pawn framed in a square, unlike its destinations' rings."""
    items = []
    for p in state.barricades:
        xy, sprite = centre(board, p), barricade_sprite()
        items.append(Item("piece", "barricade", centred(xy, *sprite.size), board.names[p],
                          paint=partial(Sheet.paste, sprite=sprite, xy=xy)))
    for seat, pawns in enumerate(state.pawns):
        colour, shape = state.colours[seat], shape_of(state.colours[seat])
        slots = iter(slot_centres(board, colour))
        for p in pawns:
            at_start = p == START
            xy = next(slots) if at_start else centre(board, p)
            # Inside its point's cell, whatever its shape (a diamond is drawn larger than a disc).
            diameter = 2 * PAWN_R - 4 if at_start else 2 * PAWN_R + 2
            room = (2 * PAWN_R - 4 if at_start else STEP - 4) / 2 / piece_reach(shape, 1, False)
            sprite = disc_sprite(PIECE_RGB[colour], int(min(diameter, room)), shape=shape)
            is_chosen = seat == state.seat and p == chosen and not at_start
            w, h = sprite.size
            items.append(Item("piece", START_NAME if at_start else board.names[p], centred(xy, w - 2, h - 2),
                              f"{colour} start" if at_start else board.names[p], "chosen" if is_chosen else "",
                              partial(_paint_pawn, xy=xy, sprite=sprite, is_chosen=is_chosen)))
    return items


def _paint_pawn(sheet: Sheet, xy: tuple[int, int], sprite: Image.Image, is_chosen: bool) -> None:
    if is_chosen:   # a square frame: a destination is a ring
        r = RING_R + 3
        sheet.draw.rounded_rectangle((xy[0] - r, xy[1] - r, xy[0] + r, xy[1] + r), radius=6, outline=HIGHLIGHT, width=6)
    sheet.paste(sprite, xy)




def _trace(board: Board, colours: tuple[str, ...], move: Move, index: int, count: int) -> Item:
    """A move along the board's lines, under the pieces: the point left ringed, the point reached
    ringed wider, an arrow between them; a barricade placed: its point ringed."""
    seat, frm, dest, steps, barricades = move
    tip = centre(board, dest)
    if frm is None:
        return Item("trace", f"bar:{board.names[dest]}", centred(tip, 2 * RING_R + 8, 2 * RING_R + 8),
                    paint=_ring(tip, RING_R + 2, LAST_MOVE_RGB, 5))
    if frm == START:   # the entry point is the first step (BA-3.2)
        path = way_taken(board, board.entry[colours[seat]], dest, steps - 1 if steps else None, barricades or ())
    else:
        path = way_taken(board, frm, dest, steps, barricades if barricades is not None else ())
    on_path: list[tuple[float, float]] = [centre(board, p) for p in path]
    if frm == START:
        on_path.insert(0, slot_centres(board, colours[seat])[2])
    lane = (index - (count - 1) / 2) * 8 if count > 1 else 0.0
    points = offset_line(on_path, lane)
    if len(points) >= 2:   # the tip at the ring of the point reached
        (ax, ay), (bx, by) = points[-2], points[-1]
        length = math.hypot(bx - ax, by - ay) or 1.0
        points[-1] = (bx + (ax - bx) * min(RING_R + 4, length / 2) / length,
                      by + (ay - by) * min(RING_R + 4, length / 2) / length)
    xs, ys = ([x for x, _ in points] + [tip[0] - RING_R - 4, tip[0] + RING_R + 4],
              [y for _, y in points] + [tip[1] - RING_R - 4, tip[1] + RING_R + 4])
    origin = None if frm == START or frm == dest else centre(board, frm)

    def paint(sheet: Sheet) -> None:
        if origin is not None:
            _ring(origin, POINT_R + 3, LAST_MOVE_RGB, 3)(sheet)
        _ring(tip, RING_R + 2, LAST_MOVE_RGB, 5)(sheet)
        if frm != dest and len(points) >= 2:
            sheet.arrow(points, LAST_MOVE_RGB, 5)
    name = START_NAME if frm == START else board.names[frm]
    return Item("trace", f"{name}-{board.names[dest]}", (min(xs) - 15, min(ys) - 15, max(xs) + 15, max(ys) + 15),
                role=" ".join(board.names[p] for p in path), paint=paint,
                strokes=(tuple(points),) if frm != dest and len(points) >= 2 else ())


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
            box = (right - AXIS, y + TAG_Y + 4, right, y + TAG_Y + AXIS + 4)
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
