"""The way a pawn went along the board's lines, for the trace of its move: never through a barricade nor
twice through a point, of the steps it made when known (the way turning least), else a shortest way."""
from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from bot.games.barricade.board import Board


def way_taken(board: Board, frm: int, dest: int, steps: int | None, barricades: Sequence[int]) -> list[int]:
    """The points along the board's lines from `frm` to `dest` that the pawn could have taken: never
    through a barricade (BA-3.5) nor twice through a point; of exactly `steps` steps when known (the one
    turning least), else a shortest way. A bounce (BA-6.2) goes onto the goal and back."""
    blocked = set(barricades) - {dest}
    if steps is not None and frm in board.bounce_paths and steps >= 2 and \
            dest not in _walks(board, frm, steps, blocked, dest):
        return [frm, board.goal, *way_taken(board, frm, dest, steps - 2, barricades)]
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
        return way_taken(board, frm, dest, None, ())
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
