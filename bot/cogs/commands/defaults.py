"""`/game defaults`: a server's defaults of new games, shown to anyone, changed by members with Manage Server.
Discord cannot hide a subcommand by permission (default_member_permissions applies to top-level commands only),
so the service checks it."""
from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs.commands.deadlines import deadline_changes
from bot.cogs.commands.translator import command_text as _
from bot.cogs.handlers import guild_of
from bot.cogs.messages.responder import Responder
from bot.domain import i18n
from bot.domain.seating import SEATINGS
from bot.games.base import GameError, msg
from bot.present.defaults import defaults_text
from bot.services import Sessions

# Shared with /game new.
SEATING_CHOICES = [app_commands.Choice(name=_(f"choice.seating.{s}"), value=s) for s in SEATINGS]


class DefaultsCommands:
    def __init__(self, sessions: Sessions, responder: Responder, min_turn_time: int) -> None:
        self.sessions = sessions
        self.responder = responder
        self.min_turn_time = min_turn_time

    async def defaults(self, interaction: discord.Interaction, turn_time: str | None = None,
                       on_timeout: app_commands.Choice[str] | None = None,
                       seating: app_commands.Choice[str] | None = None,
                       language: app_commands.Choice[str] | None = None) -> None:
        loc = i18n.locale_of(interaction.locale)
        if interaction.guild_id is None:   # a DM or group DM has no server defaults
            await self.responder.tell(interaction, msg("interactions.error.server_only"))
            return
        try:
            changes = deadline_changes(turn_time, on_timeout, self.min_turn_time) \
                | ({"seating": seating.value} if seating is not None else {}) \
                | ({"language": language.value} if language is not None else {})
            if changes:
                options = await self.sessions.defaults.change(
                    guild_of(interaction), interaction.permissions.manage_guild, changes)
            else:
                options = await self.sessions.defaults.of(guild_of(interaction))
        except GameError as refusal:
            await self.responder.tell(interaction, refusal.message)
            return
        await interaction.response.send_message(defaults_text(options, loc), ephemeral=True)
