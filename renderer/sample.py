"""`python -m renderer.sample docs/board.png`: the board picture the README shows, drawn by the
current renderer (a test keeps the committed file equal to what this writes).

A four-player Parcheesi game of seeded random moves, stopped mid-game, with the last round of
moves traced as the player to move sees them.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

from bot.games import get_ruleset
from renderer import PlayerTag, render_png

GAME, SEED, ACTIONS, TRACED = "parcheesi", 7, 124, 12
NAMES = ("Éloïse", "Bob", "Computer (hard)", "Dmitri")


def sample_png() -> bytes:
    ruleset = get_ruleset(GAME)
    assert ruleset is not None
    state, rng = ruleset.new_game(4, {}, SEED), random.Random(SEED)
    positions = [state]
    for _ in range(ACTIONS):
        action = ruleset.random_roll(state, rng) if ruleset.roll_due(state) else rng.choice(ruleset.legal_actions(state))
        state = ruleset.apply(state, action).state
        positions.append(state)
    to_move, colours = ruleset.to_move(state), ruleset.seat_colours(4, {})
    players = [PlayerTag(NAMES[i], colours[i], to_move == i) for i in range(4)]
    return render_png(ruleset, state, players, "en", history=positions[-TRACED:])


def main(argv: list[str]) -> int:
    target = Path(argv[0] if argv else "board.png")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(sample_png())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
