"""Barricade (tests/rules/barricade.md): board geometry against boards.md,
scenario tests by rule ID on the rules file's test graph, and random play."""
from __future__ import annotations

import json
import random
import re
from collections import deque
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain import i18n
from bot.games import get_ruleset
from bot.games.barricade import Barricade
from bot.games.barricade.board import DATA_FILE, make_board, standard_board
from bot.games.barricade.state import MOVE, ORDER, OVER, PLACE, ROLL, SIX, START, START_OF_TURN, Held, State
from bot.games.base import GameError, IllegalAction, Message, Result
from tests.rules import rules_text

ROOT = Path(__file__).resolve().parents[2]

# The examples' test graph (barricade.md, "Examples"). Blue enters at F, below
# T: a point no example mentions, so every example reads the same.
TEST_LINES = [("G", "A"), ("A", "K"), ("K", "M"), ("L", "M"), ("M", "N"), ("L", "P"), ("N", "Q"),
              ("P", "R"), ("Q", "T"), ("R", "S"), ("S", "T"), ("R", "E"), ("T", "F")]
TEST_NAMES = ["G", "A", "K", "L", "M", "N", "P", "Q", "R", "S", "T", "E", "F"]


def graph_game(red_entry: str = "E") -> Barricade:
    names = TEST_NAMES + ([red_entry] if red_entry not in TEST_NAMES else [])
    board = make_board(names, TEST_LINES, goal="G", entry={"red": red_entry, "blue": "F"}, black_points=[],
                       start_line=[red_entry, "F"], colour_sets={2: ("red", "blue")})
    return Barricade(board)


GAME = graph_game()
# Red's entry Z cut off from the graph: red's start pawns can never use a roll
# of 2 or more, so "no other red pawn can use the roll" (BA-EX-5).
CUT_OFF = graph_game("Z")
RED, BLUE = 0, 1


def position(game: Barricade = GAME, red=(), blue=(), bars=(), stage=ROLL, die=None, bonus=None, held=(),
             seat=RED) -> State:
    ix = game.board.index

    def pawns(names):
        return tuple(sorted([START] * (5 - len(names)) + [ix[n] for n in names]))

    return State(colours=("red", "blue"), pawns=(pawns(red), pawns(blue)),
                 barricades=tuple(sorted(ix[b] for b in bars)), held=tuple(sorted(held)), stage=stage, seat=seat,
                 order=(RED, BLUE), die=die, bonus=None if bonus is None else ix[bonus])


def roll(state: State, value: int, game: Barricade = GAME):
    return game.apply(state, f"roll:{value}")


def dests(state: State, pawn: str, game: Barricade = GAME) -> set[str]:
    return {a.split("-")[1] for a in game.legal_actions(state) if a.split("-")[0] == pawn}


def where(state: State, seat: int, game: Barricade = GAME) -> list[str]:
    return sorted(game.board.names[p] if p != START else "start" for p in state.pawns[seat])


def keys(events) -> list[str]:
    return [e.key for e in events]


# --- board geometry (boards.md section 2) -----------------------------------------

def boards_md_picture() -> list[str]:
    text = rules_text("boards.md")
    section = text.split("## 2.")[1].split("## 3.")[0]
    block = section.split("```")[1]
    return [line[4:21].ljust(17) for line in block.splitlines()[2:16]]


def test_board_matches_boards_md_picture():
    """BA-1.1, BA-OP-1: points, goal, black points and entry points as drawn in boards.md."""
    board = standard_board()
    picture = boards_md_picture()
    drawn = {(x, y): ch for y, line in enumerate(picture) for x, ch in enumerate(line) if ch != " "}
    assert set(board.coords) == set(drawn)
    assert len(board.names) == 112
    ix = {xy: i for i, xy in enumerate(board.coords)}
    assert board.goal == ix[next(xy for xy, ch in drawn.items() if ch == "G")]
    assert set(board.black_points) == {ix[xy] for xy, ch in drawn.items() if ch == "#"}
    assert len(board.black_points) == 11
    entries = sorted((xy for xy, ch in drawn.items() if ch in "ABCD"), key=lambda xy: xy[0])
    assert [board.entry[c] for c in ("red", "green", "yellow", "blue")] == [ix[xy] for xy in entries]
    assert board.start_line == {ix[xy] for xy in drawn if xy[1] == 13}


def test_board_has_121_orthogonal_lines_and_is_connected():
    board = standard_board()
    lines = board.lines()
    assert len(lines) == 121
    assert all(abs(board.coords[a][0] - board.coords[b][0]) + abs(board.coords[a][1] - board.coords[b][1]) == 1
               for a, b in lines)
    assert board.neighbours[board.goal] == (board.index["i13"],)
    assert len(distances(board, board.goal)) == 112


def distances(board, origin: int) -> dict[int, int]:
    seen = {origin: 0}
    todo = deque([origin])
    while todo:
        p = todo.popleft()
        for q in board.neighbours[p]:
            if q not in seen:
                seen[q] = seen[p] + 1
                todo.append(q)
    return seen


def test_each_entry_point_is_39_steps_from_the_goal():
    board = standard_board()
    from_goal = distances(board, board.goal)
    assert {c: from_goal[e] for c, e in board.entry.items()} == {"red": 39, "green": 39, "yellow": 39, "blue": 39}


def test_point_names_and_colour_sets():
    board = standard_board()
    assert board.names[board.goal] == "i14"
    entries = {c: board.names[e] for c, e in board.entry.items()}
    assert entries == {"red": "c1", "green": "g1", "yellow": "k1", "blue": "o1"}
    black_points = [board.names[p] for p in board.black_points]
    assert black_points == ["i13", "i11", "i10", "i9", "g7", "k7", "a3", "e3", "i3", "m3", "q3"]
    raw = json.loads(DATA_FILE.read_text())
    assert Barricade().seat_colours(2, {}) == [("red",), ("yellow",)]
    assert Barricade().seat_colours(3, {}) == [("red",), ("green",), ("yellow",)]
    assert Barricade().seat_colours(4, {}) == [(c,) for c in raw["colour_sets"]["4"]]
    # every barricade point belongs to exactly one placement area of at most 25 points (select menus)
    allowed = [p for p in range(112) if p not in board.start_line and p != board.goal]
    assert sorted(p for a in board.areas for p in a.points) == allowed
    assert all(len(a.points) <= 25 for a in board.areas)


def test_registered():
    assert isinstance(get_ruleset("barricade"), Barricade)


# --- 1. components, 2. setup and turn order ---------------------------------------

def test_setup():
    """BA-1.2, BA-1.3, BA-2.1: five pawns per player in the start area, a barricade on every black point."""
    game = Barricade()
    state = game.new_game(4, {}, seed=7)
    assert state.pawns == ((START,) * 5,) * 4
    assert state.barricades == game.board.black_points
    assert state.held == () and state.stage == ORDER and game.roll_due(state)


def test_player_count():
    """BA-1.4, BA-OP-2, BA-OP-14: two to four players, one colour each."""
    game = Barricade()
    for n in (1, 5):
        with pytest.raises(GameError):
            game.check_setup(n, {})
    assert all(len(c) == 1 for c in game.seat_colours(4, {}))
    assert game.teams(4, {}) is None


def test_order_of_play_by_decreasing_roll_ties_roll_again():
    """BA-2.2, BA-OP-3, BA-2.3: decreasing order; only the tied players roll again; a fresh roll opens."""
    game = Barricade()
    state = game.new_game(3, {}, seed=0)
    for seat, value in ((0, 3), (1, 5), (2, 3)):
        assert game.to_move(state) == seat
        applied = game.apply(state, f"roll:{value}", seat=seat)
        state = applied.state
    assert keys(applied.events).count("barricade.event.order_tied") == 2
    assert state.ranking == ((1,), (0, 2)) and game.to_move(state) == 0
    state = game.apply(state, "roll:2").state
    applied = game.apply(state, "roll:4")
    state = applied.state
    assert [e.params["seat"] for e in applied.events if e.key == "barricade.event.order_rank"] == [1, 2, 0]
    assert state.order == (1, 2, 0) and state.stage == ROLL and game.to_move(state) == 1
    # The order stays: three lost turns go round 1, 2, 0, 1.
    seen = []
    for _ in range(4):
        seen.append(game.to_move(state))
        state = game.apply(state, "roll:1").state
        if state.stage == MOVE:
            state = game.apply(state, game.legal_actions(state)[0]).state
    assert seen == [1, 2, 0, 1]


# --- 3. moving (examples on the test graph) ----------------------------------------

def test_ex1_entering():
    """BA-EX-1, BA-3.1, BA-3.2, BA-OP-4, BA-3.3, BA-1.2: the entry point is the first step."""
    state = position()
    assert dests(roll(state, 1).state, "start") == {"E"}
    assert dests(roll(state, 3).state, "start") == {"P", "S"}
    entered = GAME.apply(roll(state, 1).state, "start-E").state
    assert where(entered, RED).count("start") == 4 and "E" in where(entered, RED)


def test_ex2_barricade_blocks_exact_hit_takes_it():
    """BA-EX-2, BA-3.5, BA-5.1."""
    state = position(red=["E"], bars=["P"])
    assert dests(roll(state, 3).state, "E") == {"T"}
    two = roll(state, 2).state
    assert dests(two, "E") == {"P", "S"}
    applied = GAME.apply(two, "E-P")
    assert "barricade.event.take" in keys(applied.events)
    assert applied.state.barricades == ()
    assert applied.state.held == (Held(RED, GAME.board.index["P"], True, False),)


def test_ex3_capture_and_own_pawn():
    """BA-EX-3, BA-3.6, BA-3.7."""
    state = roll(position(red=["E"], blue=["S"]), 2).state
    assert dests(state, "E") == {"S", "P"}
    applied = GAME.apply(state, "E-S")
    assert "barricade.event.capture" in keys(applied.events)
    assert where(applied.state, BLUE) == ["start"] * 5
    own = roll(position(red=["E", "S"]), 2).state
    assert dests(own, "E") == {"P"}


def test_ex4_goal_with_the_exact_count():
    """BA-EX-4, BA-3.3, BA-3.8, BA-OP-11, BA-6.1, BA-OP-13."""
    state = position(red=["K"])
    assert dests(roll(state, 1).state, "K") == {"A", "M"}
    assert dests(roll(state, 3).state, "K") == {"P", "Q"}
    two = roll(state, 2).state
    assert "G" in dests(two, "K")
    applied = GAME.apply(two, "K-G")
    assert keys(applied.events)[-1] == "barricade.event.win"
    assert GAME.result(applied.state) == Result((RED,)) and GAME.to_move(applied.state) is None
    assert applied.state.stage == OVER
    with pytest.raises(IllegalAction):
        GAME.apply(applied.state, "roll:3")


def test_ex5_bounce():
    """BA-EX-5, BA-6.2, BA-6.3, BA-OP-10: the pawn next to the goal bounces when nothing else can move."""
    g = CUT_OFF
    state = position(g, red=["A"])
    assert dests(roll(state, 4, g).state, "A", g) == {"M"}
    applied = g.apply(roll(state, 4, g).state, "A-M")
    assert keys(applied.events)[0] == "barricade.event.bounce" and applied.state.winner is None
    assert dests(roll(state, 2, g).state, "A", g) == {"A"}
    assert where(g.apply(roll(state, 2, g).state, "A-A").state, RED).count("A") == 1
    blue_on_k = roll(position(g, red=["A"], blue=["K"]), 3, g).state
    assert dests(blue_on_k, "A", g) == {"K"}
    assert "barricade.event.capture" in keys(g.apply(blue_on_k, "A-K").events)
    bar_on_k = position(g, red=["A"], bars=["K"])
    taken = g.apply(roll(bar_on_k, 3, g).state, "A-K")
    assert "barricade.event.take" in keys(taken.events)
    for value in (4, 5, 6):
        lost = roll(bar_on_k, value, g)
        assert keys(lost.events)[-1] == "barricade.event.no_move" and lost.state.seat == BLUE
    own_on_k = roll(position(g, red=["A", "K"], bars=["M"]), 3, g)
    assert keys(own_on_k.events)[-1] == "barricade.event.no_move"


def test_ex5_another_pawn_must_use_the_roll():
    """BA-EX-5, BA-6.4, BA-3.9: if another red pawn can use the roll, the pawn next to the goal stays."""
    state = roll(position(red=["A"]), 3).state
    assert GAME.legal_actions(state) == ["start-P", "start-S"]
    assert "stop" not in GAME.legal_actions(state)


def test_ex6_six_and_the_extra_roll():
    """BA-EX-6, BA-4.1, BA-OP-7, BA-6.2."""
    state = roll(position(red=["E"]), 6).state
    assert dests(state, "E") == {"A", "Q", "M"}
    applied = GAME.apply(state, "E-A")
    six = applied.state
    assert six.stage == SIX and GAME.legal_actions(six) == ["again", "stop"]
    assert keys(applied.events)[-1] == "barricade.event.six"
    again = GAME.apply(six, "again").state
    assert GAME.roll_due(again)
    assert GAME.legal_actions(roll(again, 1).state) == ["A-G", "A-K"]
    assert GAME.apply(roll(again, 1).state, "A-G").state.winner == RED
    # Only that pawn may use the extra roll, so it bounces although others could move.
    assert GAME.legal_actions(roll(again, 3).state) == ["A-K"]
    stopped = GAME.apply(six, "stop")
    assert stopped.state.seat == BLUE and keys(stopped.events) == ["barricade.event.stop"]


def test_six_played_as_a_bounce_gives_the_option():
    """BA-4.1: a 6 played as a bounce may be followed by an extra roll."""
    state = roll(position(CUT_OFF, red=["A"]), 6, CUT_OFF).state
    assert CUT_OFF.legal_actions(state) == ["A-P", "A-Q"]
    assert CUT_OFF.apply(state, "A-P").state.stage == SIX


def test_extra_roll_lost_and_sixes_repeat():
    """BA-4.2: an unusable extra roll is lost; a new 6 gives the option again."""
    state = position(red=["E"], bars=["R"], stage=ROLL, bonus="E")
    lost = roll(state, 3)
    assert keys(lost.events)[-1] == "barricade.event.roll_lost" and lost.state.seat == BLUE
    state = position(red=["M"], stage=ROLL, bonus="M")
    moved = GAME.apply(roll(state, 6).state, "M-E")
    assert moved.state.stage == SIX and moved.state.bonus == GAME.board.index["E"]


def test_ex8_blocked_turn_lost():
    """BA-EX-8, BA-3.4, BA-3.5, BA-3.6, BA-3.9, BA-OP-6."""
    state = position(red=["E"], bars=["R"])
    for value in (3, 4, 5, 6):
        applied = roll(state, value)
        assert keys(applied.events)[-1] == "barricade.event.no_move"
        assert applied.state.seat == BLUE and applied.state.pawns == state.pawns
    assert GAME.legal_actions(roll(state, 1).state) == ["E-R"]
    assert GAME.legal_actions(roll(state, 2).state) == ["start-R"]


def test_pawns_pass_pawns_of_any_colour_and_never_go_back():
    """BA-3.4, BA-3.3, BA-OP-5: passing a blue pawn; no point twice; never back into the start area."""
    state = roll(position(red=["R"], blue=["S"]), 2).state
    assert dests(state, "R") == {"T", "L"}
    assert "R" not in dests(roll(position(red=["S"]), 2).state, "S")


# --- 5. barricades -------------------------------------------------------------

def test_ex7_barricade_lost_to_a_rival():
    """BA-EX-7, BA-5.1, BA-5.5, BA-OP-9, BA-5.2: blue ends on P and now holds the barricade."""
    state = position(red=["R"], blue=["L"], bars=["P"])
    took = GAME.apply(roll(state, 1).state, "R-P").state
    assert took.seat == BLUE and took.held == (Held(RED, GAME.board.index["P"], True, False),)
    applied = GAME.apply(roll(took, 1).state, "L-P")
    assert keys(applied.events)[1:] == ["barricade.event.capture", "barricade.event.barricade_won"]
    state = applied.state
    assert state.held == (Held(BLUE, GAME.board.index["P"], True, False),)
    assert where(state, RED) == ["start"] * 5
    # Red's turn: red holds nothing; blue's next turn: blue must place it.
    assert state.stage == ROLL and state.seat == RED
    state = GAME.apply(roll(state, 1).state, "start-E").state
    assert state.stage == START_OF_TURN and state.seat == BLUE
    assert "roll" in GAME.legal_actions(state)
    placed = GAME.apply(state, "bar:S")
    assert placed.state.stage == ROLL and GAME.board.index["S"] in placed.state.barricades


def test_ex7_barricade_changes_hands_again():
    """BA-5.5: while unplaced, whoever stands on the point plays the role of the taking pawn."""
    state = position(red=["R"], blue=["L"], bars=["P"])
    state = GAME.apply(roll(state, 1).state, "R-P").state
    state = GAME.apply(roll(state, 1).state, "L-P").state
    state = GAME.apply(roll(state, 3).state, "start-P").state   # red recaptures at once
    assert state.held == (Held(RED, GAME.board.index["P"], True, False),)


def test_ex7_place_back_after_moving_or_elsewhere():
    """BA-EX-7, BA-5.2, BA-OP-8, BA-5.3, BA-OP-12: red's next turn; P is free once the pawn moved on."""
    state = position(red=["R"], bars=["P"])
    state = GAME.apply(roll(state, 1).state, "R-P").state
    state = GAME.apply(roll(state, 1).state, "start-F").state
    assert state.seat == RED and state.stage == START_OF_TURN
    options = GAME.legal_actions(state)
    assert "bar:P" not in options and "bar:E" not in options and "bar:G" not in options and "bar:F" not in options
    assert {a[4:] for a in options if a.startswith("bar:")} == {"A", "K", "L", "M", "N", "Q", "R", "S", "T"}
    state = GAME.apply(state, "roll").state
    assert GAME.roll_due(state)
    applied = GAME.apply(roll(state, 1).state, "P-L")
    assert keys(applied.events)[-1] == "barricade.event.must_place"
    state = applied.state
    assert state.stage == PLACE and "bar:P" in GAME.legal_actions(state)
    with pytest.raises(IllegalAction):
        GAME.apply(state, "bar:E")
    with pytest.raises(IllegalAction):
        GAME.apply(state, "bar:G")
    done = GAME.apply(state, "bar:P").state
    assert done.seat == BLUE and done.held == () and done.barricades == (GAME.board.index["P"],)


def test_held_barricade_must_be_placed_even_without_a_move():
    """BA-5.2: placed by the end of the turn even if the player could not move."""
    p = GAME.board.index["P"]
    state = position(red=["E"], bars=["R"], stage=START_OF_TURN, held=[Held(RED, p, False, True)])
    state = GAME.apply(state, "roll").state
    applied = roll(state, 4)
    assert keys(applied.events)[-2:] == ["barricade.event.no_move", "barricade.event.must_place"]
    assert applied.state.stage == PLACE and applied.state.seat == RED


def test_held_barricade_point_is_ordinary():
    """BA-5.4: while held, the barricade's former point can be passed."""
    p = GAME.board.index["P"]
    state = position(red=["R"], held=[Held(BLUE, p, False, False)])
    assert "L" in dests(roll(state, 2).state, "R")


def test_owner_keeps_the_barricade_once_the_pawn_left():
    """BA-5.6: the taking pawn moved on, then was captured elsewhere: its owner keeps the barricade."""
    p = GAME.board.index["P"]
    state = position(red=["R"], blue=["M"], bars=["P"])
    state = GAME.apply(roll(state, 1).state, "R-P").state
    state = GAME.apply(roll(state, 1).state, "M-N").state   # blue
    state = GAME.apply(state, "roll").state                 # red holds it: rolls first
    state = GAME.apply(roll(state, 1).state, "P-L").state
    assert state.held == (Held(RED, p, False, True),)
    state = GAME.apply(state, "bar:K").state
    assert state.seat == BLUE and state.held == ()
    # again, but captured after leaving P
    state = position(red=["L"], blue=["M"], held=[Held(RED, p, False, False)], seat=BLUE)
    applied = GAME.apply(roll(state, 1).state, "M-L")
    assert "barricade.event.barricade_won" not in keys(applied.events)
    assert applied.state.held == (Held(RED, p, False, True),)


def test_several_held_barricades():
    """BA-5.7: each held barricade is placed under BA-5.2."""
    p, s = GAME.board.index["P"], GAME.board.index["S"]
    state = position(red=["R"], stage=START_OF_TURN, held=[Held(RED, p, False, True), Held(RED, s, False, True)])
    state = GAME.apply(state, "bar:P").state
    assert state.stage == START_OF_TURN
    state = GAME.apply(state, "bar:S").state
    assert state.stage == ROLL and state.barricades == (p, s)


def test_two_barricades_taken_in_one_turn():
    """BA-5.7, BA-4.1: barricades taken this turn wait for the next one."""
    state = position(red=["E"], bars=["M", "A"])
    state = GAME.apply(roll(state, 6).state, "E-M").state
    state = roll(GAME.apply(state, "again").state, 2).state
    state = GAME.apply(state, "M-A").state
    assert state.seat == BLUE and [h.seat for h in state.held] == [RED, RED]
    assert not any(h.due for h in state.held)


def test_bounce_from_i13_chooses_left_or_right():
    """BA-6.3: on the real board, from i13 the bounce goes back left or right; blocked ways are refused."""
    game = Barricade()
    ix = game.board.index
    base = game.new_game(2, {}, seed=0)

    def at(bars=(), own=()):
        mine = tuple(sorted([ix["i13"]] + [ix[o] for o in own] + [START] * (4 - len(own))))
        return base.evolve(pawns=(mine, base.pawns[1]), barricades=tuple(sorted(ix[b] for b in bars)),
                           stage=ROLL, order=(0, 1), ranking=(), bonus=ix["i13"])

    assert set(game.legal_actions(game.apply(at(), "roll:4").state)) == {"i13-g13", "i13-k13"}
    assert game.legal_actions(game.apply(at(bars=["h13"]), "roll:4").state) == ["i13-k13"]
    blocked = game.apply(at(bars=["h13"], own=["k13"]), "roll:4")
    assert keys(blocked.events)[-1] == "barricade.event.roll_lost"


# --- 7. enforcement, words ---------------------------------------------------------

def test_illegal_and_malformed_actions_are_refused():
    """BA-7.1, BA-OP-15: the bot refuses every illegal action; the state is unchanged."""
    state = roll(position(red=["E"]), 2).state
    before = GAME.to_json(state)
    for bad in ("", "E-E", "E-Z", "e-p", "bar:", "bar:E", "roll:7", "roll:0", "roll", "again", "start-E", "E-P ",
                "E--P", "stop"):
        with pytest.raises(IllegalAction):
            GAME.apply(state, bad)
    with pytest.raises(IllegalAction):
        GAME.apply(state, "E-P", seat=BLUE)
    with pytest.raises(IllegalAction):
        GAME.apply(state, "roll:3")
    assert GAME.to_json(state) == before


def test_labels_groups_and_description_are_translated():
    state = roll(position(red=["E", "M"], blue=["S"], bars=["P"]), 2).state
    for action in GAME.legal_actions(state):
        for locale in ("en", "fr"):
            label = i18n.render(GAME.action_label(state, action), locale)
            assert action.split("-")[1] in label and len(label) <= 80
    assert GAME.action_label(state, "E-S").key == "barricade.action.move_capture"
    assert GAME.action_label(state, "E-P").key == "barricade.action.move_take"
    assert GAME.action_group(state, "E-S") == GAME.action_group(state, "E-P")
    assert GAME.action_group(state, "E-S") == "E"
    assert i18n.render(GAME.group_label(state, "E"), "en") == "Pawn E"
    assert GAME.action_group(state, "roll") is None
    real = Barricade()
    s = real.new_game(2, {}, seed=0)
    assert i18n.render(real.group_label(s, real.action_group(s, "bar:i3")), "en") == "Rows 2 to 3"
    assert i18n.render(real.group_label(s, "start"), "en") == "New pawn"
    assert i18n.render(real.action_label(s, "bar:i3"), "fr") == "Barricade en i3"
    with pytest.raises(IllegalAction):
        real.action_label(s, "bar:z9")
    for locale in ("en", "fr"):
        text = [i18n.render(m, locale) for m in GAME.describe(state)]
        assert all("{" not in t for t in text) and "M, E" in text[1]


def test_every_key_in_both_locales():
    en = json.loads((ROOT / "data/i18n/en/barricade.json").read_text(encoding="utf-8"))
    fr = json.loads((ROOT / "data/i18n/fr/barricade.json").read_text(encoding="utf-8"))
    assert en.keys() == fr.keys()
    source = "".join((ROOT / "bot/games/barricade" / name).read_text(encoding="utf-8")
                     for name in ("rules.py", "turns.py", "words.py"))
    for key in re.findall(r'"(barricade\.[a-z_.]+)"', source):
        assert key in en, key


# --- random play -------------------------------------------------------------------

def play(game: Barricade, n_players: int, seed: int, greed: float):
    """A whole game: random rolls; moves mostly towards the goal (`greed`), else random."""
    rng = random.Random(seed)
    goal_distance = distances(game.board, game.board.goal)
    state = game.new_game(n_players, {}, seed)
    log, states = [], [state]
    while game.to_move(state) is not None:
        if game.roll_due(state):
            action = game.random_roll(state, rng)
        else:
            options = game.legal_actions(state)
            moves = [a for a in options if "-" in a]
            if moves and rng.random() < greed:
                action = min(moves, key=lambda a: goal_distance[game.board.index[a.split("-")[1]]])
            else:
                action = rng.choice(options)
        state = game.apply(state, action).state
        log.append(action)
        states.append(state)
        check_invariants(game, state)
    return log, states


def check_invariants(game: Barricade, state: State) -> None:
    """BA-1.3, BA-3.7, BA-5.3: 5 pawns each, 11 barricades in all, one piece per point."""
    assert all(len(p) == 5 for p in state.pawns)
    assert len(state.barricades) + len(state.held) == 11
    on_board = [p for pawns in state.pawns for p in pawns if p != START]
    assert len(on_board) == len(set(on_board))
    assert not set(on_board) & set(state.barricades)
    assert not set(state.barricades) & (game.board.start_line | {game.board.goal})
    assert len(set(state.barricades)) == len(state.barricades)


@settings(max_examples=40, deadline=None)
@given(n_players=st.integers(2, 4), seed=st.integers(0, 2**32), greed=st.sampled_from([0.5, 0.8]))
def test_random_play_ends_and_replays_exactly(n_players, seed, greed):
    game = Barricade()
    log, states = play(game, n_players, seed, greed)
    assert game.result(states[-1]) is not None
    state = game.new_game(n_players, {}, seed)
    for action, expected in zip(log, states[1:]):
        state = game.apply(state, action).state
        assert state == expected
    for s in states[:: max(1, len(states) // 50)] + [states[-1]]:
        assert game.from_json(json.loads(json.dumps(game.to_json(s)))) == s


def test_uniform_random_play_ends():
    """Purely random legal play ends too (one long game)."""
    log, states = play(Barricade(), 2, seed=3, greed=0.0)
    assert states[-1].winner is not None


def test_every_rule_id_is_cited():
    rules = rules_text("barricade.md")
    ids = set(re.findall(r"\bBA-(?:\d+\.\d+|EX-\d+|OP-\d+)\b", rules))
    assert len(ids) > 40
    tests = "".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_barricade*.py"))
    missing = sorted(i for i in ids if not re.search(re.escape(i) + r"\b", tests))
    assert not missing, missing


def test_message_round_trip():
    state = GAME.apply(roll(position(red=["E"]), 2).state, "E-P").state
    assert Message.from_json(GAME.describe(state)[0].to_json()) == GAME.describe(state)[0]
