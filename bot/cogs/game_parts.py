"""The objects behind the /game commands and the games' events, built once, each given what it uses.

The /game cog (bot/cogs/game.py) hands each command to one of the handlers, and the events cog
(bot/cogs/game_events.py) each click and each of Discord's events; both hold these parts.
"""
from __future__ import annotations

import asyncio

from discord.ext import commands

from bot.cogs.announcer import Announcer
from bot.cogs.delivery import Tokens
from bot.cogs.departures import Departures
from bot.cogs.game_defaults import DefaultsCommands
from bot.cogs.game_history import HistoryCommands
from bot.cogs.game_lobby import LobbyCommands
from bot.cogs.game_mine import MyGames
from bot.cogs.game_play import PlayCommands
from bot.cogs.game_privacy import PrivacyCommands
from bot.cogs.game_takeback import TakebackCommands
from bot.cogs.game_timers import TimerCommands
from bot.cogs.publisher import BoardPublisher
from bot.cogs.recovery import Recovery
from bot.cogs.responder import CLICKS_AT_ONCE, Responder
from bot.cogs.timer_events import TimerEvents
from bot.config import Settings
from bot.services import Sessions
from bot.services.scheduler import SystemClock, TurnTimers


class GameParts:
    def __init__(self, bot: commands.AutoShardedBot, sessions: Sessions, settings: Settings) -> None:
        # The timers fire into the timer events, which show what fired through the publisher, which wakes the
        # timers when a board changes a deadline: the timers come first, and reach their events through `self`.
        self.timers = TurnTimers(sessions.deadlines, clock=SystemClock(),
                                 on_reminder=lambda record, seat, deadline: self.timer_events.post_reminder(
                                     record, seat, deadline),
                                 on_expiry=lambda outcome: self.timer_events.show_expiry(outcome))
        working = asyncio.Semaphore(CLICKS_AT_ONCE)
        self.my_games = MyGames(bot, sessions, self.timers)
        self.announcer = Announcer(sessions)
        self.publisher = BoardPublisher(bot, sessions, self.timers, Tokens(settings.token_lifetime), working,
                                        self.my_games, self.announcer)
        self.departures = Departures(sessions, self.timers)
        self.recovery = Recovery(sessions, self.publisher, self.departures)
        self.timer_events = TimerEvents(bot, sessions, self.timers, self.recovery)
        self.responder = Responder(sessions, self.publisher, self.recovery, self.timer_events, working)
        self.history = HistoryCommands(sessions, self.responder)
        self.lobby = LobbyCommands(sessions, self.responder, settings.min_turn_time)
        self.play = PlayCommands(sessions, self.responder, self.publisher)
        self.takebacks = TakebackCommands(sessions, self.responder, self.publisher, self.recovery, self.timer_events)
        self.deadlines = TimerCommands(sessions, self.responder, self.timers, self.timer_events, self.recovery,
                                       settings.min_turn_time)
        self.defaults = DefaultsCommands(sessions, self.responder, settings.min_turn_time)
        self.privacy = PrivacyCommands(sessions, self.responder, self.recovery, settings.retain_days)
