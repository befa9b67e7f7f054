"""A game's lobby on Discord: `/game new` (in the channel, or in a thread of its own), `/game join`, `/game leave`,
`/game add-bot`, `/game start` and `/game rematch`, and the lobby's buttons (the controls.LOBBY and
controls.REMATCH kinds)."""
from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs.commands.deadlines import turn_time as turn_seconds
from bot.cogs.commands.threads import open_thread, thread_refusal
from bot.cogs.handlers import Request, channel_of, user_locale
from bot.cogs.messages.delivery import reached_only_by_interactions
from bot.cogs.messages.responder import Responder
from bot.core.game_records import INTERACTIONS_ONLY
from bot.domain import i18n
from bot.domain.player_actions import FORCED_MOVES
from bot.domain.session_results import Outcome
from bot.games.base import msg
from bot.services import Seat, Sessions


def seat_of(interaction: discord.Interaction) -> Seat:
    """The user who asked, as a player."""
    user = interaction.user
    return Seat(user.id, user.display_name, locale=user_locale(interaction))


class LobbyCommands:
    def __init__(self, sessions: Sessions, responder: Responder, min_turn_time: int) -> None:
        self.sessions = sessions
        self.responder = responder
        self.min_turn_time = min_turn_time

    async def new(self, interaction: discord.Interaction, game: app_commands.Choice[str], teams: bool = False,
                  turn_time: str | None = None, seating: app_commands.Choice[str] | None = None,
                  thread: bool = False, language: app_commands.Choice[str] | None = None,
                  forced_moves: bool = True) -> None:
        """Shared messages, and the name of the game's thread, are in the game's language: `language` if given,
        else the server's default, else the server's Discord language. A player's only move plays itself unless
        `forced_moves` is off (FORCED_MOVES, stored only then). A game
        where only interactions reach the channel (a DM or group DM between users, a server without the
        bot) is marked so (INTERACTIONS_ONLY): nothing is posted there unprompted."""
        only_interactions = reached_only_by_interactions(interaction)
        if thread and (refusal := (msg("thread.error.not_a_text_channel") if only_interactions
                                   else thread_refusal(interaction))):
            await self.responder.tell(interaction, refusal)
            return

        async def create() -> Outcome:
            options = ({"teams": True} if teams else {}) | ({"seating": seating.value} if seating else {}) \
                | ({"turn_time": turn_seconds(turn_time, self.min_turn_time)} if turn_time else {}) \
                | ({"language": language.value} if language else {}) \
                | ({INTERACTIONS_ONLY: True} if only_interactions else {}) \
                | ({} if forced_moves else {FORCED_MOVES: False})
            channel_id, host = channel_of(interaction), seat_of(interaction)
            server = i18n.locale_of(interaction.guild_locale) if interaction.guild_locale else None
            if thread:   # checked before the thread opens, so that a refused game leaves no empty thread
                self.sessions.lobby.check_new(game.value, options)
                named_in = await self.sessions.lobby.language(interaction.guild_id, options, server, host)
                channel_id = await open_thread(interaction, msg(f"game.{game.value}"), named_in)
            return await self.sessions.lobby.create(channel_id=channel_id, guild_id=interaction.guild_id,
                                                    host=host, game=game.value, options=options, locale=server)
        await self.responder.run(interaction, create, done=(lambda outcome: msg(
            "thread.opened", thread=f"<#{outcome.record.channel_id}>")) if thread else None, shows_here=not thread)

    async def join(self, interaction: discord.Interaction) -> None:
        await self.responder.run(interaction, lambda: self.sessions.lobby.join(
            channel_of(interaction), seat_of(interaction)))

    async def leave(self, interaction: discord.Interaction) -> None:
        await self.responder.run(interaction, lambda: self.sessions.lobby.leave(
            channel_of(interaction), interaction.user.id))

    async def start(self, interaction: discord.Interaction) -> None:
        await self.responder.run(interaction, lambda: self.sessions.lobby.start(
            channel_of(interaction), interaction.user.id))

    async def add_bot(self, interaction: discord.Interaction, level: app_commands.Choice[str]) -> None:
        await self.responder.run(interaction, lambda: self.sessions.lobby.add_computer(
            channel_of(interaction), interaction.user.id, level.value))

    async def rematch(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """`/game rematch`, or the Rematch button of game `game`'s final board."""
        await self.responder.run(interaction, lambda: self.sessions.lobby.rematch(
            channel_of(interaction), seat_of(interaction), game))

    async def on_rematch(self, interaction: discord.Interaction, request: Request) -> None:
        """The Rematch button of game `request.game`'s final board."""
        await self.rematch(interaction, request.game)

    async def on_lobby(self, interaction: discord.Interaction, request: Request) -> None:
        channel, user, game = channel_of(interaction), interaction.user.id, request.game
        calls = {
            "join": lambda: self.sessions.lobby.join(channel, seat_of(interaction), game),
            "leave": lambda: self.sessions.lobby.leave(channel, user, game),
            "start": lambda: self.sessions.lobby.start(channel, user, game),
            "add-bot": lambda: self.sessions.lobby.add_computer(channel, user, "normal", game),
        }
        await self.responder.run(interaction, calls[request.value])   # controls.LOBBY reads only these verbs
