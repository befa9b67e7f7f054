"""One call of the store to its database (`Database.run`): a function of statements run in a session of the
backend, in one transaction if asked; tried again on a new connection when the one it had went stale; its
failures typed (the database out of reach: StoreUnavailable; the store closed under it: StoreClosed); its duration
counted by result (metrics.STORE_CALLS). The parts of the store (bot/store/games.py...) are made of such calls."""
from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

from bot.core import metrics
from bot.core.game_records import GameRecord
from bot.core.outages import StoreUnavailable, stale_connection, unreachable
from bot.store.backends import POOL_SIZE, Backend
from bot.store.errors import StoreClosed
from bot.store.game_row import record_of
from bot.store.schema import Row

T = TypeVar("T")

# Each call's duration by result (metrics.STORE_CALLS), the labels looked up once.
_CALLS = {result: metrics.STORE_CALLS.labels(result) for result in ("ok", "unreachable", "error")}


class Database:
    """A started backend and the calls made on it; the clock the rows' times are read from."""

    def __init__(self, backend: Backend, clock: Callable[[], float] = time.time):
        self._backend = backend
        self._clock = clock  # wall-clock seconds; tests of deadlines inject theirs
        self._closed = False

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
        stale = 0
        while True:
            try:
                return await self._session(query, args, transaction)
            except Exception as error:
                # A restart can leave every pooled connection stale at once; each found so is dropped by the pool.
                if stale_connection(error) and (stale := stale + 1) <= POOL_SIZE:
                    continue   # on a new connection
                if self._closed:   # closed under the call
                    raise StoreClosed from error
                if unreachable(error):   # the database out of reach: one typed error (bot/core/outages.py)
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
        """The games a statement selecting bot/store/game_row.py's GAME_COLUMNS reads."""
        return [record_of(row) for row in await self.rows(statement, parameters)]

    async def record(self, statement: Any, parameters: Mapping[str, Any]) -> GameRecord | None:
        found = await self.records(statement, parameters)
        return found[0] if found else None

    def now(self) -> float:
        return self._clock()

    @property
    def dialect(self) -> str:
        return self._backend.dialect
