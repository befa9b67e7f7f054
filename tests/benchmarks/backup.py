"""The time a backup and a restore take (`python -m bot.tools.backup`, docs/backup.md) on a database of many games:
`python -m tests.benchmarks.backup [--games 100000] [--dir /tmp]`.

The database is made of real games, played through the services by random legal moves (a game of each ruleset,
the dice games at two and four players, finished or cut at 300 actions), each with its log and events; those
template games are then copied, with new ids and channels, until the database holds `--games` games. The backup
is taken as the command does it, `copy_database` (SQLite's online backup, in one step, checked), with a writer
appending moves to another game meanwhile, as a running bot would; the restore is `restore_database` into a
file of the same size (a restore over the database it replaces). Prints the size, the rows and the times.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import tempfile
import threading
import time
from contextlib import closing
from pathlib import Path

from bot.games import GAME_IDS, get_ruleset
from bot.services import Seat, Sessions
from bot.store import Store
from bot.tools.backup import copy_database, restore_database
from tests.schema_fixtures.make import play_at_random

ACTIONS_PER_GAME = 300


async def _templates(path: str) -> int:
    """Real games, one per ruleset and table size, played at random: how many."""
    sessions, rng, channel = Sessions(await Store.open(path), think_budget_s=0.01), random.Random(36), 0
    for game in GAME_IDS:
        ruleset = get_ruleset(game)
        for players in sorted({ruleset.min_players, ruleset.max_players}):
            channel += 1
            seats = [Seat(1000 + i, f"player {i}") for i in range(players)]
            await sessions.lobby.create(channel_id=channel, guild_id=1, host=seats[0], game=game, options={})
            for seat in seats[1:]:
                await sessions.lobby.join(channel, seat)
            await sessions.lobby.start(channel, seats[0].user_id)
            await play_at_random(sessions, channel, rng, ACTIONS_PER_GAME)
    await sessions.store.close()
    return channel


def build(path: str, games: int) -> None:
    templates = asyncio.run(_templates(path))
    with closing(sqlite3.connect(path)) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(games)") if row[1] not in ("id", "channel_id")]
        listed = ", ".join(columns)
        db.execute("PRAGMA journal_mode=OFF")   # the copies written once, straight into the file
        db.execute("PRAGMA synchronous=OFF")
        with db:
            for copy in range(1, -(-games // templates)):
                shift = copy * templates
                db.execute(f"INSERT INTO games (id, channel_id, {listed}) SELECT id + ?, channel_id + ?, {listed} "
                           f"FROM games WHERE id <= ?", (shift, shift, templates))
                db.execute("INSERT INTO actions SELECT game_id + ?, seq, seat, user_id, action, legal, at, events "
                           "FROM actions WHERE game_id <= ?", (shift, templates))
            db.execute("DELETE FROM actions WHERE game_id > ?", (games,))
            db.execute("DELETE FROM games WHERE id > ?", (games,))
        db.execute("PRAGMA journal_mode=WAL")   # as the bot keeps it


def _writer(path: str, stop: threading.Event) -> int:
    """A bot's writes meanwhile: an action appended to game 1 again and again (its own log positions)."""
    written = 0
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("PRAGMA busy_timeout=5000")
        seq = db.execute("SELECT max(seq) FROM actions").fetchone()[0] + 1_000_000
        while not stop.is_set():
            db.execute("INSERT INTO actions (game_id, seq, action, legal, at) VALUES (1, ?, 'roll', 1, 0)",
                       (seq + written,))
            written += 1
            time.sleep(0.005)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.backup", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--dir", default=tempfile.gettempdir())
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir) as scratch:
        live, copy, restored = (str(Path(scratch) / name)
                                for name in ("live.sqlite3", "copy.sqlite3", "restored.sqlite3"))
        started = time.perf_counter()
        build(live, args.games)
        with closing(sqlite3.connect(live)) as db:
            db.execute("PRAGMA journal_mode=WAL")
            games, actions = (db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("games", "actions"))
        print(f"database: {games:,} games, {actions:,} actions, {os.path.getsize(live) / 1e6:,.0f} MB "
              f"(built in {time.perf_counter() - started:.0f} s)")
        stop, counted = threading.Event(), []
        writer = threading.Thread(target=lambda: counted.append(_writer(live, stop)))
        writer.start()
        backup = copy_database(live, copy)
        stop.set()
        writer.join()
        print(f"backup:  {backup.seconds:.1f} s wall ({backup.size / 1e6:,.0f} MB, {backup.games:,} games; "
              f"{counted[0]} writes by another connection meanwhile)")
        build_target = copy_database(copy, restored)   # a database of the same size to restore over
        restore = restore_database(copy, restored)
        print(f"restore: {restore.seconds:.1f} s wall ({restore.games:,} games; over a database of "
              f"{build_target.size / 1e6:,.0f} MB)")
        asyncio.run(_upgrade_and_privacy(restored))


async def _upgrade_and_privacy(path: str) -> None:
    """The restored database taken back to schema 9, opened by today's code (migration 10 indexes every action
    by its person); then what /game privacy reads, for a person in no game and one in every game
    (the templates' host)."""
    with closing(sqlite3.connect(path)) as db:
        db.executescript("DROP INDEX IF EXISTS actions_by_user; DROP TABLE IF EXISTS guilds_left; "
                         "PRAGMA user_version=9;")
    started = time.perf_counter()
    store = await Store.open(path)
    print(f"upgrade: {time.perf_counter() - started:.1f} s wall to open it at schema 9 (migration 10)")
    try:
        for user in (12345, 1000):
            started = time.perf_counter()
            kept = await store.privacy.kept_about(user)
            print(f"privacy: {(time.perf_counter() - started) * 1000:,.0f} ms for /game privacy's counts of a person "
                  f"in {kept['games']:,} games")
    finally:
        await store.close()


if __name__ == "__main__":
    main()
