"""Take-backs in the log (bot/domain/timeline.py): random games in every ruleset with random take-backs replay
exactly and verify; each take-back returns to the position before the move it undoes, and never
undoes a roll, a call-out or another seat's move."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.game_records import GameRecord, LoggedAction, Seat
from bot.domain import dice, retelling, timeline
from bot.domain.timeline import TRAIL_LIMIT, UNDO, is_roll
from bot.domain.verify import verify
from bot.games import GAME_IDS, get_ruleset
from bot.games.base import GameError

SEED = "5e" * 32


def record_of(game: str, players: int, state=None) -> GameRecord:
    return GameRecord(1, 1, 1, game, "active", 1, "en", {}, tuple(Seat(i + 1, f"p{i}") for i in range(players)),
                      SEED, state, 0)


def random_game(game: str, seed: int, undo_rate: float, max_actions: int = 300) -> tuple[GameRecord, list]:
    """A game whose log mixes rolls (from the seed), random moves (cheats and call-outs where the rules
    allow them) and a take-back, whenever one is possible, at `undo_rate`. Checks each take-back against
    a plain model of the log: it returns to the position before the latest action it has not undone."""
    ruleset = get_ruleset(game)
    rng = random.Random(seed)
    record = record_of(game, ruleset.min_players)
    line = timeline.at_setup(ruleset, record)
    actions: list[LoggedAction] = []
    standing: list[tuple[str, object]] = []   # (action, position before it) of each action not taken back
    undone = 0
    while len(actions) < max_actions and ruleset.to_move(line.state) is not None:
        state, seq = line.state, len(actions)
        taker = line.taker()
        calls = [(s, c) for s in range(len(record.seats)) for c in ruleset.call_actions(state, s)]
        if taker is not None and rng.random() < undo_rate:
            seat, action = taker, UNDO
        elif calls and rng.random() < 0.2:
            seat, action = rng.choice(calls)
        elif ruleset.roll_due(state):
            seat, action = ruleset.to_move(state), ruleset.random_roll(state, dice.rng_for(SEED, seq))
        else:
            seat, action = ruleset.to_move(state), rng.choice(ruleset.accepted_actions(state))
        logged = LoggedAction(seq, seat, seat + 1, action, legality(ruleset, state, seat, action))
        line.step(logged)
        actions.append(logged)
        if action == UNDO:
            undone += 1
            taken, before = standing.pop()
            assert line.state == before and not ruleset.roll_due(before), (taken, "a take-back undid a roll")
        else:
            standing.append((action, state))
    return GameRecord(1, 1, 1, game, "active", 1, "en", {}, record.seats, SEED, ruleset.to_json(line.state),
                      len(actions)), actions


def legality(ruleset, state, seat: int, action: str) -> bool:
    """As the session logs it: rolls, call-outs and take-backs are legal; a move is if the rules allow it."""
    return action == UNDO or ruleset.roll_due(state) or action in ruleset.legal_actions(state) or \
        action in ruleset.call_actions(state, seat)


@pytest.mark.parametrize("game", GAME_IDS)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), undo_rate=st.sampled_from([0.2, 0.6]))
def test_random_games_with_take_backs_replay_exactly_and_verify(game, seed, undo_rate):
    record, actions = random_game(game, seed, undo_rate)
    ruleset = get_ruleset(record.game)
    result = verify(ruleset, record, actions)
    assert result.ok, result.mismatches
    steps = list(timeline.steps(ruleset, record, actions))
    assert [s.after for s in steps][-1] == ruleset.from_json(record.state)
    assert all(entry.head for entry in retelling.entries(ruleset, record, actions))


def since_turn_by_definition(seats: list, seat) -> int:
    """Where the positions since `seat` last played start (position k follows the first k actions): after
    its latest action before anybody else's; None: before the latest player's run of actions."""
    start = len(seats)
    if seat is None:
        while start > 0 and seats[start - 1] == seats[-1]:
            start -= 1
        return start
    others_seen = False
    while start > 0 and not (seats[start - 1] == seat and others_seen):
        others_seen = others_seen or seats[start - 1] != seat
        start -= 1
    return start


@pytest.mark.parametrize("game", GAME_IDS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), undo_rate=st.sampled_from([0.0, 0.3]))
def test_a_timeline_keeps_every_position_since_each_seats_last_turn_and_no_more(game, seed, undo_rate):
    """What a board traces and tells, from the positions and events a timeline keeps, equals the definition
    applied to the whole replayed log, for every seat and at every point of random games (take-backs
    included); the timeline keeps about a round of positions, however long the game."""
    record, actions = random_game(game, seed, undo_rate, max_actions=400)
    ruleset = get_ruleset(game)
    line = timeline.at_setup(ruleset, record)
    positions, told = [line.state], []
    for k, logged in enumerate(actions, start=1):
        told.append(line.step(logged).events)
        positions.append(line.state)
        seats = [a.seat for a in actions[:k]]
        for seat in [None, *range(len(record.seats))]:
            start = max(since_turn_by_definition(seats, seat), k - TRAIL_LIMIT)
            assert line.since_turn(seat) == positions[start:], (k, seat)
            for before in {k, max(k - 1, start)} if seat is not None else ():
                assert line.events_since_turn(seat, before) == tuple(e for t in told[start:before] for e in t)
        assert len(line._trail) <= TRAIL_LIMIT + 1


def test_a_take_back_across_turns_draws_no_die_and_the_next_roll_is_drawn_at_its_own_position():
    """A move ending a turn, taken back before the next player rolls: no die is drawn for the take-back,
    and the next roll is the seed's draw at the position where it is logged."""
    ruleset = get_ruleset("parcheesi")
    for seed in range(200):
        record, actions = random_game("parcheesi", seed, 0.5, max_actions=120)
        steps = list(timeline.steps(ruleset, record, actions))
        across = [i for i, step in enumerate(steps) if step.action == UNDO and ruleset.roll_due(step.before)]
        if across:
            break
    rolls = [step for step in steps[across[0]:] if ruleset.roll_due(step.before) and step.action != UNDO]
    assert rolls, "the game went on to a roll"
    assert rolls[0].action == ruleset.random_roll(rolls[0].before, dice.rng_for(SEED, rolls[0].seq))
    assert verify(ruleset, record, actions).ok


def test_a_take_back_the_log_does_not_allow_is_caught_by_verify():
    """An undo inserted where no move may be taken back (right after a roll) does not replay."""
    ruleset = get_ruleset("parcheesi")
    record, actions = random_game("parcheesi", 3, 0.0, max_actions=40)
    at = next(i for i, a in enumerate(actions) if a.action.startswith("r") and i + 1 < len(actions))
    forged = actions[:at + 1] + [LoggedAction(at + 1, actions[at].seat, None, UNDO, True)]
    result = verify(ruleset, record, forged)
    assert not result.ok and result.mismatches[-1].seq == at + 1


def test_why_a_move_cannot_be_taken_back():
    """Nothing played; another seat acted since (Pariti: one move a turn, PA-3.2); a move played for an
    absent player at a deadline; a roll since."""
    ruleset = get_ruleset("pariti")
    record = record_of("pariti", 2)
    line = timeline.at_setup(ruleset, record)
    refusal = pytest.raises(GameError)
    with refusal as nothing:
        line.undoable(0)
    assert nothing.value.message.key == "takeback.error.nothing"
    first = ruleset.legal_actions(line.state)[0]
    line.step(LoggedAction(0, 0, 1, first, True))
    assert line.taker() == 0 and line.undoable(0).seq == 0
    line.step(LoggedAction(1, 1, 2, ruleset.legal_actions(line.state)[0], True))
    with pytest.raises(GameError) as others:
        line.undoable(0)
    assert others.value.message.key == "takeback.error.others_acted" and line.taker() == 1
    line.step(LoggedAction(2, 0, None, ruleset.legal_actions(line.state)[0], True))   # played at a deadline
    assert line.taker() is None, "a move played for an absent player is not theirs to take back"

    parcheesi = get_ruleset("parcheesi")
    record, actions = random_game("parcheesi", 4, 0.0, max_actions=200)
    line = timeline.at_setup(parcheesi, record)
    line.step(actions[0])   # a roll, and no move yet: nothing to take back rather than "too late"
    with pytest.raises(GameError) as first:
        line.undoable(actions[0].seat)
    assert first.value.message.key == "takeback.error.nothing"
    for logged in actions[1:]:
        if is_roll(parcheesi, line.state, logged.action, logged.seat) and line.taker() not in (None, logged.seat):
            mover = line.taker()
            line.step(logged)
            break
        line.step(logged)
    with pytest.raises(GameError) as rolled:
        line.undoable(mover)
    assert rolled.value.message.key == "takeback.error.rolled"
