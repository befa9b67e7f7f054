"""The games and their action logs (`store.games`): the reads, a lobby's changes, each action with the state it
led to; the statements beside the methods that run them."""
from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Any

import asyncpg
from sqlalchemy import and_, bindparam, exists, func, not_, select, true

from bot.core.game_records import INTERACTIONS_ONLY, GameRecord, LoggedAction, Seat
from bot.core.shards import Shards
from bot.store.calls import Database
from bot.store.errors import ChannelBusy, StaleVersion
from bot.store.game_row import (
    GAME_COLUMNS,
    IS_OPEN,
    dump,
    dump_or_none,
    name_people,
    on_shards,
    record_of,
    seats_json,
    shard_parameters,
)
from bot.store.people import END_AWAY, PEOPLE, people_of
from bot.store.schema import Row, Statements, actions, away_periods, games

# Every statement built once (building one costs more than running it), with bound parameters.
_OPEN_GAME = select(*GAME_COLUMNS).where(games.c.channel_id == bindparam("channel"), IS_OPEN)
_GAME_BY_ID = select(*GAME_COLUMNS).where(games.c.id == bindparam("the_game"))
_OPEN_GAMES_IN_GUILD = (select(*GAME_COLUMNS).where(games.c.guild_id == bindparam("guild"), IS_OPEN)
                        .order_by(games.c.id))
_LATEST_GAME = (select(*GAME_COLUMNS).where(games.c.channel_id == bindparam("channel"))
                .order_by(games.c.id.desc()).limit(1))
_FINISHED_GAMES = (select(*GAME_COLUMNS).where(games.c.guild_id == bindparam("guild"), games.c.status == "finished")
                   .order_by(games.c.updated_at, games.c.id))
# A DM or group DM's games have no server (guild_id NULL): counted per channel, listed per player.
_FINISHED_PRIVATE_GAMES = (select(*GAME_COLUMNS)
                           .where(games.c.channel_id == bindparam("channel"), games.c.guild_id.is_(None),
                                  games.c.status == "finished").order_by(games.c.updated_at, games.c.id))
# The seats' JSON holds '"user_id":<id>}' for each (keys sorted, user_id last: seats_json): a first sift (LIKE's
# "_" matches any character, so a few more may pass), the seats read exactly after.
_OPEN_PRIVATE_GAMES = (select(*GAME_COLUMNS).where(games.c.guild_id.is_(None), IS_OPEN,
                                                   games.c.seats.contains(bindparam("seat_json")))
                       .order_by(games.c.id))
_ACTIONS = (select(actions.c.seq, actions.c.seat, actions.c.user_id, actions.c.action, actions.c.legal)
            .where(actions.c.game_id == bindparam("the_game"), actions.c.seq >= bindparam("since"))
            .order_by(actions.c.seq))
_OPEN_COUNTS = select(games.c.status, func.count().label("games")).where(IS_OPEN).group_by(games.c.status)
_OPEN_COUNTS_ON_SHARDS = on_shards(_OPEN_COUNTS)
# The interactions_only column copies the option of the same name (migration 12): an index of it, not a second
# truth, written whenever the options are.
_CREATE_GAME = games.insert().values({c: bindparam(c) for c in (
    "guild_id", "channel_id", "game", "status", "host_id", "locale", "options", "seats", "seed", "version",
    "created_at", "updated_at", "interactions_only")}).returning(*GAME_COLUMNS)
# A lobby's change, if nobody changed the game since it was read.
_UPDATE_GAME = (games.update()
                .where(games.c.id == bindparam("the_game"), games.c.version == bindparam("read_version"),
                       games.c.status == bindparam("read_status"), games.c.seats == bindparam("read_seats"))
                .values({c: bindparam(f"new_{c}") for c in ("status", "host_id", "seats", "options", "state", "result",
                                                             "interactions_only")}
                        | {"updated_at": bindparam("now")}))
# A move is written only onto the game as it was read: its version (moves), and its seats and last change
# (update_game and the privacy rewrite change them without a new version), so that a copy of the game kept
# in memory (Channels.as_written) can never write over a change it missed.
_ADVANCE = (games.update()
            .where(games.c.id == bindparam("the_game"), games.c.version == bindparam("read_version"),
                   games.c.status == "active", games.c.seats == bindparam("read_seats"),
                   games.c.updated_at == bindparam("read_updated_at"))
            .values(state=bindparam("new_state"), version=games.c.version + 1, status=bindparam("new_status"),
                    result=bindparam("new_result"), updated_at=bindparam("now")))
# PostgreSQL: the move's three writes as one statement (atomic by itself), one round trip instead of five
# (BEGIN, UPDATE, INSERT, UPDATE, COMMIT): the round trips are most of what a move costs the bot's CPU
# there. Data-modifying CTEs all run, referenced or not; the time away ends only if the game advanced.
# SQLite has no UPDATE inside WITH: there the three are one transaction.
_ADVANCED = _ADVANCE.returning(games.c.id).cte("advanced")
_LOGGED_ROW = select(_ADVANCED.c.id, *(bindparam(f"log_{c.name}", type_=c.type) for c in actions.c
                                       if c.name != "game_id"))
_BACK = END_AWAY.where(exists(_ADVANCED.select())).returning(away_periods.c.user_id).cte("back")
_ADVANCE_END_AWAY_AND_LOG = actions.insert().from_select([c.name for c in actions.c], _LOGGED_ROW.add_cte(_BACK))
# The same, and the seated people's time away and turn messages (PEOPLE) that the board shows next, read in
# that one statement: a row per person (none: one row of NULLs) if the game advanced, no row if it did not.
# Every part sees the database as it was before the statement: the actor's time away ends after it (`_appended`).
_LOGGED = (actions.insert().from_select([c.name for c in actions.c], _LOGGED_ROW)
           .returning(actions.c.game_id).cte("logged"))
_PEOPLE_NOW = PEOPLE.subquery("people")
_ADVANCE_END_AWAY_LOG_AND_READ_PEOPLE = (select(_LOGGED.c.game_id, _PEOPLE_NOW.c.user_id, _PEOPLE_NOW.c.until)
                                         .select_from(_LOGGED.outerjoin(_PEOPLE_NOW, true())).add_cte(_BACK))
_LOG = actions.insert().values({c.name: bindparam("the_game" if c.name == "game_id" else f"log_{c.name}", type_=c.type)
                                for c in actions.c})


async def _append_action(db: Statements, parameters: dict[str, Any]) -> bool:
    """The version-checked snapshot update, the action's log row and the end of the actor's time away; False
    (nothing written) when the game's version moved on."""
    if db.dialect == "postgresql":
        return await db.execute(_ADVANCE_END_AWAY_AND_LOG, parameters) == 1
    if advanced := await db.execute(_ADVANCE, parameters) == 1:
        await db.execute(_LOG, parameters)
        if parameters["log_user_id"] is not None:
            await db.execute(END_AWAY, parameters)
    return advanced


async def _append_action_reading_people(db: Statements, parameters: dict[str, Any]) -> Sequence[Row] | None:
    """_append_action, then PEOPLE's rows for `parameters["users"]`; None (nothing written) when the game's
    version moved on. On PostgreSQL one statement, one round trip."""
    if db.dialect == "postgresql":
        rows = await db.rows(_ADVANCE_END_AWAY_LOG_AND_READ_PEOPLE, parameters)
        return rows or None
    if not await _append_action(db, parameters):
        return None
    return await db.rows(PEOPLE, parameters)


async def _create_game(db: Statements, values: dict[str, Any]) -> GameRecord:
    record = record_of((await db.rows(_CREATE_GAME, values))[0])
    await name_people(db, record, new=True)
    return record


async def _update_game(db: Statements, parameters: dict[str, Any], new: GameRecord) -> bool:
    """The version-checked update of a game whose people changed, and its people written again."""
    if updated := await db.execute(_UPDATE_GAME, parameters) == 1:
        await name_people(db, new)
    return updated


class GameRows:
    """The games and their action logs: the reads, a lobby's changes, each action with the state it led to."""

    def __init__(self, store: Database):
        self._store = store

    async def open_game_counts(self, shards: Shards | None = None) -> dict[str, int]:
        """How many games (in the guilds of `shards`) are in their lobby and in play, by status."""
        rows = await self._store.rows(_OPEN_COUNTS if shards is None else _OPEN_COUNTS_ON_SHARDS,
                                      shard_parameters(shards))
        return {"lobby": 0, "active": 0} | {row["status"]: row["games"] for row in rows}

    async def count_in(self, channels: Collection[int], *, inside: bool = True, open_only: bool = False) -> int:
        """How many games (open ones only, if asked) are kept in no guild under one of `channels` (the console's
        pretend channels); or, `inside` False, anywhere else."""
        where = and_(games.c.guild_id.is_(None), games.c.channel_id.in_(sorted(channels)))
        query = select(func.count().label("games")).select_from(games).where(where if inside else not_(where))
        found = await self._store.rows(query.where(IS_OPEN) if open_only else query, {})
        return int(found[0]["games"])

    async def open_game(self, channel_id: int) -> GameRecord | None:
        """The game in its lobby or in play in this channel, if any."""
        return await self._store.record(_OPEN_GAME, {"channel": channel_id})

    async def open_games_in_guild(self, guild_id: int) -> list[GameRecord]:
        """The games in their lobby or in play on one server."""
        return await self._store.records(_OPEN_GAMES_IN_GUILD, {"guild": guild_id})

    async def open_private_games(self, user_id: int) -> list[GameRecord]:
        """The games in their lobby or in play in DMs and group DMs where `user_id` sits."""
        found = await self._store.records(_OPEN_PRIVATE_GAMES, {"seat_json": f'"user_id":{user_id}}}'})
        return [record for record in found if record.seat_of(user_id) is not None]

    async def game(self, game_id: int) -> GameRecord | None:
        return await self._store.record(_GAME_BY_ID, {"the_game": game_id})

    async def latest_game(self, channel_id: int) -> GameRecord | None:
        """The most recent game of this channel, open or over (history, verification)."""
        return await self._store.record(_LATEST_GAME, {"channel": channel_id})

    async def finished_games(self, guild_id: int) -> list[GameRecord]:
        """The server's games that ended with a result, in the order they finished (statistics)."""
        return await self._store.records(_FINISHED_GAMES, {"guild": guild_id})

    async def finished_private_games(self, channel_id: int) -> list[GameRecord]:
        """A DM or group DM's games that ended with a result, in the order they finished (its statistics)."""
        return await self._store.records(_FINISHED_PRIVATE_GAMES, {"channel": channel_id})

    async def actions(self, game_id: int, since: int = 0) -> list[LoggedAction]:
        """The game's action log from position `since` on."""
        rows = await self._store.rows(_ACTIONS, {"the_game": game_id, "since": since})
        return [LoggedAction(r["seq"], r["seat"], r["user_id"], r["action"], bool(r["legal"])) for r in rows]

    async def create_game(self, *, guild_id: int | None, channel_id: int, game: str, host: Seat,
                          locale: str, options: dict[str, Any], seed: str) -> GameRecord:
        now = self._store.now()
        values = {"guild_id": guild_id, "channel_id": channel_id, "game": game, "status": "lobby",
                  "host_id": host.user_id, "locale": locale, "options": dump(options),
                  "seats": seats_json((host,)), "seed": seed, "version": 0, "created_at": now, "updated_at": now,
                  "interactions_only": int(bool(options.get(INTERACTIONS_ONLY)))}
        try:
            return await self._store.run(_create_game, values, transaction=True)
        except (asyncpg.IntegrityConstraintViolationError, sqlite3.IntegrityError) as exc:   # the unique open game
            raise ChannelBusy from exc

    async def update_game(self, record: GameRecord, **changes: Any) -> GameRecord:
        """Change lobby fields (seats, status, state, result...) if nobody changed
        the game since `record` was read; returns the new record."""
        new = replace(record, **changes, updated_at=self._store.now())
        parameters = {"the_game": record.id, "read_version": record.version, "read_status": record.status,
                      "read_seats": seats_json(record.seats), "new_status": new.status, "new_host_id": new.host_id,
                      "new_seats": seats_json(new.seats), "new_options": dump(new.options),
                      "new_interactions_only": int(bool(new.options.get(INTERACTIONS_ONLY))),
                      "new_state": dump_or_none(new.state), "new_result": dump_or_none(new.result),
                      "now": new.updated_at}
        # The people change with the seats (a join, a leave, a computer taking a seat, the draw) or with the host,
        # who passes with a seat: the guard on the seats read keeps them the stored ones.
        if record.people == new.people:
            updated = await self._store.execute(_UPDATE_GAME, parameters) == 1
        else:
            updated = await self._store.run(_update_game, parameters, new, transaction=True)
        if not updated:
            raise StaleVersion
        return new

    async def append_action(self, record: GameRecord, *, seat: int | None, user_id: int | None, action: str,
                            legal: bool, state: dict[str, Any], status: str = "active",
                            result: dict[str, Any] | None = None,
                            events: list[dict[str, Any]] | None = None) -> GameRecord:
        """Log one action and store the state it led to, in one transaction."""
        parameters = self._action(record, seat, user_id, action, legal, state, status, result, events)
        # On PostgreSQL one statement (_ADVANCE_END_AWAY_AND_LOG), a transaction by itself.
        if not await self._store.run(_append_action, parameters, transaction=self._store.dialect == "sqlite"):
            raise StaleVersion
        return self._appended(record, parameters, state, status, result)

    async def append_action_reading_people(self, record: GameRecord, people: set[int], *, seat: int | None,
                                           user_id: int | None, action: str, legal: bool, state: dict[str, Any],
                                           status: str = "active", result: dict[str, Any] | None = None,
                                           events: list[dict[str, Any]] | None = None,
                                           ) -> tuple[GameRecord, tuple[dict[int, float], set[int]]]:
        """append_action, and what PeopleRows.of says of `people` once it is written, in the same transaction
        (on PostgreSQL, the same statement): the move's one round trip also brings what its board shows."""
        parameters = self._action(record, seat, user_id, action, legal, state, status, result, events)
        parameters["users"] = sorted(people)
        rows = await self._store.run(_append_action_reading_people, parameters,
                                     transaction=self._store.dialect == "sqlite")
        if rows is None:
            raise StaleVersion
        away, turn_dms = people_of(rows)
        if user_id in away and away[user_id] > parameters["now"]:   # the actor is back (END_AWAY, same statement)
            away[user_id] = parameters["now"]
        return self._appended(record, parameters, state, status, result), (away, turn_dms)

    def _action(self, record: GameRecord, seat: int | None, user_id: int | None, action: str, legal: bool,
                state: dict[str, Any], status: str, result: dict[str, Any] | None,
                events: list[dict[str, Any]] | None) -> dict[str, Any]:
        """The parameters of an action's statements: the version-checked update, the log row."""
        now = self._store.now()
        return {"the_game": record.id, "read_version": record.version, "read_seats": seats_json(record.seats),
                "read_updated_at": record.updated_at, "new_state": dump(state),
                "new_status": status, "new_result": dump_or_none(result), "now": now,
                "log_seq": record.version, "log_seat": seat, "log_user_id": user_id, "log_action": action,
                "log_legal": int(legal), "log_at": now, "log_events": dump(events) if events else None}

    @staticmethod
    def _appended(record: GameRecord, parameters: dict[str, Any], state: dict[str, Any], status: str,
                  result: dict[str, Any] | None) -> GameRecord:
        return replace(record, state=state, version=record.version + 1, status=status, result=result,
                       updated_at=parameters["now"])
