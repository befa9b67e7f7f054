"""Turn deadlines as plain arithmetic: durations, when the reminder and the deadline fall, who is
late, how many turns in a row expired, which way a vote went. No I/O: the service that acts on
deadlines is bot/services/deadlines.py, the one that waits for them bot/services/scheduler.py.

A deadline is data (design principle 7): a game's options hold `turn_time`
(seconds) and `on_timeout` ("play" or "skip"); the waiting time starts when the
game was last written (store.TurnClock.started_at: every action restarts it) and
the half-time reminder is marked in the game's row once sent.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games import get_ruleset
from bot.games.base import GameError, Message, msg
from bot.store import GameRecord, LoggedAction, TurnClock

ON_TIMEOUT = ("play", "skip")          # an easy computer plays the turn, or the turn is passed
VOTE_AFTER = 3                         # expiries in a row before the others may vote on the seat
VOTE_CHOICES = ("computer", "end")     # hand the seat to a computer player, or end the game
MAX_TURN_TIME = 30 * 86400
UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_DURATION = re.compile(r"(?:\d{1,7}[dhms])+")


def parse_duration(text: str) -> int:
    """Seconds in "10m", "12h", "3d", "1d12h", "45s"; GameError for anything else."""
    compact = re.sub(r"\s+", "", text.lower())
    if not _DURATION.fullmatch(compact):
        raise GameError(msg("timers.error.bad_duration", text=text[:40]))
    return sum(int(n) * UNITS[unit] for n, unit in re.findall(r"(\d+)([dhms])", compact))


def format_duration(seconds: int) -> str:
    """The shortest spelling parse_duration reads back: 90 -> "1m30s"."""
    parts = []
    for unit, size in UNITS.items():
        if seconds >= size or (unit == "s" and not parts):
            parts.append(f"{seconds // size}{unit}")
            seconds %= size
    return "".join(parts)


def settings_message(options: dict) -> Message:
    """The game's deadline settings in words."""
    turn_time = options.get("turn_time")
    if turn_time is None:
        return msg("timers.settings.none")
    return msg("timers.settings.on", turn_time=format_duration(turn_time),
               on_timeout=msg(f"timers.on_timeout.{options.get('on_timeout', 'play')}"))


def check_turn_time(seconds: int, minimum: int) -> int:
    if not minimum <= seconds <= MAX_TURN_TIME:
        raise GameError(msg("timers.error.turn_time_range", min=format_duration(minimum),
                            max=format_duration(MAX_TURN_TIME)))
    return seconds


def reminder_at(clock: TurnClock) -> float:
    return clock.started_at + clock.record.options["turn_time"] / 2


def deadline(clock: TurnClock) -> float:
    return clock.started_at + clock.record.options["turn_time"]


def expiry_streak(actions: list[LoggedAction], seat: int) -> int:
    """How many of `seat`'s latest turns in a row ended by expiry.

    A turn is a run of consecutive actions by the seat; for a person's seat, an
    action nobody sent (user_id None) was played by the deadline."""
    streak, previous = 0, None
    for action in reversed(actions):
        if action.seat == seat and previous != seat:  # the last action of one of the seat's turns
            if action.user_id is not None:
                break
            streak += 1
        previous = action.seat
    return streak


def majority(votes: dict[int, str], electorate: set[int]) -> str | None:
    """The choice more than half of the electorate voted for, if any."""
    for choice in VOTE_CHOICES:
        if 2 * sum(1 for voter, c in votes.items() if voter in electorate and c == choice) > len(electorate):
            return choice
    return None


@dataclass(frozen=True)
class Due:
    when: float
    kind: str            # "remind" | "expire"
    record: GameRecord
    seat: int


def seat_to_move(record: GameRecord) -> int | None:
    ruleset = get_ruleset(record.game)
    return None if ruleset is None or record.state is None else ruleset.to_move(ruleset.from_json(record.state))


def next_due(clock: TurnClock, now: float) -> Due | None:
    """The next event of a timed game, if a person must act in it. The deadlines
    service asks the same question under the channel lock before acting."""
    seat = seat_to_move(clock.record)
    if seat is None or clock.record.seats[seat].level is not None:
        return None
    if clock.reminded_version != clock.record.version and deadline(clock) > now:
        return Due(reminder_at(clock), "remind", clock.record, seat)
    return Due(deadline(clock), "expire", clock.record, seat)  # once the deadline has passed, no reminder
