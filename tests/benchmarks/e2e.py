"""End to end: many games at once through the fake Discord against ONE `python -m bot` process.

Every table (channel) has two players who act as soon as their board is shown (closed loop, or
after a random think time); a finished game is followed by a new one in the same channel, so
`games` games are in play all along. The run stops by itself after `moves` moves or `seconds`.
Latency is what Discord measures: from the interaction's arrival to the bot's first response
(the fake records it); "board" is from the click until the next board is visible.
"""
from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.benchmarks.common import percentile
from tests.benchmarks.tables import Table, Timings, add_players, bot_against_fake, cpu_seconds, warm_up


STAGGER_S = 2.0


@dataclass(frozen=True)
class E2EFigures:
    games: int                 # tables in play at once
    think_s: float             # mean think time before each click (0: closed loop)
    moves: int                 # rolls and moves applied in the measured phase
    interactions: int          # everything acknowledged in that phase (moves and pawn picks)
    finished: int              # games played to their end (then a new one opened)
    seconds: float
    ack_p50_ms: float
    ack_p99_ms: float
    ack_max_ms: float
    board_p50_ms: float
    board_p99_ms: float
    bot_cpu: float             # share of one core used by the bot
    driver_cpu: float          # share of one core used by the fake Discord and the players (this process)
    stuck: int                 # tables given up after a timeout or an error
    refused: int
    per_game: dict[str, tuple[int, float, float]]   # game -> (moves, ack p50 ms, ack p99 ms)
    errors: list[str]          # why tables got stuck
    misplaced: int             # new states shown on an older board message (see docs/performance.md)

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds


async def _play(table: Table, timings: Timings, until: float, budget: list[int], think: float,
                rng: random.Random) -> int:
    """Play on this table until the time or the shared move budget runs out; return games finished."""
    finished = 0
    try:
        # Players arrive over a second or two, as they would, not in one burst of `games` clicks.
        await asyncio.sleep(rng.uniform(0, STAGGER_S))
        while time.monotonic() < until and budget[0] > 0:
            if table.finished:
                finished += 1
                await table.open()
                continue
            if think:
                await asyncio.sleep(min(rng.expovariate(1 / think), until - time.monotonic()))
                if time.monotonic() >= until:
                    break
            budget[0] -= 1
            await table.play_once(timings)
    except Exception as error:  # a broken table must not stop the run; it is reported
        timings.stuck += 1
        table.error = f"{type(error).__name__}: {str(error)[:200]}"
    return finished


@contextlib.contextmanager
def _no_collector_pauses() -> Iterator[None]:
    """No garbage collection in THIS process (the fake Discord and the players) while it measures: a
    full collection over everything the fake recorded stalls its event loop for a tenth of a second or
    more, and the interactions it was sending or answering then would count that against the bot."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


async def run(game_ids: list[str], *, games: int, moves: int, seconds: float, think: float = 0.0,
              opening: int = 40, profile: tuple[str, Path] | None = None) -> E2EFigures:
    """`games` tables spread evenly over `game_ids`; at most `opening` lobbies opened at once."""
    async with bot_against_fake(profile) as (fake, bot):
        await warm_up(fake, game_ids)
        tables = [Table(fake, game_ids[i % len(game_ids)], add_players(fake, 2, f"t{i}"), seed=i)
                  for i in range(games)]
        gate = asyncio.Semaphore(opening)

        async def open_one(table: Table) -> None:
            async with gate:
                await table.open()
        await asyncio.gather(*(open_one(t) for t in tables))
        timings = {g: Timings() for g in game_ids}
        seen = len(fake.interactions)
        rng = random.Random(0)
        cpu0, own0, start = cpu_seconds(bot.process.pid), time.process_time(), time.monotonic()
        budget = [moves]
        with _no_collector_pauses():
            done = await asyncio.gather(*(_play(t, timings[t.game], start + seconds, budget, think, rng)
                                          for t in tables))
        elapsed = time.monotonic() - start
        bot_cpu = (cpu_seconds(bot.process.pid) - cpu0) / elapsed
        driver_cpu = (time.process_time() - own0) / elapsed
        errors = [f"{t.channel.name}: {t.error}" for t in tables if t.error]
    acks = [i.ack_seconds * 1000 for i in fake.interactions[seen:] if i.ack_seconds is not None]
    boards = [s * 1000 for t in timings.values() for s in t.board_seconds]
    per_game = {}
    for game, t in timings.items():
        game_acks = [i.ack_seconds * 1000 for i in t.moves + t.picks if i.ack_seconds is not None]
        per_game[game] = (len(t.moves), percentile(game_acks, 0.5), percentile(game_acks, 0.99))
    figures = E2EFigures(
        games=games, think_s=think, moves=sum(len(t.moves) for t in timings.values()), interactions=len(acks),
        finished=sum(done), seconds=elapsed, ack_p50_ms=percentile(acks, 0.5), ack_p99_ms=percentile(acks, 0.99),
        ack_max_ms=max(acks, default=float("nan")), board_p50_ms=percentile(boards, 0.5),
        board_p99_ms=percentile(boards, 0.99), bot_cpu=bot_cpu, driver_cpu=driver_cpu, stuck=sum(t.stuck for t in timings.values()),
        refused=sum(t.refused for t in timings.values()), per_game=per_game, errors=errors,
        misplaced=sum(t.misplaced for t in tables))
    return figures
