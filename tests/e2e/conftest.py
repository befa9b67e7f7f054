"""Fixtures of the end-to-end tests (the fake Discord and `bot_process` are in tests/conftest.py)."""
import sys

import pytest

from tests.conftest import REPO


@pytest.fixture
async def quick_bot(fake_discord, tmp_path):
    """`python -m bot` with TABLERO_MIN_TURN_TIME=1 (a documented setting): turn times of a few seconds."""
    database = tmp_path / "tablero.sqlite3"
    bot = fake_discord.client_process([sys.executable, "-m", "bot"], cwd=REPO, log_path=tmp_path / "bot.log",
                                      env={"TABLERO_DATABASE": str(database), "TABLERO_MIN_TURN_TIME": "1"})
    bot.database = database
    await bot.start()
    yield bot
    await bot.kill()   # as bot_process's (tests/conftest.py)


@pytest.fixture
async def postgres_bot(fake_discord, own_postgres, tmp_path):
    """`python -m bot` on a PostgreSQL server of the test's own (`own_postgres`), which the test may stop and start."""
    bot = fake_discord.client_process([sys.executable, "-m", "bot"], cwd=REPO, log_path=tmp_path / "bot.log",
                                      env={"TABLERO_DATABASE": own_postgres.url})
    bot.database = own_postgres.url
    await bot.start()
    yield bot
    await bot.kill()   # as bot_process's (tests/conftest.py)
