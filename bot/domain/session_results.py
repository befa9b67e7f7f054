"""What the session service's calls return, for a front end to show: plain data, below both the services
(bot/services/) and the front ends' words (bot/present/).

  Outcome        what a call changed: the game, its events, a vote or a take-back request it opened
  Vote           the vote on a seat whose turns keep expiring
  TakebackAsked  a take-back waiting for the consent of the player to move (`asked`: its words)
  WaitingGame    a game in play and whom it waits for (/game mine)
  Kept           what Tablero keeps about a person (/game privacy)
  Forgotten      what forgetting a person rewrote and resigned (/game forget)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.game_records import GameRecord
from bot.games.base import Message, msg


@dataclass(frozen=True)
class TakebackAsked:
    """A take-back that needs the consent of the player to move."""

    seat: int           # the seat asking
    consent_seat: int   # the player to move, who accepts or refuses


def asked(request: TakebackAsked) -> Message:
    """What a take-back request says: who asks whom."""
    return msg("takeback.asked", seat=request.seat, consent_seat=request.consent_seat)


@dataclass(frozen=True)
class Vote:
    """The vote on a seat whose turns keep expiring: opened by an expiry, counted at each vote."""

    seat: int                                              # the seat voted on
    voters: int = 0                                        # the seated people who may vote
    tally: dict[str, int] = field(default_factory=dict)    # votes per choice (timers.VOTE_CHOICES)
    decided: str | None = None                             # the choice a majority made, or None


@dataclass(frozen=True)
class Outcome:
    """What a session call changed, for the front end to show."""

    record: GameRecord
    events: tuple[Message, ...] = ()
    # The seat that was to move before the call (None in the lobby), so the
    # front end knows whether to edit the board or post a new one with a ping.
    seat_before: int | None = None
    # The game's version before the call: what happened earlier is in the log.
    version_before: int | None = None
    # The database went out of reach while computer players were playing on: what they played is stored
    # and shown; the front end resumes them later (as after a restart).
    unfinished: bool = False
    # A vote opened or counted (Deadlines.expire, Deadlines.vote), a take-back asked or answered (Takebacks).
    vote: Vote | None = None
    takeback_asked: TakebackAsked | None = None
    # The seated people's time away and wish for a turn's direct message, read with the write (PeopleRows.of's
    # answer, as of the move): the board shows them. None: not read, whoever shows the outcome reads them.
    people: tuple[dict[int, float], set[int]] | None = None


@dataclass(frozen=True)
class WaitingGame:
    record: GameRecord
    since: float             # when the turn began to wait (the game's last write)
    deadline: float | None   # when its time runs out (a timed game waiting for a person; time away counted)
    to_move: int             # the seat it waits for


@dataclass(frozen=True)
class Kept:
    """What Tablero keeps about one person."""

    games: int           # games naming them (seats, host, log)
    open_games: int      # of which in their lobby or in play
    actions: int         # their moves and rolls in the logs
    away_periods: int
    notifications: bool  # a direct message on their turn


@dataclass(frozen=True)
class Forgotten:
    games: int                      # games rewritten
    resigned: tuple[Outcome, ...]   # the games they still sat in, resigned (or the lobbies left): to show
