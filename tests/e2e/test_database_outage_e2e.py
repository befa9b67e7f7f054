"""PostgreSQL stopped in the middle of a game: `python -m bot` on a server of the test's own
(tests/postgres_cluster.py). While it is down, every command and click is answered within 3 s, to the user
alone, that the game's storage is not reachable; once the same server is back the bot carries on without a
restart, the game where it was. The log says so in one line per fault, with no traceback. The same when the
disk under a SQLite file fails and turns read-only (tests/failing_disk.py)."""
import asyncio
import shutil
import sqlite3
import sys

import pytest

from bot.domain.verify import verify
from bot.store import Store
from tests.conftest import REPO
from tests.e2e.table import Game, Table, board_version, choices, roll_id, said, stored, two_players
from tests.failing_disk import failing_disk

pytestmark = pytest.mark.e2e


async def test_while_postgresql_is_down_every_interaction_is_answered_and_the_game_goes_on_after(
        fake_discord, own_postgres, postgres_bot, tmp_path):
    fake, bot = fake_discord, postgres_bot
    players = two_players(fake)
    table = Table(fake, players, "parcheesi", seed=6)
    await table.open(forced_moves=False)   # each click one action: the log is compared with what was played
    await table.play(4)
    await table.play_until(lambda: roll_id(table.board()) is not None, limit=20)
    board = await table.live_board()
    # Retired boards are folded into the one before them once up a while (docs/channel.md), the database
    # or not: what the channel shows is read once they are.
    await table.folded()
    # What the channel shows (a board edited since the start is older than the fair-dice message after it).
    shown = [(m.id, m.content) for m in fake.messages(table.channel) if not m.ephemeral]
    own_postgres.stop()

    status = await fake.slash(players[1], table.channel, "game status")
    click = await table.roll(board)
    for answer, user in ((status, players[1]), (click, table.to_act(board))):
        reply = answer.followups[0] if answer.followups else answer.message   # a click's answer follows it
        assert answer.ack_seconds < 3 and reply.ephemeral, answer.describe()
        assert reply.content == said("storage.error.unreachable", user)
    assert table.board().id == board.id                                    # nothing shown
    assert [(m.id, m.content) for m in fake.messages(table.channel) if not m.ephemeral] == shown

    own_postgres.start()
    answer = await fake.slash(players[1], table.channel, "game status")
    assert answer.content != said("storage.error.unreachable", players[1])
    await table.play(4)                     # the same process, the game where it was
    assert bot.running and not fake.unanswered()
    store = await Store.open(own_postgres.url)
    record = await store.games.open_game(table.channel.id)
    assert [a.seq for a in await store.games.actions(record.id)] == list(range(record.version))
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
    """The disk under the SQLite file fails and the kernel makes it read-only (SQLite): every
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


async def test_computer_players_cut_short_by_the_database_resume_once_and_the_board_shows_where_they_are(
        fake_discord, bot_process):
    """The database goes out of reach between two computer moves (another process holds the SQLite file's lock
    past the bot's busy timeout, taken right after a computer's first action of the turn was written) and comes
    back: the computers resume once, nothing is played twice, no action is lost, and the
    table sees one live board, of the stored position, pinging the person."""
    fake, database, log = fake_discord, bot_process.database, bot_process.log_path
    fake.quiet = 0.1
    ana = fake.add_user("ana")
    table = Table(fake, [ana], "parcheesi", seed=4)
    game = Game(database, "parcheesi", fake)
    await fake.slash(ana, table.channel, "game new", game="parcheesi")
    for _ in range(2):
        await fake.slash(ana, table.channel, "game add-bot", level="hard")   # a second's thought per turn
    await fake.click(ana, fake.last_message(table.channel, lambda m: "Start" in [b.get("label") for b in m.buttons]),
                     label="Start")

    async def anas_board(what: str):
        """The board of the stored position once it is ana's turn (the computers' turns played and shown)."""
        return await fake.wait_until(lambda: game.ruleset.to_move(game.state()) == game.seat(ana) and
                                     choices(b := table.board()) and board_version(b) == game.row()[3] and b,
                                     timeout=15, what=what)

    # The computers may play first: the database is locked only after one of theirs that ana's click started
    # (locked during the first turns, the board would show a computer's turn, which no click of ana's plays).
    await anas_board("ana's first turn")
    for _ in range(30):
        version = game.row()[3]
        click = asyncio.create_task(table.play_once())
        lock = await locked_after_a_computer_action(database, version, click)
        if lock is not None and game.ruleset.to_move(game.state()) != game.seat(ana):
            break                                                   # the computers are cut short
        if lock is not None:
            lock.close()
        await click
    else:
        pytest.fail("no click of ana's handed the turn to the computers")
    cut_at = game.row()[3]
    await fake.wait_until(lambda: "computer players stopped" in log.read_text(), timeout=10, what="the computers cut")
    lock.execute("ROLLBACK")
    lock.close()
    await click
    shown = await anas_board("the computers' moves played and shown")
    assert game.row()[3] > cut_at
    assert ana.mention in shown.content
    assert [m.id for m in fake.messages(table.channel) if m.custom_ids and m.files] == [shown.id]   # one live board
    store = await Store.open(str(database))
    record = await store.games.open_game(table.channel.id)
    actions = await store.games.actions(record.id)
    await store.close()
    assert [a.seq for a in actions] == list(range(record.version))    # each action once, none lost
    assert verify(game.ruleset, record, actions).ok                   # the log replays to the stored snapshot
    text = log.read_text()
    assert "Traceback" not in text and text.count("computer players stopped") == 1
    assert bot_process.running and not fake.unanswered()


async def locked_after_a_computer_action(database, version: int, click: asyncio.Task) -> sqlite3.Connection | None:
    """Once a computer's action follows `version` in the log, the file locked by this process (its connection,
    in an open exclusive transaction); None if the click ended first."""
    while not click.done():
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
            users = [user for (user,) in db.execute("SELECT user_id FROM actions WHERE seq >= ?", (version,))]
        if None in users:
            lock = sqlite3.connect(database, isolation_level=None)
            lock.execute("BEGIN EXCLUSIVE")
            return lock
        await asyncio.sleep(0.01)
    return None
