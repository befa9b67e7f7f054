"""Barricade end to end: a whole two-player game through the fake Discord.

Moves are picked pawn first (a select of pawns, then the pawn's destinations on a focused board);
a taken barricade is placed through the select of areas, then the point. The "roll first, place
after moving" button and the again / stop buttons after a 6 are each used at least once.
"""

import pytest

from bot.games.barricade.board import standard_board
from renderer.barricade import BAR_RGB, GOAL_RGB, centre
from tests.e2e.table import Table, check_png, save_png, stored, two_players

pytestmark = pytest.mark.e2e

BOARD = standard_board()
COLOURS = ("red", "yellow")          # the two-player colour set of data/boards/barricade.json
CHOICES_ONCE = ("roll", "again", "stop")


def steps_to_goal() -> dict[int, int]:
    """Points' distance to the goal along the lines, barricades ignored."""
    distance, frontier = {BOARD.goal: 0}, [BOARD.goal]
    while frontier:
        reached = []
        for point in frontier:
            for nxt in BOARD.neighbours[point]:
                if nxt not in distance:
                    distance[nxt] = distance[point] + 1
                    reached.append(nxt)
        frontier = reached
    return distance


def near(rgb: tuple[int, int, int], tolerance: int = 40):
    return lambda pixel: all(abs(a - b) <= tolerance for a, b in zip(pixel, rgb))


class Policy:
    """Mostly towards the goal, barricades put back low (a random game lasts thousands of moves);
    each special choice tried once."""

    def __init__(self, table: Table):
        self.table = table
        self.distance = steps_to_goal()

    def __call__(self, value: str) -> float:
        if value in CHOICES_ONCE:
            return 100 if value not in {c.value for c in self.table.played} else 0
        if "-" in value and not value.startswith("rows:"):   # a move "e5-g7": where it ends
            return -self.distance[BOARD.index[value.split("-")[1]]]
        if value in BOARD.index:                              # a pawn: the most advanced first
            return -self.distance[BOARD.index[value]]
        if value.startswith("rows:"):                         # barricades low, out of the way
            return -int(value[5:].split("-")[0])
        if value.startswith("bar:"):
            return -int(value[5:])
        return 0


async def test_two_users_play_a_whole_game(fake_discord, bot_process):
    """BA rules through Discord: pawn then destination, area then point, roll-first, again/stop, a winner."""
    fake_discord.quiet = 0.1
    players = two_players(fake_discord)
    table = Table(fake_discord, players, "barricade", seed=5, greed=0.95)
    table.score = Policy(table)
    first = await table.open()
    goal, barricade = centre(BOARD, BOARD.goal), centre(BOARD, BOARD.black_points[0])
    table.opened(first, COLOURS, probes=[(goal, near(GOAL_RGB)), (barricade, near(BAR_RGB))])

    await table.play_to_the_end(limit=900)
    table.ended(bot_process.database, COLOURS)
    focused = table.panels   # as shown: each panel is closed by its move
    areas = [m for m in focused if any(":bar:" in cid for cid in m.custom_ids)]
    pawns = [m for m in focused if m not in areas]
    for name, message in (("pawn", pawns[-1]), ("area", areas[-1])):
        check_png(message.files[0].bytes, COLOURS)
        save_png(message.files[0].bytes, f"/tmp/e2e_barricade_focus_{name}.png")
    _, actions = stored(bot_process.database)

    picked = {(c.kind, c.value) for c in table.played}
    assert any(kind == "g" and (value in BOARD.index or value == "start") for kind, value in picked), "no pawn picked"
    assert any(kind == "g" and value.startswith("rows:") for kind, value in picked), "no area picked"
    log = [(seat, action) for _, _, seat, _, action, *_ in actions]
    for special in CHOICES_ONCE:
        assert ("a", special) in picked, f"{special!r} was never offered"
        at = next(i for i, (_, action) in enumerate(log) if action == special)
        seat, following = log[at][0], log[at + 1]
        if special == "stop":   # the turn passes, once a barricade taken on the way is placed
            assert following[0] != seat or following[1].startswith("bar:"), log[at:at + 2]
        else:                   # the same player rolls at once; a held barricade is placed later
            assert following == (seat, following[1]) and following[1].startswith("roll:"), log[at:at + 2]
    for turn in (_turn(log, i) for i, (_, action) in enumerate(log) if action == "roll"):
        placed = any(action.startswith("bar:") for _, action in turn)
        assert placed or turn[-1] == log[-1], f"the held barricade was not placed after moving: {turn}"


def _turn(log: list[tuple[int, str]], start: int) -> list[tuple[int, str]]:
    """The actions of the seat at `start` until another seat acts."""
    seat = log[start][0]
    end = next((i for i in range(start, len(log)) if log[i][0] != seat), len(log))
    return log[start:end]
