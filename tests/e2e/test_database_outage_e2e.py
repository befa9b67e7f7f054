"""PostgreSQL stopped in the middle of a game (issue 25, point 2): `python -m bot` on a server of the test's own
(tests/postgres_cluster.py). While it is down, every command and click is answered within 3 s, to the user
alone, that the game's storage is not reachable; once the same server is back the bot carries on without a
restart, the game where it was. The log says so in one line per fault, with no traceback."""
import pytest

from bot.store import Store
from tests.e2e.table import Table, roll_id, said, two_players

pytestmark = pytest.mark.e2e


async def test_while_postgresql_is_down_every_interaction_is_answered_and_the_game_goes_on_after(
        fake_discord, own_postgres, postgres_bot, tmp_path):
    fake, bot = fake_discord, postgres_bot
    players = two_players(fake)
    table = Table(fake, players, "parcheesi", seed=6)
    await table.open()
    await table.play(4)
    await table.play_until(lambda: roll_id(table.board()) is not None, limit=20)
    board = await table.live_board()
    own_postgres.stop()

    status = await fake.slash(players[1], table.channel, "game status")
    click = await table.roll(board)
    for answer, user in ((status, players[1]), (click, table.to_act(board))):
        reply = answer.followups[0] if answer.followups else answer.message   # a click's answer follows it
        assert answer.ack_seconds < 3 and reply.ephemeral, answer.describe()
        assert reply.content == said("storage.error.unreachable", user)
    assert table.board().id == board.id and fake.messages(table.channel)[-1].id == board.id   # nothing shown

    own_postgres.start()
    answer = await fake.slash(players[1], table.channel, "game status")
    assert answer.content != said("storage.error.unreachable", players[1])
    await table.play(4)                     # the same process, the game where it was
    assert bot.running and not fake.unanswered()
    store = await Store.open(own_postgres.url)
    record = await store.open_game(table.channel.id)
    assert [a.seq for a in await store.actions(record.id)] == list(range(record.version))
    await store.close()
    log = bot.log_path.read_text()
    assert "Traceback" not in log
    assert log.count("the database is out of reach") == 2      # one line per interaction refused
