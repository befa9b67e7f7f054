"""Rulesets: pure, deterministic, no I/O, no discord (see base.py for the API).

A game is registered once, by its ruleset class in GAMES: the class holds the game's rule facts and
names the renderer module that draws its board and the computer players' heuristic (docs/adding-a-game.md).
"""
from __future__ import annotations

from functools import cache
from typing import Any

from bot.games.barricade import Barricade
from bot.games.base import Ruleset
from bot.games.parcheesi.classic import Classic
from bot.games.parcheesi.maghreb import Maghreb
from bot.games.parcheesi.mundijeux import Mundijeux
from bot.games.pariti import Pariti

# Every game offered by `/game new`, in menu order.
GAMES: tuple[type[Ruleset[Any]], ...] = (Mundijeux, Classic, Maghreb, Barricade, Pariti)
GAME_IDS = tuple(game.id for game in GAMES)


class UnknownGame(LookupError):
    """No game has this id: a bug or a stored game whose ruleset was removed."""


def get_ruleset(game_id: str) -> Ruleset[Any]:
    """The ruleset of a game in GAMES (made on first use: some build tables)."""
    for game in GAMES:
        if game.id == game_id:
            return _made(game)
    raise UnknownGame(game_id)


@cache
def _made(game: type[Ruleset[Any]]) -> Ruleset[Any]:
    return game()
