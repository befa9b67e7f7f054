"""The lobby message: how many players it asks for, who sits where."""
from bot.present.lobby import lobby_post
from bot.services import Seat

ANN = Seat(1, "Ann", locale="en-US")


async def test_team_lobby_asks_for_exactly_four_players(sessions):
    """PM-10.1: two against two is four players, whatever the free-for-all range is."""
    record = (await sessions.lobby.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi",
                                          options={"teams": True})).record
    text = lobby_post(record).content
    assert "4 players" in text and "2 to 4" not in text


async def test_free_for_all_lobby_gives_the_ruleset_range(sessions):
    record = (await sessions.lobby.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi", options={})).record
    assert "2 to 4 players" in lobby_post(record).content


async def test_pariti_lobby_says_who_has_the_even_numbers(sessions):
    """PA-1.3, PA-3.1: both players move blue and pink pieces; parity sets them apart."""
    record = (await sessions.lobby.create(channel_id=1, guild_id=1, host=ANN, game="pariti",
                                          options={"seating": "lobby"})).record
    assert "even numbers, plays first" in lobby_post(record).content


async def test_once_started_the_lobby_says_so_and_who_sits_where(sessions):
    """PM-1.9: the seats drawn at the start, with their colours, replace "looking for players"."""
    await sessions.lobby.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi", options={})
    await sessions.lobby.add_computer(1, ANN.user_id, "easy")
    record = (await sessions.lobby.start(1, ANN.user_id)).record
    text = lobby_post(record).content
    assert "has started" in text and "looking for players" not in text and "Join" not in text
    assert "yellow" in text and "red" in text and not lobby_post(record).controls


async def test_an_open_lobby_gives_no_colours_which_change_as_players_join(sessions):
    await sessions.lobby.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi", options={"seating": "lobby"})
    record = (await sessions.lobby.add_computer(1, ANN.user_id, "normal")).record
    assert "yellow" not in lobby_post(record).content and "red" not in lobby_post(record).content
    assert "(plays first)" not in lobby_post(record).content and "— plays first (host)" in lobby_post(record).content


async def test_a_french_lobby_line_starts_a_computer_with_a_capital(sessions):
    """"l’ordinateur (normal)" in a sentence, "L’ordinateur (normal)" opening a line."""
    await sessions.lobby.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi", options={"seating": "lobby"},
                                locale="fr")
    record = (await sessions.lobby.add_computer(1, ANN.user_id, "normal")).record
    assert "\n2. L’ordinateur (normal)\n" in lobby_post(record).content
