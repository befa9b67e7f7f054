"""Words every message uses: seat names, result lines."""
from bot.present.words import result_line, say, seat_name
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


def test_a_sentence_capitalises_our_words_and_never_a_players_name():
    from bot.games.base import msg
    from bot.present.words import sentence
    from bot.services import GameRecord
    record = GameRecord(id=1, guild_id=1, channel_id=1, game="parcheesi", status="active", host_id=1, locale="en",
                        options={}, seats=(Seat(1, "user2"), Seat(2, "éloïse"), Seat(0, "", level="easy")),
                        seed="0", state=None, version=1)
    assert sentence(record, msg("parcheesi.event.roll", seat=0, dice="2 + 5"), "en") == "user2 rolls 2 + 5."
    blown = msg("parcheesi.event.blown", pawn=msg("parcheesi.pawn", colour="red", number=2))
    assert sentence(record, blown, "en").startswith("Red 2 ")        # our words, nested, at the start
    assert sentence(record, msg("game.resigned", seat=1), "fr").startswith("éloïse ")
    assert sentence(record, msg("game.resigned", seat=2), "en").startswith("Computer (easy) ")
    assert sentence(record, msg("game.started", game=msg("game.parcheesi")), "en")[0].isupper()
    assert sentence(record, msg("seating.first", seat=0), "en").startswith("user2 plays first")
    assert say(record, blown, "en").startswith("red 2 ")              # only a sentence is capitalised


async def test_computer_players_of_the_same_level_get_different_names(sessions):
    await sessions.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi", options={"seating": "lobby"})
    for level in ("easy", "hard", "easy"):
        await sessions.add_computer(1, ANN.user_id, level)
    record = await sessions.open_game(1)
    assert [seat_name(record, i, "en") for i in range(4)] == ["Ann", "Computer 1 (easy)", "Computer (hard)",
                                                              "Computer 2 (easy)"]


def test_long_names_are_shortened_apart_from_each_other_everywhere():
    """Issue 23 point 6: the same short name in every message and on the picture (which is given
    seat_name), and two long names sharing a beginning never shorten to the same text."""
    from bot.games.base import msg
    from bot.names import NAME_LIMIT, short_names
    from bot.present.words import sentence
    from bot.services import GameRecord
    names = ("Alexandre Dupont-Martin", "Alexandre Dupont-Moreau", "Grand-mère Josette 🎲", "Bob")
    record = GameRecord(id=1, guild_id=1, channel_id=1, game="parcheesi", status="active", host_id=1, locale="en",
                        options={}, seats=tuple(Seat(i + 1, n) for i, n in enumerate(names)), seed="0", state=None,
                        version=1)
    shown = [seat_name(record, i, "en") for i in range(4)]
    assert shown == short_names(names) and len(set(shown)) == 4 and shown[3] == "Bob"
    assert all(len(name) <= NAME_LIMIT for name in shown) and shown[2] == "Grand-mère…"
    assert shown[0].startswith("Alexandre") and shown[0].endswith("n") and shown[1].endswith("u")
    assert sentence(record, msg("game.resigned", seat=0), "en").startswith(shown[0] + " ")
    family = "👨\u200d👩\u200d👧\u200d👦" * 4
    assert short_names([family])[0] == "👨\u200d👩\u200d👧\u200d👦" + "…"   # no emoji cut in two
