"""The end-to-end harness's own reading of the channel (tests/e2e/table.py), where the bot's order of writes
leaves a moment a test could misread."""

import asyncio
from pathlib import Path

import pytest

from tests.e2e.table import Game, Table, board_version, button_id, roll_id, said, stored, told_alone, two_players
from tests.services.test_takeback import keeps_the_turn

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


async def test_a_refusal_after_a_public_deferral_is_read_once_it_follows(fake_discord, bot_process):
    """A command that would show the board is deferred in public ("thinking…"); refused, its loading message is
    deleted, then the refusal follows to the user alone (Discord would turn a first follow-up into the public
    loading message). The fake settles the command once the loading message is gone and the bot is quiet: a
    starved bot may pause longer than that (the follow-up held back here), so the refusal is waited for."""
    fake = fake_discord
    table = Table(fake, two_players(fake), "pariti", seed=11)
    await table.open()
    held = fake.hold("POST", FOLLOWUP, before=True)
    asked = await fake.slash(table.players[0], table.channel, "game roll")   # Pariti has no dice (PA-5)
    with pytest.raises(AssertionError, match="produced no message"):
        asked.message   # noqa: B018 (the reading that raced: settled, nothing told yet)
    told = asyncio.create_task(told_alone(fake, asked))
    held.release()
    assert (await told).content == said("error.no_dice", table.players[0])


async def test_a_click_may_settle_on_a_write_left_over_from_the_command_before_it(fake_discord, bot_process):
    """A command's board is its own response; the older board, left with nothing to say, is deleted after it.
    The fake settles the command once its response shows and the bot is quiet, so on a busy machine that
    deletion may come after the next click's acknowledgement, and the click (acknowledged as an update of its
    message) counts as settled on it, before its own board shows. Both writes held back here: the board read
    at once is the one before the click; the test waits for what the click shows (test_takeback_e2e)."""
    fake = fake_discord
    table = Table(fake, two_players(fake), seed=3)
    game = Game(bot_process.database, "parcheesi", fake)
    await table.open()
    await table.play_until(lambda: not game.ruleset.roll_due(game.state()) and keeps_the_turn(game.ruleset,
                                                                                             game.state()), 400)
    move, before, mover = keeps_the_turn(game.ruleset, game.state()), game.state(), table.to_act(table.board())
    trailing = fake.hold("DELETE", HOOK_MESSAGE, before=True)   # the older board's deletion
    await fake.slash(mover, table.channel, "game move", move=move)
    assert trailing.reached.is_set(), "the command settled before the older board went"
    board, clicks = table.board(), len(fake.interactions)
    undone = fake.hold("PATCH", HOOK_MESSAGE, before=True)      # the undo's board, as slow as a starved bot's
    click = asyncio.create_task(fake.click(mover, board, custom_id=button_id(board, "u")))
    await fake.wait_until(lambda: len(fake.interactions) > clicks and fake.interactions[-1].responded_at,
                          what="the undo acknowledged")
    trailing.release()
    await click
    assert "takes back their last move" not in table.board().content, "settled on the command's leftover"
    shown = asyncio.create_task(fake.wait_until(lambda: "takes back" in (b := table.board()).content and b,
                                                what="the board taken back"))
    undone.release()
    assert not button_id(await shown, "u") and game.state() == before
