"""How a command or a control that calls the services is answered: acknowledged first (Discord allows 3 s),
the services called, the outcome shown (by default the board, BoardPublisher.publish), then the reply.
Refusals come back as GameError and are shown only to the user who asked (ephemeral); a database out of reach
is said so, to that user alone.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.cogs.handlers import Show, channel_of, user_locale
from bot.cogs.messages.deadline_alerts import DeadlineAlerts
from bot.cogs.messages.delivery import (
    CLICKED,
    ORIGINAL,
    UNUSED,
    acknowledged,
    clicked,
    mark_used,
    reached_only_by_interactions,
    response_unused,
)
from bot.cogs.messages.faults import FAULTS
from bot.cogs.messages.links import board_link
from bot.cogs.messages.publisher import BoardPublisher
from bot.cogs.messages.recovery import Recovery
from bot.domain import i18n
from bot.domain.session_results import Outcome
from bot.games.base import GameError, Message, msg
from bot.services import Sessions, StoreUnavailable

log = logging.getLogger(__name__)

# Acknowledged clicks worked on at once; the others wait their turn in arrival order. Enough to keep the
# database, the drawing thread and the network busy; more would not go faster (the work is CPU-bound)
# but would queue their steps in the event loop, where every pass runs all that is ready: the next
# interactions would wait behind them for their acknowledgement.
CLICKS_AT_ONCE = 16
# How long a command's answer is awaited before it is acknowledged (Discord allows 3 s): a refusal ready by
# then is the command's only answer, to the user alone, never a public "thinking…" deleted at once.
QUICK_ANSWER_S = 1.0


def can_post(interaction: discord.Interaction) -> bool:
    """Can the bot post boards (a message with a picture) where this interaction happened? Where only
    interactions reach the channel, its answers carry them (the bot's own permissions do not apply)."""
    if reached_only_by_interactions(interaction):
        return True
    perms = interaction.app_permissions
    send = perms.send_messages_in_threads if isinstance(interaction.channel, discord.Thread) else perms.send_messages
    return perms.view_channel and send and perms.attach_files


def answers_hidden(interaction: discord.Interaction) -> bool:
    """Does Discord make every answer here ephemeral? In a server that did not add the app, for a member
    without Use External Apps (its permissions in the interaction): the others would see nothing of a game."""
    return interaction.guild_id is not None and reached_only_by_interactions(interaction) \
        and not interaction.permissions.use_external_apps


class Responder:
    def __init__(self, sessions: Sessions, publisher: BoardPublisher, recovery: Recovery,
                 deadline_alerts: DeadlineAlerts, work_slots: asyncio.Semaphore) -> None:
        self.sessions = sessions
        self.publisher = publisher
        self.recovery = recovery
        self.deadline_alerts = deadline_alerts
        self.work_slots = work_slots   # the interactions worked on at once (CLICKS_AT_ONCE)

    async def run(self, interaction: discord.Interaction, call: Callable[[], Awaitable[Outcome]],
                  done: Message | Callable[[Outcome], Message] | None = None, needs_board: bool = True,
                  show: Show | None = None, shows_here: bool = True) -> None:
        """Answer a command or a click that calls the services: acknowledge, call, show, reply.

        `show` shows the outcome (default: publish) through the interaction (bot/cogs/messages/delivery.py): a
        command whose result shows in its channel (`shows_here`) is answered by that message. A command's
        reply is `done` (or what it makes of the outcome), shown to the user alone; with nothing to say
        and nothing shown by the response, the response is deleted. Where the bot cannot post a board
        nothing is changed (a move nobody could see would stall the game), unless `needs_board` is False
        (ending a game): done, unposted, said so. Nor where Discord would show the answers to the user alone
        (`answers_hidden`): a lobby, a board nobody else sees."""
        if answers_hidden(interaction):
            await self.tell(interaction, msg("interactions.error.ephemeral_only"))
            return
        postable = can_post(interaction)
        if needs_board and not postable:
            await self.tell(interaction, msg("error.missing_permissions"))
            return
        command = interaction.type == discord.InteractionType.application_command
        public = shows_here and postable
        once = asyncio.Lock()

        async def acknowledge() -> None:   # by whichever comes first: the call showing an expiry, or the wait
            async with once:
                if not interaction.response.is_done():
                    await self._acknowledge(interaction, public=public)
        async with self.work_slots:
            calling = asyncio.ensure_future(self.deadline_alerts.overdue_first(interaction, call, acknowledge)())
            if command:   # a refusal ready at once is said to the user alone, without a public "thinking…"
                await asyncio.wait((calling,), timeout=QUICK_ANSWER_S)
                if calling.done() and isinstance(calling.exception(), GameError):
                    await self._call(interaction, lambda: calling)
                    return
            await acknowledge()
            outcome = await self._call(interaction, lambda: calling)
            if outcome is None or (postable and not await self._show_outcome(interaction, outcome, show)):
                return
        if command:
            await self._reply(interaction, done(outcome) if callable(done) else done)
        elif interaction.message is not None and interaction.message.flags.ephemeral:
            await self._close_panel(interaction)

    async def _close_panel(self, interaction: discord.Interaction) -> None:
        """A move played from a player's private panel of choices (a piece's moves, call-outs): the panel
        shrinks to one line, its choices and picture spent (the board shows the move). Edited, not deleted:
        an edit of it Discord lost may still be tried again."""
        text = i18n.text("select.played", user_locale(interaction))
        try:
            await interaction.edit_original_response(content=text, view=None, attachments=[])
        except FAULTS as error:   # Discord failing: it only lingers
            log.info("the panel of interaction %s stays: %s", interaction.id, error)

    async def _acknowledge(self, interaction: discord.Interaction, public: bool = True) -> None:
        """Within Discord's 3 s: a click (or the modal it opened) as an update of its message, which the
        outcome edits or retires; a command "thinking…", in public when its response is to become the
        message that shows the outcome, else to the user alone."""
        if interaction.type != discord.InteractionType.application_command:
            await interaction.response.defer()
            acknowledged(interaction, CLICKED)
        elif public:
            await interaction.response.defer(thinking=True)
            acknowledged(interaction, UNUSED)
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def _call(self, interaction: discord.Interaction, call: Callable[[], Awaitable[Outcome]]) -> Outcome | None:
        """The service's outcome; None when it refused or failed, and the user was told why."""
        try:
            outcome = await call()
        except GameError as refusal:
            await self.refuse(interaction, refusal.message)
            return None
        except StoreUnavailable as error:   # nothing was written
            await self.storage_unreachable(interaction, error)
            return None
        except Exception:
            log.exception("session call failed in channel %s", interaction.channel_id)
            await self.tell(interaction, msg("error.internal"))
            return None
        if outcome.unfinished:   # computer players stopped by the database: resumed once it is back
            self.recovery.recover_later(outcome.record.id, StoreUnavailable("computer players wait for the database"))
        return outcome

    async def _show_outcome(self, interaction: discord.Interaction, outcome: Outcome, show: Show | None) -> bool:
        """Show a stored outcome; whether it was shown (if not, the user was told why)."""
        try:
            await (show or self.publisher.publish)(outcome, interaction)
        except discord.Forbidden:   # only Discord's 403 says a permission is missing
            log.warning("no permission to post the board in channel %s", interaction.channel_id)
            await self.tell(interaction, msg("error.cannot_post"))
            return False
        except FAULTS as error:   # stored, not shown: shown when Discord (or the database) is back (Recovery)
            self.recovery.recover_later(outcome.record.id, error)
            await self.tell(interaction, msg("boards.error.not_shown"))
            return False
        return True

    async def _reply(self, interaction: discord.Interaction, said: Message | None) -> None:
        """A command's reply once done: `said`, to the user alone; or nothing left behind where its own
        response (or the channel) shows the result."""
        if said is None and response_unused(interaction):
            mark_used(interaction)
            await interaction.delete_original_response()
        elif said is not None or interaction.extras.get(ORIGINAL) is None:   # acknowledged to the user alone
            await self.tell(interaction, said or msg("ack.done"))

    async def tell(self, interaction: discord.Interaction, message: Message) -> None:
        """`message` to the user alone, whatever the interaction's acknowledgement."""
        text = i18n.render(message, user_locale(interaction))
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
        elif response_unused(interaction):   # "thinking…" in public: it goes, the answer is the user's alone
            mark_used(interaction)
            await interaction.delete_original_response()
            await interaction.followup.send(text, ephemeral=True)
        elif interaction.response.type == discord.InteractionResponseType.deferred_message_update:
            await interaction.followup.send(text, ephemeral=True)   # a click acknowledged silently
        else:   # a command, or a click answered "thinking…" (a piece's moves, call-outs): replace that
            await self.answer(interaction, lambda: interaction.edit_original_response(content=text))

    async def answer(self, interaction: discord.Interaction, edit: Callable[[], Awaitable[Any]]) -> None:
        """await edit(), an edit of the interaction's own answer (a piece's moves, a vote's tally...): what
        Discord keeps from being shown is edited again once it answers (Recovery.retry_later), the same edit,
        its files made afresh by `edit`."""
        async def attempt() -> None:
            await edit()
        try:
            await attempt()
        except FAULTS as error:
            self.recovery.retry_later(f"the answer to interaction {interaction.id} in channel "
                                      f"{interaction.channel_id}", attempt, error)

    async def refuse(self, interaction: discord.Interaction, message: Message) -> None:
        """A refusal; a click on an older board is told where the current one is (and that board's
        controls go, through the click's own answer, when it is not the game's board any more)."""
        if message.key == "error.stale":
            older = clicked(interaction)   # None: a command, or the click answered otherwise
            record = await self.sessions.channels.open_game(channel_of(interaction))
            if older is not None and record is not None and await self.publisher.catch_up_here(interaction, record):
                return   # the stored position, which nobody had seen, is the answer
            board = await self.sessions.boards.message(record.id) if record is not None else None
            if board is not None and board != older:   # every "use the latest board" links to it
                message = msg("boards.error.stale_here", link=board_link(interaction.guild_id,
                                                                         channel_of(interaction), board))
                if older is not None:
                    await self.answer(interaction, lambda: interaction.edit_original_response(view=None))
        await self.tell(interaction, message)

    async def storage_unreachable(self, interaction: discord.Interaction, error: StoreUnavailable) -> None:
        """A command or a control that met the database out of reach: said so, to the user alone."""
        log.warning("interaction in channel %s answered: the database is out of reach (%s)", interaction.channel_id,
                    error)
        await self.tell(interaction, msg("storage.error.unreachable"))
