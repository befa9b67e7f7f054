"""The store's move path, alone: what one move costs the bot process in the database layer (and, apart,
what finding one person's games costs among many: `privacy`).

A move is what the session service does on a click: load the channel's open game (`open_game`),
then `append_action` (the action and the new snapshot in one version-checked transaction). The
snapshots are real: a Parcheesi game played at random, one snapshot per move. `games` games take
turns, one move at a time each (the bot serves many channels). CPU is the bot process's own
(time.process_time: the SQLite store's thread included; PostgreSQL's server is another process, its work is
not counted), wall time is per move, sequential, over loopback.

Beside the store's SQLite (aiosqlite) and PostgreSQL (an asyncpg pool), statements compiled once, the way it
did not take: the same queries through SQLAlchemy's async engine, over aiosqlite (`sqlite+aiosqlite`)
and over asyncpg (`postgresql+asyncpg`, the store's PostgreSQL until then).
"""
from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from sqlalchemy import URL, bindparam, event
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine

from bot.core.game_records import Seat
from bot.games import get_ruleset
from bot.store import Store, postgresql_url, schema
from bot.store.schema import Statements
from tests.benchmarks.common import random_game
from tests.databases import Unreachable, scratch_database


@dataclass(frozen=True)
class PrivacyFigures:
    games: int
    cpu_ms_per_ask: float   # /game privacy's read (kept_about)
    cpu_ms_per_read: float  # /game forget's read of the person's games (games_of)


@dataclass(frozen=True)
class StoreFigures:
    backend: str
    moves: int
    cpu_ms_per_move: float
    wall_ms_per_move: float


class _AsyncEngine:
    """The way not taken: a database through SQLAlchemy's async engine (`sqlite+aiosqlite`, or
    `postgresql+asyncpg` as the store ran before). A statement is a greenlet switch, the engine's pool and
    result layers, and over aiosqlite several trips to its thread (cursor, execute, fetch, close)."""

    def __init__(self, url: URL | str):
        self._engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
        self.dialect = self._engine.dialect.name
        self._transactions = self._engine.execution_options(
            isolation_level="SERIALIZABLE" if self.dialect == "sqlite" else "READ COMMITTED")
        if self.dialect == "sqlite":
            event.listen(self._engine.sync_engine, "connect", _pragmas)

    @asynccontextmanager
    async def session(self, transaction: bool) -> AsyncIterator[_EngineConnection]:
        async with (self._transactions.begin() if transaction else self._engine.connect()) as conn:
            yield _EngineConnection(conn)

    async def close(self) -> None:
        await self._engine.dispose()


class _EngineConnection:
    def __init__(self, conn: AsyncConnection):
        self._conn = conn
        self.dialect = conn.dialect.name

    async def rows(self, statement: Any, parameters: Any = None) -> Any:
        return (await self._conn.execute(statement, parameters)).mappings().all()

    async def execute(self, statement: Any, parameters: Any = None) -> int:
        return (await self._conn.execute(statement, parameters)).rowcount


def _pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


async def _open(database: str, backend: str) -> Store:
    if backend in ("sqlite", "postgresql"):
        return await Store.open(database)
    await (await Store.open(database)).close()   # migrated
    if backend == "sqlite+aiosqlite":
        return Store(_AsyncEngine(URL.create("sqlite+aiosqlite", database=database)))
    return Store(_AsyncEngine(postgresql_url(database)))


async def measure(database: str, backend: str, *, moves: int, games: int = 20, first_channel: int = 1) -> StoreFigures:
    ruleset = get_ruleset("parcheesi")
    snapshots = [ruleset.to_json(s) for s in islice(random_game(ruleset, 4, seed=3), 200)]
    store = await _open(database, backend)
    try:
        channels = []
        for channel in range(first_channel, first_channel + games):
            record = await store.games.create_game(guild_id=1, channel_id=channel, game="parcheesi", host=Seat(1, "A"),
                                                   locale="en", options={}, seed="00" * 32)
            await store.games.update_game(record, status="active", state=snapshots[0])
            channels.append(channel)
        wall, cpu = time.perf_counter(), time.process_time()
        for n in range(moves):
            record = await store.games.open_game(channels[n % games])
            await store.games.append_action(record, seat=0, user_id=1, action="1", legal=True,
                                            state=snapshots[record.version % len(snapshots)],
                                            events=[{"key": "moved", "params": {"seat": 0}}])
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        await store.close()
    return StoreFigures(backend, moves, cpu * 1000 / moves, wall * 1000 / moves)


async def privacy(database: str, *, games: int, asks: int = 20) -> PrivacyFigures:
    """What `/game privacy` and `/game forget` read about one person among `games` stored games (SQLite): each
    game two to four of 10,000 people, in play (a Parcheesi snapshot), written in bulk; CPU per read (the
    SQLite thread's included), the mean of `asks` people's."""
    ruleset = get_ruleset("parcheesi")
    state = _dump(ruleset.to_json(next(random_game(ruleset, 4, seed=3))))
    rng = random.Random(5)
    store = await Store.open(database)
    try:
        for first in range(0, games, 5000):
            rows, named = [], []
            for game_id in range(first + 1, min(first + 5000, games) + 1):
                people = rng.sample(range(1, 10_001), rng.randint(2, 4))
                named += [{"game_id": game_id, "user_id": person} for person in people]
                rows.append({"id": game_id, "guild_id": 1 + game_id % 50, "channel_id": game_id, "game": "parcheesi",
                             "status": "active", "host_id": people[0], "locale": "en", "options": "{}",
                             "seats": _dump([Seat(p, f"player {p}").to_json() for p in people]), "seed": "00" * 32,
                             "state": state, "version": 0, "created_at": 0.0, "updated_at": 0.0})
            await store.run(_insert_games, rows, named, transaction=True)
        people = rng.sample(range(1, 10_001), asks)
        cpu = time.process_time()
        for person in people:
            await store.privacy.kept_about(person)
        asked = time.process_time() - cpu
        for person in people:
            await store.privacy.games_of(person)
        read = time.process_time() - cpu - asked
    finally:
        await store.close()
    return PrivacyFigures(games, asked * 1000 / asks, read * 1000 / asks)


_INSERT_GAME = schema.games.insert().values({c: bindparam(c) for c in (
    "id", "guild_id", "channel_id", "game", "status", "host_id", "locale", "options", "seats", "seed", "state",
    "version", "created_at", "updated_at")})


_NAME_PERSON = schema.game_people.insert().values(game_id=bindparam("game_id"), user_id=bindparam("user_id"))


async def _insert_games(db: Statements, rows: list[dict[str, Any]], named: list[dict[str, Any]]) -> None:
    """The games and the people they name (bot.store writes game_people with each game)."""
    await db.execute(_INSERT_GAME, rows)
    await db.execute(_NAME_PERSON, named)


def _dump(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def run_privacy(games: int, runs: int) -> PrivacyFigures:
    """The best of `runs`, each on a new temporary SQLite file."""
    with tempfile.TemporaryDirectory() as directory:
        return min((asyncio.run(privacy(str(Path(directory) / f"privacy{n}.sqlite3"), games=games))
                    for n in range(runs)), key=lambda f: f.cpu_ms_per_ask)


def run(moves: int, runs: int) -> tuple[list[StoreFigures], str | None]:
    """The best of `runs` on a temporary SQLite file (the store's way, then SQLAlchemy's async engine's) and on a
    scratch database of the test server
    (TABLERO_TEST_POSTGRES); the reason PostgreSQL was not measured, if it was not."""
    figures = []
    with tempfile.TemporaryDirectory() as directory:
        for backend in ("sqlite", "sqlite+aiosqlite"):
            files = [str(Path(directory) / f"{backend}{n}.sqlite3") for n in range(runs)]
            figures.append(min((asyncio.run(measure(file, backend, moves=moves)) for file in files),
                               key=lambda f: f.cpu_ms_per_move))
    try:
        with scratch_database("benchmark") as url:
            for k, backend in enumerate(("postgresql", "postgresql+asyncpg")):
                figures.append(min((asyncio.run(measure(url, backend, moves=moves, first_channel=1000 * (n + k * runs)))
                                    for n in range(1, runs + 1)),
                                   key=lambda f: f.cpu_ms_per_move))
    except Unreachable as exc:
        return figures, str(exc)
    return figures, None
