"""The objects a ruleset names by "module:name" are checked where they are looked up: a registration
naming the wrong object fails there, with its name, and not deep in a search."""
from __future__ import annotations

import random

import pytest

from bot.ai.calls import call_judge_for
from bot.ai.heuristics import GENERIC, Heuristic, heuristic_for
from bot.ai.levels import choose_action, hard_search_for
from bot.games import GAMES, get_ruleset
from tests.toy_ruleset import ToyRace


class WronglyRegistered(ToyRace):
    heuristic = "bot.ai.heuristics:WIN"          # a number, not a Heuristic
    hard_search = "bot.ai.heuristics:WIN"
    call_judge = "bot.ai.heuristics:WIN"
    allows_cheating = True


@pytest.mark.parametrize("game_id", [game.id for game in GAMES])
def test_every_registered_game_resolves_to_objects_of_the_right_kind(game_id):
    ruleset = get_ruleset(game_id)
    assert isinstance(heuristic_for(ruleset), Heuristic)
    assert (hard_search_for(ruleset) is None) == (ruleset.hard_search is None)
    assert (call_judge_for(ruleset) is None) == (ruleset.call_judge is None)


def test_a_game_that_names_nothing_gets_the_generic_heuristic_and_no_search_nor_judge():
    ruleset = ToyRace()
    assert heuristic_for(ruleset) is GENERIC
    assert hard_search_for(ruleset) is None and call_judge_for(ruleset) is None


@pytest.mark.parametrize("lookup", [heuristic_for, hard_search_for, call_judge_for])
def test_a_registration_naming_the_wrong_object_fails_at_the_lookup_with_its_name(lookup):
    with pytest.raises(TypeError, match="bot.ai.heuristics:WIN names a float"):
        lookup(WronglyRegistered())


def test_a_wrong_heuristic_fails_before_a_move_is_chosen():
    ruleset = WronglyRegistered()
    state = ruleset.new_game(2, {}, 0)
    state = ruleset.apply(state, ruleset.random_roll(state, random.Random(1))).state
    with pytest.raises(TypeError):
        choose_action(ruleset, state, 0, "normal", rng=random.Random(1))
