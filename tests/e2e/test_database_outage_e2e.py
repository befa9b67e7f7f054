"""PostgreSQL stopped in the middle of a game (issue 25, point 2): `python -m bot` on a server of the test's own
(tests/postgres_cluster.py). While it is down, every command and click is answered within 3 s, to the user
alone, that the game's storage is not reachable; once the same server is back the bot carries on without a
restart, the game where it was. The log says so in one line per fault, with no traceback. The same when the
disk under a SQLite file fails and turns read-only (tests/failing_disk.py)."""
import shutil
import sys

import pytest

from bot.store import Store
from tests.conftest import REPO
from tests.e2e.table import Table, board_version, roll_id, said, stored, two_players
from tests.failing_disk import failing_disk

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


@pytest.fixture
async def bot_on_a_failing_disk(fake_discord, tmp_path):
    """`python -m bot` with its SQLite file on a disk of the test's own (tests/failing_disk.py)."""
    disk = failing_disk(tmp_path)
    bot = fake_discord.client_process(disk.command([sys.executable, "-m", "bot"]), cwd=REPO,
                                      log_path=tmp_path / "bot.log",
                                      env={"TABLERO_DATABASE": str(disk.mount_point / "tablero.sqlite3")})
    bot.disk = disk
    await bot.start()
    yield bot
    await bot.terminate()


def boards(fake, table: Table) -> list:
    """Every board and lobby posted in the table's channel, as (id, content, controls)."""
    return [(m.id, m.content, m.custom_ids) for m in fake.messages(table.channel) if m.files or m.custom_ids]


def stored_on(bot, copy_to) -> tuple:
    """The bot's stored games and actions, read from a copy of its database (its disk is its own)."""
    for suffix in ("", "-wal"):
        seen = bot.disk.path_seen_by(bot.process.pid, bot.disk.mount_point / f"tablero.sqlite3{suffix}")
        if seen.exists():
            shutil.copyfile(seen, copy_to / f"tablero.sqlite3{suffix}")
    return stored(copy_to / "tablero.sqlite3")


async def test_when_the_sqlite_file_turns_read_only_every_interaction_is_answered_and_nothing_is_lost(
        fake_discord, bot_on_a_failing_disk, tmp_path):
    """The disk under the SQLite file fails and the kernel makes it read-only (issue 25, point 2, SQLite): every
    move and command that would write is answered within 3 s, to the user alone, that the storage is not
    reachable; what was acknowledged before stays stored, the board shows it, and the bot runs on."""
    fake, bot = fake_discord, bot_on_a_failing_disk
    players = two_players(fake)
    table = Table(fake, players, "parcheesi", seed=6)
    await table.open()
    await table.play(3)
    board = await table.live_board()
    games, actions, shown = *stored_on(bot, tmp_path), boards(fake, table)
    assert board_version(board) == games[0][3] and len(actions) == games[0][3] >= 3
    bot.disk.fail()

    click = await (table.roll(board) if roll_id(board) else table.move(table.to_act(board), board))
    new = await fake.slash(players[0], fake.add_channel("another"), "game new", game="parcheesi")
    status = await fake.slash(players[1], table.channel, "game status")
    for answer, user in ((click, table.to_act(board)), (new, players[0])):
        reply = answer.followups[0] if answer.followups else answer.message
        assert answer.ack_seconds < 3 and reply.ephemeral, answer.describe()
        assert reply.content == said("storage.error.unreachable", user)
    assert status.ack_seconds < 3 and status.ephemeral            # a read: answered (what the file still shows)
    assert boards(fake, table) == shown and table.board().id == board.id    # nothing shown
    assert stored_on(bot, tmp_path) == (games, actions)          # nothing lost, nothing half-written
    assert bot.running and not fake.unanswered()
    log = bot.log_path.read_text()
    assert "Traceback" not in log and log.count("the database is out of reach") == 2
