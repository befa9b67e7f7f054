"""The dice of the 68-square rulesets: drawn exactly as fair-dice verification expects."""
import random

import pytest

from bot.games import get_ruleset


@pytest.mark.parametrize("game_id", ["parcheesi", "parcheesi-classic"])
def test_random_roll_draws_what_rng_choice_of_the_roll_codes_draws(game_id):
    """Games stored before random_roll was spelled out still verify (bot/domain/dice.py)."""
    ruleset = get_ruleset(game_id)
    state = ruleset.new_game(2, {}, 0)
    codes = ruleset._rolls.codes
    for seed in range(3000):
        assert ruleset.random_roll(state, random.Random(seed)) == random.Random(seed).choice(codes)


@pytest.mark.parametrize("game_id, values", [("parcheesi", 36), ("parcheesi-classic", 6)])
def test_random_roll_reaches_every_roll(game_id, values):
    ruleset = get_ruleset(game_id)
    state = ruleset.new_game(2, {}, 0)
    rng = random.Random(7)
    assert len({ruleset.random_roll(state, rng) for _ in range(2000)}) == values
