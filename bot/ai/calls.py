"""Call-outs in cheating rulesets: computer players catch illegal moves.

A computer player never calls out a legal move. When the opponent's move was
illegal, it notices at its level's rate: a human at the table could see the
move too, so judging it from the state's record is fair play.
"""
from __future__ import annotations

import random
from typing import Any

from bot.ai.heuristics import load
from bot.games.base import Ruleset

# Chance of calling out an illegal move, per level.
CALL_RATES = {"easy": 0.2, "normal": 0.6, "hard": 1.0}


def choose_call(ruleset: Ruleset, state: Any, seat: int, level: str, rng: random.Random) -> str | None:
    """The call-out `seat` makes now, or None (always None outside cheating rulesets)."""
    if not ruleset.allows_cheating or ruleset.call_judge is None:
        return None
    judge = load(ruleset.call_judge)   # (ruleset, state, seat, call action) -> the call would succeed
    valid = [action for action in ruleset.call_actions(state, seat) if judge(ruleset, state, seat, action)]
    if not valid or rng.random() >= CALL_RATES[level]:
        return None
    return valid[0]
