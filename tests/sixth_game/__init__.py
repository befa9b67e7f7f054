"""A sixth game, added as docs/adding-a-game.md says and played like the five: Line race, its rules with their IDs
(rules.md), its ruleset (rules.py), its board family and that family's contract (board.py), its computer players'
heuristic (ai.py), its words in every language (words/<locale>.json), and its sample position and README row
(sample.py). tests/test_a_sixth_game.py checks each of the guide's steps on it.

`register` does what a developer's edit of the repository does for a real game: it lists the ruleset last in
`bot.games.GAMES`, the one registration, and adds its words to each locale's catalogue, as a file of
data/i18n/<locale>/ would. Nothing else in the bot is told about the game. `python -m tests.sixth_game.run` is
`python -m bot` with the game registered first: the bot against the fake Discord, or `play line-race`.
"""
from __future__ import annotations

import json
import operator
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bot.games
from bot.domain import i18n
from tests.sixth_game.rules import LineRace

WORDS = Path(__file__).resolve().parent / "words"


def words(locale: str) -> dict[str, Any]:
    return json.loads((WORDS / f"{locale}.json").read_text(encoding="utf-8"))


def register(set_attribute: Callable[[Any, str, Any], None] = setattr,
             set_item: Callable[[Any, Any, Any], None] = operator.setitem) -> None:
    """Line race last in the menu, its words in the catalogue. A test passes monkeypatch's setattr and setitem,
    which undo it afterwards; a program registering it for good, the plain ones."""
    games = (*bot.games.GAMES, LineRace)
    set_attribute(bot.games, "GAMES", games)
    set_attribute(bot.games, "GAME_IDS", tuple(game.id for game in games))
    for locale in i18n.LOCALES:
        for key, template in words(locale).items():
            set_item(i18n.catalogue(locale), key, template)
