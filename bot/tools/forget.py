"""`python -m bot.tools.forget USER_ID`: remove a person's data, as /game forget does, for a request that reached the
operator by mail (bot/services/privacy.py says what goes and what stays). Best run with the bot stopped: the
games the person is resigned from show it on their boards at the bot's next start (a running bot shows it at
the game's next action)."""
from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.core.config import database_setting
from bot.domain import i18n
from bot.domain.session_results import Forgotten
from bot.services import Sessions
from bot.store import Store, is_postgresql


async def forget(database: str, user_id: int) -> Forgotten:
    store = await Store.open(database)
    try:
        return await Sessions(store).privacy.forget(user_id)
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.forget", description=i18n.text("forget.cli", "en"))
    parser.add_argument("user_id", type=int, help=i18n.text("forget.cli_user", "en"))
    parser.add_argument("--database", help=i18n.text("forget.cli_database", "en"))
    args = parser.parse_args(argv)
    database = args.database or database_setting()
    if not is_postgresql(database) and not Path(database).is_file():   # never a new, empty database
        print(i18n.text("backup.no_file", "en", path=database), file=sys.stderr)
        return 1
    forgotten = asyncio.run(forget(database, args.user_id))
    print(i18n.text("forget.done", "en", user=args.user_id, games=forgotten.games, resigned=len(forgotten.resigned)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
