"""Parchís Maghreb end to end: a whole two-player game with cheats through the fake Discord.

Honest play through the board's buttons, then, in order: a call-out naming a piece that did not move,
answered as a wrong call-out that uses up the turn's call (MG-10.3, MG-10.5), a cheat typed
into the "Other move…" modal and caught with the Call out button (MG-10.4), a cheat typed into
`/game move` that nobody calls out before the opponent's roll, so it stands (MG-10.3, MG-10.6).
Then both players race: each types the furthest move the bot accepts, legal or not, and nobody
calls out, so the game ends in a few dozen turns (an honest random game takes some 640 actions).
The bot never says whether a move was legal (MG-10.2).
"""

import re

import pytest

from bot.games.parcheesi.maghreb_state import piece_code
from tests.e2e.table import (
    button_id,
    call_out,
    cheat,
    cheating_table,
    left_nothing,
    let_the_window_close,
    roll_id,
    said,
    save_png,
    told_alone,
)

pytestmark = pytest.mark.e2e

GAME = "parchis-maghreb"
ROLL = re.compile(r"r[1-6]")
REVEALING = re.compile(r"illegal|cheat|trich|légal|legal", re.IGNORECASE)


def furthest(action: str) -> int:
    """Racing: bring pieces out first, then the longest move."""
    if action.startswith("out:"):
        return 100
    return int(action.split("+")[1]) if "+" in action else 0


async def test_two_users_play_a_whole_game_with_cheats(fake_discord, bot_process):
    """MG-10.1 to MG-10.6 through Discord, then a race to the end (MG-9.1)."""
    fake_discord.quiet = 0.1
    table, game = await cheating_table(fake_discord, bot_process.database, GAME, seed=3)
    await table.play(60)   # honest, through the board's buttons

    # MG-10.3, MG-10.5: the player about to roll names, with /game call, a piece of the player on record that
    # did not move: an invalid call-out, answered as one; it uses up his call-out (the button, a second call).
    await table.play_until(lambda: roll_id(table.board()) and game.calls(table.to_act(table.board())), limit=200)
    board = table.board()
    caller = table.to_act(board)
    before = game.state_json()["pieces"]
    moved = {piece_code(piece) for piece, _ in game.state_json()["log"]}
    still = next(call for call in game.calls(caller) if call.removeprefix("call:") not in moved)
    answer = await fake_discord.slash(caller, table.channel, "game call", piece=still)
    assert left_nothing(answer), answer.describe()   # the board says what came of it
    assert game.state_json()["pieces"] == before
    # The board calls the player to act, recounts the opponent's turn, then the call-out and its answer.
    assert "nothing changes" in table.board().content.splitlines()[-1], table.board().content
    assert not button_id(table.board(), "c"), "nothing left to call: no Call out"
    again = await told_alone(fake_discord, await fake_discord.slash(caller, table.channel, "game call",
                                                                    piece=f"call:{next(iter(moved))}"))
    assert again.content == said("error.cannot_call", caller)
    assert game.state_json()["pieces"] == before
    assert roll_id(table.board()), "the caller still has to roll"

    # MG-10.4: a cheat typed into "Other move…", caught with the Call out button.
    done = await cheat(table, game, typed_in="modal", revealing=REVEALING)
    save_png(table.board().files[0].bytes, "/tmp/e2e_maghreb_after_cheat.png")
    await call_out(fake_discord, done.opponent, table.board(), f"call:{piece_code(game.state().last_piece)}")
    assert game.state_json()["pieces"] == done.before["pieces"], "the position before the illegal move is back"
    text = (await table.current()).content   # the select's answer may settle before the new board is posted
    assert "Sorry, I cheated" in text and table.to_act(table.board()) is done.cheater, text
    save_png(table.board().files[0].bytes, "/tmp/e2e_maghreb_caught.png")

    # MG-10.3, MG-10.6: a cheat typed into /game move; the opponent rolls without calling: it stands.
    done = await cheat(table, game, typed_in="command", revealing=REVEALING)
    await let_the_window_close(table, game, done, ROLL)

    # The race: the furthest accepted move each time, typed; nobody calls out.
    for _ in range(400):
        board = await table.live_board()
        if board is None:
            break
        if roll_id(board):
            await table.roll(board)
            continue
        state = game.state()
        best = max(game.ruleset.accepted_actions(state), key=furthest)
        reply = await fake_discord.slash(table.to_act(board), table.channel, "game move", move=best)
        assert left_nothing(reply), reply.describe()
    table.ended(bot_process.database)
