"""Elo ratings for games of two or more sides (teams rated by their average).

Glicko-2 libraries on PyPI rate one-against-one matches in rating periods;
our games have up to four sides and teams, so a short Elo does the job:
every pair of sides that finished differently (winner against loser, or a
drawn game) is one match, and K is shared over a side's opponents so a
four-player game moves ratings about as much as a duel.
"""
from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations
from typing import TypeVar

INITIAL = 1500.0
K = 32.0

Player = TypeVar("Player", bound=Hashable)


def expected(rating: float, opponent: float) -> float:
    """The score `rating` is expected to make against `opponent` (0 to 1)."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def rate(ratings: Mapping[Player, float], sides: Sequence[Sequence[Player]],
         scores: Sequence[float]) -> dict[Player, float]:
    """The ratings after one game: `sides[i]` (its players) scored `scores[i]`
    (1 won, 0.5 drew, 0 lost). Players not yet rated start at INITIAL."""
    strength = [sum(ratings.get(p, INITIAL) for p in side) / len(side) for side in sides]
    change = [0.0] * len(sides)
    share = K / max(1, len(sides) - 1)
    for i, j in combinations(range(len(sides)), 2):
        if scores[i] == scores[j] and scores[i] != 0.5:
            continue   # two losers (or two winners) played no match against each other
        actual = 0.5 if scores[i] == scores[j] else float(scores[i] > scores[j])
        delta = share * (actual - expected(strength[i], strength[j]))
        change[i] += delta
        change[j] -= delta
    new = dict(ratings)
    for side, delta in zip(sides, change):
        for player in side:
            new[player] = ratings.get(player, INITIAL) + delta
    return new
