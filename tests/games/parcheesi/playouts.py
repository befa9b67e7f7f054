"""Random games of the 68-square rulesets, with the invariants every state must keep."""
from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable

from bot.games.parcheesi.board import GOAL, HOUSE, board
from bot.games.parcheesi.engine import Engine
from bot.games.parcheesi.engine_state import COLOURS, State

B = board()
MAX_STEPS = 20_000


def colour_of(s: State, p: int) -> str:
    return COLOURS[s.colours[p >> 2]]


# board.square_key for every colour index and progress (index -1: the house).
KEYS = tuple(tuple(B.square_key(c, x) for x in range(GOAL + 1)) + (None,) for c in COLOURS)


def square_key(route: str, progress: int) -> str | None:
    return KEYS[COLOURS.index(route)][progress]


def keys_of(s: State) -> list[str | None]:
    return [KEYS[s.colours[p >> 2]][x] for p, x in enumerate(s.pos)]


def bridges(s: State) -> set[str]:
    """Physical squares holding two pawns of one colour (independent of the engine's tables)."""
    held: dict[str, list[str]] = {}
    for p, key in enumerate(keys_of(s)):
        if key not in (None, "goal"):
            held.setdefault(key, []).append(colour_of(s, p))
    return {key for key, colours in held.items() if len(colours) == 2 and colours[0] == colours[1]}


def check_state(ruleset: Engine, s: State, full: bool = True) -> None:
    """Pawn count, positions, at most two per square, a turn never stalls; `full`: JSON round trip."""
    assert len(s.pos) == 4 * len(s.colours) and sorted(s.arrivals) == list(range(len(s.pos)))
    assert all(HOUSE <= p <= GOAL for p in s.pos)
    squares = Counter(keys_of(s))
    assert all(n <= 2 for key, n in squares.items() if key not in (None, "goal")), squares
    if full:
        assert ruleset.from_json(json.loads(json.dumps(ruleset.to_json(s)))) == s
    if ruleset.result(s) is None and not ruleset.roll_due(s):
        assert ruleset.legal_actions(s), s
    assert set(ruleset.legal_actions(s)) <= set(ruleset.accepted_actions(s))


def check_step(before: State, after: State, action: str) -> None:
    """Pawns only move forward or go home; a move never crosses or lands on a bridge (PM-4.3, PC-4.3)."""
    for p, (a, b) in enumerate(zip(before.pos, after.pos)):
        assert b >= a or b == HOUSE, (p, a, b, action)
    if action[0] in "YBRG":
        p, src, dst = after.last_move
        route = colour_of(before, p)
        blocked = bridges(before)
        assert not any(square_key(route, k) in blocked for k in range(src + 1, dst + 1)), (action, blocked)


def play_random(ruleset: Engine, players: int, options: dict, rng: random.Random,
                choose: Callable[[Engine, State, random.Random], tuple[int | None, str]] | None = None,
                ) -> tuple[list[tuple[int | None, str]], list[State]]:
    """Play one game to its end; returns the (seat, action) log and every state."""
    s = ruleset.new_game(players, options, 0)
    log: list[tuple[int | None, str]] = []
    states = [s]
    check_state(ruleset, s)
    while ruleset.result(s) is None:
        assert len(log) < MAX_STEPS, "the game does not end"
        if ruleset.roll_due(s) and choose is None:
            seat, action = None, ruleset.random_roll(s, rng)
        elif choose is None:
            seat, action = None, rng.choice(ruleset.legal_actions(s))
        else:
            seat, action = choose(ruleset, s, rng)
        after = ruleset.apply(s, action, seat).state
        check_step(s, after, action)
        check_state(ruleset, after, full=len(log) % 8 == 0 or ruleset.result(after) is not None)
        log.append((seat, action))
        states.append(after)
        s = after
    return log, states


def replay(ruleset: Engine, players: int, options: dict, log: list[tuple[int | None, str]],
           states: list[State]) -> None:
    """Replaying the log from new_game gives every state again, exactly."""
    s = ruleset.new_game(players, options, 0)
    assert s == states[0]
    for (seat, action), expected in zip(log, states[1:]):
        s = ruleset.apply(s, action, seat).state
        assert s == expected
