"""Server defaults: new games on a server take them unless their own options say otherwise; only members
who may manage the server change them."""
import pytest

from bot.games.base import GameError
from bot.services import Seat, Sessions
from bot.store import Store

ANN = Seat(1, "Ann")


@pytest.fixture
async def sessions(tmp_path):
    store = await Store.open(str(tmp_path / "d.sqlite3"))
    yield Sessions(store)
    await store.close()


async def test_new_games_take_the_server_defaults_and_their_own_options_win(sessions):
    assert await sessions.defaults.of(7) == {}
    await sessions.defaults.change(7, True, {"turn_time": 3600, "on_timeout": "skip", "seating": "lobby"})
    plain = (await sessions.lobby.create(channel_id=1, guild_id=7, host=ANN, game="parcheesi", options={})).record
    assert plain.options == {"turn_time": 3600, "on_timeout": "skip", "seating": "lobby"}
    own = (await sessions.lobby.create(channel_id=2, guild_id=7, host=ANN, game="pariti",
                                       options={"turn_time": 60, "seating": "random"})).record
    assert own.options == {"turn_time": 60, "on_timeout": "skip", "seating": "random"}
    elsewhere = (await sessions.lobby.create(channel_id=3, guild_id=8, host=ANN, game="pariti", options={})).record
    assert elsewhere.options == {"seating": "random"}


async def test_a_default_set_to_none_is_removed_and_the_others_kept(sessions):
    await sessions.defaults.change(7, True, {"turn_time": 3600, "seating": "lobby"})
    assert await sessions.defaults.change(7, True, {"turn_time": None}) == {"seating": "lobby"}
    assert await sessions.defaults.of(7) == {"seating": "lobby"}


async def test_without_manage_server_or_with_a_bad_value_nothing_changes(sessions):
    await sessions.defaults.change(7, True, {"seating": "lobby"})
    with pytest.raises(GameError) as refused:
        await sessions.defaults.change(7, False, {"seating": "random"})
    assert refused.value.message.key == "defaults.error.manage_server"
    with pytest.raises(GameError):
        await sessions.defaults.change(7, True, {"on_timeout": "explode"})
    assert await sessions.defaults.of(7) == {"seating": "lobby"}
