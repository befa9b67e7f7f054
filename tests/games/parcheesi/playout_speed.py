"""Random-playout speed of a 68-square ruleset through the public API (not a test).

    python -m tests.games.parcheesi.playout_speed [parcheesi|parcheesi-classic] [seconds]

A turn is one player's whole turn. CPU time is measured, so that other processes
on the machine weigh less on the figure.
"""
from __future__ import annotations

import random
import sys
import time

from bot.games import get_ruleset


def turns_per_second(game_id: str, seconds: float) -> tuple[float, int]:
    ruleset = get_ruleset(game_id)
    rng = random.Random(1)
    turns = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        players = rng.choice((2, 3, 4))
        options = {"teams": True} if game_id == "parcheesi" and players == 4 and rng.random() < 0.5 else {}
        s = ruleset.new_game(players, options, 0)
        while ruleset.result(s) is None:
            seat = s.turn
            action = ruleset.random_roll(s, rng) if ruleset.roll_due(s) else rng.choice(ruleset.legal_actions(s))
            s = ruleset.apply(s, action).state
            turns += s.turn != seat or ruleset.result(s) is not None
        games += 1
    return turns / (time.process_time() - start), games


if __name__ == "__main__":
    game = sys.argv[1] if len(sys.argv) > 1 else "parcheesi"
    rate, n = turns_per_second(game, float(sys.argv[2]) if len(sys.argv) > 2 else 5)
    sys.stdout.write(f"{game}: {rate:,.0f} turns/s over {n} games\n")
