"""What Discord or the database kept from being shown, shown when they are back (a mixin of GameCog).

A board whose post or edit failed after its move was stored (Discord's 5xx beyond discord.py's own retries,
the connection lost, the database out of reach for the reads after the write), and computer players the
database stopped mid-way, are caught up for that game as at start-up (GameCog.catch_up: the stored position,
posted once), tried again with backoff for RETRY_FOR_S; given up at once on Discord's 403 or 404 (the
permission or the channel gone), with one log line. A turn reminder Discord would not post is tried again
the same way (retry_later, game_timers.py). The store already holds what is pending (the version each
board shows, BoardRows.to_resume): a restart meanwhile shows it too. The slash commands and controls that
meet a database out of reach are answered, to the user alone, that the storage is not reachable.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import aiohttp
import discord
from discord import app_commands

from bot.cogs.delivery import Unprompted
from bot.cogs.game_base import GameCogBase
from bot.games.base import msg
from bot.services import StoreUnavailable
from bot.session_results import Outcome

log = logging.getLogger(__name__)

# Discord out of reach or failing: worth trying again later (a 403 or 404 is not: see _recover).
DISCORD_FAULTS = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)
FAULTS = DISCORD_FAULTS + (StoreUnavailable,)
UNKNOWN_CHANNEL = 10003   # Discord's error code: the channel was deleted
FIRST_RETRY_S = 1.0
MAX_RETRY_S = 60.0
RETRY_FOR_S = 15 * 60.0


class Recovery(GameCogBase):
    def __init__(self) -> None:
        self._recovering: dict[int, asyncio.Task[None]] = {}   # game id -> the task catching its board up
        self._recover_again: set[int] = set()            # games that failed again while their task ran
        self._retrying: set[asyncio.Task[None]] = set()   # retry_later's tasks
        super().__init__()

    @property
    def boards_waiting(self) -> int:
        """How many games' boards are being tried again (metrics.BOARDS_WAITING)."""
        return len(self._recovering)

    async def publish_or_recover(self, outcome: Outcome, interaction: discord.Interaction | None = None,
                                 why: Unprompted = Unprompted.RECOVERED) -> None:
        """Publish (through `interaction`, else for `why`); what Discord or the database keeps from being shown
        is shown later (recover_later)."""
        try:
            await self.publish(outcome, interaction, why)
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
        return bool(found) and await self.catch_up(*found[0], why=Unprompted.RECOVERED)

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """The command tree's error handler: a database out of reach is answered; the rest logged as before."""
        if isinstance(cause := getattr(error, "original", error), StoreUnavailable):
            await self.storage_unreachable(interaction, cause)
            return
        await app_commands.CommandTree.on_error(self.bot.tree, interaction, error)

    async def storage_unreachable(self, interaction: discord.Interaction, error: StoreUnavailable) -> None:
        log.warning("interaction in channel %s answered: the database is out of reach (%s)", interaction.channel_id,
                    error)
        await self._tell(interaction, msg("storage.error.unreachable"))


def _given_up(what: str, error: BaseException) -> bool:
    """Whether a failed post or edit is not worth trying again (Discord's 403 or 404: the permission or the
    channel gone); one log line either way."""
    if isinstance(error, (discord.Forbidden, discord.NotFound)):
        log.warning("%s cannot be shown (Discord answered %s): given up", what, error.status)
        return True
    log.warning("%s not shown yet (%s): trying again", what, said(error))
    return False


def channel_gone(error: BaseException) -> bool:
    """Whether Discord answered that the channel no longer exists."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL


def said(error: BaseException) -> str:
    """An error in one short line (no traceback: an expected fault)."""
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}"[:200]
