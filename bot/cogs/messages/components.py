"""Discord's pieces of a message: buttons, views the bot sends but does not listen to, pictures.

Which controls a message shows, and what their custom_ids say, is bot/cogs/events/controls.py.
"""
from __future__ import annotations

import io

import discord


def stopped(view: discord.ui.View) -> discord.ui.View:
    """A view discord.py will send but not listen to (GameEvents.on_interaction answers its controls)."""
    view.stop()
    return view


Button = discord.ui.Button[discord.ui.View]


def button(custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           row: int | None = None, emoji: str | None = None, disabled: bool = False) -> Button:
    return discord.ui.Button(custom_id=custom_id, label=label[:80], style=style, row=row, emoji=emoji,
                             disabled=disabled)


def pinging(user_id: int | None) -> discord.AllowedMentions:
    """Mentions that notify that one user (None: nobody)."""
    if user_id is None:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(users=[discord.Object(user_id)], everyone=False, roles=False)


def png_file(png: bytes, description: str | None, filename: str = "board.png") -> discord.File:
    """A picture to attach, with its description (alt text) for screen readers."""
    return discord.File(io.BytesIO(png), filename=filename, description=description)
