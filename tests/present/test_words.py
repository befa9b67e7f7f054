"""Words every message uses: seat names, result lines."""
from bot.present.words import result_line, say, seat_name
from bot.services import Seat

ANN = Seat(1, "Ann", locale="en-US")


async def test_two_winners_are_named_with_a_plural_verb(sessions):
    await sessions.lobby.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi", options={})
    await sessions.lobby.add_computer(1, ANN.user_id, "easy")
    await sessions.lobby.add_computer(1, ANN.user_id, "easy")
    await sessions.lobby.start(1, ANN.user_id)
    record = (await sessions.endings.resign(1, ANN.user_id)).record
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
    await sessions.lobby.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi", options={"seating": "lobby"})
    for level in ("easy", "hard", "easy"):
        await sessions.lobby.add_computer(1, ANN.user_id, level)
    record = await sessions.channels.open_game(1)
    assert [seat_name(record, i, "en") for i in range(4)] == ["Ann", "Computer 1 (easy)", "Computer (hard)",
                                                              "Computer 2 (easy)"]


def computers_and_yasmine():
    from bot.services import GameRecord
    return GameRecord(id=1, guild_id=1, channel_id=1, game="parcheesi", status="active", host_id=1, locale="fr",
                      options={}, seats=(Seat(0, "", level="normal"), Seat(1, "Yasmine"), Seat(0, "", level="easy")),
                      seed="0", state=None, version=1)


def test_french_reads_a_computer_player_as_the_computer_with_one_pair_of_brackets():
    """"Au tour de l’ordinateur (normal)", "L’ordinateur (normal) joue en premier", "(normal, rouge)"."""
    from bot.domain.seating import announcement
    from bot.games import get_ruleset
    from bot.games.base import msg
    record = computers_and_yasmine()
    assert say(record, msg("parcheesi.event.next", seat=0), "fr") == "Au tour de l’ordinateur (normal)."
    assert say(record, msg("parcheesi.event.next", seat=1), "fr") == "Au tour de Yasmine."
    assert say(record, msg("game.resigned", seat=2), "fr").startswith("L’ordinateur (facile) ")
    seats = say(record, announcement(get_ruleset("parcheesi"), record), "fr")
    assert "l’ordinateur (normal, jaune), Yasmine (" in seats
    assert seats.endswith(" L’ordinateur (normal) joue en premier.")
    assert ") (" not in seats and ") (" not in say(record, announcement(get_ruleset("parcheesi"), record), "en")


async def test_a_computer_keeps_its_name_when_a_resignation_seats_another(sessions):
    bob, cy = Seat(2, "Bob"), Seat(3, "Cy")
    await sessions.lobby.create(channel_id=1, guild_id=1, host=ANN, game="parcheesi", options={"seating": "lobby"})
    await sessions.lobby.add_computer(1, ANN.user_id, "normal")
    await sessions.lobby.join(1, bob)
    await sessions.lobby.join(1, cy)
    before = (await sessions.lobby.start(1, ANN.user_id)).record
    assert seat_name(before, 1, "en") == "Computer (normal)"
    after = (await sessions.endings.resign(1, bob.user_id)).record
    assert seat_name(after, 1, "en") == "Computer (normal)" and seat_name(after, 2, "en") == "Computer 2 (normal)"
    again = (await sessions.endings.resign(1, cy.user_id)).record
    assert [seat_name(again, i, "en") for i in (1, 2, 3)] == ["Computer (normal)", "Computer 2 (normal)",
                                                              "Computer 3 (normal)"]


def test_long_names_are_shortened_apart_from_each_other_everywhere():
    """The same short name in every message and on the picture (which is given
    seat_name), and two long names sharing a beginning never shorten to the same text."""
    from bot.domain.names import NAME_LIMIT, short_names
    from bot.games.base import msg
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
    family = "👨\u200d👩\u200d👧\u200d👦"
    assert short_names([family * 13])[0] == family * 11 + "…"   # an emoji sequence is one letter, never cut in two
    assert short_names(["Zoe\u0301" * 4])[0] == "Zoe\u0301" * 4   # a combining accent is no letter of its own
