"""The end-to-end harness's own reading of the channel (tests/e2e/table.py), where the bot's order of writes
leaves a moment a test could misread."""

import asyncio
from pathlib import Path

import pytest

from tests.e2e.table import Table, board_version, roll_id, stored, two_players

pytestmark = pytest.mark.e2e

FOLLOWUP = "/webhooks/{app}/{token}"   # a click's new board: a follow-up of the click
HOOK_MESSAGE = "/webhooks/{app}/{token}/messages/{message}"   # a message edited or deleted through its token


async def test_the_current_board_is_the_one_posted_after_the_old_one_is_retired(fake_discord, bot_process):
    """A play that passes the turn retires the old board, then posts the new one; a starved bot may pause between
    the two longer than the fake's quiet period, and the click counts as settled in between (the new board's
    post held back here: the pause made as long as it takes). `board()` then gives the retired board, without
    controls; `current()` waits for the board of the stored position."""
    fake = fake_discord
    table = Table(fake, two_players(fake), seed=3)
    table.database = Path(bot_process.database)
    board = await table.open()
    for _ in range(40):
        held = fake.hold("POST", FOLLOWUP, before=True)
        play = asyncio.create_task(table.roll(board) if roll_id(board) else table.move(table.to_act(board), board))
        reached = asyncio.create_task(held.reached.wait())
        await asyncio.wait({play, reached}, return_when=asyncio.FIRST_COMPLETED)
        reached.cancel()
        if held.reached.is_set() and not table.board().custom_ids:
            # The turn passed: the old board retired (its text kept), the new one waiting to be posted.
            current = asyncio.create_task(table.current())
            await asyncio.sleep(0.5)   # (only to show that current() does not take the retired board meanwhile)
            assert not current.done(), "the harness took the retired board for the current one"
            held.release()
            await play
            board = await current
            assert board.custom_ids and board_version(board) == stored(bot_process.database)[0][0][3]
            return
        held.release()
        fake.drop_hold(held)
        answer = await play
        assert not [m for m in answer.followups if m.ephemeral]
        board = await table.current()
    pytest.fail("no play retired its board before posting the next in 40 plays")
