"""/stats and /leaderboard: this server's finished games (in a DM or group DM: that channel's) from the records
service, in the words of bot/present/stats.py. Both may be used wherever the app is installed, by a server or a
user (Discord's installation types and contexts)."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.commands.game import GAME_CHOICES
from bot.cogs.commands.translator import command_text as _
from bot.cogs.handlers import channel_of
from bot.domain import i18n
from bot.present.stats import leaderboard_text, stats_text
from bot.services import Records


class StatsCog(commands.Cog, name="StatsCog"):
    def __init__(self, records: Records):
        self.records = records

    @app_commands.command(name="stats", description=_("cmd.stats.description"))
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(player=_("opt.player.description"))
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        who = player or interaction.user
        found = await self.records.player(interaction.guild_id, channel_of(interaction), who.id)
        text = stats_text(found, who.mention, i18n.locale_of(interaction.locale), interaction.guild_id is None)
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="leaderboard", description=_("cmd.leaderboard.description"))
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(game=_("opt.leaderboard_game.description"))
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction,
                          game: app_commands.Choice[str] | None = None) -> None:
        game_id = game.value if game else None
        ranked = await self.records.leaderboard(interaction.guild_id, channel_of(interaction), game_id)
        text = leaderboard_text(ranked, game_id, i18n.locale_of(interaction.locale), interaction.guild_id is None)
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
