"""/game history and /game verify, the fair-dice announcements and the animation.

Anyone in the channel may read the history or verify a game: these commands
only read. `announce` runs after every publish (bot/cogs/publisher.py): the seed's commitment goes
out when a game starts, the seed itself when the game is over, and then the
animation (a GIF) is added to the final board, built in a thread. It is optional: a stop (SIGTERM) leaves it
undrawn rather than wait for it (`stop_animations`); the final board, already stored and shown, stays as it is.

Its page buttons are the controls.HISTORY_PAGE kind.
"""
from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import replace

import discord

from bot import i18n
from bot.cogs.components import button, png_file, stopped
from bot.cogs.controls import HISTORY_PAGE
from bot.cogs.delivery import Unprompted, Via
from bot.cogs.game_mine import can_view
from bot.cogs.handlers import Request, channel_of
from bot.games.base import GameError
from bot.present.alt_text import animation_alt, board_alt
from bot.present.history import fair_dice_text, history_text
from bot.present.picture import animation_gif, draw
from bot.services import GameRecord, Sessions
from bot.services.records import NO_GAME
from bot.session_results import Outcome
from bot.verify import OVER
from renderer.animation import Stopped

log = logging.getLogger(__name__)


def _can_view(interaction: discord.Interaction, channel_id: int) -> bool:
    """Can the member who asked see that channel (or thread)?"""
    return can_view(interaction.guild, interaction.user, channel_id)


class HistoryCommands:
    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        self._animations: set[asyncio.Task[None]] = set()   # running builds (a task needs a strong reference)
        self._stopping = threading.Event()   # read by the drawing thread between frames

    # --- commands --------------------------------------------------------------
    async def history(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            record = await self._game_for(interaction, game_id)
            content, view = await self._history_page(record, None, i18n.locale_of(interaction.locale))
        except GameError as refusal:
            content, view = i18n.render(refusal.message, i18n.locale_of(interaction.locale)), None
        await interaction.edit_original_response(content=content, view=view,
                                                 allowed_mentions=discord.AllowedMentions.none())

    async def on_history_page(self, interaction: discord.Interaction, request: Request) -> None:
        loc = i18n.locale_of(interaction.locale)
        try:
            record = await self._game_for(interaction, request.game)
            content, view = await self._history_page(record, request.page, loc)
        except GameError as refusal:
            await interaction.response.send_message(i18n.render(refusal.message, loc), ephemeral=True)
            return
        await interaction.response.edit_message(content=content, view=view,
                                                allowed_mentions=discord.AllowedMentions.none())

    async def verify_dice(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        loc = i18n.locale_of(interaction.locale)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            record = await self._game_for(interaction, game_id)
            message = await self.sessions.records.verification(record)
        except GameError as refusal:
            message = refusal.message
        await interaction.edit_original_response(content=i18n.render(message, loc))

    # --- after every publish -------------------------------------------------------
    async def announce(self, outcome: Outcome, via: Via) -> None:
        """The commitment when the game starts; the seed and the animation once it is over (through `via`, as
        the board)."""
        record = outcome.record
        if record.state is None:
            return
        quiet = discord.AllowedMentions.none()
        if any(event.key == "game.started" for event in outcome.events):
            await via.send(fair_dice_text(record, over=False), files=[], mentions=quiet)
        elif record.status in OVER:
            await via.send(fair_dice_text(record, over=True), files=[], mentions=quiet)
            task = asyncio.create_task(self._add_animation(record, replace(via, why=Unprompted.ANIMATION)))
            self._animations.add(task)
            task.add_done_callback(self._animations.discard)

    def stop_animations(self) -> set[asyncio.Task[None]]:
        """The bot stops: the animations being drawn end at their next frame (left undrawn), and no other
        starts. Seconds of CPU each, they would otherwise hold the exit (the loop waits for its threads).
        The tasks still ending."""
        self._stopping.set()
        return set(self._animations)

    async def _add_animation(self, record: GameRecord, via: Via) -> None:
        """Attach the animation to the final board (next to its picture), through the token of the
        interaction that showed it while it lasts."""
        if self._stopping.is_set():   # a game that ended while the bot stops (its last interactions answered)
            return
        try:
            actions = await self.sessions.records.actions(record.id)
            board_id = await self.sessions.boards.message(record.id)
            if not actions or board_id is None:
                return
            log.info("drawing the animation of game %s (%d actions)", record.id, len(actions))
            gif = await asyncio.to_thread(animation_gif, record, actions, self._stopping.is_set)
            board = await draw(record)
            await via.edit(board_id, attachments=[png_file(board, board_alt(record)),
                                                  png_file(gif, animation_alt(record, len(actions)), "replay.gif")])
        except Stopped:
            log.info("the animation of game %s is left undrawn: the bot is stopping", record.id)
        except Exception:
            log.exception("could not add the animation of game %s", record.id)

    # --- helpers -------------------------------------------------------------------
    async def _game_for(self, interaction: discord.Interaction, game_id: int | None) -> GameRecord:
        """Game `game_id` of this server, or this channel's latest game; a game in a channel the member
        cannot view, or in a DM or group DM they do not play in, is answered as an unknown one (ids are counted:
        they must not reveal private games)."""
        record = await self.sessions.records.game_for(interaction.guild_id, channel_of(interaction), game_id,
                                                      interaction.user.id)
        if record.guild_id is not None and record.channel_id != interaction.channel_id and \
                not _can_view(interaction, record.channel_id):
            raise GameError(NO_GAME)   # a DM or group DM's game: the records checked it is the asker's
        return record

    async def _history_page(self, record: GameRecord, page: int | None,
                            loc: str) -> tuple[str, discord.ui.View | None]:
        """The text of one page (default: the last) and its page buttons."""
        shown = await self.sessions.records.history_page(record, page)
        page, pages = shown.number, shown.count
        if pages == 1:
            return history_text(record, shown, loc), None
        view = discord.ui.View(timeout=None)
        for slot, target, label in (("f", 0, "⏮"), ("p", page - 1, "◀"), ("n", page + 1, "▶"), ("l", pages - 1, "⏭")):
            view.add_item(button(HISTORY_PAGE.encode(record.id, max(0, min(target, pages - 1)), slot), label,
                                 disabled=target == page or not 0 <= target < pages))
        return history_text(record, shown, loc), stopped(view)
