"""`python -m bot`: run the bot. Without DISCORD_TOKEN, explain how to get one."""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sqlite3
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

from bot.core.config import CONSOLE_DATABASE, SettingError, Settings
from bot.core.shards import ShardSpecError
from bot.domain import i18n
from bot.domain.seating import SEATINGS
from bot.games import GAME_IDS
from bot.operations import logs

# Imported where used: the console, `python -m bot play`, starts without discord and aiohttp, and a Ctrl-C
# while it imports the store and the rest is answered in one line.
if TYPE_CHECKING:
    import discord

    from bot.store.schema import SchemaTooNew

log = logging.getLogger("bot")

# Discord out of reach at start-up (the network not up yet, an outage): tried again after 1, 2, 4 ... s, at most
# this far apart, for as long as it takes (one log line per try).
FIRST_RETRY_S = 1.0
MAX_RETRY_S = 60.0


def main(argv: list[str] | None = None) -> int:
    terminal = i18n.terminal_locale(os.environ)   # the console's language unless --lang says otherwise
    parser = argparse.ArgumentParser(prog="python -m bot", description=i18n.text("cli.description", terminal))
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
    from bot.app import TableroBot
    from bot.store import is_postgresql
    from renderer.writing import layout_description

    log.info("%s", layout_description())
    # A SQLite file this start creates is removed if the start fails: an empty database left behind
    # would later pass for the server's (and migrate "OK" with no game).
    created = not is_postgresql(settings.database) and not Path(settings.database).exists()
    problem = database_problem(settings.database)
    if problem is None:
        problem = _run(lambda: TableroBot(settings), token, settings.database)
    if problem is None:
        return 0
    if created:
        _remove_if_empty(settings.database)
    print(problem, file=sys.stderr)
    return 1


def _run(make_bot: Callable[[], discord.Client], token: str, database: str) -> str | None:
    """Run the bot until it stops; None when it stopped normally, else why it could not run."""
    import asyncpg
    import discord
    from sqlalchemy.exc import SQLAlchemyError

    from bot.operations.listener import CannotListen

    try:
        asyncio.run(_start(make_bot, token))
    except KeyboardInterrupt:   # Ctrl-C: stopped, as asked
        pass
    except discord.LoginFailure:
        return i18n.text("cli.bad_token", "en")
    except CannotListen as error:
        return i18n.text("cli.http_in_use", "en", address=error.address, reason=error.reason)
    except (SQLAlchemyError, asyncpg.PostgresError, sqlite3.Error) as error:   # the URL unreadable, a login refused...
        return _bad_database(database, error)
    return None


async def _start(make_bot: Callable[[], discord.Client], token: str) -> None:
    """Run a bot until it stops. Discord out of reach at start-up (DNS, a refused or reset connection, its 5xx)
    is waited out, a new bot tried after 1, 2, 4 ... s (MAX_RETRY_S at most), one log line per try; a wrong
    token (discord.LoginFailure) ends it at once."""
    import aiohttp
    import discord

    delay, attempt = FIRST_RETRY_S, 1
    while True:
        async with make_bot() as bot:
            try:
                await bot.start(token)
                return
            except (aiohttp.ClientConnectionError, discord.DiscordServerError, discord.GatewayNotFound) as error:
                if bot.is_ready():   # connected once: discord.py's own reconnection gave up
                    raise
                log.warning("Discord cannot be reached at %s (%s): try %d failed, trying again in %.0f s",
                            discord.http.Route.BASE, str(error).splitlines()[0] if str(error) else type(error).__name__,
                            attempt, delay)
        await asyncio.sleep(delay)
        delay, attempt = min(2 * delay, MAX_RETRY_S), attempt + 1


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
