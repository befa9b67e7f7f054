"""The timeline of each game in play (bot/domain/timeline.py), kept between clicks as far as last seen.

The board after an action applies only the actions since, read alone from the store. It traces the
moves since its player's last turn from the positions the timeline keeps. Going through a long game's
log from its set-up takes tens of milliseconds (Barricade's run to thousands of actions)."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from bot.core.game_records import GameRecord, LoggedAction
from bot.domain.positions import ruleset_of
from bot.domain.timeline import Timeline, at_setup
from bot.games.base import Message
from bot.services.base import remember
from bot.store import Store

CACHED_GAMES = 2000   # timelines kept, the least recently used dropped first (one is about a round of positions)
INLINE_STEPS = 16     # more steps (after a restart) run in a thread, so that the event loop keeps answering


@dataclass(frozen=True)
class SinceTurn:
    positions: list[Any]            # traced on the board, oldest first
    earlier: tuple[Message, ...]    # in words: what the actions logged before `before` did (the caller tells
    #                                 what the actions from `before` on did)


class Timelines:
    def __init__(self, store: Store):
        self.store = store
        self._timelines: dict[int, Timeline] = {}   # bot.services.base.remember's order

    async def timeline(self, record: GameRecord) -> Timeline:
        """The game's timeline at `record`'s version: a copy of its own to go on with."""
        seen = self._timelines.get(record.id)
        if seen is None or seen.length > record.version:
            seen = at_setup(ruleset_of(record), record)
        missing = record.version - seen.length
        tail = (await self.store.games.actions(record.id, since=seen.length))[:missing] if missing else []
        line = _gone_on(seen, tail) if len(tail) <= INLINE_STEPS else await asyncio.to_thread(_gone_on, seen, tail)
        newest = self._timelines.pop(record.id, None)   # another call may have gone further meanwhile
        if record.status == "active":
            kept = newest if newest and newest.length > line.length else line.copy()
            remember(self._timelines, record.id, kept, CACHED_GAMES)
        return line

    def written(self, game_id: int, logged: LoggedAction) -> None:
        """An action this process just logged: the game's timeline goes on with it, no read needed."""
        line = self._timelines.get(game_id)
        if line is not None and line.length == logged.seq:
            line = line.copy()   # the kept one may be going on in a thread
            line.step(logged)
            self._timelines[game_id] = line

    async def since_turn(self, record: GameRecord, before: int | None = None) -> SinceTurn:
        """What a board tells the player to move about what happened since they last played (a finished
        game: the last player's last turn; Timeline.since_turn)."""
        return since_turn(await self.timeline(record), record, before)


def since_turn(line: Timeline, record: GameRecord, before: int | None) -> SinceTurn:
    """Timelines.since_turn, on the game's timeline `line` (gone on to `record`'s version)."""
    seat = line.ruleset.to_move(line.state) if record.status == "active" else None
    earlier = line.events_since_turn(seat, before) if before is not None and seat is not None else ()
    return SinceTurn(line.since_turn(seat), earlier)


def _gone_on(line: Timeline, actions: list[LoggedAction]) -> Timeline:
    """`line` gone on through `actions` (a copy; `line` is unchanged)."""
    line = line.copy()
    for logged in actions:
        line.step(logged)
    return line
