"""The turn's direct message (/game notify): a link to the board for a player who asked for it, ending with the
short list of that server's games waiting for them when more than one waits. Sent by the board publisher when a
turn passes."""
from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.cogs.messages.faults import FAULTS
from bot.cogs.messages.links import board_link, can_view, waiting_link
from bot.domain import i18n
from bot.domain.positions import ruleset_of
from bot.games.base import msg
from bot.present.mine import turn_list
from bot.present.words import say
from bot.services import GameRecord, People, Sessions
from bot.services.scheduler import DeadlineScheduler

log = logging.getLogger(__name__)


class TurnNotices:
    """The turn's direct message, with the list it ends with."""

    def __init__(self, bot: commands.AutoShardedBot, sessions: Sessions, timers: DeadlineScheduler) -> None:
        self.bot = bot
        self.sessions = sessions
        self.timers = timers

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
        return turn_list([g for g in waiting if can_view(guild, member, g.record.channel_id)], locale, waiting_link)

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
