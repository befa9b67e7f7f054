"""Random classic games with infractions injected at random, random call-outs (PC-9.1 to PC-9.5)
and turns forfeited at random as at a deadline set to skip: invariants hold, games end, replay is exact."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.parcheesi.board import HOUSE
from bot.games.parcheesi.classic import Classic
from bot.games.parcheesi.engine_state import State
from tests.games.parcheesi.playouts import play_random, replay

C = Classic()


def cheating_player(ruleset: Classic, s: State, rng: random.Random) -> tuple[int | None, str]:
    """Rolls, legal moves, infractions half of the time they are possible, call-outs now and then,
    and now and then a turn forfeited (Ruleset.SKIP), before its roll or during it."""
    if rng.random() < 0.15:
        callers = [seat for seat in range(len(s.colours)) if ruleset.call_actions(s, seat)]
        if callers:
            return rng.choice(callers), "call"
    if rng.random() < 0.04:
        return s.turn, ruleset.SKIP
    if ruleset.roll_due(s):
        return None, ruleset.random_roll(s, rng)
    legal = ruleset.legal_actions(s)
    cheats = [a for a in ruleset.accepted_actions(s) if a not in legal]
    return None, rng.choice(cheats if cheats and rng.random() < 0.5 else legal)


def judge(log: list, states: list[State]) -> tuple[int, int]:
    """Check every call-out and infraction of a game; count the caught and the standing ones."""
    caught = stood = 0
    for (seat, action), before, after in zip(log, states, states[1:]):
        if action == C.SKIP:
            # PC-3.1: the next seat's turn, nothing moves, what was left of the turn is gone.
            assert after.turn == (before.turn + 1) % len(before.colours) and after.pos == before.pos
            assert (after.dice, after.bonus, after.repeats) == ((), (), 0)
            if before.dice == () and before.callee != before.turn:
                # PC-9.3: it stands for the roll that would have begun the turn: the window closes.
                stood += bool(before.cheats)
                assert (after.callee, after.cheats) == (-1, ())
            else:   # the window on the forfeited turn stays open until the next player's roll
                assert (after.callee, after.cheats) == (before.callee, before.cheats)
        elif action == "call":
            assert seat != before.callee and after.cheats == ()
            if before.cheats:
                caught += 1
                assert all(after.pos[p] == HOUSE for p in before.cheats)
            else:
                assert after == before
        elif not C.roll_due(before) and action not in C.legal_actions(before):
            assert after.cheats[-1] == C.options(before)[action].pawn
        elif action[0] == "r" and before.cheats and before.callee != before.turn:
            stood += 1
            assert after.cheats == ()
    return caught, stood


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_with_cheating_end_and_replay(players, seed):
    """PC-9.1, PC-9.3, PC-9.4, PC-9.5, PC-10.1: 3 x 40 games with infractions, call-outs and forfeits."""
    log, states = play_random(C, players, {}, random.Random(seed), choose=cheating_player)
    assert C.result(states[-1]) is not None
    judge(log, states)
    replay(C, players, {}, log, states)


def test_some_infractions_are_caught_and_some_stand():
    """PC-9.3, PC-9.4: over a few games both outcomes happen."""
    totals = [judge(*play_random(C, 3, {}, random.Random(seed), choose=cheating_player)) for seed in range(6)]
    assert sum(c for c, _ in totals) > 0 and sum(s for _, s in totals) > 0
