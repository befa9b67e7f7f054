"""The sixth game (tests/sixth_game/: Line race, registered in bot.games.GAMES with its words and nothing else) end
to end: the bot, `python -m bot` with the game registered first (`python -m tests.sixth_game.run`), offers it in
/game new's menu and /game rules in both languages, and two users play a whole game through the board's controls.
"""
import pytest

from bot.domain import i18n
from tests.e2e.table import Table, two_players
from tests.sixth_game import register
from tests.sixth_game.rules import LineRace

pytestmark = pytest.mark.e2e

COLOURS = ("yellow", "blue")


@pytest.fixture
def line_race(monkeypatch):
    """This process knows the game too: the table reads the stored game through its ruleset."""
    register(monkeypatch.setattr, monkeypatch.setitem)


def game_choices(fake) -> list[dict]:
    """The choices of /game new's `game` option, as the bot synced them."""
    game = next(c for (_, kind, name), c in fake.commands.items() if kind == 1 and name == "game")
    new = next(o for o in game["options"] if o["name"] == "new")
    return next(o for o in new["options"] if o["name"] == "game")["choices"]


@pytest.mark.bot_program("tests.sixth_game.run")
async def test_two_users_find_the_sixth_game_in_the_menus_and_play_it_to_its_end(fake_discord, line_race, bot_process):
    fake_discord.quiet = 0.1
    last = game_choices(fake_discord)[-1]
    assert (last["value"], last["name"], last["name_localizations"]["fr"]) == (LineRace.id, "Line race",
                                                                                 "Course en ligne")
    players = two_players(fake_discord)
    table = Table(fake_discord, players, LineRace.id, seed=6)
    for player in players:   # the rules, in the reader's language
        reply = await fake_discord.slash(player, table.channel, "game rules", game=LineRace.id)
        assert reply.message.content == i18n.text(f"rules.{LineRace.id}", i18n.locale_of(player.locale))

    first = await table.open()
    assert first.content.startswith("🎲 <@") and "Seats drawn at random: " in first.content
    table.opened(first, COLOURS)
    await table.play_until(lambda: False, limit=40)
    final = table.ended(bot_process.database, COLOURS)
    told = [m.content for m in fake_discord.messages(table.channel) if m.id <= final.id][-2:]
    assert "moves to square 5." in "\n".join(told), told   # the winning move: on the final board or just above
