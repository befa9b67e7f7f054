"""Persistence: games and their action logs, in a SQLite file (the default: nothing to set up) or in
PostgreSQL (several bot processes on one database), through the same queries (SQLAlchemy Core, bot/store/schema.py).

Every acknowledged action is written with the new snapshot in one transaction, guarded by the
game's version (optimistic concurrency, across processes too: the UPDATE ... WHERE version = the
version read matches one row for exactly one writer), before the bot replies. Schema changes are
numbered migrations (bot/store/schema.py), applied when the store opens. The records read and written are
bot/core/game_records.py's; rows are read by column name.

SQLite is reached through aiosqlite, PostgreSQL through an asyncpg pool, the statements compiled once by
SQLAlchemy for each. Measured (docs/performance.md, "aiosqlite"): a driver running compiled statements costs
a move less CPU than SQLAlchemy's async engine over the same driver (its every statement is a greenlet switch
and its pool and result layers; over aiosqlite, several trips to aiosqlite's thread too).
"""
from __future__ import annotations

import asyncio
import functools
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, TypeVar

import aiosqlite
import asyncpg
from sqlalchemy import (
    URL,
    BigInteger,
    Double,
    Select,
    and_,
    bindparam,
    case,
    exists,
    func,
    literal_column,
    make_url,
    null,
    or_,
    select,
    union,
)
from sqlalchemy.dialects import postgresql, sqlite

from bot.core import metrics
from bot.core.game_records import INTERACTIONS_ONLY, GameRecord, LoggedAction, Seat, TurnClock
from bot.core.outages import StoreUnavailable, stale_connection, unreachable
from bot.core.shards import GUILD_ID_SHIFT, Shards
from bot.store.schema import (
    MIGRATIONS,
    Row,
    SchemaNotCurrent,
    Statements,
    actions,
    away_periods,
    bot_facts,
    game_people,
    games,
    guilds_left,
    migrate_one,
    schema_version,
    seat_votes,
    server_defaults,
    turn_notifications,
)

T = TypeVar("T")


class ChannelBusy(Exception):
    """The channel already has a game in its lobby or in play."""


class StaleVersion(Exception):
    """Someone else changed the game first; nothing was written."""


class StoreClosed(Exception):
    """The store was closed: nothing was read or written."""


# board_version of a lobby message: it shows no position, not even the game's first (version 0).
LOBBY_SHOWN = -1
# A game's final board that a crash kept from being posted is posted at start-up if the game ended within
# these days (not forever: a board that cannot be posted, the channel gone, would be tried at every start).
FINAL_BOARD_DAYS = 7
# Hosts hand out both spellings (Heroku, Render, Supabase: postgres://).
POSTGRESQL_SCHEMES = ("postgresql", "postgres")
# Each call's duration by result (metrics.STORE_CALLS), the labels looked up once.
_CALLS = {result: metrics.STORE_CALLS.labels(result) for result in ("ok", "unreachable", "error")}
# A server that does not answer (failing over) is reported within Discord's 3 s for an interaction.
CONNECT_TIMEOUT_S = 2.0


def is_postgresql(database: str) -> bool:
    """Whether TABLERO_DATABASE names a PostgreSQL database (a URL) rather than a SQLite file."""
    scheme, separator, _ = database.partition("://")
    return bool(separator) and scheme.partition("+")[0] in POSTGRESQL_SCHEMES


def postgresql_url(database: str) -> URL:
    """The URL SQLAlchemy connects with: asyncpg's driver, the user name and password percent-decoded (a
    password holding @ : / is written %40 %3A %2F in the URL)."""
    return make_url(database).set(drivername="postgresql+asyncpg")


def shown_url(database: str) -> str:
    """A PostgreSQL URL as messages show it: the scheme the user wrote without a driver name (never
    postgresql+asyncpg), the password hidden, even when the URL does not parse (a port that is no number)."""
    scheme = database.partition("://")[0].partition("+")[0]
    try:
        return make_url(database).set(drivername=scheme).render_as_string(hide_password=True)
    except ValueError:   # SQLAlchemy's ArgumentError is one too
        user, at, place = database.partition("://")[2].rpartition("@")
        return f"{scheme}://{user.partition(':')[0] + ':***@' if at else ''}{place}"


# The dialects the statements are compiled for: SQLite's with ? placeholders (sqlite3), PostgreSQL's as
# SQLAlchemy's asyncpg dialect writes them ($1 placeholders, each cast to its column's type).
_DIALECTS = {"sqlite": sqlite.dialect(paramstyle="qmark"), "postgresql": postgresql.asyncpg.dialect()}


@functools.lru_cache(maxsize=512)
def _compiled(statement: Any, dialect: str) -> Any:
    """`statement` compiled for `dialect`, once (the statements are module constants; a tool's own, like
    bot/tools/migrate.py's, come back for each page of rows: a bounded cache)."""
    return statement.compile(dialect=_DIALECTS[dialect])


def _sql(statement: Any, parameters: Mapping[str, Any] | None, dialect: str) -> tuple[str, list[Any]]:
    """The SQL text and its positional parameters, for the driver of `dialect`."""
    expanded = _compiled(statement, dialect).construct_expanded_state(parameters)   # IN (...) lists spelled out
    return expanded.statement, expanded.positional_parameters


class _SQLite:
    """One aiosqlite connection (its thread runs SQLite). A store call has the connection to itself from
    its first statement to its last (`_turn`), so that two coroutines' statements never interleave inside
    a transaction; other processes wait for the file's lock (busy_timeout)."""

    dialect = "sqlite"

    def __init__(self, path: str):
        self._path = path
        self._db: aiosqlite.Connection | None = None
        self._turn = asyncio.Lock()

    async def start(self) -> None:
        # No implicit BEGIN: `session` begins (isolation_level None).
        self._db = await aiosqlite.connect(self._path, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL",  # WAL + NORMAL: durable across process crashes
                       "foreign_keys=ON", "busy_timeout=5000"):
            await self._db.execute(f"PRAGMA {pragma}")

    @asynccontextmanager
    async def session(self, transaction: bool) -> AsyncIterator[Statements]:
        async with self._turn:
            db = self._db
            if db is None:   # closed while this call waited its turn
                raise StoreClosed
            if not transaction:    # one statement: SQLite's autocommit
                yield _SQLiteConnection(db)
                return
            # The write lock from the start (IMMEDIATE), so that a transaction that reads before it writes
            # (the migrations) cannot fail on another process's write.
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield _SQLiteConnection(db)
                await db.execute("COMMIT")
            except BaseException:
                # A failed COMMIT (a full disk) may leave the transaction open, or SQLite may have ended it:
                # either way the next call must find none open.
                if db.in_transaction:
                    await db.rollback()
                raise

    async def close(self) -> None:
        async with self._turn:   # after the calls already waiting; those that come later find it closed
            db, self._db = self._db, None
            if db is not None:
                await db.close()


class _SQLiteConnection:
    """The open aiosqlite connection as Statements, SQLAlchemy's statements compiled for it."""

    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection):
        self._db = db

    async def rows(self, statement: Any, parameters: Mapping[str, Any] | None = None) -> Sequence[Row]:
        return list(await self._db.execute_fetchall(*_sql(statement, parameters, "sqlite")))

    async def execute(self, statement: Any, parameters: Any = None) -> int:
        if isinstance(parameters, list):
            sql = _sql(statement, parameters[0], "sqlite")[0] if parameters else ""
            cursor = await self._db.executemany(sql, [_sql(statement, p, "sqlite")[1] for p in parameters])
        else:
            cursor = await self._db.execute(*_sql(statement, parameters, "sqlite"))
        return cursor.rowcount


class _PostgreSQL:
    """A pool of asyncpg connections. A store call that asks for a transaction runs in one; the others,
    one statement each, in autocommit (a BEGIN and a COMMIT fewer: two round trips). The statements are
    SQLAlchemy's, compiled once, as on SQLite: SQLAlchemy's async engine cost about 250 us of CPU more a
    statement (a greenlet switch, its pool and result layers), most of what PostgreSQL added to a move."""

    dialect = "postgresql"

    def __init__(self, url: str):
        self._url = postgresql_url(url)
        self._pool: asyncpg.Pool | None = None

    async def start(self) -> None:
        # Up to 15 connections, opened as calls need them and kept (opening one costs many queries). No
        # minimum: asyncpg would reconnect it in the background through an outage, logging each failure.
        # A connection given back is not reset (asyncpg's default costs a round trip a call: RESET ALL, UNLISTEN,
        # CLOSE ALL, unlocking advisory locks): the store sets nothing, its one lock is a transaction's, and
        # asyncpg still rolls back a transaction left open.
        self._pool = await asyncpg.create_pool(self._url.set(drivername="postgresql").render_as_string(False),
                                               min_size=0, max_size=15, max_inactive_connection_lifetime=0,
                                               timeout=CONNECT_TIMEOUT_S, reset=_nothing_to_reset)

    @asynccontextmanager
    async def session(self, transaction: bool) -> AsyncIterator[Statements]:
        if self._pool is None:
            raise StoreClosed
        async with self._pool.acquire() as conn:
            if transaction:
                async with conn.transaction(isolation="read_committed"):
                    yield _AsyncpgConnection(conn)
            else:
                yield _AsyncpgConnection(conn)

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            try:   # the calls under way end first, unless one hangs (a server that stopped answering)
                await asyncio.wait_for(pool.close(), CONNECT_TIMEOUT_S)
            except TimeoutError:
                pool.terminate()


async def _nothing_to_reset(conn: asyncpg.Connection) -> None:
    pass


class _AsyncpgConnection:
    """An asyncpg connection as Statements."""

    dialect = "postgresql"

    def __init__(self, conn: asyncpg.Connection):
        self._conn = conn

    async def rows(self, statement: Any, parameters: Mapping[str, Any] | None = None) -> Sequence[Row]:
        sql, values = _sql(statement, parameters, "postgresql")
        records: list[Row] = await self._conn.fetch(sql, *values)   # asyncpg has no type information
        return records

    async def execute(self, statement: Any, parameters: Any = None) -> int:
        if isinstance(parameters, list):
            if parameters:
                sql = _sql(statement, parameters[0], "postgresql")[0]
                await self._conn.executemany(sql, [_sql(statement, p, "postgresql")[1] for p in parameters])
            return len(parameters)   # asyncpg's executemany counts nothing: its one caller inserts a row a set
        sql, values = _sql(statement, parameters, "postgresql")
        status = await self._conn.execute(sql, *values)   # "UPDATE 1", "INSERT 0 1", "CREATE TABLE"
        count = status.rsplit(" ", 1)[-1]
        return int(count) if count.isdigit() else -1


_GAME = (games.c.id, games.c.guild_id, games.c.channel_id, games.c.game, games.c.status, games.c.host_id,
         games.c.locale, games.c.options, games.c.seats, games.c.seed, games.c.state, games.c.version,
         games.c.board_message_id, games.c.result, games.c.updated_at)
# Spelled out, not bound: the index of open games per channel is partial (WHERE status IN these), and
# a query can use it only if its own condition says so literally.
_IS_OPEN = games.c.status.in_([literal_column("'lobby'"), literal_column("'active'")])


def _record(row: Row) -> GameRecord:
    return GameRecord(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], game=row["game"],
        status=row["status"], host_id=row["host_id"], locale=row["locale"], options=json.loads(row["options"]),
        seats=tuple(Seat.from_json(s) for s in json.loads(row["seats"])), seed=row["seed"],
        state=_loaded(row["state"]), version=row["version"], board_message_id=row["board_message_id"],
        result=_loaded(row["result"]), updated_at=row["updated_at"],
    )


def _loaded(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _dump(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def _seats(seats: tuple[Seat, ...]) -> str:
    return _dump([s.to_json() for s in seats])


def _on_shards(query: Select[Any]) -> Select[Any]:
    """`query` narrowed to the games of the guilds of the shards `shard_ids` of `shard_count` (bot.core.shards.shard_of,
    in SQL; both databases have >> and % on 64-bit integers)."""
    # The shift inline: PostgreSQL has bigint >> integer, not bigint >> bigint (a bound value's type).
    shard = (func.coalesce(games.c.guild_id, 0).op(">>", return_type=BigInteger)(literal_column(str(GUILD_ID_SHIFT)))
             % bindparam("shard_count", type_=BigInteger))
    return query.where(shard.in_(bindparam("shard_ids", expanding=True)))


def _shard_parameters(shards: Shards | None) -> dict[str, Any]:
    return {} if shards is None else {"shard_count": shards.count, "shard_ids": list(shards.ids)}


# Every statement built once (building one costs more than running it), with bound parameters.
_OPEN_GAME = select(*_GAME).where(games.c.channel_id == bindparam("channel"), _IS_OPEN)
_GAME_BY_ID = select(*_GAME).where(games.c.id == bindparam("the_game"))
_OPEN_GAMES_IN_GUILD = select(*_GAME).where(games.c.guild_id == bindparam("guild"), _IS_OPEN).order_by(games.c.id)
_LATEST_GAME = select(*_GAME).where(games.c.channel_id == bindparam("channel")).order_by(games.c.id.desc()).limit(1)
_FINISHED_GAMES = (select(*_GAME).where(games.c.guild_id == bindparam("guild"), games.c.status == "finished")
                   .order_by(games.c.updated_at, games.c.id))
# A DM or group DM's games have no server (guild_id NULL): counted per channel, listed per player.
_FINISHED_PRIVATE_GAMES = (select(*_GAME).where(games.c.channel_id == bindparam("channel"), games.c.guild_id.is_(None),
                                                games.c.status == "finished").order_by(games.c.updated_at, games.c.id))
# The seats' JSON holds '"user_id":<id>}' for each (keys sorted, user_id last: _seats): a first sift (LIKE's
# "_" matches any character, so a few more may pass), the seats read exactly after.
_OPEN_PRIVATE_GAMES = (select(*_GAME).where(games.c.guild_id.is_(None), _IS_OPEN,
                                            games.c.seats.contains(bindparam("seat_json")))
                       .order_by(games.c.id))
_ACTIONS = (select(actions.c.seq, actions.c.seat, actions.c.user_id, actions.c.action, actions.c.legal)
            .where(actions.c.game_id == bindparam("the_game"), actions.c.seq >= bindparam("since"))
            .order_by(actions.c.seq))
_CREATE_GAME = games.insert().values({c: bindparam(c) for c in (
    "guild_id", "channel_id", "game", "status", "host_id", "locale", "options", "seats", "seed", "version",
    "created_at", "updated_at")}).returning(*_GAME)
# A lobby's change, if nobody changed the game since it was read.
_UPDATE_GAME = (games.update()
                .where(games.c.id == bindparam("the_game"), games.c.version == bindparam("read_version"),
                       games.c.status == bindparam("read_status"), games.c.seats == bindparam("read_seats"))
                .values({c: bindparam(f"new_{c}") for c in ("status", "host_id", "seats", "options", "state", "result")}
                        | {"updated_at": bindparam("now")}))
# The people a game names (GameRecord.people), written again whenever they change.
_UNNAME_PEOPLE = game_people.delete().where(game_people.c.game_id == bindparam("the_game"))
_NAME_PERSON = game_people.insert().values(game_id=bindparam("the_game"), user_id=bindparam("user"))
_SET_BOARD = (games.update().where(games.c.id == bindparam("the_game"))
              .values(board_message_id=bindparam("message"), board_version=bindparam("shown"),
                      board_status=bindparam("shown_status")))
_AWAY_UNTIL = (select(away_periods.c.user_id, func.max(away_periods.c.until).label("until"))
               .where(away_periods.c.user_id.in_(bindparam("users", expanding=True))).group_by(away_periods.c.user_id))
# Each user's latest time away, then (until NULL) those who want a direct message on their turn: one round trip.
_PEOPLE = _AWAY_UNTIL.union_all(
    select(turn_notifications.c.user_id, null().cast(Double).label("until"))
    .where(turn_notifications.c.user_id.in_(bindparam("users", expanding=True))))
_ADVANCE = (games.update()
            .where(games.c.id == bindparam("the_game"), games.c.version == bindparam("read_version"),
                   games.c.status == "active")
            .values(state=bindparam("new_state"), version=games.c.version + 1, status=bindparam("new_status"),
                    result=bindparam("new_result"), updated_at=bindparam("now")))
_PING: Select[Any] = select(literal_column("1"))
_OPEN_COUNTS = select(games.c.status, func.count().label("games")).where(_IS_OPEN).group_by(games.c.status)
_OPEN_COUNTS_ON_SHARDS = _on_shards(_OPEN_COUNTS)
_BOT_FACT = select(bot_facts.c.value).where(bot_facts.c.key == bindparam("key"))
_SERVER_DEFAULTS = select(server_defaults.c.options).where(server_defaults.c.guild_id == bindparam("guild"))
_AWAY_PERIODS = (select(away_periods.c.started_at, away_periods.c.until)
                 .where(away_periods.c.user_id == bindparam("user"), away_periods.c.until > bindparam("since"))
                 .order_by(away_periods.c.started_at))
_MARK_REMINDED = (games.update()
                  .where(games.c.id == bindparam("the_game"), games.c.version == bindparam("shown"),
                         games.c.status == "active", games.c.reminded_version.is_distinct_from(bindparam("shown")))
                  .values(reminded_version=bindparam("shown")))
_VOTES = (select(seat_votes.c.voter_id, seat_votes.c.choice)
          .where(seat_votes.c.game_id == bindparam("the_game"), seat_votes.c.seat == bindparam("seat")))
_CLEAR_VOTES = seat_votes.delete().where(seat_votes.c.game_id == bindparam("the_game"),
                                         seat_votes.c.seat == bindparam("seat"))
_NO_TURN_NOTIFICATIONS = turn_notifications.delete().where(turn_notifications.c.user_id == bindparam("user"))


def _turn_clocks(one_game: bool) -> Select[Any]:
    query = select(*_GAME, games.c.reminded_version).where(games.c.status == "active")
    return (query.where(games.c.id == bindparam("the_game")) if one_game else query).order_by(games.c.id)


# Keyed by (one game, on shards).
_TURN_CLOCKS = {(one, sharded): _on_shards(_turn_clocks(one)) if sharded else _turn_clocks(one)
                for one in (False, True) for sharded in (False, True)}
# A game ended by a move, a resignation or /game end whose board does not show it yet; not one ended because
# its channel or server is gone (nothing left to show it in: the result's details say so).
_ENDED_UNSHOWN = and_(games.c.status.in_(("finished", "ended")), games.c.state.is_not(None),
                      or_(games.c.board_version < games.c.version, games.c.board_status != games.c.status),
                      games.c.updated_at > bindparam("ended_after"),
                      ~games.c.result.contains('"channel_deleted"'), ~games.c.result.contains('"bot_removed"'))
_TO_RESUME = (select(*_GAME, games.c.board_version, games.c.board_status)
              .where(or_(games.c.status == "active", _ENDED_UNSHOWN,
                         and_(games.c.status == "lobby", games.c.board_message_id.is_(None))))   # never shown
              .order_by(games.c.id))
_TO_RESUME_ON_SHARDS = _on_shards(_TO_RESUME)
_GAME_TO_RESUME = _TO_RESUME.where(games.c.id == bindparam("the_game"))


def _upserts(make: Callable[[Any], Any]) -> dict[str, Any]:
    """An INSERT with an ON CONFLICT clause, per dialect: each has its own construct, alike in use."""
    return {"sqlite": make(sqlite.insert), "postgresql": make(postgresql.insert)}


_SET_BOT_FACT = _upserts(lambda insert: (
    stmt := insert(bot_facts).values(key=bindparam("key"), value=bindparam("value")))
    .on_conflict_do_update(index_elements=[bot_facts.c.key], set_={"value": stmt.excluded.value}))
_SET_SERVER_DEFAULTS = _upserts(lambda insert: (
    stmt := insert(server_defaults).values(guild_id=bindparam("guild"), options=bindparam("options")))
    .on_conflict_do_update(index_elements=[server_defaults.c.guild_id], set_={"options": stmt.excluded.options}))
_START_AWAY = _upserts(lambda insert: (
    stmt := insert(away_periods).values(user_id=bindparam("log_user_id"), started_at=bindparam("log_at"),
                                        until=bindparam("until")))
    .on_conflict_do_update(index_elements=list(away_periods.primary_key), set_={"until": stmt.excluded.until}))
_SET_VOTE = _upserts(lambda insert: (
    stmt := insert(seat_votes).values(game_id=bindparam("the_game"), seat=bindparam("seat"),
                                      voter_id=bindparam("voter"), choice=bindparam("choice")))
    .on_conflict_do_update(index_elements=list(seat_votes.primary_key), set_={"choice": stmt.excluded.choice}))
_TURN_NOTIFICATIONS = _upserts(lambda insert: insert(turn_notifications).values(user_id=bindparam("user"))
                               .on_conflict_do_nothing())

# A user's time away ends at log_at (named after the action's columns: a person who acts is back, and
# their time away ends with the move; log_user_id NULL, a computer or a deadline: nothing to end).
_END_AWAY = (away_periods.update().values(until=bindparam("log_at"))
             .where(away_periods.c.user_id == bindparam("log_user_id"), away_periods.c.until > bindparam("log_at")))
# PostgreSQL: the move's three writes as one statement (atomic by itself), one round trip instead of five
# (BEGIN, UPDATE, INSERT, UPDATE, COMMIT): the round trips are most of what a move costs the bot's CPU
# there. Data-modifying CTEs all run, referenced or not; the time away ends only if the game advanced.
# SQLite has no UPDATE inside WITH: there the three are one transaction.
_ADVANCED = _ADVANCE.returning(games.c.id).cte("advanced")
_ADVANCE_END_AWAY_AND_LOG = actions.insert().from_select(
    [c.name for c in actions.c],
    select(_ADVANCED.c.id, *(bindparam(f"log_{c.name}", type_=c.type) for c in actions.c if c.name != "game_id"))
    .add_cte(_END_AWAY.where(exists(_ADVANCED.select())).returning(away_periods.c.user_id).cte("back")))
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
            await db.execute(_END_AWAY, parameters)
    return advanced


async def _start_away(db: Statements, parameters: dict[str, Any]) -> None:
    await db.execute(_END_AWAY, parameters)
    await db.execute(_START_AWAY[db.dialect], parameters)


async def _create_game(db: Statements, values: dict[str, Any]) -> GameRecord:
    record = _record((await db.rows(_CREATE_GAME, values))[0])
    await _name_people(db, record, new=True)
    return record


async def _update_game(db: Statements, parameters: dict[str, Any], new: GameRecord) -> bool:
    """The version-checked update of a game whose people changed, and its people written again."""
    if updated := await db.execute(_UPDATE_GAME, parameters) == 1:
        await _name_people(db, new)
    return updated


async def _name_people(db: Statements, record: GameRecord, *, new: bool = False) -> None:
    """The game's people written (again: those it named before deleted first, unless it is `new`)."""
    if not new:
        await db.execute(_UNNAME_PEOPLE, {"the_game": record.id})
    await db.execute(_NAME_PERSON, [{"the_game": record.id, "user": user} for user in sorted(record.people)])


async def _migrate(db: Statements) -> bool:
    return await migrate_one(db)


class Store:
    """The database and its parts, each the rows of one concern: `store.games`, `store.boards`, `store.defaults`,
    `store.people`, `store.deadlines`, `store.privacy`."""

    def __init__(self, backend: _SQLite | _PostgreSQL, clock: Callable[[], float] = time.time):
        self._backend = backend
        self._clock = clock  # wall-clock seconds; tests of deadlines inject theirs
        self._closed = False
        self.games = GameRows(self)
        self.boards = BoardRows(self)
        self.defaults = DefaultRows(self)
        self.people = PeopleRows(self)
        self.deadlines = DeadlineRows(self)
        self.privacy = PrivacyRows(self)

    @classmethod
    async def open(cls, database: str, clock: Callable[[], float] = time.time, *, migrate: bool = True) -> Store:
        """The store in `database`: a SQLite file's path or a postgresql:// (postgres://) URL; migrated, unless
        `migrate` is False (a tool that only reads): then SchemaNotCurrent when its schema is not this code's."""
        backend = _PostgreSQL(database) if is_postgresql(database) else _SQLite(database)
        store = cls(backend, clock)
        try:
            await backend.start()
            if not migrate:
                if (found := await store.run(schema_version)) != len(MIGRATIONS):
                    raise SchemaNotCurrent(found)
                return store
            # One transaction per migration: a crash leaves it wholly applied or not at all.
            while await store.run(_migrate, transaction=True):
                pass
        except BaseException:
            await store.close()  # else the database thread or the pool keeps the process alive
            raise
        return store

    async def close(self) -> None:
        """Calls made after this raise StoreClosed at once; those already waiting for the database end first."""
        self._closed = True
        await self._backend.close()

    async def run(self, query: Callable[..., Awaitable[T]], *args: Any, transaction: bool = False) -> T:
        """await query(statements, *args): a function running SQLAlchemy Core statements (bot/store/schema.py's
        tables) on the database (`Statements`), in one transaction if asked. The parts' methods are made of
        it; so are tools that work on whole tables (bot/tools/migrate.py). StoreUnavailable when the database is
        out of reach."""
        if self._closed:
            raise StoreClosed
        started, result = time.perf_counter(), "error"
        try:
            value = await self._attempt(query, args, transaction)
            result = "ok"
            return value
        except StoreUnavailable:
            result = "unreachable"
            raise
        finally:
            _CALLS[result].observe(time.perf_counter() - started)

    async def _attempt(self, query: Callable[..., Awaitable[T]], args: tuple[Any, ...], transaction: bool) -> T:
        try:
            try:
                return await self._session(query, args, transaction)
            except Exception as error:
                if not stale_connection(error):
                    raise
                return await self._session(query, args, transaction)   # on a new connection
        except Exception as error:   # the database out of reach: one typed error (bot/core/outages.py)
            if self._closed:   # closed under the call
                raise StoreClosed from error
            if unreachable(error):
                raise StoreUnavailable(str(error).splitlines()[0]) from error
            raise

    async def _session(self, query: Callable[..., Awaitable[T]], args: tuple[Any, ...], transaction: bool) -> T:
        async with self._backend.session(transaction) as db:
            return await query(db, *args)

    async def rows(self, statement: Any, parameters: Mapping[str, Any] | None = None) -> Sequence[Row]:
        """One statement's rows (its own call to the database)."""
        return await self.run(lambda db: db.rows(statement, parameters))

    async def execute(self, statement: Any, parameters: Mapping[str, Any] | None = None) -> int:
        """One statement run: the rows it changed."""
        return await self.run(lambda db: db.execute(statement, parameters))

    async def records(self, statement: Any, parameters: Mapping[str, Any]) -> list[GameRecord]:
        return [_record(row) for row in await self.rows(statement, parameters)]

    async def record(self, statement: Any, parameters: Mapping[str, Any]) -> GameRecord | None:
        found = await self.records(statement, parameters)
        return found[0] if found else None

    def now(self) -> float:
        return self._clock()

    @property
    def dialect(self) -> str:
        return self._backend.dialect

    async def ping(self) -> None:
        """One round trip to the database (the health check's): StoreUnavailable when out of reach."""
        await self.rows(_PING)

    async def bot_fact(self, key: str) -> str | None:
        rows = await self.rows(_BOT_FACT, {"key": key})
        return rows[0]["value"] if rows else None

    async def set_bot_fact(self, key: str, value: str) -> None:
        await self.execute(_SET_BOT_FACT[self.dialect], {"key": key, "value": value})


class GameRows:
    """The games and their action logs: the reads, a lobby's changes, each action with the state it led to."""

    def __init__(self, store: Store):
        self._store = store

    async def open_game_counts(self, shards: Shards | None = None) -> dict[str, int]:
        """How many games (in the guilds of `shards`) are in their lobby and in play, by status."""
        rows = await self._store.rows(_OPEN_COUNTS if shards is None else _OPEN_COUNTS_ON_SHARDS,
                                      _shard_parameters(shards))
        return {"lobby": 0, "active": 0} | {row["status"]: row["games"] for row in rows}

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
                  "host_id": host.user_id, "locale": locale, "options": _dump(options), "seats": _seats((host,)),
                  "seed": seed, "version": 0, "created_at": now, "updated_at": now}
        try:
            return await self._store.run(_create_game, values, transaction=True)
        except (asyncpg.IntegrityConstraintViolationError, sqlite3.IntegrityError) as exc:   # the unique open game
            raise ChannelBusy from exc

    async def update_game(self, record: GameRecord, **changes: Any) -> GameRecord:
        """Change lobby fields (seats, status, state, result...) if nobody changed
        the game since `record` was read; returns the new record."""
        new = replace(record, **changes, updated_at=self._store.now())
        parameters = {"the_game": record.id, "read_version": record.version, "read_status": record.status,
                      "read_seats": _seats(record.seats), "new_status": new.status, "new_host_id": new.host_id,
                      "new_seats": _seats(new.seats), "new_options": _dump(new.options),
                      "new_state": None if new.state is None else _dump(new.state),
                      "new_result": None if new.result is None else _dump(new.result), "now": new.updated_at}
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
        now = self._store.now()
        parameters = {"the_game": record.id, "read_version": record.version, "new_state": _dump(state),
                      "new_status": status, "new_result": None if result is None else _dump(result), "now": now,
                      "log_seq": record.version, "log_seat": seat, "log_user_id": user_id, "log_action": action,
                      "log_legal": int(legal), "log_at": now, "log_events": _dump(events) if events else None}
        # On PostgreSQL one statement (_ADVANCE_END_AWAY_AND_LOG), a transaction by itself.
        if not await self._store.run(_append_action, parameters, transaction=self._store.dialect == "sqlite"):
            raise StaleVersion
        return replace(record, state=state, version=record.version + 1, status=status, result=result, updated_at=now)


class BoardRows:
    """Which message shows each game's board, and which version and status it shows."""

    def __init__(self, store: Store):
        self._store = store

    async def set_message(self, game_id: int, message_id: int, version: int, status: str) -> None:
        """The message showing the game's board, and the game version and status it shows (LOBBY_SHOWN: the lobby)."""
        await self._store.execute(_SET_BOARD, {"the_game": game_id, "message": message_id, "shown": version,
                                         "shown_status": status})

    async def to_resume(self, shards: Shards | None = None,
                               game_id: int | None = None) -> list[tuple[GameRecord, int | None, str | None]]:
        """Every game in play (in the guilds of `shards`; or just `game_id`), every lobby never shown, and
        every game a move, a resignation or /game end ended within FINAL_BOARD_DAYS whose board does not show
        that yet, with the version and status its posted board shows (None: not recorded)."""
        ended_after = {"ended_after": self._store.now() - FINAL_BOARD_DAYS * 86400}
        if game_id is not None:
            rows = await self._store.rows(_GAME_TO_RESUME, ended_after | {"the_game": game_id})
        else:
            rows = await self._store.rows(_TO_RESUME if shards is None else _TO_RESUME_ON_SHARDS,
                                    ended_after | _shard_parameters(shards))
        return [(_record(row), row["board_version"], row["board_status"]) for row in rows]


class DefaultRows:
    """Each server's defaults of its new games."""

    def __init__(self, store: Store):
        self._store = store

    async def of(self, guild_id: int) -> dict[str, Any]:
        """The options a server gives its new games unless they choose otherwise ({}: none)."""
        rows = await self._store.rows(_SERVER_DEFAULTS, {"guild": guild_id})
        return json.loads(rows[0]["options"]) if rows else {}

    async def set(self, guild_id: int, options: dict[str, Any]) -> None:
        await self._store.execute(_SET_SERVER_DEFAULTS[self._store.dialect],
                                  {"guild": guild_id, "options": _dump(options)})


class PeopleRows:
    """People's time away and their wish for a direct message when their turn comes."""

    def __init__(self, store: Store):
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
        return await self._store.execute(_END_AWAY, {"log_user_id": user_id, "log_at": now}) > 0

    async def set_turn_notifications(self, user_id: int, enabled: bool) -> None:
        await self._store.execute(_TURN_NOTIFICATIONS[self._store.dialect] if enabled else _NO_TURN_NOTIFICATIONS,
                            {"user": user_id})

    async def of(self, user_ids: set[int]) -> tuple[dict[int, float], set[int]]:
        """The end of each user's latest period away (past or running), for those who have one; and those
        who want a direct message when their turn comes."""
        if not user_ids:
            return {}, set()
        rows = await self._store.rows(_PEOPLE, {"users": sorted(user_ids)})
        return ({row["user_id"]: row["until"] for row in rows if row["until"] is not None},
                {row["user_id"] for row in rows if row["until"] is None})


class DeadlineRows:
    """The clocks of timed games, their reminders, and the votes on absent seats."""

    def __init__(self, store: Store):
        self._store = store

    async def turn_clocks(self, game_id: int | None = None, shards: Shards | None = None) -> list[TurnClock]:
        """Active games with a turn time (in the guilds of `shards`; or just `game_id`'s)."""
        rows = await self._store.rows(_TURN_CLOCKS[game_id is not None, shards is not None],
                                {"the_game": game_id} | _shard_parameters(shards))
        clocks = [TurnClock(record := _record(row), record.updated_at, row["reminded_version"]) for row in rows]
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


class PrivacyRows:
    """Players' data on request, and servers' games past their retention (bot/services/privacy.py)."""

    def __init__(self, store: Store):
        self._store = store

    async def games_of(self, user_id: int) -> list[GameRecord]:
        """Every game that names `user_id`: seated (or in the lobby order), host, acting in the log or voting."""
        return await self._store.records(_GAMES_OF, {"user": user_id})

    async def kept_about(self, user_id: int) -> dict[str, int]:
        """How much is kept about `user_id`: games (those in play too), actions logged, periods away, and
        whether a direct message on their turn is wanted (1 or 0)."""
        rows = await self._store.rows(_KEPT_ABOUT, {"user": user_id})
        return dict(rows[0])

    async def logged_events(self, game_ids: Sequence[int]) -> list[tuple[int, int, str]]:
        """(game id, position, events JSON) of every action of these games that caused events."""
        rows = await self._store.rows(_LOGGED_EVENTS, {"games": list(game_ids)})
        return [(row["game_id"], row["seq"], row["events"]) for row in rows]

    async def forget_user(self, user_id: int, pseudonym: int, rewritten: Sequence[tuple[GameRecord, GameRecord]],
                          events: Sequence[tuple[int, int, str]]) -> None:
        """In one transaction: each game (as read, as rewritten: seats, options, host, result) if nobody changed
        it since (else StaleVersion, nothing written), the events given, `user_id` in the log becomes
        `pseudonym`; their votes, time away and wish for direct messages are deleted."""
        await self._store.run(_forget_user, user_id, pseudonym, rewritten, events, transaction=True)

    async def guild_left(self, guild_id: int, when: float | None) -> None:
        """The bot was removed from the server at `when` (None: it is back, nothing to delete)."""
        if when is None:
            await self._store.execute(_GUILD_BACK, {"guild": guild_id})
        else:
            await self._store.execute(_GUILD_LEFT[self._store.dialect], {"guild": guild_id, "when": when})

    async def guilds_known(self, shards: Shards) -> tuple[set[int], set[int]]:
        """Of the servers on `shards`: those whose games the bot played there (not only through users' installs)
        and that have not removed it as far as the store knows; and those that removed it (guilds_left)."""
        played = await self._store.rows(_GUILDS_PLAYED, _shard_parameters(shards))
        left = await self._store.rows(_GUILDS_LEFT, {})
        return ({row["guild_id"] for row in played},
                {row["guild_id"] for row in left if shards.owns(row["guild_id"])})

    async def purge(self, left_before: float, away_before: float) -> tuple[int, int]:
        """Delete the games (their logs, votes and the server's defaults) of servers that removed the bot before
        `left_before`, and the periods away that ended before `away_before`: (games, periods) deleted."""
        return await self._store.run(_purge, {"before": left_before, "away_before": away_before}, transaction=True)


# Each found through an index (game_people's and actions' by user; the votes are few): no game read but theirs.
_NAMES_USER = games.c.id.in_(union(
    select(game_people.c.game_id).where(game_people.c.user_id == bindparam("user")),
    select(actions.c.game_id).where(actions.c.user_id == bindparam("user")),
    select(seat_votes.c.game_id).where(seat_votes.c.voter_id == bindparam("user"))))
_GAMES_OF = select(*_GAME).where(_NAMES_USER).order_by(games.c.id)
# The person's games read once, the open ones counted among them (a second look for them, open games first, is
# what PostgreSQL's planner may choose: every open game read).
_KEPT_ABOUT = select(
    func.count().label("games"), func.count(case((_IS_OPEN, 1))).label("open_games"),
    select(func.count()).where(actions.c.user_id == bindparam("user")).select_from(actions)
    .scalar_subquery().label("actions"),
    select(func.count()).where(away_periods.c.user_id == bindparam("user")).select_from(away_periods)
    .scalar_subquery().label("away_periods"),
    select(func.count()).where(turn_notifications.c.user_id == bindparam("user")).select_from(turn_notifications)
    .scalar_subquery().label("notifications")).select_from(games).where(_NAMES_USER)
_LOGGED_EVENTS = (select(actions.c.game_id, actions.c.seq, actions.c.events)
                  .where(actions.c.game_id.in_(bindparam("games", expanding=True)), actions.c.events.is_not(None)))
_REWRITE_GAME = (games.update()
                 .where(games.c.id == bindparam("the_game"), games.c.version == bindparam("read_version"),
                        games.c.seats == bindparam("read_seats"))
                 .values({c: bindparam(f"new_{c}") for c in ("seats", "options", "host_id", "result")}))
_REWRITE_EVENTS = (actions.update().where(actions.c.game_id == bindparam("the_game"), actions.c.seq == bindparam("seq"))
                   .values(events=bindparam("events")))
_PSEUDONYMISE_LOG = (actions.update().where(actions.c.user_id == bindparam("user"))
                     .values(user_id=bindparam("pseudonym")))
_FORGET_ROWS = (seat_votes.delete().where(seat_votes.c.voter_id == bindparam("user")),
                away_periods.delete().where(away_periods.c.user_id == bindparam("user")),
                turn_notifications.delete().where(turn_notifications.c.user_id == bindparam("user")))
_GUILD_LEFT = _upserts(lambda insert: (
    stmt := insert(guilds_left).values(guild_id=bindparam("guild"), left_at=bindparam("when")))
    .on_conflict_do_update(index_elements=[guilds_left.c.guild_id], set_={"left_at": stmt.excluded.left_at}))
_GUILD_BACK = guilds_left.delete().where(guilds_left.c.guild_id == bindparam("guild"))
# A game played through a user's install of the app (bot/cogs/messages/delivery.py) is in a server the bot may never
# have been in: it says nothing of the bot's presence there. The servers from the index of games by server, and
# for each a look at its games until one the bot played (mostly the first): not every game read.
_GUILDS_WITH_GAMES = _on_shards(select(games.c.guild_id).distinct().where(
    games.c.guild_id.is_not(None), games.c.guild_id.not_in(select(guilds_left.c.guild_id)))).subquery()
_BOTS_OWN = ~games.c.options.contains(f'"{INTERACTIONS_ONLY}":true')   # the bot's game, not one of a user's install
_GUILDS_PLAYED = select(_GUILDS_WITH_GAMES.c.guild_id).where(exists().where(
    games.c.guild_id == _GUILDS_WITH_GAMES.c.guild_id, _BOTS_OWN))
_GUILDS_LEFT = select(guilds_left.c.guild_id)
_GONE_GUILDS = select(guilds_left.c.guild_id).where(guilds_left.c.left_at < bindparam("before"))
# A server's removal of the bot says nothing of the games its members play through their own install: those
# stay, as they stayed open when the server removed the bot.
_GONE_GAMES = select(games.c.id).where(games.c.guild_id.in_(_GONE_GUILDS), _BOTS_OWN)
_PURGE = (actions.delete().where(actions.c.game_id.in_(_GONE_GAMES)),   # what names a game before the game
          seat_votes.delete().where(seat_votes.c.game_id.in_(_GONE_GAMES)),
          game_people.delete().where(game_people.c.game_id.in_(_GONE_GAMES)),
          server_defaults.delete().where(server_defaults.c.guild_id.in_(_GONE_GUILDS)))
_PURGE_GAMES = games.delete().where(games.c.guild_id.in_(_GONE_GUILDS), _BOTS_OWN)
_PURGE_GUILDS = guilds_left.delete().where(guilds_left.c.left_at < bindparam("before"))
_PURGE_AWAY = away_periods.delete().where(away_periods.c.until < bindparam("away_before"))


async def _forget_user(db: Statements, user_id: int, pseudonym: int,
                       rewritten: Sequence[tuple[GameRecord, GameRecord]],
                       events: Sequence[tuple[int, int, str]]) -> None:
    for read, new in rewritten:
        if await db.execute(_REWRITE_GAME, {
                "the_game": read.id, "read_version": read.version, "read_seats": _seats(read.seats),
                "new_seats": _seats(new.seats), "new_options": _dump(new.options), "new_host_id": new.host_id,
                "new_result": None if new.result is None else _dump(new.result)}) != 1:
            raise StaleVersion
        await _name_people(db, new)
    if events:
        await db.execute(_REWRITE_EVENTS, [{"the_game": game, "seq": seq, "events": text}
                                           for game, seq, text in events])
    await db.execute(_PSEUDONYMISE_LOG, {"user": user_id, "pseudonym": pseudonym})
    for statement in _FORGET_ROWS:
        await db.execute(statement, {"user": user_id})


async def _purge(db: Statements, parameters: dict[str, Any]) -> tuple[int, int]:
    for statement in _PURGE:
        await db.execute(statement, parameters)
    deleted = await db.execute(_PURGE_GAMES, parameters)
    await db.execute(_PURGE_GUILDS, parameters)
    return deleted, await db.execute(_PURGE_AWAY, parameters)
