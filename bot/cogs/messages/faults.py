"""What counts as Discord or the database failing, as the Discord layer sees it: worth trying again later
(bot/cogs/messages/recovery.py), or a sign that the channel is gone."""
from __future__ import annotations

import asyncio

import aiohttp
import discord

from bot.services import StoreUnavailable

# Discord out of reach or failing: worth trying again later (a 403 or 404 is not: Recovery gives up on them).
DISCORD_FAULTS = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)
FAULTS = DISCORD_FAULTS + (StoreUnavailable,)
UNKNOWN_CHANNEL = 10003   # Discord's error code: the channel was deleted


def channel_gone(error: BaseException) -> bool:
    """Whether Discord answered that the channel no longer exists."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL


def said(error: BaseException) -> str:
    """An error in one short line (no traceback: an expected fault)."""
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}"[:200]
