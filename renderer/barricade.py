"""The Barricade (Malefiz) board picture.

The static board (lines, points, goal, start areas, the grid's letters and
numbers) is drawn once per colour set in full colour and converted once
to a fixed palette; each render copies it and pastes pawn and barricade
sprites, highlight rings, the die and the legend in that palette, so that
the palette PNG encodes fast (design.md principle 6).

A point is named by its column's letter and its row's number, printed along
the four sides, readable at chat size: the points, pawns and barricades carry
no names of their own (too small to read on a phone, test_chat_size), and the
letters and numbers of the points a player can choose now are highlighted.

`focus`: an action_group key of `Barricade`: a pawn ("e5", or "start" for
the start area) or a placement area ("rows:2-3"); or a whole move action.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.barricade import Barricade
from bot.games.barricade.board import Board
from bot.games.barricade.rules import START_NAME, group_area
from bot.games.barricade.state import MOVE, PLACE, START, START_OF_TURN, State
from renderer.common import (
    CHOICE, DIE_SPENT, INK, PAPER, PIECE_RGB, PIP_SPENT, SUPERSAMPLE, TO_MOVE_BAND, TRACE, WHITE, PlayerTag, Sheet,
    StaticBoard, blend, die_sprite, disc_sprite, draw_shape, encode_png, font, make_palette, readable_size, result_text,
    shape_of,
)

WIDTH = 1024
STEP = 54                     # distance between neighbouring points
AXIS = readable_size(WIDTH)   # the grid's letters and numbers, which name the points: readable at chat size
LEFT, TOP = 76, 72            # centre of point (0, 0), clear of the axis labels
POINT_R, PAWN_R, RING_R = 19, 21, 26
SLOT_STEP = 40                # start-area slots
LEGEND_LINE = AXIS + 12
DIE = 64
BAR_RGB = (50, 44, 58)
LINE_RGB = (120, 112, 100)
GOAL_RGB = (250, 212, 80)
START_LINE_RGB = (222, 222, 222)
LAST_MOVE_RGB = TRACE
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


def height(n_players: int, board: Board) -> int:
    return legend_top(board) + n_players * LEGEND_LINE + 12


def legend_top(board: Board) -> int:
    return rows_bottom(board) + 146


def tint(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return blend(rgb, WHITE, 0.72)


def _circle(draw: ImageDraw.ImageDraw, xy: tuple[int, int], r: int, **kw) -> tuple[int, int, int, int]:
    x, y = xy
    box = (x - r, y - r, x + r, y + r)
    draw.ellipse(box, **kw)
    return box


def _label(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, size: int, fill) -> None:
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
    ramps += [(WHITE, c) for c in colours + [BAR_RGB]] + [(INK, c) for c in colours] + [(c, t) for c, t in zip(colours, tints)]
    ramps += [(c, g) for c in (HIGHLIGHT, LAST_MOVE_RGB, FREE_RGB) for g in (PAPER, WHITE, START_LINE_RGB)]
    return make_palette(solid, ramps, steps=3)


@cache
def _static(board: Board, colours: tuple[str, ...]) -> StaticBoard:
    im = Image.new("RGB", (WIDTH, height(len(colours), board)), PAPER)
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


# --- per move -----------------------------------------------------------------------

def _focus_point(board: Board, focus: str | None) -> int | None:
    """START, a point, or None for an unknown focus."""
    pawn = (focus or "").split("-")[0]
    if pawn == START_NAME:
        return START
    return board.index.get(pawn)


def render(ruleset: Barricade, state: State, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
           history: Sequence[Any] = ()) -> bytes:
    return encode_png(picture(ruleset, state, players, focus, moves(history), result_text(ruleset.result(state), players, locale)))


Move = tuple[int, int | None, int]   # (seat, from, to) as State.last_move; from None: a barricade placed


def moves(history: Sequence[State]) -> list[Move]:
    """The pawn moves and barricade placements made along `history` (positions, oldest first), in order."""
    found: list[Move] = []
    for before, after in zip(history, history[1:]):
        if after.last_move is not None and after.last_move != before.last_move:
            found.append(after.last_move)
        found += [(before.seat, None, p) for p in sorted(set(after.barricades) - set(before.barricades))]
    return found


def picture(ruleset: Barricade, state: State, players: list[PlayerTag], focus: str | None = None,
            moves: Sequence[Move] = (), result: str | None = None) -> Image.Image:
    """The board as a palette image: `moves` (oldest first; default: the last move) traced and
    numbered in order, `result` (who won) written across the board."""
    board, colours = ruleset.board, state.colours
    sheet = Sheet(_static(board, colours))
    draw = sheet.draw

    def ring(point: int, r: int, colour, width: int, fill=None) -> None:
        _circle(draw, centre(board, point), r, outline=colour, width=width, fill=fill)

    choices = []   # the points the player can choose now, named in HIGHLIGHT along the sides
    if state.stage in (START_OF_TURN, PLACE):   # where the held barricade may go (BA-5.3)
        area = group_area(board, focus)         # the area being chosen in stands out
        for p in ruleset.free_points(state):
            if area is not None and p in area.points:
                ring(p, RING_R, HIGHLIGHT, 7, fill=WHITE)
                choices.append(p)
            else:
                ring(p, POINT_R + 3, FREE_RGB, 3)
    traced = list(moves) or ([state.last_move] if state.last_move is not None else [])
    starts = []
    for seat, frm, dest in traced:
        if frm is None:   # a barricade placed: ringed, numbered on its point
            ring(dest, RING_R + 2, LAST_MOVE_RGB, 5)
            starts.append(centre(board, dest))
            continue
        origin = slot_centres(board, colours[seat])[2] if frm == START else centre(board, frm)
        if frm != START and frm != dest:
            ring(frm, POINT_R + 3, LAST_MOVE_RGB, 3)
        ring(dest, RING_R + 2, LAST_MOVE_RGB, 5)
        if frm != dest:
            tip = centre(board, dest)
            length = math.dist(origin, tip)
            sheet.arrow([origin, (tip[0] + (origin[0] - tip[0]) * (RING_R + 4) / length,
                                  tip[1] + (origin[1] - tip[1]) * (RING_R + 4) / length)], LAST_MOVE_RGB, 5)
        starts.append(origin)
    pawn = _focus_point(board, focus)
    if pawn is not None and pawn in state.pawns[state.seat]:
        if pawn != START:
            ring(pawn, RING_R + 2, HIGHLIGHT, 6)
        if state.stage == MOVE:
            for frm, dest in ruleset.moves(state):
                if frm == pawn:
                    ring(dest, RING_R, HIGHLIGHT, 7, fill=WHITE)
                    choices.append(dest)
    for xy, text in dict.fromkeys(spot for p in choices for spot in _axis_spots(board, p)):
        sheet.label(xy, text, AXIS, True, HIGHLIGHT, "mm", halo=PAPER)   # over the ink one

    for p in state.barricades:
        sheet.paste(_barricade_sprite(), centre(board, p))
    for seat, pawns in enumerate(state.pawns):
        colour = PIECE_RGB[colours[seat]]
        slots = iter(slot_centres(board, colours[seat]))
        for p in pawns:
            if p == START:
                sheet.paste(disc_sprite(colour, 2 * PAWN_R - 4, shape=shape_of(colours[seat])), next(slots))
            else:
                sheet.paste(disc_sprite(colour, 2 * PAWN_R + 2, shape=shape_of(colours[seat])), centre(board, p))
    if len(traced) > 1:   # the order of the moves, where each one started
        for i, (x, y) in enumerate(starts):
            sheet.badge((x - POINT_R, y - POINT_R), str(i + 1), AXIS, LAST_MOVE_RGB)

    top = legend_top(board)
    if state.die is not None:
        sheet.paste(die_sprite(state.die, DIE, spent=state.stage != MOVE), (WIDTH - 22 - DIE, top + 6), centred=False)
    x = WIDTH - 22 - DIE - 46
    for held in state.held:   # barricades off the board, framed in the holder's colour
        box = (x, top + 20, x + 34, top + 54)
        draw.rounded_rectangle(box, radius=6, fill=BAR_RGB, outline=PIECE_RGB[colours[held.seat]], width=5)
        x -= 42
    sheet.legend((22, top), x + 30 - 22, players, AXIS)
    if result:   # across the empty middle of the board
        sheet.banner((WIDTH / 2, TOP + 8 * STEP), result, WIDTH - 100, AXIS)
    return sheet.finish()
