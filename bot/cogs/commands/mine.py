"""/game mine: the games on this server waiting for the member, then those they sit in, each linked to its
board; told to the member alone, in their language, and only about channels they can view (asked in a DM or
group DM: their games in DMs and group DMs). The turn's direct message (/game notify), sent from here too, ends
with the same short list when more than one game waits."""
from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.cogs.messages.faults import FAULTS
from bot.domain import i18n
from bot.domain.positions import ruleset_of
from bot.domain.session_results import WaitingGame
from bot.games.base import msg
from bot.present.mine import my_games_text, turn_list
from bot.present.words import say
from bot.services import GameRecord, People, Sessions
from bot.services.scheduler import DeadlineScheduler

log = logging.getLogger(__name__)


def can_view(guild: discord.Guild | None, member: Any, channel_id: int) -> bool:
    """Can `member` see that channel (or thread)? From the cached overwrites and roles; a channel the bot
    no longer knows shows nothing."""
    channel = guild.get_channel_or_thread(channel_id) if guild else None
    return channel is not None and isinstance(member, discord.Member) and channel.permissions_for(member).view_channel


def board_link(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    """The address of a board message (of its channel when none is known); a DM or group DM's is under @me."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}" + (f"/{message_id}" if message_id else "")


def _link(game: WaitingGame) -> str:
    return board_link(game.record.guild_id, game.record.channel_id, game.record.board_message_id)


class MineCommand:
    """/game mine, and the turn's direct message with the list it ends with."""

    def __init__(self, bot: commands.AutoShardedBot, sessions: Sessions, timers: DeadlineScheduler) -> None:
        self.bot = bot
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
            my_games_text(waiting, others, i18n.locale_of(interaction.locale), _link, private), ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none())

    async def turn_list(self, guild_id: int | None, user_id: int, locale: str) -> str:
        """The games waiting for `user_id` on that server, when more than one waits ("" otherwise)."""
        guild = self.bot.get_guild(guild_id) if guild_id else None
        if guild is None:
            return ""
        try:   # the guilds intent alone caches no members: ask for this one (only when a list is due)
            waiting, _ = await self.sessions.mine.games(guild.id, user_id, self.timers.clock.now())
            if len(waiting) < 2:
                return ""
            member = guild.get_member(user_id) or await guild.fetch_member(user_id)
        except FAULTS as error:   # the turn's message goes without the list
            log.info("no list of games for user %s: %s", user_id, error)
            return ""
        return turn_list([g for g in waiting if can_view(guild, member, g.record.channel_id)], locale, _link)

    async def notify_turn(self, record: GameRecord, user_id: int | None, people: People) -> None:
        """A direct message with a link to the board, for a player who asked for it.
        Closed DMs (Forbidden) and other failures are logged and forgotten."""
        if user_id not in people.turn_dms:
            return
        board = await self.sessions.boards.message(record.id)
        link = board_link(record.guild_id, record.channel_id, board)
        locale = next((s.locale for s in record.seats if s.level is None and s.user_id == user_id), record.locale)
        text = "\n".join(filter(None, [i18n.text("timers.dm.your_turn", locale, link=link,
                                                  game=say(record, msg(ruleset_of(record).name), locale)),
                                        await self.turn_list(record.guild_id, user_id, locale)]))
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            await channel.send(text)
        except discord.HTTPException as error:
            log.info("no turn notification for user %s: %s", user_id, error)

    async def _visible_games(self, guild: discord.Guild | None, member: Any) -> tuple[list[WaitingGame],
                                                                                     list[WaitingGame]]:
        if guild is None:
            return [], []
        waiting, others = await self.sessions.mine.games(guild.id, member.id, self.timers.clock.now())
        return ([g for g in waiting if can_view(guild, member, g.record.channel_id)],
                [g for g in others if can_view(guild, member, g.record.channel_id)])
