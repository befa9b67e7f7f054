"""`python -m bot`: what a self-hoster gets wrong first is said in one line on stderr, with a
non-zero exit and no traceback: a wrong token, Discord out of reach, a database that cannot be used."""
import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot import i18n

pytestmark = pytest.mark.e2e
REPO = Path(__file__).resolve().parent.parent


async def run_bot(token: str, api_base: str, database: Path | str) -> tuple[int, str]:
    env = {**os.environ, "DISCORD_TOKEN": token, "DISCORD_API_BASE": api_base, "TABLERO_DATABASE": str(database),
           "TABLERO_LOG_LEVEL": "ERROR"}
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env, cwd=REPO,
                                                   stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(process.communicate(), timeout=60)
    return process.returncode, err.decode()


def one_line(stderr: str, key: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    template = i18n.text(key, "en", url="\0", path="\0", reason="\0")
    assert all(part in lines[0] for part in template.split("\0")), stderr
    return lines[0]


async def test_a_token_discord_refuses_is_one_line(fake_discord, tmp_path):
    code, stderr = await run_bot("not-the-token", fake_discord.api_base, tmp_path / "t.sqlite3")
    assert code == 1
    one_line(stderr, "cli.bad_token")
    assert list(tmp_path.iterdir()) == [], "a failed start leaves no empty database behind"


@pytest.mark.parametrize("api_base", ["http://discord.invalid/api/v10", "http://127.0.0.1:9/api/v10"])
async def test_discord_out_of_reach_is_one_line(api_base, tmp_path):
    """A name that does not resolve (DNS), a port where nothing listens."""
    code, stderr = await run_bot("any", api_base, tmp_path / "t.sqlite3")
    assert code == 1
    assert api_base in one_line(stderr, "cli.unreachable")
    assert list(tmp_path.iterdir()) == [], "a failed start leaves no empty database behind"


async def test_a_failed_start_keeps_a_database_that_was_there(tmp_path):
    database = tmp_path / "t.sqlite3"
    database.write_bytes(b"")   # an empty file is a valid empty SQLite database: it is the user's
    code, _ = await run_bot("any", "http://127.0.0.1:9/api/v10", database)
    assert code == 1 and database.exists()


async def test_a_database_that_cannot_be_opened_or_written_is_one_line(fake_discord, tmp_path):
    not_sqlite = tmp_path / "notes.txt"
    not_sqlite.write_text("not a database, and long enough for SQLite to look at its header " * 4)
    for database in (tmp_path / "no such folder" / "t.sqlite3", not_sqlite):
        code, stderr = await run_bot(fake_discord.token, fake_discord.api_base, database)
        assert code == 1
        assert str(database) in one_line(stderr, "cli.bad_database")


async def test_a_postgresql_database_out_of_reach_is_one_line_without_its_password(fake_discord):
    for url in ("postgresql://postgres:secret@127.0.0.1:1/tablero",                  # nothing listens there
                "postgresql://postgres:secret@127.0.0.1:5432/no_such_database_here"):  # no such database
        code, stderr = await run_bot(fake_discord.token, fake_discord.api_base, url)
        assert code == 1
        assert "secret" not in one_line(stderr, "cli.bad_postgresql")
