"""What a computer player of each level plays: `choose_action` (bot/ai/__init__.py says what the levels do)."""
from __future__ import annotations

import random
from typing import Any

from bot.ai.heuristics import heuristic_for, load
from bot.ai.search import best_action, monte_carlo_action, random_action
from bot.games.base import Ruleset

LEVELS = ("easy", "normal", "hard")
# Hard: the work cap when the caller gives only a time budget.
MAX_PLAYOUTS = 5000
MAX_NODES = 2_000_000


def tree_search(ruleset: Ruleset) -> bool:
    """Whether the hard level searches this game as a tree (its budget counts nodes, not playouts)."""
    return ruleset.hard_search is not None


def choose_action(ruleset: Ruleset, state: Any, seat: int, level: str, *, rng: random.Random,
                  budget_s: float | None = 1.0, playouts: int | None = None, nodes: int | None = None) -> str:
    """A legal action for `seat`, which must be to move with no roll due.

    The hard level stops at `budget_s` seconds or at its work budget, whichever
    comes first: `playouts` Monte-Carlo playouts, or `nodes` positions in the
    games it searches as a tree (Pariti). With budget_s=None the choice depends
    only on rng and that work budget.
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
    if ruleset.hard_search is not None:   # (state, rng, nodes=..., budget_s=...) -> action
        return load(ruleset.hard_search)(state, rng, nodes=MAX_NODES if nodes is None else nodes,
                                         budget_s=budget_s)
    if playouts is None:
        playouts = MAX_PLAYOUTS
    return monte_carlo_action(ruleset, heuristic, state, rng, budget_s, playouts)
