"""Random-playout speed of a 68-square ruleset through the public API (not a test).

    python -m tests.games.parcheesi.playout_speed [parcheesi|parcheesi-classic] [seconds]

A turn is one player's whole turn. Both CPU time (other processes on the machine
weigh less on it) and wall time are reported. The loop does only what a random
playout needs: whose move, a roll when one is due, else one legal_actions call
and a random choice, then apply.
"""
from __future__ import annotations

import random
import sys
import time

from bot.games import get_ruleset


def playouts(game_id: str, seconds: float) -> tuple[int, int, float, float]:
    """(turns, games, CPU seconds, wall seconds) of random games played for about `seconds` of CPU."""
    ruleset = get_ruleset(game_id)
    to_move, roll_due, random_roll = ruleset.to_move, ruleset.roll_due, ruleset.random_roll
    legal_actions, apply = ruleset.legal_actions, ruleset.apply
    rng = random.Random(1)
    choice = rng.choice
    turns = games = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while time.process_time() - cpu < seconds:
        players = choice((2, 3, 4))
        options = {"teams": True} if game_id == "parcheesi" and players == 4 and rng.random() < 0.5 else {}
        s = ruleset.new_game(players, options, 0)
        seat = to_move(s)
        while seat is not None:
            s = apply(s, random_roll(s, rng) if roll_due(s) else choice(legal_actions(s))).state
            now = to_move(s)
            turns += now != seat          # the turn passed, or the game ended
            seat = now
        games += 1
    return turns, games, time.process_time() - cpu, time.perf_counter() - wall


if __name__ == "__main__":
    game = sys.argv[1] if len(sys.argv) > 1 else "parcheesi"
    turns, games, cpu, wall = playouts(game, float(sys.argv[2]) if len(sys.argv) > 2 else 5)
    sys.stdout.write(f"{game}: {turns / cpu:,.0f} turns/s CPU, {turns / wall:,.0f} turns/s wall over {games} games\n")
