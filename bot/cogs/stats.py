"""/stats and /leaderboard: this server's finished games, counted by bot.stats (read through the records service)."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot import stats as server_stats
from bot.cogs.game import GAME_CHOICES
from bot.cogs.translator import command_text as _
from bot.games.base import msg
from bot.services import Records


class StatsCog(commands.Cog, name="StatsCog"):
    def __init__(self, records: Records):
        self.records = records

    async def _players(self, interaction: discord.Interaction) -> dict[server_stats.PlayerKey, server_stats.PlayerStats]:
        return await self.records.players(interaction.guild_id)

    @app_commands.command(name="stats", description=_("cmd.stats.description"))
    @app_commands.describe(player=_("opt.player.description"))
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        loc = i18n.locale_of(interaction.locale)
        who = player or interaction.user
        found = (await self._players(interaction)).get(who.id)
        if found is None:
            text = i18n.text("stats.none", loc, player=who.mention)
        else:
            total = found.overall
            lines = [i18n.text("stats.title", loc, player=who.mention),
                     i18n.text("stats.summary", loc, games=total.games, wins=total.wins,
                               streak=total.best_streak, classy=total.classy)]
            for game, tally in sorted(found.by_game.items()):
                lines.append(i18n.text("stats.game", loc, game=msg(f"game.{game}"), rating=round(found.rating[game]),
                                       games=tally.games, wins=tally.wins, streak=tally.best_streak))
            text = "\n".join(lines)
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="leaderboard", description=_("cmd.leaderboard.description"))
    @app_commands.describe(game=_("opt.leaderboard_game.description"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction,
                          game: app_commands.Choice[str] | None = None) -> None:
        loc = i18n.locale_of(interaction.locale)
        game_id = game.value if game else None
        ranked = server_stats.leaderboard(await self._players(interaction), game_id)
        if not ranked:
            text = i18n.text("leaderboard.empty", loc)
        elif game_id is None:
            text = "\n".join([i18n.text("leaderboard.title_all", loc)] + [
                i18n.text("leaderboard.row_all", loc, rank=rank, player=f"<@{user}>", wins=s.overall.wins,
                          games=s.overall.games, streak=s.overall.best_streak)
                for rank, (user, s) in enumerate(ranked, start=1)])
        else:
            text = "\n".join([i18n.text("leaderboard.title", loc, game=msg(f"game.{game_id}"))] + [
                i18n.text("leaderboard.row", loc, rank=rank, player=f"<@{user}>", rating=round(s.rating[game_id]),
                          wins=s.by_game[game_id].wins, games=s.by_game[game_id].games)
                for rank, (user, s) in enumerate(ranked, start=1)])
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
