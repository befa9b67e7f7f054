"""Barricade heuristic: the race of each seat's best pawn to the goal.

Distances are counted on the board graph from the goal, a barricade costing
BARRICADE_STEPS extra steps (it must be landed on exactly and moved). A seat's
score is minus the distance of its leading pawn, and a little for the others
(they take over when the leader is sent back). A barricade placed in front of
the opposing leader lengthens his distance: the normal level places them there.
"""
from __future__ import annotations

import heapq
from functools import lru_cache

from bot.ai.heuristics import Heuristic, relative
from bot.games.barricade import Barricade
from bot.games.barricade.board import Board
from bot.games.barricade.state import START, State

BARRICADE_STEPS = 4
OTHER_PAWNS_WEIGHT = 0.1


@lru_cache(maxsize=256)
def goal_distances(board: Board, barricades: tuple[int, ...]) -> tuple[float, ...]:
    """Steps from every point to the goal, barricades counting extra."""
    blocked = frozenset(barricades)
    dist = [float("inf")] * len(board.neighbours)
    dist[board.goal] = 0.0
    heap = [(0.0, board.goal)]
    while heap:
        d, point = heapq.heappop(heap)
        if d > dist[point]:
            continue
        # Reaching `point` from a neighbour costs a step, more if a barricade stands on `point`.
        step = 1 + (BARRICADE_STEPS if point in blocked else 0)
        for near in board.neighbours[point]:
            if d + step < dist[near]:
                dist[near] = d + step
                heapq.heappush(heap, (d + step, near))
    return tuple(dist)


def evaluate(ruleset: Barricade, state: State, seat: int) -> float:
    board = ruleset.board
    dist = goal_distances(board, state.barricades)
    scores = []
    for colour, pawns in zip(state.colours, state.pawns):
        entry = dist[board.entry[colour]] + 1
        ds = sorted(entry if p == START else dist[p] for p in pawns)
        scores.append(-ds[0] - OTHER_PAWNS_WEIGHT * sum(ds[1:]))
    return relative(scores, seat)


# The hard level's scale, fitted to who won 600 games of normal players (tests/benchmarks/calibration.py):
# best near 12; 4 (the scale before) read every lead too surely.
HEURISTIC: Heuristic[Barricade, State] = Heuristic(evaluate, scale=12.0, horizon=1)
