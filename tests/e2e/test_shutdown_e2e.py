"""SIGTERM, which `docker stop` sends (and SIGKILL 10 s later): the bot answers the interactions under way,
closes the store and exits 0, losing nothing. The click is held in flight by the fake (its board's post
kept back) when the signal comes."""

import asyncio
import sqlite3
import time

import pytest

from tests.e2e.table import Table, in_play, two_players

pytestmark = pytest.mark.e2e


def stored(database) -> tuple[int, int | None]:
    """The game's version and the version its recorded board shows."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return db.execute("SELECT version, board_version FROM games").fetchone()


async def test_sigterm_with_a_click_in_flight_answers_it_then_exits_0_within_10_s(fake_discord, bot_process):
    table = Table(fake_discord, two_players(fake_discord), "pariti", seed=3)
    board = await table.open()
    version, _ = stored(bot_process.database)
    held = fake_discord.hold("POST", "/webhooks/{app}/{token}", before=True)   # the move's new board (a follow-up)
    clicking = asyncio.create_task(table.move(table.to_act(board), board))
    await held.wait()                                          # the move is stored; its board not posted yet

    started = time.monotonic()
    stopping = asyncio.create_task(bot_process.terminate(timeout=10))
    await asyncio.sleep(1.0)                                   # the bot has the signal; Discord answers late
    held.release()
    status = await stopping
    took = time.monotonic() - started

    assert status == 0 and took < 10, (status, took)
    answer = await clicking
    assert answer.ack_seconds is not None and answer.ack_seconds < 3
    assert not fake_discord.unanswered()
    new_board = table.board()
    assert new_board.id != board.id and in_play(new_board)     # the move's board went out before the exit
    assert stored(bot_process.database) == (version + 1, version + 1)   # the move and its board, both recorded
    log = bot_process.log_path.read_text()
    assert "SIGTERM" in log and "Traceback" not in log

    await bot_process.start()                                  # nothing is left to catch up: no second board
    await asyncio.sleep(1.0)
    assert table.board().id == new_board.id
