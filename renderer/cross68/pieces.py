"""Where each piece stands and how it is drawn: alone it fills its square; sharing one, smaller, inside it."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.parcheesi.board import GOAL, HOUSE, ScenePawn
from renderer.colours import (
    INK,
    PIECE_RGB,
    Box,
    shape_of,
)
from renderer.cross68.geometry import (
    CLOSED_FRAME,
    FOCUS,
    HIGHLIGHT,
    Grid,
    back_to_front,
    cell_of,
    goal_pitch,
    goal_slots,
    home_slots,
    piece_ref,
    spot_of,
    square_ref,
)
from renderer.fonts import PIECE_DIGITS, digit_height, readable_size
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


MOVABLE_RING = 3   # px round a piece the player to move may move, outside its white halo


@dataclass(frozen=True)
class Placed:
    pawn: ScenePawn
    xy: tuple[float, float]
    diameter: int
    text: int              # the label's font size (0: from the diameter)
    closed: bool = False   # stands on a square it closes with another (a bridge, a door)


def label_text(layout: Grid, diameter: int, label: str) -> int:
    """The font size of the number of a piece `diameter` px wide: its digits PIECE_DIGITS px high at chat size."""
    return max(label_size(diameter, label), readable_size(layout.size, True, PIECE_DIGITS))


def shares(box: Box, n: int, closed: bool = False) -> tuple[list[tuple[float, float]], float, float, bool]:
    """A square cut in `n` shares along its long side (a track square is a long rectangle across its arm): each
    share's centre, the reach a piece may take along and across the square, and whether the square is wide."""
    x0, y0, x1, y1 = box
    inset = CLOSED_FRAME if closed else 1   # inside the square (and a closed square's frame)
    wide = x1 - x0 >= y1 - y0
    long, short = (x1 - x0, y1 - y0) if wide else (y1 - y0, x1 - x0)
    share = (long - 2 * inset) / n
    offsets = [-long / 2 + inset + share * (i + 0.5) for i in range(n)]
    centres = [((x0 + x1) / 2 + o, (y0 + y1) / 2) if wide else ((x0 + x1) / 2, (y0 + y1) / 2 + o) for o in offsets]
    return centres, share / 2 + 1, short / 2 - inset, wide


def side_by_side(layout: Grid, group: Sequence[ScenePawn], box: Box, closed: bool, room: int = 0) -> list[Placed]:
    """Pieces sharing a square: side by side along its long side, each as large as its share holds (they may
    overlap by a pixel or two), each number readable. `room`: that many shares more, left free before them (a
    capture's mark)."""
    centres, along, across, wide = shares(box, len(group) + room, closed)
    places = []
    for p, xy in zip(group, centres[room:]):
        shape = shape_of(p.colour)
        diameter = int(min(track_diameter(layout), along / piece_reach(shape, 1, wide),
                           across / piece_reach(shape, 1, not wide)))
        places.append(Placed(p, xy, diameter, label_text(layout, diameter, p.label), closed))
    return places


def pawn_places(layout: Grid, pawns: tuple[ScenePawn, ...], any_pair_blocks: bool = False,
                slots: dict[str, tuple[float, float]] | None = None,
                marked: frozenset[str | None] = frozenset()) -> list[Placed]:
    """Where every pawn is drawn, back to front. A pawn alone fills its square, or the second half of it where
    a capture is `marked` (square_key); pawns sharing one stand inside it side by side (never on a neighbouring
    square)."""
    geo, cell = layout.geo, layout.cell
    groups: dict[str | tuple[int, str] | None, list[ScenePawn]] = defaultdict(list)
    for p in pawns:
        key = geo.square_key(p.route, p.progress) if HOUSE < p.progress < GOAL else (p.progress, p.route)
        groups[key].append(p)
    order, slots = back_to_front(geo, pawns), slots or home_slots(layout, pawns)
    places: list[Placed] = []
    lone = track_diameter(layout)
    for group in groups.values():
        group.sort(key=order.index)
        first = group[0]
        if first.progress == HOUSE:   # each pawn keeps its own slot, whoever else is at home
            places += [Placed(p, slots[piece_ref(p)], fit(shape_of(p.colour), lone, cell * 0.49),
                              label_text(layout, lone, p.label)) for p in group]
        elif first.progress >= GOAL:
            pitch = goal_pitch(layout)
            places += [Placed(p, xy, fit(shape_of(p.colour), pitch * 0.97, pitch * 0.52), 0)
                       for p, xy in zip(group, goal_slots(layout, first.route, len(group)))]
        elif len(group) == 1 and geo.square_key(first.route, first.progress) in marked:
            places += side_by_side(layout, group, layout.box(*cell_of(geo, first.route, first.progress)), False, 1)
        elif len(group) == 1:   # its label as readable as the square numbers, inside its square
            places.append(Placed(first, spot_of(layout, first.route, first.progress),
                                 fit(shape_of(first.colour), lone, cell / 2 - 1),
                                 label_text(layout, lone, first.label)))
        else:
            closed = any_pair_blocks or len({p.route for p in group}) == 1
            places += side_by_side(layout, group, layout.box(*cell_of(geo, first.route, first.progress)), closed)
    return places


def focused(pawn: ScenePawn, focus: str | None) -> bool:
    """`focus` names a pawn as colour initial + label ("Y2"), possibly followed by more."""
    if not focus:
        return False
    key = piece_ref(pawn)
    return focus.upper().startswith(key.upper()) and not focus[len(key):len(key) + 1].isalnum()


def capture_spot(layout: Grid, route: str, progress: int, pawns: Sequence[ScenePawn]) -> tuple[float, float] | None:
    """Where a capture on `route`'s square `progress` is marked: the square's middle when no piece stands there,
    its first half when one does (pawn_places stands it in the second), else nowhere (a bridge fills it)."""
    geo = layout.geo
    key = geo.square_key(route, progress)
    there = sum(HOUSE < p.progress < GOAL and geo.square_key(p.route, p.progress) == key for p in pawns)
    box = layout.box(*cell_of(geo, route, progress))
    return shares(box, 1)[0][0] if there == 0 else shares(box, 2)[0][0] if there == 1 else None


def piece_item(lay: Grid, place: Placed, chosen: bool, captured: bool = False, movable: bool = False) -> Item:
    """A piece's item: its sprite, and for a closed square (a bridge, a door) the square's frame; a piece
    `captured` (sent home by a move traced) is ringed in the traces' colour (role "captured"), one the player to
    move may move in its own colour, its own shape (role "movable")."""
    pawn, geo = place.pawn, lay.geo
    shape, ring = shape_of(pawn.colour), 4 if chosen or captured else MOVABLE_RING if movable else 0
    label = shown_label(pawn)
    colour = PIECE_RGB[pawn.colour]
    sprite = disc_sprite(colour, place.diameter, label,
                         FOCUS if chosen else HIGHLIGHT if captured else colour if movable else None, ring, shape,
                         place.text)
    square = square_ref(geo, pawn.route, pawn.progress)
    frame = lay.box(*cell_of(geo, pawn.route, pawn.progress)) if place.closed else None

    def paint(sheet: Sheet) -> None:
        if frame is not None:   # a closed square (a bridge, a door): framed in ink over its outline, round its pawns
            w = CLOSED_FRAME
            sheet.draw.rectangle((frame[0] - w, frame[1] - w, frame[2] + w, frame[3] + w), outline=INK, width=2 * w)
        sheet.paste(sprite, place.xy)
    return Item("piece", piece_ref(pawn), body_box(shape, place.diameter, place.xy), square,
                "chosen" if chosen else "blockade" if place.closed else "captured" if captured else
                "movable" if movable else "", paint,
                digits=digit_height(place.text or label_size(place.diameter, label)) if label else 0.0)
