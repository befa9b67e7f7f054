"""Where a game's message (board, lobby, take-back request, fair-dice line) goes: through the interaction
being answered whenever one carries it, the channel endpoints only for what none carries.

Discord exempts the interaction endpoints (the callback, the original response, the follow-ups and their
edits through the interaction's token) from the bot's global limit of 50 requests a second; the channel
endpoints count against it, and where only a user installed the app they answer 403 (50001). So:
- a click is acknowledged as an update of the clicked message (its original response), which is then edited
  in place or retired (its controls gone) through that original response;
- a command is acknowledged publicly ("thinking…"), and its response becomes the new message;
- a new message beyond that is a follow-up (at most MAX_FOLLOWUPS per interaction);
- a message an interaction sent can be edited or deleted through that interaction's token while it lasts
  (Tokens: 15 minutes, kept in memory).
What no interaction carries goes through the channel endpoints (a deadline firing, a board resumed after a
restart or caught up after a fault, one older than the interaction's, whose token lapsed). In a
game only interactions reach (`INTERACTIONS_ONLY` in its options) nothing goes through them: a message that
cannot be sent waits for the next interaction, and one that cannot be edited is left as it is.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import discord

log = logging.getLogger(__name__)

MAX_FOLLOWUPS = 5          # Discord's limit of follow-ups per interaction (40094 beyond)
LIFETIME_S = 15 * 60.0     # an interaction's token lasts 15 minutes (the last one is not relied on)
KNOWN_TOKENS = 4000        # messages whose interaction token this process remembers
INVALID_TOKEN = 50027      # Discord's code: the interaction's token expired

# interaction.extras: what the interaction's original response is, and how many follow-ups it sent.
ORIGINAL, FOLLOWUPS = "tablero.original", "tablero.followups"
CLICKED = "clicked"        # a click acknowledged as an update: the original response is the clicked message
UNUSED = "unused"          # a command acknowledged publicly: its response is waiting to become a message
USED = "used"              # a command's response became a message (or was deleted)


def reached_only_by_interactions(interaction: discord.Interaction) -> bool:
    """Whether the bot reaches the interaction's channel only by answering interactions: a DM or group DM
    between users, or a server that did not add the bot (the app installed by a user only). The bot's
    own DM, or a server that installed it, it can post in."""
    if interaction.context.private_channel:
        return True
    if interaction.context.dm_channel:
        return False
    return not interaction.is_guild_integration()


def acknowledged(interaction: discord.Interaction, how: str) -> None:
    """Record how the interaction was acknowledged (CLICKED or UNUSED)."""
    interaction.extras[ORIGINAL] = how


def answers_with_new_message(interaction: discord.Interaction | None) -> bool:
    """Whether the interaction is a command whose public response is still to become a message."""
    return interaction is not None and interaction.extras.get(ORIGINAL) == UNUSED


def response_unused(interaction: discord.Interaction) -> bool:
    return interaction.extras.get(ORIGINAL) == UNUSED


def mark_used(interaction: discord.Interaction) -> None:
    if interaction.extras.get(ORIGINAL) == UNUSED:
        interaction.extras[ORIGINAL] = USED


def clicked(interaction: discord.Interaction | None) -> int | None:
    """The id of the message whose control was clicked, if the interaction answers by updating it."""
    if interaction is None or interaction.extras.get(ORIGINAL) != CLICKED or interaction.message is None:
        return None
    return interaction.message.id


def fresh(interaction: discord.Interaction, lifetime: float = LIFETIME_S) -> bool:
    """Whether the interaction's token can still be used, `lifetime` seconds after the interaction (with a
    margin of a fifteenth)."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return age < lifetime * (1 - 1 / 15)


def expired_token(error: discord.HTTPException) -> bool:
    return error.status == 401 or error.code == INVALID_TOKEN


@dataclass
class Tokens:
    """The interaction that sent each message, while its token lasts: edits and deletions through it are
    exempt from the global limit (and the only way to reach a message where the bot is absent)."""

    lifetime: float = LIFETIME_S
    _by_message: dict[int, discord.Interaction] = field(default_factory=dict)

    def add(self, message_id: int, interaction: discord.Interaction) -> None:
        self._by_message[message_id] = interaction
        if len(self._by_message) > KNOWN_TOKENS:   # the oldest first (dicts keep their order)
            for stale in list(self._by_message)[:len(self._by_message) - KNOWN_TOKENS]:
                del self._by_message[stale]

    def get(self, message_id: int) -> discord.Interaction | None:
        interaction = self._by_message.get(message_id)
        if interaction is not None and not fresh(interaction, self.lifetime):
            del self._by_message[message_id]
            return None
        return interaction

    def forget(self, message_id: int) -> None:
        self._by_message.pop(message_id, None)


@dataclass
class Via:
    """How one showing reaches a channel: `interaction` (None: none carries it, the channel endpoints do), the
    tokens of earlier interactions, and whether the channel endpoints may be used at all."""

    channel: discord.PartialMessageable
    interaction: discord.Interaction | None
    tokens: Tokens
    interactions_only: bool = False

    @property
    def _carrier(self) -> discord.Interaction | None:
        """The interaction, if it answers in this channel (its token is tried however long the answer took:
        nothing else may carry it where only interactions reach)."""
        ia = self.interaction
        return ia if ia is not None and ia.channel_id == self.channel.id else None

    async def send(self, content: str, *, files: list[discord.File], view: discord.ui.View | None = None,
                   mentions: discord.AllowedMentions) -> int | None:
        """Send a new message; its id, or None where nothing may carry it (a game only interactions reach,
        with no interaction, or one with its follow-ups spent)."""
        ia = self._carrier
        if ia is not None and response_unused(ia):
            message: discord.Message = await ia.edit_original_response(
                content=content, attachments=files, view=view, allowed_mentions=mentions)
            mark_used(ia)   # only once it is the message: a failure leaves "thinking…" to be told privately
            self.tokens.add(message.id, ia)
            return message.id
        if ia is not None and ia.extras.get(FOLLOWUPS, 0) < MAX_FOLLOWUPS:
            ia.extras[FOLLOWUPS] = ia.extras.get(FOLLOWUPS, 0) + 1
            sent = await ia.followup.send(content, files=files, view=view or discord.utils.MISSING,
                                          allowed_mentions=mentions, wait=True)
            self.tokens.add(sent.id, ia)
            return sent.id
        if self.interactions_only:
            log.info("channel %s: a message waits for the next interaction (only interactions reach it)",
                     self.channel.id)
            return None
        # What no interaction carries: the channel endpoint (counted against the global limit).
        posted = await self.channel.send(content, files=files, view=view or discord.utils.MISSING,
                                         allowed_mentions=mentions)
        return posted.id

    async def edit(self, message_id: int, **fields: Any) -> bool:
        """Edit a message; False if it is gone (a moderator deleted it) or out of reach (a game only
        interactions reach, the message sent by an interaction whose token lapsed)."""
        try:
            if message_id == clicked(self.interaction):
                assert self.interaction is not None
                await self.interaction.edit_original_response(**fields)
                return True
            if (sender := self.tokens.get(message_id)) is not None:
                try:
                    if clicked(sender) == message_id:   # the message an earlier click was answered by updating
                        await sender.edit_original_response(**fields)
                    else:
                        await sender.followup.edit_message(message_id, **fields)
                    return True
                except discord.HTTPException as error:
                    if not expired_token(error):
                        raise
                    self.tokens.forget(message_id)
            if self.interactions_only:
                return False
            # No interaction carries this edit (none, or a board older than the interaction's, its token lapsed).
            await self.channel.get_partial_message(message_id).edit(**fields)
            return True
        except discord.NotFound:
            return False

    async def delete(self, message_id: int) -> None:
        """Delete a message (gone already or out of reach: nothing to do)."""
        try:
            if message_id == clicked(self.interaction):
                assert self.interaction is not None
                await self.interaction.delete_original_response()
                return
            if (sender := self.tokens.get(message_id)) is not None:
                try:
                    await sender.followup.delete_message(message_id)
                    return
                except discord.HTTPException as error:
                    if not expired_token(error):
                        raise
                    self.tokens.forget(message_id)
            if not self.interactions_only:   # no interaction carries it
                await self.channel.get_partial_message(message_id).delete()
        except discord.NotFound:
            pass
