"""What the parts of the session service share: the store, the channels' locks, reading a game, Outcome.

The services are the only writers, one per channel at a time: a part takes the channel's lock, loads the
game, asks the ruleset whether the action is accepted, and writes it through the store in one
transaction before returning. Refusals are GameError values carrying a translatable Message; the
stored game is untouched by them. Nothing in bot/services/ imports discord.
"""
from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

from bot.core.game_records import GameRecord
from bot.core.shards import Shards
from bot.games.base import GameError, Result, msg
from bot.store import StaleVersion, Store


def result_json(result: Result) -> dict[str, Any]:
    return {"winners": list(result.winners), "draw": result.draw, "details": dict(result.details)}


def hosts(record: GameRecord, user_id: int) -> bool:
    """Whether `user_id` holds the host's powers: the host, while seated (they pass on with the seat)."""
    return record.host_id == user_id and record.seat_of(user_id) is not None


def remember(cache: dict[Any, Any], key: Any, value: Any, limit: int) -> None:
    """`value` kept in `cache` (insertion order: least recently used first) as the most recently used, the
    least recently used dropped beyond `limit` entries."""
    cache.pop(key, None)
    cache[key] = value
    if len(cache) > limit:
        del cache[next(iter(cache))]


class Channels:
    """The store, one lock per channel, and the reads of a channel's game: what the parts that change a game
    share (each part takes the channel's lock from here before reading the game it changes).

    `shards`: the gateway shards of this process (None: all). The games of the other shards' guilds are
    other processes' to resume and time (bot/core/shards.py); any process may still read or change any game."""

    def __init__(self, store: Store, shards: Shards | None = None):
        self.store = store
        self.shards = shards
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The channel's lock: one change of its game at a time in this process."""
        return self._locks[channel_id]

    async def open_game(self, channel_id: int) -> GameRecord | None:
        """The channel's open game (lobby or in play), if any: for lookups that refuse nothing."""
        return await self.store.games.open_game(channel_id)

    async def current(self, channel_id: int) -> GameRecord:
        record = await self.store.games.open_game(channel_id)
        if record is None:
            raise GameError(msg("error.no_game"))
        return record

    async def game(self, channel_id: int, game_id: int) -> GameRecord:
        """The open game `game_id` of this channel; a click on a finished game's board is refused."""
        record = await self.store.games.open_game(channel_id)
        if record is None or record.id != game_id:
            raise GameError(msg("error.game_over_or_gone"))
        return record

    async def active(self, channel_id: int, game_id: int | None, version: int | None) -> GameRecord:
        """The channel's game in play (`game_id`, at `version`, when a button says which); GameError otherwise."""
        record = await self.store.games.open_game(channel_id)
        if record is None:
            raise GameError(msg("error.no_game"))
        if game_id is not None and record.id != game_id:
            raise GameError(msg("error.game_over_or_gone"))
        if record.status != "active":
            raise GameError(msg("error.not_started"))
        if version is not None and version != record.version:
            raise GameError(msg("error.stale"))
        return record

    async def save(self, record: GameRecord, **changes: Any) -> GameRecord:
        """Write changes outside the action log (seats, options, status); a concurrent write is refused."""
        try:
            return await self.store.games.update_game(record, **changes)
        except StaleVersion:
            raise GameError(msg("error.stale")) from None
