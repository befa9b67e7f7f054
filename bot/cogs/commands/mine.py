"""/game mine: the games on this server waiting for the member, then those they sit in, each linked to its
board; told to the member alone, in their language, and only about channels they can view (asked in a DM or
group DM: their games in DMs and group DMs). (The turn's direct message, which ends with the same short list:
bot/cogs/messages/turn_notices.py.)"""
from __future__ import annotations

from typing import Any

import discord

from bot.cogs.messages.links import can_view, waiting_link
from bot.domain import i18n
from bot.domain.session_results import WaitingGame
from bot.present.mine import my_games_text
from bot.services import Sessions
from bot.services.scheduler import DeadlineScheduler


class MineCommand:
    """/game mine."""

    def __init__(self, sessions: Sessions, timers: DeadlineScheduler) -> None:
        self.sessions = sessions
        self.timers = timers

    async def mine(self, interaction: discord.Interaction) -> None:
        """On a server, its games; in a DM or group DM, the member's games in every DM and group DM (they sit in
        them), told to them alone."""
        private = interaction.guild_id is None
        if private:
            waiting, others = await self.sessions.mine.games(None, interaction.user.id, self.timers.clock.now())
        else:
            waiting, others = await self._visible_games(interaction.guild, interaction.user)
        await interaction.response.send_message(
            my_games_text(waiting, others, i18n.locale_of(interaction.locale), waiting_link, private), ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none())

    async def _visible_games(self, guild: discord.Guild | None, member: Any) -> tuple[list[WaitingGame],
                                                                                     list[WaitingGame]]:
        if guild is None:
            return [], []
        waiting, others = await self.sessions.mine.games(guild.id, member.id, self.timers.clock.now())
        return ([g for g in waiting if can_view(guild, member, g.record.channel_id)],
                [g for g in others if can_view(guild, member, g.record.channel_id)])
