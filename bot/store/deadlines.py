"""The clocks of timed games, their reminders, and the votes on absent seats (`store.deadlines`)."""
from __future__ import annotations

from typing import Any

from sqlalchemy import Select, bindparam, select

from bot.core.game_records import TurnClock
from bot.core.shards import Shards
from bot.store.backends import upserts
from bot.store.calls import Database
from bot.store.game_row import GAME_COLUMNS, on_shards, record_of, shard_parameters
from bot.store.schema import games, seat_votes


def _turn_clocks(one_game: bool) -> Select[Any]:
    query = select(*GAME_COLUMNS, games.c.reminded_version).where(games.c.status == "active")
    return (query.where(games.c.id == bindparam("the_game")) if one_game else query).order_by(games.c.id)


# Keyed by (one game, on shards).
_TURN_CLOCKS = {(one, sharded): on_shards(_turn_clocks(one)) if sharded else _turn_clocks(one)
                for one in (False, True) for sharded in (False, True)}
_MARK_REMINDED = (games.update()
                  .where(games.c.id == bindparam("the_game"), games.c.version == bindparam("shown"),
                         games.c.status == "active", games.c.reminded_version.is_distinct_from(bindparam("shown")))
                  .values(reminded_version=bindparam("shown")))
_SET_VOTE = upserts(lambda insert: (
    stmt := insert(seat_votes).values(game_id=bindparam("the_game"), seat=bindparam("seat"),
                                      voter_id=bindparam("voter"), choice=bindparam("choice")))
    .on_conflict_do_update(index_elements=list(seat_votes.primary_key), set_={"choice": stmt.excluded.choice}))
_VOTES = (select(seat_votes.c.voter_id, seat_votes.c.choice)
          .where(seat_votes.c.game_id == bindparam("the_game"), seat_votes.c.seat == bindparam("seat")))
_CLEAR_VOTES = seat_votes.delete().where(seat_votes.c.game_id == bindparam("the_game"),
                                         seat_votes.c.seat == bindparam("seat"))


class DeadlineRows:
    """The clocks of timed games, their reminders, and the votes on absent seats."""

    def __init__(self, store: Database):
        self._store = store

    async def turn_clocks(self, game_id: int | None = None, shards: Shards | None = None) -> list[TurnClock]:
        """Active games with a turn time (in the guilds of `shards`; or just `game_id`'s)."""
        rows = await self._store.rows(_TURN_CLOCKS[game_id is not None, shards is not None],
                                      {"the_game": game_id} | shard_parameters(shards))
        clocks = [TurnClock(record := record_of(row), record.updated_at, row["reminded_version"]) for row in rows]
        return [clock for clock in clocks if clock.record.options.get("turn_time") is not None]

    async def mark_reminded(self, game_id: int, version: int) -> bool:
        """Record that the reminder for `version` went out (the clock keeps running)."""
        return await self._store.execute(_MARK_REMINDED, {"the_game": game_id, "shown": version}) == 1

    async def set_vote(self, game_id: int, seat: int, voter_id: int, choice: str) -> None:
        await self._store.execute(_SET_VOTE[self._store.dialect],
                                  {"the_game": game_id, "seat": seat, "voter": voter_id, "choice": choice})

    async def votes(self, game_id: int, seat: int) -> dict[int, str]:
        rows = await self._store.rows(_VOTES, {"the_game": game_id, "seat": seat})
        return {row["voter_id"]: row["choice"] for row in rows}

    async def clear_votes(self, game_id: int, seat: int) -> None:
        await self._store.execute(_CLEAR_VOTES, {"the_game": game_id, "seat": seat})
