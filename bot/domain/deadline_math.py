"""Turn deadlines as plain arithmetic: durations, when the reminder and the deadline fall, who is
late, how many turns in a row expired, which way a vote went. No I/O: the service that acts on
deadlines is bot/services/deadlines.py, the one that waits for them bot/services/scheduler.py.

A deadline is data, stored with the game and re-armed from it: a game's options hold `turn_time`
(seconds) and `on_timeout` ("play" or "skip"); the waiting time starts when the
game was last written (store.TurnClock.started_at: every action restarts it) and
the half-time reminder is marked in the game's row once sent.

Where the bot may only answer interactions (a DM, a group DM, a server without the bot: the game's option
`interactions_only`), nothing fires on its own: a deadline that passed is applied at the next interaction in
the game, or at once when another player claims the turn (bot/services/claims.py); only the reminder still
goes out, as a direct message.

Time away (`/game away`) is data too: while the player to move is away, the waiting time of the turn starts
when the period ends (`after_away`), so neither the reminder nor the deadline falls during it; a period
ended early (the player acted, or came back) restarts the turn's time from that moment.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from bot.core.game_records import INTERACTIONS_ONLY, GameRecord, LoggedAction, TurnClock
from bot.games import get_ruleset
from bot.games.base import GameError, Message, msg

ON_TIMEOUT = ("play", "skip")          # an easy computer plays the turn, or the turn is passed
VOTE_AFTER = 3                         # expiries in a row before the others may vote on the seat
VOTE_CHOICES = ("computer", "end")     # hand the seat to a computer player, or end the game
MAX_TURN_TIME = 30 * 86400
DAY = 86400
MAX_AWAY_DAYS = 14                     # at most this many days away at a time...
AWAY_DAYS_PER_YEAR = 30                # ...and this many in any 365 (as correspondence chess sites allow)
AWAY_WINDOW = 365 * DAY
UNITS = {"d": DAY, "h": 3600, "m": 60, "s": 1}
_DURATION = re.compile(r"(?:\d{1,7}[dhms])+")


def parse_duration(text: str) -> int:
    """Seconds in "10m", "12h", "3d", "1d12h", "45s"; GameError for anything else."""
    compact = re.sub(r"\s+", "", text.lower())
    if not _DURATION.fullmatch(compact):
        raise GameError(msg("timers.error.bad_duration", text=text[:40]))
    return sum(int(n) * UNITS[unit] for n, unit in re.findall(r"(\d+)([dhms])", compact))


def format_duration(seconds: int) -> str:
    """The shortest spelling parse_duration reads back: 90 -> "1m30s"."""
    parts: list[str] = []
    for unit, size in UNITS.items():
        if seconds >= size or (unit == "s" and not parts):
            parts.append(f"{seconds // size}{unit}")
            seconds %= size
    return "".join(parts)


def settings_message(options: dict[str, Any]) -> Message:
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


def waits_for_interactions(record: GameRecord) -> bool:
    """Whether the game lives where the bot can only answer interactions, so that its deadlines wait for one."""
    return bool(record.options.get(INTERACTIONS_ONLY))


def waiting_person(record: GameRecord) -> int | None:
    """The user id of the person whose turn it is in an active game (None: a computer, or no turn)."""
    seat = seat_to_move(record) if record.status == "active" else None
    return None if seat is None or record.seats[seat].level is not None else record.seats[seat].user_id


def after_away(clock: TurnClock, away_until: float | None) -> TurnClock:
    """The turn's clock as it runs for a player away until `away_until` (their latest period's end)."""
    if away_until is None or away_until <= clock.started_at:
        return clock
    return replace(clock, started_at=away_until)


def away_used(periods: list[tuple[float, float]], now: float, until: float) -> float:
    """Seconds away, in the 365 days ending at `until`, of the periods (started_at, until) before one that
    starts `now` (which ends the one running)."""
    window = until - AWAY_WINDOW
    return sum(max(0.0, min(end, now) - max(start, window)) for start, end in periods)


def away_allowance(periods: list[tuple[float, float]], now: float, days: int) -> int:
    """Whole days away still allowed in the 365 days that a period of `days` days from `now` would end."""
    return int((AWAY_DAYS_PER_YEAR * DAY - away_used(periods, now, now + days * DAY)) // DAY)


def shown_deadline(record: GameRecord, away: dict[int, float], now: float) -> float | None:
    """When time runs out in `record` (as last written) if it is a timed game waiting for a person, given the
    end of each user's latest time away (PeopleRows.of); None otherwise."""
    if record.status != "active" or not record.options.get("turn_time"):
        return None
    person = waiting_person(record)
    clock = after_away(TurnClock(record, record.updated_at, None), None if person is None else away.get(person))
    return None if next_due(clock, now) is None else deadline(clock)


def reminder_at(clock: TurnClock) -> float:
    return clock.started_at + _turn_time(clock) / 2


def deadline(clock: TurnClock) -> float:
    return clock.started_at + _turn_time(clock)


def _turn_time(clock: TurnClock) -> float:
    seconds: float = clock.record.options["turn_time"]   # a timed game's: the seconds a turn may take
    return seconds


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
    return None if record.state is None else ruleset.to_move(ruleset.from_json(record.state))


def next_due(clock: TurnClock, now: float) -> Due | None:
    """The next event of a timed game, if a person must act in it. The deadlines
    service asks the same question under the channel lock before acting."""
    seat = seat_to_move(clock.record)
    if seat is None or clock.record.seats[seat].level is not None:
        return None
    if clock.reminded_version != clock.record.version and deadline(clock) > now:
        return Due(reminder_at(clock), "remind", clock.record, seat)
    return Due(deadline(clock), "expire", clock.record, seat)  # once the deadline has passed, no reminder
