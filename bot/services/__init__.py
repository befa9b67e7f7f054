"""The session service, the only caller of the store (with start-up).

A front end builds one `Sessions` on a store and calls its parts: `sessions.lobby.join(...)`,
`sessions.play.act(...)`. Each part is a plain object built on the parts it calls (each module's docstring
says what its part does), so the arrows point one way (tests/services/test_parts.py keeps this list true):
  channels, timelines -> store
  play -> channels, timelines
  lobby, endings -> channels, play
  takebacks -> channels, timelines, play
  deadlines -> channels, play, endings
  claims -> channels, deadlines
  privacy -> store, lobby, endings
  annotations -> store, timelines
  boards, defaults, mine, away, records -> store
`channels` holds each channel's lock, which every part that changes a game takes, and the reads of its game.
"""
from __future__ import annotations

from bot.core.game_records import GameRecord, Seat
from bot.core.outages import StoreUnavailable
from bot.core.shards import Shards
from bot.services.annotations import Annotations, BoardAnnotations
from bot.services.away import Away, People
from bot.services.base import Channels
from bot.services.boards import LOBBY_SHOWN, Boards
from bot.services.claims import Claims
from bot.services.deadlines import Deadlines
from bot.services.defaults import ServerDefaults
from bot.services.endings import Endings
from bot.services.lobby import COMPUTER_LEVELS, Lobby, started_events
from bot.services.mine import MyGames
from bot.services.play import Play
from bot.services.privacy import Privacy
from bot.services.records import Records
from bot.services.takeback import Takebacks
from bot.services.timelines import Timelines
from bot.store import Store

__all__ = ["COMPUTER_LEVELS", "LOBBY_SHOWN", "BoardAnnotations", "GameRecord", "People", "Records", "Seat", "Sessions",
           "StoreUnavailable", "started_events"]


class Sessions:
    """Every part of the session service on one store, each built after the parts it calls.

    `think_budget_s`: hard computer players' time per move; `shards`: the gateway shards of this process
    (None: all; bot/core/shards.py)."""

    def __init__(self, store: Store, think_budget_s: float = 1.0, shards: Shards | None = None):
        self.store = store
        self.channels = Channels(store, shards)
        self.timelines = Timelines(store)
        self.play = Play(self.channels, self.timelines, think_budget_s)
        self.lobby = Lobby(self.channels, self.play)
        self.endings = Endings(self.channels, self.play)
        self.takebacks = Takebacks(self.channels, self.timelines, self.play)
        self.deadlines = Deadlines(self.channels, self.play, self.endings)
        self.claims = Claims(self.channels, self.deadlines)
        self.privacy = Privacy(store, self.lobby, self.endings)
        self.annotations = Annotations(store, self.timelines)
        self.boards = Boards(store, shards)
        self.defaults = ServerDefaults(store)
        self.mine = MyGames(store)
        self.away = Away(store)
        self.records = Records(store)
