"""Pariti's 7 x 10 board: numbered blue and pink pieces, pairs, the last
move's path, and the squares a chosen piece can reach.

Geometry comes from bot.games.pariti_board (data/boards/pariti.json), the
position from the PaState. The static board (squares, coordinates, the side
panel's frame) is drawn once; each picture pastes the pieces and writes the
panel (players, pairs made, draw counter, last move) onto it.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache, partial

from PIL import Image

from bot.games.pariti import (
    Pariti,
    PaState,
    destinations,
    is_pair,
    is_step,
    number_of,
    owner,
    parse_piece,
    piece_name,
)
from bot.games.pariti_board import FILES, N_FILES, N_RANKS, SQUARE_NAMES
from renderer.colours import INK
from renderer.legend import PlayerTag
from renderer.pariti.geometry import (
    AXIS,
    BOARD_X,
    BOARD_Y,
    CELL,
    DARK_SQUARE,
    FOCUS,
    HEIGHT,
    LAST,
    LIGHT_SQUARE,
    PAIR_RING,
    PIECE,
    PIECE_FILL,
    PINK,
    REACH,
    WIDTH,
    centre,
    name_lines,
    square_box,
)
from renderer.pariti.paint import piece_sprite, static_board
from renderer.pariti.panel import panel_items
from renderer.pariti.traces import draw_last_move, draw_tree_path, last_move_line, paint_piece, span, tint_square
from renderer.plan import Item, Plan, centred, first_clear, gapped, text_box
from renderer.sheet import Sheet, badge_radius


def layout(ruleset: Pariti, state: PaState, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
           traced: Sequence[PaState] = ()) -> Plan:
    return plan(ruleset, state, players, locale, focus, moves(traced))


def moves(positions: Sequence[PaState]) -> list[tuple[int, ...]]:
    """The moves made along `positions` (oldest first), in order, as PaState.last."""
    lasts = [state.last for state in positions]
    return [last for before, last in zip(lasts, lasts[1:]) if last and last != before]


def picture(ruleset: Pariti, state: PaState, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
            moves: Sequence[tuple[int, ...]] = ()) -> Image.Image:
    """The board as a palette image (see plan)."""
    return plan(ruleset, state, players, locale, focus, moves).picture()


def plan(ruleset: Pariti, state: PaState, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
         moves: Sequence[tuple[int, ...]] = ()) -> Plan:
    """The board. `focus` is a piece key such as "B7" (an action_group value): the piece is framed,
    its reachable squares tinted and named, its jump paths drawn. `moves` (oldest first; default:
    the last move) are traced under the pieces and numbered beside them; the side panel says who
    moves which numbers, the pairs made, the draw counter, who won and the last move."""
    items = [*squares_and_labels()]
    focus_code = parse_piece(focus) if focus else None
    focus_square, reach = None, {}
    # Only a piece the player to move may move has anything to show (PA-3.2, PA-4.6).
    if focus_code in state.board and ruleset.to_move(state) == owner(number_of(focus_code)):
        focus_square = state.board.index(focus_code)
        reach = destinations(state.board, focus_square)
    for square in reach:
        items.append(Item("square", SQUARE_NAMES[square], square_box(square), role="destination",
                          paint=partial(tint_square, square=square)))
    named: list[Item] = []   # an empty reachable square's name, low in it, dark on its tint, readable at chat size
    for square in reach:   # (a partner to pair with leaves no room: the grid names it)
        x0, y0, x1, y1 = square_box(square)
        if not state.board[square]:
            name = SQUARE_NAMES[square]
            low = ((x0 + x1) / 2, y1 - 4)
            named.append(Item("label", name, text_box(low, name, AXIS, anchor="md"), role="destination",
                              paint=partial(Sheet.label, xy=low, text=name, size=AXIS, bold=True, fill=INK, anchor="md",
                                            halo=REACH)))
    traced = list(moves) or ([state.last] if state.last else [])
    for path in reach.values():   # (the last move's line goes over them: it was hidden under them)
        if not is_step(path):   # round the names of the squares it lands on: its tip short of the last one's
            strokes = gapped([centre(s) for s in path], [item.box for item in named], 4, CELL / 4, 24)
            items.append(Item("trace", "-".join(SQUARE_NAMES[s] for s in path), span(path),
                              paint=partial(draw_tree_path, path=path, strokes=strokes),
                              strokes=tuple(map(tuple, strokes))))
    for last in traced if focus_square is None else traced[-1:]:   # while choosing, the last move over its paths
        path = tuple(last[2:])
        line = last_move_line(state.board, path)
        strokes = gapped(line, [item.box for item in named], 8, CELL / 4, 24) if named else [line]
        items.append(Item("trace", "-".join(SQUARE_NAMES[s] for s in path), span(path), role="last",
                          paint=partial(draw_last_move, path=path, strokes=strokes),
                          strokes=tuple(map(tuple, strokes))))
    moved = {last[-1] for last in traced}
    for square, code in enumerate(state.board):
        if code:
            chosen = square == focus_square
            ring = FOCUS if square in reach else LAST if square in moved and focus_square is None else None
            sprite = piece_sprite(code, ring)
            ref = f"pair {number_of(code)}" if is_pair(code) else piece_name(code)
            items.append(Item("piece", ref, centred(centre(square), PIECE, PIECE), SQUARE_NAMES[square],
                              "chosen" if chosen else "destination" if square in reach else "",
                              partial(paint_piece, square=square, sprite=sprite, chosen=chosen)))
    items += named
    if focus_square is None and len(traced) > 1:   # their order, beside the square each one started from
        taken = [item.box for item in items if item.kind in ("piece", "label")]
        for i, last in enumerate(traced):
            text, r = str(i + 1), badge_radius(str(i + 1), AXIS)
            x0, y0, x1, y1 = square_box(last[2])
            spots = [(x, y) for x in (x0 + r + 2, x1 - r - 2, x0, x1) for y in (y0 + r + 2, y1 - r - 2, y0, y1)]
            box = first_clear((centred(xy, 2 * r, 2 * r) for xy in spots), taken, (0, 0, WIDTH, HEIGHT))
            if box is not None:
                at = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
                items.append(Item("badge", text, box,
                                  paint=partial(Sheet.badge, xy=at, text=text, size=AXIS, fill=LAST)))
                taken.append(box)
    shown = [PlayerTag(tag.name, (), ruleset.result(state) is None and state.seat == seat)   # no swatch: the numbers
             for seat, tag in enumerate(players[:2])]                                       # tell the colours
    names = [name_lines(tag) for tag in shown]
    tall = (len(names[0]) if names else 1, len(names[1]) if len(names) > 1 else 1)
    items += panel_items(
        ruleset,
        state,
        players,
        shown,
        names,
        tall,
        locale,
        focus_code if focus_square is not None else None,
        len(reach),
    )
    return Plan((WIDTH, HEIGHT), tuple(items), partial(static_board, locale, tall))


@lru_cache(maxsize=1)
def squares_and_labels() -> tuple[Item, ...]:
    """The squares; the files' letters above and below the grid, the ranks' numbers left and right."""
    bx1, by1 = BOARD_X + N_FILES * CELL, BOARD_Y + N_RANKS * CELL
    spots: list[tuple[tuple[float, float], str]] = [((BOARD_X + f * CELL + CELL / 2, y), name)
                                                    for f, name in enumerate(FILES) for y in (BOARD_Y - 27, by1 + 27)]
    spots += [((x, BOARD_Y + (N_RANKS - 1 - r) * CELL + CELL / 2), str(r + 1)) for r in range(N_RANKS)
              for x in (BOARD_X - 26, bx1 + 25)]
    return (*(Item("square", name, square_box(sq)) for sq, name in enumerate(SQUARE_NAMES)),
            *(Item("label", text, text_box(xy, text, AXIS)) for xy, text in spots))


# What tests read of the family besides its layout.
__all__ = [
    "AXIS",
    "DARK_SQUARE",
    "HEIGHT",
    "LAST",
    "LIGHT_SQUARE",
    "PAIR_RING",
    "PIECE",
    "PIECE_FILL",
    "PINK",
    "REACH",
    "WIDTH",
    "centre",
    "layout",
    "moves",
    "picture",
    "plan",
    "square_box",
]
