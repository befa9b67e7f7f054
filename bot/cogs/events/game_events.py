"""Discord's events for the games, each handed to its part (bot/cogs/parts.py): every click, menu pick
and modal submission (read once by controls.read, answered by the handler its kind names), the channels and
servers the bot loses or joins, and the command tree's errors; and the tasks that run while the cog is loaded
(the turn timers, the daily retention, and at start-up the games a restart interrupted).
"""
from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.events.controls import KINDS, Forged, read
from bot.cogs.handlers import Request
from bot.cogs.messages.faults import DISCORD_FAULTS, said
from bot.cogs.parts import GameParts
from bot.core.shards import Shards
from bot.games.base import msg
from bot.services import StoreUnavailable

log = logging.getLogger(__name__)


class GameEvents(commands.Cog, name="GameEvents"):
    def __init__(self, bot: commands.AutoShardedBot, parts: GameParts) -> None:
        self.bot = bot
        self.parts = parts
        self._tasks: list[asyncio.Task[None]] = []

    async def cog_load(self) -> None:
        parts = self.parts
        self._tasks = [asyncio.create_task(run(), name=name) for name, run in (
            ("turn timers", parts.scheduler.run), ("retention", parts.privacy.retention),
            ("resume games", parts.recovery.resume_games))]

    async def cog_unload(self) -> None:
        for task in self._tasks:
            task.cancel()

    # --- controls on the messages ------------------------------------------------
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every click, select and modal submission, whatever it holds, is read once and answered."""
        if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            return
        try:
            request = read(interaction)
        except Forged as why:
            log.info("refused a control that is not ours (%s) in channel %s", why, interaction.channel_id)
            request = None
        try:
            if request is None:
                await self.parts.responder.tell(interaction, msg("controls.error.unknown"))
            else:
                await KINDS[request.kind].handler(self, interaction, request)
        except StoreUnavailable as error:
            await self.parts.responder.storage_unreachable(interaction, error)
        except DISCORD_FAULTS as error:
            _unanswered(interaction, error)

    # What answers each kind (controls.ControlAnswers).
    async def on_action(self, interaction: discord.Interaction, request: Request) -> None:
        await self.parts.play.on_action(interaction, request)

    async def on_group(self, interaction: discord.Interaction, request: Request) -> None:
        await self.parts.play.on_group(interaction, request)

    async def on_call_button(self, interaction: discord.Interaction, request: Request) -> None:
        await self.parts.play.on_call_button(interaction, request)

    async def on_other_move_button(self, interaction: discord.Interaction, request: Request) -> None:
        await self.parts.play.on_other_move_button(interaction, request)

    async def on_undo_request(self, interaction: discord.Interaction, request: Request) -> None:
        await self.parts.takebacks.on_undo_request(interaction, request)

    async def on_lobby(self, interaction: discord.Interaction, request: Request) -> None:
        await self.parts.lobby.on_lobby(interaction, request)

    async def on_rematch(self, interaction: discord.Interaction, game: int | None) -> None:
        await self.parts.lobby.rematch(interaction, game)

    async def on_history_page(self, interaction: discord.Interaction, request: Request) -> None:
        await self.parts.history.on_history_page(interaction, request)

    async def on_vote(self, interaction: discord.Interaction, request: Request) -> None:
        await self.parts.deadline_commands.on_vote(interaction, request)

    async def on_takeback_answer(self, interaction: discord.Interaction, request: Request) -> None:
        await self.parts.takebacks.on_takeback_answer(interaction, request)

    async def on_forget(self, interaction: discord.Interaction, request: Request) -> None:
        await self.parts.privacy.on_forget(interaction, request)

    async def on_claim(self, interaction: discord.Interaction, request: Request) -> None:
        await self.parts.deadline_commands.on_claim(interaction, request)

    async def on_status(self, interaction: discord.Interaction, request: Request) -> None:
        await self.parts.play.status(interaction)

    async def on_show_board(self, interaction: discord.Interaction, request: Request) -> None:
        await self.parts.play.board(interaction)

    # --- channels and servers that go away (or come back) ---------------------------------
    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.parts.departures.channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.parts.departures.channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.parts.departures.guild_gone(guild.id)

    @commands.Cog.listener("on_guild_remove")
    async def remember_guild_left(self, guild: discord.Guild) -> None:
        await self.parts.departures.guild_left(guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.parts.departures.guild_back(guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Every shard of this process is ready: Discord has listed each of their servers (READY names those in
        an outage too, and discord.py keeps them as unavailable), so a server missing from the list removed the
        bot while it was stopped. Other processes' shards are left to them."""
        count = self.bot.shard_count or 1
        shards = Shards(count, tuple(self.bot.shard_ids or range(count)))
        try:
            await self.parts.departures.while_stopped({guild.id for guild in self.bot.guilds}, shards)
        except StoreUnavailable as error:
            log.warning("servers that removed the bot while it was stopped not looked for (%s): at the next start",
                        error)

    # --- the command tree's errors ----------------------------------------------------
    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Every command's (stats too): a database out of reach is answered; the rest logged as before."""
        if isinstance(cause := getattr(error, "original", error), StoreUnavailable):
            await self.parts.responder.storage_unreachable(interaction, cause)
            return
        if isinstance(cause, DISCORD_FAULTS):
            _unanswered(interaction, cause)
            return
        await app_commands.CommandTree.on_error(self.bot.tree, interaction, error)


def _unanswered(interaction: discord.Interaction, error: BaseException) -> None:
    """An acknowledgement or a reply Discord failed (the connection lost, a 5xx beyond discord.py's own tries):
    one log line, no traceback. Nothing stored waits on it (the boards and the answers' edits are tried again,
    Recovery), and the user may ask again."""
    log.warning("interaction in channel %s left unanswered: Discord failed (%s)", interaction.channel_id, said(error))
