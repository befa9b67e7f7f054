"""Alt text of the board and replay pictures: the game, whose turn, the dice and every player's pieces in
words, in the message's language, never longer than Discord's 1,024 characters."""
from dataclasses import replace

import pytest

from bot import history, i18n
from bot.games import GAME_IDS
from bot.games.base import msg
from bot.present.alt_text import ALT_TEXT_LIMIT, board_alt, bounded, replay_alt
from bot.present.words import say, seat_name
from bot.services import ruleset_of
from tests.game_logs import play


@pytest.mark.parametrize("game", GAME_IDS)
async def test_every_position_of_a_game_is_described_within_the_limit_in_both_languages(store, game):
    record, actions = await play(store, game, players=(1, 2, 3, 4) if game.startswith("parcheesi") else (1, 2),
                                 max_actions=150, resign=1)
    ruleset = ruleset_of(record)
    states = [s.after for s in history.replay(ruleset, record, actions)]
    for state in states[::7] + [states[-1]]:
        shown = replace(record, state=ruleset.to_json(state), status="active")
        for loc in i18n.LOCALES:
            text = board_alt(shown, loc)
            assert len(text) <= ALT_TEXT_LIMIT
            assert text.startswith(i18n.text("alt.board", loc, game=say(record, msg(ruleset.name), loc)))
            described = [say(shown, line, loc) for line in ruleset.describe(state)]
            assert all(line in text for line in described), "the position as /game status tells it"
            # a computer's name shares its brackets with what follows ("Computer (easy, red)", issue 28)
            assert all(seat_name(shown, i, loc).rstrip(")").casefold() in text.casefold()
                       for i in range(len(shown.seats))), "every player named"
    over = board_alt(record, "fr")
    assert "user2" in over and len(over) <= ALT_TEXT_LIMIT   # the result, after user1 resigned


async def test_the_replay_says_which_game_how_long_and_how_it_ended(store):
    record, actions = await play(store, "pariti", max_actions=20, resign=1)
    assert replay_alt(record, len(actions), "en") == (f"Animated replay of Pariti: {len(actions)} rolls and moves. "
                                                      "🏆 user2 won the game!")
    assert replay_alt(record, 1, "fr").startswith("Rediffusion animée de Pariti\u00a0: 1 lancer ou coup.")


def test_a_description_too_long_is_cut_at_a_word_with_an_ellipsis():
    text = bounded(["word " * 300])
    assert ALT_TEXT_LIMIT - 5 <= len(text) <= ALT_TEXT_LIMIT and text.endswith("word…")
    assert bounded(["Short.", "", "Two lines."]) == "Short. Two lines."
