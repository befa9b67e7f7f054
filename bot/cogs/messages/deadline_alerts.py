"""What the turn timers fire, shown on Discord: the half-time reminder, the board after an expiry and the vote
it opens on a seat whose turns keep expiring. The deadlines themselves are data, kept by
bot/services/deadlines.py and fired by bot/services/scheduler.py. Where the bot may only answer interactions
(deadline_math.waits_for_interactions), a passed deadline waits for the game's next interaction (`overdue_first`) or a
claim (controls.CLAIM), and the reminder is a direct message where Discord allows one.
"""
from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord
from discord.ext import commands

from bot.cogs.events.controls import view_of
from bot.cogs.handlers import channel_of, control_of
from bot.cogs.messages.components import pinging
from bot.cogs.messages.faults import DISCORD_FAULTS
from bot.cogs.messages.links import board_link
from bot.cogs.messages.recovery import Recovery
from bot.domain import deadline_math, i18n
from bot.domain.positions import ruleset_of
from bot.domain.session_results import Outcome
from bot.games.base import GameError, msg
from bot.present.votes import vote_post
from bot.present.words import say
from bot.services import GameRecord, Sessions
from bot.services.scheduler import DeadlineScheduler

log = logging.getLogger(__name__)

CANNOT_SEND_TO_USER = 50007   # Discord's error code: no direct message to that user


class DeadlineAlerts:
    def __init__(self, bot: commands.AutoShardedBot, sessions: Sessions, turn_timers: DeadlineScheduler,
                 recovery: Recovery) -> None:
        self.bot = bot
        self.sessions = sessions
        self.timers = turn_timers
        self.recovery = recovery

    def overdue_first(self, interaction: discord.Interaction, call: Callable[[], Awaitable[Outcome]],
                      acknowledge: Callable[[], Awaitable[None]] | None = None) -> Callable[[], Awaitable[Outcome]]:
        """`call`, after the turn whose deadline passed in this interaction's game, if any, was played or passed
        and shown (the interaction `acknowledge`d first, if not yet): where the bot only answers interactions,
        the timers leave that to the next one. A board's control names its game and version: where this process
        wrote that version, the game is not read again."""
        async def after_overdue() -> Outcome:
            board = control_of(interaction)
            at = (board.game, board.version) if board is not None and board.on_board else ()
            overdue = await self.sessions.claims.apply_overdue(channel_of(interaction), self.timers.clock.now(), *at)
            if overdue is None:
                return await call()
            if acknowledge is not None:
                await acknowledge()
            await self.show_expiry(overdue, interaction)
            try:
                return await call()
            except GameError as refusal:   # a click on the board the deadline just settled: say why
                if refusal.message.key == "error.stale":
                    raise GameError(msg("claims.error.ran_out")) from None
                raise
        return after_overdue

    async def show_expiry(self, outcome: Outcome, interaction: discord.Interaction | None = None) -> None:
        """The board after an expiry (fired by the timers, applied at `interaction`, or claimed by it), then the
        vote it opened, if any: a public follow-up of the interaction (the bot may only answer interactions where
        nothing fires on its own), which the board, shown first, leaves free for a message of its own."""
        await self.recovery.publish_or_recover(outcome, interaction)
        if outcome.vote is None:
            return
        record, seat = outcome.record, outcome.vote.seat
        post = vote_post(record, seat)
        controls, quiet = view_of(record.id, seat, post.controls), discord.AllowedMentions.none()
        if interaction is not None:   # its response already shows the board: a follow-up is a message of its own
            await interaction.followup.send(post.content, view=controls, allowed_mentions=quiet)
        else:
            await self.bot.get_partial_messageable(record.channel_id).send(post.content, view=controls,
                                                                           allowed_mentions=quiet)

    async def post_reminder(self, record: GameRecord, seat: int, deadline: float) -> None:
        """The half-time reminder (marked sent already: one process posts it); what Discord would not post is
        tried again later while the game still waits for that turn (the board's deadline line tells it too)."""
        try:
            await self._send_reminder(record, seat, deadline)
        except DISCORD_FAULTS as error:
            self.recovery.retry_later(f"game {record.id}: its reminder",
                                      lambda: self._remind_again(record, seat, deadline), error)

    async def _remind_again(self, record: GameRecord, seat: int, deadline: float) -> None:
        clocks = await self.sessions.deadlines.turn_clocks(record.id)
        if not clocks or clocks[0].record.version != record.version or deadline <= self.timers.clock.now():
            log.info("game %s: its reminder is no longer due (the game moved on)", record.id)
            return
        await self._send_reminder(record, seat, deadline)

    async def _send_reminder(self, record: GameRecord, seat: int, deadline: float) -> None:
        user = record.seats[seat].user_id
        if deadline_math.waits_for_interactions(record):   # the bot cannot post in the game's channel
            await self._remind_directly(record, seat, deadline)
            return
        key = "timers.reminder_skip" if record.options.get("on_timeout") == "skip" else "timers.reminder"
        text = i18n.text(key, record.locale, player=f"<@{user}>", when=f"<t:{int(deadline)}:R>")
        # The nonce makes a retry after a post Discord carried out but whose answer was lost return that
        # message instead of a second one.
        await self.bot.get_partial_messageable(record.channel_id).send(
            text, allowed_mentions=pinging(user), nonce=f"r{record.id}.{record.version}")

    async def _remind_directly(self, record: GameRecord, seat: int, deadline: float) -> None:
        """The reminder as a direct message, where Discord lets the bot open one (the player shares a server with
        it, or installed the app, and allows it); otherwise Discord refuses (403, or 400 with code 50007) and
        there is none."""
        user, locale = record.seats[seat].user_id, record.seats[seat].locale
        key = "claims.reminder_skip" if record.options.get("on_timeout") == "skip" else "claims.reminder"
        link = board_link(record.guild_id, record.channel_id, await self.sessions.boards.message(record.id))
        text = i18n.text(key, locale, game=say(record, msg(ruleset_of(record).name), locale),
                         when=f"<t:{int(deadline)}:R>", link=link)
        try:
            channel = await self.bot.create_dm(discord.Object(user))
            await channel.send(text)
        except discord.HTTPException as error:
            if error.status not in (403, 404) and error.code != CANNOT_SEND_TO_USER:
                raise   # a fault: tried again (post_reminder)
            log.info("no reminder for user %s: %s", user, error)
