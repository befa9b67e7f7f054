"""Upgrades: a database written at each earlier schema version (tests/schema_fixtures/, made by
`python -m tests.schema_fixtures.make`) opens with today's code, its games go on and /game verify still checks
their dice; a database newer than the code is refused in one line and left untouched."""
import hashlib
import os
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest

from bot.domain.player_actions import ROLL
from bot.domain.positions import ruleset_of
from bot.services import Seat, Sessions
from bot.store import Store
from bot.store.schema import MIGRATIONS, SchemaTooNew
from tests.conftest import REPO
from tests.schema_fixtures.make import ANA, BRUNO, CARLA, FINISHED, GUILD, IN_PLAY, LOBBY, fixture

EARLIER = range(1, len(MIGRATIONS))


def written_at(version: int, path) -> str:
    with closing(sqlite3.connect(path)) as db:
        db.executescript(fixture(version).read_text(encoding="utf-8"))
        assert db.execute("PRAGMA user_version").fetchone()[0] == version
    return str(path)


def test_every_earlier_schema_version_has_its_fixture():
    assert [v for v in EARLIER if not fixture(v).exists()] == [], "run python -m tests.schema_fixtures.make"


@pytest.mark.parametrize("version", EARLIER)
async def test_a_database_of_an_earlier_schema_opens_and_its_games_go_on(version, tmp_path):
    store = await Store.open(written_at(version, tmp_path / "old.sqlite3"))
    sessions = Sessions(store, think_budget_s=0.05)
    try:
        with closing(sqlite3.connect(tmp_path / "old.sqlite3")) as db:
            assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)

        # migration 11 named each game's people: a person's games are found (/game privacy, /game forget)
        assert [r.channel_id for r in await store.privacy.games_of(BRUNO)] == [FINISHED, IN_PLAY]
        finished = await sessions.records.game_for(GUILD, FINISHED, None, ANA)
        said = await sessions.records.verification(finished)          # what /game verify answers
        assert said.key == "verify.ok_seating" and said.params["rolls"] >= 0, said

        record = await sessions.channels.current(IN_PLAY)                       # the game in play goes on
        before = record.version
        for _ in range(6):
            ruleset = ruleset_of(record)
            state = ruleset.from_json(record.state)
            action = ROLL if ruleset.roll_due(state) else ruleset.legal_actions(state)[0]
            record = (await sessions.play.act(IN_PLAY, record.seats[ruleset.to_move(state)].user_id, action)).record
        assert record.version > before and len(await store.games.actions(record.id)) == record.version
        assert [c.record.id for c in await sessions.deadlines.turn_clocks()] == [record.id]   # its deadline is kept

        await sessions.lobby.join(LOBBY, Seat(ANA, "ana"))                 # the lobby fills and starts
        assert (await sessions.lobby.start(LOBBY, CARLA)).record.status == "active"
        wants_dm = (await store.people.of({ANA, BRUNO, CARLA}))[1]
        assert wants_dm == ({ANA} if version >= 2 else set())
    finally:
        await store.close()


def newer_database(path) -> str:
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    return str(path)


async def test_the_store_refuses_a_database_newer_than_the_code(tmp_path):
    with pytest.raises(SchemaTooNew) as refused:
        await Store.open(newer_database(tmp_path / "new.sqlite3"))
    assert (refused.value.found, refused.value.known) == (len(MIGRATIONS) + 1, len(MIGRATIONS))


def test_start_up_refuses_a_newer_database_in_one_line_and_leaves_it_untouched(tmp_path):
    path = newer_database(tmp_path / "new.sqlite3")
    before = hashlib.sha256(open(path, "rb").read()).hexdigest()
    env = {**os.environ, "DISCORD_TOKEN": "not-used", "TABLERO_DATABASE": path,
           "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}   # never reached: the database is refused first
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    line, = [said for said in done.stderr.splitlines() if " INFO " not in said]   # the log's lines aside
    assert f"schema version {len(MIGRATIONS) + 1}" in line and f"Tablero's {len(MIGRATIONS)}" in line, line
    assert hashlib.sha256(open(path, "rb").read()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.sqlite3"]
