"""Take-backs on Discord.

`/game undo` and the board's Undo button take back the player's last move (bot/services/takeback.py);
once the turn has passed, a message asks the player to move, with Accept / Refuse (the controls.TAKEBACK_ANSWER
kind, answered through GameEvents.on_interaction like every control), and becomes their answer.
"""
from __future__ import annotations

import discord

from bot.cogs.events.controls import view_of
from bot.cogs.handlers import Request, channel_of
from bot.cogs.messages.components import pinging
from bot.cogs.messages.deadline_alerts import DeadlineAlerts
from bot.cogs.messages.publisher import BoardPublisher
from bot.cogs.messages.recovery import Recovery
from bot.cogs.messages.responder import Responder
from bot.domain.session_results import Outcome
from bot.games.base import GameError
from bot.present.takeback import answered_text, request_post
from bot.services import Sessions


class TakebackCommands:
    def __init__(self, sessions: Sessions, responder: Responder, publisher: BoardPublisher, recovery: Recovery,
                 deadline_alerts: DeadlineAlerts) -> None:
        self.sessions = sessions
        self.responder = responder
        self.publisher = publisher
        self.recovery = recovery
        self.deadline_alerts = deadline_alerts

    async def undo(self, interaction: discord.Interaction, game: int | None = None, version: int | None = None) -> None:
        """`/game undo`, or the Undo button of game `game`'s board showing `version`."""
        await self.responder.run(interaction, lambda: self.sessions.takebacks.undo(
            channel_of(interaction), interaction.user.id, game_id=game, version=version), show=self._show_undo)

    async def on_undo_request(self, interaction: discord.Interaction, request: Request) -> None:
        await self.undo(interaction, request.game, request.version)

    async def _show_undo(self, outcome: Outcome, interaction: discord.Interaction) -> None:
        """The board taken back, or the question put to the player to move (the command's answer, or a
        follow-up of the click)."""
        if outcome.takeback_asked is None:
            await self.publisher.publish(outcome, interaction)
            return
        post = request_post(outcome)
        record = outcome.record
        await self.publisher.via(record, interaction).send(post.content, files=[],
                                                           view=view_of(record.id, record.version, post.controls),
                                                           mentions=pinging(post.mention))

    async def on_takeback_answer(self, interaction: discord.Interaction, request: Request) -> None:
        """The request message becomes the answer; an accepted take-back shows its board."""
        game, version, accept = request.game, request.version, request.value == "yes"
        await interaction.response.defer()
        try:
            outcome = await self.deadline_alerts.overdue_first(interaction, lambda: self.sessions.takebacks.answer(
                channel_of(interaction), interaction.user.id, game, version, accept))()
        except GameError as refusal:
            await self.responder.tell(interaction, refusal.message)
            return
        await self.responder.answer(interaction, lambda: interaction.edit_original_response(
            content=answered_text(outcome), view=None, allowed_mentions=discord.AllowedMentions.none()))
        if accept:
            await self.recovery.publish_or_recover(outcome, interaction)
