"""What a restart, Discord or the database kept from being shown, shown when they allow.

At start-up (`resume_games`), computer players whose turn it is play and the boards that lag behind their
games are posted (BoardPublisher.catch_up). A board whose post or edit failed after its move was stored
(Discord's 5xx beyond discord.py's own retries, the connection lost, the database out of reach for the reads
after the write), and computer players the database stopped mid-way, are caught up for that game the same
way, tried again with backoff for RETRY_FOR_S; given up at once on Discord's 403 or 404 (the permission or the
channel gone), with one log line. A turn reminder Discord would not post is tried again the same way
(retry_later, bot/cogs/messages/deadline_alerts.py). The store already holds what is pending (the version each board
shows, BoardRows.to_resume): a restart meanwhile shows it too.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from bot.cogs.events.departures import Departures
from bot.cogs.messages.faults import FAULTS, channel_gone, said
from bot.cogs.messages.publisher import BoardPublisher
from bot.domain.session_results import Outcome
from bot.games.base import GameError
from bot.services import Sessions, StoreUnavailable

log = logging.getLogger(__name__)

# The log line that ends the start-up's catch-up (the tests wait for it, not for a while).
RESUMED = "start-up catch-up done"
FIRST_RETRY_S = 1.0
MAX_RETRY_S = 60.0
RETRY_FOR_S = 15 * 60.0


class Recovery:
    def __init__(self, sessions: Sessions, publisher: BoardPublisher, departures: Departures) -> None:
        self.sessions = sessions
        self.publisher = publisher
        self.departures = departures
        self._recovering: dict[int, asyncio.Task[None]] = {}   # game id -> the task catching its board up
        self._recover_again: set[int] = set()            # games that failed again while their task ran
        self._retrying: set[asyncio.Task[None]] = set()   # retry_later's tasks

    async def resume_games(self) -> None:
        """What a restart interrupted: computer players whose turn it is play, and a board that lags
        behind its game (the bot stopped between storing a move and posting it) is posted again,
        telling the player to move what happened since his last turn; a game whose first board never
        went out (the lobby is what shows) gets it, with who sits where; and a game a move finished, its
        final board (BoardRows.to_resume)."""
        resumed = await self.sessions.boards.to_resume()
        for record, shown, shown_status in resumed:
            try:
                await self.publisher.catch_up(record, shown, shown_status)
            except GameError:   # the version check: another process (that had these shards before) moved it first
                log.info("game %s was resumed elsewhere first", record.id)
            except FAULTS as error:
                if channel_gone(error):   # deleted while the bot was down: no event said so
                    await self.departures.channel_gone(record.channel_id)
                else:
                    self.recover_later(record.id, error)
            except Exception:
                log.exception("could not resume game %s in channel %s", record.id, record.channel_id)
        log.info("%s: %d games looked at", RESUMED, len(resumed))

    @property
    def boards_waiting(self) -> int:
        """How many games' boards are being tried again (metrics.BOARDS_WAITING)."""
        return len(self._recovering)

    async def publish_or_recover(self, outcome: Outcome, interaction: discord.Interaction | None = None) -> None:
        """Publish (through `interaction`, else the channel's endpoints); what Discord or the database keeps from
        being shown is shown later (recover_later)."""
        try:
            await self.publisher.publish(outcome, interaction)
        except FAULTS as error:
            self.recover_later(outcome.record.id, error)
            return
        if outcome.unfinished:
            self.recover_later(outcome.record.id, StoreUnavailable("computer players wait for the database"))

    def recover_later(self, game_id: int, error: BaseException) -> None:
        """Show the game's stored position once Discord and the database allow (one task per game)."""
        if game_id in self._recovering:
            self._recover_again.add(game_id)
            return
        if not _given_up(what := f"game {game_id}: its board", error):
            self._recovering[game_id] = asyncio.create_task(self._recover(game_id, what), name=what)

    def retry_later(self, what: str, attempt: Callable[[], Awaitable[None]], error: BaseException) -> None:
        """await attempt() once Discord and the database allow (keep_trying), after it failed with `error`."""
        if not _given_up(what, error):
            task = asyncio.create_task(self.keep_trying(what, attempt), name=what)
            self._retrying.add(task)   # a task nobody holds may be collected before it ends
            task.add_done_callback(self._retrying.discard)

    async def _recover(self, game_id: int, what: str) -> None:
        async def catch_up() -> None:
            while await self._catch_up_game(game_id) or game_id in self._recover_again:
                pass   # until nothing is left to show (a later move may have failed meanwhile too)
        try:
            await self.keep_trying(what, catch_up)
        finally:
            del self._recovering[game_id]

    async def keep_trying(self, what: str, attempt: Callable[[], Awaitable[None]]) -> None:
        """await attempt() after 1, 2, 4 ... s (at most MAX_RETRY_S apart) until it passes; given up after
        RETRY_FOR_S, or at once on Discord's 403 or 404. One log line when it passes or is given up."""
        loop = asyncio.get_running_loop()
        started, delay = loop.time(), FIRST_RETRY_S
        while True:
            await asyncio.sleep(delay)
            try:
                await attempt()
            except (discord.Forbidden, discord.NotFound) as error:
                _given_up(what, error)
                return
            except FAULTS as error:
                if loop.time() - started > RETRY_FOR_S:
                    log.warning("%s not shown for %.0f min (%s): given up until the next start", what,
                                RETRY_FOR_S / 60, said(error))
                    return
                delay = min(2 * delay, MAX_RETRY_S)
                continue
            except Exception:   # a bug, not a fault: said once, with its traceback
                log.exception("%s: catching up failed", what)
                return
            log.info("%s: caught up after %.0f s", what, loop.time() - started)
            return

    async def _catch_up_game(self, game_id: int) -> bool:
        """Catch the game up once; whether anything had to be shown or played."""
        self._recover_again.discard(game_id)
        found = await self.sessions.boards.to_resume(game_id)
        return bool(found) and await self.publisher.catch_up(*found[0])


def _given_up(what: str, error: BaseException) -> bool:
    """Whether a failed post or edit is not worth trying again (Discord's 403 or 404: the permission or the
    channel gone); one log line either way."""
    if isinstance(error, (discord.Forbidden, discord.NotFound)):
        log.warning("%s cannot be shown (Discord answered %s): given up", what, error.status)
        return True
    log.warning("%s not shown yet (%s): trying again", what, said(error))
    return False
