"""`python -m bot check`: one line per result, without a token or Discord, nothing written to the database."""
import os
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest

from bot.store.schema import MIGRATIONS
from bot.tools.check import FAIL, OK, database_results, schema_result
from tests.conftest import REPO


def check(env: dict[str, str]) -> tuple[int, list[str]]:
    done = subprocess.run([sys.executable, "-m", "bot", "check"], cwd=REPO, capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"} | env, timeout=60)
    assert done.stderr == "" or "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout.splitlines()


def test_a_new_sqlite_database_passes_and_is_not_created(tmp_path):
    code, lines = check({"TABLERO_DATABASE": str(tmp_path / "t.sqlite3")})
    assert code == 0 and lines[0].startswith("ok: database") and "creates it" in lines[0]
    assert any(line.startswith(("ok: text layout", "FAIL: text layout")) for line in lines)
    assert lines[-1] == "warn: DISCORD_TOKEN: not set; the bot needs it to start"
    assert list(tmp_path.iterdir()) == []


def test_an_existing_sqlite_database_reports_its_schema_unchanged(tmp_path):
    path = tmp_path / "t.sqlite3"
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    code, lines = check({"TABLERO_DATABASE": str(path)})
    assert code == 1 and lines[:2] == [
        f"ok: database {path}: reached, and can be written",
        f"FAIL: schema version {len(MIGRATIONS) + 1}: newer than this code's {len(MIGRATIONS)} (a later Tablero "
        "wrote it): run that release, or restore a backup"]
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) + 1


@pytest.mark.parametrize("version, status, key", [(None, OK, "check.schema.empty"), (3, OK, "check.schema.older"),
                                                  (len(MIGRATIONS), OK, "check.schema.current")])
def test_every_schema_this_code_can_open_passes(version, status, key):
    result = schema_result(version)
    assert (result.status, result.key) == (status, key)


def test_postgresql_out_of_reach_fails_in_one_line_without_its_password_or_driver():
    [result] = database_results("postgresql://tablero:secret@127.0.0.1:1/tablero")
    assert result.status == FAIL
    line = result.line()
    assert "secret" not in line and "asyncpg" not in line and "postgresql://tablero:***@127.0.0.1:1/tablero" in line


def test_a_postgresql_database_is_checked_and_left_as_it_was():
    import asyncio

    import asyncpg
    async def make() -> None:
        admin = await asyncpg.connect("postgresql://postgres@127.0.0.1/postgres")
        await admin.execute("DROP DATABASE IF EXISTS tablero_check_test")
        await admin.execute("CREATE DATABASE tablero_check_test")
        await admin.close()
    asyncio.run(make())
    url = "postgresql://postgres@127.0.0.1/tablero_check_test"
    try:
        assert [(r.status, r.key) for r in database_results(url)] == [(OK, "check.database.writable"),
                                                                      (OK, "check.schema.empty")]
        async def tables() -> int:
            conn = await asyncpg.connect(url)
            try:
                return await conn.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
            finally:
                await conn.close()
        assert asyncio.run(tables()) == 0, "nothing was left behind"
    finally:
        async def drop() -> None:
            admin = await asyncpg.connect("postgresql://postgres@127.0.0.1/postgres")
            await admin.execute("DROP DATABASE IF EXISTS tablero_check_test")
            await admin.close()
        asyncio.run(drop())


def test_operating_md_s_example_shows_this_code_s_schema_version():
    """The example of docs/operating.md is check's own line for the current schema (it showed 9 at version 11)."""
    assert schema_result(len(MIGRATIONS)).line() in (REPO / "docs" / "operating.md").read_text()
