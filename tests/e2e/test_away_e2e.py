"""Time away end to end: `python -m bot` with turn times of a few seconds (the `quick_bot` fixture)."""
import pytest

from tests.e2e.table import Table, a_later_deadline_fired

pytestmark = pytest.mark.e2e
TURN_S = 4


async def test_a_deadline_does_not_expire_while_its_player_is_away_and_does_after(fake_discord, quick_bot):
    ana, bo = fake_discord.add_user("ana"), fake_discord.add_user("bo", locale="fr")
    game = Table(fake_discord, [ana, bo])
    await game.open(turn_time=f"{TURN_S}s", seating="lobby")   # ana rolls first
    table = game.channel

    away = await fake_discord.slash(ana, table, "game away", days=1)
    assert away.ephemeral and "You are away until <t:" in away.content and "29 days of time away left" in away.content
    await fake_discord.slash(bo, table, "game board")
    board = game.board()
    assert "ana is away until <t:" in board.content and ":D>" in board.content

    # past the reminder and the deadline the turn had before (a witness game of two others: ana is away)
    await a_later_deadline_fired(fake_discord, [fake_discord.add_user("carl"), fake_discord.add_user("dora")], TURN_S)
    assert not [m for m in fake_discord.messages(table) if "half of your time" in m.content
                or "ran out of time" in m.content]

    back = await fake_discord.slash(ana, table, "game away", days=0)
    assert back.ephemeral and "Welcome back" in back.content
    again = await fake_discord.slash(bo, table, "game away", days=0)
    assert "Aucune absence n’était en cours." in again.content
    reminder = await fake_discord.wait_for_message(table, lambda m: "half of your time" in m.content,
                                                   timeout=TURN_S * 2)
    await fake_discord.wait_for_message(table, lambda m: m.files and "ran out of time" in m.content,
                                        after=reminder, timeout=TURN_S * 2)
    assert "Traceback" not in quick_bot.log_tail(400)
    await fake_discord.slash(ana, table, "game end")
