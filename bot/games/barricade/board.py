"""Barricade board geometry (BA-1.1) and the move tables derived from it.

The standard 112-point board is read once from data/boards/barricade.json
(boards.md section 2, also read by the renderer). The rules work on any graph
(BA-OP-1), so tests can build a small `Board` of their own with `make_board`.

Points are indices 0..n-1; `names[i]` is how players and actions call them.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from bot.core.data_files import data_file

DATA_FILE = data_file("boards", "barricade.json")

MAX_ROLL = 6

# dest -> the distinct sets of points passed on the way (destination excluded).
Reach = dict[int, tuple[frozenset[int], ...]]


@dataclass(frozen=True)
class Area:
    """A group of barricade points offered together (e.g. a band of rows)."""

    low: str
    high: str
    points: frozenset[int]


@dataclass(frozen=True, eq=False)
class Board:
    names: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    goal: int
    entry: dict[str, int]                    # colour -> entry point (BA-3.2)
    black_points: tuple[int, ...]            # initial barricades (BA-2.1)
    start_line: frozenset[int]               # never holds a barricade (BA-5.3)
    colour_sets: dict[int, tuple[str, ...]]  # player count -> colours in seat order
    coords: tuple[tuple[int, int], ...]      # drawing grid position of each point
    areas: tuple[Area, ...]
    paths: tuple[tuple[Reach, ...], ...]     # [point][n]: ordinary moves of n steps
    enter_paths: dict[str, tuple[Reach, ...]]   # [colour][n]: moves from the start area
    bounce_paths: dict[int, tuple[Reach, ...]]  # [point next to goal][n]: bounces (BA-6.2)

    @property
    def index(self) -> dict[str, int]:
        return _index(self)

    def lines(self) -> list[tuple[int, int]]:
        return [(a, b) for a, near in enumerate(self.neighbours) for b in near if a < b]

    def area_of(self, point: int) -> Area:
        return next(a for a in self.areas if point in a.points)


@cache
def _index(board: Board) -> dict[str, int]:
    return {name: i for i, name in enumerate(board.names)}


def _simple_paths(
    neighbours: tuple[tuple[int, ...], ...], goal: int, origin: int, avoid_goal: bool
) -> tuple[Reach, ...]:
    """For n = 0..MAX_ROLL, the destinations of simple paths of n steps from
    `origin` that never pass the goal (BA-3.3, BA-3.8); with `avoid_goal`
    they do not end on it either."""
    found: list[dict[int, set[frozenset[int]]]] = [{} for _ in range(MAX_ROLL + 1)]
    found[0][origin] = {frozenset()}

    def walk(point: int, passed: tuple[int, ...], visited: frozenset[int]) -> None:
        steps = len(passed) + 1
        for nxt in neighbours[point]:
            if nxt in visited or (nxt == goal and avoid_goal):
                continue
            found[steps].setdefault(nxt, set()).add(frozenset(passed))
            if steps < MAX_ROLL and nxt != goal:
                walk(nxt, passed + (nxt,), visited | {nxt})

    walk(origin, (), frozenset({origin}))
    return tuple({d: tuple(sorted(s, key=sorted)) for d, s in level.items()} for level in found)


def make_board(
    names: list[str],
    edges: list[tuple[str, str]],
    goal: str,
    entry: dict[str, str],
    black_points: list[str],
    start_line: list[str],
    colour_sets: dict[int, tuple[str, ...]],
    coords: list[tuple[int, int]] | None = None,
    areas: list[tuple[str, str, list[str]]] | None = None,
) -> Board:
    """A board from named points and lines; precomputes every move of 1..6 steps."""
    index = {name: i for i, name in enumerate(names)}
    near: list[list[int]] = [[] for _ in names]
    for a, b in edges:
        near[index[a]].append(index[b])
        near[index[b]].append(index[a])
    neighbours = tuple(tuple(sorted(n)) for n in near)
    g = index[goal]
    paths = tuple(_simple_paths(neighbours, g, p, avoid_goal=False) for p in range(len(names)))
    enter_paths: dict[str, tuple[Reach, ...]] = {}
    for colour, name in entry.items():
        e = index[name]
        # The entry point is the first step (BA-3.2, BA-OP-4); it is then passed.
        enter_paths[colour] = ({},) + tuple(
            {d: tuple(s | {e} for s in sets) if n else sets for d, sets in paths[e][n].items()}
            for n in range(MAX_ROLL)
        )
    bounce_paths: dict[int, tuple[Reach, ...]] = {}
    for p in neighbours[g]:
        back = _simple_paths(neighbours, g, p, avoid_goal=True)
        # goal -> p -> n - 2 more steps; the goal and p itself are stepped over.
        bounce_paths[p] = ({}, {}) + back[: MAX_ROLL - 1]
    area_list = tuple(Area(lo, hi, frozenset(index[n] for n in pts)) for lo, hi, pts in (areas or [("", "", names)]))
    return Board(
        names=tuple(names),
        neighbours=neighbours,
        goal=g,
        entry={c: index[n] for c, n in entry.items()},
        black_points=tuple(sorted(index[n] for n in black_points)),
        start_line=frozenset(index[n] for n in start_line),
        colour_sets=dict(colour_sets),
        coords=tuple(coords or [(0, 0)] * len(names)),
        areas=area_list,
        paths=paths,
        enter_paths=enter_paths,
        bounce_paths=bounce_paths,
    )


@cache
def standard_board() -> Board:
    """The 112-point board of boards.md section 2."""
    raw = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    cols, rows = raw["column_names"], raw["row_names"]

    def name(x: int, y: int) -> str:
        return f"{cols[x]}{rows[y]}"

    coords = [(x, y) for y, line in enumerate(raw["map"]) for x, ch in enumerate(line) if ch == "o"]
    on_board = set(coords)
    edges = [
        (name(x, y), name(x + dx, y + dy))
        for x, y in coords
        for dx, dy in ((1, 0), (0, 1))
        if (x + dx, y + dy) in on_board
    ]
    areas = [
        (lo_name, hi_name, [name(x, y) for x, y in coords if int(lo_name) <= int(rows[y]) <= int(hi_name)])
        for lo_name, hi_name in (map(str, band) for band in raw["placement_areas"])
    ]
    return make_board(
        names=[name(x, y) for x, y in coords],
        edges=edges,
        goal=name(*raw["goal"]),
        entry={c: name(*xy) for c, xy in raw["entry_points"].items()},
        black_points=[name(*xy) for xy in raw["black_points"]],
        start_line=[name(x, y) for x, y in coords if y in raw["start_line_rows"]],
        colour_sets={int(k): tuple(v) for k, v in raw["colour_sets"].items()},
        coords=coords,
        areas=areas,
    )
