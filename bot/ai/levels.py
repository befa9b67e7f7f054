"""What a computer player of each level plays: `choose_action` (bot/ai/__init__.py says what the levels do)."""
from __future__ import annotations

import random
from typing import Any, Protocol, TypeVar, runtime_checkable

from bot.ai.heuristics import heuristic_for, load, wrong_kind
from bot.ai.search import best_action, monte_carlo_action, random_action
from bot.games.base import Ruleset

LEVELS = ("easy", "normal", "hard")
# Hard: the work cap when the caller gives only a time budget.
MAX_PLAYOUTS = 5000
MAX_NODES = 2_000_000

S = TypeVar("S")   # the game's state


@runtime_checkable
class HardSearch(Protocol):
    """The hard level's tree search a ruleset names (`Ruleset.hard_search`): the action it chooses, within
    `nodes` positions or `budget_s` seconds. Each takes its own game's state, hence Any."""

    def __call__(self, state: Any, rng: random.Random, /, *, nodes: int | None, budget_s: float | None) -> str: ...


def hard_search_for(ruleset: Ruleset[Any]) -> HardSearch | None:
    """The tree search the ruleset names, or None (the hard level plays Monte-Carlo playouts)."""
    if ruleset.hard_search is None:
        return None
    found = load(ruleset.hard_search)
    if not isinstance(found, HardSearch):
        raise wrong_kind(ruleset.hard_search, found, "a search")
    return found


def tree_search(ruleset: Ruleset[Any]) -> bool:
    """Whether the hard level searches this game as a tree (its budget counts nodes, not playouts)."""
    return ruleset.hard_search is not None


def choose_action(ruleset: Ruleset[S], state: S, seat: int, level: str, *, rng: random.Random,
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
    search = hard_search_for(ruleset)
    if search is not None:
        return search(state, rng, nodes=MAX_NODES if nodes is None else nodes, budget_s=budget_s)
    if playouts is None:
        playouts = MAX_PLAYOUTS
    return monte_carlo_action(ruleset, heuristic, state, rng, budget_s, playouts)
