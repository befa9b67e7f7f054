"""Line race's ruleset, pure as every ruleset is (bot/games/base.py), its rules in tests/sixth_game/rules.md: each
player has one pawn on square 0 of a line of LENGTH squares (LR-1); on a turn the player rolls one die (1 to 3),
then moves the pawn that far ("go"), no further than the last square (LR-2); the first pawn on the last square
wins (LR-3). What its board family draws, it hands over as a LineScene (`scene`, the family's contract)."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

from bot.games.base import Applied, IllegalAction, Message, Result, Ruleset, msg

LENGTH = 6
GO = "go"


@dataclass(frozen=True)
class LineState:
    squares: tuple[int, ...]   # each seat's pawn
    turn: int
    die: int | None = None     # rolled, not moved yet


class LineScene(NamedTuple):
    """What stands where, as the board family (tests/sixth_game/board.py) reads it."""

    squares: tuple[int, ...]   # each seat's pawn, by seat


class LineRace(Ruleset):
    id = "line-race"
    name = "game.line-race"
    board_family = "tests.sixth_game.board"
    heuristic = "tests.sixth_game.ai:AHEAD"
    min_players = max_players = 2

    def seat_colours(self, n_players: int, options: dict[str, Any]) -> list[tuple[str, ...]]:
        return [("yellow",), ("blue",)][:n_players]

    def new_game(self, n_players: int, options: dict[str, Any], seed: int) -> LineState:
        return LineState((0,) * n_players, 0)

    def to_json(self, state: LineState) -> dict[str, Any]:
        return {"squares": list(state.squares), "turn": state.turn, "die": state.die}

    def from_json(self, data: dict[str, Any]) -> LineState:
        return LineState(tuple(data["squares"]), data["turn"], data["die"])

    def to_move(self, state: LineState) -> int | None:
        return None if self.result(state) else state.turn

    def result(self, state: LineState) -> Result | None:
        ahead = [seat for seat, square in enumerate(state.squares) if square == LENGTH - 1]
        return Result(tuple(ahead)) if ahead else None

    def roll_due(self, state: LineState) -> bool:
        return self.to_move(state) is not None and state.die is None

    def random_roll(self, state: LineState, rng: random.Random) -> str:
        return f"r{rng.randint(1, 3)}"

    def legal_actions(self, state: LineState) -> list[str]:
        return [GO] if self.to_move(state) is not None and state.die is not None else []

    def apply(self, state: LineState, action: str, seat: int | None = None) -> Applied:
        if seat is not None and seat != self.to_move(state):
            raise IllegalAction(msg("line-race.error.not_your_turn"))
        if self.roll_due(state) and action in ("r1", "r2", "r3"):
            die = int(action[1])
            return Applied(LineState(state.squares, state.turn, die),
                           (msg("line-race.event.rolled", seat=state.turn, die=die),))
        if action not in self.legal_actions(state):
            raise IllegalAction(msg("error.illegal_move", move=action[:40]))
        squares = list(state.squares)
        squares[state.turn] = min(LENGTH - 1, squares[state.turn] + (state.die or 0))   # LR-2: never past the end
        return Applied(LineState(tuple(squares), 1 - state.turn),
                       (msg("line-race.event.moved", seat=state.turn, square=squares[state.turn]),))

    def action_label(self, state: LineState, action: str) -> Message:
        return msg("line-race.action.go", count=state.die or 0)

    def scene(self, state: LineState) -> LineScene:
        """The board family's contract (board.LineGame): each pawn's square."""
        return LineScene(state.squares)

    def describe(self, state: LineState) -> list[Message]:
        return [msg("line-race.describe.square", seat=seat, square=square) for seat, square in enumerate(state.squares)]
