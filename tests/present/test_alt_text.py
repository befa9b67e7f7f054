"""Alt text of the board and its animation: the game, whose turn, the dice and every player's pieces in
words, in the message's language, never longer than Discord's 1,024 characters."""
import random
import re
from dataclasses import replace

import pytest

from bot.core.game_records import Seat
from bot.domain import i18n, timeline
from bot.domain.positions import ruleset_of
from bot.games import GAME_IDS
from bot.games.base import msg
from bot.present.alt_text import ALT_TEXT_LIMIT, animation_alt, board_alt, bounded, own_first
from bot.present.board import board_post
from bot.present.words import result_line, say, seat_name, sentence
from tests.game_logs import play


@pytest.mark.parametrize("game", GAME_IDS)
async def test_every_position_of_a_game_is_described_within_the_limit_in_both_languages(store, game):
    record, actions = await play(store, game, players=(1, 2, 3, 4) if game.startswith("parcheesi") else (1, 2),
                                 max_actions=150, resign=1)
    ruleset = ruleset_of(record)
    states = [s.after for s in timeline.steps(ruleset, record, actions)]
    for state in states[::7] + [states[-1]]:
        shown = replace(record, state=ruleset.to_json(state), status="active")
        for loc in i18n.LOCALES:
            text = board_alt(shown, loc)
            assert len(text) <= ALT_TEXT_LIMIT
            assert text.startswith(i18n.text("alt.board", loc, game=say(record, msg(ruleset.name), loc)))
            described = [say(shown, line, loc) for line in ruleset.describe(state)]
            assert all(line in text for line in described), "the position as /game status tells it"
            # a computer's name shares its brackets with what follows ("Computer (easy, red)")
            assert all(seat_name(shown, i, loc).rstrip(")").casefold() in text.casefold()
                       for i in range(len(shown.seats))), "every player named"
            assert not re.search(r"(^|\s)-([\s.,;]|$)", text), "a dash read aloud: " + text
    over = board_alt(record, "fr")
    assert "user2" in over and len(over) <= ALT_TEXT_LIMIT   # the result, after user1 resigned


async def test_the_animation_says_which_game_how_long_and_how_it_ended(store):
    record, actions = await play(store, "pariti", max_actions=20, resign=1)
    assert animation_alt(record, len(actions), "en") == (f"Animated replay of Pariti: {len(actions)} moves. "
                                                      "🏆 user2 won the game!")
    assert animation_alt(record, 1, "fr").startswith("Rediffusion animée de Pariti\u00a0: 1 coup.")
    dice, dice_actions = await play(store, "parcheesi", channel=6, max_actions=20, resign=1)
    assert animation_alt(dice, len(dice_actions), "en").startswith(
        f"Animated replay of Parcheesi (Mundijeux): {len(dice_actions)} rolls and moves.")


def test_a_description_too_long_is_cut_at_a_word_with_an_ellipsis():
    text = bounded(["word " * 300])
    assert ALT_TEXT_LIMIT - 5 <= len(text) <= ALT_TEXT_LIMIT and text.endswith("word…")
    assert bounded(["Short.", "", "Two lines."]) == "Short. Two lines."


async def test_the_board_says_what_happened_since_the_players_last_turn(store):
    """The board message's sentences (every event since the player to move last
    played) are in the picture's description too, before the position."""
    record, actions = await play(store, "parcheesi", players=(1, 2, 3), max_actions=12)
    ruleset = ruleset_of(record)
    events = tuple(e for step in list(timeline.steps(ruleset, record, actions))[-4:] for e in step.events)
    post = board_post(record, events)
    said = [sentence(record, event, "en") for event in events]
    assert post.said and all(line in post.alt for line in said)
    # after the position (what the player needs to act comes first)
    assert post.alt.index(said[0]) > post.alt.index(
        say(record, ruleset.describe(ruleset.from_json(record.state))[-1], "en"))


async def test_after_a_long_absence_whose_turn_the_dice_and_the_pieces_come_first_and_the_story_is_shortened(store):
    """The description never passes Discord's 1,024 characters; whose turn it is, the dice,
    what may be done now and every player's pieces are all there, first; the story since the player's last
    turn keeps its latest sentences and says how many earlier ones it leaves out."""
    record, actions = await play(store, "parcheesi", players=(1, 2, 3, 4), max_actions=160)
    ruleset = ruleset_of(record)
    steps = list(timeline.steps(ruleset, record, actions))
    # a long absence
    assert len(" ".join(say(record, e, "en") for step in steps for e in step.events)) > 2 * ALT_TEXT_LIMIT
    state = ruleset.from_json(record.state)
    for loc in i18n.LOCALES:
        story = [say(record, e, loc) for step in steps for e in step.events]
        text = board_alt(record, loc, said=story)
        assert len(text) <= ALT_TEXT_LIMIT
        described = [say(record, line, loc) for line in ruleset.describe(state)]
        assert all(line in text for line in described), "the whole position"
        turn = next(line for line in reversed(described) if record.seats[ruleset.to_move(state)].name in line)
        assert text.index(turn) < min(text.index(line) for line in described if line != turn)
        seats = [line for line in ruleset.describe(state) if line.key.endswith(".describe.seat")]
        own = [text.index(say(record, line, loc)) for line in seats if line.params["seat"] == ruleset.to_move(state)]
        assert own and own[0] < min(text.index(say(record, line, loc)) for line in seats
                                    if line.params["seat"] != ruleset.to_move(state)), "their own pieces first"
        assert story[-1] in text and story[0] not in text
        left_out = i18n.text("alt.story_cut", loc, count=2).split(" ", 1)[1]   # after the count
        assert left_out in text and text.index(left_out) > max(text.index(line) for line in described)


async def test_a_bonus_to_play_after_both_dice_is_said_with_its_value(store):
    """Both dice spent and a bonus pending read "… plays the bonus of 20.", never "… plays ."
    in /game status's lines (the ruleset's description) and in the alt text."""
    record, _ = await play(store, "parcheesi", players=(1, 2, 3, 4), max_actions=4)
    ruleset = ruleset_of(record)
    found = None
    for seed in range(200):
        state, rng = ruleset.new_game(4, {}, seed), random.Random(seed)
        for _ in range(400):
            if state.dice and not [v for i, v in enumerate(state.dice) if not state.used >> i & 1] and state.bonus:
                found = state
                break
            if ruleset.result(state) is not None:
                break
            action = ruleset.random_roll(state, rng) if ruleset.roll_due(state) else \
                rng.choice(ruleset.legal_actions(state))
            state = ruleset.apply(state, action).state
        if found:
            break
    assert found is not None
    shown = replace(record, state=ruleset.to_json(found))
    for loc, plays in (("en", "plays the bonus of"), ("fr", "joue le bonus de")):
        text = board_alt(shown, loc)
        assert f"{plays} {found.bonus[0]}." in text and not re.search(r"(plays|joue) \.", text), text


async def test_a_team_game_names_the_partners_in_both_languages(store):
    """Yellow + red against blue + green (PM-10.1)."""
    record, _ = await play(store, "parcheesi", players=(1, 2, 3, 4), options={"teams": True}, max_actions=8)
    a, b, c, d = (seat.name for seat in record.seats)   # seats are drawn at the start
    assert f"Partners: {a} and {c}; {b} and {d}." in board_alt(record, "en")
    assert f"Équipes\u00a0: {a} avec {c}\u00a0; {b} avec {d}." in board_alt(record, "fr")
    alone, _ = await play(store, "parcheesi", players=(1, 2, 3, 4), channel=6, max_actions=8)
    assert "Partners" not in board_alt(alone, "en")


async def test_a_computer_leading_the_second_team_keeps_its_small_letter_after_the_separator(store):
    """The partners are one sentence: "Duplas: Ana com Zé; o computador 1 (fácil) com Lu.", not "; O computador"."""
    record, _ = await play(store, "parcheesi", players=(1, 2, 3, 4), options={"teams": True}, max_actions=8)
    first = ruleset_of(record).teams(4, record.options)[1][0]
    seats = tuple(Seat(0, "1", "easy") if i == first else seat for i, seat in enumerate(record.seats))
    shown = replace(record, seats=seats)
    assert "; o computador 1 (fácil) com " in board_alt(shown, "pt-BR")
    assert "\u00a0; l’ordinateur 1 (facile) avec " in board_alt(shown, "fr")


@pytest.mark.parametrize("game", GAME_IDS)
async def test_a_finished_game_names_its_winner_once_and_nobody_to_move(store, game):
    """The result line says who won; the position's own "has won" or "must roll" lines
    are left out."""
    record, _ = await play(store, game, max_actions=30, resign=1)
    ruleset = ruleset_of(record)
    drawn = (record.result or {}).get("draw")   # Pariti's random play may run out of turns first
    for loc, won in (("en", "draw" if drawn else "won"), ("fr", "nul" if drawn else "gagne")):
        text = board_alt(record, loc)
        assert text.count(result_line(record, loc)) == 1 and text.count(won) == 1, text
        turn = [say(record, line, loc) for line in ruleset.describe(ruleset.from_json(record.state))
                if line.params.get("seat") == 0 and len(line.params) == 1]
        assert not any(line in text for line in turn), text


async def test_a_pariti_draw_is_said_once(store):
    record, _ = await play(store, "pariti", seed=3)
    assert record.status != "active"
    for loc, said in (("en", "draw"), ("fr", "nul")):
        text = board_alt(record, loc)
        if (record.result or {}).get("draw"):
            assert text.count(said) == 1, text
        else:
            assert text.count(result_line(record, loc)) == 1, text


def test_the_pieces_of_the_player_to_move_come_first_with_the_lines_that_belong_to_them():
    """Maghreb names a side, then its pieces one line each: they move together; other lines keep their order."""
    side = [msg("maghreb.describe.side", seat=seat) for seat in (0, 1)]
    pieces = [msg("maghreb.describe.piece", piece=i) for i in range(4)]
    quiet = msg("pariti.describe.quiet", count=1)
    lines = [side[0], pieces[0], pieces[1], side[1], pieces[2], pieces[3], quiet]
    assert own_first(lines, 1) == [side[1], pieces[2], pieces[3], side[0], pieces[0], pieces[1], quiet]
    assert own_first(lines, 0) == lines and own_first(lines, None) == lines
