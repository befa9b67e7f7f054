"""Time away (`/game away`): a player going on holiday says so, and while the period runs the deadlines of
the games where it is their turn wait (bot/domain/deadline_math.py, after_away: the scheduler reads the periods through
Deadlines.turn_clocks) and no reminder pings them. Acting in a game ends it (the store does so in the
action's transaction), as does `/game away days:0`. At most MAX_AWAY_DAYS at a time and AWAY_DAYS_PER_YEAR
in any 365 days."""
from __future__ import annotations

from dataclasses import dataclass

from bot.core.game_records import GameRecord
from bot.domain import deadline_math
from bot.games.base import GameError, msg
from bot.store import Store


@dataclass(frozen=True)
class People:
    away: dict[int, float]     # the seats whose person is away now, with when their time away ends
    turn_dms: frozenset[int]   # the users who want a direct message when their turn comes (/game notify)


class Away:
    def __init__(self, store: Store):
        self.store = store

    async def go_away(self, user_id: int, days: int, now: float) -> tuple[float, int]:
        """Away for `days` days from `now` (replacing a period running): its end, and the days left in the
        allowance. GameError beyond the limits."""
        if not 1 <= days <= deadline_math.MAX_AWAY_DAYS:
            raise GameError(msg("away.error.days", max=deadline_math.MAX_AWAY_DAYS))
        periods = await self.store.people.away_periods(user_id, now - deadline_math.AWAY_WINDOW)
        allowance = deadline_math.away_allowance(periods, now, days)
        if days > allowance:
            raise GameError(msg("away.error.allowance", count=max(allowance, 0),
                                per_year=deadline_math.AWAY_DAYS_PER_YEAR))
        until = now + days * deadline_math.DAY
        await self.store.people.start_away(user_id, now, until)
        return until, allowance - days

    async def come_back(self, user_id: int, now: float) -> bool:
        """End the user's time away now; False when they were not away."""
        return await self.store.people.end_away(user_id, now)



def people_of(record: GameRecord, away: dict[int, float], turn_dms: set[int], now: float) -> People:
    """The game's People, from the end of each user's latest time away and who wants a direct message
    (PeopleRows.of)."""
    return People({i: away[seat.user_id] for i, seat in enumerate(record.seats)
                   if seat.level is None and away.get(seat.user_id, now) > now}, frozenset(turn_dms))
