"""Scenario tests for classic Parcheesi (tests/rules/parcheesi-classic.md).

Seats in a four-player game: 0 blue, 1 red, 2 green, 3 yellow (PC-1.3, PC-3.1).
"""
from __future__ import annotations

import pytest

from bot.domain.i18n import render
from bot.games import get_ruleset
from bot.games.base import GameError, IllegalAction, Result
from bot.games.parcheesi.classic import Classic
from tests.games.parcheesi.positions import keys, play, position, where

C = Classic()
OUT_DONE = (True,) * 4   # every player already had his first 5


def legal(state) -> set[str]:
    return set(C.legal_actions(state))


def accepted(state) -> set[str]:
    return set(C.accepted_actions(state))


def pos(pawns: dict, **fields):
    fields.setdefault("released", OUT_DONE)
    return position(C, pawns, **fields)


# --- components, setup, turns -----------------------------------------------------

def test_one_die():
    """PC-1.1: a roll is one die."""
    s = C.new_game(2, {}, 0)
    with pytest.raises(IllegalAction):
        C.apply(s, "r4.5")
    assert C.apply(s, "r4").state.turn == 1


def test_board_is_the_mundijeux_board():
    """PC-1.2: start squares, refuges, corridor; a lone foreign pawn on a refuge is not captured."""
    s = pos({"B1": 27, "R1": 29, "B2": "goal", "B3": "goal", "B4": "goal"})
    s, events = play(C, s, "r2", "B1+2")
    assert where(s, "R1") == "29" and "parcheesi.event.capture" not in keys(events)
    s = pos({"B1": 15, "B2": "goal", "B3": "goal", "B4": "goal"})
    s, _ = play(C, s, "r3", "B1+3")
    assert where(s, "B1") == "H1"


def test_seats_and_no_teams():
    """PC-1.3: 2 players blue and green, 3 blue red green, 4 all; no team mode."""
    assert C.seat_colours(2, {}) == [("blue",), ("green",)]
    assert C.seat_colours(3, {}) == [("blue",), ("red",), ("green",)]
    assert C.seat_colours(4, {}) == [("blue",), ("red",), ("green",), ("yellow",)]
    assert C.teams(4, {}) is None
    with pytest.raises(GameError):
        C.check_setup(4, {"teams": True})


def test_all_pawns_start_in_the_house():
    """PC-2.1: nothing on the board at the start."""
    s = C.new_game(4, {}, 0)
    assert set(s.pos) == {-1} and C.roll_due(s) and s.turn == 0


def test_turn_order_blue_first():
    """PC-3.1, PC-3.2: blue, red, green, yellow; a roll other than 6 passes the turn."""
    s = C.new_game(4, {}, 0)
    seen = []
    for _ in range(5):
        seen.append(s.turn)
        s, _ = play(C, s, "r2")
    assert seen == [0, 1, 2, 3, 0]


def test_out_of_turn_commands_are_refused():
    """PC-3.3: the bot rolls; a player whose turn it is not is refused, without penalty."""
    s = C.new_game(4, {}, 0)
    with pytest.raises(IllegalAction):
        C.apply(s, "r4", seat=1)
    assert C.apply(s, "r4", seat=0).state.turn == 1


# --- moving ------------------------------------------------------------------------

def test_one_pawn_moves_by_the_die():
    """PC-4.1: the roll moves one pawn by its value."""
    s = pos({"B1": 30, "B2": 40, "B3": "goal", "B4": "goal"})
    s, _ = play(C, s, "r4")
    assert legal(s) == {"B1+4", "B2+4"}


def test_exact_count():
    """PC-4.2, PC-8.2, PC-EX-8: B1 cannot overshoot; with a 2 it enters and B2 must move 10."""
    s = pos({"B1": "H6", "B2": 30, "B3": "goal", "B4": "goal"})
    assert legal(play(C, s, "r3")[0]) == {"B2+3"}
    s, events = play(C, s, "r2")
    assert legal(s) == {"B1+2", "B2+2"}
    s, events = play(C, s, "B1+2")
    assert legal(s) == {"B2+10"}
    s, _ = play(C, s, "B2+10")
    assert where(s, "B2") == "40" and s.turn == 1


def test_barrier_blocks():
    """PC-4.3, PC-EX-10: a green barrier on 34: a 4 passes it, a 3 lands on it: both lost; a 2 is fine."""
    s = pos({"G1": 34, "G2": 34, "B1": 31, "B2": "goal", "B3": "goal", "B4": "goal"})
    for die in (4, 3):
        after, events = play(C, s, f"r{die}")
        assert after.turn == 1 and "parcheesi.event.forfeit" in keys(events)
    s, _ = play(C, s, "r2", "B1+2")
    assert where(s, "B1") == "33"


def test_mixed_pair_is_no_barrier():
    """PC-4.3: a red and a green pawn on a refuge can be passed but not landed on."""
    s = pos({"R1": 29, "G1": 29, "B1": 27, "B2": 26, "B3": "goal", "B4": "goal"})
    s, _ = play(C, s, "r2")
    assert legal(s) == {"B2+2"}
    s = pos({"R1": 29, "G1": 29, "B1": 27, "B2": "goal", "B3": "goal", "B4": "goal"})
    assert legal(play(C, s, "r3")[0]) == {"B1+3"}


def test_landing_cases():
    """PC-4.4: own pawn makes a barrier; foreign on a refuge shares; foreign elsewhere is captured."""
    s, _ = play(C, pos({"B1": 30, "B2": 33, "B3": "goal", "B4": "goal"}), "r3", "B1+3")
    assert where(s, "B1") == where(s, "B2") == "33"
    s, _ = play(C, pos({"B1": 30, "R1": 33, "B3": "goal", "B4": "goal"}), "r3", "B1+3")
    assert where(s, "R1") == "house" and s.bonus == (20,)


def test_unplayable_roll_is_lost():
    """PC-4.5, PC-EX-1: all four pawns home and a 4: the roll is lost and red plays."""
    s = C.new_game(4, {}, 0)
    s, events = play(C, s, "r4")
    assert s.turn == 1 and events[-2].key == "parcheesi.event.forfeit"


def test_lost_six_still_rolls_again():
    """PC-4.5, PC-6.1: an unplayable 6 gives its extra roll."""
    s, events = play(C, C.new_game(4, {}, 0), "r6")
    assert s.turn == 0 and C.roll_due(s) and "parcheesi.event.again" in keys(events)


def test_capture_is_optional():
    """PC-4.6, PC-EX-9: B1 -> 33 captures R1, B2 -> 43 does not; both legal."""
    s = pos({"B1": 30, "B2": 40, "R1": 33, "B3": "goal", "B4": "goal"})
    s, _ = play(C, s, "r3")
    assert legal(s) == {"B1+3", "B2+3"}


def test_capture_with_a_bonus_is_optional():
    """PC-4.6, PC-8.1: the 20 may capture or go elsewhere."""
    s = pos({"B1": 30, "R1": 33, "R2": 53, "B2": 40, "B3": "goal", "B4": "goal"})
    s, _ = play(C, s, "r3", "B1+3")
    assert legal(s) == {"B1+20", "B2+20"}
    a, events = play(C, s, "B1+20")
    assert where(a, "R2") == "house" and legal(a) == {"B1+20", "B2+20"}


# --- fives ------------------------------------------------------------------------

def test_only_a_five_brings_out():
    """PC-5.1: house pawns never move on other values."""
    s = pos({"B1": 30})
    s, _ = play(C, s, "r4")
    assert legal(s) == {"B1+4"}


def test_first_five_brings_two_pawns():
    """PC-5.2, PC-EX-2: the first 5 brings B1 and B2 out as a barrier; the turn passes."""
    s = C.new_game(4, {}, 0)
    s, _ = play(C, s, "r5")
    assert legal(s) == {"out"}
    assert render(C.action_label(s, "out"), "en") == "blue 1 and blue 2: out onto 22 (first 5)"
    s, _ = play(C, s, "out")
    assert where(s, "B1") == where(s, "B2") == "22" and s.turn == 1
    s = s._replace(turn=0)
    s, _ = play(C, s, "r5")
    assert legal(s) == {"B1+5", "B2+5"}     # own barrier on the start square (PC-5.4)


def test_later_fives_bring_one_pawn():
    """PC-5.2, PC-5.3: after the first, a 5 brings one pawn out, and must."""
    s = pos({"B1": 30})
    s, _ = play(C, s, "r5")
    assert legal(s) == {"out"} and accepted(s) == {"out", "B1+5"}
    s, _ = play(C, s, "out")
    assert where(s, "B2") == "22" and where(s, "B3") == "house"


def test_no_bring_out_onto_own_barrier():
    """PC-5.4: with two own pawns on the start square, the 5 moves a pawn (legally)."""
    s = pos({"B1": 22, "B2": 22, "B3": 30})
    s, _ = play(C, s, "r5")
    assert legal(s) == accepted(s) == {"B1+5", "B2+5", "B3+5"}


def test_bring_out_captures_lone_foreign_pawn():
    """PC-5.5, PC-5.3, PC-5.6, PC-8.1, PC-EX-6: R1 alone on 22 is captured; then the 20."""
    s = pos({"R1": 22, "B1": 50})
    s, _ = play(C, s, "r5")
    assert legal(s) == {"out"}
    s, _ = play(C, s, "out")
    assert where(s, "R1") == "house" and where(s, "B2") == "22"
    assert legal(s) == {"B1+20", "B2+20"}
    a, _ = play(C, s, "B1+20")
    assert where(a, "B1") == "2"
    b, _ = play(C, s, "B2+20")
    assert where(b, "B2") == "42"


def test_bring_out_onto_a_foreign_barrier():
    """PC-5.5, PC-7.2, PC-EX-11: R2, the last to arrive, is captured; R1 and B2 share 22; a 20 follows."""
    s = pos({"R1": 22, "R2": 22, "B1": 60})
    s, _ = play(C, s, "r5", "out")
    assert where(s, "R2") == "house" and where(s, "R1") == "22" and where(s, "B2") == "22"
    assert legal(s) == {"B1+20", "B2+20"}


def test_bring_out_onto_own_and_foreign_pawn():
    """PC-5.5: the foreign pawn of an own + foreign pair is captured."""
    s = pos({"B1": 22, "G1": 22})
    s, _ = play(C, s, "r5", "out")
    assert where(s, "G1") == "house" and s.bonus == (20,)


def test_first_five_double_bring_out_captures_twice():
    """PC-5.5, PC-5.6: each pawn of the double bring-out captures in turn: two bonuses of 20."""
    s = position(C, {"R1": 22, "G1": 22, "B3": "goal"})
    s, events = play(C, s, "r5", "out")
    assert where(s, "G1") == "house" and where(s, "R1") == "house"
    assert keys(events).count("parcheesi.event.capture") == 2 and s.bonus == (20, 20)
    s, _ = play(C, s, "B1+20", "B1+20")
    assert where(s, "B1") == "62" and s.turn == 1


# --- sixes ------------------------------------------------------------------------

def test_six_counts_seven_when_the_house_is_empty():
    """PC-6.2, PC-6.1, PC-EX-4: B1 30 -> 37 or B2 40 -> 47; then roll again."""
    s = pos({"B1": 30, "B2": 40, "B3": "goal", "B4": "goal"})
    s, _ = play(C, s, "r6")
    assert legal(s) == {"B1+7", "B2+7"}
    assert render(C.action_label(s, "B1+7"), "en") == "blue 1: 30 → 37 (die 6 counts 7)"
    s, _ = play(C, s, "B1+7")
    assert C.roll_due(s) and s.turn == 0


def test_six_must_open_a_barrier():
    """PC-6.3, PC-6.2, PC-9.1, PC-EX-3: the 6 must move B1 or B2; moving B3 is an infraction red may call out."""
    s = pos({"B1": 22, "B2": 22, "B3": 40})
    s, _ = play(C, s, "r6")
    assert legal(s) == {"B1+6", "B2+6"}
    assert accepted(s) == {"B1+6", "B2+6", "B3+6"}
    cheat, events = play(C, s, "B3+6")
    assert where(cheat, "B3") == "46" and C.roll_due(cheat) and cheat.turn == 0
    called = C.apply(cheat, "call", seat=1)
    assert where(called.state, "B3") == "house"
    assert keys(called.events)[:2] == ["parcheesi.event.call_valid", "parcheesi.event.blown"]
    stands, _ = play(C, cheat, "r2", "B3+2")
    assert stands.turn == 1
    stands = C.apply(stands, "r4", seat=1).state
    late = C.apply(stands, "call", seat=2)
    assert where(late.state, "B3") == "48" and late.events[0].key == "parcheesi.event.call_none"


def test_unopenable_barrier_leaves_the_six_free():
    """PC-6.3: if no barrier pawn can move, the 6 is played normally (no infraction)."""
    s = pos({"B1": 22, "B2": 22, "R1": 28, "R2": 28, "B3": 40})
    s, _ = play(C, s, "r6")
    assert legal(s) == accepted(s) == {"B3+6"}


def test_third_six():
    """PC-6.4, PC-EX-5: the third 6 is not played and B1 (44) goes home; on a refuge it would stay."""
    s = pos({"B1": 30, "B2": 39, "B3": "goal", "B4": "goal"})
    a, events = play(C, s, "r6", "B1+7", "r6", "B1+7", "r6")
    assert where(a, "B1") == "house" and a.turn == 1
    assert "parcheesi.classic.event.third_home" in keys(events)
    b, events = play(C, s, "r6", "B1+7", "r6", "B2+7", "r6")
    assert where(b, "B2") == "46" and b.turn == 1
    assert "parcheesi.classic.event.third_safe" in keys(events)


# --- captures and bonuses ---------------------------------------------------------

def test_capture_sends_home_and_earns_20():
    """PC-7.1, PC-7.3, PC-8.1: the captured pawn goes home; a 20 for any pawn, the capturer included."""
    s = pos({"B1": 30, "B2": 40, "R1": 33, "B3": "goal", "B4": "goal"})
    s, events = play(C, s, "r3", "B1+3")
    assert where(s, "R1") == "house" and legal(s) == {"B1+20", "B2+20"}


def test_refuge_and_barrier_pawns_are_not_captured():
    """PC-7.2: pawns on refuges and barrier pawns are out of reach."""
    s = pos({"B1": 30, "R1": 34, "G2": 36, "G3": 36, "B2": "goal", "B3": "goal", "B4": "goal"})
    s, _ = play(C, s, "r4")
    assert legal(s) == {"B1+4"}
    s, _ = play(C, s, "B1+4")
    assert where(s, "R1") == "34"
    assert legal(play(C, pos({"B1": 32, "G2": 36, "G3": 36, "B2": "goal", "B3": "goal", "B4": "goal"}),
                      "r4")[0]) == set()


def test_bonus_may_form_a_barrier():
    """PC-8.3: unlike Mundijeux, a bonus may end on an own pawn."""
    s = pos({"B1": 30, "R1": 33, "B2": 53, "B3": "goal", "B4": "goal"})
    s, _ = play(C, s, "r3", "B1+3")
    assert "B1+20" in legal(s)
    s, _ = play(C, s, "B1+20")
    assert where(s, "B1") == where(s, "B2") == "53"


def test_bonus_is_immediate_compulsory_lost_or_chained():
    """PC-8.4: the 20 comes before the extra roll of a 6; a bonus nobody can play is lost; bonuses chain."""
    s = pos({"B1": 30, "G1": 37, "G2": 57, "B2": "goal", "B3": "goal", "B4": "goal"})
    s, _ = play(C, s, "r6", "B1+7")
    assert legal(s) == {"B1+20"} and not C.roll_due(s)
    s, events = play(C, s, "B1+20")
    assert where(s, "G2") == "house" and legal(s) == {"B1+20"}
    s, events = play(C, s, "B1+20")
    assert C.roll_due(s) and s.turn == 0
    lost = pos({"B1": 12, "R1": 14, "B2": "goal", "B3": "goal", "B4": "goal"})
    lost, events = play(C, lost, "r2", "B1+2")
    assert "parcheesi.event.bonus_lost" in keys(events) and lost.turn == 1


# --- infractions and call-outs ----------------------------------------------------

def test_skipped_bring_out_and_call_out():
    """PC-5.3, PC-9.1, PC-9.3, PC-9.4, PC-EX-7: B1 50 -> 55 instead of bringing B2 out; green calls it out."""
    s = pos({"B1": 50, "B3": "goal", "B4": "goal"})
    s, _ = play(C, s, "r5")
    assert legal(s) == {"out"} and accepted(s) == {"out", "B1+5"}
    s, _ = play(C, s, "B1+5")
    assert where(s, "B1") == "55" and s.turn == 1
    assert C.call_actions(s, 0) == [] and C.call_actions(s, 2) == ["call"] and C.call_actions(s, 1) == ["call"]
    called = C.apply(s, "call", seat=2).state
    assert where(called, "B1") == "house" and called.turn == 1 and called.cheats == ()
    again = C.apply(called, "call", seat=3)
    assert again.state == called and again.events[0].key == "parcheesi.event.call_none"
    stands = C.apply(s, "r3", seat=1).state
    assert C.call_actions(stands, 2) == ["call"]          # now red's turn is judged
    assert where(C.apply(stands, "call", seat=2).state, "B1") == "55"


def test_only_the_two_infractions_are_accepted():
    """PC-9.1: every other illegal move is refused."""
    s = pos({"G1": 34, "G2": 34, "B1": 31, "B2": 40, "B3": "goal", "B4": "goal"})
    s, _ = play(C, s, "r3")
    assert accepted(s) == legal(s) == {"B2+3"}
    for bad in ("B1+3", "B1+4", "B3+3", "out", "B2+4", "G1+3", "b2+3"):
        with pytest.raises(IllegalAction):
            C.apply(s, bad)


def test_infractions_are_not_announced():
    """PC-9.2: a cheating move reads exactly like a legal one: same event and label wording."""
    s = pos({"B1": 22, "B2": 22, "B3": 40})
    s, _ = play(C, s, "r6")
    legal_events = C.apply(s, "B1+6").events
    cheat_events = C.apply(s, "B3+6").events
    assert keys(legal_events) == keys(cheat_events)
    assert C.action_label(s, "B3+6").key == C.action_label(s, "B1+6").key
    assert all("cheat" not in k and "infraction" not in k for k in keys(cheat_events))


def test_call_out_blows_every_infraction_pawn_even_from_the_goal():
    """PC-9.4: every pawn moved by an infraction in the turn goes home, from the goal too; nothing else is undone."""
    s = pos({"B1": "H1", "B2": 22, "B3": 22, "R1": 40, "B4": "goal"})
    s, _ = play(C, s, "r6", "B1+7")         # skips the barrier opening; B1 reaches the goal: a 10
    assert where(s, "B1") == "goal" and legal(s) == {"B2+10", "B3+10"}
    s, _ = play(C, s, "B2+10", "r1", "B3+1")
    assert s.turn == 1
    s = C.apply(s, "call", seat=1).state
    assert where(s, "B1") == "house" and where(s, "B2") == "32" and where(s, "B3") == "23"


def test_wrong_call_out_has_no_effect():
    """PC-9.5: a call-out on a clean turn changes nothing and says there was no infraction."""
    s = pos({"B1": 30, "B2": "goal", "B3": "goal", "B4": "goal"})
    s, _ = play(C, s, "r4", "B1+4")
    applied = C.apply(s, "call", seat=1)
    assert applied.state == s and applied.events[0].key == "parcheesi.event.call_none"
    assert "souffle" in render(applied.events[0], "fr")
    with pytest.raises(IllegalAction):
        C.apply(s, "call", seat=0)      # the offender himself may not


# --- end ----------------------------------------------------------------------------

def test_first_with_four_pawns_home_wins():
    """PC-10.1: the game ends with the first player whose four pawns are home."""
    s = pos({"B1": "H6", "B2": "goal", "B3": "goal", "B4": "goal"})
    s, events = play(C, s, "r2", "B1+2")
    assert C.result(s) == Result((0,)) and events[-1].key == "parcheesi.event.wins"
    assert C.call_actions(s, 1) == []


def test_registry_words_and_view():
    """PC-9.3: the board view notes the call-out window; describe and labels in both languages."""
    assert isinstance(get_ruleset("parcheesi-classic"), Classic)
    s = pos({"B1": 30, "B2": "goal", "B3": "goal", "B4": "goal"})
    s, _ = play(C, s, "r4")
    assert [n.key for n in C.scene(s).notes] == ["parcheesi.note.call_window"]
    assert render(C.action_label(s, "B1+4"), "fr") == "bleu 1\u00a0: 30 → 34 (dé 4)"
    assert render(C.action_label(s, "call"), "en").startswith("Call out Player 1")
    assert C.action_group(s, "B1+4") == "B1"
    assert C.scene(s).dice == (4,)
    assert C.from_json(C.to_json(s)) == s
