"""What a player sends to act, as the front ends and the session service read it alike: ROLL asks for a roll
(the session draws the dice from the game's seed); anything else names one of the ruleset's accepted actions,
perhaps typed by hand (typed_action)."""
from __future__ import annotations

ROLL = "roll"


def typed_action(accepted: list[str], typed: str) -> str | None:
    """The accepted action that `typed` stands for: itself, or, typed by hand, the only one
    equal to it regardless of case ("y2+4" means "Y2+4"); None when there is none."""
    if typed in accepted:
        return typed
    same = [a for a in accepted if a.casefold() == typed.casefold()]
    return same[0] if len(same) == 1 else None
