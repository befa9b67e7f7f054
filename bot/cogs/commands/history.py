"""/game history and /game verify.

Anyone in the channel may read the history or verify a game: these commands only read. Their answer, edited
in, is edited again once Discord answers where it failed (Responder.answer). Its page buttons are the
controls.HISTORY_PAGE kind. (The fair-dice announcements and the animation: bot/cogs/messages/announcer.py.)
"""
from __future__ import annotations

import discord

from bot.cogs.events.controls import HISTORY_PAGE
from bot.cogs.handlers import Request, channel_of
from bot.cogs.messages.components import button, stopped
from bot.cogs.messages.links import can_view
from bot.cogs.messages.responder import Responder
from bot.domain import i18n
from bot.games.base import GameError
from bot.present.history import history_text
from bot.services import GameRecord, Sessions
from bot.services.records import NO_GAME


def _can_view(interaction: discord.Interaction, channel_id: int) -> bool:
    """Can the member who asked see that channel (or thread)?"""
    return can_view(interaction.guild, interaction.user, channel_id)


class HistoryCommands:
    def __init__(self, sessions: Sessions, responder: Responder) -> None:
        self.sessions = sessions
        self.responder = responder

    # --- commands --------------------------------------------------------------
    async def history(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            record = await self._game_for(interaction, game_id)
            content, view = await self._history_page(record, None, i18n.locale_of(interaction.locale))
        except GameError as refusal:
            content, view = i18n.render(refusal.message, i18n.locale_of(interaction.locale)), None
        await self.responder.answer(interaction, lambda: interaction.edit_original_response(
            content=content, view=view, allowed_mentions=discord.AllowedMentions.none()))

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
        await self.responder.answer(interaction,
                                    lambda: interaction.edit_original_response(content=i18n.render(message, loc)))

    # --- after every publish -------------------------------------------------------
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
