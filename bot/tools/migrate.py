"""Move a server's database from its SQLite file to PostgreSQL, and check the copy.

    python -m bot.tools.migrate tablero.sqlite3 postgresql://user@host/tablero [--force]

Every row of every table (bot/store/schema.py: games, actions, turn timers and reminders, seat votes,
turn-notification choices, bot facts) is copied with its id; both databases are first brought to
the current schema, as the bot does at start-up. A target that already holds games is refused
unless --force, which empties it first; so is a source holding the terminal console's games (`python -m bot
play` keeps them under pretend channels, which the bot would take for Discord's). Then the copy is checked: every
game and its log read back equal to the source's, every open game's snapshot is the replay of its log, and every
finished game passes bot.domain.verify. Exit status: 0 copied and checked, 1 a check failed, 2 refused.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from typing import Any

import asyncpg
from sqlalchemy import Table, func, select, text

from bot.core.config import CONSOLE_DATABASE, DATABASE
from bot.core.game_records import console_channels
from bot.core.outages import StoreUnavailable
from bot.domain.verify import verify
from bot.games import GAME_IDS, get_ruleset
from bot.store import Store, client_options, is_postgresql, postgresql_url, shown_url
from bot.store.schema import Statements, games, metadata

BATCH = 2000  # rows per read and per insert transaction
MISSING_DATABASE = "3D000"   # PostgreSQL's SQLSTATE invalid_catalog_name


class Refused(Exception):
    """The copy was not started; the reason is the message."""


async def _count(db: Statements, table: Table) -> int:
    count: int = (await db.rows(select(func.count().label("n")).select_from(table)))[0]["n"]
    return count


async def _page(db: Statements, table: Table, offset: int) -> list[dict[str, Any]]:
    query = select(table).order_by(*table.primary_key.columns).limit(BATCH).offset(offset)
    return [dict(row) for row in await db.rows(query)]


async def _insert(db: Statements, table: Table, rows: list[dict[str, Any]]) -> None:
    await db.execute(table.insert(), rows)


async def _empty(db: Statements) -> None:
    for table in reversed(metadata.sorted_tables):
        await db.execute(table.delete())


async def _follow_ids(db: Statements) -> None:
    """Games created after the copy get ids after the copied ones."""
    await db.rows(text("SELECT setval(pg_get_serial_sequence('games', 'id'), COALESCE(MAX(id), 0) + 1, false)"
                       " FROM games"))


async def _game_ids(db: Statements) -> list[int]:
    return [row["id"] for row in await db.rows(select(games.c.id).order_by(games.c.id))]


async def copy(source: Store, target: Store, force: bool) -> dict[str, int]:
    """Every row of every table, in batches; the number of rows per table."""
    if await target.run(_count, games) and not force:
        raise Refused("the target database already holds games: nothing was written (--force empties it first)")
    await target.run(_empty, transaction=True)
    copied = {}
    for table in metadata.sorted_tables:   # games before the rows that refer to them
        offset = 0
        while rows := await source.run(_page, table, offset):
            await target.run(_insert, table, rows, transaction=True)
            offset += len(rows)
        copied[table.name] = offset
    await target.run(_follow_ids)
    return copied


async def check(source: Store, target: Store) -> list[str]:
    """What is wrong with the copy (nothing: an empty list)."""
    problems = []
    for table in metadata.sorted_tables:
        if await source.run(_count, table) != await target.run(_count, table):
            problems.append(f"table {table.name}: the row counts differ")
    for game_id in await target.run(_game_ids):
        record, actions = await target.games.game(game_id), await target.games.actions(game_id)
        if record is None or (record, actions) != (await source.games.game(game_id),
                                                   await source.games.actions(game_id)):
            problems.append(f"game {game_id}: differs from the source")
            continue
        if record.state is None or record.status not in ("active", "finished"):
            continue
        verification = verify(get_ruleset(record.game), record, actions)
        if record.status == "active" and not verification.final_state_matches:
            problems.append(f"game {game_id} (open): its snapshot is not the replay of its log")
        if record.status == "finished" and not verification.ok:
            problems.append(f"game {game_id} (finished): bot.domain.verify fails")
    return problems


async def _open_target(url: str) -> Store:
    """The PostgreSQL store, or Refused in one line: a database that does not exist says what creates it."""
    try:
        return await Store.open(url)
    except asyncpg.PostgresError as error:
        parts = postgresql_url(url)
        if error.sqlstate != MISSING_DATABASE:
            raise Refused(f"cannot open {shown_url(url)}: {error}") from None
        raise Refused(f"the database {parts.database!r} does not exist on the server: create it first "
                      f"(createdb {client_options(url)} {parts.database}), then run this again") from None
    except StoreUnavailable as error:   # no server there: refused connection, unknown host
        raise Refused(f"cannot reach {shown_url(url)}: {error}") from None


async def migrate(sqlite_file: str, target_url: str, force: bool) -> tuple[dict[str, int], list[str]]:
    if is_postgresql(sqlite_file) or not os.path.isfile(sqlite_file):
        raise Refused(f"{sqlite_file}: no such SQLite file")
    if not is_postgresql(target_url):
        raise Refused("the target must be a postgresql:// (or postgres://) URL")
    source = await Store.open(sqlite_file)
    try:
        if console := await source.games.count_in(console_channels(GAME_IDS)):
            raise Refused(f"{sqlite_file} holds the terminal console's games (python -m bot play; {console} found), "
                          f"which the bot would take for Discord games: migrate the bot's database "
                          f"(TABLERO_DATABASE, {DATABASE} by default), not the console's")
        target = await _open_target(target_url)
        try:
            copied = await copy(source, target, force)
            return copied, await check(source, target)
        finally:
            await target.close()
    finally:
        await source.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.migrate", description=__doc__.splitlines()[0])
    parser.add_argument("sqlite_file")
    parser.add_argument("postgresql_url")
    parser.add_argument("--force", action="store_true", help="empty a target that already holds games, then copy")
    args = parser.parse_args(argv)
    try:
        copied, problems = asyncio.run(migrate(args.sqlite_file, args.postgresql_url, args.force))
    except Refused as refused:
        sys.stderr.write(f"refused: {refused}\n")
        return 2
    sys.stdout.write("copied " + ", ".join(f"{n} {table}" for table, n in copied.items()) + "\n")
    if not copied["games"]:
        sys.stderr.write(f"warning: {args.sqlite_file} holds no games: nothing was copied. The bot keeps its games in "
                         f"TABLERO_DATABASE ({DATABASE} by default), the console (python -m bot play) in "
                         f"{CONSOLE_DATABASE}, beside it\n")
    for problem in problems:
        sys.stdout.write(f"CHECK FAILED: {problem}\n")
    sys.stdout.write("MISMATCH\n" if problems else
                     "OK: every row copied; open games replay to their snapshots; finished games verify\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
