"""Turn deadlines and turn notifications asked for on Discord: `/game settings`, `/game notify` and
`/game away`, the `turn_time` option of `/game new` and `/game defaults`, the vote on a seat whose turns keep
expiring (the controls.VOTE kind) and the claim of a turn whose time ran out (controls.CLAIM). What the timers
fire is bot/cogs/messages/deadline_alerts.py.
"""
from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.cogs.commands.translator import command_text as _
from bot.cogs.handlers import Request, channel_of
from bot.cogs.messages.deadline_alerts import DeadlineAlerts
from bot.cogs.messages.recovery import Recovery
from bot.cogs.messages.responder import Responder
from bot.domain import deadline_math, i18n
from bot.domain.session_results import Outcome
from bot.games.base import GameError, msg
from bot.present.votes import vote_text
from bot.services import Sessions
from bot.services.scheduler import DeadlineScheduler

ON_TIMEOUT_CHOICES = [app_commands.Choice(name=_(f"choice.on_timeout.{c}"), value=c) for c in deadline_math.ON_TIMEOUT]
NOTIFY_CHOICES = [app_commands.Choice(name=_(f"choice.notify.{c}"), value=c) for c in ("on", "off")]
NO_DEADLINE = ("off", "none", "0")


def turn_time(text: str, shortest: int) -> int:
    """Seconds for a turn_time option (at least `shortest`); GameError (shown to the user alone) when unreadable."""
    return deadline_math.check_turn_time(deadline_math.parse_duration(text), shortest)


def deadline_changes(turn_time_text: str | None, on_timeout: app_commands.Choice[str] | None,
                     shortest: int) -> dict[str, Any]:
    """The turn_time (seconds, None for "off") and on_timeout options given, as settings to change."""
    changes: dict[str, Any] = {}
    if turn_time_text is not None:
        changes["turn_time"] = (None if turn_time_text.strip().lower() in NO_DEADLINE
                                else turn_time(turn_time_text, shortest))
    if on_timeout is not None:
        changes["on_timeout"] = on_timeout.value
    return changes


class DeadlineCommands:
    def __init__(self, sessions: Sessions, responder: Responder, turn_timers: DeadlineScheduler,
                 deadline_alerts: DeadlineAlerts, recovery: Recovery, min_turn_time: int) -> None:
        self.sessions = sessions
        self.responder = responder
        self.timers = turn_timers
        self.deadline_alerts = deadline_alerts
        self.recovery = recovery
        self.min_turn_time = min_turn_time

    async def settings(self, interaction: discord.Interaction, turn_time: str | None = None,
                       on_timeout: app_commands.Choice[str] | None = None) -> None:
        async def configure() -> Outcome:
            changes = deadline_changes(turn_time, on_timeout, self.min_turn_time)
            if not changes:
                raise GameError(msg("timers.error.nothing_to_change"))
            return await self.sessions.deadlines.configure(channel_of(interaction), interaction.user.id, changes)
        await self.responder.run(interaction, configure)

    async def away(self, interaction: discord.Interaction, days: int) -> None:
        loc, user, now = i18n.locale_of(interaction.locale), interaction.user.id, self.timers.clock.now()
        try:
            if days == 0:
                back = await self.sessions.away.come_back(user, now)
                text = i18n.text("away.back" if back else "away.not_away", loc)
            else:
                until, left = await self.sessions.away.go_away(user, days, now)
                text = i18n.text("away.on", loc, until=f"<t:{int(until)}:F>", count=left)
        except GameError as refusal:
            await self.responder.tell(interaction, refusal.message)
            return
        self.timers.wake()   # the deadlines of this player's turns move
        await interaction.response.send_message(text, ephemeral=True)

    async def notify(self, interaction: discord.Interaction, state: app_commands.Choice[str]) -> None:
        await self.sessions.deadlines.set_turn_notifications(interaction.user.id, state.value == "on")
        await interaction.response.send_message(
            i18n.text(f"timers.notify.{state.value}", i18n.locale_of(interaction.locale)), ephemeral=True)

    async def on_claim(self, interaction: discord.Interaction, request: Request) -> None:
        """Claim the turn: a player waiting on the late one applies its passed deadline at once."""
        await interaction.response.defer()
        try:
            outcome = await self.sessions.claims.claim(channel_of(interaction), interaction.user.id, request.game,
                                                       request.version, self.timers.clock.now())
        except GameError as refusal:
            await self.responder.tell(interaction, refusal.message)
            return
        await self.deadline_alerts.show_expiry(outcome, interaction)

    async def on_vote(self, interaction: discord.Interaction, request: Request) -> None:
        """A vote on an absent seat: the vote message shows the tally, then the decision."""
        seat = request.seat
        await interaction.response.defer()
        try:
            outcome = await self.deadline_alerts.overdue_first(interaction, lambda: self.sessions.deadlines.vote(
                channel_of(interaction), interaction.user.id, request.game, seat, request.value))()
        except GameError as refusal:
            await self.responder.tell(interaction, refusal.message)
            return
        if outcome.vote is not None and outcome.vote.decided is None:
            await self.responder.answer(interaction, lambda: interaction.edit_original_response(
                content=vote_text(outcome)))
            return
        await self.responder.answer(interaction, lambda: interaction.edit_original_response(
            content=vote_text(outcome), view=None))
        await self.recovery.publish_or_recover(outcome, interaction)
