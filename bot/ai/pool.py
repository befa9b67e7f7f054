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
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from bot.ai.levels import choose_action
from bot.core import metrics
from bot.games import get_ruleset

log = logging.getLogger(__name__)

MAX_WORKERS = 2
# Slack over the search budget before falling back (the first call also
# starts the worker processes).
GRACE_S = 5.0
# The least a search queued behind others, or each later decision of a turn whose budget is spent, still
# gets (see remaining_budget): short, as a turn can hold several decisions.
MIN_BUDGET_S = 0.02
# How often a worker checks that the bot is still its parent.
PARENT_POLL_S = 0.5

_executor: ProcessPoolExecutor | None = None
# Requests sent to the pool and not answered yet (this process's event loop only: no lock needed).
_in_flight = 0


def _pool() -> ProcessPoolExecutor:
    global _executor
    if _executor is None:
        # spawn, not fork: the bot process runs threads (discord.py, the SQLite store's).
        _executor = ProcessPoolExecutor(max_workers=MAX_WORKERS, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=start_worker, initargs=(os.getpid(),))
    return _executor


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread while it starts worker processes (the pool starts them as requests
    come): a spawned process inherits the blocked signal, so a Ctrl-C while it starts Python and imports
    the bot, before start_worker ignores it, prints no traceback. The bot's other threads still take
    the Ctrl-C meant for it."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def start_worker(parent: int) -> None:
    """In a worker: leave Ctrl-C to the bot, and exit as soon as `parent` (the bot) is no longer this
    process's parent. A terminal's Ctrl-C reaches the whole process group: the bot (or the console)
    says it stopped in one line and the workers end with it; a worker stopped by Ctrl-C would print
    its traceback. (SIGINT stays blocked, as the worker was started: _sigint_blocked.)"""
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


def shared_budget(budget_s: float, in_flight: int) -> float:
    """The budget of a request sent while `in_flight` others wait or run: when more computer players think at
    once than there are workers, each thinks for its share, so that the last in the queue still answers
    about one budget after its turn came (a move in time matters more than a deeper one)."""
    return budget_s * min(1.0, MAX_WORKERS / (in_flight + 1))


def remaining_budget(budget_s: float | None, submitted: float, now: float) -> float | None:
    """The search budget left to a job that waited in the pool's queue since `submitted` (time.time()):
    when many computer players think at once, each still answers about `budget_s` after its turn
    came, rather than one budget after another (and rather than overrunning into the fallback)."""
    if budget_s is None:
        return None
    return max(MIN_BUDGET_S, budget_s - max(0.0, now - submitted))


def _choose(ruleset_id: str, state_json: dict[str, Any], seat: int, level: str, budget_s: float | None,
            seed: int, submitted: float | None = None) -> list[str]:
    """The actions of `seat`'s turn from this state up to its next roll or the end of its turn (two dice can
    mean two pawn moves, a Barricade move a barricade to place), chosen in one go within one budget, so
    that a turn's later decisions do not queue again behind other games' searches."""
    ruleset = get_ruleset(ruleset_id)
    state = ruleset.from_json(state_json)
    rng = random.Random(seed)
    actions = []
    while True:
        budget = budget_s if submitted is None else remaining_budget(budget_s, submitted, time.time())
        actions.append(choose_action(ruleset, state, seat, level, rng=rng, budget_s=budget))
        state = ruleset.apply(state, actions[-1]).state
        if ruleset.to_move(state) != seat or ruleset.roll_due(state):
            return actions


async def think(ruleset_id: str, state_json: dict[str, Any], seat: int, level: str, budget_s: float = 1.0,
                *, seed: int | None = None, started: float | None = None) -> list[str]:
    """_choose (the seat's actions up to its next roll) in a worker process, within budget_s (or its share
    when many think at once: shared_budget) of `started` (time.time() when the seat's turn began, default
    now: a turn that rolls again keeps to one budget) however long it waits for a worker
    (remaining_budget), bounded by budget_s + GRACE_S; on overrun or failure, the normal level's choice."""
    global _in_flight
    if seed is None:
        seed = secrets.randbits(64)
    loop = asyncio.get_running_loop()
    asked = time.perf_counter()
    _in_flight += 1
    try:
        executor = _pool()   # first: making it starts multiprocessing's resource tracker, which unblocks SIGINT
        with _sigint_blocked():
            future = loop.run_in_executor(executor, _choose, ruleset_id, state_json, seat, level,
                                          shared_budget(budget_s, _in_flight - 1), seed,
                                          time.time() if started is None else started)
        actions = await asyncio.wait_for(future, timeout=budget_s + GRACE_S)
        metrics.THINKING.labels(level, "searched").observe(time.perf_counter() - asked)
        return actions
    except (TimeoutError, BrokenProcessPool) as exc:
        log.warning("computer player (%s, %s) fell back to normal: %r", ruleset_id, level, exc)
        if isinstance(exc, BrokenProcessPool):
            shutdown()
    finally:
        _in_flight -= 1
    actions = await asyncio.to_thread(_choose, ruleset_id, state_json, seat, "normal", None, seed)
    metrics.THINKING.labels(level, "fell back").observe(time.perf_counter() - asked)
    return actions
