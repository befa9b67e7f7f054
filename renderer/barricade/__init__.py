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

from collections.abc import Sequence
from functools import cache, partial

from PIL import Image

from bot.games.barricade import Barricade
from bot.games.barricade.board import Board
from bot.games.barricade.state import MOVE, PLACE, START, START_OF_TURN, State
from bot.games.barricade.words import START_NAME, group_area
from bot.present.results import result_text
from renderer.barricade.geometry import (
    AXIS,
    BANNER_ROOM,
    BAR_RGB,
    EARLIER_RGB,
    FREE_RGB,
    GOAL_RGB,
    HIGHLIGHT,
    LANES,
    LAST_MOVE_RGB,
    LEGEND_LINE,
    PAWN_R,
    POINT_R,
    RECENT,
    RING_R,
    SLOT_STEP,
    STEP,
    WIDTH,
    axis_spots,
    centre,
    height,
    legend_top,
    rows_bottom,
    slot_centres,
)
from renderer.barricade.legend import legend_items
from renderer.barricade.paint import barricade_sprite, static_board
from renderer.barricade.traces import Move, capture_mark, moves, ring, start_slot, trace_item, way_home
from renderer.colours import (
    PAPER,
    PIECE_RGB,
    WHITE,
    shape_of,
)
from renderer.legend import PlayerTag, sentence_names
from renderer.plan import Item, Plan, centred, first_clear, text_box
from renderer.sheet import Sheet, badge_radius, banner_box
from renderer.sprites import disc_sprite, piece_reach

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


def picture(ruleset: Barricade, state: State, players: list[PlayerTag], focus: str | None = None,
            moves: Sequence[Move] = (), result: str | None = None) -> Image.Image:
    """The board as a palette image (see plan)."""
    return plan(ruleset, state, players, focus, moves, result).picture()


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
                                  paint=ring(xy, RING_R, HIGHLIGHT, 7, WHITE)))
                choices.append(p)
            else:
                items.append(Item("square", name, centred(xy, 2 * POINT_R + 6, 2 * POINT_R + 6), role="free",
                                  paint=ring(xy, POINT_R + 3, FREE_RGB, 3)))
    traced = [Move(*move) for move in moves] or ([Move(*state.last_move)] if state.last_move is not None else [])
    items += [trace_item(board, colours, move, i, len(traced)) for i, move in enumerate(traced)]
    pawn = _focus_point(board, focus)
    if pawn is not None and pawn in state.pawns[state.seat] and state.stage == MOVE:
        for frm, dest in ruleset.moves(state):
            if frm == pawn:
                xy = centre(board, dest)
                items.append(Item("square", board.names[dest], centred(xy, 2 * RING_R, 2 * RING_R), role="destination",
                                  paint=ring(xy, RING_R, HIGHLIGHT, 7, WHITE)))
                choices.append(dest)
    for xy, text in dict.fromkeys(spot for p in choices for spot in axis_spots(board, p)):
        items.append(Item("label", text, text_box(xy, text, AXIS), role="choice",
                          paint=partial(Sheet.label, xy=xy, text=text, size=AXIS, bold=True, fill=HIGHLIGHT,
                                        anchor="mm", halo=PAPER)))
    items += _pieces(board, state, pawn if pawn is not None and pawn in state.pawns[state.seat] else None,
                     frozenset(home for move in traced for home in move.home))
    taken = [item.box for item in items if item.kind in ("piece", "label")]
    for move in traced:   # a pawn sent back to its start area: a ✕ beside the point, a dashed way to its slot
        for seat, index in move.home:
            mark = capture_mark(board, move.dest, taken, size)
            taken.append(mark.box)
            slot = start_slot(board, state, seat, index)
            items.insert(0, way_home(centre(board, move.dest), slot, board.names[move.dest], colours[seat]))
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
    items += legend_items(board, state, players, numbered=not result)
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


def _pieces(board: Board, state: State, chosen: int | None, captured: frozenset[tuple[int, int]] = frozenset()
            ) -> list[Item]:
    """Barricades, then pawns (a pawn in a start area is named "start", as moves name it); the
    chosen pawn framed in a square, unlike its destinations' rings; a pawn `captured` (seat, index) by a move
    traced ringed in the traces' colour in its start area (role "captured")."""
    items = []
    for p in state.barricades:
        xy, sprite = centre(board, p), barricade_sprite()
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


# What tests and the gallery read of the family besides its layout.
__all__ = [
    "AXIS",
    "BAR_RGB",
    "FREE_RGB",
    "GOAL_RGB",
    "LANES",
    "LAST_MOVE_RGB",
    "POINT_R",
    "RECENT",
    "RING_R",
    "STEP",
    "WIDTH",
    "axis_spots",
    "centre",
    "height",
    "layout",
    "legend_top",
    "moves",
    "picture",
    "plan",
    "rows_bottom",
    "slot_centres",
]
