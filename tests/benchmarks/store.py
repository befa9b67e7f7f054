"""The store's move path, alone: what one move costs the bot process in the database layer.

A move is what the session service does on a click: load the channel's open game (`open_game`),
then `append_action` (the action and the new snapshot in one version-checked transaction). The
snapshots are real: a Parcheesi game played at random, one snapshot per move. `games` games take
turns, one move at a time each (the bot serves many channels). CPU is the bot process's own
(time.process_time: the SQLite store's thread included; PostgreSQL's server is another process, its work is
not counted), wall time is per move, sequential, over loopback.
"""
from __future__ import annotations

import asyncio
import tempfile
import time
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from bot.games import get_ruleset
from bot.game_records import Seat
from bot.store import Store
from tests.benchmarks.common import random_game
from tests.databases import Unreachable, scratch_database


@dataclass(frozen=True)
class StoreFigures:
    backend: str
    moves: int
    cpu_ms_per_move: float
    wall_ms_per_move: float


async def measure(database: str, backend: str, *, moves: int, games: int = 20, first_channel: int = 1) -> StoreFigures:
    ruleset = get_ruleset("parcheesi")
    snapshots = [ruleset.to_json(s) for s in islice(random_game(ruleset, 4, seed=3), 200)]
    store = await Store.open(database)
    try:
        channels = []
        for channel in range(first_channel, first_channel + games):
            record = await store.create_game(guild_id=1, channel_id=channel, game="parcheesi", host=Seat(1, "A"),
                                             locale="en", options={}, seed="00" * 32)
            await store.update_game(record, status="active", state=snapshots[0])
            channels.append(channel)
        wall, cpu = time.perf_counter(), time.process_time()
        for n in range(moves):
            record = await store.open_game(channels[n % games])
            await store.append_action(record, seat=0, user_id=1, action="1", legal=True,
                                      state=snapshots[record.version % len(snapshots)],
                                      events=[{"key": "moved", "params": {"seat": 0}}])
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        await store.close()
    return StoreFigures(backend, moves, cpu * 1000 / moves, wall * 1000 / moves)


def run(moves: int, runs: int) -> tuple[list[StoreFigures], str | None]:
    """The best of `runs` on a temporary SQLite file and on a scratch database of the test server
    (TABLERO_TEST_POSTGRES); the reason PostgreSQL was not measured, if it was not."""
    figures = []
    with tempfile.TemporaryDirectory() as directory:
        figures.append(min((asyncio.run(measure(str(Path(directory) / f"{n}.sqlite3"), "sqlite", moves=moves))
                            for n in range(runs)), key=lambda f: f.cpu_ms_per_move))
    try:
        with scratch_database("benchmark") as url:
            figures.append(min((asyncio.run(measure(url, "postgresql", moves=moves, first_channel=1000 * n))
                                for n in range(1, runs + 1)),
                               key=lambda f: f.cpu_ms_per_move))
    except Unreachable as exc:
        return figures, str(exc)
    return figures, None
