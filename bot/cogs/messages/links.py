"""Where a game's board lives, and who may see a channel: what the turn's direct message, the reminders, the
refusals that point at the board and /game mine and /game history all link or filter by."""
from __future__ import annotations

from typing import Any

import discord

from bot.domain.session_results import WaitingGame


def can_view(guild: discord.Guild | None, member: Any, channel_id: int) -> bool:
    """Can `member` see that channel (or thread)? From the cached overwrites and roles; a channel the bot
    no longer knows shows nothing."""
    channel = guild.get_channel_or_thread(channel_id) if guild else None
    return channel is not None and isinstance(member, discord.Member) and channel.permissions_for(member).view_channel


def board_link(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    """The address of a board message (of its channel when none is known); a DM or group DM's is under @me."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}" + (f"/{message_id}" if message_id else "")


def waiting_link(game: WaitingGame) -> str:
    """The link of a game in a member's list (/game mine, the turn's direct message)."""
    return board_link(game.record.guild_id, game.record.channel_id, game.record.board_message_id)
