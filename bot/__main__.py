"""`python -m bot`: run the bot. Without DISCORD_TOKEN, explain how to get one."""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sqlite3
import sys
from collections.abc import Callable, Coroutine
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from bot.core.config import CONSOLE_DATABASE, DATABASE, SettingError, Settings
from bot.core.shards import ShardSpecError
from bot.domain import i18n
from bot.domain.seating import SEATINGS
from bot.games import GAME_IDS
from bot.operations import logs

# Imported where used: the console, `python -m bot play`, starts without discord and aiohttp, and a Ctrl-C
# while it imports the store and the rest is answered in one line.
if TYPE_CHECKING:

    from bot.app import Startup
    from bot.store.schema import SchemaTooNew

log = logging.getLogger("bot")

# Discord out of reach at start-up (the network not up yet, an outage): tried again after 1, 2, 4 ... s, at most
# this far apart, for as long as it takes (one log line per try).
FIRST_RETRY_S = 1.0
MAX_RETRY_S = 60.0


class OneLineParser(argparse.ArgumentParser):
    """A command line with a typo is answered in one line (what is wrong, and where the choices are), not
    argparse's usage block and its error below it."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, i18n.text("cli.usage_error", "en", prog=self.prog, error=message) + "\n")


def main(argv: list[str] | None = None) -> int:
    terminal = i18n.terminal_locale(os.environ)   # the console's language unless --lang says otherwise
    parser = OneLineParser(prog="python -m bot", description=i18n.text("cli.description", terminal))
    commands = parser.add_subparsers(dest="command")
    local = commands.add_parser("play", help=i18n.text("cli.play", terminal),
                                description=i18n.text("cli.play_keys", terminal))
    local.add_argument("game", choices=GAME_IDS)
    local.add_argument("--seats", default="human,normal",
                       help=i18n.text("cli.seats", terminal))
    local.add_argument("--database", default=CONSOLE_DATABASE, help=i18n.text("cli.database", terminal))
    local.add_argument("--board", default="board.png", help=i18n.text("cli.board", terminal))
    local.add_argument("--new", action="store_true", help=i18n.text("cli.new", terminal))
    local.add_argument("--seating", choices=SEATINGS, default="lobby", help=i18n.text("cli.seating", terminal))
    local.add_argument("--lang", choices=i18n.LOCALES, default=terminal, help=i18n.text("cli.lang", terminal))
    commands.add_parser("check", help=i18n.text("cli.check", terminal), description=i18n.text("cli.check", terminal))
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except (ShardSpecError, SettingError) as error:
        print(i18n.text(error.key, "en", **error.params), file=sys.stderr)
        return 1
    logs.configure(settings.log_level, settings.json_logs, secrets=[settings.token or ""])
    if args.command == "check":
        from bot.tools import check

        return check.run(settings)
    if args.command == "play":
        seats = [s.strip().lower() for s in args.seats.split(",")]
        try:
            from bot.console.game import play

            return asyncio.run(play(args.game, seats, args.database, args.board, args.lang, new=args.new,
                                    seating=args.seating))
        except KeyboardInterrupt:   # Ctrl-C before the game is open (the game says its own stop)
            print(i18n.text("console.stopped", args.lang))
            return 128 + signal.SIGINT   # as play() on Ctrl-C
    if settings.token is None:
        print(i18n.text("cli.no_token", "en"), file=sys.stderr)
        return 2
    import discord
    import yarl

    if settings.api_base:
        # A REST proxy (or the test suite's fake Discord); the gateway URL comes from its /gateway/bot.
        discord.http.Route.BASE = settings.api_base
        log.info("using REST base %s", settings.api_base)
    if settings.gateway_url:
        # discord.py dials this one when it is given the shard count (and after an invalidated session);
        # otherwise the URL comes from GET /gateway/bot.
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
    return run_bot(settings, settings.token)


def run_bot(settings: Settings, token: str) -> int:
    """Run the bot until it stops; what a self-hoster gets wrong first (the token, the network, the
    database file) ends it with one line on stderr, not a traceback."""
    from bot.store import is_postgresql
    from renderer.writing import layout_description

    log.info("%s", layout_description())
    # A SQLite file this start creates is removed if the bot never got going (a failed start, a stop during the
    # first tries): an empty database left behind would later pass for the server's (and migrate "OK" with no game).
    created = not is_postgresql(settings.database) and not Path(settings.database).exists()
    problem = database_problem(settings.database)
    connected = False
    if problem is None:
        problem, connected = _run(settings, token)
    if created and not connected:
        _remove_if_empty(settings.database)
    if problem is None:
        return 0
    print(problem, file=sys.stderr)
    return 1


def _run(settings: Settings, token: str) -> tuple[str | None, bool]:
    """Run the bot until it stops: (None when it stopped normally, else why it could not run; whether it was
    ever set up)."""
    import asyncpg
    import discord
    from sqlalchemy.exc import SQLAlchemyError

    from bot.app import ConsoleGames
    from bot.operations.listener import CannotListen

    startup: list[Startup] = []   # made inside the loop (its event belongs to it)
    problem = None
    try:
        asyncio.run(_start(settings, token, startup.append))
    except KeyboardInterrupt:   # Ctrl-C: stopped, as asked
        pass
    except discord.LoginFailure:
        problem = i18n.text("cli.bad_token", "en")
    except CannotListen as error:
        problem = i18n.text("cli.http_in_use", "en", address=error.address, reason=error.reason)
    except ConsoleGames as error:
        problem = i18n.text("cli.console_database", "en", database=settings.database, count=error.count,
                            default=DATABASE, console=CONSOLE_DATABASE)
    except (SQLAlchemyError, asyncpg.PostgresError, sqlite3.Error) as error:   # the URL unreadable, a login refused...
        problem = _bad_database(settings.database, error)
    return problem, any(s.ever_set_up for s in startup)


async def _start(settings: Settings, token: str, started: Callable[[Startup], object]) -> None:
    """Run a bot until it stops. The listener and SIGTERM's handling come first (bot.app.Startup). Discord out
    of reach at start-up (DNS, a refused or reset connection, its 5xx) is waited out, a new bot tried after 1,
    2, 4 ... s (MAX_RETRY_S at most), one log line per try; a wrong token (discord.LoginFailure) ends it at
    once; SIGTERM meanwhile stops it at once."""
    import aiohttp
    import discord

    from bot.app import Startup, TableroBot

    delay, attempt = FIRST_RETRY_S, 1
    async with Startup(settings) as startup:
        started(startup)
        while True:
            async with TableroBot(settings) as bot:
                startup.trying(bot)
                try:
                    await _until_stopped(startup, bot.start(token))
                    return
                except (aiohttp.ClientConnectionError, discord.DiscordServerError,
                        discord.GatewayNotFound) as error:
                    if bot.is_ready():   # connected once: discord.py's own reconnection gave up
                        raise
                    reason = str(error).splitlines()[0] if str(error) else type(error).__name__
                    startup.failed = f"try {attempt} failed: {reason}"
                    log.warning("Discord cannot be reached at %s (%s): try %d failed, trying again in %.0f s. "
                                "Check this machine's network and DNS, a proxy or firewall on the way%s",
                                discord.http.Route.BASE, reason, attempt, delay,
                                ", and DISCORD_API_BASE" if settings.api_base else "")
                finally:
                    startup.trying(None)
            if not await _until_stopped(startup, asyncio.sleep(delay)):
                return
            delay, attempt = min(2 * delay, MAX_RETRY_S), attempt + 1


async def _until_stopped(startup: Startup, work: Coroutine[Any, Any, None]) -> bool:
    """Await `work` unless SIGTERM comes first (then cancel it): whether it ended on its own. A bot set up
    meanwhile is stopped by SIGTERM its own way (TableroBot.stop_on_signal), and `work` (its start) ends."""
    task = asyncio.ensure_future(work)
    stop = asyncio.ensure_future(startup.stopping.wait())
    try:
        await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.cancel()
    if task.done():
        task.result()   # its error, if any
        return True
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return False


def _remove_if_empty(path: str) -> None:
    """Remove a SQLite file (and its WAL files) that holds no game."""
    try:
        with closing(sqlite3.connect(path)) as db:
            if db.execute("SELECT count(*) FROM games").fetchone()[0]:
                return
    except sqlite3.Error:   # no games table: nothing was ever stored there
        pass
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(path + suffix).unlink(missing_ok=True)


def database_problem(database: str) -> str | None:
    """Why the database cannot be opened and written, said in one line, before Discord is contacted (None:
    it can)."""
    from bot.store import is_postgresql
    from bot.store.schema import MIGRATIONS, SchemaTooNew

    if is_postgresql(database):
        return asyncio.run(_postgresql_problem(database))
    try:
        with closing(sqlite3.connect(database)) as db:
            (version,) = db.execute("PRAGMA user_version").fetchone()
            if version > len(MIGRATIONS):   # refused before any write: the file is left as it is
                return _too_new(database, SchemaTooNew(version))
            db.execute(f"PRAGMA user_version={int(version)}")   # a write that changes nothing
    except sqlite3.Error as error:
        return _bad_database(database, error)
    return None


async def _postgresql_problem(url: str) -> str | None:
    """The server reached, the database there and its schema brought up to date (as start-up does)."""
    import asyncpg
    from sqlalchemy.exc import SQLAlchemyError

    from bot.core.outages import StoreUnavailable
    from bot.store import Store
    from bot.store.schema import SchemaTooNew

    try:
        store = await Store.open(url)
    except (OSError, SQLAlchemyError, asyncpg.PostgresError, ValueError) as error:   # refused, unknown host; URL
        # (a port that is no number); login, database
        return _bad_database(url, error)
    except StoreUnavailable as error:   # the store's word for a server out of reach: the driver's error caused it
        return _bad_database(url, error.__cause__ or error)
    except SchemaTooNew as error:
        return _too_new(url, error)
    await store.close()
    return None


def _too_new(database: str, error: SchemaTooNew) -> str:
    from bot.store import is_postgresql, shown_url

    shown = shown_url(database) if is_postgresql(database) else database   # without its password
    return i18n.text("cli.schema_too_new", "en", database=shown, found=error.found, known=error.known)


def _bad_database(database: str, error: BaseException) -> str:
    from bot.store import is_postgresql, shown_url

    reason = getattr(error, "orig", None) or error   # the driver's own words, not SQLAlchemy's wrapping
    if is_postgresql(database):   # the URL shown without its password
        return i18n.text("cli.bad_postgresql", "en", url=shown_url(database), reason=reason)
    return i18n.text("cli.bad_database", "en", path=database, reason=reason)


if __name__ == "__main__":
    sys.exit(main())
