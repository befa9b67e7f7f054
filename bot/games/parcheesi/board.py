"""The 68-square board shared by the three Parcheesi-family rulesets (PM-1.2 to PM-1.8).

Geometry is read once from data/boards/cross68.json (the one source of truth,
also read by the renderer). A pawn's position is its *progress* along its
route: -1 in the house, 0..63 on the track, 64..70 in its corridor, 71 in the
goal (PM-1.5).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from bot.core.data_files import data_file
from bot.games.base import Message

DATA_FILE = data_file("boards", "cross68.json")

HOUSE = -1
LAST_TRACK = 63   # progress of the colour's last track square
GOAL = 71         # progress of the goal (PM-OP-2)


@dataclass(frozen=True)
class Cross68:
    track_length: int
    colours: tuple[str, ...]
    start_square: dict[str, int]
    safe_squares: frozenset[int]
    track_cells: dict[int, tuple[int, int]]
    corridor_cells: dict[str, tuple[tuple[int, int], ...]]
    houses: dict[str, tuple[tuple[int, int], tuple[int, int]]]
    grid_size: int

    def track_square(self, route: str, progress: int) -> int:
        """Track square (1..68) at `progress` (0..63) on `route` colour's route (PM-1.5)."""
        return (self.start_square[route] - 1 + progress) % self.track_length + 1

    def square_key(self, route: str, progress: int) -> str | None:
        """A key naming the physical square, equal for pawns that share it.

        "t12" for track square 12, "yellow:3" for yellow's corridor square H3,
        "goal" for the goal, None for the house."""
        if progress == HOUSE:
            return None
        if progress <= LAST_TRACK:
            return f"t{self.track_square(route, progress)}"
        if progress < GOAL:
            return f"{route}:{progress - LAST_TRACK}"
        return "goal"

    def is_safe(self, route: str, progress: int) -> bool:
        """Safe track square, corridor square or goal (PM-1.4)."""
        if progress > LAST_TRACK:
            return True
        return progress >= 0 and self.track_square(route, progress) in self.safe_squares


@cache
def board() -> Cross68:
    raw = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    return Cross68(
        track_length=raw["track_length"],
        colours=tuple(raw["colours"]),
        start_square=dict(raw["start_square"]),
        safe_squares=frozenset(raw["safe_squares"]),
        track_cells={int(k): tuple(v) for k, v in raw["track_cells"].items()},
        corridor_cells={c: tuple(tuple(x) for x in v) for c, v in raw["corridor_cells"].items()},
        houses={c: (tuple(v[0]), tuple(v[1])) for c, v in raw["houses"].items()},
        grid_size=raw["grid_size"],
    )


# --- what the renderer needs to draw a position (no rules in here) -----------

@dataclass(frozen=True)
class ScenePawn:
    """One pawn of a Cross68Scene."""

    colour: str        # the pawn's colour (drawn)
    route: str         # whose route it follows (Maghreb: both colours of a side share one)
    progress: int      # HOUSE, 0..70, GOAL
    label: str         # short name printed on the pawn, e.g. "2"


@dataclass(frozen=True)
class Cross68Scene:
    """What stands on the cross board in one position, and what the player to move sees beside it: what
    the three rulesets' `scene` gives renderer/cross68/ to draw."""

    pawns: tuple[ScenePawn, ...]
    dice: tuple[int, ...] = ()              # the current roll, if any
    used_dice: tuple[bool, ...] = ()        # which of `dice` are spent
    last_move: tuple[str, int, int] | None = None   # (route, from progress, to progress)
    notes: tuple[Message, ...] = ()         # e.g. a pending bonus, a call-out window
    extra: dict[str, Any] = field(default_factory=dict)
    any_pair_blocks: bool = False           # any two pieces close a square (MG-8.1), not only two of one side
