"""Buttons and select menus that survive restarts, the views that hold them, and the reading of a click.

A control's custom_id carries everything needed to act (game id, state version, action; formats and
their decoding in bot/cogs/custom_ids.py), so a click on any board, even one posted before a restart,
is routed to the game cog, which refuses it politely when the board is out of date. discord.py does
not dispatch them: every view is stopped before it is sent (so discord.py keeps no copy of it) and
GameCog.on_interaction answers every click, select and modal, forged ones included.
"""
from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

import discord

from bot.cogs.custom_ids import Forged, Request, decode, encode
from bot.present.post import Control


BOARD_KINDS = "asgcxu"   # the controls of a board: they act on the version it shows


def read(interaction: discord.Interaction) -> Request:
    """The control an interaction (a component or a modal submission) names; custom_ids.Forged if none."""
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    if interaction.type == discord.InteractionType.modal_submit:
        return decode(custom_id, None, typed=dict(_typed_fields(data.get("components") or [])))
    shown = _shown(interaction.message)
    values = data.get("values") or []
    return decode(custom_id, shown, is_select=data.get("component_type") == discord.ComponentType.string_select.value,
                  values=values if isinstance(values, list) else [])


def controls_of(message: discord.Message) -> tuple[int, int | None] | None:
    """(game id, version shown) of a board with controls, (game id, None) of an open lobby; None for
    any other message (controls retired, history pages, votes, take-back requests)."""
    shown = _shown(message)
    for custom_id, options in shown.items():
        try:
            request = decode(custom_id, shown, is_select=bool(options), values=options[:1])   # a menu as if picked
        except Forged:
            continue
        if request.kind == "l":
            return request.game, None
        if request.kind in BOARD_KINDS:
            return request.game, request.number
    return None


def _shown(message: discord.Message | None) -> dict[str, tuple[str, ...]]:
    """Each control of the message (custom_id) with its select options (() for a button)."""
    return {getattr(child, "custom_id", None): tuple(option.value for option in getattr(child, "options", ()))
            for child in _children(message.components if message else [])}


def _children(components: Iterable[Any]) -> Iterable[Any]:
    for component in components:
        yield from getattr(component, "children", None) or [component]


def _typed_fields(components: Iterable[Any]) -> Iterable[tuple[str, str]]:
    """(custom_id, value) of a modal submission's text fields, in rows or labels."""
    for component in components:
        if not isinstance(component, dict):
            continue
        if "value" in component:
            yield component.get("custom_id"), component["value"]
        yield from _typed_fields(component.get("components") or [component.get("component")])


def stopped(view: discord.ui.View) -> discord.ui.View:
    """A view discord.py will send but not listen to (GameCog.on_interaction answers its controls)."""
    view.stop()
    return view


def button(custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           row: int | None = None, emoji: str | None = None, disabled: bool = False) -> discord.ui.Button:
    return discord.ui.Button(custom_id=custom_id, label=label[:80], style=style, row=row, emoji=emoji,
                             disabled=disabled)


def view_of(game: int, version: int, controls: tuple[Control, ...]) -> discord.ui.View | None:
    """The Discord controls of a message (bot/present describes them); None when it has none."""
    if not controls:
        return None
    view = discord.ui.View(timeout=None)
    for control in controls:
        view.add_item(_item(game, version, control))
    return stopped(view)


def _item(game: int, version: int, control: Control) -> discord.ui.Item:
    kind, label, row = control.kind, control.label, control.row
    if kind == "lobby":
        style = {"join": discord.ButtonStyle.success, "start": discord.ButtonStyle.primary}
        return button(encode("l", game, control.value), label, style.get(control.value, discord.ButtonStyle.secondary))
    if kind in ("roll", "action"):
        roll = kind == "roll"
        return button(encode("a", game, version, control.value), label,
                      discord.ButtonStyle.primary if roll else discord.ButtonStyle.success, row=row,
                      emoji="🎲" if roll else None)
    if kind in ("moves", "groups"):
        options = [discord.SelectOption(label=text, value=value) for text, value in control.options]
        return discord.ui.Select(custom_id=encode("s" if kind == "moves" else "g", game, version), options=options,
                                 placeholder=label, row=row)
    if kind == "rematch":
        return button(encode("r", game), label, discord.ButtonStyle.primary)
    call = kind == "call"
    return button(encode({"call": "c", "other_move": "x", "undo": "u"}[kind], game, version), label,
                  discord.ButtonStyle.danger if call else discord.ButtonStyle.secondary, row=row)


def png_file(png: bytes, description: str | None, filename: str = "board.png") -> discord.File:
    """A picture to attach, with its description (alt text) for screen readers."""
    return discord.File(io.BytesIO(png), filename=filename, description=description)
