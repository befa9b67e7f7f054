"""`python -m bot`: run the bot. Without DISCORD_TOKEN, explain how to get one."""
from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
import sys
from contextlib import closing

import aiohttp
import discord

from bot import i18n
from bot.config import Settings
from bot.games import GAME_IDS
from bot.seating import SEATINGS

log = logging.getLogger("bot")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=i18n.text("cli.description", "en"))
    commands = parser.add_subparsers(dest="command")
    local = commands.add_parser("play", help=i18n.text("cli.play", "en"))
    local.add_argument("game", choices=GAME_IDS)
    local.add_argument("--seats", default="human,normal",
                       help=i18n.text("cli.seats", "en"))
    local.add_argument("--database", default="tablero-console.sqlite3", help=i18n.text("cli.database", "en"))
    local.add_argument("--board", default="board.png", help=i18n.text("cli.board", "en"))
    local.add_argument("--new", action="store_true", help=i18n.text("cli.new", "en"))
    local.add_argument("--seating", choices=SEATINGS, default="lobby", help=i18n.text("cli.seating", "en"))
    local.add_argument("--lang", choices=i18n.LOCALES, default="en")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "play":
        from bot.console import play

        seats = [s.strip() for s in args.seats.split(",")]
        return asyncio.run(play(args.game, seats, args.database, args.board, args.lang, new=args.new,
                                seating=args.seating))
    if settings.token is None:
        print(i18n.text("cli.no_token", "en"), file=sys.stderr)
        return 2
    if settings.api_base:
        # A REST proxy (or the test suite's fake Discord); the gateway URL comes from its /gateway/bot.
        discord.http.Route.BASE = settings.api_base
        log.info("using REST base %s", settings.api_base)
    return run_bot(settings)


def run_bot(settings: Settings) -> int:
    """Run the bot until it stops; what a self-hoster gets wrong first (the token, the network, the
    database file) ends it with one line on stderr, not a traceback."""
    from bot.app import TableroBot

    if (problem := database_problem(settings.database)) is not None:
        print(i18n.text("cli.bad_database", "en", path=settings.database, reason=problem), file=sys.stderr)
        return 1
    try:
        TableroBot(settings).run(settings.token, log_handler=None)
    except discord.LoginFailure:
        problem = i18n.text("cli.bad_token", "en")
    except aiohttp.ClientConnectionError as error:   # DNS, refused connection, reset...
        problem = i18n.text("cli.unreachable", "en", url=discord.http.Route.BASE, reason=error)
    except sqlite3.Error as error:   # aiosqlite raises sqlite3's errors
        problem = i18n.text("cli.bad_database", "en", path=settings.database, reason=error)
    else:
        return 0
    print(problem, file=sys.stderr)
    return 1


def database_problem(path: str) -> str | None:
    """Why the SQLite file cannot be opened and written, before Discord is contacted (None: it can).
    Also spares the store a connection it could open but not use, whose thread would keep the process
    from exiting."""
    try:
        with closing(sqlite3.connect(path)) as db:
            (version,) = db.execute("PRAGMA user_version").fetchone()
            db.execute(f"PRAGMA user_version={int(version)}")   # a write that changes nothing
    except sqlite3.Error as error:
        return str(error)
    return None


if __name__ == "__main__":
    sys.exit(main())
