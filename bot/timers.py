"""Turn deadlines: durations, who is late, and the scheduler that acts on it.

A deadline is data (design principle 7): a game's options hold `turn_time`
(seconds) and `on_timeout` ("play" or "skip"); the waiting time starts when the
game was last written (store.TurnClock.started_at: every action restarts it) and
the half-time reminder is marked in the game's row once sent. The scheduler
keeps nothing else: it reads every timed game from the store, sleeps until the
earliest reminder or deadline, fires it through the sessions service (which
re-checks it under the channel lock, so a move made at the same moment wins
cleanly), and starts over when woken by a change. Nothing here imports discord.
"""
from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.games import get_ruleset
from bot.games.base import GameError, Message, msg
from bot.store import GameRecord, LoggedAction, TurnClock

if TYPE_CHECKING:
    from bot.sessions import Outcome, Sessions

log = logging.getLogger(__name__)

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


# --- the scheduler -------------------------------------------------------------


class SystemClock:
    """Wall-clock time; sleeping ends early when `wake` is set."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float | None, wake: asyncio.Event) -> None:
        timeout = None if when is None else max(0.0, when - self.now())
        try:
            await asyncio.wait_for(wake.wait(), timeout)
        except asyncio.TimeoutError:
            pass


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
    """The next event of a timed game, if a person must act in it. The sessions
    service asks the same question under the channel lock before acting."""
    seat = seat_to_move(clock.record)
    if seat is None or clock.record.seats[seat].level is not None:
        return None
    if clock.reminded_version != clock.record.version and deadline(clock) > now:
        return Due(reminder_at(clock), "remind", clock.record, seat)
    return Due(deadline(clock), "expire", clock.record, seat)  # once the deadline has passed, no reminder


class TurnTimers:
    """Fires reminders and expiries of every timed game; `wake()` after any change."""

    def __init__(self, sessions: "Sessions", *, clock: SystemClock,
                 on_reminder: Callable[[GameRecord, int, float], Awaitable[None]],
                 on_expiry: Callable[["Outcome"], Awaitable[None]]):
        self.sessions = sessions
        self.clock = clock
        self._on_reminder = on_reminder
        self._on_expiry = on_expiry
        self._wake = asyncio.Event()
        self._failed: set[tuple[int, int, str]] = set()  # (game, version, kind) that raised: not retried

    def wake(self) -> None:
        self._wake.set()

    async def pending(self, now: float) -> list[Due]:
        found = []
        clocks = await self.sessions.store.turn_clocks()
        current = {(c.record.id, c.record.version) for c in clocks}
        self._failed = {f for f in self._failed if f[:2] in current}
        for clock in clocks:
            due = next_due(clock, now)
            if due is not None and (due.record.id, due.record.version, due.kind) not in self._failed:
                found.append(due)
        return sorted(found, key=lambda d: d.when)

    async def fire_due(self) -> float | None:
        """Fire everything due now; return when the next event is due (None: nothing timed)."""
        while True:
            now = self.clock.now()
            pending = await self.pending(now)
            due = [d for d in pending if d.when <= now]
            if not due:
                return pending[0].when if pending else None
            for event in due:
                await self._fire(event, now)

    async def _fire(self, due: Due, now: float) -> None:
        record = due.record
        try:
            # None: someone acted (or the settings changed) first; the next pass sees the new state.
            if due.kind == "remind":
                reminded = await self.sessions.remind(record.channel_id, record.id, record.version, now)
                if reminded is not None:
                    await self._on_reminder(reminded.record, due.seat, deadline(reminded))
            elif (outcome := await self.sessions.expire(record.channel_id, record.id, record.version, now)):
                await self._on_expiry(outcome)
        except Exception:
            log.exception("turn %s of game %s failed at version %s", due.kind, record.id, record.version)
            self._failed.add((record.id, record.version, due.kind))

    async def run(self) -> None:
        """Forever: fire what is due, then sleep until the next event or a wake-up."""
        while True:
            self._wake.clear()
            try:
                when = await self.fire_due()
            except Exception:  # e.g. the database is briefly locked: try again soon
                log.exception("turn timers could not read the games")
                when = self.clock.now() + 5
            await self.clock.sleep_until(when, self._wake)

