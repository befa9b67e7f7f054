"""Buttons and select menus that survive restarts, and the views that hold them.

Each is a discord.py DynamicItem: its custom_id carries everything needed to
act (game id, state version, action), so a click on any board, even one
posted before a restart, is parsed and routed to the game cog, which refuses
it politely when the board is out of date.

custom_id formats (<= 100 characters):
  tb:a:<game>:<version>:<action>   play an action (or "roll")
  tb:s:<game>:<version>            select menu whose values are actions
  tb:g:<game>:<version>            select menu whose values are action groups (e.g. a pawn)
  tb:c:<game>:<version>            call out a cheat (cheating rulesets)
  tb:x:<game>:<version>            type another move (cheating rulesets: a deliberate act)
  tb:l:<game>:<verb>               lobby: join, leave, start, add-bot
Defined beside their commands: tb:h:<game>:<page>:<slot> history pages
(bot/cogs/game_history.py), tb:v:<game>:<seat>:<choice> votes on an absent
seat (bot/cogs/game_timers.py).
"""
from __future__ import annotations

import io
import re
from typing import Any

import discord

from bot.present.post import Control

ACTION_ID = "tb:a:{game}:{version}:{action}"
_BOARD = r"tb:(?P<kind>[sgcx]):(?P<game>\d+):(?P<version>\d+)"


def game_cog(interaction: discord.Interaction) -> Any:
    """The GameCog, which handles every control (found by name: bot/cogs/game.py imports this module)."""
    cog = interaction.client.get_cog("GameCog")  # type: ignore[union-attr]
    assert cog is not None
    return cog


class ActionButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tb:a:(?P<game>\d+):(?P<version>\d+):(?P<action>\S+)"):
    def __init__(self, game: int, version: int, action: str, label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None,
                 emoji: str | None = None):
        super().__init__(discord.ui.Button(label=label[:80], style=style, emoji=emoji, row=row,
                                           custom_id=ACTION_ID.format(game=game, version=version, action=action)))
        self.game, self.version, self.action = game, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["game"]), int(match["version"]), match["action"], item.label or "?")

    async def callback(self, interaction: discord.Interaction) -> None:
        await game_cog(interaction).on_action(interaction, self.action, self.game, self.version)


class BoardSelect(discord.ui.DynamicItem[discord.ui.Select], template=_BOARD.replace("[sgcx]", "[sg]")):
    """A select of actions (s) or of action groups (g)."""

    def __init__(self, kind: str, game: int, version: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, row: int | None = None):
        super().__init__(discord.ui.Select(custom_id=f"tb:{kind}:{game}:{version}", options=options or [],
                                           placeholder=placeholder, row=row))
        self.kind, self.game, self.version = kind, game, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any):
        return cls(match["kind"], int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or [""]
        if self.kind == "s":
            await game_cog(interaction).on_action(interaction, values[0], self.game, self.version)
        else:
            await game_cog(interaction).on_group(interaction, values[0], self.game, self.version)


class BoardButton(discord.ui.DynamicItem[discord.ui.Button], template=_BOARD.replace("[sgcx]", "[cx]")):
    """Call out (c) or type another move (x)."""

    def __init__(self, kind: str, game: int, version: int, label: str = "?", row: int | None = None):
        style = discord.ButtonStyle.danger if kind == "c" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(custom_id=f"tb:{kind}:{game}:{version}", label=label[:80], style=style,
                                           row=row))
        self.kind, self.game, self.version = kind, game, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(match["kind"], int(match["game"]), int(match["version"]), item.label or "?")

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.kind == "c":
            await game_cog(interaction).on_call_button(interaction, self.game, self.version)
        else:
            await game_cog(interaction).on_other_move_button(interaction, self.game, self.version)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tb:l:(?P<game>\d+):(?P<verb>[a-z-]+)"):
    STYLES = {"join": discord.ButtonStyle.success, "start": discord.ButtonStyle.primary}

    def __init__(self, game: int, verb: str, label: str = "?"):
        super().__init__(discord.ui.Button(custom_id=f"tb:l:{game}:{verb}", label=label[:80],
                                           style=self.STYLES.get(verb, discord.ButtonStyle.secondary)))
        self.game, self.verb = game, verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["game"]), match["verb"], item.label or "?")

    async def callback(self, interaction: discord.Interaction) -> None:
        await game_cog(interaction).on_lobby(interaction, self.game, self.verb)


DYNAMIC_ITEMS = (ActionButton, BoardSelect, BoardButton, LobbyButton)
# A board's or a lobby's controls: the game they act on and, on a board, the version it shows.
_GAME_CONTROL = re.compile(r"tb:(?:[asgcx]:(?P<game>\d+):(?P<version>\d+)|l:(?P<lobby>\d+):)")


def controls_of(message: discord.Message) -> tuple[int, int | None] | None:
    """(game id, version shown) of a board with controls, (game id, None) of an open lobby; None for
    any other message (controls retired, history pages, votes)."""
    for row in message.components:
        for item in getattr(row, "children", ()):
            found = _GAME_CONTROL.match(getattr(item, "custom_id", None) or "")
            if found and found["lobby"]:
                return int(found["lobby"]), None
            if found:
                return int(found["game"]), int(found["version"])
    return None


def view_of(game: int, version: int, controls: tuple[Control, ...]) -> discord.ui.View | None:
    """The Discord controls of a message (bot/present describes them); None when it has none."""
    if not controls:
        return None
    view = discord.ui.View(timeout=None)
    for control in controls:
        view.add_item(_item(game, version, control))
    return view


def _item(game: int, version: int, control: Control) -> discord.ui.Item:
    kind, label, row = control.kind, control.label, control.row
    if kind == "lobby":
        return LobbyButton(game, control.value, label)
    if kind in ("roll", "action"):
        roll = kind == "roll"
        return ActionButton(game, version, control.value, label,
                            discord.ButtonStyle.primary if roll else discord.ButtonStyle.success, row=row,
                            emoji="🎲" if roll else None)
    if kind in ("moves", "groups"):
        options = [discord.SelectOption(label=text, value=value) for text, value in control.options]
        return BoardSelect("s" if kind == "moves" else "g", game, version, options, label, row=row)
    return BoardButton({"call": "c", "other_move": "x"}[kind], game, version, label, row=row)


def png_file(png: bytes, filename: str = "board.png") -> discord.File:
    return discord.File(io.BytesIO(png), filename=filename)
