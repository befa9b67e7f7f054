"""Random-playout throughput: every seat plays uniformly random legal moves (dice from a seeded rng).

A *turn* is one player's whole turn: it is counted each time `to_move` changes. An *action* is one
`apply` call (a roll or a move). The loop is what a search-based computer player runs (whose move, a
roll when one is due, else legal actions and a random pick, apply), with the ruleset's methods bound
once so that the figures are the rules', not the loop's.

A run lasts about a second; `best_of` repeats it. Other work on the machine only ever slows a run
down, so the fastest run is the figure to compare (as `timeit` advises); the median is printed too.
"""
from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from bot.games.base import Ruleset
from tests.benchmarks.common import MAX_ACTIONS


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
    choice = rng.choice
    to_move, roll_due, random_roll = ruleset.to_move, ruleset.roll_due, ruleset.random_roll
    legal_actions, apply = ruleset.legal_actions, ruleset.apply
    state = ruleset.new_game(n_players, {}, seed)
    mover = to_move(state)
    turns = 1
    for actions in range(1, MAX_ACTIONS + 1):
        state = apply(state, random_roll(state, rng) if roll_due(state) else choice(legal_actions(state))).state
        now = to_move(state)
        if now is None:
            return turns, actions, True
        if now != mover:
            turns += 1
            mover = now
    return turns, MAX_ACTIONS, False


def measure(ruleset: Ruleset, *, seconds: float, max_games: int, n_players: int | None = None,
            seed: int = 1) -> PlayoutFigures:
    """Play random games for about `seconds` of CPU (at least one game, at most `max_games`)."""
    n = n_players or ruleset.max_players
    games = abandoned = turns = actions = 0
    start = time.process_time()
    while games + abandoned < max_games and (games + abandoned == 0 or time.process_time() - start < seconds):
        t, a, finished = play_one(ruleset, n, seed + games + abandoned)
        turns += t
        actions += a
        games += finished
        abandoned += not finished
    return PlayoutFigures(ruleset.id, n, games, abandoned, turns, actions, time.process_time() - start)


@dataclass(frozen=True)
class RepeatedFigures:
    runs: list[PlayoutFigures]

    @property
    def best(self) -> PlayoutFigures:
        return max(self.runs, key=lambda f: f.turns_per_s)

    @property
    def median_turns_per_s(self) -> float:
        return statistics.median(f.turns_per_s for f in self.runs)


def best_of(ruleset: Ruleset, *, runs: int, seconds: float, max_games: int) -> RepeatedFigures:
    """`runs` runs of `measure`, each on other games (seeds)."""
    return RepeatedFigures([measure(ruleset, seconds=seconds, max_games=max_games, seed=1 + 100_000 * i)
                            for i in range(runs)])
