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
        return f"r{rng.randint(1, 6)}"

    def legal_actions(self, state: ToyState) -> list[str]:
        if state.winner is not None or state.die is None:
            return []
        return [f"m{i}" for i, sq in enumerate(state.pawns[state.turn]) if sq < TRACK]

    def apply(self, state: ToyState, action: str, seat: int | None = None) -> Applied[ToyState]:
        if seat is not None and seat != self.to_move(state):
            raise IllegalAction(msg("error.not_your_turn"))
        if action.startswith("r") and self.roll_due(state):
            die = int(action[1:])
            if not 1 <= die <= 6:
                raise IllegalAction(msg("error.illegal"))
            return Applied(ToyState(state.pawns, state.turn, die))
        if action not in self.legal_actions(state):
            raise IllegalAction(msg("error.illegal"))
        i = int(action[1])
        mine = list(state.pawns[state.turn])
        mine[i] = min(TRACK, mine[i] + state.die)
        pawns = [list(p) for p in state.pawns]
        pawns[state.turn] = mine
        if mine[i] < TRACK:   # capture every opposing pawn on the landing square
            pawns = [[0 if (s != state.turn and sq == mine[i]) else sq for sq in p] for s, p in enumerate(pawns)]
        new_pawns = tuple(tuple(p) for p in pawns)
        if all(sq == TRACK for sq in mine):
            return Applied(ToyState(new_pawns, state.turn, None, winner=state.turn))
        turn = state.turn if state.die == 6 else (state.turn + 1) % len(state.pawns)
        return Applied(ToyState(new_pawns, turn, None))

    def action_label(self, state: ToyState, action: str) -> Message:
        return msg("toy.action", action=action)

    def describe(self, state: ToyState) -> list[Message]:
        return [msg("toy.position", pawns=str(state.pawns))]
