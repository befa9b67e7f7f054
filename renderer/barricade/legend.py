"""Barricade's legend: a line per player in the order of play, the barricades each holds, the die."""
from __future__ import annotations

from functools import partial

from bot.games.barricade.board import Board
from bot.games.barricade.state import MOVE, PLACE, SIX, State
from renderer.barricade.geometry import AXIS, BAR_RGB, DIE, HELD, LEGEND_LINE, TAG_Y, WIDTH, legend_top
from renderer.colours import (
    PIECE_RGB,
    RGB,
)
from renderer.legend import PlayerTag, tag_lines
from renderer.plan import Item
from renderer.sheet import Sheet
from renderer.sprites import die_sprite
from renderer.writing import isolate


def legend_items(board: Board, state: State, players: list[PlayerTag], numbered: bool) -> list[Item]:
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
