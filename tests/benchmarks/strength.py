"""Strength of the computer players: games between levels, two or four at a table.

Run from the repository root (under `nice -n 10` on a shared machine):

    python -m tests.benchmarks.strength --games 200 --game pariti
    python -m tests.benchmarks.strength --games 2000 --game parcheesi --players 4 --match hard-normal

Without --game, every available ruleset is measured (--game may be repeated).
Two-player matches play N games, the first level taking seat 0 in even games
and seat 1 in odd ones; four-player matches seat the first level once among
three of the second, in seat k % 4 for game k. Game k of every match uses the
same set-up seed and dice seed, so results are reproducible.

The hard level's budget is the work the bot's time budget buys on this
machine: before the games, hard thinks at a fixed work budget over positions
of seeded games, and the work a second buys (positions searched in Pariti,
playouts elsewhere; the median over those positions) becomes the budget of
every hard move, for `--seconds` (default 1.0, the bot's). Games then depend
on seeds and that work budget only, not on the machine's load while they run.
--nodes / --playouts fix the budget instead; --budget adds a real time limit.
Prints, per match, wins-losses-draws of the first level and its win rate with
a 95% Wilson confidence interval, against its target (TARGETS).
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass

from bot.ai import choose_action
from bot.ai.levels import MAX_NODES, MAX_PLAYOUTS, tree_search
from bot.games import get_ruleset
from bot.games.base import Ruleset
from tests.benchmarks.common import machine, rulesets

MATCHES = (("hard", "easy"), ("hard", "normal"))
# A game still running after this many actions counts as a draw.
MAX_ACTIONS = 20_000
# Win rates the hard level must reach: (ruleset or "*", players, match) -> lowest win rate.
TARGETS = {("pariti", 2, ("hard", "normal")): 0.85, ("pariti", 2, ("hard", "easy")): 1.0,
           ("*", 2, ("hard", "normal")): 0.60, ("parcheesi", 4, ("hard", "normal")): 0.30}
# Calibration: the work timed per position, and how many positions.
CALIBRATION_WORK = {"nodes": 20_000, "playouts": 100}
CALIBRATION_POSITIONS = 8


def play_game(ruleset: Ruleset, levels: tuple[str, ...], seed: int, playouts: int | None,
              budget_s: float | None, nodes: int | None = None) -> int | None:
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
                                   budget_s=budget_s, playouts=playouts, nodes=nodes)
        state = ruleset.apply(state, action).state
    return None


def work_unit(ruleset: Ruleset) -> str:
    """What the hard level's budget counts in this game: "nodes" (tree search) or "playouts"."""
    return "nodes" if tree_search(ruleset) else "playouts"


def calibrate(ruleset: Ruleset, seconds: float, players: int = 2) -> int:
    """The work (nodes or playouts) hard does in `seconds` on this machine, from the median time
    of CALIBRATION_WORK over positions of a seeded game of `players` normal players (a playout at
    four runs through three opponents' turns: about three times a two-player one)."""
    unit = work_unit(ruleset)
    work = CALIBRATION_WORK[unit]
    positions, rng = [], random.Random(7)
    state = ruleset.new_game(players, {}, 7)
    while ruleset.result(state) is None and len(positions) < 4 * CALIBRATION_POSITIONS:
        if ruleset.roll_due(state):
            action = ruleset.random_roll(state, rng)
        else:
            if len(ruleset.legal_actions(state)) > 1:
                positions.append(state)
            action = choose_action(ruleset, state, ruleset.to_move(state), "normal", rng=rng)
        state = ruleset.apply(state, action).state
    times = []
    for state in positions[::4][:CALIBRATION_POSITIONS]:
        started = time.process_time()
        choose_action(ruleset, state, ruleset.to_move(state), "hard", rng=random.Random(0), budget_s=None,
                      **{unit: work})
        times.append(time.process_time() - started)
    # The bot's hard level never goes beyond these caps, however fast the machine.
    cap = MAX_NODES if unit == "nodes" else MAX_PLAYOUTS
    return min(cap, max(1, round(work * seconds / statistics.median(times))))


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
    players: int
    index: int
    work: dict[str, int]    # {"nodes": n} or {"playouts": n}
    budget_s: float | None


def seat_levels(match: tuple[str, str], players: int, index: int) -> tuple[int, tuple[str, ...]]:
    """(seat of the match's first level, every seat's level) in game `index`: the first level
    alternates seats in two-player games and sits once among the second level's players otherwise."""
    seat = index % players
    levels = [match[1]] * players
    levels[seat] = match[0]
    return seat, tuple(levels)


def _run(job: _Job) -> tuple[str, tuple[str, str], int]:
    """+1 when the match's first level won, -1 when it lost, 0 for a draw."""
    ruleset = get_ruleset(job.game_id)
    seat, levels = seat_levels(job.match, job.players, job.index)
    winner = play_game(ruleset, levels, 1000 + job.index, job.work.get("playouts"), job.budget_s,
                       job.work.get("nodes"))
    return job.game_id, job.match, 0 if winner is None else (1 if winner == seat else -1)


def target(game_id: str, players: int, match: tuple[str, str]) -> float | None:
    return TARGETS.get((game_id, players, match), TARGETS.get(("*", players, match)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per match (default 200)")
    parser.add_argument("--game", action="append", help="ruleset id (repeatable; default: every available one)")
    parser.add_argument("--match", action="append", help="e.g. hard-easy (repeatable; default: hard-easy, hard-normal)")
    parser.add_argument("--players", type=int, default=2, help="players at each table (default 2)")
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="hard's thinking time a move, as the work it buys here (default 1.0, the bot's)")
    parser.add_argument("--nodes", type=int, help="hard's positions a move in tree searches (instead of --seconds)")
    parser.add_argument("--playouts", type=int, help="hard's playouts a move elsewhere (instead of --seconds)")
    parser.add_argument("--budget", type=float, default=None, help="also a real time limit a move (default: none)")
    parser.add_argument("--first", type=int, default=0,
                        help="index of the first game (default 0): a later run adds other seeds to an earlier one's")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    args = parser.parse_args(argv)

    game_ids = args.game or [r.id for r in rulesets() if r.min_players <= args.players <= r.max_players]
    matches = [tuple(m.split("-")) for m in args.match] if args.match else list(MATCHES)
    print(f"# Strength: {machine()}")
    budgets = {}
    for game_id in game_ids:
        unit = work_unit(get_ruleset(game_id))
        fixed = getattr(args, unit)
        budgets[game_id] = {unit: fixed if fixed else calibrate(get_ruleset(game_id), args.seconds, args.players)}
        how = "fixed" if fixed else f"what {args.seconds:g} s buys on this machine, calibrated"
        print(f"{game_id:20} hard: {budgets[game_id][unit]:,} {unit} a move ({how})"
              + (f", at most {args.budget:g} s" if args.budget else ""))
    jobs = [_Job(g, m, args.players, i, budgets[g], args.budget)
            for g in game_ids for m in matches for i in range(args.first, args.first + args.games)]
    tally: dict[tuple[str, tuple[str, str]], list[int]] = {}
    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for game_id, match, outcome in pool.imap_unordered(_run, jobs, chunksize=1):
            counts = tally.setdefault((game_id, match), [0, 0, 0])
            counts[(1, -1, 0).index(outcome)] += 1
            if sum(counts) % max(1, min(10, args.games // 20)) == 0:   # progress, for runs cut short
                print(f"  ... {game_id} {'-'.join(match)} W-L-D {'-'.join(map(str, counts))} after "
                      f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    seating = ("seats alternated" if args.players == 2
               else f"the first level once among {args.players - 1} of the second, its seat rotated")
    print(f"{args.games} {args.players}-player games per match ({seating}); {elapsed:.0f} s, {args.jobs} processes")
    for game_id in game_ids:
        for match in matches:
            won, lost, drawn = tally.get((game_id, match), [0, 0, 0])
            n = won + lost + drawn
            low, high = wilson(won, n)
            goal = target(game_id, args.players, match)
            verdict = "" if goal is None else (f"  target >= {goal:.0%}: " + ("met" if low >= goal else
                                                "met on the point estimate" if won / max(1, n) >= goal else "MISSED"))
            print(f"{game_id:20} {match[0]:>6} vs {match[1]:<6} W-L-D {won:4}-{lost:4}-{drawn:4}  "
                  f"win rate {won / max(1, n):6.1%}  95% CI [{low:.1%}, {high:.1%}]{verdict}")


if __name__ == "__main__":
    main()
