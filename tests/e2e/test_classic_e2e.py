"""Classic Parcheesi end to end: a whole two-player game with infractions through the fake Discord.

Random legal play through the board's buttons, with, on the way: a call-out of a turn without
infraction (PC-9.5), an infraction typed into the "Other move…" modal and called out with the Call
out button (PC-9.4: the pawn is blown home), and one typed into `/game move` that nobody calls out
before the next player's roll, so it stands (PC-9.3). The bot never announces an infraction (PC-9.2).
"""

import re

import pytest

from bot.games.parcheesi.board import HOUSE
from tests.e2e.table import (
    Game,
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

GAME = "parcheesi-classic"
ROLL = re.compile(r"r[1-6]")
REVEALING = re.compile(r"infraction|illegal|cheat|souffl|légal|legal|triche", re.IGNORECASE)


def at_home(game: Game, user) -> int:
    seat = game.seat(user)
    return game.state().pos[4 * seat:4 * seat + 4].count(HOUSE)


async def test_two_users_play_a_whole_game_with_infractions(fake_discord, bot_process):
    """PC-9.1 to PC-9.5 through Discord, the game played to its end (PC-10)."""
    fake_discord.quiet = 0.05
    table, game = await cheating_table(fake_discord, bot_process.database, GAME, seed=13)

    # PC-9.5: the next player, before rolling, calls out a turn without infraction: nothing changes.
    await table.play_until(lambda: roll_id(table.board()) and game.calls(table.to_act(table.board()))
                           and not game.state().cheats, limit=300)
    board = table.board()
    caller = table.to_act(board)
    before = game.state().pos
    reply = await fake_discord.slash(caller, table.channel, "game call", piece=game.calls(caller)[0])
    assert left_nothing(reply) and game.state().pos == before
    assert "no infraction" in table.board().content, table.board().content

    # PC-9.4: an infraction typed into "Other move…", called out with the Call out button.
    done = await cheat(table, game, typed_in="modal", revealing=REVEALING)
    home = at_home(game, done.cheater)
    await call_out(fake_discord, done.opponent, table.board(), game.calls(done.opponent)[0])
    text = (await table.current()).content   # the select's answer may settle before the new board is posted
    assert "blown back to the house" in text and at_home(game, done.cheater) == home + 1, text
    save_png(table.board().files[0].bytes, "/tmp/e2e_classic_blown.png")

    # PC-9.3: an infraction typed into /game move; the next player rolls without calling: it stands.
    done = await cheat(table, game, typed_in="command", revealing=REVEALING)
    await let_the_window_close(table, game, done, ROLL)
    before = game.row()
    reply = await told_alone(fake_discord, await fake_discord.slash(done.opponent, table.channel, "game call",
                                                                    piece="call"))
    assert reply.content == said("error.cannot_call", done.opponent) and game.row() == before

    await table.play_to_the_end(limit=900)
    table.ended(bot_process.database)
