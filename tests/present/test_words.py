"""Words every message uses: seat names, result lines."""
from bot.present.words import result_line, seat_name
from bot.services import Seat

ANN = Seat(1, "Ann", locale="en-US")


async def test_two_winners_are_named_with_a_plural_verb(sessions):
    await sessions.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi", options={})
    await sessions.add_computer(1, ANN.user_id, "easy")
    await sessions.add_computer(1, ANN.user_id, "easy")
    await sessions.start(1, ANN.user_id)
    record = (await sessions.resign(1, ANN.user_id)).record
    assert result_line(record, "fr").endswith("gagnent la partie\u00a0!")
    assert " and " in result_line(record, "en")


async def test_computer_players_of_the_same_level_get_different_names(sessions):
    await sessions.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi", options={"seating": "lobby"})
    for level in ("easy", "hard", "easy"):
        await sessions.add_computer(1, ANN.user_id, level)
    record = await sessions.open_game(1)
    assert [seat_name(record, i, "en") for i in range(4)] == ["Ann", "Computer 1 (easy)", "Computer (hard)",
                                                              "Computer 2 (easy)"]
