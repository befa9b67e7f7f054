"""Channels and servers the bot loses: the games there end, and with them their deadlines; a server that
removed the bot has its games deleted some days later (bot/services/privacy.py), unless it adds the bot
back."""
from __future__ import annotations

import logging
import time

from bot.core.shards import Shards
from bot.services import Sessions
from bot.services.scheduler import DeadlineScheduler

log = logging.getLogger(__name__)


class Departures:
    def __init__(self, sessions: Sessions, timers: DeadlineScheduler) -> None:
        self.sessions = sessions
        self.timers = timers

    async def channel_gone(self, channel_id: int) -> None:
        """The channel (or thread) was deleted: its game ends."""
        record = await self.sessions.endings.close_channel(channel_id)
        if record is not None:
            log.info("game %s ended: its channel %s was deleted", record.id, channel_id)
            self.timers.wake()   # its deadline, if any, is gone

    async def guild_gone(self, guild_id: int) -> None:
        """Kicked, banned or the server deleted (an outage is on_guild_unavailable): nobody can play
        there any more, so its games end rather than have their deadlines play them to a rated end."""
        ended = await self.sessions.endings.close_guild(guild_id)
        if ended:
            log.info("%d games ended: the bot left server %s", len(ended), guild_id)
            self.timers.wake()

    async def guild_left(self, guild_id: int) -> None:
        """The server's games are kept TABLERO_RETAIN_DAYS from now (PrivacyCommands.retention)."""
        await self.sessions.privacy.guild_left(guild_id, time.time())

    async def guild_back(self, guild_id: int) -> None:
        await self.sessions.privacy.guild_back(guild_id)

    async def while_stopped(self, present: set[int], shards: Shards) -> None:
        """What a server did while the bot was stopped, no event said (Privacy.unseen_departures): one that
        removed it is treated as the running bot treats it (its games end, its retention starts now); one that
        added it back keeps its games."""
        gone, back = await self.sessions.privacy.unseen_departures(present, shards)
        for guild_id in gone:
            log.info("server %s removed the bot while it was stopped", guild_id)
            await self.guild_gone(guild_id)
            await self.guild_left(guild_id)
        for guild_id in back:
            log.info("server %s added the bot back while it was stopped", guild_id)
            await self.guild_back(guild_id)
