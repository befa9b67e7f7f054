"""Persistence: games and their action logs, in a SQLite file (the default: nothing to set up) or in
PostgreSQL (several bot processes on one database), through the same queries (SQLAlchemy Core, bot/schema.py).

Every acknowledged action is written with the new snapshot in one transaction, guarded by the
game's version (optimistic concurrency, across processes too: the UPDATE ... WHERE version = the
version read matches one row for exactly one writer), before the bot replies. Schema changes are
numbered migrations (bot/schema.py), applied when the store opens.
"""
from __future__ import annotations

import asyncio
import json
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from sqlalchemy import (URL, BigInteger, Connection, Double, Select, and_, bindparam, create_engine, event, exists,
                        func, literal_column, make_url, null, or_, select)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import create_async_engine

from bot.outages import StoreUnavailable, stale_connection, unreachable
from bot.schema import (actions, away_periods, bot_facts, games, migrate_one, seat_votes, server_defaults,
                        turn_notifications)
from bot.shards import GUILD_ID_SHIFT, Shards

T = TypeVar("T")


class ChannelBusy(Exception):
    """The channel already has a game in its lobby or in play."""


class StaleVersion(Exception):
    """Someone else changed the game first; nothing was written."""


# board_version of a lobby message: it shows no position, not even the game's first (version 0).
LOBBY_SHOWN = -1
# A game's final board that a crash kept from being posted is posted at start-up if the game ended within
# these days (not forever: a board that cannot be posted, the channel gone, would be tried at every start).
FINAL_BOARD_DAYS = 7
# A server that does not answer (failing over) is reported within Discord's 3 s for an interaction.
CONNECT_TIMEOUT_S = 2.0


@dataclass(frozen=True)
class Seat:
    user_id: int                 # Discord user id; computer players use 0
    name: str
    level: str | None = None     # computer player's level, None for a person
    locale: str = "en"

    def to_json(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "level": self.level, "locale": self.locale}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Seat":
        return cls(data["user_id"], data["name"], data.get("level"), data.get("locale", "en"))


@dataclass(frozen=True)
class GameRecord:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str
    host_id: int
    locale: str
    options: dict[str, Any]
    seats: tuple[Seat, ...]
    seed: str
    state: dict[str, Any] | None
    version: int
    board_message_id: int | None = None
    result: dict[str, Any] | None = None

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.level is None and seat.user_id == user_id:
                return i
        return None


@dataclass(frozen=True)
class LoggedAction:
    seq: int
    seat: int | None
    user_id: int | None
    action: str
    legal: bool


@dataclass(frozen=True)
class TurnClock:
    """An active game with a turn time: when its waiting started, and whether the reminder went out."""

    record: GameRecord
    started_at: float
    reminded_version: int | None


def is_postgresql(database: str) -> bool:
    """Whether TABLERO_DATABASE names a PostgreSQL database (a URL) rather than a SQLite file."""
    return database.startswith("postgresql")


class _SQLite:
    """One connection, used by one thread of its own: a store call is one hand-off to that thread,
    its whole transaction included (not one per statement: each hand-off costs the event loop a
    wake-up on every click). Writes from one process thus take turns; other processes wait for the
    file's lock (busy_timeout). The hand-off is a queue and call_soon_threadsafe, as in aiosqlite:
    half the CPU of run_in_executor's. Measured against SQLAlchemy's async engine over aiosqlite (the
    well-kept way, tried 2026-11-25 with `python -m tests.benchmarks --only store`): 1.5 ms of CPU per move
    here against 4.2 ms there, whose every statement is several trips to aiosqlite's thread (cursor,
    execute, fetch, close) and a greenlet switch; aiosqlite runs a whole function in its thread only
    through a private method."""

    def __init__(self, path: str):
        self._engine = create_engine(URL.create("sqlite", database=path))
        event.listen(self._engine, "connect", _sqlite_connected)
        self._calls: queue.SimpleQueue = queue.SimpleQueue()
        # A daemon: a process that exits without closing its store is not held up (SQLite's file stays
        # whole whenever the process stops, as the crash tests check).
        threading.Thread(target=self._serve, name="sqlite", daemon=True).start()
        self._conn: Connection | None = None

    def _serve(self) -> None:
        while (call := self._calls.get()) is not None:
            loop, done, function, args = call
            try:
                result = function(*args)
            except BaseException as error:  # handed to the caller, whatever it is
                loop.call_soon_threadsafe(_settle, done, None, error)
            else:
                loop.call_soon_threadsafe(_settle, done, result, None)

    async def _in_thread(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self._calls.put((loop, done, function, args))
        return await done

    async def start(self) -> None:
        self._conn = await self._in_thread(self._engine.connect)

    async def run(self, query: Callable[..., T], *args: Any, transaction: bool = False) -> T:
        return await self._in_thread(self._call, query, args, transaction)

    def _call(self, query: Callable[..., T], args: tuple[Any, ...], transaction: bool) -> T:
        with self._conn.begin():
            if transaction:
                # The write lock from the start (IMMEDIATE), so that a transaction that reads before it
                # writes (the migrations) cannot fail on another process's write. A call of one statement
                # runs without (SQLite's autocommit).
                self._conn.exec_driver_sql("BEGIN IMMEDIATE")
            return query(self._conn, *args)

    async def close(self) -> None:
        def close() -> None:
            if self._conn is not None:
                self._conn.close()
            self._engine.dispose()
        await self._in_thread(close)
        self._calls.put(None)


def _settle(done: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if done.cancelled():
        return
    if error is None:
        done.set_result(result)
    else:
        done.set_exception(error)


def _sqlite_connected(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # no implicit BEGIN: _SQLite._call begins
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL",  # WAL + NORMAL: durable across process crashes
                   "foreign_keys=ON", "busy_timeout=5000"):
        dbapi_connection.execute(f"PRAGMA {pragma}")


class _PostgreSQL:
    """A pool of asyncpg connections. A store call that asks for a transaction runs in one; the others,
    one statement each, in autocommit (a BEGIN and a COMMIT fewer: two round trips)."""

    def __init__(self, url: str):
        # Autocommit by default: a connection's isolation level set and reset on every checkout would
        # cost more than the query. Up to 15 connections, all kept once opened (SQLAlchemy's default
        # 5 + 10 overflow opens and closes the overflow ones under load: a connection costs many queries).
        self._engine = create_async_engine(make_url(url).set(drivername="postgresql+asyncpg"),
                                           isolation_level="AUTOCOMMIT", pool_size=15, max_overflow=0,
                                           connect_args={"timeout": CONNECT_TIMEOUT_S})
        self._transactions = self._engine.execution_options(isolation_level="READ COMMITTED")

    async def start(self) -> None:
        pass

    async def run(self, query: Callable[..., T], *args: Any, transaction: bool = False) -> T:
        async with (self._transactions.begin() if transaction else self._engine.connect()) as conn:
            return await conn.run_sync(query, *args)

    async def close(self) -> None:
        await self._engine.dispose()


_GAME = (games.c.id, games.c.guild_id, games.c.channel_id, games.c.game, games.c.status, games.c.host_id,
         games.c.locale, games.c.options, games.c.seats, games.c.seed, games.c.state, games.c.version,
         games.c.board_message_id, games.c.result)
# Spelled out, not bound: the index of open games per channel is partial (WHERE status IN these), and
# a query can use it only if its own condition says so literally.
_IS_OPEN = games.c.status.in_([literal_column("'lobby'"), literal_column("'active'")])


def _record(row: Any) -> GameRecord:
    return GameRecord(
        id=row[0], guild_id=row[1], channel_id=row[2], game=row[3], status=row[4], host_id=row[5],
        locale=row[6], options=json.loads(row[7]), seats=tuple(Seat.from_json(s) for s in json.loads(row[8])),
        seed=row[9], state=json.loads(row[10]) if row[10] is not None else None, version=row[11],
        board_message_id=row[12], result=json.loads(row[13]) if row[13] is not None else None,
    )


def _dump(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def _seats(seats: tuple[Seat, ...]) -> str:
    return _dump([s.to_json() for s in seats])


# The move path's statements, built once (building one costs more than running it from the cache).
_OPEN_GAME = select(*_GAME).where(games.c.channel_id == bindparam("channel"), _IS_OPEN)
_GAME_BY_ID = select(*_GAME).where(games.c.id == bindparam("the_game"))
_ACTIONS = (select(actions.c.seq, actions.c.seat, actions.c.user_id, actions.c.action, actions.c.legal)
            .where(actions.c.game_id == bindparam("the_game"), actions.c.seq >= bindparam("since"))
            .order_by(actions.c.seq))
_SET_BOARD = (games.update().where(games.c.id == bindparam("the_game"))
              .values(board_message_id=bindparam("message"), board_version=bindparam("shown")))
_AWAY_UNTIL = (select(away_periods.c.user_id, func.max(away_periods.c.until))
               .where(away_periods.c.user_id.in_(bindparam("users", expanding=True))).group_by(away_periods.c.user_id))
# Each user's latest time away, then (until NULL) those who want a direct message on their turn: one round trip.
_PEOPLE = _AWAY_UNTIL.union_all(
    select(turn_notifications.c.user_id, null().cast(Double))
    .where(turn_notifications.c.user_id.in_(bindparam("users", expanding=True))))
_ADVANCE = (games.update()
            .where(games.c.id == bindparam("the_game"), games.c.version == bindparam("read_version"),
                   games.c.status == "active")
            .values(state=bindparam("new_state"), version=games.c.version + 1, status=bindparam("new_status"),
                    result=bindparam("new_result"), updated_at=bindparam("now")))


def _on(shards: Shards | None, query: Select) -> Select:
    """`query` narrowed to the games of the guilds on `shards` (bot.shards.shard_of, in SQL; both
    databases have >> and % on 64-bit integers); unchanged for None (every shard)."""
    if shards is None:
        return query
    # The shift inline: PostgreSQL has bigint >> integer, not bigint >> bigint (a bound value's type).
    shard = (func.coalesce(games.c.guild_id, 0).op(">>", return_type=BigInteger)(literal_column(str(GUILD_ID_SHIFT)))
             % shards.count)
    return query.where(shard.in_(shards.ids))


def _one_game(conn: Connection, query: Any, parameters: dict[str, Any] | None = None) -> GameRecord | None:
    row = conn.execute(query, parameters).first()
    return _record(row) if row else None


def _rows(conn: Connection, query: Any, parameters: dict[str, Any] | None = None) -> list[Any]:
    return list(conn.execute(query, parameters))


def _rowcount(conn: Connection, statement: Any, parameters: dict[str, Any] | None = None) -> int:
    return conn.execute(statement, parameters).rowcount


# A user's time away ends at log_at (named after the action's columns: a person who acts is back, and
# their time away ends with the move; log_user_id NULL, a computer or a deadline: nothing to end).
_END_AWAY = (away_periods.update().values(until=bindparam("log_at"))
             .where(away_periods.c.user_id == bindparam("log_user_id"), away_periods.c.until > bindparam("log_at")))
# PostgreSQL: the move's three writes as one statement (atomic by itself), one round trip instead of five
# (BEGIN, UPDATE, INSERT, UPDATE, COMMIT): the round trips are most of what a move costs the bot's CPU
# there. Data-modifying CTEs all run, referenced or not; the time away ends only if the game advanced.
# SQLite has no UPDATE inside WITH; its transaction runs whole in its thread anyway.
_ADVANCED = _ADVANCE.returning(games.c.id).cte("advanced")
_ADVANCE_END_AWAY_AND_LOG = actions.insert().from_select(
    [c.name for c in actions.c],
    select(_ADVANCED.c.id, *(bindparam(f"log_{c.name}", type_=c.type) for c in actions.c if c.name != "game_id"))
    .add_cte(_END_AWAY.where(exists(_ADVANCED.select())).returning(away_periods.c.user_id).cte("back")))
_LOG = actions.insert().values({c.name: bindparam("the_game" if c.name == "game_id" else f"log_{c.name}", type_=c.type)
                                for c in actions.c})


def _create_game(conn: Connection, values: dict[str, Any]) -> GameRecord:
    return _record(conn.execute(games.insert().values(values).returning(*_GAME)).one())


def _append_action(conn: Connection, parameters: dict[str, Any]) -> bool:
    """The version-checked snapshot update, the action's log row and the end of the actor's time away; False
    (nothing written) when the game's version moved on."""
    if conn.dialect.name == "postgresql":
        return conn.execute(_ADVANCE_END_AWAY_AND_LOG, parameters).rowcount == 1
    if advanced := conn.execute(_ADVANCE, parameters).rowcount == 1:
        conn.execute(_LOG, parameters)
        if parameters["log_user_id"] is not None:
            conn.execute(_END_AWAY, parameters)
    return advanced


def _insert(conn: Connection) -> Any:
    """INSERT with ON CONFLICT clauses: each dialect has its own construct, alike in use."""
    return (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)


class Store:
    def __init__(self, backend: _SQLite | _PostgreSQL, clock: Callable[[], float] = time.time):
        self._backend = backend
        self._clock = clock  # wall-clock seconds; tests of deadlines inject theirs

    @classmethod
    async def open(cls, database: str, clock: Callable[[], float] = time.time) -> "Store":
        """The store in `database`: a SQLite file's path or a postgresql:// URL; migrated."""
        backend = _PostgreSQL(database) if is_postgresql(database) else _SQLite(database)
        try:
            await backend.start()
            # One transaction per migration: a crash leaves it wholly applied or not at all.
            while await backend.run(migrate_one, transaction=True):
                pass
        except BaseException:
            await backend.close()  # else the database thread or the pool keeps the process alive
            raise
        return cls(backend, clock)

    async def close(self) -> None:
        await self._backend.close()

    async def run(self, query: Callable[..., T], *args: Any, transaction: bool = False) -> T:
        """query(connection, *args): a function of a SQLAlchemy Connection (bot/schema.py's tables), run on
        the database, in a transaction if asked. The methods below are made of it; so are tools that work
        on whole tables (bot/migrate.py). StoreUnavailable when the database is out of reach."""
        try:
            try:
                return await self._backend.run(query, *args, transaction=transaction)
            except Exception as error:
                if not stale_connection(error):
                    raise
                return await self._backend.run(query, *args, transaction=transaction)   # on a new connection
        except Exception as error:   # the database out of reach: one typed error (bot/outages.py)
            if unreachable(error):
                raise StoreUnavailable(str(error).splitlines()[0]) from error
            raise

    # --- reads ---------------------------------------------------------------
    async def open_game(self, channel_id: int) -> GameRecord | None:
        """The game in its lobby or in play in this channel, if any."""
        return await self.run(_one_game, _OPEN_GAME, {"channel": channel_id})

    async def open_games_in_guild(self, guild_id: int) -> list[GameRecord]:
        """The games in their lobby or in play on one server."""
        rows = await self.run(_rows, select(*_GAME).where(games.c.guild_id == guild_id, _IS_OPEN)
                               .order_by(games.c.id))
        return [_record(row) for row in rows]

    async def game(self, game_id: int) -> GameRecord | None:
        return await self.run(_one_game, _GAME_BY_ID, {"the_game": game_id})

    async def latest_game(self, channel_id: int) -> GameRecord | None:
        """The most recent game of this channel, open or over (history, verification)."""
        return await self.run(_one_game, select(*_GAME).where(games.c.channel_id == channel_id)
                               .order_by(games.c.id.desc()).limit(1))

    async def finished_games(self, guild_id: int) -> list[GameRecord]:
        """The server's games that ended with a result, in the order they finished (statistics)."""
        rows = await self.run(_rows, select(*_GAME).where(games.c.guild_id == guild_id, games.c.status == "finished")
                               .order_by(games.c.updated_at, games.c.id))
        return [_record(row) for row in rows]

    async def actions(self, game_id: int, since: int = 0) -> list[LoggedAction]:
        """The game's action log from position `since` on."""
        rows = await self.run(_rows, _ACTIONS, {"the_game": game_id, "since": since})
        return [LoggedAction(r[0], r[1], r[2], r[3], bool(r[4])) for r in rows]

    # --- writes ----------------------------------------------------------------
    async def create_game(self, *, guild_id: int | None, channel_id: int, game: str, host: Seat,
                          locale: str, options: dict[str, Any], seed: str) -> GameRecord:
        now = self._clock()
        values = {"guild_id": guild_id, "channel_id": channel_id, "game": game, "status": "lobby",
                  "host_id": host.user_id, "locale": locale, "options": _dump(options), "seats": _seats((host,)),
                  "seed": seed, "version": 0, "created_at": now, "updated_at": now}
        try:
            return await self.run(_create_game, values)
        except IntegrityError as exc:
            raise ChannelBusy from exc

    async def update_game(self, record: GameRecord, **changes: Any) -> GameRecord:
        """Change lobby fields (seats, status, state, result...) if nobody changed
        the game since `record` was read; returns the new record."""
        new = replace(record, **changes)
        statement = (games.update()
                     .where(games.c.id == record.id, games.c.version == record.version,
                            games.c.status == record.status, games.c.seats == _seats(record.seats))
                     .values(status=new.status, host_id=new.host_id, seats=_seats(new.seats),
                             options=_dump(new.options), state=None if new.state is None else _dump(new.state),
                             result=None if new.result is None else _dump(new.result), updated_at=self._clock()))
        if await self.run(_rowcount, statement) != 1:
            raise StaleVersion
        return new

    async def append_action(self, record: GameRecord, *, seat: int | None, user_id: int | None, action: str,
                            legal: bool, state: dict[str, Any], status: str = "active",
                            result: dict[str, Any] | None = None,
                            events: list[dict[str, Any]] | None = None) -> GameRecord:
        """Log one action and store the state it led to, in one transaction."""
        now = self._clock()
        parameters = {"the_game": record.id, "read_version": record.version, "new_state": _dump(state),
                      "new_status": status, "new_result": None if result is None else _dump(result), "now": now,
                      "log_seq": record.version, "log_seat": seat, "log_user_id": user_id, "log_action": action,
                      "log_legal": int(legal), "log_at": now, "log_events": _dump(events) if events else None}
        # On PostgreSQL one statement (_ADVANCE_END_AWAY_AND_LOG), a transaction by itself.
        if not await self.run(_append_action, parameters, transaction=isinstance(self._backend, _SQLite)):
            raise StaleVersion
        return replace(record, state=state, version=record.version + 1, status=status, result=result)

    async def bot_fact(self, key: str) -> str | None:
        rows = await self.run(_rows, select(bot_facts.c.value).where(bot_facts.c.key == key))
        return rows[0][0] if rows else None

    async def set_bot_fact(self, key: str, value: str) -> None:
        await self.run(lambda conn: conn.execute(
            _insert(conn)(bot_facts).values(key=key, value=value)
            .on_conflict_do_update(index_elements=[bot_facts.c.key], set_={"value": value})))

    async def set_board_message(self, game_id: int, message_id: int, version: int) -> None:
        """The message showing the game's board, and the game version it shows (LOBBY_SHOWN: the lobby)."""
        await self.run(_rowcount, _SET_BOARD, {"the_game": game_id, "message": message_id, "shown": version})

    async def boards_to_resume(self, shards: Shards | None = None,
                               game_id: int | None = None) -> list[tuple[GameRecord, int | None]]:
        """Every game in play (in the guilds of `shards`; or just `game_id`), every lobby never shown, and
        every game its last move finished within FINAL_BOARD_DAYS whose board does not show that move yet,
        with the version its posted board shows (None: not recorded)."""
        unshown_end = and_(games.c.status == "finished", games.c.board_version < games.c.version,
                           games.c.updated_at > self._clock() - FINAL_BOARD_DAYS * 86400)
        unshown_lobby = and_(games.c.status == "lobby", games.c.board_message_id.is_(None))
        query = _on(shards, select(*_GAME, games.c.board_version)
                    .where(or_(games.c.status == "active", unshown_end, unshown_lobby)).order_by(games.c.id))
        if game_id is not None:
            query = query.where(games.c.id == game_id)
        return [(_record(row), row[14]) for row in await self.run(_rows, query)]

    async def server_defaults(self, guild_id: int) -> dict[str, Any]:
        """The options a server gives its new games unless they choose otherwise ({}: none)."""
        rows = await self.run(_rows, select(server_defaults.c.options).where(server_defaults.c.guild_id == guild_id))
        return json.loads(rows[0][0]) if rows else {}

    async def set_server_defaults(self, guild_id: int, options: dict[str, Any]) -> None:
        await self.run(lambda conn: conn.execute(
            _insert(conn)(server_defaults).values(guild_id=guild_id, options=_dump(options))
            .on_conflict_do_update(index_elements=[server_defaults.c.guild_id], set_={"options": _dump(options)})))

    # --- time away -------------------------------------------------------------------
    async def away_periods(self, user_id: int, since: float) -> list[tuple[float, float]]:
        """The user's periods away (started_at, until) that ended after `since`, oldest first."""
        rows = await self.run(_rows, select(away_periods.c.started_at, away_periods.c.until)
                              .where(away_periods.c.user_id == user_id, away_periods.c.until > since)
                              .order_by(away_periods.c.started_at))
        return [(row[0], row[1]) for row in rows]

    async def start_away(self, user_id: int, now: float, until: float) -> None:
        """A new period away from `now`; the one running, if any, ends now."""
        def start(conn: Connection) -> None:
            conn.execute(_END_AWAY, {"log_user_id": user_id, "log_at": now})
            conn.execute(_insert(conn)(away_periods).values(user_id=user_id, started_at=now, until=until)
                         .on_conflict_do_update(index_elements=list(away_periods.primary_key), set_={"until": until}))
        await self.run(start, transaction=True)

    async def end_away(self, user_id: int, now: float) -> bool:
        """End the user's period away now; False when none was running."""
        return await self.run(_rowcount, _END_AWAY, {"log_user_id": user_id, "log_at": now}) > 0

    # --- turn deadlines, votes on absent seats, turn notifications ----------------
    async def turn_clocks(self, game_id: int | None = None, shards: Shards | None = None) -> list[TurnClock]:
        """Active games with a turn time (in the guilds of `shards`; or just `game_id`'s)."""
        query = _on(shards, select(*_GAME, games.c.updated_at, games.c.reminded_version)
                    .where(games.c.status == "active"))
        if game_id is not None:
            query = query.where(games.c.id == game_id)
        clocks = [TurnClock(_record(row), row[14], row[15]) for row in await self.run(_rows, query.order_by(games.c.id))]
        return [clock for clock in clocks if clock.record.options.get("turn_time") is not None]

    async def mark_reminded(self, game_id: int, version: int) -> bool:
        """Record that the reminder for `version` went out (the clock keeps running)."""
        return await self.run(_rowcount, games.update()
                               .where(games.c.id == game_id, games.c.version == version, games.c.status == "active",
                                      games.c.reminded_version.is_distinct_from(version))
                               .values(reminded_version=version)) == 1

    async def set_vote(self, game_id: int, seat: int, voter_id: int, choice: str) -> None:
        await self.run(lambda conn: conn.execute(
            _insert(conn)(seat_votes).values(game_id=game_id, seat=seat, voter_id=voter_id, choice=choice)
            .on_conflict_do_update(index_elements=list(seat_votes.primary_key), set_={"choice": choice})))

    async def votes(self, game_id: int, seat: int) -> dict[int, str]:
        rows = await self.run(_rows, select(seat_votes.c.voter_id, seat_votes.c.choice)
                               .where(seat_votes.c.game_id == game_id, seat_votes.c.seat == seat))
        return {row[0]: row[1] for row in rows}

    async def clear_votes(self, game_id: int, seat: int) -> None:
        await self.run(_rowcount, seat_votes.delete().where(seat_votes.c.game_id == game_id, seat_votes.c.seat == seat))

    async def set_turn_notifications(self, user_id: int, enabled: bool) -> None:
        if enabled:
            await self.run(lambda conn: conn.execute(
                _insert(conn)(turn_notifications).values(user_id=user_id).on_conflict_do_nothing()))
        else:
            await self.run(_rowcount, turn_notifications.delete().where(turn_notifications.c.user_id == user_id))

    async def people(self, user_ids: set[int]) -> tuple[dict[int, float], set[int]]:
        """The end of each user's latest period away (past or running), for those who have one; and those
        who want a direct message when their turn comes."""
        if not user_ids:
            return {}, set()
        rows = await self.run(_rows, _PEOPLE, {"users": sorted(user_ids)})
        return {user: until for user, until in rows if until is not None}, {user for user, until in rows if until is None}
