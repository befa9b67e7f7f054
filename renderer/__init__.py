"""Board pictures: game state -> PNG bytes. Knows nothing about Discord.

`layout` makes the picture's plan (renderer.plan: where every piece, square, label, trace and
note goes) and `render_png` paints it and nothing else. Each game's ruleset names its board
family's module (`Ruleset.board_family`), which has `layout(ruleset, state, players, locale,
focus, traced) -> Plan`.
"""
from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import Any, Protocol, TypeVar, runtime_checkable

from bot.games.base import Ruleset
from renderer.legend import PlayerTag
from renderer.plan import Item, Plan
from renderer.png import encode_png

S = TypeVar("S")   # the game's state


@runtime_checkable
class Layout(Protocol):
    """A board family's `layout`: the plan of a position's picture. Each family's takes its own rulesets and
    states (the rulesets that name it), hence Any here."""

    def __call__(self, ruleset: Any, state: Any, players: list[PlayerTag], locale: str, focus: str | None,
                 traced: Sequence[Any], /) -> Plan: ...


def family_layout(ruleset: Ruleset[Any]) -> Layout:
    """The `layout` of the board family the ruleset names, imported on first use and checked here."""
    found: object = getattr(import_module(ruleset.board_family), "layout", None)
    if not isinstance(found, Layout):
        raise TypeError(f"{ruleset.board_family} has no layout function")
    return found


def render_png(
    ruleset: Ruleset[S],
    state: S,
    players: list[PlayerTag],
    locale: str = "en",
    focus: str | None = None,
    traced: Sequence[S] = (),
) -> bytes:
    """The board as PNG bytes. `focus` (an action group, e.g. a piece) asks the
    picture to show where that piece can go. `traced` holds the positions since
    the player to move last played, oldest first, `state` last (Timeline.since_turn):
    every move made along it is traced, in order. A finished game's picture says
    who won."""
    return encode_png(layout(ruleset, state, players, locale, focus, traced).picture())


def layout(ruleset: Ruleset[S], state: S, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
           traced: Sequence[S] = ()) -> Plan:
    """The plan of render_png's picture (same arguments): its `size` and `items`, each with its
    kind, ref, box in the posted picture's pixels and, for a piece, the square it stands on."""
    return family_layout(ruleset)(ruleset, state, players, locale, focus, traced)


__all__ = ["Item", "Plan", "PlayerTag", "layout", "render_png"]
