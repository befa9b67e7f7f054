"""`python -m bot`: run the bot. Without DISCORD_TOKEN, explain how to get one."""
from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

import aiohttp
import asyncpg
import discord
import yarl
from sqlalchemy import make_url
from sqlalchemy.exc import SQLAlchemyError

from bot import i18n
from bot.config import CONSOLE_DATABASE, Settings
from bot.games import GAME_IDS
from bot.outages import StoreUnavailable
from bot.schema import MIGRATIONS, SchemaTooNew
from bot.seating import SEATINGS
from bot.shards import ShardSpecError
from bot.store import Store, is_postgresql

log = logging.getLogger("bot")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=i18n.text("cli.description", "en"))
    commands = parser.add_subparsers(dest="command")
    local = commands.add_parser("play", help=i18n.text("cli.play", "en"), description=i18n.text("cli.play_keys", "en"))
    local.add_argument("game", choices=GAME_IDS)
    local.add_argument("--seats", default="human,normal",
                       help=i18n.text("cli.seats", "en"))
    local.add_argument("--database", default=CONSOLE_DATABASE, help=i18n.text("cli.database", "en"))
    local.add_argument("--board", default="board.png", help=i18n.text("cli.board", "en"))
    local.add_argument("--new", action="store_true", help=i18n.text("cli.new", "en"))
    local.add_argument("--seating", choices=SEATINGS, default="lobby", help=i18n.text("cli.seating", "en"))
    local.add_argument("--lang", choices=i18n.LOCALES, default="en")
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except ShardSpecError as error:
        print(i18n.text(error.key, "en", **error.params), file=sys.stderr)
        return 1
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "play":
        from bot.console import INTERRUPTED, play

        seats = [s.strip().lower() for s in args.seats.split(",")]
        try:
            return asyncio.run(play(args.game, seats, args.database, args.board, args.lang, new=args.new,
                                    seating=args.seating))
        except KeyboardInterrupt:   # Ctrl-C before the game is open (the game says its own stop)
            print(i18n.text("console.stopped", args.lang))
            return INTERRUPTED
    if settings.token is None:
        print(i18n.text("cli.no_token", "en"), file=sys.stderr)
        return 2
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

    # A SQLite file this start creates is removed if the start fails: an empty database left behind
    # would later pass for the server's (and migrate "OK" with no game).
    created = not is_postgresql(settings.database) and not Path(settings.database).exists()
    problem = database_problem(settings.database)
    if problem is None:
        problem = _run(TableroBot(settings), token, settings.database)
    if problem is None:
        return 0
    if created:
        _remove_if_empty(settings.database)
    print(problem, file=sys.stderr)
    return 1


def _run(bot: discord.Client, token: str, database: str) -> str | None:
    """Run the bot until it stops; None when it stopped normally, else why it could not run."""
    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        return i18n.text("cli.bad_token", "en")
    except aiohttp.ClientConnectionError as error:   # DNS, refused connection, reset...
        return i18n.text("cli.unreachable", "en", url=discord.http.Route.BASE, reason=error)
    except (SQLAlchemyError, asyncpg.PostgresError, sqlite3.Error) as error:   # the URL unreadable, a login refused...
        return _bad_database(database, error)
    return None


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
    try:
        store = await Store.open(url)
    except (OSError, SQLAlchemyError, asyncpg.PostgresError) as error:   # refused, unknown host; URL; login, database
        return _bad_database(url, error)
    except StoreUnavailable as error:   # the store's word for a server out of reach: the driver's error caused it
        return _bad_database(url, error.__cause__ or error)
    except SchemaTooNew as error:
        return _too_new(url, error)
    await store.close()
    return None


def _too_new(database: str, error: SchemaTooNew) -> str:
    shown = str(make_url(database)) if is_postgresql(database) else database   # without its password
    return i18n.text("cli.schema_too_new", "en", database=shown, found=error.found, known=error.known)


def _bad_database(database: str, error: BaseException) -> str:
    reason = getattr(error, "orig", None) or error   # the driver's own words, not SQLAlchemy's wrapping
    if is_postgresql(database):   # the URL shown without its password
        return i18n.text("cli.bad_postgresql", "en", url=make_url(database), reason=reason)
    return i18n.text("cli.bad_database", "en", path=database, reason=reason)


if __name__ == "__main__":
    sys.exit(main())
