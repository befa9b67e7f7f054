"""What every part of the session service shares: the store, the channels' locks, reading a game.

The services are the only writers, one per channel at a time: a part takes the channel's lock, loads the
game, asks the ruleset whether the action is accepted, and writes it through the store in one
transaction before returning. Refusals are GameError values carrying a translatable Message; the
stored game is untouched by them. Nothing in bot/services/ imports discord.
"""
from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bot.games import get_ruleset
from bot.games.base import GameError, Message, Result, Ruleset, msg
from bot.shards import Shards
from bot.game_records import GameRecord
from bot.store import StaleVersion, Store


@dataclass(frozen=True)
class TakebackAsked:
    """A take-back that needs the consent of the player to move."""

    seat: int           # the seat asking
    consent_seat: int   # the player to move, who accepts or refuses


@dataclass(frozen=True)
class Vote:
    """The vote on a seat whose turns keep expiring: opened by an expiry, counted at each vote."""

    seat: int                                              # the seat voted on
    voters: int = 0                                        # the seated people who may vote
    tally: dict[str, int] = field(default_factory=dict)    # votes per choice (timers.VOTE_CHOICES)
    decided: str | None = None                             # the choice a majority made, or None


@dataclass(frozen=True)
class Outcome:
    """What a session call changed, for the front end to show."""

    record: GameRecord
    events: tuple[Message, ...] = ()
    # The seat that was to move before the call (None in the lobby), so the
    # front end knows whether to edit the board or post a new one with a ping.
    moved_before: int | None = None
    # The game's version before the call: what happened earlier is in the log.
    version_before: int | None = None
    # The database went out of reach while computer players were playing on: what they played is stored
    # and shown; the front end resumes them later (as after a restart).
    unfinished: bool = False
    # A vote opened or counted (Deadlines.expire, Deadlines.vote), a take-back asked or answered (Takebacks).
    vote: Vote | None = None
    takeback_asked: TakebackAsked | None = None


def ruleset_of(record: GameRecord) -> Ruleset[Any]:
    return get_ruleset(record.game)


def snapshot(record: GameRecord) -> dict[str, Any]:
    """The stored state of a game past its lobby (a lobby has none)."""
    assert record.state is not None, record.id
    return record.state


def position(record: GameRecord) -> tuple[Ruleset[Any], Any]:
    """The ruleset and the position of a game past its lobby."""
    ruleset = ruleset_of(record)
    return ruleset, ruleset.from_json(snapshot(record))


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


class Service:
    """The store, one lock per channel, and the reads every part makes.

    `shards`: the gateway shards of this process (None: all). The games of the other shards' guilds are
    other processes' to resume and time (bot/shards.py); any process may still read or change any game."""

    def __init__(self, store: Store, think_budget_s: float = 1.0, shards: Shards | None = None):
        self.store = store
        self.shards = shards
        self._think_budget_s = think_budget_s  # hard computer players' time per move
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def open_game(self, channel_id: int) -> GameRecord | None:
        """The channel's open game (lobby or in play), if any: for lookups that refuse nothing."""
        return await self.store.open_game(channel_id)

    async def current(self, channel_id: int) -> GameRecord:
        record = await self.store.open_game(channel_id)
        if record is None:
            raise GameError(msg("error.no_game"))
        return record

    async def game(self, channel_id: int, game_id: int) -> GameRecord:
        """The open game `game_id` of this channel; a click on a finished game's board is refused."""
        record = await self.store.open_game(channel_id)
        if record is None or record.id != game_id:
            raise GameError(msg("error.game_over_or_gone"))
        return record

    async def _active(self, channel_id: int, game_id: int | None, version: int | None) -> GameRecord:
        record = await self.store.open_game(channel_id)
        if record is None:
            raise GameError(msg("error.no_game"))
        if game_id is not None and record.id != game_id:
            raise GameError(msg("error.game_over_or_gone"))
        if record.status != "active":
            raise GameError(msg("error.not_started"))
        if version is not None and version != record.version:
            raise GameError(msg("error.stale"))
        return record

    async def _save(self, record: GameRecord, **changes: Any) -> GameRecord:
        """Write changes outside the action log (seats, options, status); a concurrent write is refused."""
        try:
            return await self.store.update_game(record, **changes)
        except StaleVersion:
            raise GameError(msg("error.stale")) from None
