"""A house panel's words: its owner's name, the goal count and partner, the dice, the notes and the banner
of a finished game."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from bot.domain import i18n
from bot.games.base import Result
from bot.games.parcheesi.board import GOAL, HOUSE, Cross68Scene, ScenePawn
from bot.present.results import result_text
from renderer.colours import (
    INK,
)
from renderer.cross68.geometry import Grid, house_pitch, number_size, panel_rows
from renderer.fonts import readable_size
from renderer.legend import PlayerTag, sentence_names, tag_height, tag_lines
from renderer.plan import (
    FloatBox,
    Item,
    first_clear,
)
from renderer.sheet import Sheet, banner_box
from renderer.sprites import die_sprite
from renderer.writing import break_lines, isolate, line_step, text_length, wrap_text


def _text_width(lay: Grid) -> int:
    """The width of a house panel's words (every panel is as wide)."""
    x0, _, x1, _ = lay.panel_box(lay.geo.colours[0])
    return x1 - x0 - 2 * (lay.cell // 5)


def name_lines(lay: Grid, tag: PlayerTag) -> list[str]:
    """The lines of a house owner's name: two where one does not hold it (readable_size cannot shrink)."""
    return tag_lines(tag, _text_width(lay), readable_size(lay.size), 2)


def partner_lines(lay: Grid, partner: str, locale: str) -> list[str]:
    """The partner's line in 2 vs 2, on two where one does not hold the name (as the name's own)."""
    width = _text_width(lay) - 8
    return break_lines(i18n.text("picture.partner", locale, player=partner), [width, width], readable_size(lay.size))


def panel_items(lay: Grid, route: str, view: Cross68Scene, tag: PlayerTag | None, name: Sequence[str],
           partner: Sequence[str], acting: bool, locale: str) -> list[Item]:
    """A house panel's words: the owner's name; the pawns in the goal and the partner (2 vs 2);
    for the acting house, the dice beside the pawns at home (the notes follow: note_boxes)."""
    x0, y0, x1, y1 = lay.panel_box(route)
    pad, cell, size = lay.cell // 5, lay.cell, readable_size(lay.size)
    status_y, pawns_y = panel_rows(lay, route)
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


def note_boxes(lay: Grid, view: Cross68Scene, acting: str, owners: dict[str, int], routes: frozenset[str],
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
        _, pawns_y = panel_rows(lay, route)
        dice = [item.box[3] for item in items
                if item.kind == "die" and x0 <= item.box[0] <= x1 and y0 <= item.box[1] <= y1]
        top = max([pawns_y + _home_rows(view, route) * house_pitch(lay), *dice]) + 1
        found.append((x0 + pad, top, x1 - pad, y1 - 1))
    second = next((p.colour for p in view.pawns if p.route == acting and p.colour != acting), acting)
    for route in sorted(lay.geo.colours, key=lambda route: route != second):
        if route not in routes:
            x0, y0, x1, y1 = lay.panel_box(route)
            found.append((x0 + pad, y0 + pad, x1 - pad, y1 - pad / 2))
    for route in after[1:]:
        if route in routes and route not in own:
            x0, y0, x1, y1 = lay.panel_box(route)
            _, pawns_y = panel_rows(lay, route)
            found.append((x0 + pad, pawns_y + _home_rows(view, route) * house_pitch(lay) + 1, x1 - pad, y1 - 1))
    return found


def _home_rows(view: Cross68Scene, route: str) -> int:
    """The rows of slots a house's pawns at home take (a Maghreb house holds eight slots)."""
    mine = [p for p in view.pawns if p.route == route]
    return 2 if len(mine) > 4 and any(p.progress == HOUSE for p in mine[4:]) else 1


def _text_item(kind: str, text: str, origin: tuple[float, float], width: float, size: int) -> Item:
    box = (origin[0], origin[1], origin[0] + width, origin[1] + line_step(size))
    return Item(kind, text, box, paint=lambda sheet: sheet.lines(origin, [text], int(width), size))


def note_items(lay: Grid, notes: list[str], boxes: list[FloatBox], locale: str) -> list[Item]:
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


def namer(players: list[PlayerTag]) -> Callable[[int], str]:
    return lambda seat: isolate(players[seat].name) if seat < len(players) else str(seat + 1)


def partner_of(route: str, owners: dict[str, int], players: list[PlayerTag], teams: bool) -> str | None:
    """In 2 vs 2 (seats 0+2 against 1+3, PM-10.1), the name of the house owner's partner."""
    if not teams or route not in owners or len(players) != 4:
        return None
    return isolate(players[(owners[route] + 2) % 4].name)


def banner_item(lay: Grid, result: Result, players: list[PlayerTag], owners: dict[str, int], locale: str,
            taken: list[FloatBox]) -> Item:
    """Who won, in a house panel under its name where no pawn stands: the winner's first."""
    text = result_text(result, sentence_names(players), locale) or ""
    size = number_size(lay.size)
    winners = [route for route, seat in owners.items() if seat in result.winners]
    order = sorted(lay.geo.colours, key=lambda route: (route not in winners, lay.geo.colours.index(route)))
    x0, _, x1, _ = lay.panel_box(order[0])
    width = round((x1 - x0 - 8 + 0.8 * size) / 0.86)   # Sheet.banner's band then spans the panel at most
    boxes = []
    for route in order:
        x0, y0, x1, y1 = lay.panel_box(route)
        _, below = panel_rows(lay, route)   # under the name and status lines
        boxes.append(banner_box(text, ((x0 + x1) / 2, (below + y1) / 2), width, size)[0])
    box = first_clear(boxes, taken) or boxes[0]
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return Item("banner", text, box, paint=lambda sheet: sheet.banner(centre, text, width, size))


def owners_of(pawns: tuple[ScenePawn, ...], players: list[PlayerTag]) -> dict[str, int]:
    """Index in `players` of the player whose pieces follow each route."""
    owners: dict[str, int] = {}
    for p in pawns:
        for i, tag in enumerate(players):
            if p.colour in tag.colours:
                owners.setdefault(p.route, i)
    return owners


def acting_route(view: Cross68Scene, players: list[PlayerTag], owners: dict[str, int]) -> str | None:
    """The house that shows the dice and notes: whoever must act, else the last mover."""
    for route, i in owners.items():
        if players[i].to_move:
            return route
    if view.last_move:
        return view.last_move[0]
    return next(iter(sorted(owners)), None) or next((p.route for p in view.pawns), None)
