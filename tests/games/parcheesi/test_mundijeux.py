"""Scenario tests for Parcheesi as played on Mundijeux (tests/rules/parcheesi-mundijeux.md).

Each test cites the rule IDs and examples it checks. Seat 0 is yellow in every
game (PM-1.9), seat 1 blue, seat 2 red, seat 3 green in a four-player game.
"""
from __future__ import annotations

import random

import pytest

from bot.domain.i18n import render
from bot.games import get_ruleset
from bot.games.base import GameError, IllegalAction, Result
from bot.games.parcheesi.board import GOAL, board
from bot.games.parcheesi.mundijeux import Mundijeux
from tests.games.parcheesi.positions import keys, pawn_index, play, position, where

R = Mundijeux()


def legal(state) -> set[str]:
    return set(R.legal_actions(state))


# --- components, board, setup -------------------------------------------------

def test_two_dice_and_four_pawns_per_colour():
    """PM-1.1: two dice per roll, four pawns per colour."""
    s = R.new_game(4, {}, 0)
    assert len(s.pos) == 16
    assert R.random_roll(s, random.Random(1)).count(".") == 1
    with pytest.raises(IllegalAction):
        R.apply(s, "r4")


def test_track_wraps_from_68_to_1():
    """PM-1.2, PM-1.6: a blue pawn passes yellow's last square 68 and goes on to 1."""
    s = position(R, {"B1": 66}, turn=1)
    s, _ = play(R, s, "r4.2", "B1+4")
    assert where(s, "B1") == "2"


def test_start_squares():
    """PM-1.3: pawns come out on 5, 22, 39, 56."""
    for seat, (code, square) in enumerate([("Y1", "5"), ("B1", "22"), ("R1", "39"), ("G1", "56")]):
        s = position(R, {}, turn=seat)
        s, _ = play(R, s, "r5.1", "out")
        assert where(s, code) == square


def test_safe_squares_and_corridor_cannot_be_captured_on():
    """PM-1.4, PM-7.2: stopping next to a lone foreign pawn on a safe square captures nothing."""
    s = position(R, {"Y1": 9, "B1": 12, "Y2": "goal", "Y3": "goal", "Y4": "goal"})
    s, events = play(R, s, "r3.1", "Y1+3")
    assert where(s, "B1") == "12" and where(s, "Y1") == "12"
    assert "parcheesi.event.capture" not in keys(events)


def test_route_of_a_pawn():
    """PM-1.5: progress 63 is the colour's last track square, then H1..H7 and the goal at 71."""
    s = position(R, {"Y1": 67, "Y2": "goal", "Y3": "goal", "Y4": "goal"})
    s, _ = play(R, s, "r1.2", "Y1+1")
    assert where(s, "Y1") == "68"
    s, _ = play(R, s, "Y1+2")
    assert where(s, "Y1") == "H2"
    for colour, last in (("yellow", 68), ("blue", 17), ("red", 34), ("green", 51)):
        assert board().track_square(colour, 63) == last


def test_only_yellow_enters_yellow_corridor():
    """PM-1.6: a yellow pawn on 68 enters H1; a blue pawn on 68 goes to 1."""
    s = position(R, {"Y1": 68, "B1": 68, "Y2": "goal", "Y3": "goal", "Y4": "goal"})
    s2, _ = play(R, s, "r1.3", "Y1+1")
    assert where(s2, "Y1") == "H1"
    s3, _ = play(R, s._replace(turn=1), "r1.3", "B1+1")
    assert where(s3, "B1") == "1"


def test_at_most_two_pawns_per_square_but_goal_unlimited():
    """PM-1.7, PM-4.4: no move ends on a full square; the goal takes all four pawns."""
    s = position(R, {"B1": 12, "R1": 12, "Y1": 10, "Y2": "goal", "Y3": "goal", "Y4": "H6"})
    assert "Y1+2" not in legal(play(R, s, "r2.1")[0])
    s, _ = play(R, s._replace(pos=(GOAL,) + s.pos[1:]), "r2.1", "Y4+2")
    assert s.winners == (0,)
    assert s.pos[:4] == (GOAL,) * 4


def test_arrival_order_is_recorded():
    """PM-1.8: the state records who came last to a square (used by PM-6.5)."""
    s = position(R, {"Y1": 10, "Y2": "goal", "Y3": "goal", "Y4": "goal", "B1": 12})
    s, _ = play(R, s, "r2.1", "Y1+2")
    assert s.arrivals[-1] == pawn_index(s, "Y1")


@pytest.mark.parametrize("players,colours", [
    (2, [("yellow",), ("red",)]), (3, [("yellow",), ("blue",), ("red",)]),
    (4, [("yellow",), ("blue",), ("red",), ("green",)])])
def test_seat_colours(players, colours):
    """PM-1.9, PM-3.1: colours by number of players, seat order = turn order, yellow first."""
    assert R.seat_colours(players, {}) == colours
    assert R.teams(players, {}) is None


def test_team_setup_needs_four_players():
    """PM-1.9, PM-10.1: yellow+red against blue+green, exactly four players."""
    assert R.teams(4, {"teams": True}) == [(0, 2), (1, 3)]
    R.check_setup(4, {"teams": True})
    with pytest.raises(GameError) as refused:
        R.check_setup(3, {"teams": True})
    assert render(refused.value.message, "fr") != refused.value.message.key
    with pytest.raises(GameError):
        R.check_setup(5, {})


def test_initial_position():
    """PM-2.1, PM-2.2: one pawn of each player on his start square, three in the house, nothing else."""
    s = R.new_game(3, {}, 0)
    for seat, start in enumerate(("5", "22", "39")):
        code = "YBR"[seat]
        assert where(s, f"{code}1") == start
        assert [where(s, f"{code}{i}") for i in (2, 3, 4)] == ["house"] * 3
    assert s.turn == 0 and R.roll_due(s) and s.bonus == ()


# --- turn structure ---------------------------------------------------------------

def test_turn_order_skips_missing_colours():
    """PM-3.1, PM-3.2: yellow, then red in a two-player game; a non-double passes the turn."""
    s = position(R, {"Y1": 30, "R1": 50}, players=2)
    s, events = play(R, s, "r1.2", "Y1+1", "Y1+2")
    assert s.turn == 1 and R.roll_due(s)
    assert events[-1].key == "parcheesi.event.next"


def test_actions_of_a_roll():
    """PM-3.3: die, total, bring-out with a 5 and with a sum of 5, bonus; each die used once."""
    s = position(R, {"Y1": 30, "Y2": "goal", "Y3": "goal", "Y4": "goal"})
    assert legal(play(R, s, "r4.2")[0]) == {"Y1+4", "Y1+2", "Y1+6"}
    s, _ = play(R, s, "r4.2", "Y1+4")
    assert legal(s) == {"Y1+2"}
    with pytest.raises(IllegalAction):
        R.apply(s, "Y1+4")


def test_priorities_bonus_before_second_die_and_next_roll():
    """PM-3.4, PM-8.5: a bonus earned by the bridge opening comes before the other die and the next roll."""
    s = position(R, {"Y1": 20, "Y2": 20, "B1": 23, "Y3": "goal", "Y4": "goal"})
    s, _ = play(R, s, "r3.3")
    assert legal(s) == {"Y1+3", "Y1+6", "Y2+3", "Y2+6"}      # 2. opening first
    s, _ = play(R, s, "Y1+3")                                 # captures B1
    assert legal(s) == {"Y1+20", "Y2+20"}                     # 1. the bonus now
    s, _ = play(R, s, "Y1+20")
    assert legal(s) == {"Y1+3"}                               # Y2 stays locked (PM-5.3)
    s, _ = play(R, s, "Y1+3")
    assert R.roll_due(s) and s.turn == 0


def test_player_chooses_the_order_of_his_dice():
    """PM-3.5: he may pick the order that wastes a die; the unusable die is forfeited with a reason."""
    s = position(R, {"Y1": "H5", "Y2": "goal", "Y3": "goal", "Y4": "goal"})
    s, _ = play(R, s, "r3.1")
    assert legal(s) == {"Y1+3", "Y1+1"}
    s, events = play(R, s, "Y1+1")
    forfeits = [e for e in events if e.key == "parcheesi.event.forfeit"]
    assert forfeits and forfeits[0].params["dice"] == "3"
    assert "cannot use 3" in render(forfeits[0], "en")
    assert s.turn == 1


# --- moving ---------------------------------------------------------------------

def test_pawns_move_forward_only():
    """PM-4.1: every move increases the pawn's progress by the die."""
    s = position(R, {"Y1": 30, "Y2": "goal", "Y3": "goal", "Y4": "goal"})
    s2, _ = play(R, s, "r3.1", "Y1+3")
    assert s2.pos[0] == s.pos[0] + 3


def test_exact_count_into_goal():
    """PM-4.2, PM-EX-12, PM-8.1, PM-8.5: exact count into the goal, then the 10 at once, then the other die."""
    s = position(R, {"Y1": "H5", "Y2": 30, "Y3": "goal", "Y4": "goal"})
    s, _ = play(R, s, "r3.6")
    assert legal(s) == {"Y1+3", "Y2+3", "Y2+6", "Y2+9"}
    a, events = play(R, s, "Y1+3")
    assert "parcheesi.event.goal" in keys(events)
    assert legal(a) == {"Y2+10"}
    a, _ = play(R, a, "Y2+10")
    assert where(a, "Y2") == "40" and legal(a) == {"Y2+6"}
    a, _ = play(R, a, "Y2+6")
    assert where(a, "Y2") == "46"
    b, _ = play(R, s, "Y2+6", "Y1+3", "Y2+10")
    assert where(b, "Y2") == "46" and where(b, "Y1") == "goal"


def test_bridge_blocks_everyone():
    """PM-4.3, PM-3.5, PM-EX-8: a red bridge on 12 stops yellow; the 4 is then forfeited."""
    s = position(R, {"R1": 12, "R2": 12, "Y1": 9})
    s, _ = play(R, s, "r4.2")
    assert legal(s) == {"Y1+2"}
    s, events = play(R, s, "Y1+2")
    assert where(s, "Y1") == "11"
    assert [e.params["dice"] for e in events if e.key == "parcheesi.event.forfeit"] == ["4"]
    assert s.turn == 1


def test_own_bridge_blocks_its_owner_but_not_the_pawn_leaving_it():
    """PM-4.3: yellow's own bridge stops yellow pawns behind it; its pawns may leave it."""
    s = position(R, {"Y1": 20, "Y2": 20, "Y3": 18, "Y4": "goal"})
    s, _ = play(R, s, "r4.1")
    assert "Y3+4" not in legal(s) and "Y3+1" in legal(s) and "Y1+4" in legal(s)


def test_mixed_pair_fills_a_square_but_may_be_passed():
    """PM-4.4, PM-4.6, PM-4.9: a total passes a full square; a single die may not stop on it."""
    s = position(R, {"B1": 12, "R1": 12, "Y1": 9, "Y2": "goal", "Y3": "goal", "Y4": "goal"})
    s, _ = play(R, s, "r3.2")
    assert legal(s) == {"Y1+2", "Y1+5"}


def test_sharing_a_safe_square():
    """PM-4.5 c, PM-4.9, PM-EX-15: Y1 stops on 12 next to B1: no capture, no bonus; the pair is passed, not
    landed on."""
    s = position(R, {"B1": 12, "Y1": 8, "Y2": 10})
    s, events = play(R, s, "r4.6", "Y1+4")
    assert where(s, "B1") == where(s, "Y1") == "12" and s.bonus == ()
    assert "parcheesi.event.capture" not in keys(events)
    assert legal(s) == {"Y1+6", "Y2+6"}          # Y2 passes 12 (to 16); nobody may stop on 12
    s = s._replace(turn=0, dice=(2, 4), used=0)
    assert "Y2+2" not in legal(s) and "Y2+4" in legal(s)


def test_landing_cases():
    """PM-4.5: empty square, own pawn (bridge), foreign pawn on safe (share), foreign pawn elsewhere (capture)."""
    base = {"Y2": "goal", "Y3": "goal"}
    s, _ = play(R, position(R, {**base, "Y1": 30, "Y4": 33}), "r3.1", "Y1+3")
    assert where(s, "Y1") == where(s, "Y4") == "33"
    s, _ = play(R, position(R, {**base, "Y1": 30, "Y4": "goal", "B1": 34}), "r4.1", "Y1+4")
    assert where(s, "B1") == "34"
    s, _ = play(R, position(R, {**base, "Y1": 30, "Y4": "goal", "B1": 33}), "r3.1", "Y1+3")
    assert where(s, "B1") == "house" and s.bonus == (20,)


def test_two_dice_on_one_pawn_stop_on_the_intermediate_square():
    """PM-4.7, PM-4.6: die by die the pawn stops (and captures) on the way; the total does not."""
    s = position(R, {"Y1": 10, "B1": 14, "Y2": "goal", "Y3": "goal", "Y4": "goal"})
    s, _ = play(R, s, "r4.3")
    a, _ = play(R, s, "Y1+4")
    assert where(a, "B1") == "house"
    b, _ = play(R, s, "Y1+7")
    assert where(b, "B1") == "14" and where(b, "Y1") == "17"


def test_house_pawns_only_come_out_and_goal_pawns_never_move():
    """PM-4.8: no move is offered for pawns in the house or the goal."""
    s = position(R, {"Y1": 30, "Y2": "goal"})
    s, _ = play(R, s, "r4.2")
    assert all(a.startswith("Y1") for a in legal(s))


def test_bridge_in_the_corridor():
    """PM-4.10: a bridge in the corridor blocks its owner's pawns and must be opened on a double."""
    s = position(R, {"Y1": "H2", "Y2": "H2", "Y3": 66, "Y4": "goal"})
    s2, _ = play(R, s, "r4.2")
    assert "Y3+4" not in legal(s2) and "Y3+2" in legal(s2)
    s3, _ = play(R, s, "r1.1")
    assert legal(s3) == {"Y1+1", "Y1+2", "Y2+1", "Y2+2"}


# --- doubles -----------------------------------------------------------------------

def test_double_gives_another_roll_even_unplayed():
    """PM-5.1: a double whose dice cannot be used still gives another roll."""
    s = position(R, {"Y1": "goal"})
    s, events = play(R, s, "r3.3")
    assert R.roll_due(s) and s.turn == 0
    assert "parcheesi.event.again" in keys(events)


def test_double_with_a_bridge():
    """PM-5.1, PM-5.2, PM-5.3, PM-EX-4: open the bridge first; the other die may not move the partner."""
    s = position(R, {"Y1": 20, "Y2": 20, "Y3": 30})
    s, _ = play(R, s, "r3.3")
    assert legal(s) == {"Y1+3", "Y1+6", "Y2+3", "Y2+6"}
    s, _ = play(R, s, "Y1+3")
    assert legal(s) == {"Y1+3", "Y3+3"}
    s, _ = play(R, s, "Y3+3")
    assert R.roll_due(s) and s.turn == 0
    assert R.scene(s).notes == ()


def test_bridge_opening_choice_and_lapse():
    """PM-5.2: with several bridges he chooses; if no bridge pawn can move, the roll is played normally."""
    s = position(R, {"Y1": 20, "Y2": 20, "Y3": 40, "Y4": 40})
    assert legal(play(R, s, "r2.2")[0]) == {"Y1+2", "Y1+4", "Y2+2", "Y2+4", "Y3+2", "Y3+4", "Y4+2", "Y4+4"}
    blocked = position(R, {"Y1": 20, "Y2": 20, "R1": 22, "R2": 22, "R3": 24, "R4": 24, "Y3": 10})
    assert legal(play(R, blocked, "r2.2")[0]) == {"Y3+2", "Y3+4"}


def test_opening_bonus_is_not_restricted():
    """PM-5.3, PM-5.4: the partner may take a bonus; the lock on it lasts the whole roll."""
    s = position(R, {"Y1": 20, "Y2": 20, "B1": 25, "Y3": "goal", "Y4": "goal"})
    s, _ = play(R, s, "r5.5")
    assert legal(s) == {"Y1+5", "Y2+5"}              # never the total 10 on a double 5
    s, _ = play(R, s, "Y1+5")
    assert legal(s) == {"Y1+20", "Y2+20"}
    s, _ = play(R, s, "Y2+20")
    assert legal(s) == {"Y1+5"}
    assert R.scene(s).notes and R.scene(s).notes[0].key == "parcheesi.note.locked"


def test_double_five_with_bridge_on_start_square():
    """PM-5.4, PM-EX-13: one 5 opens the bridge, the other brings Y3 out; then roll again."""
    s = position(R, {"Y1": 5, "Y2": 5})
    s, _ = play(R, s, "r5.5")
    assert legal(s) == {"Y1+5", "Y2+5"}
    s, _ = play(R, s, "Y1+5")
    assert legal(s) == {"out"}
    s, _ = play(R, s, "out")
    assert where(s, "Y3") == "5" and where(s, "Y2") == "5" and where(s, "Y1") == "10"
    assert R.roll_due(s) and s.turn == 0


def test_double_five_bridge_only_openable_by_ten():
    """PM-5.4: a bridge only the total 10 could open is not openable; both 5s bring pawns out."""
    s = position(R, {"Y1": 24, "Y2": 24, "B1": 29, "R1": 29})
    s, _ = play(R, s, "r5.5")
    assert legal(s) == {"out"}
    s, _ = play(R, s, "out")
    assert legal(s) == {"out"}
    s, _ = play(R, s, "out")
    assert s.pos[:4].count(0) == 2 and R.roll_due(s)


def test_third_double():
    """PM-5.5, PM-EX-5: after two doubles, the third sends the last moved pawn home unless it is safe."""
    s = position(R, {"Y1": 10})
    a, events = play(R, s, "r2.2", "Y1+4", "r1.1", "Y1+2")
    assert where(a, "Y1") == "16" and R.roll_due(a)
    a, events = play(R, a, "r6.6")
    assert where(a, "Y1") == "house" and a.turn == 1
    assert "parcheesi.mundijeux.event.third_home" in keys(events)
    b, _ = play(R, position(R, {"Y1": 11}), "r2.2", "Y1+4", "r1.1", "Y1+2")
    assert where(b, "Y1") == "17"
    b, events = play(R, b, "r6.6")
    assert where(b, "Y1") == "17" and b.turn == 1
    assert "parcheesi.mundijeux.event.third_safe" in keys(events)


def test_third_double_bridge_gives_no_protection():
    """PM-5.5: the last moved pawn goes home although it now stands in a bridge."""
    s = position(R, {"Y1": 10, "Y2": 16, "Y3": 40, "Y4": "goal"})
    s, _ = play(R, s, "r1.1", "Y3+2", "r3.3", "Y1+6")
    assert where(s, "Y1") == where(s, "Y2") == "16"
    s, _ = play(R, s, "r6.6")
    assert where(s, "Y1") == "house" and where(s, "Y2") == "16" and s.turn == 1


def test_third_double_counts_bonus_moves():
    """PM-5.5: a bonus move is a move: the pawn that took the 20 goes home."""
    s = position(R, {"Y1": 10, "B1": 14, "Y2": 30, "Y3": 40, "Y4": "goal"})
    s, _ = play(R, s, "r1.1", "Y3+2", "r2.2", "Y1+4", "Y2+20")
    assert where(s, "Y2") == "50" and R.roll_due(s)
    s, _ = play(R, s, "r6.6")
    assert where(s, "Y2") == "house" and where(s, "Y1") == "14"


def test_third_double_with_no_move_just_ends_the_turn():
    """PM-5.5: no pawn moved during the turn: the turn simply ends."""
    s, events = play(R, position(R, {"Y1": "goal"}), "r1.1", "r2.2", "r3.3")
    assert s.turn == 1 and "parcheesi.mundijeux.event.third_nothing" in keys(events)


# --- fives ------------------------------------------------------------------------

def test_bring_out_with_a_five():
    """PM-6.1, PM-6.2, PM-6.7, PM-EX-1: the 5 must bring Y2 out (bridge), then the 3 is free."""
    s = position(R, {"Y1": 5})
    s, _ = play(R, s, "r5.3")
    assert legal(s) == {"out"}
    assert render(R.action_label(s, "out"), "en") == "yellow 2: out onto 5 (die 5)"
    s, _ = play(R, s, "out")
    assert where(s, "Y2") == "5" and legal(s) == {"Y1+3", "Y2+3"}
    s, _ = play(R, s, "Y2+3")
    assert where(s, "Y2") == "8" and s.turn == 1


def test_bring_out_with_the_sum():
    """PM-6.1, PM-6.2, PM-6.7, PM-EX-2: 2+3 brings a pawn out with both dice."""
    s = position(R, {"Y1": 30})
    s, _ = play(R, s, "r2.3")
    assert legal(s) == {"out"}
    assert render(R.action_label(s, "out"), "fr") == "jaune 2\u00a0: sortie sur 5 (2+3)"
    s, _ = play(R, s, "out")
    assert where(s, "Y2") == "5" and s.turn == 1


def test_own_bridge_on_start_square():
    """PM-6.2, PM-6.3, PM-EX-3: no bring-out while two own pawns hold the start; re-checked after each die."""
    s = position(R, {"Y1": 5, "Y2": 5})
    s, _ = play(R, s, "r5.2")
    assert legal(s) == {"Y1+5", "Y1+2", "Y1+7", "Y2+5", "Y2+2", "Y2+7"}
    a, _ = play(R, s, "Y1+2")
    assert legal(a) == {"out"}
    b, _ = play(R, s, "Y1+5")
    assert legal(b) == {"Y1+2", "Y2+2"}


def test_bring_out_onto_own_and_foreign_pawn():
    """PM-6.4, PM-6.9, PM-EX-10: the green pawn is captured, Y1+Y2 make a bridge, then the 20."""
    s = position(R, {"Y1": 5, "G1": 5})
    s, events = play(R, s, "r5.1", "out")
    assert where(s, "G1") == "house" and where(s, "Y2") == "5"
    assert legal(s) == {"Y1+20", "Y2+20"}
    s, _ = play(R, s, "Y2+20")
    assert where(s, "Y2") == "25" and legal(s) == {"Y1+1", "Y2+1"}


def test_bring_out_onto_two_foreign_pawns():
    """PM-6.5, PM-1.8, PM-6.9, PM-EX-9: the pawn that arrived last (R1) is captured."""
    s = position(R, {"B1": 5, "R1": 5, "Y1": 30})
    s, _ = play(R, s, "r5.6")
    assert legal(s) == {"out"}
    s, _ = play(R, s, "out")
    assert where(s, "R1") == "house" and where(s, "B1") == "5" and where(s, "Y2") == "5"
    assert legal(s) == {"Y1+20", "Y2+20"}
    s, _ = play(R, s, "Y1+20")
    assert where(s, "Y1") == "50" and legal(s) == {"Y1+6", "Y2+6"}


def test_bring_out_captures_from_a_foreign_bridge():
    """PM-6.5, PM-7.3: even a bridge on the start square loses its last arrival."""
    s = position(R, {"B2": 5, "B1": 5, "Y1": 30})
    s, _ = play(R, s, "r5.6", "out")
    assert where(s, "B1") == "house" and where(s, "B2") == "5"


def test_lone_foreign_pawn_on_start_square():
    """PM-6.6, PM-EX-11: the pawn comes out and shares square 5 with B1; no capture, no bonus."""
    s = position(R, {"B1": 5, "Y1": 40})
    s, events = play(R, s, "r5.3", "out")
    assert where(s, "B1") == "5" and where(s, "Y2") == "5" and s.bonus == ()
    assert legal(s) == {"Y1+3", "Y2+3"}


def test_five_is_ordinary_with_an_empty_house():
    """PM-6.8: with no pawn in the house a 5 moves a pawn."""
    s = position(R, {"Y1": 30, "Y2": "goal", "Y3": "goal", "Y4": "goal"})
    assert "Y1+5" in legal(play(R, s, "r5.1")[0])


# --- captures and bonuses ------------------------------------------------------------

def test_capture_and_immediate_20():
    """PM-7.1, PM-7.4, PM-7.5, PM-8.5, PM-EX-6: capture with the 4, play the 20 before the 2; capture is optional."""
    s = position(R, {"Y1": 10, "Y2": 40, "B1": 14})
    s, _ = play(R, s, "r4.2")
    assert {"Y1+4", "Y1+6", "Y2+4"} <= legal(s)
    a, events = play(R, s, "Y1+4")
    assert where(a, "B1") == "house" and "parcheesi.event.capture" in keys(events)
    assert legal(a) == {"Y1+20", "Y2+20"}
    assert render(R.action_label(a, "Y2+20"), "en") == "yellow 2: 40 → 60 (bonus 20)"
    a, _ = play(R, a, "Y2+20")
    assert legal(a) == {"Y1+2", "Y2+2"}
    b, _ = play(R, s, "Y1+6")
    assert where(b, "Y1") == "16" and where(b, "B1") == "14"


def test_bridge_pawns_cannot_be_captured():
    """PM-7.3: a bridge square can never be entered by a move."""
    s = position(R, {"B1": 14, "B2": 14, "Y1": 10, "Y2": "goal", "Y3": "goal", "Y4": "goal"})
    assert "Y1+4" not in legal(play(R, s, "r4.1")[0])


def test_bonus_may_not_form_a_bridge():
    """PM-8.4, PM-EX-7: Y1 cannot take the 20 onto Y2; Y2 must take it."""
    s = position(R, {"Y1": 10, "Y2": 34, "B1": 14})
    s, _ = play(R, s, "r4.6", "Y1+4")
    assert legal(s) == {"Y2+20"}
    s, _ = play(R, s, "Y2+20")
    assert where(s, "Y2") == "54"


def test_bonus_rules():
    """PM-8.1, PM-8.2, PM-8.3: one pawn on the board takes the whole bonus; never out of the house; bridges block it."""
    s = position(R, {"Y1": 10, "B1": 14, "R1": 20, "R2": 20})
    s, events = play(R, s, "r4.2", "Y1+4")
    # Y1 14 -> 34 would cross the red bridge on 20; the house pawns cannot take it: lost.
    assert "parcheesi.event.bonus_lost" in keys(events)
    assert legal(s) == {"Y1+2"} and s.bonus == ()


def test_bonus_into_the_goal_and_chaining():
    """PM-8.4, PM-8.7: a bonus may end in the goal next to own pawns, and earns a new 10."""
    s = position(R, {"Y1": "H5", "Y2": 66, "Y3": "goal", "Y4": 30})
    s, _ = play(R, s, "r3.1", "Y1+3")
    assert legal(s) == {"Y2+10", "Y4+10"}
    s, events = play(R, s, "Y2+10")
    assert where(s, "Y2") == "goal" and legal(s) == {"Y4+10"}
    s, _ = play(R, s, "Y4+10")
    assert where(s, "Y4") == "40"


def test_bonus_capture_chains_a_new_20():
    """PM-8.7: a bonus move that captures earns a new 20, played at once."""
    s = position(R, {"Y1": 11, "B1": 15, "B2": 35, "Y2": "goal", "Y3": "goal", "Y4": "goal"})
    s, events = play(R, s, "r4.2", "Y1+4", "Y1+20")
    assert where(s, "B2") == "house" and legal(s) == {"Y1+20"}
    assert keys(events).count("parcheesi.event.capture") == 2
    s, _ = play(R, s, "Y1+20")
    assert where(s, "Y1") == "55" and legal(s) == {"Y1+2"}


def test_bonus_lost_when_nobody_can_play_it():
    """PM-8.6: the capturing pawn cannot take 20 (beyond the goal) and nobody else can: it is lost."""
    s = position(R, {"Y1": 60, "B1": 62, "Y2": "goal", "Y3": "goal", "Y4": "goal"})
    s, events = play(R, s, "r2.1", "Y1+2")
    assert "parcheesi.event.bonus_lost" in keys(events)
    assert s.bonus == () and legal(s) == {"Y1+1"}


# --- end of the game ---------------------------------------------------------------

def test_four_pawns_home_win_at_once():
    """PM-9.1: the game ends immediately; the other die and the bonus are dropped."""
    s = position(R, {"Y1": "goal", "Y2": "goal", "Y3": "goal", "Y4": "H6"})
    s, events = play(R, s, "r2.4", "Y4+2")
    assert R.result(s) == Result((0,)) and R.to_move(s) is None
    assert s.bonus == () and R.legal_actions(s) == [] and not R.roll_due(s)
    assert events[-1].key == "parcheesi.event.wins"
    with pytest.raises(IllegalAction):
        R.apply(s, "r1.2")


# --- two against two -----------------------------------------------------------------

def test_capturing_a_partner():
    """PM-10.2, PM-EX-14: yellow captures its partner red and plays a 20."""
    s = position(R, {"Y1": 20, "R1": 24}, teams=True)
    s, _ = play(R, s, "r4.6", "Y1+4")
    assert where(s, "R1") == "house" and legal(s) == {"Y1+20"}


def test_partners_never_form_a_bridge():
    """PM-10.2: a yellow and a red pawn on one safe square are passed like any mixed pair."""
    s = position(R, {"Y1": 29, "R1": 29, "Y2": 27, "Y3": "goal", "Y4": "goal"}, teams=True)
    s, _ = play(R, s, "r4.1")
    assert "Y2+4" in legal(s) and "Y2+2" not in legal(s)


def test_finishing_player_plays_partner():
    """PM-10.3, PM-EX-16: yellow's last pawn arrives: the 10 and the 4 move red pawns, and so do yellow's turns."""
    s = position(R, {"Y1": "goal", "Y2": "goal", "Y3": "goal", "Y4": "H6", "R1": 40}, teams=True)
    s, events = play(R, s, "r2.4", "Y4+2")
    assert "parcheesi.event.plays_partner" in keys(events)
    assert legal(s) == {"R1+10"}
    s, _ = play(R, s, "R1+10")
    assert where(s, "R1") == "50" and legal(s) == {"R1+4"}
    s, _ = play(R, s, "R1+4")
    assert s.turn == 1
    s = s._replace(turn=0)
    s, _ = play(R, s, "r5.1")
    assert legal(s) == {"out"}
    s, _ = play(R, s, "out")
    assert where(s, "R2") == "39"
    notes = R.scene(s).notes
    assert any(n.key == "parcheesi.note.plays_partner" for n in notes)


def test_dice_only_for_own_pawns_before_finishing():
    """PM-10.4: while yellow has pawns to play, red pawns are never offered to yellow."""
    s = position(R, {"Y1": 30, "R1": 40}, teams=True)
    s, _ = play(R, s, "r4.2")
    assert all(a.startswith("Y") for a in legal(s))


def test_team_wins_with_eight_pawns():
    """PM-10.5: yellow finishing is not enough; the team wins when red's last pawn arrives too."""
    s = position(R, {"Y1": "goal", "Y2": "goal", "Y3": "goal", "Y4": "H6",
                     "R1": "goal", "R2": "goal", "R3": "goal", "R4": "H2"}, teams=True)
    s, _ = play(R, s, "r2.6", "Y4+2")
    assert R.result(s) is None
    s, events = play(R, s, "R4+6")      # the 10 cannot be played (beyond the goal); the 6 brings R4 home
    assert R.result(s) == Result((0, 2))
    assert events[-1].key == "parcheesi.event.team_wins"


# --- enforcement ---------------------------------------------------------------------

def test_every_illegal_action_is_refused():
    """PM-11.1: no cheating: accepted = legal, no call-outs, malformed codes refused."""
    s = position(R, {"Y1": 30, "Y2": "goal", "Y3": "goal", "Y4": "goal"})
    s, _ = play(R, s, "r4.2")
    assert R.accepted_actions(s) == R.legal_actions(s)
    assert R.call_actions(s, 1) == []
    for bad in ("Y1+3", "Y1+5", "call", "B1+4", "y1+4", "Y1+04 ", "Y5+4", "", "x" * 100, "r4.2"):
        with pytest.raises(IllegalAction):
            R.apply(s, bad)
    with pytest.raises(IllegalAction):
        R.apply(s, "Y1+4", seat=1)
    assert not R.allows_cheating


# --- API details ------------------------------------------------------------------------

def test_registry_words_and_views():
    """PM-1.5, PM-3.4: labels, groups, describe and the board view say what the state holds; a corridor
    square in each language's words."""
    assert isinstance(get_ruleset("parcheesi"), Mundijeux)
    s = position(R, {"Y1": 10, "B1": 14, "Y2": "H3"})
    s, _ = play(R, s, "r4.2")
    assert render(R.action_label(s, "Y1+4"), "en") == "yellow 1: 10 → 14 (die 4)"
    assert render(R.action_label(s, "Y1+6"), "fr") == "jaune 1\u00a0: 10 → 16 (4+2)"
    assert render(R.action_label(s, "Y2+4"), "en") == "yellow 2: corridor square 3 → corridor square 7 (die 4)"
    assert render(R.action_label(s, "Y2+4"), "es") == "amarillo 2: pasillo 3 → pasillo 7 (dado 4)"
    assert R.action_group(s, "Y1+4") == "Y1"
    assert render(R.group_label(s, "Y1"), "fr") == "jaune 1"
    text = [render(m, "en") for m in R.describe(s)]
    assert text[0].startswith("Player 1 (yellow): 2 in the house, 0 in the goal; "
                              "on the board: pawn 1 on 10, pawn 2 on corridor square 3")
    assert "peão 1 (10), peão 2 (corredor 3)" in render(R.describe(s)[0], "pt-BR")
    assert text[-1] == "Player 1 plays 4 + 2."
    s, _ = play(R, s, "Y1+4")
    view = R.scene(s)
    assert view.dice == (4, 2) and view.used_dice == (True, False)
    assert view.last_move == ("yellow", 5, 9)
    assert [n.key for n in view.notes] == ["parcheesi.note.bonus"]
    assert len(view.pawns) == 16 and view.pawns[0].label == "1" and view.pawns[0].progress == 9
    assert R.from_json(R.to_json(s)) == s
    assert render(R.describe(s)[-2], "fr") == "Bonus de 20 à jouer."
