"""The moves traced on Barricade's board: the way a pawn went along the lines (the path search), the
arrows, rings and badges' colours, and a capture's mark and way back to the start area."""
from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from typing import NamedTuple

from bot.games.barricade.board import Board
from bot.games.barricade.state import START, State
from bot.games.barricade.words import START_NAME
from renderer.barricade.geometry import (
    EARLIER_RGB,
    LANES,
    LAST_MOVE_RGB,
    PAWN_R,
    POINT_R,
    RECENT,
    RING_R,
    STEP,
    WIDTH,
    centre,
    slot_centres,
)
from renderer.colours import (
    RGB,
)
from renderer.fonts import CAPTURE_MARK, WAY_HOME, at_chat
from renderer.plan import FloatBox, Item, centred, first_clear, offset_line
from renderer.sheet import Sheet


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


def ring(point_xy: tuple[float, float], r: float, colour: RGB, width: int,
          fill: RGB | None = None) -> Callable[[Sheet], None]:
    x, y = point_xy
    return lambda sheet: sheet.draw.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=width, fill=fill)


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


def trace_item(board: Board, colours: tuple[str, ...], move: Move, index: int, count: int) -> Item:
    """A move along the board's lines, under the pieces: the point left ringed, the point reached
    ringed wider, an arrow between them; a barricade placed: its point ringed."""
    seat, frm, dest, steps, barricades = move[:5]
    tip = centre(board, dest)
    if frm is None:
        return Item("trace", f"bar:{board.names[dest]}", centred(tip, 2 * RING_R + 8, 2 * RING_R + 8),
                    paint=ring(tip, RING_R + 2, LAST_MOVE_RGB, 5))
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
            ring(origin, POINT_R + 3, LAST_MOVE_RGB, 3)(sheet)
        ring(tip, RING_R + 2, colour, 5 if recent else 2)(sheet)
        if frm != dest and len(points) >= 2:
            sheet.arrow(points, colour, width)
    name = START_NAME if frm == START else board.names[frm]
    return Item("trace", f"{name}-{board.names[dest]}", (min(xs) - 15, min(ys) - 15, max(xs) + 15, max(ys) + 15),
                role=" ".join(board.names[p] for p in path), paint=paint,
                strokes=(tuple(points),) if frm != dest and len(points) >= 2 else ())


def start_slot(board: Board, state: State, seat: int, index: int) -> tuple[int, int]:
    """The slot in its start area where the pawn `index` of `seat` (there now) is drawn (as _pieces draws them)."""
    at_start = sum(p == START for p in state.pawns[seat][:index])
    return slot_centres(board, state.colours[seat])[at_start]


def capture_mark(board: Board, point: int, taken: list[FloatBox], size: tuple[int, int]) -> Item:
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


def way_home(frm: tuple[int, int], slot: tuple[int, int], name: str, colour: str) -> Item:
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
