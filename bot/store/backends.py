"""The two databases the store runs on, each behind the same `Statements` (bot/store/schema.py): a SQLite file
through aiosqlite, a PostgreSQL server through an asyncpg pool. The statements are SQLAlchemy Core's, compiled
once for each dialect; the INSERT ... ON CONFLICT constructs that differ between the two are written for each.

Measured (docs/performance.md, "aiosqlite"): a driver running compiled statements costs a move less CPU than
SQLAlchemy's async engine over the same driver (its every statement is a greenlet switch and its pool and result
layers; over aiosqlite, several trips to aiosqlite's thread too).
"""
from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
from sqlalchemy.dialects import postgresql, sqlite

from bot.store.errors import StoreClosed
from bot.store.schema import Row, Statements
from bot.store.urls import is_postgresql, postgresql_url

# A server that does not answer (failing over) is reported within Discord's 3 s for an interaction.
CONNECT_TIMEOUT_S = 2.0
# The most connections a process keeps to a PostgreSQL server (opened as calls need them).
POOL_SIZE = 15

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


def upserts(make: Callable[[Any], Any]) -> dict[str, Any]:
    """An INSERT with an ON CONFLICT clause, per dialect: each has its own construct, alike in use."""
    return {"sqlite": make(sqlite.insert), "postgresql": make(postgresql.insert)}


class SQLiteBackend:
    """One aiosqlite connection (its thread runs SQLite). A store call has the connection to itself from
    its first statement to its last (`_turn`), so that two coroutines' statements never interleave inside
    a transaction; other processes wait for the file's lock (busy_timeout)."""

    dialect = "sqlite"

    def __init__(self, path: str, read_only: bool = False):
        self._path = path
        self._read_only = read_only   # opened read-only (a tool that only reads): the file is left as it is
        self._db: aiosqlite.Connection | None = None
        self._turn = asyncio.Lock()

    async def start(self) -> None:
        # No implicit BEGIN: `session` begins (isolation_level None).
        if self._read_only:   # not even switched to WAL (a backup's copy is kept in one file)
            self._db = await aiosqlite.connect(f"{Path(self._path).absolute().as_uri()}?mode=ro", uri=True,
                                               isolation_level=None)
        else:
            self._db = await aiosqlite.connect(self._path, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        pragmas = ("busy_timeout=5000",) if self._read_only else (
            "journal_mode=WAL", "synchronous=NORMAL",  # WAL + NORMAL: durable across process crashes
            "foreign_keys=ON", "busy_timeout=5000")
        for pragma in pragmas:
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


class PostgreSQLBackend:
    """A pool of asyncpg connections. A store call that asks for a transaction runs in one; the others,
    one statement each, in autocommit (a BEGIN and a COMMIT fewer: two round trips). The statements are
    SQLAlchemy's, compiled once, as on SQLite: SQLAlchemy's async engine cost about 250 us of CPU more a
    statement (a greenlet switch, its pool and result layers), most of what PostgreSQL added to a move."""

    dialect = "postgresql"

    def __init__(self, url: str):
        self._url = postgresql_url(url)
        self._pool: asyncpg.Pool | None = None

    async def start(self) -> None:
        # Up to POOL_SIZE connections, opened as calls need them and kept (opening one costs many queries). No
        # minimum: asyncpg would reconnect it in the background through an outage, logging each failure.
        # A connection given back is not reset (asyncpg's default costs a round trip a call: RESET ALL, UNLISTEN,
        # CLOSE ALL, unlocking advisory locks): the store sets nothing, its one lock is a transaction's, and
        # asyncpg still rolls back a transaction left open.
        self._pool = await asyncpg.create_pool(self._url.set(drivername="postgresql").render_as_string(False),
                                               min_size=0, max_size=POOL_SIZE, max_inactive_connection_lifetime=0,
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


Backend = SQLiteBackend | PostgreSQLBackend


def backend_for(database: str, read_only: bool = False) -> Backend:
    """The backend of TABLERO_DATABASE: a PostgreSQL URL's pool or a SQLite file's connection (not started;
    `read_only`: a SQLite file opened read-only, PostgreSQL's left to the caller's statements)."""
    return PostgreSQLBackend(database) if is_postgresql(database) else SQLiteBackend(database, read_only)
