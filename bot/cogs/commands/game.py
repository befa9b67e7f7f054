"""The /game commands as Discord sees them: their names, options, descriptions and choices, declared on one
GroupCog; each command hands its interaction to the handler of its part (bot/cogs/parts.py).

Command and option names and the order of the options are the product's contract (tests/cogs/test_game.py
pins what is synced to Discord): options are only added. Clicks and Discord's other events are
bot/cogs/events/game_events.py.
"""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.commands.deadlines import NOTIFY_CHOICES, ON_TIMEOUT_CHOICES
from bot.cogs.commands.defaults import SEATING_CHOICES
from bot.cogs.commands.translator import command_text as _
from bot.cogs.parts import GameParts
from bot.domain import deadline_math, i18n
from bot.games import GAMES
from bot.services import COMPUTER_LEVELS

GAME_CHOICES = [app_commands.Choice(name=_(game.name), value=game.id) for game in GAMES]
LEVEL_CHOICES = [app_commands.Choice(name=_(f"choice.level.{lv}"), value=lv) for lv in COMPUTER_LEVELS]
LANGUAGE_CHOICES = [app_commands.Choice(name=_(f"choice.language.{lang}"), value=lang) for lang in i18n.LOCALES]


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class GameCog(commands.GroupCog, name="GameCog", group_name="game", group_description=_("cmd.game.description")):
    def __init__(self, parts: GameParts) -> None:
        self.parts = parts
        super().__init__()

    # The commands are synced in the order they are declared here.
    # --- a member's games, server defaults, history (game_mine, game_defaults, game_history) -----------------
    @app_commands.command(name="mine", description=_("cmd.mine.description"))
    async def mine(self, interaction: discord.Interaction) -> None:
        await self.parts.mine.mine(interaction)

    @app_commands.command(name="defaults", description=_("cmd.defaults.description"))
    @app_commands.describe(turn_time=_("opt.defaults_turn_time.description"),
                           on_timeout=_("opt.defaults_on_timeout.description"),
                           seating=_("opt.defaults_seating.description"),
                           language=_("opt.defaults_language.description"))
    @app_commands.choices(on_timeout=ON_TIMEOUT_CHOICES, seating=SEATING_CHOICES, language=LANGUAGE_CHOICES)
    async def defaults(self, interaction: discord.Interaction, turn_time: str | None = None,
                       on_timeout: app_commands.Choice[str] | None = None,
                       seating: app_commands.Choice[str] | None = None,
                       language: app_commands.Choice[str] | None = None) -> None:
        await self.parts.defaults.defaults(interaction, turn_time, on_timeout, seating, language)

    @app_commands.command(name="history", description=_("cmd.history.description"))
    @app_commands.describe(game_id=_("opt.game_id.description"))
    async def history(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        await self.parts.history.history(interaction, game_id)

    @app_commands.command(name="verify", description=_("cmd.verify.description"))
    @app_commands.describe(game_id=_("opt.game_id.description"))
    async def verify_dice(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        await self.parts.history.verify_dice(interaction, game_id)

    # --- deadlines and turn notifications (game_timers), take-backs, privacy --------------------------------
    @app_commands.command(name="settings", description=_("cmd.settings.description"))
    @app_commands.describe(turn_time=_("opt.settings_turn_time.description"),
                           on_timeout=_("opt.on_timeout.description"))
    @app_commands.choices(on_timeout=ON_TIMEOUT_CHOICES)
    async def settings(self, interaction: discord.Interaction, turn_time: str | None = None,
                       on_timeout: app_commands.Choice[str] | None = None) -> None:
        await self.parts.deadline_commands.settings(interaction, turn_time, on_timeout)

    @app_commands.command(name="away", description=_("cmd.away.description"))
    @app_commands.describe(days=_("opt.away_days.description"))
    async def away(self, interaction: discord.Interaction,
                   days: app_commands.Range[int, 0, deadline_math.MAX_AWAY_DAYS]) -> None:
        await self.parts.deadline_commands.away(interaction, days)

    @app_commands.command(name="notify", description=_("cmd.notify.description"))
    @app_commands.describe(state=_("opt.notify.description"))
    @app_commands.choices(state=NOTIFY_CHOICES)
    async def notify(self, interaction: discord.Interaction, state: app_commands.Choice[str]) -> None:
        await self.parts.deadline_commands.notify(interaction, state)

    @app_commands.command(name="undo", description=_("cmd.undo.description"))
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.parts.takebacks.undo(interaction)

    @app_commands.command(name="privacy", description=_("cmd.privacy.description"))
    async def privacy(self, interaction: discord.Interaction) -> None:
        await self.parts.privacy.privacy(interaction)

    @app_commands.command(name="forget", description=_("cmd.forget.description"))
    async def forget(self, interaction: discord.Interaction) -> None:
        await self.parts.privacy.forget(interaction)

    # --- the lobby (game_lobby) -------------------------------------------------------------------------------
    @app_commands.command(name="new", description=_("cmd.new.description"))
    @app_commands.describe(game=_("opt.game.description"),
                           teams=_("opt.teams.description"),
                           turn_time=_("opt.turn_time.description"),
                           seating=_("opt.seating.description"),
                           thread=_("opt.thread.description"),
                           language=_("opt.language.description"),
                           forced_moves=_("opt.forced_moves.description"))
    @app_commands.choices(game=GAME_CHOICES, seating=SEATING_CHOICES, language=LANGUAGE_CHOICES)
    async def new(self, interaction: discord.Interaction, game: app_commands.Choice[str], teams: bool = False,
                  turn_time: str | None = None, seating: app_commands.Choice[str] | None = None,
                  thread: bool = False, forced_moves: bool = True,
                  language: app_commands.Choice[str] | None = None) -> None:
        await self.parts.lobby.new(interaction, game, teams, turn_time, seating, thread, language, forced_moves)

    @app_commands.command(name="rematch", description=_("cmd.rematch.description"))
    async def rematch(self, interaction: discord.Interaction) -> None:
        await self.parts.lobby.rematch(interaction)

    @app_commands.command(name="join", description=_("cmd.join.description"))
    async def join(self, interaction: discord.Interaction) -> None:
        await self.parts.lobby.join(interaction)

    @app_commands.command(name="leave", description=_("cmd.leave.description"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.parts.lobby.leave(interaction)

    @app_commands.command(name="start", description=_("cmd.start.description"))
    async def start(self, interaction: discord.Interaction) -> None:
        await self.parts.lobby.start(interaction)

    @app_commands.command(name="add-bot", description=_("cmd.add-bot.description"))
    @app_commands.describe(level=_("opt.level.description"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def add_bot(self, interaction: discord.Interaction, level: app_commands.Choice[str]) -> None:
        await self.parts.lobby.add_bot(interaction, level)

    # --- the game in play (game_play) ------------------------------------------------------------------------
    @app_commands.command(name="roll", description=_("cmd.roll.description"))
    async def roll(self, interaction: discord.Interaction) -> None:
        await self.parts.play.roll(interaction)

    @app_commands.command(name="move", description=_("cmd.move.description"))
    @app_commands.describe(move=_("opt.move.description"))
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        await self.parts.play.move(interaction, move)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.parts.play.move_choices(interaction, current)

    @app_commands.command(name="call", description=_("cmd.call.description"))
    @app_commands.describe(piece=_("opt.piece.description"))
    async def call(self, interaction: discord.Interaction, piece: str) -> None:
        await self.parts.play.call(interaction, piece)

    @call.autocomplete("piece")
    async def call_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.parts.play.call_choices(interaction, current)

    @app_commands.command(name="board", description=_("cmd.board.description"))
    async def board(self, interaction: discord.Interaction) -> None:
        await self.parts.play.board(interaction)

    @app_commands.command(name="status", description=_("cmd.status.description"))
    async def status(self, interaction: discord.Interaction) -> None:
        await self.parts.play.status(interaction)

    @app_commands.command(name="resign", description=_("cmd.resign.description"))
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.parts.play.resign(interaction)

    @app_commands.command(name="end", description=_("cmd.end.description"))
    async def end(self, interaction: discord.Interaction) -> None:
        await self.parts.play.end(interaction)

    @app_commands.command(name="rules", description=_("cmd.rules.description"))
    @app_commands.describe(game=_("opt.rules_game.description"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None) -> None:
        await self.parts.play.rules(interaction, game)
