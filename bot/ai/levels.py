"""What a computer player of each level plays: `choose_action` (bot/ai/__init__.py says what the levels do)."""
from __future__ import annotations

import random
from typing import Any

from bot.ai.heuristics import heuristic_for
from bot.ai.search import best_action, monte_carlo_action, random_action
from bot.games.base import Ruleset

LEVELS = ("easy", "normal", "hard")
# Hard: the playout cap when the caller gives only a time budget.
MAX_PLAYOUTS = 5000


def choose_action(ruleset: Ruleset, state: Any, seat: int, level: str, *, rng: random.Random,
                  budget_s: float | None = 1.0, playouts: int | None = None) -> str:
    """A legal action for `seat`, which must be to move with no roll due.

    The hard level stops at `budget_s` seconds or `playouts` playouts, whichever
    comes first; with budget_s=None the choice depends only on rng.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    if ruleset.to_move(state) != seat or ruleset.roll_due(state):
        raise ValueError(f"seat {seat} cannot choose an action now")
    actions = ruleset.legal_actions(state)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    if len(actions) == 1:
        return actions[0]
    if level == "easy":
        return random_action(ruleset, state, rng)
    heuristic = heuristic_for(ruleset)
    if level == "normal":
        return best_action(ruleset, heuristic, state, rng)
    if playouts is None:
        playouts = MAX_PLAYOUTS
    return monte_carlo_action(ruleset, heuristic, state, rng, budget_s, playouts)
