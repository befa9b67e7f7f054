"""The Discord client: wires the store, the services and the cogs."""
from __future__ import annotations

import gc
import hashlib
import json
import logging
import sys

import discord
from discord.ext import commands

from bot.cogs.game import GameCog
from bot.cogs.stats import StatsCog
from bot.cogs.translator import CatalogueTranslator
from bot.config import Settings
from bot.services import Sessions
from bot.store import Store

log = logging.getLogger(__name__)


# After each system call (a socket read or write) the event loop waits for the board-drawing thread
# (bot.present.picture) to hand the GIL back, which it does when asked after this interval (5 ms by
# default): keep that wait short.
SWITCH_INTERVAL_S = 0.0005
# The store's key for the digest of the commands last synced (application id + translated payload).
COMMANDS_DIGEST = "commands_digest"


class TableroBot(commands.AutoShardedBot):
    """Sharded from the start: the bot grows by Discord's own means. Without shard settings it runs every
    shard GET /gateway/bot recommends; with them, its own (README, Scaling): other processes run the rest."""

    def __init__(self, settings: Settings):
        shards = settings.shards
        super().__init__(
            shard_count=shards.count if shards else None,
            shard_ids=list(shards.ids) if shards else None,
            command_prefix=commands.when_mentioned,  # no message commands: slash commands only
            intents=discord.Intents.none() | discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self.store: Store | None = None

    async def setup_hook(self) -> None:
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        self.store = await Store.open(self.settings.database)
        sessions = Sessions(self.store, shards=self.settings.shards)
        game = GameCog(self, sessions, self.settings)
        await self.add_cog(game)
        self.tree.error(game.on_app_command_error)   # every command (stats too) meeting the database out of reach
        await self.add_cog(StatsCog(sessions.records))
        await self.tree.set_translator(CatalogueTranslator())
        if self.settings.shards is None or self.settings.shards.syncs_commands:
            await self.sync_commands()
        else:
            log.info("application commands are synced by the process running shard 0")
        # What start-up built (modules, rules tables, catalogues) lives as long as the process: out of the
        # collector's sight, a full collection scans only what came later (it paused the loop for tens of ms).
        gc.freeze()

    async def sync_commands(self) -> None:
        """Send the slash commands to Discord when they differ from the last ones sent: a restart
        with the same commands costs no request (Discord rate-limits command updates)."""
        translator = self.tree.translator
        payload = [await command.get_translated_payload(self.tree, translator) for command in self.tree.get_commands()]
        digest = hashlib.sha256(json.dumps([self.application_id, payload], sort_keys=True).encode()).hexdigest()
        if await self.store.bot_fact(COMMANDS_DIGEST) == digest:
            log.info("application commands unchanged since the last sync: not sent again")
            return
        synced = await self.tree.sync()
        await self.store.set_bot_fact(COMMANDS_DIGEST, digest)
        log.info("synced %d application commands", len(synced))

    async def on_ready(self) -> None:
        log.info("connected as %s (id %s) to %d guilds", self.user, getattr(self.user, "id", "?"), len(self.guilds))

    async def close(self) -> None:
        await super().close()
        if self.store is not None:
            await self.store.close()
