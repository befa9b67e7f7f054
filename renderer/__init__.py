"""Board pictures: game state -> PNG bytes. Knows nothing about Discord.

`layout` makes the picture's plan (renderer.plan: where every piece, square, label, trace and
note goes) and `render_png` paints it and nothing else. Each game's ruleset names its board
family's module (`Ruleset.board_family`), which has `layout(ruleset, state, players, locale,
focus, traced) -> Plan`.
"""
from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import Any

from bot.games.base import Ruleset
from renderer.common import PlayerTag, encode_png
from renderer.plan import Item, Plan


def render_png(
    ruleset: Ruleset,
    state: Any,
    players: list[PlayerTag],
    locale: str = "en",
    focus: str | None = None,
    traced: Sequence[Any] = (),
) -> bytes:
    """The board as PNG bytes. `focus` (an action group, e.g. a piece) asks the
    picture to show where that piece can go. `traced` holds the positions since
    the player to move last played, oldest first, `state` last (Timeline.since_turn):
    every move made along it is traced, in order. A finished game's picture says
    who won."""
    return encode_png(layout(ruleset, state, players, locale, focus, traced).picture())


def layout(ruleset: Ruleset, state: Any, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
           traced: Sequence[Any] = ()) -> Plan:
    """The plan of render_png's picture (same arguments): its `size` and `items`, each with its
    kind, ref, box in the posted picture's pixels and, for a piece, the square it stands on."""
    plan: Plan = import_module(ruleset.board_family).layout(ruleset, state, players, locale, focus, traced)
    return plan


__all__ = ["Item", "Plan", "PlayerTag", "layout", "render_png"]
