"""`python -m bot` on PostgreSQL (TABLERO_DATABASE=postgresql://...): a game through the fake Discord, the
bot killed with SIGKILL mid-game and restarted on the same database; the game carries on from where it
was, every click stored once."""
import sys

import pytest

from bot.store import Store
from tests.conftest import REPO
from tests.e2e.table import Table, two_players

pytestmark = pytest.mark.e2e


async def test_a_game_on_postgresql_survives_a_kill_and_goes_on(fake_discord, postgresql_database, tmp_path):
    database = postgresql_database
    bot = fake_discord.client_process([sys.executable, "-m", "bot"], cwd=REPO, log_path=tmp_path / "bot.log",
                                      env={"TABLERO_DATABASE": database})
    await bot.start()
    try:
        players = two_players(fake_discord)
        table = Table(fake_discord, players, "parcheesi", seed=4)
        await table.open()
        await table.play(12)
        await bot.kill()
        await bot.start()
        await table.play(12)
    finally:
        await bot.terminate()
    store = await Store.open(database)
    record = await store.games.open_game(table.channel.id)
    actions = await store.games.actions(record.id)
    await store.close()
    assert [a.seq for a in actions] == list(range(record.version))
    assert record.version >= 24   # each play at least one stored action (a roll or a move)
