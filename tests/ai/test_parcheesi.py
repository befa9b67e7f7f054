"""The Parcheesi-family heuristic (bot/ai/parcheesi.py): threats, and hard's win chance at a table of four."""
from __future__ import annotations

import math

import pytest

from bot.ai import parcheesi as heuristic
from bot.ai.heuristics import win_chance
from bot.games import get_ruleset
from bot.games.parcheesi.board import GOAL, HOUSE
from bot.games.parcheesi.engine_state import ROUTE_PROGRESS, SQUARE

MUNDIJEUX = get_ruleset("parcheesi")


def test_a_pawn_threatens_the_squares_its_next_roll_reaches_with_that_rolls_chance():
    """Two dice: a distance of 5 is offered by a 5 on either die or a total of 5, 15 rolls in 36."""
    colour, at = 0, 10
    row = heuristic._ENGINE_THREATS[2][colour][at]
    assert row[SQUARE[colour][at + 5]] == pytest.approx(15 / 36)
    assert row[SQUARE[colour][at + 12]] == pytest.approx(1 / 36)
    assert row[SQUARE[colour][at]] == row[SQUARE[colour][at + 13]] == row[SQUARE[colour][at - 1]] == 0.0
    # Every non-zero entry is a square 1 to 12 steps ahead on the pawn's route.
    assert all(0 < ROUTE_PROGRESS[colour][sq] - at <= 12 for sq, chance in enumerate(row) if chance)


def _four_seats(pos):
    return MUNDIJEUX.new_game(4, {}, 0)._replace(pos=tuple(pos))


def test_at_four_hard_values_sending_home_a_pawn_of_an_opponent_who_does_not_lead():
    """The normal level's score only sees the best opponent; hard's win chance is a share against every
    opponent, so the third seat's pawn going home (the second leads) makes seat 0's chances better."""
    home = [HOUSE] * 4
    leader = [50, 52, 54, 56]
    third_out = _four_seats(home + leader + [10, HOUSE, HOUSE, HOUSE] + home)
    third_home = _four_seats(home + leader + home + home)
    evaluate = heuristic.ENGINE.evaluate
    assert evaluate(MUNDIJEUX, third_out, 0) == evaluate(MUNDIJEUX, third_home, 0)
    assert win_chance(MUNDIJEUX, heuristic.ENGINE, third_home, 0) > win_chance(MUNDIJEUX, heuristic.ENGINE,
                                                                                 third_out, 0)


def test_hard_win_chances_at_four_share_out_the_wins_and_at_two_follow_the_score_gap():
    state = _four_seats([HOUSE] * 4 + [50, 52, HOUSE, HOUSE] + [10, 30, HOUSE, HOUSE] + [5, HOUSE, HOUSE, HOUSE])
    assert sum(win_chance(MUNDIJEUX, heuristic.ENGINE, state, seat) for seat in range(4)) == pytest.approx(1.0)
    two = MUNDIJEUX.new_game(2, {}, 0)
    two = two._replace(pos=(20, 30, HOUSE, HOUSE, 5, HOUSE, HOUSE, HOUSE))
    gap = heuristic.ENGINE.evaluate(MUNDIJEUX, two, 0) / heuristic.engine_scale(two)
    assert win_chance(MUNDIJEUX, heuristic.ENGINE, two, 0) == pytest.approx(1 / (1 + math.exp(-gap)))


def _two_seats(pos):
    return MUNDIJEUX.new_game(2, {}, 0)._replace(pos=tuple(pos))


def test_hard_reads_a_lead_as_more_decisive_the_fewer_squares_are_left_to_play():
    """One pawn out against none decides little at the start; the same 12 squares with one pawn
    each left to bring home decide much more (a fixed scale read both alike, and the start too surely)."""
    start = _two_seats([0, HOUSE, HOUSE, HOUSE, HOUSE, HOUSE, HOUSE, HOUSE])
    end = _two_seats([GOAL, GOAL, GOAL, 66, GOAL, GOAL, GOAL, 54])
    evaluate = heuristic.ENGINE.evaluate
    assert evaluate(MUNDIJEUX, start, 0) == evaluate(MUNDIJEUX, end, 0) == 12
    early, late = (win_chance(MUNDIJEUX, heuristic.ENGINE, state, 0) for state in (start, end))
    assert 0.5 < early < 0.55 < 0.6 < late
