"""Line race's entries where a real game has its own: its hard position for the gallery (an entry of
renderer/sample.py's HARD, drawn into docs/boards/ for a person to look at) and its row of the README's games
table. A real game's go into those files; the sixth game, registered by the tests alone, keeps them here."""
from renderer.sample import Hard

SAMPLE = Hard("line-race-ahead", "line-race", "Line race: one pawn ahead of the other, each in its lane", 3,
              lambda plan: len({item.square for item in plan.of("piece")}) == 2, traced=2, skip=4)

README_ROW = ("| Line race (`line-race`) | 2 | 1 die of three faces; a race on a line |"
              " [rules.md](tests/sixth_game/rules.md) (LR) |")
