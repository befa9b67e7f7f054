"""Where each piece stands and how it is drawn: alone it fills its square; sharing one, smaller, inside it."""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.parcheesi.board import GOAL, HOUSE, ScenePawn
from renderer.colours import (
    INK,
    PIECE_RGB,
    ink_on,
    shape_of,
)
from renderer.cross68.geometry import (
    CLOSED_FRAME,
    FOCUS,
    NUMBER_SHIFT,
    SHARED_PIECE,
    Grid,
    back_to_front,
    cell_of,
    goal_slots,
    home_slots,
    piece_ref,
    spot_of,
    square_ref,
)
from renderer.fonts import CHAT_WIDTH
from renderer.plan import (
    FloatBox,
    Item,
)
from renderer.sheet import Sheet
from renderer.sprites import disc_sprite, label_size, piece_reach

# --- pieces -----------------------------------------------------------------------------

def shown_label(pawn: ScenePawn) -> str:
    """The label a pawn carries: none in the goal, where pawns never move again (no move names
    them; their shapes count them), so that no text on the board is too small to read."""
    return "" if pawn.progress >= GOAL else pawn.label


def track_diameter(layout: Grid) -> int:
    """A pawn alone on a track or corridor square: its label readable at chat size (test_chat_size)."""
    return round(layout.cell * 0.94)


def fit(shape: str, diameter: float, reach: float) -> int:
    """`diameter`, shrunk so that a piece of `shape` reaches at most `reach` px from its centre."""
    return int(min(diameter, reach / piece_reach(shape, 1, False)))


def body_box(shape: str, diameter: int, xy: tuple[float, float]) -> FloatBox:
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


def pawn_places(layout: Grid, pawns: tuple[ScenePawn, ...], any_pair_blocks: bool = False,
                slots: dict[str, tuple[float, float]] | None = None) -> list[Placed]:
    """Where every pawn is drawn, back to front. A pawn alone fills its square; pawns sharing one
    stand inside it, smaller, corner to corner (never on a neighbouring square)."""
    geo, cell = layout.geo, layout.cell
    groups: dict[str | tuple[int, str] | None, list[ScenePawn]] = defaultdict(list)
    for p in pawns:
        key = geo.square_key(p.route, p.progress) if HOUSE < p.progress < GOAL else (p.progress, p.route)
        groups[key].append(p)
    order, slots = back_to_front(geo, pawns), slots or home_slots(layout, pawns)
    places: list[Placed] = []
    for group in groups.values():
        group.sort(key=order.index)
        first = group[0]
        if first.progress == HOUSE:   # each pawn keeps its own slot, whoever else is at home
            places += [Placed(p, slots[piece_ref(p)], fit(shape_of(p.colour), track_diameter(layout), cell * 0.49),
                              label_size(track_diameter(layout), p.label)) for p in group]
        elif first.progress >= GOAL:
            places += [Placed(p, xy, fit(shape_of(p.colour), cell * 0.56, cell * 0.3), 0)
                       for p, xy in zip(group, goal_slots(layout, first.route, len(group)))]
        elif len(group) == 1:   # its label as readable as the square numbers, inside its square
            places.append(Placed(first, spot_of(layout, first.route, first.progress),
                                 fit(shape_of(first.colour), track_diameter(layout), cell / 2 - 1),
                                 label_size(track_diameter(layout), first.label)))
        else:
            x, y = spot_of(layout, first.route, first.progress)
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
            places += [Placed(p, (x + dx, y + dy), fit(shape_of(p.colour), 2 * reach, reach), 0, closed)
                       for p, (dx, dy) in zip(group, [(-q, -q), (q, -q), (-q, q), (q, q)])]
    return places


def focused(pawn: ScenePawn, focus: str | None) -> bool:
    """`focus` names a pawn as colour initial + label ("Y2"), possibly followed by more."""
    if not focus:
        return False
    key = piece_ref(pawn)
    return focus.upper().startswith(key.upper()) and not focus[len(key):len(key) + 1].isalnum()


def piece_item(lay: Grid, place: Placed, chosen: bool, numbers: Sequence[Placed] = ()) -> Item:
    """A piece's item; the front piece of a shared square also paints the `numbers` of the pieces there, once
    both are drawn: where it overlaps the back one, that one's number stays whole, outlined in its colour."""
    pawn, geo = place.pawn, lay.geo
    shape, ring = shape_of(pawn.colour), 4 if chosen else 0
    label = "" if place.shared else shown_label(pawn)   # drawn over both pieces of the square (_piece_label)
    sprite = disc_sprite(PIECE_RGB[pawn.colour], place.diameter, label, FOCUS if chosen else None, ring, shape,
                         place.text)
    square = square_ref(geo, pawn.route, pawn.progress)
    frame = lay.box(*cell_of(geo, pawn.route, pawn.progress)) if place.closed else None

    def paint(sheet: Sheet) -> None:
        if frame is not None:   # a closed square (a bridge, a door): framed in ink over its outline, round its pawns
            w = CLOSED_FRAME
            sheet.draw.rectangle((frame[0] - w, frame[1] - w, frame[2] + w, frame[3] + w), outline=INK, width=2 * w)
        sheet.paste(sprite, place.xy)
        for other in numbers:
            fill = PIECE_RGB[other.pawn.colour]
            sheet.label(other.number_at, other.pawn.label, other.text, True, ink_on(fill), "mm", fill)
    return Item("piece", piece_ref(pawn), body_box(shape, place.diameter, place.xy), square,
                "chosen" if chosen else "blockade" if place.closed else "", paint)
