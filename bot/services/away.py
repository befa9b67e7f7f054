"""Time away (`/game away`): a player going on holiday says so, and while the period runs the deadlines of
the games where it is their turn wait (bot/timers.py, after_away: the scheduler reads the periods through
Deadlines.turn_clocks) and no reminder pings them. Acting in a game ends it (the store does so in the
action's transaction), as does `/game away days:0`. At most MAX_AWAY_DAYS at a time and AWAY_DAYS_PER_YEAR
in any 365 days."""
from __future__ import annotations

from bot import timers
from bot.games.base import GameError, msg
from bot.services.base import Service
from bot.store import GameRecord


class Away(Service):
    async def go_away(self, user_id: int, days: int, now: float) -> tuple[float, int]:
        """Away for `days` days from `now` (replacing a period running): its end, and the days left in the
        allowance. GameError beyond the limits."""
        if not 1 <= days <= timers.MAX_AWAY_DAYS:
            raise GameError(msg("away.error.days", max=timers.MAX_AWAY_DAYS))
        periods = await self.store.away_periods(user_id, now - timers.AWAY_WINDOW)
        allowance = timers.away_allowance(periods, now, days)
        if days > allowance:
            raise GameError(msg("away.error.allowance", count=max(allowance, 0), per_year=timers.AWAY_DAYS_PER_YEAR))
        until = now + days * timers.DAY
        await self.store.start_away(user_id, now, until)
        return until, allowance - days

    async def come_back(self, user_id: int, now: float) -> bool:
        """End the user's time away now; False when they were not away."""
        return await self.store.end_away(user_id, now)

    async def away_seats(self, record: GameRecord, now: float) -> dict[int, float]:
        """The seats of the game whose person is away now, with when their time away ends."""
        people = {seat.user_id for seat in record.seats if seat.level is None}
        away = {user: until for user, until in (await self.store.away_until(people)).items() if until > now}
        return {i: away[seat.user_id] for i, seat in enumerate(record.seats)
                if seat.level is None and seat.user_id in away}
