"""`python -m bot`: run the bot. Without DISCORD_TOKEN, explain how to get one."""
from __future__ import annotations

import argparse
import logging
import sys

import discord

from bot import i18n
from bot.config import Settings

log = logging.getLogger("bot")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=i18n.text("cli.description", "en"))
    parser.parse_args(argv)
    settings = Settings.from_env()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings.token is None:
        print(i18n.text("cli.no_token", "en"), file=sys.stderr)
        return 2
    if settings.api_base:
        # A REST proxy (or the test suite's fake Discord); the gateway URL comes from its /gateway/bot.
        discord.http.Route.BASE = settings.api_base
        log.info("using REST base %s", settings.api_base)
    from bot.app import TableroBot

    TableroBot(settings).run(settings.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
