"""Server defaults (`/game defaults`): the turn time, what happens when it runs out, the seating and the language that
a server's new games get unless their own `/game new` options say otherwise (bot/services/lobby.py merges
them). Only members who may manage the server change them."""
from __future__ import annotations

from typing import Any

from bot.domain import deadline_math, i18n
from bot.domain.seating import SEATINGS
from bot.games.base import GameError, msg
from bot.store import Store

# What a server may choose, and the values each takes (turn_time: seconds, checked by the front end).
DEFAULT_OPTIONS = {"turn_time": None, "on_timeout": deadline_math.ON_TIMEOUT, "seating": SEATINGS,
                   "language": i18n.LOCALES}


class ServerDefaults:
    def __init__(self, store: Store):
        self.store = store

    async def of(self, guild_id: int) -> dict[str, Any]:
        """The server's defaults now in force."""
        return await self.store.defaults.of(guild_id)

    async def change(self, guild_id: int, can_manage: bool, changes: dict[str, Any]) -> dict[str, Any]:
        """Change some defaults (a value None removes that default); the defaults now in force."""
        if not can_manage:
            raise GameError(msg("defaults.error.manage_server"))
        for key, value in changes.items():
            allowed = DEFAULT_OPTIONS[key]
            if value is not None and allowed is not None and value not in allowed:
                raise GameError(msg("defaults.error.bad_value"))
        options = {k: v for k, v in {**await self.store.defaults.of(guild_id), **changes}.items()
                   if v is not None}
        await self.store.defaults.set(guild_id, options)
        return options
