"""The objects behind the /game commands and the games' events, built once, each given what it uses.

The /game cog (bot/cogs/commands/game.py) hands each command to one of the handlers, and the events cog
(bot/cogs/events/game_events.py) each click and each of Discord's events; both hold these parts.
"""
from __future__ import annotations

import asyncio

from discord.ext import commands

from bot.cogs.commands.deadlines import DeadlineCommands
from bot.cogs.commands.defaults import DefaultsCommands
from bot.cogs.commands.history import HistoryCommands
from bot.cogs.commands.lobby import LobbyCommands
from bot.cogs.commands.mine import MineCommand
from bot.cogs.commands.play import PlayCommands
from bot.cogs.commands.privacy import PrivacyCommands
from bot.cogs.commands.takeback import TakebackCommands
from bot.cogs.events.departures import Departures
from bot.cogs.messages.announcer import Announcer
from bot.cogs.messages.deadline_alerts import DeadlineAlerts
from bot.cogs.messages.delivery import Tokens
from bot.cogs.messages.publisher import BoardPublisher
from bot.cogs.messages.recovery import Recovery
from bot.cogs.messages.responder import CLICKS_AT_ONCE, Responder
from bot.cogs.messages.turn_notices import TurnNotices
from bot.core.config import Settings
from bot.services import Sessions
from bot.services.scheduler import DeadlineScheduler, SystemClock


class GameParts:
    def __init__(self, bot: commands.AutoShardedBot, sessions: Sessions, settings: Settings) -> None:
        # The timers fire into the timer events, which show what fired through the publisher, which wakes the
        # timers when a board changes a deadline: the timers come first, and reach their events through `self`.
        self.scheduler = DeadlineScheduler(sessions.deadlines, clock=SystemClock(),
                                 on_reminder=lambda record, seat, deadline: self.deadline_alerts.post_reminder(
                                     record, seat, deadline),
                                 on_expiry=lambda outcome: self.deadline_alerts.show_expiry(outcome))
        work_slots = asyncio.Semaphore(CLICKS_AT_ONCE)
        self.mine = MineCommand(sessions, self.scheduler)
        self.announcer = Announcer(sessions)
        self.publisher = BoardPublisher(bot, sessions, self.scheduler, Tokens(settings.token_lifetime), work_slots,
                                        TurnNotices(bot, sessions, self.scheduler), self.announcer)
        self.departures = Departures(sessions, self.scheduler)
        self.recovery = Recovery(sessions, self.publisher, self.departures)
        self.deadline_alerts = DeadlineAlerts(bot, sessions, self.scheduler, self.recovery)
        self.responder = Responder(sessions, self.publisher, self.recovery, self.deadline_alerts, work_slots)
        self.history = HistoryCommands(sessions, self.responder)
        self.lobby = LobbyCommands(sessions, self.responder, settings.min_turn_time)
        self.play = PlayCommands(sessions, self.responder, self.publisher)
        self.takebacks = TakebackCommands(sessions, self.responder, self.publisher, self.recovery, self.deadline_alerts)
        self.deadline_commands = DeadlineCommands(sessions, self.responder, self.scheduler, self.deadline_alerts,
                                                  self.recovery, settings.min_turn_time)
        self.defaults = DefaultsCommands(sessions, self.responder, settings.min_turn_time)
        self.privacy = PrivacyCommands(sessions, self.responder, self.recovery, settings.retain_days)
