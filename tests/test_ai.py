"""Computer players: legal actions only, bounded time, determinism, call-outs.

Runs on every available ruleset and on a toy race game (tests/toy_ruleset.py)
that exercises the generic fallback and a heuristic named by the ruleset.
"""
from __future__ import annotations

import random
import time

import pytest

from bot import ai
from bot.ai import search
from bot.ai.calls import CALL_RATES, choose_call
from bot.ai.heuristics import GENERIC, Heuristic, heuristic_for
from bot.ai.search import playout
from bot.games import get_ruleset
from bot.games.base import Applied
from tests.benchmarks.common import rulesets
from tests.benchmarks.strength import calibrate, play_game, seat_levels, wilson
from tests.toy_ruleset import TRACK, ToyRace, ToyState

TOY = ToyRace()
RULESETS = [*rulesets(), TOY]
IDS = [r.id for r in RULESETS]


def decision_points(ruleset, n_players=2, seed=0, count=12, max_actions=4000, options=None):
    """Up to `count` positions where a seat must choose, reached by random play."""
    rng = random.Random(seed)
    state = ruleset.new_game(n_players, options or {}, seed)
    found = []
    for _ in range(max_actions):
        if ruleset.result(state) is not None:
            break
        if ruleset.roll_due(state):
            action = ruleset.random_roll(state, rng)
        else:
            actions = ruleset.legal_actions(state)
            if len(actions) > 1 and rng.random() < 0.15:
                found.append(state)
            action = rng.choice(actions)
        state = ruleset.apply(state, action).state
    return found[:: max(1, len(found) // count)][:count]


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
@pytest.mark.parametrize("level", ai.LEVELS)
def test_every_level_plays_only_legal_actions(ruleset, level):
    rng = random.Random(1)
    for seed in (1, 2):
        for state in decision_points(ruleset, seed=seed, count=6 if level == "hard" else 12):
            seat = ruleset.to_move(state)
            action = ai.choose_action(ruleset, state, seat, level, rng=rng, budget_s=None, playouts=20, nodes=2000)
            assert action in ruleset.legal_actions(state)


FOUR_SEATS = [r for r in RULESETS if r.max_players >= 4]


@pytest.mark.parametrize("ruleset", FOUR_SEATS, ids=[r.id for r in FOUR_SEATS])
def test_four_players_and_teams_get_legal_actions(ruleset):
    """Every-man-for-himself and, where offered, 2 vs 2 (PM-10.1)."""
    rng = random.Random(3)
    setups = [{}] + ([{"teams": True}] if ruleset.teams(4, {"teams": True}) else [])
    for options in setups:
        for state in decision_points(ruleset, n_players=4, seed=3, count=4, options=options):
            seat = ruleset.to_move(state)
            for level in ai.LEVELS:
                action = ai.choose_action(ruleset, state, seat, level, rng=rng, budget_s=None, playouts=12)
                assert action in ruleset.legal_actions(state)


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_hard_level_keeps_to_its_time_budget(ruleset):
    state = decision_points(ruleset, seed=3, count=1)[0]
    started = time.perf_counter()
    ai.choose_action(ruleset, state, ruleset.to_move(state), "hard", rng=random.Random(0), budget_s=0.2)
    # Generous bound: one playout round may finish after the deadline.
    assert time.perf_counter() - started < 3.0


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
@pytest.mark.parametrize("level", ai.LEVELS)
def test_same_rng_and_work_budget_give_the_same_choice(ruleset, level):
    for state in decision_points(ruleset, seed=4, count=3):
        seat = ruleset.to_move(state)
        choices = {ai.choose_action(ruleset, state, seat, level, rng=random.Random(7), budget_s=None, playouts=30,
                                    nodes=3000)
                   for _ in range(2)}
        assert len(choices) == 1


@pytest.mark.parametrize("ruleset", FOUR_SEATS, ids=[r.id for r in FOUR_SEATS])
def test_hard_at_a_table_of_four_gives_the_same_choice_for_the_same_rng_and_playouts(ruleset):
    for state in decision_points(ruleset, n_players=4, seed=5, count=3):
        seat = ruleset.to_move(state)
        choices = {ai.choose_action(ruleset, state, seat, "hard", rng=random.Random(7), budget_s=None, playouts=20)
                   for _ in range(2)}
        assert len(choices) == 1


def test_a_seat_that_is_not_to_move_cannot_choose():
    state = TOY.apply(TOY.new_game(2, {}, 0), "r3").state
    with pytest.raises(ValueError):
        ai.choose_action(TOY, state, 1, "easy", rng=random.Random(0))
    with pytest.raises(ValueError):
        ai.choose_action(TOY, TOY.new_game(2, {}, 0), 0, "easy", rng=random.Random(0))   # a roll is due
    with pytest.raises(ValueError):
        ai.choose_action(TOY, state, 0, "grandmaster", rng=random.Random(0))


def _progress(ruleset, state, seat):
    return sum(state.pawns[seat]) - sum(state.pawns[1 - seat])


PROGRESS = Heuristic(_progress, scale=5.0, horizon=2)


class ToyRaceWithHeuristic(ToyRace):
    heuristic = "tests.test_ai:PROGRESS"


def test_the_heuristic_a_ruleset_names_guides_normal():
    """A toy heuristic that likes captures: normal captures when it can."""
    toy = ToyRaceWithHeuristic()
    assert heuristic_for(toy) is PROGRESS and heuristic_for(TOY) is GENERIC
    # Pawn 0 on 2 can capture the opponent on 5 with a 3; pawn 1 on 10 would move to 13.
    state = toy.from_json({"pawns": [[2, 10], [5, 1]], "turn": 0, "die": 3, "winner": None})
    assert ai.choose_action(toy, state, 0, "normal", rng=random.Random(0)) == "m0"
    assert ai.choose_action(toy, state, 0, "hard", rng=random.Random(0), budget_s=None, playouts=40) == "m0"


def test_hard_beats_easy_on_the_toy_race():
    """A race of two pawns on one die is mostly luck (hard wins about 58 %): 200 seeded games keep
    the verdict off the edge of chance (30 games won 12 or 16 times as the dice fell)."""
    wins = sum(play_game(TOY, ("hard", "easy") if i % 2 == 0 else ("easy", "hard"), i, 40, None) == i % 2
               for i in range(200))
    assert wins > 100


def test_the_strength_benchmark_seats_one_level_among_three_of_the_other_in_turn():
    """Four-player tables: the hard seat rotates; two-player tables alternate seats."""
    assert [seat_levels(("hard", "normal"), 4, k) for k in (0, 1, 5)] == [
        (0, ("hard", "normal", "normal", "normal")), (1, ("normal", "hard", "normal", "normal")),
        (1, ("normal", "hard", "normal", "normal"))]
    assert [seat_levels(("hard", "easy"), 2, k)[1] for k in (0, 1)] == [("hard", "easy"), ("easy", "hard")]


def test_wilson_interval():
    low, high = wilson(140, 200)
    assert 0.63 < low < 0.70 < high < 0.76
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
@pytest.mark.parametrize("level", ai.LEVELS)
def test_no_call_out_after_legal_play(ruleset, level):
    """Computer players never call out a legal move (PC-9, MG-10): random legal play, every seat asked."""
    rng = random.Random(5)
    for state in decision_points(ruleset, seed=5, count=20):
        for seat in range(2):
            assert choose_call(ruleset, state, seat, level, rng) is None


async def test_think_runs_in_a_worker_process():
    ruleset = rulesets()[0]
    state = decision_points(ruleset, seed=6, count=1)[0]
    seat = ruleset.to_move(state)
    actions = await ai.think(ruleset.id, ruleset.to_json(state), seat, "hard", budget_s=0.2, seed=1)
    assert actions[0] in ruleset.legal_actions(state)


async def test_think_falls_back_to_normal_when_the_worker_overruns(monkeypatch):
    ruleset = rulesets()[0]
    state = decision_points(ruleset, seed=6, count=1)[0]
    seat = ruleset.to_move(state)
    monkeypatch.setattr(ai.pool, "GRACE_S", -0.5)   # the deadline passes at once
    actions = await ai.think(ruleset.id, ruleset.to_json(state), seat, "hard", budget_s=0.2, seed=1)
    expected = ai.choose_action(ruleset, state, seat, "normal", rng=random.Random(1))
    assert actions[0] == expected


def test_a_search_queued_behind_others_gets_what_is_left_of_its_budget():
    """Many computer players thinking at once: each answers about one budget after its turn came."""
    remaining = ai.pool.remaining_budget
    assert remaining(1.0, submitted=100.0, now=100.25) == 0.75
    assert remaining(1.0, submitted=100.0, now=103.0) == ai.pool.MIN_BUDGET_S   # still a real (short) search
    assert remaining(1.0, submitted=100.0, now=99.0) == 1.0                      # clocks of two processes
    assert remaining(None, submitted=100.0, now=200.0) is None                   # unbounded stays so


def test_when_more_think_than_there_are_workers_each_thinks_for_its_share():
    """200 games at once: moves come in time, shallower, rather than one budget after another."""
    share = ai.pool.shared_budget
    workers = ai.pool.MAX_WORKERS
    assert share(1.0, in_flight=0) == share(1.0, in_flight=workers - 1) == 1.0
    assert share(1.0, in_flight=4 * workers - 1) == 0.25


def test_the_worker_searches_with_the_budget_left_after_queueing(monkeypatch):
    seen = []
    def first_legal(ruleset, state, *args, budget_s, **kwargs):
        seen.append(budget_s)
        return ruleset.legal_actions(state)[0]

    monkeypatch.setattr(ai.pool, "choose_action", first_legal)
    ruleset = RULESETS[0]
    state = decision_points(ruleset, seed=6, count=1)[0]
    ai.pool._choose(ruleset.id, ruleset.to_json(state), ruleset.to_move(state), "hard", 1.0, 1,
                    submitted=time.time() - 0.4)
    assert 0.5 < seen[0] <= 0.6 and all(later <= seen[0] for later in seen[1:])


CHEATING = [r for r in RULESETS if r.allows_cheating]


def _after_a_cheat(ruleset, seed):
    """A position right after the mover made an accepted but illegal move, reached by random play."""
    rng = random.Random(seed)
    state = ruleset.new_game(2, {}, seed)
    for _ in range(4000):
        if ruleset.result(state) is not None:
            return None
        if ruleset.roll_due(state):
            state = ruleset.apply(state, ruleset.random_roll(state, rng)).state
            continue
        legal = ruleset.legal_actions(state)
        cheats = [a for a in ruleset.accepted_actions(state) if a not in legal]
        if cheats and rng.random() < 0.3:
            cheater = ruleset.to_move(state)
            return ruleset.apply(state, rng.choice(cheats)).state, 1 - cheater
        state = ruleset.apply(state, rng.choice(legal)).state
    return None


@pytest.mark.parametrize("ruleset", CHEATING, ids=[r.id for r in CHEATING])
def test_hard_always_calls_out_a_cheat_and_easy_rarely(ruleset):
    """PC-9.3, PC-9.4, MG-10.3, MG-10.4: a valid call-out, at the level's rate."""
    found = [f for f in (_after_a_cheat(ruleset, seed) for seed in range(40)) if f is not None]
    assert len(found) >= 10
    calls = {level: 0 for level in ai.LEVELS}
    rng = random.Random(9)
    for state, caller in found:
        for level in ai.LEVELS:
            call = choose_call(ruleset, state, caller, level, rng)
            if call is not None:
                calls[level] += 1
                assert call in ruleset.call_actions(state, caller)
                after = ruleset.apply(state, call, caller).state
                assert after != state   # a valid call-out changes the game
    assert calls["hard"] == len(found)
    assert calls["easy"] <= calls["normal"] <= calls["hard"]
    assert calls["easy"] < len(found) * (CALL_RATES["easy"] + 0.25)


@pytest.mark.parametrize("ruleset", CHEATING, ids=[r.id for r in CHEATING])
def test_computer_players_never_cheat(ruleset):
    """PC-9.1, MG-10.1: even where cheating is accepted, every level plays legal actions only."""
    rng = random.Random(2)
    for state in decision_points(ruleset, seed=8, count=10):
        seat = ruleset.to_move(state)
        for level in ai.LEVELS:
            chosen = ai.choose_action(ruleset, state, seat, level, rng=rng, budget_s=None, playouts=8)
            assert chosen in ruleset.legal_actions(state)


class _SeenMovers(ToyRace):
    """The toy race, noting who acts: what a playout lets happen before it scores."""

    def __init__(self):
        self.movers = []

    def apply(self, state, action, seat=None):
        self.movers.append(self.to_move(state))
        return super().apply(state, action, seat)


@pytest.mark.parametrize("players", [2, 4])
def test_hard_playouts_see_every_opponents_next_turn(players):
    """At a table of four, hard weighs the dice and replies of all three opponents before its next
    turn, not only the next player's; a playout stops when the mover's turn comes back."""
    ruleset = _SeenMovers()
    state = ruleset.apply(ruleset.new_game(players, {}, 0), "r3").state
    state = ruleset.apply(state, "m0").state   # seat 0 has moved: seat 1 rolls next
    ruleset.movers.clear()
    playout(ruleset, Heuristic(lambda r, s, seat: 0.0, scale=1.0, horizon=1), state, 0, random.Random(1),
            random.Random(2))
    assert set(range(1, players)) <= set(ruleset.movers) and 0 not in ruleset.movers


class _SeenRolls(ToyRace):
    """The toy race, noting the rolls: the dice a playout meets."""

    def __init__(self):
        self.rolls = []

    def apply(self, state, action, seat=None):
        if self.roll_due(state):
            self.rolls.append(action)
        return super().apply(state, action, seat)


def test_every_candidates_playout_meets_the_same_dice():
    """Common random numbers: the n-th roll of a playout is the same whatever was chosen before
    it, though a position offering more actions makes a choice draw more random numbers."""
    ruleset = _SeenRolls()
    heuristic = Heuristic(lambda r, s, seat: float(sum(s.pawns[seat])), scale=1.0, horizon=4)
    seen = []
    for pawns in (((3, 0), (2, 1)), ((3, 0), (TRACK, 1))):   # seat 1 chooses between two pawns, or has one
        ruleset.rolls = []
        playout(ruleset, heuristic, ToyState(pawns, turn=1, die=None), 0, random.Random(5), random.Random(6))
        seen.append(ruleset.rolls)
    common = min(map(len, seen))
    assert common >= 6 and seen[0][:common] == seen[1][:common]


class _TwoMoveTurn:
    """Seat 0 plays two actions, "a" or "b" then "x", and seat 1's turn follows; the state is the actions so far."""

    def to_move(self, state):
        return 0 if len(state) < 2 else 1

    def roll_due(self, state):
        return False

    def legal_actions(self, state):
        return ["a", "b"] if not state else ["x"]

    def apply(self, state, action, seat=None):
        return Applied(state + (action,))

    def result(self, state):
        return None


# "a" looks better after one action; "b" ends the turn better.
_TWO_MOVES = Heuristic(lambda r, state, seat: {("a",): 1.0, ("b", "x"): 5.0}.get(state, 0.0), scale=1.0, horizon=1)


def test_playout_moves_look_ahead_through_the_movers_turn(monkeypatch):
    """The opponents in hard's playouts play their turn as the normal level does, not one action at a time."""
    monkeypatch.setattr(search, "PLAYOUT_EPSILON", 0.0)
    assert search._playout_action(_TwoMoveTurn(), _TWO_MOVES, (), random.Random(0)) == "b"


def test_the_strength_benchmark_calibrates_hard_at_the_table_size_it_measures(monkeypatch):
    """A four-player playout costs about three times a two-player one: the second is timed at four."""
    ruleset = get_ruleset("parcheesi")
    seated = []
    new_game = ruleset.new_game
    monkeypatch.setattr(ruleset, "new_game", lambda players, *args: seated.append(players) or new_game(players, *args))
    monkeypatch.setattr("tests.benchmarks.strength.CALIBRATION_WORK", {"playouts": 2, "nodes": 20})
    assert calibrate(ruleset, 0.01, 4) >= 1 and seated == [4]
