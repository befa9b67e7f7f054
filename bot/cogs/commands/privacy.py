"""/game privacy and /game forget (players' data on request, bot/services/privacy.py), and the retention of a
server's games after it removed the bot: they are deleted TABLERO_RETAIN_DAYS later (bot/cogs/events/departures.py
starts the count), looked at start-up and daily."""
from __future__ import annotations

import asyncio
import logging
import time

import discord

from bot.cogs.events.controls import FORGET
from bot.cogs.handlers import Request
from bot.cogs.messages.components import button, stopped
from bot.cogs.messages.recovery import Recovery
from bot.cogs.messages.responder import Responder
from bot.domain import i18n
from bot.games.base import msg
from bot.present.privacy import forget_question, forgotten_text, kept_text
from bot.services import Sessions, StoreUnavailable

log = logging.getLogger(__name__)

PURGE_EVERY_S = 86400.0


class PrivacyCommands:
    """The privacy commands, the forget button's handler and the daily deletion of servers' games."""

    def __init__(self, sessions: Sessions, responder: Responder, recovery: Recovery, retain_days: int) -> None:
        self.sessions = sessions
        self.responder = responder
        self.recovery = recovery
        self.retain_days = retain_days

    async def privacy(self, interaction: discord.Interaction) -> None:
        kept = await self.sessions.privacy.kept_about(interaction.user.id)
        await interaction.response.send_message(
            kept_text(kept, self.retain_days, i18n.locale_of(interaction.locale)), ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none())

    async def forget(self, interaction: discord.Interaction) -> None:
        locale = i18n.locale_of(interaction.locale)
        kept = await self.sessions.privacy.kept_about(interaction.user.id)
        confirmation = discord.ui.View(timeout=None)
        confirmation.add_item(button(FORGET.encode(interaction.user.id), i18n.text("privacy.forget_button", locale),
                                     discord.ButtonStyle.danger))
        await interaction.response.send_message(forget_question(kept, locale), view=stopped(confirmation),
                                                ephemeral=True)

    async def on_forget(self, interaction: discord.Interaction, request: Request) -> None:
        """The confirmation's button. Shown to its person alone, and a control is read only on its own message
        (controls.read): checked all the same, as nothing is more final."""
        if request.game != interaction.user.id:
            await self.responder.tell(interaction, msg("controls.error.unknown"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        forgotten = await self.sessions.privacy.forget(interaction.user.id)
        log.info("forgot a user on request: %d games rewritten, %d resigned", forgotten.games,
                 len(forgotten.resigned))
        for outcome in forgotten.resigned:   # the games they sat in show the resignation, as /game resign does
            await self.recovery.publish_or_recover(outcome)
        await interaction.followup.send(forgotten_text(forgotten, i18n.locale_of(interaction.locale)), ephemeral=True)

    async def retention(self) -> None:
        """At start-up, then daily: delete what is kept past its time."""
        while True:
            try:
                games, periods = await self.sessions.privacy.purge(time.time(), self.retain_days)
                if games or periods:
                    log.info("retention: deleted %d games of servers that removed the bot more than %d days ago, "
                             "%d periods away over a year old", games, self.retain_days, periods)
            except StoreUnavailable as error:
                log.warning("retention: the database is out of reach (%s); trying again tomorrow", error)
            await asyncio.sleep(PURGE_EVERY_S)
