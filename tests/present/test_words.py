"""Words every message uses: result lines."""
from bot.present.words import result_line
from bot.services import Seat

ANN = Seat(1, "Ann", locale="en-US")


async def test_two_winners_are_named_with_a_plural_verb(sessions):
    await sessions.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi", options={})
    await sessions.add_computer(1, ANN.user_id, "easy")
    await sessions.add_computer(1, ANN.user_id, "easy")
    await sessions.start(1, ANN.user_id)
    record = (await sessions.resign(1, ANN.user_id)).record
    assert result_line(record, "fr").endswith("gagnent la partie !")
    assert " and " in result_line(record, "en")
