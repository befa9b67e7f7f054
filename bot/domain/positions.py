"""A stored game read through its ruleset: the ruleset of a record and, past its lobby, its position.

Below both the session service and the front ends' words (bot/present/), which read games alike.
"""
from __future__ import annotations

from typing import Any

from bot.core.game_records import GameRecord
from bot.games import get_ruleset
from bot.games.base import Ruleset


def ruleset_of(record: GameRecord) -> Ruleset[Any]:
    return get_ruleset(record.game)


def snapshot(record: GameRecord) -> dict[str, Any]:
    """The stored state of a game past its lobby (a lobby has none)."""
    assert record.state is not None, record.id
    return record.state


def position(record: GameRecord) -> tuple[Ruleset[Any], Any]:
    """The ruleset and the position of a game past its lobby."""
    ruleset = ruleset_of(record)
    return ruleset, ruleset.from_json(snapshot(record))
