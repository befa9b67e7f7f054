"""Move codes in French: J (jaune), V (vert), R (rouge), B (bleu), Pariti's R (rose); read in either
language, written in the game's; the rulesets and the store keep the canonical codes."""
import random

import pytest

from bot.games import GAME_IDS, get_ruleset
from bot.present import codes, moves
from tests.present.test_moves import record_of

PARCHEESI = get_ruleset("parcheesi")


@pytest.mark.parametrize(("game", "canonical", "french"), [
    ("parcheesi", "Y2+4", "J2+4"), ("parcheesi", "G1+3", "V1+3"), ("parcheesi", "B3+5", "B3+5"),
    ("parcheesi", "out", "out"), ("parchis-maghreb", "out:G+3", "out:V+3"), ("parchis-maghreb", "call:Y1", "call:J1"),
    ("parchis-maghreb", "R2+4", "R2+4"), ("pariti", "P12:d4", "R12:d4"), ("pariti", "B7:c5", "B7:c5"),
    ("barricade", "bar:i3", "bar:i3"), ("barricade", "start-e2", "start-e2")])
def test_codes_are_written_with_the_language_s_colour_initials_and_read_back(game, canonical, french):
    ruleset = get_ruleset(game)
    assert codes.shown(ruleset, canonical, "fr") == french and codes.shown(ruleset, canonical, "en") == canonical
    assert codes.canonical(ruleset, french) == canonical and codes.canonical(ruleset, canonical) == canonical
    assert codes.canonical(ruleset, french.lower()) == canonical.lower()


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_legal_code_of_a_played_game_reads_back_from_french(game):
    ruleset, rng = get_ruleset(game), random.Random(3)
    state = ruleset.new_game(2, {}, 1)
    for _ in range(60):
        if ruleset.to_move(state) is None:
            break
        actions = [ruleset.random_roll(state, rng)] if ruleset.roll_due(state) else ruleset.legal_actions(state)
        assert all(codes.canonical(ruleset, codes.shown(ruleset, a, "fr")) == a for a in actions)
        state = ruleset.apply(state, rng.choice(actions)).state


def test_a_french_game_suggests_french_codes_and_takes_them_typed():
    state = PARCHEESI.apply(PARCHEESI.new_game(2, {}, 0), "r3.4").state   # yellow to move: Y1+3, Y1+4, Y1+7
    record = record_of(PARCHEESI, state, locale="fr")
    offered = moves.move_choices(record, PARCHEESI, state, "", "en")
    yellow = [(name, action) for name, action in offered if action.startswith("Y")]
    assert yellow and all(name.startswith("J") for name, _ in yellow), "shown in the game's language"
    typed = codes.shown(PARCHEESI, yellow[0][1], "fr").lower()
    assert moves.move_choices(record, PARCHEESI, state, typed, "en")[0][1] == yellow[0][1], "stored canonical"


@pytest.mark.parametrize("game", GAME_IDS)
def test_no_letter_of_any_language_names_two_colours_of_a_game(game):
    """A typed code is read with the letters of every language at once: one letter, one colour (Spanish
    writes azul Z because amarillo has the A)."""
    ruleset, named = get_ruleset(game), {}
    for locale in codes.i18n.LOCALES:
        for colour in ruleset.code_colours:
            named.setdefault(codes.letter(colour, locale), set()).add(colour)
    assert {letter: colours for letter, colours in named.items() if len(colours) > 1} == {}


def test_spanish_codes_use_spanish_letters():
    assert codes.shown(PARCHEESI, "Y2+4", "es") == "A2+4" and codes.shown(PARCHEESI, "B1+3", "es") == "Z1+3"
    assert codes.canonical(PARCHEESI, "z1+3") == "b1+3" and codes.canonical(PARCHEESI, "V3+5") == "G3+5"
