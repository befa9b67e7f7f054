"""The Discord client: wires the store, the services and the cogs."""
from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
import signal
import sys
import time
from collections.abc import Callable, Collection
from types import TracebackType

import discord
from discord.ext import commands

from bot.cogs.commands.game import GameCog
from bot.cogs.commands.stats import StatsCog
from bot.cogs.commands.translator import CatalogueTranslator
from bot.cogs.events.answering import Answering, AnsweringTree
from bot.cogs.events.controls import KINDS
from bot.cogs.events.game_events import GameEvents
from bot.cogs.parts import GameParts
from bot.core import metrics
from bot.core.config import Settings
from bot.core.game_records import console_channels
from bot.core.outages import StoreUnavailable
from bot.games import GAME_IDS
from bot.operations.discord_watch import DiscordWatch
from bot.operations.health import Health, LoopLag
from bot.operations.listener import Listener
from bot.services import Sessions
from bot.store import Store

log = logging.getLogger(__name__)


# After each system call (a socket read or write) the event loop waits for the board-drawing thread
# (bot.present.picture) to hand the GIL back, which it does when asked after this interval (5 ms by
# default): keep that wait short.
SWITCH_INTERVAL_S = 0.0005
# The store's key for the digest of the commands last synced (application id + translated payload).
COMMANDS_DIGEST = "commands_digest"
# The games' gauges read the database at most this often, however often /metrics is scraped.
GAMES_EVERY_S = 15.0
# On SIGTERM (docker stop, which kills after 10 s) the interactions under way get this long to finish.
DRAIN_S = 8.0

# Tablero joins no voice channel: discord.py's start-up warning that its voice libraries (PyNaCl, davey) are not
# installed is no problem here, and a newcomer would take it for one.
discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False


class ConsoleGames(Exception):
    """The database holds open games of the terminal console (`python -m bot play`): the bot would take their
    pretend channels for Discord's, post there and end them. It does not start."""

    def __init__(self, count: int):
        super().__init__(count)
        self.count = count


class TableroBot(commands.AutoShardedBot):
    """Sharded from the start: the bot grows by Discord's own means. Without shard settings it runs every
    shard GET /gateway/bot recommends; with them, its own (docs/scaling.md): other processes run the rest."""

    def __init__(self, settings: Settings):
        shards = settings.shards
        super().__init__(
            shard_count=shards.count if shards else None,
            # discord.py's options type says list[int]; None, its default, runs every shard.
            shard_ids=list(shards.ids) if shards else None,  # type: ignore[arg-type]
            command_prefix=commands.when_mentioned,  # no message commands: slash commands only
            intents=discord.Intents.none() | discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            http_trace=(watch := DiscordWatch(KINDS)).trace,   # Discord's answers counted by status
            tree_cls=AnsweringTree,   # each command's task counted among those answering interactions
        )
        assert isinstance(self.tree, AnsweringTree)
        self.answering: Answering = self.tree.answering   # the controls' listener adds its tasks too
        self.settings = settings
        self.store: Store | None = None
        self.watch = watch
        self._game: GameParts | None = None
        self._games_read = float("-inf")   # time.monotonic() of the last read: never yet
        self._stopping: asyncio.Task[None] | None = None   # the stop SIGTERM asked for

    async def setup_hook(self) -> None:
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        self.watch.install(self)
        self.store = store = await Store.open(self.settings.database)
        if console := await store.games.count_in(console_channels(GAME_IDS), open_only=True):
            raise ConsoleGames(console)
        sessions = Sessions(store, shards=self.settings.shards)
        self._game = game = GameParts(self, sessions, self.settings)
        await self.add_cog(events := GameEvents(self, game, self.answering))
        await self.add_cog(GameCog(game))
        self.tree.error(events.on_app_command_error)   # every command (stats too) meeting the database out of reach
        await self.add_cog(StatsCog(sessions.records))
        translator = CatalogueTranslator()
        await self.tree.set_translator(translator)
        if self.settings.shards is None or self.settings.shards.syncs_commands:
            await self.sync_commands(store, translator)
        else:
            log.info("application commands are synced by the process running shard 0")
        # What start-up built (modules, rules tables, catalogues) lives as long as the process: out of the
        # collector's sight, a full collection scans only what came later (it paused the loop for tens of ms).
        gc.freeze()

    async def sync_commands(self, store: Store, translator: CatalogueTranslator) -> None:
        """Send the slash commands to Discord when they differ from the last ones sent: a restart
        with the same commands costs no request (Discord rate-limits command updates)."""
        payload = [await command.get_translated_payload(self.tree, translator) for command in self.tree.get_commands()]
        digest = hashlib.sha256(json.dumps([self.application_id, payload], sort_keys=True).encode()).hexdigest()
        if await store.bot_fact(COMMANDS_DIGEST) == digest:
            log.info("application commands unchanged since the last sync: not sent again")
            return
        synced = await self.tree.sync()
        await store.set_bot_fact(COMMANDS_DIGEST, digest)
        log.info("synced %d application commands", len(synced))

    def shards_down(self) -> list[str]:
        """This process's shards not connected to the gateway (every one before the first connection)."""
        if not self.shards:
            return ["all"]
        expected = set(self.settings.shards.ids) if self.settings.shards else set(self.shards)
        return [str(shard) for shard in sorted(expected)
                if shard not in self.shards or self.shards[shard].is_closed()]

    async def refresh_metrics(self) -> None:
        """What /metrics reads from elsewhere: the interactions left unanswered, the boards waiting, and the
        games in their lobby and in play (read from the database at most every GAMES_EVERY_S)."""
        self.watch.settle()
        if self._game is not None:
            metrics.BOARDS_WAITING.set(self._game.recovery.boards_waiting)
        if self.store is None or time.monotonic() - self._games_read < GAMES_EVERY_S:
            return
        self._games_read = time.monotonic()
        try:
            counts = await self.store.games.open_game_counts(self.settings.shards)
        except StoreUnavailable:   # the last counts stay; tablero_store_reachable says why
            return
        for status, games in counts.items():
            metrics.GAMES.labels("in play" if status == "active" else status).set(games)

    async def on_ready(self) -> None:
        log.info("connected as %s (id %s) to %d guilds", self.user, getattr(self.user, "id", "?"), len(self.guilds))

    def stop_on_signal(self) -> None:
        """SIGTERM: stop as asked, the interactions under way finished first; `start` then returns (exit 0)."""
        log.info("SIGTERM: stopping once the interactions under way are answered")
        self._stopping = asyncio.create_task(self.close(), name="stop on SIGTERM")

    @property
    def set_up(self) -> bool:
        """Logged in and its parts built (setup_hook): from then on a stop drains what is under way."""
        return self._game is not None

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        await super().__aexit__(kind, error, trace)
        # SIGTERM's stop ends the bot's run once Discord's connection is closed, then closes the store: left
        # unawaited, it would be cut at the loop's end, the database thread's last answer going nowhere.
        if self._stopping is not None:
            await self._stopping

    async def close(self) -> None:
        # First, so that a game ending while the interactions drain draws no animation either.
        game = self._game
        animations = game.announcer.stop_animations() if game is not None else set()

        def ending() -> list[asyncio.Task[None]]:   # the boards' folds and deletions waiting a second or so too
            return [*animations, *(game.publisher.tidying() if game is not None else ())]
        await _answered(self.answering, DRAIN_S, ending)
        if game is not None:   # Discord's connection closes next: what still waits is left as it is
            game.publisher.stop_tidying()
        await super().close()
        if self.store is not None:
            await self.store.close()


class Startup:
    """What outlives each try to connect: the health and metrics listener and the SIGTERM handler, in place
    before the first try, so that /healthz answers (503 and why) while Discord is out of reach and SIGTERM
    then stops the process at once (exit 0). `bot` is the try's bot (None between tries)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.bot: TableroBot | None = None
        self.failed: str | None = None   # why the last try failed
        self.stopping = asyncio.Event()   # SIGTERM before the bot was set up: the try or the wait ends
        self.ever_set_up = False
        self.lag = LoopLag()
        self.listener = (Listener(*settings.http, Health(self.shards_down, self.ping, self.lag, self.unreached),
                                  self.refresh_metrics) if settings.http is not None else None)

    async def __aenter__(self) -> Startup:
        """The listener up (CannotListen at once when its address is taken) and SIGTERM handled."""
        if self.listener is not None:
            await self.listener.start()
        self.lag.start()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self.on_sigterm)
        return self

    async def __aexit__(self, *exc: object) -> None:
        asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)
        await self.lag.stop()
        if self.listener is not None:
            await self.listener.stop()

    def trying(self, bot: TableroBot | None) -> None:
        """`bot` tries to connect now (None: its try is over)."""
        if self.bot is not None and self.bot.set_up:
            self.ever_set_up = True
        self.bot = bot

    def on_sigterm(self) -> None:
        if self.bot is not None and self.bot.set_up:
            self.bot.stop_on_signal()
        else:
            log.info("SIGTERM: stopping before Discord was reached")
            self.stopping.set()

    def unreached(self) -> str | None:
        return None if self.bot is not None and self.bot.set_up else self.failed

    def shards_down(self) -> list[str]:
        return self.bot.shards_down() if self.bot is not None else ["all"]

    async def ping(self) -> None:
        if self.bot is not None and self.bot.store is not None:
            await self.bot.store.ping()

    async def refresh_metrics(self) -> None:
        if self.bot is not None:
            await self.bot.refresh_metrics()


async def _answered(answering: Answering, timeout: float,
                    ending: Callable[[], Collection[asyncio.Task[None]]] = lambda: ()) -> None:
    """Wait (at most `timeout` s) for the tasks answering interactions (and what they wait for: the services'
    writes, the board's post) to end, those that start meanwhile included, and for the `ending` ones (asked
    again each time: an answer may start one)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while pending := answering.pending() + [t for t in ending() if not t.done()]:
        if (left := deadline - loop.time()) <= 0:
            log.warning("stopping with %d tasks under way (answers, boards) after %.0f s", len(pending), timeout)
            return
        await asyncio.wait(pending, timeout=left)
