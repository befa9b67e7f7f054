"""Write the upgrade tests' fixtures: for each earlier schema version k (1 to len(MIGRATIONS) - 1), the SQL dump
of a SQLite database made by the first k migrations of bot/store/schema.py and holding games as the code of that
version stored them, in the columns it had: a finished Pariti game with its seats drawn at random (its dice and
seats verifiable), a Parcheesi game in play with a turn time, a lobby, and a player's time away, turn
notifications and a server's defaults where those tables existed.

The games are played by today's services on a scratch database, then copied column by column into each
version's tables (a column a later migration added is left out, as that code never wrote it). Run from the
repository's root when a migration is added (the version before it then needs its fixture; the test
tests/test_upgrades.py says so); a fixture already written is kept as it is, the record of its version:

    python -m tests.schema_fixtures.make
"""
from __future__ import annotations

import asyncio
import random
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from bot.domain.player_actions import ROLL
from bot.domain.positions import ruleset_of
from bot.services import Seat, Sessions
from bot.store import Store
from bot.store.schema import MIGRATIONS, spelled

HERE = Path(__file__).parent
GUILD = 81_000_000_000_000_001
ANA, BRUNO, CARLA = 81_000_000_000_000_011, 81_000_000_000_000_012, 81_000_000_000_000_013
FINISHED, IN_PLAY, LOBBY = 9001, 9002, 9003   # their channels


def fixture(version: int) -> Path:
    return HERE / f"schema_v{version}.sql"


async def play_at_random(sessions: Sessions, channel: int, rng: random.Random, limit: int) -> None:
    """Random legal play by whoever is to move (the computers answer by themselves), at most `limit` actions."""
    record = await sessions.channels.current(channel)
    for _ in range(limit):
        if record.status != "active":
            return
        ruleset = ruleset_of(record)
        state = ruleset.from_json(record.state)
        action = ROLL if ruleset.roll_due(state) else rng.choice(ruleset.legal_actions(state))
        record = (await sessions.play.act(channel, record.seats[ruleset.to_move(state)].user_id, action)).record


async def play_games(path: str) -> None:
    sessions, rng = Sessions(await Store.open(path), think_budget_s=0.05), random.Random(36)
    ana, bruno, carla = Seat(ANA, "ana"), Seat(BRUNO, "Bruno 🎲", locale="fr"), Seat(CARLA, "carla")
    await sessions.lobby.create(channel_id=FINISHED, guild_id=GUILD, host=ana, game="pariti",
                                options={"seating": "random"})
    await sessions.lobby.join(FINISHED, bruno)
    await sessions.lobby.start(FINISHED, ANA)
    await play_at_random(sessions, FINISHED, rng, 2000)
    await sessions.lobby.create(channel_id=IN_PLAY, guild_id=GUILD, host=bruno, game="parcheesi",
                                options={"seating": "lobby", "turn_time": 86400})
    await sessions.lobby.join(IN_PLAY, carla)
    await sessions.lobby.add_computer(IN_PLAY, BRUNO, "normal")
    await sessions.lobby.start(IN_PLAY, BRUNO)
    await play_at_random(sessions, IN_PLAY, rng, 12)
    await sessions.lobby.create(channel_id=LOBBY, guild_id=GUILD, host=carla, game="barricade", options={})
    await sessions.deadlines.set_turn_notifications(ANA, True)
    await sessions.away.go_away(CARLA, 3, sessions.store._clock())
    await sessions.store.defaults.set(GUILD, {"turn_time": 43200})
    await sessions.store.close()


def columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]


def dump(source: str, version: int) -> str:
    """The SQL of a database at schema `version` holding `source`'s rows, in that version's columns."""
    with closing(sqlite3.connect(":memory:")) as db, closing(sqlite3.connect(source)) as src:
        for migration in MIGRATIONS[:version]:
            for statement in migration:
                db.execute(spelled(statement, "sqlite"))
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            kept = [c for c in columns(db, table) if c in columns(src, table)]
            rows = src.execute(f"SELECT {', '.join(kept)} FROM {table}").fetchall()
            db.executemany(f"INSERT INTO {table} ({', '.join(kept)}) VALUES ({', '.join('?' * len(kept))})", rows)
        db.commit()
        return "\n".join(db.iterdump()) + f"\nPRAGMA user_version={version};\n"


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        source = str(Path(scratch) / "today.sqlite3")
        asyncio.run(play_games(source))
        for version in range(1, len(MIGRATIONS)):
            if fixture(version).exists():
                continue
            fixture(version).write_text(dump(source, version), encoding="utf-8")
            print(f"wrote {fixture(version)}")


if __name__ == "__main__":
    main()
