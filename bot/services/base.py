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


KNOWN_GAMES = 2000   # games whose last write this process remembers, the least recently written dropped first


class Channels:
    """The store, one lock per channel, and the reads of a channel's game: what the parts that change a game
    share (each part takes the channel's lock from here before reading the game it changes).

    `shards`: the gateway shards of this process (None: all). The games of the other shards' guilds are
    other processes' to resume and time (bot/core/shards.py); any process may still read or change any game."""

    def __init__(self, store: Store, shards: Shards | None = None):
        self.store = store
        self.shards = shards
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        # Each game as this process last wrote it. A click names the version its board shows: where that is
        # the version written here, the game is not read again. Safe across processes: the write that follows
        # is checked against the stored version (StaleVersion), which another process's write has moved on.
        self._written: dict[int, GameRecord] = {}

    def written(self, record: GameRecord) -> None:
        """`record` as this process just wrote it."""
        remember(self._written, record.id, record, KNOWN_GAMES)

    def forget(self, game_id: int) -> None:
        """The copy of the game this process wrote is not to be trusted (the store said so, or it changed)."""
        self._written.pop(game_id, None)

    def as_written(self, channel_id: int, game_id: int | None, version: int | None) -> GameRecord | None:
        """The game in play `game_id` at `version` of this channel, as this process last wrote it; None where
        this process wrote no such version (then the store is read)."""
        record = self._written.get(game_id) if game_id is not None else None
        if record is None or record.version != version or record.channel_id != channel_id \
                or record.status != "active":
            return None
        return record

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
        if (written := self.as_written(channel_id, game_id, version)) is not None:
            return written
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
            saved = await self.store.games.update_game(record, **changes)
        except StaleVersion:
            raise GameError(msg("error.stale")) from None
        self.written(saved)   # seats, options or status, changed without a new version
        return saved
