"""Random Mundijeux games played to the end (PM-3.5, PM-4.3, PM-1.7, PM-9.1, PM-10.5):
invariants hold at every step and replaying the log reproduces every state."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.parcheesi.mundijeux import Mundijeux
from tests.games.parcheesi.playouts import play_random, replay

R = Mundijeux()


@pytest.mark.parametrize("players,options", [(2, {}), (3, {}), (4, {}), (4, {"teams": True})],
                         ids=["2p", "3p", "4p", "teams"])
@settings(max_examples=130, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_end_keep_invariants_and_replay(players, options, seed):
    """PM-1.7, PM-4.3, PM-9.1, PM-10.5: 4 x 130 random games."""
    log, states = play_random(R, players, options, random.Random(seed))
    result = R.result(states[-1])
    assert result is not None
    if options.get("teams"):
        assert result.winners in ((0, 2), (1, 3))
    else:
        assert len(result.winners) == 1
    replay(R, players, options, log, states)
