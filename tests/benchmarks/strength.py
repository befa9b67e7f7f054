"""Strength of the computer players: two-player games between levels.

Run from the repository root:

    python -m tests.benchmarks.strength --games 200 --game parcheesi

Without --game, every available ruleset is measured (--game may be repeated).
Each match plays N games, the first level taking seat 0 in even games and
seat 1 in odd ones; game k of every match uses the same set-up seed and dice
seed, so results are reproducible. The hard level runs a fixed number of
playouts per move (--playouts, default 24) rather than a time budget, so
figures do not depend on the machine's load; --budget adds a time limit.
Prints, per match, wins-losses-draws of the first level and its win rate
with a 95% Wilson confidence interval.
Targets (issue 7): hard beats easy in >= 70% of the games of every ruleset,
and beats normal more often than it loses.
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import time
from dataclasses import dataclass

from bot.ai import choose_action
from bot.games import GAME_IDS, get_ruleset
from bot.games.base import Ruleset

MATCHES = (("hard", "easy"), ("hard", "normal"))
# A game still running after this many actions counts as a draw.
MAX_ACTIONS = 20_000


def play_game(ruleset: Ruleset, levels: tuple[str, ...], seed: int, playouts: int | None,
              budget_s: float | None) -> int | None:
    """Winner seat of one game (None for a draw): dice and players seeded from `seed`."""
    dice = random.Random(seed)
    players = [random.Random(seed * 31 + seat) for seat in range(len(levels))]
    state = ruleset.new_game(len(levels), {}, seed)
    for _ in range(MAX_ACTIONS):
        result = ruleset.result(state)
        if result is not None:
            return None if result.draw else result.winners[0]
        seat = ruleset.to_move(state)
        if ruleset.roll_due(state):
            action = ruleset.random_roll(state, dice)
        else:
            action = choose_action(ruleset, state, seat, levels[seat], rng=players[seat],
                                   budget_s=budget_s, playouts=playouts)
        state = ruleset.apply(state, action).state
    return None


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class _Job:
    game_id: str
    match: tuple[str, str]
    index: int
    playouts: int | None
    budget_s: float | None


def _run(job: _Job) -> tuple[str, tuple[str, str], int]:
    """+1 when the match's first level won, -1 when it lost, 0 for a draw."""
    ruleset = get_ruleset(job.game_id)
    first_seat = job.index % 2
    levels = (job.match[0], job.match[1]) if first_seat == 0 else (job.match[1], job.match[0])
    winner = play_game(ruleset, levels, 1000 + job.index, job.playouts, job.budget_s)
    return job.game_id, job.match, 0 if winner is None else (1 if winner == first_seat else -1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per match (default 200)")
    parser.add_argument("--game", action="append", help="ruleset id (repeatable; default: every available one)")
    parser.add_argument("--match", action="append", help="e.g. hard-easy (repeatable; default: hard-easy, hard-normal)")
    parser.add_argument("--playouts", type=int, default=24, help="hard level playouts per move (default 24)")
    parser.add_argument("--budget", type=float, default=None, help="hard level seconds per move (default: none)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    args = parser.parse_args(argv)

    game_ids = args.game or list(GAME_IDS)
    matches = [tuple(m.split("-")) for m in args.match] if args.match else list(MATCHES)
    jobs = [_Job(g, m, i, args.playouts, args.budget) for g in game_ids for m in matches for i in range(args.games)]
    tally: dict[tuple[str, tuple[str, str]], list[int]] = {}
    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for game_id, match, outcome in pool.imap_unordered(_run, jobs, chunksize=2):
            tally.setdefault((game_id, match), [0, 0, 0])[(1, -1, 0).index(outcome)] += 1
    elapsed = time.perf_counter() - started
    print(f"{args.games} two-player games per match, hard: {args.playouts} playouts"
          + (f", {args.budget}s" if args.budget else "") + f" per move; {elapsed:.0f}s")
    for game_id in game_ids:
        for match in matches:
            won, lost, drawn = tally.get((game_id, match), [0, 0, 0])
            n = won + lost + drawn
            low, high = wilson(won, n)
            print(f"{game_id:20} {match[0]:>6} vs {match[1]:<6} W-L-D {won:3}-{lost:3}-{drawn:3}  "
                  f"win rate {won / max(1, n):6.1%}  95% CI [{low:.1%}, {high:.1%}]")


if __name__ == "__main__":
    main()
