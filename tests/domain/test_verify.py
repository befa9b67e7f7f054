"""Fair dice: a real game's log verifies against its seed; any altered roll or action is caught."""
import asyncio
import dataclasses
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import make_url

from bot.domain import dice
from bot.domain.positions import ruleset_of
from bot.domain.verify import verify
from bot.services import Seat, Sessions
from bot.store import is_postgresql
from bot.tools import backup
from tests.game_logs import play


@pytest.mark.parametrize("game", ["parcheesi", "parchis-maghreb", "barricade", "pariti"])
async def test_a_real_game_verifies(store, game):
    record, actions = await play(store, game, max_actions=400, resign=1)
    result = verify(ruleset_of(record), record, actions)
    assert result.ok and result.commitment == dice.commitment(record.seed)
    assert result.seating_matches is True, "seats drawn at random (the default) are checked too"
    assert result.rolls > 0 or game == "pariti"   # Pariti has no dice: only its set-up comes from the seed


async def test_a_tampered_roll_is_detected(store):
    record, actions = await play(store, "parcheesi", max_actions=60, resign=1)
    ruleset = ruleset_of(record)
    roll_at = next(i for i, a in enumerate(actions) if a.action.startswith("r"))   # "r<a>.<b>"
    others = [f"r{a}.{b}" for a in range(1, 7) for b in range(1, 7) if f"r{a}.{b}" != actions[roll_at].action]
    for other in others:   # the first other roll that the rules still accept here
        tampered = list(actions)
        tampered[roll_at] = dataclasses.replace(actions[roll_at], action=other)
        result = verify(ruleset, record, tampered)
        assert not result.ok
        if result.mismatches[0].expected:
            assert result.mismatches[0].seq == actions[roll_at].seq
            assert result.mismatches[0].expected == actions[roll_at].action
            return
    pytest.fail("no other roll could be substituted")


async def test_another_seed_or_set_up_is_detected(store):
    record, actions = await play(store, "pariti", max_actions=20, resign=1)
    ruleset = ruleset_of(record)
    assert not verify(ruleset, dataclasses.replace(record, seed="11" * 32), actions).ok


async def test_command_line_check(store, tmp_path):
    record, _ = await play(store, "parcheesi", max_actions=30, resign=1)
    done = subprocess.run([sys.executable, "-m", "bot.domain.verify", str(tmp_path / "t.sqlite3"), str(record.id)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "OK" in done.stdout and record.seed in done.stdout
    assert "the stored seats match: True" in done.stdout


async def test_the_command_line_leaves_a_backup_s_copy_as_it_is(store, tmp_path):
    """A backup is one self-contained file (journal mode DELETE): verify reads it without switching it to WAL."""
    record, _ = await play(store, "parcheesi", max_actions=30, resign=1)
    copy = tmp_path / "copy" / "tablero.sqlite3"
    copy.parent.mkdir()
    assert backup.main([str(copy), "--database", str(tmp_path / "t.sqlite3")]) == 0
    before = copy.read_bytes()
    assert run_verify(copy, record.id).returncode == 0
    assert copy.read_bytes() == before and sorted(p.name for p in copy.parent.iterdir()) == ["tablero.sqlite3"]


async def test_the_command_line_never_prints_the_seed_of_a_game_still_being_played(store, tmp_path):
    """The seed draws every roll to come: before the game is over only its fingerprint is shown."""
    record, _ = await play(store, "parcheesi", max_actions=10)
    assert record.status == "active"
    done = subprocess.run([sys.executable, "-m", "bot.domain.verify", str(tmp_path / "t.sqlite3"), str(record.id)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "still being played" in done.stderr
    assert record.seed not in done.stdout + done.stderr and dice.commitment(record.seed) in done.stderr


def run_verify(database, game_id):
    return subprocess.run([sys.executable, "-m", "bot.domain.verify", str(database), str(game_id)], capture_output=True,
                          text=True, timeout=60)


def test_a_file_that_does_not_exist_is_said_so_and_nothing_is_created(tmp_path):
    done = run_verify(tmp_path / "typo.sqlite3", 1)
    assert done.returncode == 2 and done.stdout == "" and done.stderr == f"{tmp_path / 'typo.sqlite3'}: no such file\n"
    assert list(tmp_path.iterdir()) == []


def test_verify_on_an_empty_database_says_so_and_writes_nothing(database, tmp_path):
    """docs/backup.md restores a PostgreSQL dump into a new, empty database: verify run there first (a read-only
    tool) must not create the tables the restore then trips on."""
    if not is_postgresql(database):
        Path(database).write_bytes(b"")   # an empty file is an empty SQLite database
    done = run_verify(database, 1)
    assert done.returncode == 2 and done.stdout == "" and "holds no Tablero games" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
    assert asyncio.run(tables(database)) == []


async def tables(database: str) -> list[str]:
    if not is_postgresql(database):
        with closing(sqlite3.connect(database)) as db:
            return [row[0] for row in db.execute("SELECT name FROM sqlite_master")]
    connection = await asyncpg.connect(make_url(database).set(drivername="postgresql").render_as_string(False))
    try:
        return [row[0] for row in await connection.fetch("SELECT tablename FROM pg_tables WHERE schemaname='public'")]
    finally:
        await connection.close()


async def test_a_game_that_never_started_is_answered_in_one_line(store, tmp_path):
    """Older releases stored the lobby of a console game whose --seats the game refused (`--seats human`: Pariti is
    for two, PA-1.3), ended unstarted."""
    sessions = Sessions(store)
    record = (await sessions.lobby.create(channel_id=3, guild_id=None, host=Seat(1, "Ann"), game="pariti",
                                          options={})).record
    await sessions.endings.end(3, 1, can_manage=True)
    done = run_verify(tmp_path / "t.sqlite3", record.id)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"game {record.id} (pariti) never started: nothing was drawn from its seed\n"


async def test_a_game_without_dice_says_it_checked_its_set_up_and_seats(store, tmp_path):
    """Pariti (PA-2.1: the set-up is random) has no dice: no "rolls checked: 0"."""
    record, _ = await play(store, "pariti", max_actions=20, resign=1)
    done = run_verify(tmp_path / "t.sqlite3", record.id)
    assert done.returncode == 0 and "rolls" not in done.stdout, done.stdout
    assert "checked the set-up the seed draws" in done.stdout and "the stored seats match: True" in done.stdout
    assert done.stdout.splitlines()[-1] == "OK: the seating and the set-up match the seed"
