"""A tiny race game for testing computer players without a real ruleset.

Each seat has two pawns at 0 on its own track of TRACK squares, all tracks
sharing squares 1..TRACK-1 (a capture sends the pawn landed on back to 0).
One die: the mover picks a pawn ("m0"/"m1") to advance by the roll; a move
past TRACK stops at TRACK (home, safe). A 6 rolls again. No move: the turn
passes. First seat with both pawns home wins.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bot.games.base import Applied, IllegalAction, Message, Result, Ruleset, msg

TRACK = 16
MOVES = {"m0": 0, "m1": 1}
ROLL_ACTIONS = ("r1", "r2", "r3", "r4", "r5", "r6")


@dataclass(frozen=True)
class ToyState:
    pawns: tuple[tuple[int, int], ...]   # per seat, each pawn's square (0 = start, TRACK = home)
    turn: int
    die: int | None                      # rolled value waiting to be used, None when a roll is due
    winner: int | None = None


class ToyRace(Ruleset[ToyState]):
    id = "toy-race"
    name = "game.toy-race"
    min_players = 2
    max_players = 4

    def seat_colours(self, n_players: int, options: dict[str, Any]) -> list[tuple[str, ...]]:
        return [(c,) for c in ("yellow", "blue", "red", "green")[:n_players]]

    def new_game(self, n_players: int, options: dict[str, Any], seed: int) -> ToyState:
        return ToyState(pawns=((0, 0),) * n_players, turn=0, die=None)

    def to_json(self, state: ToyState) -> dict[str, Any]:
        return {"pawns": [list(p) for p in state.pawns], "turn": state.turn, "die": state.die, "winner": state.winner}

    def from_json(self, data: dict[str, Any]) -> ToyState:
        return ToyState(tuple(tuple(p) for p in data["pawns"]), data["turn"], data["die"], data["winner"])

    def to_move(self, state: ToyState) -> int | None:
        return None if state.winner is not None else state.turn

    def result(self, state: ToyState) -> Result | None:
        return None if state.winner is None else Result((state.winner,))

    def roll_due(self, state: ToyState) -> bool:
        return state.winner is None and state.die is None

    def random_roll(self, state: ToyState, rng: random.Random) -> str:
        return rng.choice(ROLL_ACTIONS)   # the draw of rng.randint(1, 6), cheaper

    def legal_actions(self, state: ToyState) -> list[str]:
        if state.winner is not None or state.die is None:
            return []
        return [action for action, sq in zip(MOVES, state.pawns[state.turn]) if sq < TRACK]

    def apply(self, state: ToyState, action: str, seat: int | None = None) -> Applied[ToyState]:
        # Written for speed (the computer players' tests play hundreds of thousands of these moves): the
        # checks of legal_actions, without building its list.
        turn, die = state.turn, state.die
        if seat is not None and (state.winner is not None or seat != turn):
            raise IllegalAction(msg("error.not_your_turn"))
        if state.winner is not None:
            raise IllegalAction(msg("error.illegal"))
        if die is None:   # a roll is due
            rolled = int(action[1:]) if action.startswith("r") else 0
            if not 1 <= rolled <= 6:
                raise IllegalAction(msg("error.illegal"))
            return Applied(ToyState(state.pawns, turn, rolled))
        mine = state.pawns[turn]
        i = MOVES.get(action)
        if i is None or i >= len(mine) or mine[i] >= TRACK:
            raise IllegalAction(msg("error.illegal"))
        square = min(TRACK, mine[i] + die)
        moved = (square, mine[1]) if i == 0 else (mine[0], square)
        if square < TRACK:   # capture every opposing pawn on the landing square
            pawns = tuple(moved if s == turn else ((0 if p[0] == square else p[0]), (0 if p[1] == square else p[1]))
                          for s, p in enumerate(state.pawns))
        else:
            pawns = state.pawns[:turn] + (moved,) + state.pawns[turn + 1:]
        if moved == (TRACK, TRACK):
            return Applied(ToyState(pawns, turn, None, winner=turn))
        return Applied(ToyState(pawns, turn if die == 6 else (turn + 1) % len(pawns), None))

    def action_label(self, state: ToyState, action: str) -> Message:
        return msg("toy.action", action=action)

    def describe(self, state: ToyState) -> list[Message]:
        return [msg("toy.position", pawns=str(state.pawns))]
