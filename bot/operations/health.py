"""Whether this process is healthy: every shard connected, the database answering, the event loop on time.
Each failed check is a reason in a few words; the bot goes on answering players whatever they say."""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from bot.core import metrics
from bot.core.outages import StoreUnavailable

MAX_LAG_S = 1.0          # an event loop later than this answers interactions late
LAG_PROBE_S = 0.5        # how often the loop's lag is measured
STORE_TIMEOUT_S = 2.0    # a database slower than this to answer one SELECT counts as out of reach


class LoopLag:
    """Measures how late the event loop runs a timer that is due (metrics.LOOP_LAG), every LAG_PROBE_S."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.probed = asyncio.Event()   # set at each probe (`seconds` measured anew)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._watch(), name="event loop lag")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + LAG_PROBE_S
            await asyncio.sleep(LAG_PROBE_S)
            self.seconds = max(0.0, loop.time() - due)
            metrics.LOOP_LAG.set(self.seconds)
            self.probed.set()


class Health:
    """`shards_down()`: the shards of this process not connected (all of them before the first connection);
    `ping()`: one round trip to the database; `unreached()`: why Discord could not be reached at start-up
    (None once it was)."""

    def __init__(self, shards_down: Callable[[], list[str]], ping: Callable[[], Awaitable[None]], lag: LoopLag,
                 unreached: Callable[[], str | None] = lambda: None):
        self._shards_down, self._ping, self._lag, self._unreached = shards_down, ping, lag, unreached

    async def problems(self) -> list[str]:
        """Why the process is unhealthy ([]: it is healthy)."""
        problems = []
        if unreached := self._unreached():
            problems.append(f"Discord not reached yet ({unreached})")
        elif down := self._shards_down():
            problems.append(f"Discord shards not connected: {', '.join(down)}")
        try:
            await asyncio.wait_for(self._ping(), STORE_TIMEOUT_S)
        except (StoreUnavailable, TimeoutError) as error:
            metrics.STORE_REACHABLE.set(0)
            reason = str(error) or f"no answer in {STORE_TIMEOUT_S:.0f} s"
            problems.append(f"database out of reach ({reason})")
        else:
            metrics.STORE_REACHABLE.set(1)
        if self._lag.seconds >= MAX_LAG_S:
            problems.append(f"event loop {self._lag.seconds:.1f} s late")
        return problems
