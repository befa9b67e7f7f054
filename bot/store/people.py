"""People's time away and their wish for a direct message when their turn comes (`store.people`)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Double, bindparam, func, null, select

from bot.store.backends import upserts
from bot.store.calls import Database
from bot.store.schema import Row, Statements, away_periods, turn_notifications

# A user's time away ends at log_at (named after the action's columns: a person who acts is back, and
# their time away ends with the move, bot/store/games.py; log_user_id NULL, a computer or a deadline: nothing
# to end).
END_AWAY = (away_periods.update().values(until=bindparam("log_at"))
            .where(away_periods.c.user_id == bindparam("log_user_id"), away_periods.c.until > bindparam("log_at")))
_START_AWAY = upserts(lambda insert: (
    stmt := insert(away_periods).values(user_id=bindparam("log_user_id"), started_at=bindparam("log_at"),
                                        until=bindparam("until")))
    .on_conflict_do_update(index_elements=list(away_periods.primary_key), set_={"until": stmt.excluded.until}))
_AWAY_PERIODS = (select(away_periods.c.started_at, away_periods.c.until)
                 .where(away_periods.c.user_id == bindparam("user"), away_periods.c.until > bindparam("since"))
                 .order_by(away_periods.c.started_at))
_AWAY_UNTIL = (select(away_periods.c.user_id, func.max(away_periods.c.until).label("until"))
               .where(away_periods.c.user_id.in_(bindparam("users", expanding=True))).group_by(away_periods.c.user_id))
# Each user's latest time away, then (until NULL) those who want a direct message on their turn: one round trip.
PEOPLE = _AWAY_UNTIL.union_all(
    select(turn_notifications.c.user_id, null().cast(Double).label("until"))
    .where(turn_notifications.c.user_id.in_(bindparam("users", expanding=True))))
_TURN_NOTIFICATIONS = upserts(lambda insert: insert(turn_notifications).values(user_id=bindparam("user"))
                              .on_conflict_do_nothing())
_NO_TURN_NOTIFICATIONS = turn_notifications.delete().where(turn_notifications.c.user_id == bindparam("user"))


def people_of(rows: Sequence[Row]) -> tuple[dict[int, float], set[int]]:
    """PEOPLE's rows: the end of each user's latest time away, and those who want a direct message on their turn."""
    return ({row["user_id"]: row["until"] for row in rows if row["until"] is not None},
            {row["user_id"] for row in rows if row["until"] is None and row["user_id"] is not None})


async def _start_away(db: Statements, parameters: dict[str, Any]) -> None:
    await db.execute(END_AWAY, parameters)
    await db.execute(_START_AWAY[db.dialect], parameters)


class PeopleRows:
    """People's time away and their wish for a direct message when their turn comes."""

    def __init__(self, store: Database):
        self._store = store

    async def away_periods(self, user_id: int, since: float) -> list[tuple[float, float]]:
        """The user's periods away (started_at, until) that ended after `since`, oldest first."""
        rows = await self._store.rows(_AWAY_PERIODS, {"user": user_id, "since": since})
        return [(row["started_at"], row["until"]) for row in rows]

    async def start_away(self, user_id: int, now: float, until: float) -> None:
        """A new period away from `now`; the one running, if any, ends now."""
        await self._store.run(_start_away, {"log_user_id": user_id, "log_at": now, "until": until}, transaction=True)

    async def end_away(self, user_id: int, now: float) -> bool:
        """End the user's period away now; False when none was running."""
        return await self._store.execute(END_AWAY, {"log_user_id": user_id, "log_at": now}) > 0

    async def set_turn_notifications(self, user_id: int, enabled: bool) -> None:
        await self._store.execute(_TURN_NOTIFICATIONS[self._store.dialect] if enabled else _NO_TURN_NOTIFICATIONS,
                                  {"user": user_id})

    async def of(self, user_ids: set[int]) -> tuple[dict[int, float], set[int]]:
        """The end of each user's latest period away (past or running), for those who have one; and those
        who want a direct message when their turn comes."""
        if not user_ids:
            return {}, set()
        return people_of(await self._store.rows(PEOPLE, {"users": sorted(user_ids)}))
