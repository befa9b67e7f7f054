"""/healthz's verdict: every shard connected, the database answering within 2 s, the event loop on time."""
import asyncio
import time

from bot.core import metrics
from bot.core.outages import StoreUnavailable
from bot.operations.health import Health, LoopLag


async def test_healthy_when_every_check_passes():
    async def ping() -> None:
        pass
    assert await Health(lambda: [], ping, LoopLag()).problems() == []
    assert metrics.STORE_REACHABLE._value.get() == 1


async def test_each_failed_check_is_a_reason():
    async def unreachable() -> None:
        raise StoreUnavailable("[Errno 111] Connect call failed")
    lag = LoopLag()
    lag.seconds = 1.5
    problems = await Health(lambda: ["0", "2"], unreachable, lag).problems()
    assert problems == ["Discord shards not connected: 0, 2",
                        "database out of reach ([Errno 111] Connect call failed)", "event loop 1.5 s late"]
    assert metrics.STORE_REACHABLE._value.get() == 0


async def test_before_discord_was_reached_the_reason_is_the_last_try_s():
    async def ping() -> None:
        pass
    health = Health(lambda: ["all"], ping, LoopLag(), lambda: "try 2 failed: Cannot connect to host discord.com:443")
    assert await health.problems() == ["Discord not reached yet (try 2 failed: Cannot connect to host discord.com:443)"]


async def test_a_database_that_hangs_is_out_of_reach(monkeypatch):
    monkeypatch.setattr("bot.operations.health.STORE_TIMEOUT_S", 0.05)
    async def hangs() -> None:
        await asyncio.sleep(10)
    assert await Health(lambda: [], hangs, LoopLag()).problems() == ["database out of reach (no answer in 0 s)"]


async def test_the_loop_lag_measures_a_blocked_loop():
    lag = LoopLag()
    lag.start()
    await asyncio.sleep(0.05)
    time.sleep(0.6)   # the loop blocked: the probe due 0.5 s after its start runs about 0.15 s late
    await asyncio.wait_for(lag.probed.wait(), 10)   # that probe ran (on a busy machine, later still)
    await lag.stop()
    assert lag.seconds >= 0.1 and metrics.LOOP_LAG._value.get() == lag.seconds
