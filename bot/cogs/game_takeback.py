"""Take-backs on Discord (a mixin of GameCog).

`/game undo` and the board's Undo button take back the player's last move (bot/services/takeback.py);
once the turn has passed, a message asks the player to move, with Accept / Refuse (the controls.TAKEBACK_ANSWER
kind, answered through GameCog.on_interaction like every control), and becomes their answer.
"""
from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs.components import pinging
from bot.cogs.controls import view_of
from bot.cogs.game_base import GameCogBase, Request, channel_of
from bot.cogs.translator import command_text as _
from bot.games.base import GameError
from bot.present.takeback import answered_text, request_post
from bot.session_results import Outcome


class TakebackCommands(GameCogBase):
    """GameCog's take-back command and controls (discord.py collects app commands from every class of
    the cog)."""

    @app_commands.command(name="undo", description=_("cmd.undo.description"))
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.on_undo_button(interaction, None, None)

    async def on_undo_request(self, interaction: discord.Interaction, request: Request) -> None:
        await self.on_undo_button(interaction, request.game, request.version)

    async def on_undo_button(self, interaction: discord.Interaction, game: int | None, version: int | None) -> None:
        await self._run(interaction, lambda: self.sessions.takebacks.undo(
            channel_of(interaction), interaction.user.id, game_id=game, version=version), show=self._show_undo)

    async def _show_undo(self, outcome: Outcome, interaction: discord.Interaction) -> None:
        """The board taken back, or the question put to the player to move (the command's answer, or a
        follow-up of the click)."""
        if outcome.takeback_asked is None:
            await self.publish(outcome, interaction)
            return
        post = request_post(outcome)
        record = outcome.record
        await self.via(record, interaction).send(post.content, files=[],
                                                 view=view_of(record.id, record.version, post.controls),
                                                 mentions=pinging(post.mention))

    async def on_takeback_answer(self, interaction: discord.Interaction, request: Request) -> None:
        """The request message becomes the answer; an accepted take-back shows its board."""
        game, version, accept = request.game, request.version, request.value == "yes"
        await interaction.response.defer()
        try:
            outcome = await self.overdue_first(interaction, lambda: self.sessions.takebacks.answer(
                channel_of(interaction), interaction.user.id, game, version, accept))()
        except GameError as refusal:
            await self._tell(interaction, refusal.message)
            return
        await interaction.edit_original_response(content=answered_text(outcome), view=None,
                                                 allowed_mentions=discord.AllowedMentions.none())
        if accept:
            await self.publish_or_recover(outcome, interaction)
