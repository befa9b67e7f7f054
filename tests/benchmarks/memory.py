"""Resident memory (VmRSS) of the bot process per game.

Active: after a warm-up (one short game of each ruleset, so fonts, board layers and modules are
loaded), `settle` games are opened and each plays `moves` moves, so that whatever fills once per
process (bounded caches, the allocator's arenas, discord.py's internal tables) is full; then
`games` more are played: the growth of the bot's RSS over those, divided by `games`, is the
steady-state memory of an active game (its stored state is read per action, the process keeps
whatever discord.py and the cog keep per game: views of the posted boards, the channel's lock...).
Idle: the bot is restarted on the same database and warmed up again; then every stored game is
loaded once (`/game status` in its channel); the growth divided by their number is the memory of an idle
stored game that was loaded.
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass

from tests.benchmarks.tables import Table, Timings, add_players, bot_against_fake, rss_kb, warm_up


@dataclass(frozen=True)
class MemoryFigures:
    games: int                 # games measured, after `settle` others
    settle: int
    moves: int                 # moves per game
    base_kb: int               # the bot after the warm-up
    settle_kb_per_game: float  # over the first `settle` games (includes what fills once)
    active_kb_per_game: float  # steady state: over the `games` games after them
    idle_base_kb: int          # after a restart and a warm-up
    idle_kb_per_game: float


async def run(game_ids: list[str], *, games: int, settle: int, moves: int, opening: int = 40) -> MemoryFigures:
    async with bot_against_fake() as (fake, bots):
        bot = bots.processes[0]
        await warm_up(fake, game_ids)
        base = rss_kb(bot.process.pid)
        tables = [Table(fake, game_ids[i % len(game_ids)], add_players(fake, 2, f"m{i}"), seed=i)
                  for i in range(settle + games)]
        gate = asyncio.Semaphore(opening)

        async def play(table: Table) -> None:
            async with gate:
                await table.open()
                for _ in range(moves):
                    if table.finished:
                        break
                    await table.play_once(Timings())
        await asyncio.gather(*(play(t) for t in tables[:settle]))
        settled = rss_kb(bot.process.pid)
        await asyncio.gather(*(play(t) for t in tables[settle:]))
        active = rss_kb(bot.process.pid)

        await bot.terminate()
        await bot.start()
        await warm_up(fake, game_ids)
        idle_base = rss_kb(bot.process.pid)
        for table in tables:
            await fake.slash(table.players[0], table.channel, "game status")
        idle = rss_kb(bot.process.pid)
    return MemoryFigures(games, settle, moves, base, (settled - base) / settle, (active - settled) / games, idle_base,
                         (idle - idle_base) / len(tables))
