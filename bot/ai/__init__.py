"""Computer players for every ruleset: pure functions over the Ruleset API.

- `choose_action(ruleset, state, seat, level, rng=..., budget_s=..., playouts=...)`:
  the action a computer player takes (never a roll: the session rolls).
- `choose_call(ruleset, state, seat, level, rng)`: in cheating rulesets, the
  call-out a computer player makes now, or None. Computer players never cheat.
- `think(ruleset_id, state_json, seat, level, budget_s)`: choose_action for
  each decision of the seat's turn up to its next roll, in one budget,
  awaited off the event loop (see bot/ai/pool.py).

Levels: "easy" plays a random legal action; "normal" the best action for a
per-game heuristic (bot/ai/heuristics.py); "hard" compares the normal level's
best candidates by Monte-Carlo playouts over sampled dice (bot/ai/search.py),
or, in Pariti (no dice), searches the game tree with alpha-beta
(bot/ai/pariti_search.py).
"""
from bot.ai.calls import choose_call
from bot.ai.levels import LEVELS, choose_action
from bot.ai.pool import think

__all__ = ["LEVELS", "choose_action", "choose_call", "think"]
