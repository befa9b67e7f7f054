"""The Barricade game state: plain, immutable, JSON round-trip exact."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, NamedTuple

START = -1   # a pawn in its start area (BA-1.2)

# Stages of a turn (who acts is `seat`):
ORDER = "order"   # rolling for the order of play (BA-2.2)
START_OF_TURN = "start"   # holding due barricades: place one now, or "roll" first (BA-5.2)
ROLL = "roll"     # a roll is due
MOVE = "move"     # `die` must be used by a pawn (by `bonus` only, on an extra roll)
SIX = "six"       # after a 6: roll again for the same pawn, or stop (BA-4.1)
PLACE = "place"   # after the last move: due barricades must be placed (BA-5.2)
OVER = "over"


class Held(NamedTuple):
    """A barricade taken off the board and not yet placed (BA-5.1 to BA-5.7)."""

    seat: int      # who holds it
    point: int     # where it was taken
    pinned: bool   # the pawn that took it (or captured there) still stands on `point` (BA-5.5)
    due: bool      # must be placed during the holder's current turn


@dataclass(frozen=True)
class State:
    colours: tuple[str, ...]                  # per seat
    pawns: tuple[tuple[int, ...], ...]        # per seat, sorted points (START in the start area)
    barricades: tuple[int, ...]               # sorted points holding a barricade
    held: tuple[Held, ...] = ()               # sorted
    stage: str = ORDER
    seat: int = 0                             # who acts now
    order: tuple[int, ...] = ()               # play order, once settled
    ranking: tuple[tuple[int, ...], ...] = () # ORDER stage: groups, best first; >1 seat = tied
    order_rolls: tuple[tuple[int, int], ...] = ()   # ORDER stage: (seat, value) this round
    die: int | None = None                    # the last roll
    bonus: int | None = None                  # point of the pawn that alone may use the extra roll
    last_move: tuple[int, int, int] | None = None   # (seat, from, to)
    winner: int | None = None

    def evolve(self, **changes: Any) -> State:
        """A copy with `changes`: dataclasses.replace without its per-field work (it ran
        several times per action, a third of a random playout)."""
        assert changes.keys() <= _FIELDS, changes.keys() - _FIELDS
        new = object.__new__(State)
        vars(new).update(vars(self), **changes)
        return new

    def to_json(self) -> dict[str, Any]:
        return {
            "colours": list(self.colours),
            "pawns": [list(p) for p in self.pawns],
            "barricades": list(self.barricades),
            "held": [list(h) for h in self.held],
            "stage": self.stage,
            "seat": self.seat,
            "order": list(self.order),
            "ranking": [list(g) for g in self.ranking],
            "order_rolls": [list(r) for r in self.order_rolls],
            "die": self.die,
            "bonus": self.bonus,
            "last_move": None if self.last_move is None else list(self.last_move),
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        return cls(
            colours=tuple(data["colours"]),
            pawns=tuple(tuple(p) for p in data["pawns"]),
            barricades=tuple(data["barricades"]),
            held=tuple(Held(*h) for h in data["held"]),
            stage=data["stage"],
            seat=data["seat"],
            order=tuple(data["order"]),
            ranking=tuple(tuple(g) for g in data["ranking"]),
            order_rolls=tuple(tuple(r) for r in data["order_rolls"]),
            die=data["die"],
            bonus=data["bonus"],
            last_move=None if data["last_move"] is None else tuple(data["last_move"]),
            winner=data["winner"],
        )


_FIELDS = frozenset(f.name for f in fields(State))
