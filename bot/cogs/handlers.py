"""What the handlers of the game commands and controls share: the control a click carries (`Request`), the
channel and server of an interaction, the user's locale, and how a handler shows an outcome (`Show`)."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from bot.domain import i18n
from bot.domain.session_results import Outcome


@dataclass(frozen=True)
class Request:
    """A control read from an interaction (bot/cogs/events/controls.py), for the handler of its kind.

    Its custom_id's number is, as its kind says (Kind.number_is), the `version` of the game a board's
    control or a take-back answer acts on, a history `page`, or the `seat` a vote is on; the other two
    stay 0. `value`: the action, the option picked, the move typed, the lobby verb, the page slot, the
    vote or the answer to a take-back request."""

    kind: str
    game: int
    value: str = ""
    version: int = 0
    page: int = 0
    seat: int = 0
    on_board: bool = False   # a board's control: `version` is the version that board shows


# The interaction's `extras` key of the control it carries, read once (GameEvents.on_interaction) and found there
# by whoever answers it further on: the overdue deadline's check, the board publisher.
CONTROL = "tablero.control"


def control_of(interaction: discord.Interaction) -> Request | None:
    """The control this interaction carries, as read when it came in (None: a command)."""
    found = interaction.extras.get(CONTROL)
    return found if isinstance(found, Request) else None


def channel_of(interaction: discord.Interaction) -> int:
    """The channel (or thread) of a command or a control: Discord always gives it for these."""
    assert interaction.channel_id is not None, interaction.type
    return interaction.channel_id


def guild_of(interaction: discord.Interaction) -> int:
    """The server of a guild-only command."""
    assert interaction.guild_id is not None, interaction.type
    return interaction.guild_id


def user_locale(interaction: discord.Interaction) -> str:
    """The language of the user who asked (of the replies shown to them alone)."""
    return i18n.locale_of(interaction.locale)


# How a handler shows an outcome (BoardPublisher.publish by default), through the interaction that asked.
Show = Callable[[Outcome, discord.Interaction], Awaitable[None]]
