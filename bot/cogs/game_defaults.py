"""`/game defaults` (a mixin of GameCog): a server's defaults of new games, shown to anyone, changed by
members with Manage Server. Discord cannot hide a subcommand by permission (default_member_permissions
applies to top-level commands only), so the service checks it."""
from __future__ import annotations

import discord
from discord import app_commands

from bot import i18n
from bot.cogs.game_base import GameCogBase, guild_of
from bot.cogs.game_timers import ON_TIMEOUT_CHOICES
from bot.cogs.translator import command_text as _
from bot.games.base import GameError, msg
from bot.present.defaults import defaults_text
from bot.seating import SEATINGS

# Shared with /game new.
SEATING_CHOICES = [app_commands.Choice(name=_(f"choice.seating.{s}"), value=s) for s in SEATINGS]


class DefaultsCommands(GameCogBase):
    """GameCog's /game defaults."""

    @app_commands.command(name="defaults", description=_("cmd.defaults.description"))
    @app_commands.describe(turn_time=_("opt.defaults_turn_time.description"),
                           on_timeout=_("opt.defaults_on_timeout.description"),
                           seating=_("opt.defaults_seating.description"))
    @app_commands.choices(on_timeout=ON_TIMEOUT_CHOICES, seating=SEATING_CHOICES)
    async def defaults(self, interaction: discord.Interaction, turn_time: str | None = None,
                       on_timeout: app_commands.Choice[str] | None = None,
                       seating: app_commands.Choice[str] | None = None) -> None:
        loc = i18n.locale_of(interaction.locale)
        if interaction.guild_id is None:   # a DM or group DM has no server defaults
            await self._tell(interaction, msg("interactions.error.server_only"))
            return
        try:
            changes = self.deadline_changes(turn_time, on_timeout) \
                | ({"seating": seating.value} if seating is not None else {})
            if changes:
                options = await self.sessions.set_server_defaults(
                    guild_of(interaction), interaction.permissions.manage_guild, changes)
            else:
                options = await self.sessions.server_defaults(guild_of(interaction))
        except GameError as refusal:
            await self._tell(interaction, refusal.message)
            return
        await interaction.response.send_message(defaults_text(options, loc), ephemeral=True)
