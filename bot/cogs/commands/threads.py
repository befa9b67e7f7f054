"""A game in a thread of its own (`/game new … thread:true`), so that one busy channel hosts many games:
the lobby opens in a new public thread of the channel, named after the game and the host, and the game
lives there (the thread is the game's channel for the services)."""
from __future__ import annotations

from typing import Final

import discord

from bot.domain import i18n
from bot.games.base import GameError, Message, msg

ARCHIVE_AFTER_MINUTES: Final = 10080   # the longest Discord allows: asynchronous games go quiet for days
MAX_THREAD_NAME = 100


def thread_refusal(interaction: discord.Interaction) -> Message | None:
    """Why the bot cannot open a game thread where this command was used, if it cannot."""
    if not isinstance(interaction.channel, discord.TextChannel):
        return msg("thread.error.not_a_text_channel")
    perms = interaction.app_permissions
    if not (perms.view_channel and perms.create_public_threads and perms.send_messages_in_threads
            and perms.attach_files):
        return msg("thread.error.missing_permissions")
    return None


async def open_thread(interaction: discord.Interaction, game: Message, locale: str) -> int:
    """Start the game's public thread in the command's channel; its id. GameError when Discord refuses."""
    assert isinstance(interaction.channel, discord.TextChannel)   # thread_refusal said so
    name = i18n.text("thread.name", locale, game=i18n.render(game, locale), host=interaction.user.display_name)
    try:
        thread = await interaction.channel.create_thread(
            name=name[:MAX_THREAD_NAME], type=discord.ChannelType.public_thread,
            auto_archive_duration=ARCHIVE_AFTER_MINUTES)
    except discord.Forbidden:
        raise GameError(msg("thread.error.missing_permissions")) from None
    return thread.id
