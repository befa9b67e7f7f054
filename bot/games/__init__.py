"""Rulesets: pure, deterministic, no I/O, no discord (see base.py for the API)."""
from __future__ import annotations

from functools import cache
from importlib import import_module

from bot.games.base import Ruleset

# Every game offered by `/game new`, in menu order.
GAME_IDS = ("parcheesi", "parcheesi-classic", "parchis-maghreb", "barricade", "pariti")

# Where each built ruleset lives; a game id missing here is answered "coming soon".
_MODULES: dict[str, str] = {
    "parcheesi": "bot.games.parcheesi.mundijeux:Mundijeux",
    "parcheesi-classic": "bot.games.parcheesi.classic:Classic",
    "pariti": "bot.games.pariti:Pariti",
    "parchis-maghreb": "bot.games.parcheesi.maghreb:Maghreb",
    "barricade": "bot.games.barricade:Barricade",
}


@cache
def get_ruleset(game_id: str) -> Ruleset | None:
    """The ruleset for a game id, or None when that game is not available yet."""
    where = _MODULES.get(game_id)
    if where is None:
        return None
    module, cls = where.split(":")
    return getattr(import_module(module), cls)()
