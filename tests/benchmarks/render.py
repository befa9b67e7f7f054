"""Board pictures: render_png (drawing + PNG encoding) over positions taken from random games.

The players are tagged as bot/present/picture.py tags them (names, seat colours, who is to move), and the
picture is the one posted, at its posted size. The first picture of a ruleset (static layers,
fonts and sprites not cached yet) is timed apart as the cold start.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import islice
from typing import Any

from bot.games.base import Ruleset
from renderer import PlayerTag, render_png
from tests.benchmarks.common import percentile, random_game

NAMES = ("Ana", "Bruno", "Chloé", "Dai")


@dataclass(frozen=True)
class RenderFigures:
    game: str
    pictures: int
    cold_ms: float
    median_ms: float
    p95_ms: float
    # CPU time of this process per picture (time.process_time): what the picture costs whatever
    # else runs on the machine, when the wall-clock figures are inflated by waiting for a core.
    cpu_median_ms: float
    median_kb: float
    max_kb: float
    size: tuple[int, int]


def positions(ruleset: Ruleset, count: int, *, seed: int = 1) -> list[Any]:
    """`count` states spread over random games (every 7th state, so openings don't dominate)."""
    found: list[Any] = []
    game = 0
    while len(found) < count:
        found.extend(islice(random_game(ruleset, ruleset.max_players, seed + game), 0, None, 7))
        game += 1
    return found[:count]


def players_of(ruleset: Ruleset, state: Any) -> list[PlayerTag]:
    n = ruleset.max_players
    colours = ruleset.seat_colours(n, {})
    to_move = ruleset.to_move(state)
    return [PlayerTag(NAMES[i], colours[i], to_move == i) for i in range(n)]


def png_size(data: bytes) -> tuple[int, int]:
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def measure(ruleset: Ruleset, *, pictures: int, seed: int = 1) -> RenderFigures:
    states = positions(ruleset, pictures + 1, seed=seed)
    times, cpu, sizes = [], [], []
    for state in states:
        players = players_of(ruleset, state)
        start, start_cpu = time.perf_counter(), time.process_time()
        data = render_png(ruleset, state, players, "en")
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        sizes.append(len(data) / 1024)
    warm = times[1:]
    return RenderFigures(ruleset.id, len(warm), times[0], percentile(warm, 0.5), percentile(warm, 0.95),
                         percentile(cpu[1:], 0.5), percentile(sizes, 0.5), max(sizes), png_size(data))
