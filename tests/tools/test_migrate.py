"""python -m bot.tools.migrate: a SQLite server's games, played through the session service, copied to a real
PostgreSQL database and checked; a target holding games is refused; a copy that does not replay is caught."""
import asyncio
import hashlib
import itertools
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import make_url

from bot.console.game import play as console_play
from bot.core.game_records import Seat
from bot.domain import dice
from bot.services import Sessions
from bot.store import Store
from tests.game_logs import play

GAMES = ("parcheesi", "parcheesi-classic", "parchis-maghreb", "barricade", "pariti")


async def _fill(path: str) -> None:
    """A SQLite file as a server leaves it: games of every ruleset finished and open, a lobby, an ended game,
    votes, notification choices, bot facts."""
    store = await Store.open(path)
    for n, game in enumerate(GAMES):
        await play(store, game, channel=100 + n, seed=n, max_actions=300, resign=1)   # finished
        await play(store, game, channel=200 + n, seed=n, max_actions=40 + n)          # open
    sessions = Sessions(store)
    await sessions.lobby.create(channel_id=300, guild_id=9, host=Seat(1, "user1"), game="barricade", options={})
    await play(store, "pariti", channel=301, max_actions=10)
    await sessions.endings.end(301, 1, can_manage=True)
    open_game = await store.games.open_game(200)
    await store.deadlines.set_vote(open_game.id, 1, 1, "computer")
    await store.people.set_turn_notifications(2, True)
    await store.set_bot_fact("commands", "digest")
    await store.close()


@pytest.fixture(scope="module")
def filled_server(tmp_path_factory) -> Path:
    """_fill's file, made once for the module (hundreds of moves through the session service); its games' dice
    from seeds of their own, the same on every run, as tests/conftest.py's reproducible_seeds gives a test."""
    path = tmp_path_factory.mktemp("server") / "server.sqlite3"
    count = itertools.count()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dice, "new_seed", lambda: hashlib.sha256(f"{__name__}.server#{next(count)}".encode()).hexdigest())
        asyncio.run(_fill(str(path)))
    assert [p.name for p in path.parent.iterdir()] == [path.name]   # all in one file (no journal left)
    return path


@pytest.fixture
def server(filled_server, tmp_path) -> str:
    """A copy of the filled server's file, this test's own to migrate or spoil."""
    path = tmp_path / "server.sqlite3"
    shutil.copyfile(filled_server, path)
    return str(path)


def _migrate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot.tools.migrate", *args], capture_output=True, text=True,
                          timeout=120)


async def test_every_row_is_copied_and_checked(server, postgresql_database):
    done = _migrate(server, postgresql_database)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith("OK")
    source, target = await Store.open(server), await Store.open(postgresql_database)
    for channel in (100, 104, 200, 204, 300, 301):
        record = await source.games.latest_game(channel)
        assert await target.games.latest_game(channel) == record
        assert await target.games.actions(record.id) == await source.games.actions(record.id)
    assert await target.games.finished_games(9) == await source.games.finished_games(9)
    opened = await target.games.open_game(200)
    assert await target.deadlines.votes(opened.id, 1) == {1: "computer"}
    assert (await target.people.of({2}))[1] == {2} and await target.bot_fact("commands") == "digest"
    newer = await target.games.create_game(guild_id=9, channel_id=400, game="pariti", host=Seat(1, "a"), locale="en",
                                           options={}, seed="00" * 32)
    assert newer.id > max(r.id for r in await source.games.finished_games(9))  # new ids follow the copied ones
    await source.close()
    await target.close()


async def test_a_target_holding_games_is_refused_unless_forced(server, postgresql_database):
    assert _migrate(server, postgresql_database).returncode == 0
    refused = _migrate(server, postgresql_database)
    assert refused.returncode == 2 and "already holds games" in refused.stderr
    forced = _migrate(server, postgresql_database, "--force")
    assert forced.returncode == 0, forced.stdout + forced.stderr


def test_an_open_game_whose_snapshot_is_not_its_log_replayed_is_reported(server, postgresql_database):
    with sqlite3.connect(server) as db:
        (game_id, state), = db.execute("SELECT id, state FROM games WHERE channel_id=201")
        state = json.loads(state)
        db.execute("UPDATE games SET state=? WHERE id=?", (json.dumps({**state, "turn": 1 - state["turn"]}), game_id))
    done = _migrate(server, postgresql_database)
    assert done.returncode == 1
    assert f"game {game_id} (open): its snapshot is not the replay of its log" in done.stdout


def test_a_missing_source_file_is_refused(tmp_path, postgresql_database):
    done = _migrate(str(tmp_path / "none.sqlite3"), postgresql_database)
    assert done.returncode == 2 and "no such SQLite file" in done.stderr
    assert not (tmp_path / "none.sqlite3").exists()


def test_a_target_database_that_does_not_exist_is_named_in_one_line_with_what_creates_it(server, postgresql_database):
    missing = make_url(postgresql_database).set(database="tablero_not_created").render_as_string(hide_password=False)
    done = _migrate(server, missing)
    assert done.returncode == 2 and "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
    assert "'tablero_not_created' does not exist" in done.stderr
    assert "createdb -h 127.0.0.1 -p 5432 -U postgres tablero_not_created" in done.stderr


async def test_an_empty_sqlite_file_warns_that_nothing_was_copied_and_names_the_consoles_file(tmp_path,
                                                                                            postgresql_database):
    empty = str(tmp_path / "tablero.sqlite3")
    await (await Store.open(empty)).close()
    done = _migrate(empty, postgresql_database)
    assert done.returncode == 0
    assert "holds no games: nothing was copied" in done.stderr and "tablero-console.sqlite3" in done.stderr


async def test_the_console_s_database_is_refused_its_games_are_not_the_bot_s(tmp_path, postgresql_database):
    """Its games live under pretend channels: the bot would post there (404s) and end them."""
    console = str(tmp_path / "tablero-console.sqlite3")
    assert await console_play("pariti", ["human", "easy"], console, str(tmp_path / "b.png"), "en",
                              lambda prompt="": "q", lambda line: None) == 0
    done = _migrate(console, postgresql_database)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert "holds the terminal console's games (python -m bot play; 1 found)" in done.stderr
    target = await Store.open(postgresql_database)
    try:
        assert await target.games.count_in([], inside=False) == 0
    finally:
        await target.close()
