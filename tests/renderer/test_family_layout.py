"""A ruleset's board family is looked up by module path and checked there (renderer.family_layout)."""
from __future__ import annotations

import pytest

from bot.games import GAMES, get_ruleset
from renderer import Layout, family_layout
from tests.toy_ruleset import ToyRace


@pytest.mark.parametrize("game_id", [game.id for game in GAMES])
def test_every_registered_game_has_a_layout(game_id):
    assert isinstance(family_layout(get_ruleset(game_id)), Layout)


def test_a_board_family_without_a_layout_fails_at_the_lookup_with_its_name():
    class NoFamily(ToyRace):
        board_family = "renderer.plan"   # a module of the renderer, but no board family

    with pytest.raises(TypeError, match="renderer.plan has no layout function"):
        family_layout(NoFamily())
