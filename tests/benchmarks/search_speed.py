"""What Pariti's search gains from its own board (bot/ai/pariti_search.py): positions a second.

    python -m tests.benchmarks.search_speed

Over positions of seeded random games, every child position is made and scored by the heuristic,
once through the ruleset (`legal_actions`, `apply`, bot/ai/pariti.py's `evaluate`) and once through
the search's mutable board (`moves`, `make`, `evaluate`, `undo`). Prints children a second each way
(CPU time, best of 3) and their ratio.
"""
from __future__ import annotations

import random
import time

from bot.ai.pariti import evaluate
from bot.ai.pariti_search import _Position
from bot.games import get_ruleset
from tests.benchmarks.common import random_game


def positions(count: int) -> list:
    ruleset = get_ruleset("pariti")
    found = []
    for seed in range(count):
        states = [s for s in random_game(ruleset, 2, seed) if ruleset.to_move(s) is not None]
        found.append(random.Random(seed).choice(states[:60]))
    return found


def through_ruleset(states: list) -> int:
    ruleset = get_ruleset("pariti")
    children = 0
    for state in states:
        for action in ruleset.legal_actions(state):
            evaluate(ruleset, ruleset.apply(state, action).state, state.seat)
            children += 1
    return children


def through_search_board(states: list) -> int:
    children = 0
    for state in states:
        pos = _Position(state)
        quiet = pos.quiet
        for move in pos.moves():
            paired = pos.make(move)
            pos.evaluate()
            pos.undo(move, paired, quiet)
            children += 1
    return children


def best_rate(run, states: list, repeats: int = 3) -> float:
    rates = []
    for _ in range(repeats):
        started = time.process_time()
        children = run(states)
        rates.append(children / (time.process_time() - started))
    return max(rates)


def main() -> None:
    states = positions(40)
    ruleset_rate = best_rate(through_ruleset, states)
    board_rate = best_rate(through_search_board, states)
    print(f"Pariti, {len(states)} positions of random games, every child made and scored (CPU, best of 3):")
    print(f"  ruleset (legal_actions, apply, evaluate): {ruleset_rate:,.0f} children/s")
    print(f"  search board (moves, make, evaluate, undo): {board_rate:,.0f} children/s  "
          f"({board_rate / ruleset_rate:.1f}x)")


if __name__ == "__main__":
    main()
