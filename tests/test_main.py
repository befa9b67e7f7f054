"""`python -m bot`: what a self-hoster gets wrong first is said in one line on stderr, with a
non-zero exit and no traceback: a wrong token, a database that cannot be used, a listener address; Discord out
of reach at start-up is waited out instead, one log line a try."""
import asyncio
import os
import socket
import sys
from pathlib import Path

import pytest

from bot.domain import i18n
from tests.conftest import free_port

pytestmark = pytest.mark.e2e
REPO = Path(__file__).resolve().parent.parent


async def run_bot(token: str, api_base: str, database: Path | str, **settings: str) -> tuple[int, str]:
    env = {**os.environ, "DISCORD_TOKEN": token, "DISCORD_API_BASE": api_base, "TABLERO_DATABASE": str(database),
           "TABLERO_LOG_LEVEL": "ERROR", **settings}
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env, cwd=REPO,
                                                   stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(process.communicate(), timeout=60)
    return process.returncode, err.decode()


async def forward(port: int, to: int) -> asyncio.Server:
    """A TCP relay from 127.0.0.1:port to 127.0.0.1:to."""
    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        finally:
            writer.close()

    async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", to)
        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer), return_exceptions=True)

    return await asyncio.start_server(relay, "127.0.0.1", port)


def one_line(stderr: str, key: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    template = i18n.text(key, "en", url="\0", path="\0", reason="\0", value="\0", address="\0")
    assert all(part in lines[0] for part in template.split("\0")), stderr
    return lines[0]


async def test_a_token_discord_refuses_is_one_line(fake_discord, tmp_path):
    code, stderr = await run_bot("not-the-token", fake_discord.api_base, tmp_path / "t.sqlite3")
    assert code == 1
    one_line(stderr, "cli.bad_token")
    assert list(tmp_path.iterdir()) == [], "a failed start leaves no empty database behind"


async def test_discord_out_of_reach_at_start_is_waited_out_one_line_a_try(fake_discord, tmp_path):
    """The network not up yet when the bot starts (here: nothing listens where DISCORD_API_BASE points): it
    tries again after 1, 2, 4 ... s, one log line a try, and connects once Discord answers there.

    In a fresh interpreter, not forked from the tests' zygote (tests/support/zygote.py): the bot's start
    as it is run, from its imports to its stop on SIGTERM."""
    port = free_port()
    log_path = tmp_path / "bot.log"
    bot = fake_discord.client_process([sys.executable, "-m", "bot"], cwd=REPO, log_path=log_path,
                                      env={"TABLERO_DATABASE": str(tmp_path / "t.sqlite3"),
                                           "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10"}, fork=False)
    starting = asyncio.create_task(bot.start(timeout=60))

    def tries() -> int:
        return log_path.read_text().count("Discord cannot be reached") if log_path.exists() else 0

    await fake_discord.wait_until(lambda: tries() >= 2, timeout=30, what="two tries")
    proxy = await forward(port, fake_discord.port)   # the network is back
    try:
        await starting
        log = log_path.read_text()
        assert "try 1 failed, trying again in 1 s" in log and "try 2 failed, trying again in 2 s" in log
        assert "Traceback" not in log and bot.running
        assert await bot.terminate() == 0   # SIGTERM: a clean stop
    finally:
        proxy.close()


async def test_a_failed_start_keeps_a_database_that_was_there(fake_discord, tmp_path):
    database = tmp_path / "t.sqlite3"
    database.write_bytes(b"")   # an empty file is a valid empty SQLite database: it is the user's
    code, _ = await run_bot("not-the-token", fake_discord.api_base, database)
    assert code == 1 and database.exists()


async def test_an_unreadable_listener_address_or_one_in_use_is_one_line(fake_discord, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        for address, key in (("9108", "cli.settings.bad_address"),
                             (f"127.0.0.1:{taken.getsockname()[1]}", "cli.http_in_use")):
            code, stderr = await run_bot(fake_discord.token, fake_discord.api_base, tmp_path / "t.sqlite3",
                                         TABLERO_HTTP=address)
            assert code == 1
            assert address in one_line(stderr, key)


async def test_a_database_that_cannot_be_opened_or_written_is_one_line(fake_discord, tmp_path):
    not_sqlite = tmp_path / "notes.txt"
    not_sqlite.write_text("not a database, and long enough for SQLite to look at its header " * 4)
    for database in (tmp_path / "no such folder" / "t.sqlite3", not_sqlite):
        code, stderr = await run_bot(fake_discord.token, fake_discord.api_base, database)
        assert code == 1
        assert str(database) in one_line(stderr, "cli.bad_database")


async def test_a_postgresql_database_out_of_reach_is_one_line_without_its_password(fake_discord):
    for url in ("postgresql://postgres:secret@127.0.0.1:1/tablero",                  # nothing listens there
                "postgresql+asyncpg://postgres:secret@127.0.0.1:port/tablero",     # a port that is no number
                "postgresql://postgres:secret@127.0.0.1:5432/no_such_database_here"):  # no such database
        code, stderr = await run_bot(fake_discord.token, fake_discord.api_base, url)
        assert code == 1
        assert "secret" not in one_line(stderr, "cli.bad_postgresql") and "asyncpg" not in stderr


async def test_the_console_s_database_is_refused_in_one_line(fake_discord, tmp_path):
    """Its games live under pretend channels: the bot would post there and end them."""
    from bot.console.game import play

    console = tmp_path / "tablero-console.sqlite3"
    assert await play("pariti", ["human", "easy"], str(console), str(tmp_path / "b.png"), "en",
                      lambda prompt="": "q", lambda line: None) == 0
    code, stderr = await run_bot(fake_discord.token, fake_discord.api_base, console)
    assert code == 1 and "Traceback" not in stderr
    assert stderr.strip() == i18n.text("cli.console_database", "en", database=console, count=1,
                                       default="tablero.sqlite3", console="tablero-console.sqlite3")
