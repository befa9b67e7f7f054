"""Take-backs on Discord (a mixin of GameCog).

`/game undo` and the board's Undo button take back the player's last move (bot/services/takeback.py);
once the turn has passed, a message asks the player to move, with Accept / Refuse (custom_ids kind t,
answered through GameCog.on_interaction like every control), and becomes their answer.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.cogs.components import button, stopped
from bot.cogs.custom_ids import Request, encode
from bot.cogs.translator import command_text as _
from bot.games.base import GameError, Message
from bot.present.takeback import answered_text, request_post
from bot.services import Outcome, Sessions


class TakebackCommands:
    """GameCog's take-back command and controls (discord.py collects app commands from every class of
    the cog)."""

    bot: Any
    sessions: Sessions
    publish: Callable[[Outcome], Awaitable[None]]                       # GameCog's
    publish_or_recover: Callable[[Outcome], Awaitable[None]]            # GameCog's (Recovery)
    _run: Callable[..., Awaitable[None]]                                # GameCog's
    _tell: Callable[[discord.Interaction, Message], Awaitable[None]]    # GameCog's

    @app_commands.command(name="undo", description=_("cmd.undo.description"))
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.on_undo_button(interaction, None, None)

    async def on_undo_request(self, interaction: discord.Interaction, request: Request) -> None:
        await self.on_undo_button(interaction, request.game, request.number)

    async def on_undo_button(self, interaction: discord.Interaction, game: int | None, version: int | None) -> None:
        await self._run(interaction, lambda: self.sessions.undo(
            interaction.channel_id, interaction.user.id, game_id=game, version=version), show=self._show_undo)

    async def _show_undo(self, outcome: Outcome) -> None:
        """The board taken back, or the question put to the player to move."""
        if outcome.takeback_asked is None:
            await self.publish(outcome)
            return
        post = request_post(outcome)
        record = outcome.record
        await self.bot.get_partial_messageable(record.channel_id).send(
            post.content, view=_answers(record.id, record.version, post),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(post.mention)], everyone=False, roles=False))

    async def on_takeback_answer(self, interaction: discord.Interaction, request: Request) -> None:
        """The request message becomes the answer; an accepted take-back shows its board."""
        game, version, accept = request.game, request.number, request.value == "yes"
        await interaction.response.defer()
        try:
            outcome = await self.sessions.answer_takeback(interaction.channel_id, interaction.user.id, game,
                                                          version, accept)
        except GameError as refusal:
            await self._tell(interaction, refusal.message)
            return
        await interaction.edit_original_response(content=answered_text(outcome), view=None,
                                                 allowed_mentions=discord.AllowedMentions.none())
        if accept:
            await self.publish_or_recover(outcome)


def _answers(game: int, version: int, post: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for control in post.controls:
        style = discord.ButtonStyle.success if control.value == "yes" else discord.ButtonStyle.danger
        view.add_item(button(encode("t", game, version, control.value), control.label, style))
    return stopped(view)
