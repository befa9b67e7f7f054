"""Pariti's hard level: an alpha-beta search (bot/ai/pariti_search.py), rule IDs PA-*."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import ai
from bot.ai.pariti import remaining
from bot.ai.pariti_search import _Position, _Search, search
from bot.games.pariti import DRAW_TURNS, Pariti, PaState, piece_name
from bot.games.pariti_board import SQUARE_NAMES
from tests.games.test_pariti import position

GAME = Pariti()
EVEN_SEVEN_PAIRS = {"a1": 2, "a3": 4, "a5": 6, "a7": 8, "a9": 10, "c10": 12, "e10": 14}
ODD_SEVEN_PAIRS = {"g1": 1, "g3": 3, "g5": 5, "g7": 7, "g9": 9, "e1": 11, "c1": 13}


def random_position(seed: int, moves: int) -> PaState:
    """The position after `moves` random moves of a game set up by `seed` (or its end)."""
    rng = random.Random(seed)
    state = GAME.new_game(2, {}, seed)
    for _ in range(moves):
        if GAME.result(state):
            break
        state = GAME.apply(state, rng.choice(GAME.legal_actions(state))).state
    return state


def hard(state: PaState, seed: int = 0, nodes: int = 5000) -> str:
    return ai.choose_action(GAME, state, state.seat, "hard", rng=random.Random(seed), budget_s=None, nodes=nodes)


@pytest.mark.parametrize("seed", range(4))
def test_takes_the_eighth_pair_when_one_step_makes_it(seed):
    """PA-EX-9, PA-4.4, PA-5.1: seven pairs made, B16 on f6 next to P16 on g7: Even pairs and wins at
    once, though the pieces around offer other moves (and Odd would win next with B15 beside P15)."""
    pairs = EVEN_SEVEN_PAIRS | {"b6": 1, "b8": 3, "b2": 5, "b4": 7, "d1": 9, "f1": 11, "f3": 13}
    state = position({"f6": "B16", "g6": "P16", "d5": "B15", "d6": "P15", "e6": "P3", "e5": "B3"}, seat=0,
                     pairs=pairs)
    assert hard(state, seed) in ("B16:g6", "P16:f6")


@pytest.mark.parametrize("seed", range(4))
def test_stops_the_opponents_eighth_pair_when_one_step_of_theirs_makes_it(seed):
    """PA-5.1, PA-5.2: Odd has seven pairs and B15 beside P15; the pairs are 29 quiet turns old. Even's
    pairing step (its seventh pair) would restart the count and let Odd pair and win; any other move
    ends the thirtieth quiet turn in a draw, the only way to stop Odd's pair (PA-3.2, PA-4.6: no move
    of Even's can move or block Odd's pieces). Hard takes the draw."""
    pairs = ODD_SEVEN_PAIRS | {"a1": 2, "a3": 4, "a5": 6, "a7": 8, "a9": 10, "c10": 12}
    state = position({"c4": "B15", "c5": "P15", "d8": "B14", "e8": "P14", "b10": "B16", "f2": "P16"}, seat=0,
                     pairs=pairs, quiet=DRAW_TURNS - 1)
    chosen = hard(state, seed)
    assert chosen not in ("B14:e8", "P14:d8")
    after = GAME.apply(state, chosen).state
    assert GAME.result(after).draw


def test_searches_several_moves_deep_within_its_node_budget():
    """What makes hard stronger than normal: replies and replies to them, not one move."""
    found = search(GAME.new_game(2, {}, 3), random.Random(0), nodes=20_000)
    assert found.depth >= 3 and found.nodes <= 20_000 + 1


@pytest.mark.parametrize("seed", range(5))
def test_same_seed_and_node_budget_give_the_same_move(seed):
    state = random_position(seed, 10 + 7 * seed)
    runs = {search(state, random.Random(seed), nodes=4000) for _ in range(2)}
    assert len(runs) == 1


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 120), nodes=st.integers(1, 600))
def test_never_returns_an_illegal_move(seed, moves, nodes):
    """PA-3.2 to PA-4.6: on random positions the search's moves are the ruleset's legal actions, and its
    choice is one of them, whatever its budget."""
    state = random_position(seed, moves)
    if GAME.to_move(state) is None:
        return
    legal = GAME.legal_actions(state)
    generated = [f"{piece_name(code)}:{SQUARE_NAMES[dest]}" for code, _, dest in _Position(state).moves()]
    assert sorted(generated) == sorted(legal)
    assert search(state, random.Random(seed), nodes=nodes).action in legal


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 120))
def test_make_and_undo_restore_the_position_and_its_costs(seed, moves):
    """The search's incremental pairing costs are the heuristic's, and a search leaves its board as found."""
    state = random_position(seed, moves)
    if GAME.to_move(state) is None:
        return
    pos = _Position(state)
    assert pos.costs == pytest.approx(list(remaining(state.board)))
    before = (list(pos.board), pos.hash, pos.side, pos.quiet, list(pos.pairs))
    _Search(pos, None, None).negamax(2, -1e9, 1e9, 0)
    assert (list(pos.board), pos.hash, pos.side, pos.quiet, list(pos.pairs)) == before
    assert pos.costs == pytest.approx(list(remaining(state.board)))
