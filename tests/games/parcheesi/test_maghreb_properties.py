"""Property tests for Parchís Maghreb: random games, with cheating moves, call-outs and turns forfeited
(as at a deadline set to skip) injected at random, always end; invariants hold; call-outs are judged as
MG-10.3 to MG-10.6 say; replaying the action log reproduces every state; states survive JSON."""
from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain.i18n import catalogue
from bot.games.parcheesi.board import GOAL, HOUSE
from bot.games.parcheesi.maghreb import Maghreb
from bot.games.parcheesi.maghreb_state import KEYS, LETTERS, ROLL

G = Maghreb()
MAX_ACTIONS = 20_000


def squares(pieces):
    """Pieces per physical square (the exit excluded)."""
    return Counter(KEYS[i >> 3][p] for i, p in enumerate(pieces) if 0 <= p < GOAL)


def moved_piece(pieces, action):
    """The piece a move or bring-out code moves."""
    if action.startswith("out:"):
        colour = LETTERS.index(action[4])
        return next(i for i in range(colour * 4, colour * 4 + 4) if pieces[i] == HOUSE)
    return LETTERS.index(action[0]) * 4 + int(action[1]) - 1


def path(pieces, action):
    """Progress values a move passes over (not its start, not its end)."""
    piece = moved_piece(pieces, action)
    if action.startswith("out:"):
        return piece, range(0, int(action.split("+")[1])) if "+" in action else range(0)
    p = pieces[piece]
    return piece, range(p + 1, p + int(action.split("+")[1]))


def check_invariants(s):
    assert len(s.pieces) == 16 and all(HOUSE <= p <= GOAL for p in s.pieces)       # 16 pieces
    assert max(squares(s.pieces).values(), default=0) <= 2                         # MG-1.2
    assert G.from_json(json.loads(json.dumps(G.to_json(s)))) == s
    if G.to_move(s) is not None and not G.roll_due(s):
        assert G.legal_actions(s), "a decision with nothing legal should have been skipped"


def play_random_game(seed: int, cheat_rate: float, call_rate: float, skip_rate: float = 0.0):
    """Play a game to its end; return the action log and every state."""
    rng = random.Random(seed)
    s = G.new_game(2, {}, seed)
    log, states = [], [s]
    turn = []                 # (piece, legal, state before) of each move of the turn on record
    last_roller = None
    cheats = caught = 0
    for _ in range(MAX_ACTIONS):
        if G.to_move(s) is None:
            break
        seat = None
        callers = [c for c in (0, 1) if G.call_actions(s, c)]
        if callers and rng.random() < call_rate:
            seat = callers[0]
            action = rng.choice(G.call_actions(s, seat))
        elif rng.random() < skip_rate:
            action = G.SKIP
        elif G.roll_due(s):
            action = G.random_roll(s, rng)
        else:
            legal = G.legal_actions(s)
            action = rng.choice(G.accepted_actions(s) if rng.random() < cheat_rate else legal)
            is_legal = action in legal
            piece, passed = path(s.pieces, action)
            if is_legal:   # legal moves never pass a door (MG-4.3)
                occ = squares(s.pieces)
                owner = piece >> 3
                assert all(occ[KEYS[owner][q]] < 2 for q in passed), (action, s)
            else:
                cheats += 1
            turn.append((piece, is_legal, s))
        r = G.apply(s, action, seat)
        assert all(e.key in catalogue("en") and e.key in catalogue("fr") for e in r.events)
        if action.startswith("call:"):
            named = LETTERS.index(action[5]) * 4 + int(action[6]) - 1
            illegal = [i for i, (_, legal, _) in enumerate(turn) if not legal]
            if any(p == named and not legal for p, legal, _ in turn):      # MG-10.4
                first = turn[illegal[0]][2]
                assert (r.state.pieces, r.state.phase, r.state.die, r.state.pending, r.state.seat) == \
                       (first.pieces, first.phase, first.die, first.pending, first.seat)
                assert G.accepted_actions(r.state) == G.legal_actions(r.state)
                del turn[illegal[0]:]
                caught += 1
            else:                                                          # MG-10.5
                assert r.state.pieces == s.pieces and r.state.phase == s.phase
            assert G.call_actions(r.state, seat) == []                     # once per turn
        elif action == G.SKIP:   # MG-2.2: the opponent's turn; nothing moves
            assert r.state.seat == 1 - s.seat and G.roll_due(r.state) and r.state.pieces == s.pieces
            if s.phase == ROLL and s.rolls == 0:
                # It stands for the roll that would have begun the turn: the window closes (MG-10.3, MG-10.6).
                turn, last_roller = [], None
                assert r.state.log == () and not any(G.call_actions(r.state, c) for c in (0, 1))
            else:   # the forfeited turn stays open to the opponent's call-out until his roll
                assert r.state.log == s.log and G.call_actions(r.state, s.seat) == []
        elif action.startswith("r"):
            if s.seat != last_roller:           # a new turn: the previous one stands (MG-10.6)
                turn = []
                assert r.state.pieces == s.pieces or action == "r6"
            last_roller = s.seat
        s = r.state
        check_invariants(s)
        log.append((action, seat))
        states.append(s)
    assert G.result(s) is not None, "the game did not end"
    return log, states, cheats, caught


def replay(seed, log):
    s = G.new_game(2, {}, seed)
    yield s
    for action, seat in log:
        s = G.apply(s, action, seat).state
        yield s


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), cheat_rate=st.sampled_from([0.0, 0.03, 0.15]),
       call_rate=st.sampled_from([0.05, 0.3]), skip_rate=st.sampled_from([0.0, 0.05]))
def test_random_games_with_cheating_and_forfeits_end_and_replay_exactly(seed, cheat_rate, call_rate, skip_rate):
    """MG-9.1, MG-10.1, MG-10.3, MG-10.4, MG-10.5, MG-10.6, MG-1.2, MG-4.3; forfeits as at a deadline."""
    log, states, _, _ = play_random_game(seed, cheat_rate, call_rate, skip_rate)
    assert list(replay(seed, log)) == states


def test_cheats_are_both_caught_and_left_standing():
    """Over a few games, some illegal moves are caught (MG-10.4) and some stand (MG-10.6)."""
    totals = [play_random_game(seed, 0.15, 0.3)[2:] for seed in range(6)]
    cheats, caught = map(sum, zip(*totals))
    assert 0 < caught < cheats
