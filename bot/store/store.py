"""The store: the database opened and migrated, and its parts, each the rows of one concern."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Select, bindparam, literal_column, select

from bot.store.backends import Backend, backend_for, upserts
from bot.store.boards import BoardRows
from bot.store.calls import Database
from bot.store.deadlines import DeadlineRows
from bot.store.defaults import DefaultRows
from bot.store.games import GameRows
from bot.store.people import PeopleRows
from bot.store.privacy import PrivacyRows
from bot.store.schema import MIGRATIONS, SchemaNotCurrent, Statements, bot_facts, migrate_one, schema_version

_PING: Select[Any] = select(literal_column("1"))
_BOT_FACT = select(bot_facts.c.value).where(bot_facts.c.key == bindparam("key"))
_SET_BOT_FACT = upserts(lambda insert: (
    stmt := insert(bot_facts).values(key=bindparam("key"), value=bindparam("value")))
    .on_conflict_do_update(index_elements=[bot_facts.c.key], set_={"value": stmt.excluded.value}))


async def _migrate(db: Statements) -> bool:
    return await migrate_one(db)


class Store(Database):
    """The database and its parts, each the rows of one concern: `store.games`, `store.boards`, `store.defaults`,
    `store.people`, `store.deadlines`, `store.privacy`."""

    def __init__(self, backend: Backend, clock: Callable[[], float] = time.time):
        super().__init__(backend, clock)
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
        backend = backend_for(database, read_only=not migrate)
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

    async def ping(self) -> None:
        """One round trip to the database (the health check's): StoreUnavailable when out of reach."""
        await self.rows(_PING)

    async def bot_fact(self, key: str) -> str | None:
        rows = await self.rows(_BOT_FACT, {"key": key})
        return rows[0]["value"] if rows else None

    async def set_bot_fact(self, key: str, value: str) -> None:
        await self.execute(_SET_BOT_FACT[self.dialect], {"key": key, "value": value})
