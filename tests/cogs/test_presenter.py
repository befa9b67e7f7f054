"""The presenter's texts (what players read), built from stored games."""
import pytest

from bot.cogs.presenter import lobby_post, result_line
from bot.sessions import Sessions
from bot.store import Seat, Store

ANN = Seat(1, "Ann", locale="en-US")


@pytest.fixture
async def sessions(tmp_path):
    store = await Store.open(str(tmp_path / "s.sqlite3"))
    yield Sessions(store, think_budget_s=0.05)
    await store.close()


async def test_team_lobby_asks_for_exactly_four_players(sessions):
    """PM-10.1: two against two is four players, whatever the free-for-all range is."""
    record = (await sessions.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi",
                                    options={"teams": True})).record
    text = lobby_post(record).content
    assert "4 players" in text and "2 to 4" not in text


async def test_free_for_all_lobby_gives_the_ruleset_range(sessions):
    record = (await sessions.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi", options={})).record
    assert "2 to 4 players" in lobby_post(record).content


async def test_pariti_lobby_says_who_has_the_even_numbers(sessions):
    """PA-1.3, PA-3.1: both players move blue and pink pieces; parity sets them apart."""
    record = (await sessions.create(channel_id=1, guild_id=1, host=ANN, game="pariti", options={})).record
    assert "even numbers, plays first" in lobby_post(record).content


async def test_two_winners_are_named_with_a_plural_verb(sessions):
    await sessions.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi", options={})
    await sessions.add_computer(1, ANN.user_id, "easy")
    await sessions.add_computer(1, ANN.user_id, "easy")
    await sessions.start(1, ANN.user_id)
    record = (await sessions.resign(1, ANN.user_id)).record
    assert result_line(record, "fr").endswith("gagnent la partie !")
    assert " and " in result_line(record, "en")
