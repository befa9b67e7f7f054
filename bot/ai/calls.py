"""Call-outs in cheating rulesets: computer players catch illegal moves.

A computer player never calls out a legal move. When the opponent's move was
illegal, it notices at its level's rate: a human at the table could see the
move too, so judging it from the state's record is fair play.
"""
from __future__ import annotations

import random
from typing import Any, Protocol, TypeVar, runtime_checkable

from bot.ai.heuristics import load, wrong_kind
from bot.games.base import Ruleset

# Chance of calling out an illegal move, per level.
CALL_RATES = {"easy": 0.2, "normal": 0.6, "hard": 1.0}

S = TypeVar("S")   # the game's state


@runtime_checkable
class CallJudge(Protocol):
    """A cheating ruleset's judge of a call-out (`Ruleset.call_judge`): would `seat`'s call `action` succeed?
    Each judge takes its own game's ruleset and state, hence Any."""

    def __call__(self, ruleset: Any, state: Any, seat: int, action: str, /) -> bool: ...


def call_judge_for(ruleset: Ruleset[Any]) -> CallJudge | None:
    """The judge the ruleset names, or None (it never calls out)."""
    if ruleset.call_judge is None:
        return None
    found = load(ruleset.call_judge)
    if not isinstance(found, CallJudge):
        raise wrong_kind(ruleset.call_judge, found, "a call-out judge")
    return found


def choose_call(ruleset: Ruleset[S], state: S, seat: int, level: str, rng: random.Random) -> str | None:
    """The call-out `seat` makes now, or None (always None outside cheating rulesets)."""
    judge = call_judge_for(ruleset) if ruleset.allows_cheating else None
    if judge is None:
        return None
    valid = [action for action in ruleset.call_actions(state, seat) if judge(ruleset, state, seat, action)]
    if not valid or rng.random() >= CALL_RATES[level]:
        return None
    return valid[0]
