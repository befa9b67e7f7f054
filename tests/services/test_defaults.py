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


async def test_a_game_s_language_is_its_own_else_the_server_default_else_the_server_s_discord_locale(sessions):
    """`/game new language:`, then `/game defaults language:`, then the server's Discord locale, then
    the host's."""
    async def opened(channel, guild, options, locale):
        return (await sessions.lobby.create(channel_id=channel, guild_id=guild, host=Seat(1, "Ann", locale="de"),
                                            game="parcheesi", options=options, locale=locale)).record.locale
    assert await opened(1, 7, {}, "es") == "es"                       # the server's Discord locale
    await sessions.defaults.change(7, True, {"language": "fr"})
    assert await opened(2, 7, {}, "es") == "fr"                       # the server's default wins over it
    assert await opened(3, 7, {"language": "en"}, "es") == "en"       # the game's own option wins over both
    assert await opened(4, 8, {}, None) == "de"                       # no server locale: the host's
    with pytest.raises(GameError):
        await sessions.defaults.change(7, True, {"language": "xx"})


def test_the_defaults_say_the_server_s_language():
    from bot.present.defaults import defaults_text
    assert defaults_text({}, "en").endswith("Language: the server's Discord language.")
    assert defaults_text({"language": "es"}, "en").endswith("Language: Español.")
    assert defaults_text({"language": "fr"}, "es").endswith("Idioma: Français.")
