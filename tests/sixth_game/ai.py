"""Line race's heuristic for computer players: how far ahead of the other pawn a seat's pawn is."""
from __future__ import annotations

from bot.ai.heuristics import Heuristic
from bot.games.base import Ruleset
from tests.sixth_game.rules import LineState


def _ahead(ruleset: Ruleset, state: LineState, seat: int) -> float:
    return float(state.squares[seat] - state.squares[1 - seat])


AHEAD = Heuristic(_ahead, scale=2.0)
