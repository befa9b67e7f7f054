"""Helpers shared by the benchmark parts: the machine, the rulesets to measure, percentiles, random games."""
from __future__ import annotations

import math
import os
import platform
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.games import GAME_IDS, get_ruleset
from bot.games.base import Ruleset


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    load = "/".join(f"{x:.1f}" for x in os.getloadavg())
    # The interpreter's path says which build runs: pure-Python figures differ by 10-40 % between
    # builds of one version (PGO/LTO or not, libpython shared or not; docs/performance.md).
    return (f"{os.cpu_count()} cores, {cpu}, Python {platform.python_version()} ({sys.executable}),"
            f" {time.strftime('%Y-%m-%d %H:%M')}, load average {load} (other work on the machine lowers every figure)")


# A random game still running after this many actions is abandoned (counted, not finished).
MAX_ACTIONS = 20_000


def rulesets(only: list[str] | None = None) -> list[Ruleset]:
    """Every registered ruleset (or those named in `only`), in menu order."""
    return [get_ruleset(game_id) for game_id in GAME_IDS if not only or game_id in only]


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of `values` (fraction in 0..1); nan when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def random_action(ruleset: Ruleset, state: Any, rng: random.Random) -> str:
    """A roll drawn from rng when one is due, else a uniformly random legal action."""
    if ruleset.roll_due(state):
        return ruleset.random_roll(state, rng)
    return rng.choice(ruleset.legal_actions(state))


def random_game(ruleset: Ruleset, n_players: int, seed: int) -> Iterator[Any]:
    """The states of one random game with every seat played at random, the initial one first."""
    rng = random.Random(seed)
    state = ruleset.new_game(n_players, {}, seed)
    yield state
    for _ in range(MAX_ACTIONS):
        if ruleset.result(state) is not None:
            return
        state = ruleset.apply(state, random_action(ruleset, state, rng)).state
        yield state
