"""Resident memory (VmRSS) of the bot process per game.

Active: after a warm-up (one short game of each ruleset, so fonts, board layers and modules are
loaded), `games` games are opened and each plays `moves` moves; the growth of the bot's RSS divided
by `games` is the memory of an active game (its stored state is read per action, the process keeps
whatever discord.py and the cog keep per game: views of the posted boards, the channel's lock...).
Idle: the bot is restarted on the same database and warmed up again; then every stored game is
loaded once (`/game status` in its channel); the growth divided by `games` is the memory of an idle
stored game that was loaded.
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass

from tests.benchmarks.tables import Table, Timings, add_players, bot_against_fake, rss_kb, warm_up


@dataclass(frozen=True)
class MemoryFigures:
    games: int
    moves: int                 # moves per game
    base_kb: int               # the bot after the warm-up
    active_kb_per_game: float
    # The second half of the games only: the bounded caches of the renderers (player-name sprites...)
    # are mostly full by then, so this is nearer to what each further game costs.
    marginal_kb_per_game: float
    idle_base_kb: int          # after a restart and a warm-up
    idle_kb_per_game: float


async def run(game_ids: list[str], *, games: int, moves: int, opening: int = 40) -> MemoryFigures:
    async with bot_against_fake() as (fake, bot):
        await warm_up(fake, game_ids)
        base = rss_kb(bot.process.pid)
        tables = [Table(fake, game_ids[i % len(game_ids)], add_players(fake, 2, f"m{i}"), seed=i)
                  for i in range(games)]
        gate = asyncio.Semaphore(opening)

        async def play(table: Table) -> None:
            async with gate:
                await table.open()
                for _ in range(moves):
                    if table.finished:
                        break
                    await table.play_once(Timings())
        half = games // 2
        await asyncio.gather(*(play(t) for t in tables[:half]))
        middle = rss_kb(bot.process.pid)
        await asyncio.gather(*(play(t) for t in tables[half:]))
        active = rss_kb(bot.process.pid)

        await bot.terminate()
        await bot.start()
        await warm_up(fake, game_ids)
        idle_base = rss_kb(bot.process.pid)
        for table in tables:
            await fake.slash(table.players[0], table.channel, "game status")
        idle = rss_kb(bot.process.pid)
    return MemoryFigures(games, moves, base, (active - base) / games, (active - middle) / (games - half), idle_base,
                         (idle - idle_base) / games)
