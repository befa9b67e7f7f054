"""The scheduler of turn deadlines: it keeps nothing of its own. It reads every timed game through
the deadlines service, sleeps until the earliest reminder or deadline, fires it through that service
(which re-checks it under the channel lock, so a move made at the same moment wins cleanly), and
starts over when woken by a change. Where the bot may only answer interactions it fires only the reminder."""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from bot.core.game_records import GameRecord
from bot.core.outages import StoreUnavailable
from bot.domain.deadline_math import Due, deadline, next_due, waits_for_interactions
from bot.domain.session_results import Outcome
from bot.services.deadlines import Deadlines

log = logging.getLogger(__name__)

OUTAGE_RETRY_S = 2.0   # while the database is out of reach, the timers look again this often


class SystemClock:
    """Wall-clock time; sleeping ends early when `wake` is set."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float | None, wake: asyncio.Event) -> None:
        timeout = None if when is None else max(0.0, when - self.now())
        try:
            await asyncio.wait_for(wake.wait(), timeout)
        except TimeoutError:
            pass


class DeadlineScheduler:
    """Fires reminders and expiries of every timed game; `wake()` after any change."""

    def __init__(self, deadlines: Deadlines, *, clock: SystemClock,
                 on_reminder: Callable[[GameRecord, int, float], Awaitable[None]],
                 on_expiry: Callable[[Outcome], Awaitable[None]]):
        self.deadlines = deadlines
        self.clock = clock
        self._on_reminder = on_reminder
        self._on_expiry = on_expiry
        self._wake = asyncio.Event()
        self._failed: set[tuple[int, int, str]] = set()  # (game, version, kind) that raised: not retried

    def wake(self) -> None:
        self._wake.set()

    async def pending(self, now: float) -> list[Due]:
        found = []
        clocks = await self.deadlines.turn_clocks()
        current = {(c.record.id, c.record.version) for c in clocks}
        self._failed = {f for f in self._failed if f[:2] in current}
        for clock in clocks:
            due = next_due(clock, now)
            if due is not None and due.kind == "expire" and waits_for_interactions(clock.record):
                continue   # applied at the game's next interaction, or claimed (bot/services/claims.py)
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
                reminded = await self.deadlines.remind(record.channel_id, record.id, record.version, now)
                if reminded is not None:
                    await self._on_reminder(reminded.record, due.seat, deadline(reminded))
            elif (outcome := await self.deadlines.expire(record.channel_id, record.id, record.version, now)):
                await self._on_expiry(outcome)
        except StoreUnavailable:
            raise   # not the turn's fault: fired once the database is back (late rather than never)
        except Exception:
            log.exception("turn %s of game %s failed at version %s", due.kind, record.id, record.version)
            self._failed.add((record.id, record.version, due.kind))

    async def run(self) -> None:
        """Forever: fire what is due, then sleep until the next event or a wake-up. While the database is out
        of reach, try again every OUTAGE_RETRY_S: what fell due meanwhile fires then, once (each firing is
        conditional on the version it was due for)."""
        out_since: float | None = None
        while True:
            self._wake.clear()
            try:
                when = await self.fire_due()
            except StoreUnavailable as error:
                if out_since is None:
                    out_since = self.clock.now()
                    log.warning("turn timers wait for the database: %s", error)
                when = self.clock.now() + OUTAGE_RETRY_S
            except Exception:
                log.exception("turn timers could not read the games")
                when = self.clock.now() + 5
            else:
                if out_since is not None:
                    log.info("turn timers run again (the database was out of reach for %.0f s)",
                             self.clock.now() - out_since)
                    out_since = None
            await self.clock.sleep_until(when, self._wake)

