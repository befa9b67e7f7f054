"""Tablero's Parcheesi next to a peer: `ludopy` (pure-Python Ludo, numpy).

Both play random four-player games on this machine, one game each in turn, so that the machine's
drifting speed (other virtual machines share the host) weighs on both alike: the ratio of the two is
the figure that travels from one run to the next (the absolute figures are 10 to 30 % below those of
each engine alone: alternating, they evict each other from the CPU caches). Turns are counted alike (a
whole turn ends when the player changes); ludopy's own "turn" is one roll answered, and the ratio to
that is printed too.

ludopy is not a dependency of Tablero: `pip install ludopy` (it brings numpy and OpenCV) to run this part.
"""
from __future__ import annotations

import importlib.util
import time
from dataclasses import dataclass

from bot.games import get_ruleset
from tests.benchmarks import playouts


def available() -> bool:
    return importlib.util.find_spec("ludopy") is not None


def _ludopy_game(ludopy, rng) -> tuple[int, int]:
    """One random game as ludopy's README plays it (get_observation, answer_observation):
    (whole turns, rolls). A six, and the first round's three tries to get out, give the same
    player another roll: a whole turn ends when the player changes, as ours do."""
    game = ludopy.Game()
    turns = rolls = 0
    over, last = False, None
    while not over:
        (_, pieces, _, _, _, over), player = game.get_observation()
        game.answer_observation(pieces[rng.integers(len(pieces))] if len(pieces) else -1)
        rolls += 1
        turns += player != last
        last = player
    return turns, rolls


@dataclass(frozen=True)
class PeerFigures:
    games: int              # games each engine played
    ours_turns: int
    ours_seconds: float
    ludopy_turns: int       # whole turns, counted as ours are
    ludopy_rolls: int       # rolls answered (what ludopy calls a turn)
    ludopy_seconds: float

    @property
    def ours_per_s(self) -> float:
        return self.ours_turns / self.ours_seconds

    @property
    def ludopy_per_s(self) -> float:
        return self.ludopy_turns / self.ludopy_seconds

    @property
    def ludopy_rolls_per_s(self) -> float:
        return self.ludopy_rolls / self.ludopy_seconds

    @property
    def ratio(self) -> float:
        """Whole turns against whole turns."""
        return self.ours_per_s / self.ludopy_per_s

    @property
    def ratio_to_rolls(self) -> float:
        """Our whole turns against ludopy's rolls: the comparison most favourable to ludopy."""
        return self.ours_per_s / self.ludopy_rolls_per_s


def measure(seconds: float, seed: int = 1) -> PeerFigures:
    """One game of each in turn, CPU time summed per engine, for about `seconds` in all: a drift of
    the machine's speed lasts many games and so weighs on both engines alike."""
    import ludopy
    import numpy as np

    ruleset = get_ruleset("parcheesi")
    rng = np.random.default_rng(seed)
    clock = time.process_time
    games = ours_turns = ludopy_turns = ludopy_rolls = 0
    ours_s = ludopy_s = 0.0
    while games == 0 or ours_s + ludopy_s < seconds:
        t0 = clock()
        ours_turns += playouts.play_one(ruleset, 4, seed + games)[0]
        t1 = clock()
        turns, rolls = _ludopy_game(ludopy, rng)
        t2 = clock()
        ludopy_turns += turns
        ludopy_rolls += rolls
        ours_s += t1 - t0
        ludopy_s += t2 - t1
        games += 1
    return PeerFigures(games, ours_turns, ours_s, ludopy_turns, ludopy_rolls, ludopy_s)
