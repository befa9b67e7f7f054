"""Parchís Maghreb end to end: a whole two-player game with cheats through the fake Discord (issue 4).

Honest play through the board's buttons, then, in order: a wrong call-out (MG-10.5), a cheat typed
into the "Other move…" modal and caught with the Call out button (MG-10.4), a cheat typed into
`/game move` that nobody calls out before the opponent's roll, so it stands (MG-10.3, MG-10.6).
Then both players race: each types the furthest move the bot accepts, legal or not, and nobody
calls out, so the game ends in a few dozen turns (an honest random game takes some 640 actions).
The bot never says whether a move was legal (MG-10.2).
"""

import re

import pytest

from bot import i18n
from bot.games.parcheesi.maghreb_state import piece_code
from tests.e2e.table import (
    Game, Table, assert_all_answered, board_version, button_id, call_out, check_png, other_move, roll_id, save_png,
    save_transcript,
)

pytestmark = pytest.mark.e2e

GAME = "parchis-maghreb"
ROLL = re.compile(r"r[1-6]")
REVEALING = re.compile(r"illegal|cheat|trich|légal|legal", re.IGNORECASE)


def done(user) -> str:
    """What the bot answers a player for any accepted move, legal or not."""
    return i18n.text("ack.done", i18n.locale_of(user.locale))


def furthest(action: str) -> int:
    """Racing: bring pieces out first, then the longest move."""
    if action.startswith("out:"):
        return 100
    return int(action.split("+")[1]) if "+" in action else 0


async def test_two_users_play_a_whole_game_with_cheats(fake_discord, bot_process):
    """MG-10.1 to MG-10.6 through Discord, then a race to the end (MG-9.1)."""
    fake_discord.quiet = 0.1
    players = [fake_discord.add_user("ana", locale="en-US"), fake_discord.add_user("bruno", locale="fr")]
    table = Table(fake_discord, players, GAME, seed=3)
    game = Game(bot_process.database, GAME, fake_discord)
    first = await table.open()
    check_png(first.files[0].bytes)
    save_png(first.files[0].bytes, "/tmp/e2e_maghreb_start.png")
    await table.play(60)   # honest, through the board's buttons

    # MG-10.5: the player about to roll names a piece of the turn just played, all legal: nothing changes.
    await table.play_until(lambda: roll_id(table.board()) and game.calls(table.to_act(table.board())), limit=200)
    board = table.board()
    caller = table.to_act(board)
    before = game.state_json()["pieces"]
    await call_out(fake_discord, caller, board, game.calls(caller)[0])
    assert game.state_json()["pieces"] == before
    assert "→" not in table.board().content and "nothing changes" in table.board().content, table.board().content
    refusal = (await fake_discord.click(caller, table.board(), custom_id=button_id(table.board(), "c"))).message
    assert refusal.ephemeral and refusal.content == i18n.text("error.cannot_call", i18n.locale_of(caller.locale))
    assert roll_id(table.board()), "the caller still has to roll"

    # MG-10.4: a cheat typed into "Other move…", caught with the Call out button.
    await table.play_until(game.cheats, limit=300)
    board = table.board()
    cheater, caller = table.to_act(board), table.opponent(board)
    move = table.rng.choice(game.cheats())
    before = game.state_json()
    answer = await other_move(fake_discord, cheater, board, move)
    assert answer.message.ephemeral and answer.content == done(cheater)
    assert game.log()[-1][1:] == (move, False), "logged with its legality"
    assert not REVEALING.search(table.board().content), table.board().content
    save_png(table.board().files[0].bytes, "/tmp/e2e_maghreb_after_cheat.png")
    call = f"call:{piece_code(game.state().last_piece)}"
    await call_out(fake_discord, caller, table.board(), call)
    assert game.state_json()["pieces"] == before["pieces"], "the position before the illegal move is back"
    text = table.board().content
    assert "Sorry, I cheated" in text and table.to_act(table.board()) is cheater, text
    save_png(table.board().files[0].bytes, "/tmp/e2e_maghreb_caught.png")

    # MG-10.3, MG-10.6: a cheat typed into /game move; the opponent rolls without calling: it stands.
    await table.play_until(game.cheats, limit=300)
    board = table.board()
    cheater, opponent = table.to_act(board), table.opponent(board)
    move = table.rng.choice(game.cheats())
    reply = await fake_discord.slash(cheater, table.channel, "game move", move=move)
    assert reply.ephemeral and reply.content == done(cheater)
    assert not REVEALING.search(table.board().content), table.board().content
    cheat_at = len(game.log()) - 1
    assert game.log()[cheat_at][1:] == (move, False)
    window_closed = lambda: any(seat == game.seat(opponent) and ROLL.fullmatch(action)  # noqa: E731
                                for seat, action, _ in game.log()[cheat_at:])
    await table.play_until(window_closed, limit=100)
    board = table.board()
    refusal = (await fake_discord.click(opponent, board, custom_id=button_id(board, "c"))).message
    assert refusal.ephemeral and refusal.content == i18n.text("error.cannot_call", i18n.locale_of(opponent.locale))
    assert game.log()[cheat_at][1:] == (move, False) and board_version(table.board()) == board_version(board)

    # The race: the furthest accepted move each time, typed; nobody calls out.
    for _ in range(400):
        board = table.board()
        if not board.custom_ids:
            break
        if roll_id(board):
            await table.roll(board)
            continue
        state = game.state()
        best = max(game.ruleset.accepted_actions(state), key=furthest)
        reply = await fake_discord.slash(table.to_act(board), table.channel, "game move", move=best)
        assert reply.content == done(reply.user), reply.content
    final = table.board()
    assert "🏆" in final.content and not final.custom_ids, final.content
    check_png(final.files[0].bytes)
    save_png(final.files[0].bytes, "/tmp/e2e_maghreb_final.png")
    save_transcript(fake_discord, table.channel, players, "/tmp/e2e_maghreb.txt")
    assert_all_answered(fake_discord, table.channel, players)
    row = game.row()
    assert row[1] == "finished" and len(game.log()) == row[3]
