"""How well the hard level's win chances predict who wins: the scale its playouts score with.

Run from the repository root (under `nice -n 10` on a shared machine):

    python -m tests.benchmarks.calibration --game parcheesi --players 4 --games 1500

Plays seeded games of normal players, notes every third position where a roll is due and who won
in the end, and prints the mean log-likelihood of the winners under the heuristic's win chance
(`bot.ai.heuristics.win_chance`), first as the code has it, then for each scale tried (Heuristic.scale;
in Parcheesi, the SCALE_PER_ROOT that its win chance grows with the squares left). Higher is better;
calling every seat equal scores log(1 / players), and a scale that does worse than that is overconfident.
The hard level compares candidates by these chances, so a scale that misreads them misjudges risks.
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import random
from typing import Any

from bot.ai import choose_action
from bot.ai.heuristics import Heuristic, heuristic_for, win_chance
from bot.ai.parcheesi import ENGINE
from bot.games import get_ruleset
from bot.games.base import Ruleset
from tests.benchmarks.common import machine

# The scales tried: Parcheesi's per root of the squares left, the others' in their score's units.
TRIED = {"parcheesi": (3.0, 4.0, 5.0, 5.5, 6.0, 7.0, 8.0),
         "other": (2.0, 4.0, 8.0, 10.0, 12.0, 15.0, 25.0, 35.0, 70.0, 100.0, 120.0, 140.0, 160.0, 200.0)}
SAMPLE_EVERY = 3   # rolls


def positions(ruleset: Ruleset, players: int, games: int) -> list[tuple[Any, int]]:
    """(position, winner) every SAMPLE_EVERY rolls of `games` seeded games of normal players."""
    found = []
    for game in range(games):
        rng, dice = random.Random(game), random.Random(1_000_000 + game)
        state, seen, rolls = ruleset.new_game(players, {}, game), [], 0
        while (result := ruleset.result(state)) is None:
            seat = ruleset.to_move(state)
            assert seat is not None   # an unfinished game has a mover
            if ruleset.roll_due(state):
                if rolls % SAMPLE_EVERY == 0:
                    seen.append(state)
                rolls += 1
                action = ruleset.random_roll(state, dice)
            else:
                action = choose_action(ruleset, state, seat, "normal", rng=rng)
            state = ruleset.apply(state, action).state
        if not result.draw:
            found += [(position, result.winners[0]) for position in seen]
    return found


def log_likelihood(ruleset: Ruleset, heuristic: Heuristic, found: list[tuple[Any, int]]) -> float:
    chances = (win_chance(ruleset, heuristic, state, winner) for state, winner in found)
    return sum(math.log(max(1e-12, chance)) for chance in chances) / len(found)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="parcheesi", help="ruleset id (default parcheesi)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=1500)
    args = parser.parse_args(argv)
    ruleset = get_ruleset(args.game)
    heuristic = heuristic_for(ruleset)
    print(f"# Win-chance calibration: {machine()}")
    found = positions(ruleset, args.players, args.games)
    print(f"{args.game}, {args.players} players: {len(found):,} positions of {args.games:,} games of normal players")
    print(f"every seat equal: {math.log(1 / args.players):.4f}")
    print(f"as the code has it: {log_likelihood(ruleset, heuristic, found):.4f}")
    for value in TRIED["parcheesi" if heuristic is ENGINE else "other"]:
        print(f"scale {value:g}: {log_likelihood(ruleset, dataclasses.replace(heuristic, scale=value), found):.4f}")


if __name__ == "__main__":
    main()
