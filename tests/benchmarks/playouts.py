"""Random-playout throughput: every seat plays uniformly random legal moves (dice from a seeded rng).

A *turn* is one player's whole turn: it is counted each time `to_move` changes. An *action* is one
`apply` call (a roll or a move). The loop is what a search-based computer player runs: legal
actions, apply, whose move, result.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from bot.games.base import Ruleset
from tests.benchmarks.common import MAX_ACTIONS, random_action


@dataclass(frozen=True)
class PlayoutFigures:
    game: str
    players: int
    games: int          # games played to their end
    abandoned: int      # games cut at MAX_ACTIONS
    turns: int
    actions: int
    seconds: float

    @property
    def turns_per_s(self) -> float:
        return self.turns / self.seconds

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds


def play_one(ruleset: Ruleset, n_players: int, seed: int) -> tuple[int, int, bool]:
    """(turns, actions, finished) of one random game."""
    rng = random.Random(seed)
    state = ruleset.new_game(n_players, {}, seed)
    to_move, result, apply = ruleset.to_move, ruleset.result, ruleset.apply
    mover = to_move(state)
    turns = 1
    for actions in range(1, MAX_ACTIONS + 1):
        state = apply(state, random_action(ruleset, state, rng)).state
        if result(state) is not None:
            return turns, actions, True
        now = to_move(state)
        if now != mover:
            turns += 1
            mover = now
    return turns, MAX_ACTIONS, False


def measure(ruleset: Ruleset, *, seconds: float, max_games: int, n_players: int | None = None,
            seed: int = 1) -> PlayoutFigures:
    """Play random games for about `seconds` (at least one game, at most `max_games`)."""
    n = n_players or ruleset.max_players
    games = abandoned = turns = actions = 0
    start = time.perf_counter()
    while games + abandoned < max_games and (games + abandoned == 0 or time.perf_counter() - start < seconds):
        t, a, finished = play_one(ruleset, n, seed + games + abandoned)
        turns += t
        actions += a
        games += finished
        abandoned += not finished
    return PlayoutFigures(ruleset.id, n, games, abandoned, turns, actions, time.perf_counter() - start)
