"""Thinking off the event loop: a small process pool, a time bound, a fallback.

The search is CPU-bound Python, so threads would hold the GIL; a process pool
keeps the bot responsive. States travel as JSON and rulesets are looked up by
id in the worker. A search that overruns (or a dead worker) is replaced by the
normal level, computed in a thread, so the game always goes on.

Workers end with the bot however it ends, SIGKILL included (nothing runs in a killed process to
stop them): each watches its parent from a thread and exits once re-parented. The resource tracker
that multiprocessing starts beside them (it unlinks the named semaphores of the pool's queues should
the bot die holding them) ends by itself when the last process holding its pipe - the bot and its
workers - is gone.
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import secrets
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.ai.levels import choose_action
from bot.games import get_ruleset

log = logging.getLogger(__name__)

MAX_WORKERS = 2
# Slack over the search budget before falling back (the first call also
# starts the worker processes).
GRACE_S = 5.0
# The least a search queued behind others still gets (see remaining_budget).
MIN_BUDGET_S = 0.05
# How often a worker checks that the bot is still its parent.
PARENT_POLL_S = 0.5

_executor: ProcessPoolExecutor | None = None


def _pool() -> ProcessPoolExecutor:
    global _executor
    if _executor is None:
        # spawn, not fork: the bot process runs threads (discord.py, the SQLite store's).
        _executor = ProcessPoolExecutor(max_workers=MAX_WORKERS, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=start_worker, initargs=(os.getpid(),))
    return _executor


def start_worker(parent: int) -> None:
    """In a worker: leave Ctrl-C to the bot, and exit as soon as `parent` (the bot) is no longer this
    process's parent. A terminal's Ctrl-C reaches the whole process group: the bot (or the console)
    says it stopped in one line and the workers end with it; a worker stopped by Ctrl-C would print
    its traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        os._exit(0)   # the bot is gone: nobody waits for an answer, nothing to flush
    threading.Thread(target=watch, name="watch the bot", daemon=True).start()


def shutdown() -> None:
    """Stop the worker processes (at bot shutdown; a later think() starts new ones)."""
    global _executor
    if _executor is not None:
        _executor.shutdown(wait=False, cancel_futures=True)
        _executor = None


def remaining_budget(budget_s: float | None, submitted: float, now: float) -> float | None:
    """The search budget left to a job that waited in the pool's queue since `submitted` (time.time()):
    when many computer players think at once, each still answers about `budget_s` after its turn
    came, rather than one budget after another (and rather than overrunning into the fallback)."""
    if budget_s is None:
        return None
    return max(MIN_BUDGET_S, budget_s - max(0.0, now - submitted))


def _choose(ruleset_id: str, state_json: dict[str, Any], seat: int, level: str, budget_s: float | None,
            seed: int, submitted: float | None = None) -> str:
    if submitted is not None:
        budget_s = remaining_budget(budget_s, submitted, time.time())
    ruleset = get_ruleset(ruleset_id)
    state = ruleset.from_json(state_json)
    return choose_action(ruleset, state, seat, level, rng=random.Random(seed), budget_s=budget_s)


async def think(ruleset_id: str, state_json: dict[str, Any], seat: int, level: str, budget_s: float = 1.0,
                *, seed: int | None = None) -> str:
    """choose_action in a worker process, within budget_s of this call however long it waits for a
    worker (remaining_budget), bounded by budget_s + GRACE_S; on overrun or failure, the normal
    level's choice."""
    if seed is None:
        seed = secrets.randbits(64)
    loop = asyncio.get_running_loop()
    try:
        future = loop.run_in_executor(_pool(), _choose, ruleset_id, state_json, seat, level, budget_s, seed,
                                      time.time())
        return await asyncio.wait_for(future, timeout=budget_s + GRACE_S)
    except (asyncio.TimeoutError, BrokenProcessPool) as exc:
        log.warning("computer player (%s, %s) fell back to normal: %r", ruleset_id, level, exc)
        if isinstance(exc, BrokenProcessPool):
            shutdown()
    return await asyncio.to_thread(_choose, ruleset_id, state_json, seat, "normal", None, seed)
