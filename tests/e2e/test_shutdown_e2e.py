"""SIGTERM, which `docker stop` sends (and SIGKILL 10 s later): the bot answers the interactions under way,
closes the store and exits 0, losing nothing. The click is held in flight by the fake (its board's post
kept back) when the signal comes. Right after a game ends, the animation being drawn (seconds of CPU) is left
undrawn rather than waited for."""

import asyncio
import sqlite3
import time

import pytest

from tests.e2e.table import Table, in_play, start_caught_up, two_players

pytestmark = pytest.mark.e2e


def stored(database) -> tuple[int, int | None]:
    """The game's version and the version its recorded board shows."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return db.execute("SELECT version, board_version FROM games").fetchone()


def logged_actions(database) -> int:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]


async def test_sigterm_with_a_click_in_flight_answers_it_then_exits_0_within_10_s(fake_discord, bot_process):
    table = Table(fake_discord, two_players(fake_discord), "pariti", seed=3)
    board = await table.open()
    version, _ = stored(bot_process.database)
    held = fake_discord.hold("POST", "/webhooks/{app}/{token}", before=True)   # the move's new board (a follow-up)
    clicking = asyncio.create_task(table.move(table.to_act(board), board))
    await held.wait()                                          # the move is stored; its board not posted yet

    started = time.monotonic()
    stopping = asyncio.create_task(bot_process.terminate(timeout=10))
    await fake_discord.wait_until(lambda: "SIGTERM" in bot_process.log_path.read_text(),
                                  what="the bot to have the signal")  # it has; Discord answers late
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

    await start_caught_up(fake_discord, bot_process)           # nothing is left to catch up: no second board
    assert table.board().id == new_board.id


async def test_sigterm_while_a_finished_games_animation_is_drawn_leaves_it_undrawn_and_loses_nothing(fake_discord,
                                                                                                    bot_process):
    """80 positions: 80 frames of about 50 ms of CPU each. The drawing stops at the frame after the signal, so
    the stop does not wait for it (it did: seconds, SIGKILL on a busy machine); the game, its result and its
    final board are stored, and the restarted bot has nothing to catch up."""
    ana, bruno = two_players(fake_discord)
    table = Table(fake_discord, [ana, bruno], "parcheesi", seed=5)
    await table.open()
    await table.play_until(lambda: logged_actions(bot_process.database) >= 80, limit=400)
    await fake_discord.slash(ana, table.channel, "game resign")
    final = table.board()
    assert not in_play(final) and [f.filename for f in final.files] == ["board.png"]
    drawing = f"drawing the animation of game 1 ({logged_actions(bot_process.database)} actions)"
    await fake_discord.wait_until(lambda: drawing in bot_process.log_path.read_text(), what="the drawing started")

    assert await bot_process.terminate(timeout=10) == 0
    log = bot_process.log_path.read_text()
    undrawn = "the animation of game 1 is left undrawn: the bot is stopping"
    assert log.index(drawing) < log.index("SIGTERM") < log.index(undrawn), log[-2000:]   # stopped mid-drawing
    assert "Traceback" not in log
    assert [f.filename for f in table.board().files] == ["board.png"] and table.board().id == final.id
    version, board_version = stored(bot_process.database)
    assert board_version == version                            # the final board, recorded

    await start_caught_up(fake_discord, bot_process)           # nothing left to catch up: no second board
    assert table.board().id == final.id
    history = await fake_discord.slash(bruno, table.channel, "game history")
    assert history.ephemeral and "🏆" in history.content     # the game and its result, as they were



async def test_sigterm_right_after_a_repost_lets_the_board_it_replaced_go_first_and_logs_no_traceback(fake_discord,
                                                                                                      bot_process):
    """A board shown again retires the one before with nothing new to tell: it is deleted once it has been up a
    second or so. A stop waits for that within its drain, rather than close Discord's connection under it
    ("Session is closed", a traceback)."""
    ana, bruno = two_players(fake_discord)
    table = Table(fake_discord, [ana, bruno], "pariti", seed=3)
    await table.open()
    await fake_discord.slash(bruno, table.channel, "game board")
    first = table.board()
    await fake_discord.slash(bruno, table.channel, "game board")
    second = table.board()
    assert await bot_process.terminate(timeout=10) == 0
    assert "Traceback" not in bot_process.log_path.read_text()
    shown = [m.id for m in fake_discord.messages(table.channel)]
    assert second.id in shown and first.id not in shown, (first.id, second.id, shown)
