"""What the parts of GameCog share, declared once (as Red-DiscordBot's MixinMeta does).

GameCog is assembled from mixins (game_history.py, game_takeback.py, game_timers.py, game_defaults.py,
recovery.py) that call each other through `self`. Each mixin derives from `GameCogBase`, which names every
attribute and method they use of one another, typed, so that the type checker checks every such call.
It is a Cog, so that the mixins' app commands type-check (discord.py binds them to a cog or a group); its
methods are abstract for the type checker only (an ABCMeta would clash with discord.py's CogMeta).
"""
from __future__ import annotations

from abc import abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.delivery import Unprompted, Via
from bot.config import Settings
from bot.games.base import Message
from bot.services import BoardAnnotations, GameRecord, People, Sessions, StoreUnavailable
from bot.session_results import Outcome
from bot.services.scheduler import TurnTimers


@dataclass(frozen=True)
class Request:
    """A control read from an interaction (bot/cogs/controls.py), for the handler of its kind.

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


def channel_of(interaction: discord.Interaction) -> int:
    """The channel (or thread) of a command or a control: Discord always gives it for these."""
    assert interaction.channel_id is not None, interaction.type
    return interaction.channel_id


def guild_of(interaction: discord.Interaction) -> int:
    """The server of a guild-only command."""
    assert interaction.guild_id is not None, interaction.type
    return interaction.guild_id


# How a handler shows an outcome (GameCog.publish by default), through the interaction that asked.
Show = Callable[[Outcome, discord.Interaction], Awaitable[None]]


class GameCogBase(commands.Cog):
    bot: commands.AutoShardedBot   # bot.app.TableroBot: sharded from the start
    config: Settings
    sessions: Sessions
    timers: TurnTimers

    # --- game.py: the shared flow -------------------------------------------------
    @abstractmethod
    async def _run(self, interaction: discord.Interaction, call: Callable[[], Awaitable[Outcome]],
                   done: Message | Callable[[Outcome], Message] | None = None, needs_board: bool = True,
                   show: Show | None = None, shows_here: bool = True) -> None: ...

    @abstractmethod
    async def _tell(self, interaction: discord.Interaction, message: Message) -> None: ...

    @abstractmethod
    def via(self, record: GameRecord, interaction: discord.Interaction | None = None,
            why: Unprompted = Unprompted.RECOVERED) -> Via: ...

    @abstractmethod
    async def publish(self, outcome: Outcome, interaction: discord.Interaction | None = None,
                      why: Unprompted = Unprompted.RECOVERED) -> None: ...

    @abstractmethod
    async def catch_up(self, record: GameRecord, shown: int | None, shown_status: str | None,
                       interaction: discord.Interaction | None = None,
                       why: Unprompted = Unprompted.RECOVERED) -> bool: ...

    # --- recovery.py ----------------------------------------------------------------
    @abstractmethod
    async def publish_or_recover(self, outcome: Outcome, interaction: discord.Interaction | None = None,
                                 why: Unprompted = Unprompted.RECOVERED) -> None: ...

    @abstractmethod
    def recover_later(self, game_id: int, error: BaseException) -> None: ...

    @abstractmethod
    def retry_later(self, what: str, attempt: Callable[[], Awaitable[None]], error: BaseException) -> None: ...

    @abstractmethod
    async def storage_unreachable(self, interaction: discord.Interaction, error: StoreUnavailable) -> None: ...

    # --- game_timers.py -------------------------------------------------------------
    @abstractmethod
    def turn_time(self, text: str) -> int: ...

    @abstractmethod
    def deadline_changes(self, turn_time: str | None,
                         on_timeout: app_commands.Choice[str] | None) -> dict[str, Any]: ...

    @abstractmethod
    def clock_lines(self, record: GameRecord, view: BoardAnnotations) -> list[str]: ...

    @abstractmethod
    def overdue_first(self, interaction: discord.Interaction,
                      call: Callable[[], Awaitable[Outcome]]) -> Callable[[], Awaitable[Outcome]]: ...

    @abstractmethod
    async def notify_turn(self, record: GameRecord, user_id: int | None, people: People) -> None: ...

    # --- game_mine.py ---------------------------------------------------------------
    @abstractmethod
    async def turn_list(self, guild_id: int | None, user_id: int, locale: str) -> str: ...

    # --- game_history.py ------------------------------------------------------------
    @abstractmethod
    async def announce(self, outcome: Outcome, via: Via) -> None: ...

    # --- the handlers of the control kinds (bot/cogs/controls.py) -------------------
    @abstractmethod
    async def on_action(self, interaction: discord.Interaction, request: Request) -> None: ...

    @abstractmethod
    async def on_lobby(self, interaction: discord.Interaction, request: Request) -> None: ...

    @abstractmethod
    async def on_group(self, interaction: discord.Interaction, request: Request) -> None: ...

    @abstractmethod
    async def on_call_button(self, interaction: discord.Interaction, request: Request) -> None: ...

    @abstractmethod
    async def on_other_move_button(self, interaction: discord.Interaction, request: Request) -> None: ...

    @abstractmethod
    async def on_rematch(self, interaction: discord.Interaction, game: int | None) -> None: ...

    @abstractmethod
    async def on_history_page(self, interaction: discord.Interaction, request: Request) -> None: ...

    @abstractmethod
    async def on_vote(self, interaction: discord.Interaction, request: Request) -> None: ...

    @abstractmethod
    async def on_undo_request(self, interaction: discord.Interaction, request: Request) -> None: ...

    @abstractmethod
    async def on_claim(self, interaction: discord.Interaction, request: Request) -> None: ...

    @abstractmethod
    async def on_takeback_answer(self, interaction: discord.Interaction, request: Request) -> None: ...

    @abstractmethod
    async def on_forget(self, interaction: discord.Interaction, request: Request) -> None: ...
