"""The session service, the only caller of the store (with start-up).

A front end builds one `Sessions` on a store and calls it; each part lives in its own module:
  base.py        the store, the channels' locks, reading a game, Outcome
  play.py        a turn: a person's action or roll, the computer players that follow, resuming
  lobby.py       open, join, add a computer player, leave, start
  rematch.py     a lobby for a rematch of the channel's last game, its players already seated
  takeback.py    taking back one's last move, with the consent of the player to move once the turn passed
  timelines.py   each game in play's timeline, kept as far as last seen: take-backs and the moves a board traces
  endings.py     resign, end, a channel or server gone
  deadlines.py   turn deadlines: settings, reminder, expiry, votes on an absent seat, turn notifications
  claims.py      deadlines where the bot only answers interactions: applied at the next one, or claimed
  mine.py        a person's games in play on a server, those waiting for them first (/game mine)
  scheduler.py   the loop that fires reminders and expiries when they fall due
  boards.py      which message shows which version of a game
  board_views.py what a board shows besides its position, in one call: moves since a player's turn, take-back,
                 people away or wanting a direct message, deadline
  defaults.py    each server's defaults of new games
  away.py        time away: players whose deadlines wait
  records.py     history pages, verification, statistics (reads only; `Sessions.records`)
  privacy.py     what is kept about a person, forgetting them; servers' games deleted after the retention
Each part builds on the one it needs (rematch -> lobby; board_views -> takeback, away; lobby, endings,
takeback -> play -> timelines -> base; deadlines -> endings; claims -> deadlines; mine -> base; privacy -> lobby,
endings), so the arrows point one way; `Sessions` is their union.
"""
from __future__ import annotations

from bot.game_records import GameRecord, Seat
from bot.outages import StoreUnavailable
from bot.services.away import People
from bot.services.base import Outcome, TakebackAsked, Vote, position, ruleset_of
from bot.services.board_views import BoardView, BoardViews
from bot.services.boards import LOBBY_SHOWN, Boards
from bot.services.claims import Claims
from bot.services.defaults import ServerDefaults
from bot.services.lobby import COMPUTER_LEVELS, started_events
from bot.services.mine import MyGames, WaitingGame
from bot.services.play import ROLL
from bot.services.privacy import Forgotten, Kept, Privacy
from bot.services.records import Records
from bot.services.rematch import Rematch
from bot.services.takeback import asked
from bot.shards import Shards
from bot.store import Store

__all__ = [
    "COMPUTER_LEVELS",
    "LOBBY_SHOWN",
    "ROLL",
    "BoardView",
    "Forgotten",
    "GameRecord",
    "Kept",
    "Outcome",
    "People",
    "Records",
    "Seat",
    "Sessions",
    "StoreUnavailable",
    "TakebackAsked",
    "Vote",
    "WaitingGame",
    "asked",
    "position",
    "ruleset_of",
    "started_events",
]


class Sessions(Rematch, BoardViews, Claims, Boards, ServerDefaults, MyGames, Privacy):
    def __init__(self, store: Store, think_budget_s: float = 1.0, shards: Shards | None = None):
        super().__init__(store, think_budget_s, shards)
        self.records = Records(store)
