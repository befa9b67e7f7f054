"""Hard computer players under load: how long after its turn starts a computer's move is ready.

    python -m tests.benchmarks.thinking --games 200 --seconds 60

Each of `--games` tables alternates a person, who thinks an exponential time (mean `--pace`
seconds, the e2e benchmark's human pace), and a hard computer player, whose turn is the decisions
of one real turn (taken from seeded games), asked of `bot.ai.think` as bot/services/play.py asks
them: once per roll (the pool chooses every move up to the next roll in one request), every
request within the budget from the turn's start, the whole turn timed from that start. The rulesets
take the tables in turn. The bot's worker pool (bot/ai/pool.py) does the thinking; this process's
event loop only waits, and its lag is measured too (a search that
blocked it would show there). Prints the p50 / p99 / max time from a turn's start to its last
answer, overall and per ruleset: the board is posted after that, plus the bot's own move path
(docs/performance.md, "first response").
"""
from __future__ import annotations

import argparse
import asyncio
import random
import time

from bot import ai
from bot.games.base import Ruleset
from tests.benchmarks.common import percentile, rulesets

BUDGET_S = 1.0   # the bot's thinking time a move (Services' think_budget_s)


def computer_turns(ruleset: Ruleset, seed: int, count: int) -> list[list[dict]]:
    """Up to `count` turns of seeded normal-vs-normal play, each as the JSON states where the seat asks
    the pool to think (bot/services/play.py): the turn's first decision and the first after each roll."""
    rng = random.Random(seed)
    state = ruleset.new_game(2, {}, seed)
    turns: list[list[dict]] = [[]]
    mover, asked = ruleset.to_move(state), False
    while ruleset.result(state) is None and len(turns) <= count:
        seat = ruleset.to_move(state)
        if seat != mover:
            turns.append([])
            mover, asked = seat, False
        if ruleset.roll_due(state):
            action, asked = ruleset.random_roll(state, rng), False
        else:
            if not asked and len(ruleset.legal_actions(state)) > 1:
                turns[-1].append(ruleset.to_json(state))
                asked = True
            action = ai.choose_action(ruleset, state, seat, "normal", rng=rng)
        state = ruleset.apply(state, action).state
    return [turn for turn in turns if turn][:count]


async def table(ruleset: Ruleset, turns: list[list[dict]], pace: float, until: float, rng: random.Random,
                found: list[tuple[str, float]]) -> None:
    for requests in turns:
        await asyncio.sleep(rng.expovariate(1 / pace))
        if time.monotonic() > until:
            return
        started = time.time()
        for state_json in requests:
            state = ruleset.from_json(state_json)
            await ai.think(ruleset.id, state_json, ruleset.to_move(state), "hard", BUDGET_S, seed=rng.getrandbits(64),
                           started=started)
        found.append((ruleset.id, time.time() - started))


async def loop_lag(until: float, lags: list[float], period: float = 0.05) -> None:
    """How late the event loop wakes up: what a blocking search would make the bot's other games wait."""
    while time.monotonic() < until:
        before = time.monotonic()
        await asyncio.sleep(period)
        lags.append(time.monotonic() - before - period)


async def run(games: int, seconds: float, pace: float) -> None:
    chosen = rulesets()
    turns = {r.id: computer_turns(r, 1, 60) for r in chosen}
    found: list[tuple[str, float]] = []
    lags: list[float] = []
    await ai.think(chosen[0].id, turns[chosen[0].id][0][0], chosen[0].to_move(chosen[0].from_json(
        turns[chosen[0].id][0][0])), "hard", 0.05)   # start the workers before the clock runs
    until = time.monotonic() + seconds
    await asyncio.gather(loop_lag(until, lags), *(
        table(r, turns[r.id][i % 7:] + turns[r.id][:i % 7], pace, until, random.Random(i), found)
        for i, r in ((i, chosen[i % len(chosen)]) for i in range(games))))
    ai.pool.shutdown()
    print(f"{games} tables, a person thinking {pace:g} s on average against a hard computer ({BUDGET_S:g} s a move,"
          f" {ai.pool.MAX_WORKERS} worker processes), {seconds:g} s: {len(found)} computer turns")
    by_game = [(r.id, [t for g, t in found if g == r.id]) for r in chosen]
    for name, times in [("all", [t for _, t in found]), *by_game]:
        print(f"  {name:<18} turns {len(times):5}  turn start to move ready: "
              f"p50 {percentile(times, 0.5) * 1000:6.0f} ms  p99 {percentile(times, 0.99) * 1000:6.0f} ms  "
              f"max {max(times, default=float('nan')) * 1000:6.0f} ms")
    print(f"  event loop lag: p99 {percentile(lags, 0.99) * 1000:.0f} ms, max {max(lags) * 1000:.0f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="tables at once (default 200)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to measure (default 60)")
    parser.add_argument("--pace", type=float, default=10.0, help="a person's mean thinking time (default 10 s)")
    args = parser.parse_args(argv)
    asyncio.run(run(args.games, args.seconds, args.pace))


if __name__ == "__main__":
    main()
