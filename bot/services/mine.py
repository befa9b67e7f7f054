"""/game mine: a person's games in play on a server, those waiting for them first (and the short list a
turn's direct message ends with)."""
from __future__ import annotations

from dataclasses import dataclass

from bot import timers
from bot.services.deadlines import Deadlines
from bot.store import GameRecord


@dataclass(frozen=True)
class WaitingGame:
    record: GameRecord
    since: float             # when the turn began to wait
    deadline: float | None   # when its time runs out (a timed game waiting for a person not away)


class MyGames(Deadlines):
    async def my_games(self, guild_id: int, user_id: int, now: float) -> tuple[list[WaitingGame], list[WaitingGame]]:
        """The games in play on the server where `user_id` sits: those waiting for them, then those waiting
        for someone else, the longest waiting first. The front end keeps those in channels they can view."""
        clocks = [c for c in await self.store.games_in_play(guild_id) if c.record.seat_of(user_id) is not None]
        running = await self.after_away(clocks)
        games = [WaitingGame(clock.record, clock.started_at, timers.deadline_ahead(run, now))
                 for clock, run in zip(clocks, running)]
        waiting = [g for g in games if timers.waiting_person(g.record) == user_id]
        return waiting, [g for g in games if timers.waiting_person(g.record) != user_id]
