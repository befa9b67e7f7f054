"""Each server's defaults of its new games (`store.defaults`, /game defaults)."""
from __future__ import annotations

import json
from typing import Any

from sqlalchemy import bindparam, select

from bot.store.backends import upserts
from bot.store.calls import Database
from bot.store.game_row import dump
from bot.store.schema import server_defaults

_SERVER_DEFAULTS = select(server_defaults.c.options).where(server_defaults.c.guild_id == bindparam("guild"))
_SET_SERVER_DEFAULTS = upserts(lambda insert: (
    stmt := insert(server_defaults).values(guild_id=bindparam("guild"), options=bindparam("options")))
    .on_conflict_do_update(index_elements=[server_defaults.c.guild_id], set_={"options": stmt.excluded.options}))


class DefaultRows:
    """Each server's defaults of its new games."""

    def __init__(self, store: Database):
        self._store = store

    async def of(self, guild_id: int) -> dict[str, Any]:
        """The options a server gives its new games unless they choose otherwise ({}: none)."""
        rows = await self._store.rows(_SERVER_DEFAULTS, {"guild": guild_id})
        return json.loads(rows[0]["options"]) if rows else {}

    async def set(self, guild_id: int, options: dict[str, Any]) -> None:
        await self._store.execute(_SET_SERVER_DEFAULTS[self._store.dialect],
                                  {"guild": guild_id, "options": dump(options)})
