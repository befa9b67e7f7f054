"""`python -m bot`: run the bot. Without DISCORD_TOKEN, explain how to get one."""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys

import discord
import yarl

from bot import i18n
from bot.config import Settings
from bot.games import GAME_IDS
from bot.seating import SEATINGS
from bot.shards import ShardSpecError

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
    try:
        settings = Settings.from_env()
    except ShardSpecError as error:
        print(i18n.text(error.key, "en", **error.params), file=sys.stderr)
        return 2
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
    if settings.gateway_url:
        # discord.py dials this one when it is given the shard count (and after an invalidated session);
        # otherwise the URL comes from GET /gateway/bot.
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
    from bot.app import TableroBot

    TableroBot(settings).run(settings.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
