"""Turn deadlines and turn notifications on Discord (a mixin of GameCog).

`/game settings`, `/game notify` and `/game away`, the `turn_time` option of `/game new`,
the half-time reminder, the board after an expiry, the vote on a seat whose
turns keep expiring, and the direct message sent when it becomes
your turn. The deadlines themselves are data, kept by bot/services/deadlines.py and
fired by bot/services/scheduler.py.
The vote's buttons are the controls.VOTE kind. Where the bot may only answer interactions
(timers.waits_for_interactions), deadlines wait for the game's next interaction (`overdue_first`) or a claim
(controls.CLAIM), and the reminder is a direct message where Discord allows one.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot import i18n, timers
from bot.cogs.components import pinging
from bot.cogs.controls import view_of
from bot.cogs.delivery import Unprompted
from bot.cogs.game_base import GameCogBase, Request, channel_of
from bot.cogs.game_mine import board_link
from bot.cogs.recovery import DISCORD_FAULTS
from bot.cogs.translator import command_text as _
from bot.games.base import GameError, msg
from bot.present.votes import vote_post, vote_text
from bot.present.words import say, seat_name
from bot.services import BoardView, GameRecord, Outcome, People, ruleset_of
from bot.services.scheduler import SystemClock, TurnTimers

log = logging.getLogger(__name__)

ON_TIMEOUT_CHOICES = [app_commands.Choice(name=_(f"choice.on_timeout.{c}"), value=c) for c in timers.ON_TIMEOUT]
NOTIFY_CHOICES = [app_commands.Choice(name=_(f"choice.notify.{c}"), value=c) for c in ("on", "off")]
NO_DEADLINE = ("off", "none", "0")
CANNOT_SEND_TO_USER = 50007   # Discord's error code: no direct message to that user


class TimerCommands(GameCogBase):
    """GameCog's deadline and notification commands and hooks (discord.py collects
    app commands from every class of the cog)."""

    async def cog_load(self) -> None:
        self.timers = TurnTimers(self.sessions, clock=SystemClock(),
                                        on_reminder=self._post_reminder, on_expiry=self.show_expiry)
        self._timers_task = asyncio.create_task(self.timers.run(), name="turn timers")

    async def cog_unload(self) -> None:
        self._timers_task.cancel()

    # --- commands --------------------------------------------------------------
    def turn_time(self, text: str) -> int:
        """Seconds for a turn_time option; GameError (shown to the user alone) when unreadable."""
        return timers.check_turn_time(timers.parse_duration(text), self.config.min_turn_time)

    def deadline_changes(self, turn_time: str | None, on_timeout: app_commands.Choice[str] | None) -> dict[str, Any]:
        """The turn_time (seconds, None for "off") and on_timeout options given, as settings to change."""
        changes: dict[str, Any] = {}
        if turn_time is not None:
            changes["turn_time"] = None if turn_time.strip().lower() in NO_DEADLINE else self.turn_time(turn_time)
        if on_timeout is not None:
            changes["on_timeout"] = on_timeout.value
        return changes

    @app_commands.command(name="settings", description=_("cmd.settings.description"))
    @app_commands.describe(turn_time=_("opt.settings_turn_time.description"),
                           on_timeout=_("opt.on_timeout.description"))
    @app_commands.choices(on_timeout=ON_TIMEOUT_CHOICES)
    async def settings(self, interaction: discord.Interaction, turn_time: str | None = None,
                       on_timeout: app_commands.Choice[str] | None = None) -> None:
        async def configure() -> Outcome:
            changes = self.deadline_changes(turn_time, on_timeout)
            if not changes:
                raise GameError(msg("timers.error.nothing_to_change"))
            return await self.sessions.configure(channel_of(interaction), interaction.user.id, changes)
        await self._run(interaction, configure)

    @app_commands.command(name="away", description=_("cmd.away.description"))
    @app_commands.describe(days=_("opt.away_days.description"))
    async def away(self, interaction: discord.Interaction,
                   days: app_commands.Range[int, 0, timers.MAX_AWAY_DAYS]) -> None:
        loc, user, now = i18n.locale_of(interaction.locale), interaction.user.id, self.timers.clock.now()
        try:
            if days == 0:
                back = await self.sessions.come_back(user, now)
                text = i18n.text("away.back" if back else "away.not_away", loc)
            else:
                until, left = await self.sessions.go_away(user, days, now)
                text = i18n.text("away.on", loc, until=f"<t:{int(until)}:F>", count=left)
        except GameError as refusal:
            await self._tell(interaction, refusal.message)
            return
        self.timers.wake()   # the deadlines of this player's turns move
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="notify", description=_("cmd.notify.description"))
    @app_commands.describe(state=_("opt.notify.description"))
    @app_commands.choices(state=NOTIFY_CHOICES)
    async def notify(self, interaction: discord.Interaction, state: app_commands.Choice[str]) -> None:
        await self.sessions.set_turn_notifications(interaction.user.id, state.value == "on")
        await interaction.response.send_message(
            i18n.text(f"timers.notify.{state.value}", i18n.locale_of(interaction.locale)), ephemeral=True)

    # --- hooks called by GameCog.publish ---------------------------------------------
    def clock_lines(self, record: GameRecord, view: BoardView) -> list[str]:
        """Who is away until when, and "time runs out in ..." for a timed game waiting for a person
        (Discord timestamps: in each reader's time zone, live)."""
        lines = [i18n.text("away.board", record.locale, player=seat_name(record, seat, record.locale),
                           until=f"<t:{int(until)}:D>")
                 for seat, until in view.people.away.items()]
        if view.deadline is not None:
            key = "claims.deadline" if timers.waits_for_interactions(record) else "timers.deadline"
            lines.append(i18n.text(key, record.locale, when=f"<t:{int(view.deadline)}:R>"))
        return lines

    def overdue_first(self, interaction: discord.Interaction,
                      call: Callable[[], Awaitable[Outcome]]) -> Callable[[], Awaitable[Outcome]]:
        """`call`, after the turn whose deadline passed in this interaction's game, if any, was played or passed
        and shown: where the bot only answers interactions, the timers leave that to the next one."""
        async def after_overdue() -> Outcome:
            overdue = await self.sessions.apply_overdue(channel_of(interaction), self.timers.clock.now())
            if overdue is None:
                return await call()
            await self.show_expiry(overdue, interaction)
            try:
                return await call()
            except GameError as refusal:
                if refusal.message.key != "error.stale":
                    raise
                # A click on the board the deadline just settled: say why.
                raise GameError(msg("claims.error.ran_out")) from refusal
        return after_overdue

    async def notify_turn(self, record: GameRecord, user_id: int | None, people: People) -> None:
        """A direct message with a link to the board, for a player who asked for it.
        Closed DMs (Forbidden) and other failures are logged and forgotten."""
        if user_id not in people.turn_dms:
            return
        board = await self.sessions.board_message(record.id)
        link = board_link(record.guild_id, record.channel_id, board)
        locale = next((s.locale for s in record.seats if s.level is None and s.user_id == user_id), record.locale)
        text = "\n".join(filter(None, [i18n.text("timers.dm.your_turn", locale, link=link,
                                                  game=say(record, msg(ruleset_of(record).name), locale)),
                                        await self.turn_list(record.guild_id, user_id, locale)]))
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            await channel.send(text)
        except discord.HTTPException as error:
            log.info("no turn notification for user %s: %s", user_id, error)

    # --- timer events ----------------------------------------------------------------
    async def _post_reminder(self, record: GameRecord, seat: int, deadline: float) -> None:
        """The half-time reminder (marked sent already: one process posts it); what Discord would not post is
        tried again later while the game still waits for that turn (the board's deadline line tells it too)."""
        try:
            await self._send_reminder(record, seat, deadline)
        except DISCORD_FAULTS as error:
            self.retry_later(f"game {record.id}: its reminder", lambda: self._remind_again(record, seat, deadline),
                             error)

    async def _remind_again(self, record: GameRecord, seat: int, deadline: float) -> None:
        clocks = await self.sessions.turn_clocks(record.id)
        if not clocks or clocks[0].record.version != record.version or deadline <= self.timers.clock.now():
            log.info("game %s: its reminder is no longer due (the game moved on)", record.id)
            return
        await self._send_reminder(record, seat, deadline)

    async def _send_reminder(self, record: GameRecord, seat: int, deadline: float) -> None:
        user = record.seats[seat].user_id
        if timers.waits_for_interactions(record):   # the bot cannot post in the game's channel
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
        link = board_link(record.guild_id, record.channel_id, await self.sessions.board_message(record.id))
        text = i18n.text(key, locale, game=say(record, msg(ruleset_of(record).name), locale),
                         when=f"<t:{int(deadline)}:R>", link=link)
        try:
            channel = await self.bot.create_dm(discord.Object(user))
            await channel.send(text)
        except discord.HTTPException as error:
            if error.status not in (403, 404) and error.code != CANNOT_SEND_TO_USER:
                raise   # a fault: tried again (_post_reminder)
            log.info("no reminder for user %s: %s", user, error)

    async def show_expiry(self, outcome: Outcome, interaction: discord.Interaction | None = None) -> None:
        """The board after an expiry (fired by the timers, applied at `interaction`, or claimed by it), then the
        vote it opened, if any: a public follow-up of the interaction (the bot may only answer interactions where
        nothing fires on its own), which the board, shown first, leaves free for a message of its own."""
        await self.publish_or_recover(outcome, interaction, Unprompted.DEADLINE)
        if outcome.vote is None:
            return
        record, seat = outcome.record, outcome.vote.seat
        post = vote_post(record, seat)
        view, quiet = view_of(record.id, seat, post.controls), discord.AllowedMentions.none()
        if interaction is not None:   # its response already shows the board: a follow-up is a message of its own
            await interaction.followup.send(post.content, view=view, allowed_mentions=quiet)
        else:
            await self.bot.get_partial_messageable(record.channel_id).send(post.content, view=view,
                                                                           allowed_mentions=quiet)

    async def on_claim(self, interaction: discord.Interaction, request: Request) -> None:
        """Claim the turn: a player waiting on the late one applies its passed deadline at once."""
        await interaction.response.defer()
        try:
            outcome = await self.sessions.claim(channel_of(interaction), interaction.user.id, request.game,
                                                request.version, self.timers.clock.now())
        except GameError as refusal:
            await self._tell(interaction, refusal.message)
            return
        await self.show_expiry(outcome, interaction)

    async def on_vote(self, interaction: discord.Interaction, request: Request) -> None:
        """A vote on an absent seat: the vote message shows the tally, then the decision."""
        seat = request.seat
        await interaction.response.defer()
        try:
            outcome = await self.overdue_first(interaction, lambda: self.sessions.vote(
                channel_of(interaction), interaction.user.id, request.game, seat, request.value))()
        except GameError as refusal:
            await self._tell(interaction, refusal.message)
            return
        if outcome.vote is not None and outcome.vote.decided is None:
            await interaction.edit_original_response(content=vote_text(outcome))
            return
        await interaction.edit_original_response(content=vote_text(outcome), view=None)
        await self.publish_or_recover(outcome, interaction)
