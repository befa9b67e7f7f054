"""Pariti end to end: a whole two-player game through the fake Discord.

Every move is picked piece first (a select of the pieces that can move), then its destination among
the buttons of an ephemeral board on which that piece's reachable squares are drawn.
"""

import pytest

from bot.domain import i18n
from bot.games.pariti_board import START_SQUARES
from renderer.pariti import DARK_SQUARE, LIGHT_SQUARE, PIECE, PIECE_FILL, centre, square_box
from tests.e2e.table import Table, check_png, everything_shown, save_png, stored, told_alone, two_players

pytestmark = pytest.mark.e2e

COLOURS = ("blue", "pink")


def square_colour(pixel) -> bool:
    return pixel in (LIGHT_SQUARE, DARK_SQUARE)


def piece_colour(pixel) -> bool:
    return pixel in PIECE_FILL.values()


def probes():
    """A square's corner shows the board, a start square's piece its colour (all 32 start filled, PA-2.1)."""
    x0, y0, _, _ = square_box(0)
    x, y = centre(START_SQUARES[0])
    return [((x0 + 3, y0 + 3), square_colour), ((round(x), round(y - PIECE * 0.38)), piece_colour)]


async def test_two_users_play_a_whole_game(fake_discord, bot_process):
    """No dice (`/game roll` refused, ephemerally); piece then destination until a win or a draw (PA-5)."""
    fake_discord.quiet = 0.1
    players = two_players(fake_discord)
    table = Table(fake_discord, players, "pariti", seed=11)
    first = await table.open()
    table.opened(first, COLOURS, probes())

    before = stored(bot_process.database)
    for player in players:   # whoever asks, in their own language
        reply = await told_alone(fake_discord, await fake_discord.slash(player, table.channel, "game roll"))
        assert reply.content == i18n.text("error.no_dice", i18n.locale_of(player.locale))
    assert stored(bot_process.database) == before, "asking for a roll changed the game"

    plays = await table.play_to_the_end(limit=400)
    table.ended(bot_process.database, COLOURS, outcomes=("🏆", i18n.text("result.draw", "en")))
    assert stored(bot_process.database)[0][0][3] == plays

    kinds = "".join(c.kind for c in table.played)
    assert kinds == "ga" * plays, f"not piece then destination every time: {kinds}"
    focused = table.panels
    assert len(focused) == plays, "a panel of choices a move"
    assert not [m for m in everything_shown(fake_discord, table.channel, players) if m.ephemeral and m.files], \
        "each panel closed by its move (one line, no picture)"
    for message in focused[::10]:
        check_png(message.files[0].bytes, COLOURS)
    save_png(focused[len(focused) // 2].files[0].bytes, "/tmp/e2e_pariti_focus.png")
