"""Scenario tests for Parchís Maghreb, one or more per rule of parchis-maghreb.md (MG-...)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.domain.i18n import catalogue, render
from bot.games import get_ruleset
from bot.games.base import GameError, IllegalAction
from bot.games.parcheesi.board import GOAL, HOUSE
from bot.games.parcheesi.maghreb import Maghreb
from bot.games.parcheesi.maghreb_state import COUNT, DIE, KEYS, MaghrebState
from tests.rules import rules_text

G = Maghreb()
# What the opponent of red and green (seat 0) may name in a call-out: any of their pieces (MG-10.3).
CALLS_ON_SEAT_0 = [f"call:{colour}{n}" for colour in "RG" for n in range(1, 5)]
NAMES = [f"{c}{n}" for c in "rgyb" for n in range(1, 5)]


def progress_of(owner: int, where: int | str) -> int:
    """Progress of a track square (int), column square ("C5"), "exit" or "house" on `owner`'s route."""
    if where == "exit":
        return GOAL
    if where == "house":
        return HOUSE
    if isinstance(where, str):
        return 63 + int(where[1:])
    return KEYS[owner].index(where)


def position(seat: int = 0, **where: int | str) -> MaghrebState:
    """A position after both first turns (unless turn_no says otherwise), `seat` to roll."""
    turn_no = where.pop("turn_no", 2 + seat)
    pieces = [HOUSE] * 16
    for name, w in where.items():
        i = NAMES.index(name)
        pieces[i] = progress_of(i >> 3, w)
    return MaghrebState(pieces=tuple(pieces), seat=seat, turn_no=turn_no)


def square(s: MaghrebState, name: str) -> int | str:
    i = NAMES.index(name)
    p = s.pieces[i]
    if p == HOUSE:
        return "house"
    if p == GOAL:
        return "exit"
    return KEYS[i >> 3][p] if p <= 63 else f"C{p - 63}"


def play(s: MaghrebState, *actions: str) -> MaghrebState:
    for a in actions:
        s = G.apply(s, a).state
    return s


def keys(events) -> list[str]:
    return [e.key for e in events]


# --- coverage of the rules file -------------------------------------------------

def test_every_rule_id_is_cited():
    """Every MG rule, open point and example ID appears in these tests."""
    ids = set(re.findall(r"MG-(?:EX-\d+|OP-\d+|\d+\.\d+)", rules_text("parchis-maghreb.md")))
    here = Path(__file__).parent
    sources = "".join(p.read_text(encoding="utf-8") for p in here.glob("test_maghreb*.py"))
    cited = set(re.findall(r"MG-(?:EX-\d+|OP-\d+|\d+\.\d+)", sources.replace(" ", "")))
    assert ids and ids <= cited, sorted(ids - cited)


# --- 1, 2: components, board, setup ----------------------------------------------

def test_setup_two_players_two_colours_each():
    """MG-1.1, MG-1.3, MG-1.4, MG-1.5, MG-2.1, MG-2.2, MG-OP-2, MG-OP-3."""
    assert get_ruleset("parchis-maghreb").id == "parchis-maghreb"
    assert G.seat_colours(2, {}) == [("red", "green"), ("yellow", "blue")]
    with pytest.raises(GameError):
        G.check_setup(3, {})
    s = G.new_game(2, {}, 0)
    assert s.pieces == (HOUSE,) * 16 and G.to_move(s) == 0 and G.roll_due(s)
    view = G.scene(s)
    assert [p.route for p in view.pawns] == ["red"] * 8 + ["yellow"] * 8
    assert [p.colour for p in view.pawns][::4] == ["red", "green", "yellow", "blue"]


def test_routes_and_board():
    """MG-1.2, MG-1.3, MG-1.4, MG-1.6, MG-OP-1: red runs 39..34 then its column, yellow 5..68;
    the columns are private squares, so pieces there can never be eaten."""
    assert (KEYS[0][0], KEYS[0][63], KEYS[1][0], KEYS[1][63]) == (39, 34, 5, 68)
    assert not set(KEYS[0][64:]) & set(KEYS[1]) and not set(KEYS[1][64:]) & set(KEYS[0])


# --- 3: first turn --------------------------------------------------------------------

def test_first_roll_chooses_colour():
    """MG-EX-1, MG-3.1, MG-2.3: the chosen colour enters and moves at once; the turn ends."""
    s = G.apply(G.new_game(2, {}, 0), "r3").state
    assert G.legal_actions(s) == ["out:R+3", "out:G+3"]
    s = play(s, "out:G+3")
    assert square(s, "g1") == 42 and s.seat == 1 and G.roll_due(s)


def test_first_roll_five_and_no_rule_of_five_in_first_turn():
    """MG-EX-2, MG-3.1, MG-3.2, MG-OP-4: a first 5 moves on; a 5 after a first 6 is an ordinary move."""
    s = play(G.new_game(2, {}, 0), "r5", "out:R+5")
    assert square(s, "r1") == 44 and s.pieces[1:8] == (HOUSE,) * 7 and s.seat == 1
    s = play(G.new_game(2, {}, 0), "r6", "out:R+6")
    assert square(s, "r1") == 45 and s.seat == 0 and G.roll_due(s)
    s = play(s, "r5")
    assert G.legal_actions(s) == ["R1+5"]


# --- 4: moving --------------------------------------------------------------------------

def test_moves_of_one_to_four():
    """MG-4.1, MG-4.4: forward only, one piece, the value rolled; a backward code does not exist."""
    s = play(position(r1=40, g1=60), "r4")
    assert G.legal_actions(s) == ["R1+4", "G1+4"]
    for bad in ("R1-4", "R1+0", "R1+04", "r7", "R5+1", "out:R+7", "call:R", "x", "R1+4 "):
        with pytest.raises(IllegalAction):
            G.apply(s, bad)


def test_exact_exit():
    """MG-EX-15, MG-4.2, MG-OP-18."""
    s = play(position(r1="C6", r2=20), "r4")
    assert G.legal_actions(s) == ["R2+4"]
    with pytest.raises(IllegalAction):      # beyond the exit: impossible even as cheating
        G.apply(s, "R1+4")


def test_doors_block_every_move():
    """MG-4.3, MG-8.2, MG-OP-6: no passing or landing on a door, whoever owns it; cheating may pass it."""
    s = play(position(r1=40, g1=10, y1=42, y2=42), "r3")
    assert G.legal_actions(s) == ["G1+3"]
    assert "R1+3" in G.accepted_actions(s)
    s = play(position(r1=40, r2=42, g2=42, g1=10), "r3")
    assert "R1+3" not in G.legal_actions(s)


def test_landing_outcomes():
    """MG-4.5, MG-8.1, MG-8.3: empty, own piece (door), opponent on a safe square (mixed door),
    opponent elsewhere (eaten), two pieces (impossible, even as cheating)."""
    s = play(position(r1=40, g1=43), "r3", "R1+3")
    assert square(s, "r1") == square(s, "g1") == 43
    s = play(position(r1=43, y1=46), "r3", "R1+3")
    assert square(s, "r1") == square(s, "y1") == 46
    s = play(position(r1=40, y1=43), "r3", "R1+3")
    assert square(s, "y1") == "house" and s.pending == (20,)
    s = play(position(r1=40, y1=43, y2=43, g1=10), "r3")
    assert "R1+3" not in G.accepted_actions(s)
    with pytest.raises(IllegalAction):
        G.apply(s, "R1+3")


def test_lost_roll_and_lost_six():
    """MG-4.6, MG-OP-5, MG-OP-19: with no legal action the roll is lost; a lost 6 still rolls again."""
    r = G.apply(position(r1=40, y1=42, y2=42), "r3")
    assert "maghreb.event.no_move" in keys(r.events) and r.state.seat == 1 and G.roll_due(r.state)
    r = G.apply(position(r1=40, y1=42, y2=42), "r6")
    assert "maghreb.event.no_move" in keys(r.events) and r.state.seat == 0 and G.roll_due(r.state)


def test_eating_is_optional():
    """MG-4.7, MG-OP-5."""
    s = play(position(r1=40, y1=43, r2=10), "r3")
    assert set(G.legal_actions(s)) == {"R1+3", "R2+3"}


# --- 5: rule of 5 -----------------------------------------------------------------------

def test_five_must_bring_out():
    """MG-EX-3, MG-5.1, MG-5.2, MG-5.6: the bring-out beats eating; no extra roll."""
    s = play(position(r1=50, y1=55), "r5")
    assert G.legal_actions(s) == ["out:R", "out:G"]
    assert "R1+5" in G.accepted_actions(s)
    s = play(s, "out:R")
    assert square(s, "r2") == 39 and square(s, "y1") == 55 and s.seat == 1


def test_five_with_own_door_on_start():
    """MG-EX-4, MG-5.3."""
    s = play(position(r1=39, g1=39, r2=50), "r5")
    assert set(G.legal_actions(s)) == {"R1+5", "G1+5", "R2+5"}


def test_bring_out_beside_own_piece_forms_door():
    """MG-5.5."""
    s = play(position(r1=39), "r5", "out:G")
    assert square(s, "r1") == square(s, "g1") == 39


def test_bring_out_eats_on_start_square():
    """MG-EX-5, MG-5.4, MG-7.2."""
    s = play(position(y1=39, r1=60), "r5")
    assert G.legal_actions(s) == ["out:R", "out:G"]
    s = play(s, "out:R")
    assert square(s, "r2") == 39 and square(s, "y1") == "house" and s.phase == COUNT
    assert set(G.legal_actions(s)) == {"R1+20", "R2+20"}
    assert square(play(s, "R2+20"), "r2") == 59 and square(play(s, "R1+20"), "r1") == 12


def test_bring_out_eats_two():
    """MG-EX-6, MG-5.4, MG-7.5, MG-OP-13: both eaten, two counts of 20; a mixed door loses its opponent."""
    s = play(position(y1=39, y2=39), "r5", "out:G")
    assert square(s, "y1") == square(s, "y2") == "house" and s.pending == (20, 20)
    s = play(s, "G1+20")
    assert square(s, "g1") == 59 and s.pending == (20,)
    s = play(s, "G1+20")
    assert square(s, "g1") == 11 and s.seat == 1
    s = play(position(r1=39, y1=39), "r5", "out:R")
    assert square(s, "r2") == square(s, "r1") == 39 and square(s, "y1") == "house"


def test_five_with_empty_house_spares_opponent_on_start():
    """MG-5.7, MG-OP-20."""
    out = dict(r1=40, r2=41, r3=42, r4=43, g1=44, g2=45, g3=47, g4=48)
    s = play(position(y1=39, **out), "r5")
    assert all(a.endswith("+5") for a in G.legal_actions(s))
    assert square(play(s, G.legal_actions(s)[0]), "y1") == 39


# --- 6: rule of 6 -----------------------------------------------------------------------

def test_six_no_complete_colour():
    """MG-EX-7, MG-6.5, MG-6.1, MG-6.6."""
    s = play(position(r1=40, g1=60), "r6")
    assert G.legal_actions(s) == ["R1+6", "G1+6"]
    s = play(s, "R1+6")
    assert square(s, "r1") == 46 and s.seat == 0 and G.roll_due(s)


def test_six_with_complete_colour():
    """MG-EX-8, MG-6.2, MG-6.5 (a), MG-OP-7."""
    s = play(position(r1=40, r2=41, r3=42, r4=43), "r6")
    assert G.legal_actions(s) == ["R1+12", "R2+12", "R3+12", "R4+12"]
    assert square(play(s, "R1+12"), "r1") == 52
    s = play(position(r1=40, r2=41, r3=42, r4=43, y1=46, y2=46, g1=60), "r6")
    assert G.legal_actions(s) == ["G1+6"]
    assert G.roll_due(play(s, "G1+6"))


def test_six_with_both_colours_complete():
    """MG-6.5 (b), MG-OP-8: any piece 12 if one can, else any piece 6."""
    column = dict(r2="C2", r3="C3", r4="C4", g1="C5", g2="C6", g3="C7", g4="exit")
    s = play(position(r1=40, **column), "r6")
    assert G.legal_actions(s) == ["R1+12"]
    s = play(position(r1="C1", **column), "r6")
    assert G.legal_actions(s) == ["R1+6", "R2+6"]


def test_twelve_is_one_move():
    """MG-6.3, MG-OP-10: only the final square counts; a door anywhere on the path blocks it."""
    s = play(position(r1=41, r2=60, r3=10, r4=20, y3=47), "r6", "R1+12")
    assert square(s, "r1") == 53 and square(s, "y3") == 47
    s = play(position(r1=40, r2=60, r3=10, r4=20, y1=48, y2=48), "r6")
    assert "R1+12" not in G.legal_actions(s)


def test_six_must_open_door():
    """MG-EX-9, MG-6.4 (b), MG-8.4."""
    s = play(position(r1=45, g1=45, r2=20), "r6")
    assert G.legal_actions(s) == ["R1+6", "G1+6"]
    assert G.roll_due(play(s, "G1+6"))
    s = play(position(r1=40, g1=40), "r3")       # any roll may open a door too
    assert G.legal_actions(s) == ["R1+3", "G1+3"]


def test_door_opened_with_twelve():
    """MG-EX-10, MG-6.4 (a), MG-OP-16."""
    s = play(position(r1=45, r2=45, r3=10, r4=20), "r6")
    assert G.legal_actions(s) == ["R1+12", "R2+12"]
    assert square(play(s, "R2+12"), "r2") == 57


def test_sacrifice():
    """MG-EX-11, MG-6.7, MG-OP-9: a 6 that eats instead of the 12; count 20, then the turn ends."""
    s = play(position(r1=41, r2=44, r3=48, r4=53, y1=47), "r6")
    assert set(G.legal_actions(s)) == {"R1+12", "R2+12", "R3+12", "R4+12", "R1+6"}
    r = G.apply(s, "R1+6")
    assert "maghreb.event.sacrifice" in keys(r.events) and square(r.state, "y1") == "house"
    s = play(r.state, "R2+20")
    assert square(s, "r2") == 64 and s.seat == 1 and G.roll_due(s)


def test_sacrifice_from_a_door():
    """MG-6.7: when a door had to be opened with 12, the eating 6 must leave an openable door."""
    s = play(position(r1=44, r2=44, r3=10, r4=20, y1=50, y2=16), "r6")
    assert set(G.legal_actions(s)) == {"R1+12", "R2+12", "R1+6", "R2+6"}


def test_third_six():
    """MG-EX-12, MG-6.8, MG-OP-11, MG-10.7: the last piece moved dies unless safe; the turn ends."""
    s = play(position(r1=40, g1=45), "r6", "R1+6", "r6", "R1+6")
    r = G.apply(s, "r6")
    assert "maghreb.event.third_six_killed" in keys(r.events)
    assert square(r.state, "r1") == "house" and r.state.seat == 1 and r.state.pending == ()
    s = play(position(r1=40, g1=45), "r6", "R1+6", "r6", "G1+6", "r6")
    assert (square(s, "r1"), square(s, "g1"), s.seat) == (46, 51, 1)


# --- 7: counts ---------------------------------------------------------------------------

def test_chained_counts_of_ten():
    """MG-EX-13, MG-7.1, MG-7.4, MG-4.8."""
    s = play(position(r1="C5", g1=32, r2=20), "r3", "R1+3")
    assert square(s, "r1") == "exit" and s.pending == (10,)
    assert G.legal_actions(s) == ["R2+10", "G1+10"]
    s2 = play(s, "G1+10")
    assert square(s2, "g1") == "exit" and G.legal_actions(s2) == ["R2+10"]
    assert square(play(s2, "R2+10"), "r2") == 30
    assert square(play(s, "R2+10"), "r2") == 30


def test_count_twenty_exits_a_piece():
    """MG-EX-14, MG-7.2, MG-7.4."""
    s = play(position(r1=20, y1=24, g1=22), "r4", "R1+4")
    assert square(s, "y1") == "house" and G.legal_actions(s) == ["G1+20"]
    s = play(s, "G1+20")
    assert G.legal_actions(s) == ["R1+10"]
    assert square(play(s, "R1+10"), "r1") == 34


def test_counts_are_played_at_once_newest_first():
    """MG-7.3, MG-OP-15: a count caused by a count comes before the count still waiting; an
    unplayable count is lost."""
    s = play(position(y1=39, y2=39, r1=22), "r5", "out:R", "R1+20")
    assert square(s, "r1") == "exit" and s.pending == (20, 10)
    assert all(a.endswith("+10") for a in G.legal_actions(s))
    s = play(position(r1=40, y1=43, y2=50, y3=50, r2="C3"), "r3")
    r = G.apply(s, "R1+3")                              # eats; count 20: nobody can make it
    assert "maghreb.event.count_lost" in keys(r.events) and r.state.seat == 1


def test_count_is_an_ordinary_move():
    """MG-7.6: a count ignores the priorities of 5 and 6 and may form a door."""
    s = play(position(r1=40, y1=43, g1=45, g2=45, r2=10), "r3", "R1+3")
    assert "R2+20" in G.legal_actions(s) and square(s, "g1") == 45   # the door need not open
    s = play(position(r1=40, y1=43, g1=63), "r3", "R1+3", "R1+20")
    assert square(s, "r1") == square(s, "g1") == 63


# --- 8: doors --------------------------------------------------------------------------

def test_mixed_door():
    """MG-EX-16, MG-8.1, MG-8.3, MG-6.4, MG-OP-6, MG-OP-16."""
    s = play(position(seat=1, r1=63, y1=60, r2=10), "r3", "Y1+3")
    assert square(s, "y1") == square(s, "r1") == 63 and s.seat == 0
    s = play(s, "r6")
    assert G.legal_actions(s) == ["R1+6"]
    assert square(play(s, "R1+6"), "r1") == 1
    s = play(position(r1=63, y1=63, r2=60), "r4")
    assert "R2+4" not in G.legal_actions(s)


def test_adjacent_doors():
    """MG-8.5: a door right in front of another keeps the rear one shut."""
    s = play(position(r1=40, g1=40, r2=41, g2=41), "r3")
    assert G.legal_actions(s) == ["R2+3", "G2+3"]


def test_door_of_death():
    """MG-EX-17, MG-8.6, MG-OP-12, MG-OP-21: bab almawt is legal and needs no special rule."""
    s = play(position(r1=34, g1=34, r2="C6", g2="C6", r3=10), "r6")
    assert G.legal_actions(s) == ["R3+6"]
    assert G.roll_due(play(s, "R3+6"))
    s = play(position(seat=1, r1=34, g1=34, y1=30), "r4")
    assert "Y1+4" not in G.legal_actions(s)
    s = play(position(r1=34, g1=34, r2="C2", g2="C2", r3=10), "r6")
    assert G.legal_actions(s) == ["R2+6", "G2+6"]
    s = play(s, "R2+6")
    assert square(s, "r2") == "exit" and G.legal_actions(s) == ["R3+10"]


# --- 9: end ------------------------------------------------------------------------------

def test_classy_victory():
    """MG-EX-19, MG-9.1, MG-9.2, MG-OP-14."""
    done = dict(r1="exit", r2="exit", r3="exit", r4="exit", g1="exit", g2="exit", g3="exit")
    r = G.apply(play(position(g4="C7", **done), "r1"), "G4+1")
    assert G.result(r.state).winners == (0,) and G.result(r.state).details == {"classy": True}
    assert "maghreb.event.classy" in keys(r.events) and G.to_move(r.state) is None
    s = play(position(g4="C5", **done), "r3", "G4+3")
    assert G.result(s).details == {"classy": False}
    done.pop("g3")
    s = play(position(g3="C7", g4=32, **done), "r1", "G3+1", "G4+10")   # through the count it caused
    assert G.result(s).details == {"classy": True}
    with pytest.raises(IllegalAction):
        G.apply(s, "r1")


# --- 10: cheating -------------------------------------------------------------------------

def test_caught_cheating():
    """MG-EX-18, MG-10.1, MG-10.2, MG-10.3, MG-10.4, MG-OP-17."""
    s = play(position(r1=40, r2=10, y1=44), "r3")
    assert set(G.legal_actions(s)) == {"R1+3", "R2+3"}
    assert "R1+4" in G.accepted_actions(s)
    before = s
    cheat = G.apply(s, "R1+4")
    honest = G.apply(play(position(r1=40, r2=10, y1=44), "r4"), "R1+4")
    assert keys(cheat.events) == keys(honest.events)             # the bot does not tell (MG-10.2)
    s = play(cheat.state, "R2+20")
    assert (square(s, "r1"), square(s, "r2"), square(s, "y1"), s.seat) == (44, 30, "house", 1)
    assert G.call_actions(s, 1) == CALLS_ON_SEAT_0 and G.call_actions(s, 0) == []
    r = G.apply(s, "call:R1", 1)
    assert keys(r.events)[1:] == ["maghreb.event.apology", "maghreb.event.replay"]
    assert r.state.pieces == before.pieces and r.state.phase == DIE and r.state.die == 3
    assert G.accepted_actions(r.state) == G.legal_actions(r.state)
    with pytest.raises(IllegalAction):
        G.apply(r.state, "R1+4")
    assert square(play(r.state, "R1+3"), "r1") == 43
    r = G.apply(s, "call:R2", 1)                                 # MG-10.5
    assert keys(r.events) == ["maghreb.event.call", "maghreb.event.call_wrong"]
    assert r.state.pieces == s.pieces and G.call_actions(r.state, 1) == []



def test_naming_a_piece_that_did_not_move_is_an_invalid_call_out_that_uses_up_the_call():
    """MG-10.3: the opponent may name any piece of the player whose turn is on record, once per turn;
    MG-10.5: naming a piece that did not move is an invalid call-out: nothing changes, the bot says the
    piece moved legally, and a second call in the same turn is refused, even on the cheating piece."""
    s = play(position(r1=40, r2=10, y1=44), "r3", "R1+4")        # MG-10.1: R1 cheats
    assert "call:G3" in G.call_actions(s, 1)
    r = G.apply(s, "call:G3", 1)                                  # G3 is still in the house
    assert keys(r.events) == ["maghreb.event.call", "maghreb.event.call_wrong"]
    assert render(r.events[1], "en") == "The named piece, green 3, moved legally this turn: nothing changes."
    assert r.state.pieces == s.pieces and r.state.call_used and G.call_actions(r.state, 1) == []
    for second in ("call:R1", "call:G3"):
        with pytest.raises(IllegalAction):
            G.apply(r.state, second, 1)
    with pytest.raises(IllegalAction):                            # not a piece of the player on record
        G.apply(s, "call:Y1", 1)

def test_window_closes_at_the_callers_roll():
    """MG-10.3, MG-10.6: the illegal move stands once the opponent has rolled."""
    s = play(position(r1=40, r2=10), "r3", "R1+5")
    assert G.call_actions(s, 1) == CALLS_ON_SEAT_0
    s = play(s, "r2")
    assert G.call_actions(s, 1) == [] and square(s, "r1") == 45


def test_replay_uses_the_same_dice():
    """MG-10.4, MG-10.7: same values in the same order; unused values dropped; the bot's rolls
    cannot be cheated."""
    s = play(position(r1=40, r2=10), "r6", "R1+7")
    assert G.call_actions(s, 1) == CALLS_ON_SEAT_0               # callable during the cheater's turn
    s = play(s, "r4", "R2+4")
    s = G.apply(s, "call:R1").state
    assert s.seat == 0 and s.die == 6 and s.forced == (4,)
    s = play(s, "R1+6")
    assert G.random_roll(s, __import__("random").Random(0)) == "r4"
    with pytest.raises(IllegalAction):
        G.apply(s, "r3")
    s = play(s, "r4", "R2+4")
    assert s.seat == 1 and s.forced == ()
    with pytest.raises(IllegalAction):
        G.apply(s, "R1+1")                                       # not his turn, nothing to move
    s = play(position(r1=41, r2=44, r3=48, r4=53, y1=47), "r6", "R2+2", "r2", "R3+2")
    s = G.apply(s, "call:R2").state
    assert s.forced == (2,)
    s = play(s, "R1+6", "R2+20")                                 # a sacrifice: no more rolls
    assert s.seat == 1 and s.forced == ()


def test_impossible_moves_are_refused():
    """MG-10.1: a third piece, beyond the exit, an opponent's or an exited piece."""
    s = play(position(r1=40, r2="exit", r3=39, g3=39, y1=43, y2=43, y3=50), "r3")
    for bad in ("R1+3", "R1+72", "Y3+3", "R2+1", "R4+3"):
        with pytest.raises(IllegalAction):
            G.apply(s, bad)
    assert "out:R" not in G.accepted_actions(s)      # start square holds two own pieces
    assert "R1+4" in G.accepted_actions(s) and "out:G" not in G.accepted_actions(s)


# --- words, views, serialisation -------------------------------------------------------------

def test_words_and_view():
    s = play(position(r1=40, y1=43, g1=45, g2=45), "r3")
    labels = [render(G.action_label(s, a), "en") for a in G.accepted_actions(s)[:3]]
    assert labels[0] == "red 1: square 40 → square 43 (3)"
    assert G.action_group(s, "R1+3") == "R1" and G.action_group(s, "out:G") == "G3"
    assert render(G.group_label(s, "Y2"), "fr") == "jaune 2"
    s = play(s, "R1+3")
    text = [render(m, "fr") for m in G.describe(s)]
    assert "Joueur 1 doit compter 20." in text
    assert any("dans une porte" in t for t in text)
    view = G.scene(s)
    assert view.dice == (3,) and view.last_move == ("red", 1, 4) and view.extra["pending"] == (20,)
    assert view.extra["call_window"] == 1
    for locale in ("en", "fr"):
        assert all(render(m, locale) != m.key for m in G.describe(s) + [G.rules_summary()])


def test_translations_complete():
    en = json.loads((Path(__file__).resolve().parents[3] / "data/i18n/en/maghreb.json").read_text())
    fr = json.loads((Path(__file__).resolve().parents[3] / "data/i18n/fr/maghreb.json").read_text())
    assert en.keys() == fr.keys()
    assert "game.parchis-maghreb" in catalogue("en") and "game.parchis-maghreb" in catalogue("fr")


def test_json_round_trip_with_snapshot():
    s = play(position(r1=40, r2=10, y1=44), "r3", "R1+4")
    assert s.snapshot is not None
    assert G.from_json(json.loads(json.dumps(G.to_json(s)))) == s
