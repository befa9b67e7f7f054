"""Pariti heuristic: a race of tempo to pair eight numbers.

Each unpaired number of a seat costs the moves its blue and pink pieces still
need to meet: one step once they touch, about one move per square of king
distance while near, and less beyond (jump chains cover ground fast on a
crowded board). A seat's score is its opponent's remaining cost minus its own.
"""
from __future__ import annotations

from bot.ai.heuristics import Heuristic
from bot.games.pariti import HIGHEST, Pariti, PaState, is_pair
from bot.games.pariti_board import N_SQUARES, file_rank

_COORDS = tuple(file_rank(s) for s in range(N_SQUARES))


def pairing_cost(distance: int) -> float:
    """Moves a number at this king distance still needs (1 = adjacent: one step pairs)."""
    return float(distance) if distance <= 2 else 2.0 + 0.5 * (distance - 2)


def remaining(board: tuple[int, ...]) -> tuple[float, float]:
    """Estimated moves each seat (0 even, 1 odd) still needs to pair everything."""
    where = [0] * (2 * HIGHEST + 1)
    for square, code in enumerate(board):
        if code and not is_pair(code):
            where[code] = square
    costs = [0.0, 0.0]
    for number in range(1, HIGHEST + 1):
        blue, pink = where[number], where[number + HIGHEST]
        if board[blue] != number:   # paired (both entries stale)
            continue
        (bf, br), (pf, pr) = _COORDS[blue], _COORDS[pink]
        costs[number % 2] += pairing_cost(max(abs(bf - pf), abs(br - pr)))
    return costs[0], costs[1]


def evaluate(ruleset: Pariti, state: PaState, seat: int) -> float:
    costs = remaining(state.board)
    # The seat to move is a tempo ahead of the same count.
    tempo = 0.5 if state.seat == seat else -0.5
    return costs[1 - seat] - costs[seat] + tempo


HEURISTIC: Heuristic[Pariti, PaState] = Heuristic(evaluate, scale=1.5, horizon=1)
