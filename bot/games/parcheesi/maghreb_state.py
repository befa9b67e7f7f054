"""Parchís Maghreb: the state, the action codes and the board tables (parchis-maghreb.md).

Pieces are indexed 0..15: red 0-3, green 4-7 (player 1), yellow 8-11, blue 12-15
(player 2); `piece >> 3` is the owner, `piece >> 2` the colour. A piece's
position is its progress on its owner's route (MG-1.3, MG-1.4): -1 in the
house, 0..63 on the track, 64..70 in the column, 71 exited.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, NamedTuple

from bot.games.base import IllegalAction, Message, msg
from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK, board

COLOURS = ("red", "green", "yellow", "blue")
LETTERS = "RGYB"
ROUTES = ("red", "yellow")          # all of a player's pieces follow his house's route (MG-1.5)
PIECES_PER_SEAT = 8

# Turn phases.
ROLL = "roll"      # the die must be rolled
DIE = "die"        # the rolled value must be played
COUNT = "count"    # the count on top of `pending` must be played


def _square_keys(route: str, owner: int) -> tuple[int, ...]:
    """Physical square id at each progress 0..70: track square 1..68, column 100 + 10*owner + step."""
    b = board()
    return tuple(b.track_square(route, p) if p <= LAST_TRACK else 100 + 10 * owner + p - LAST_TRACK
                 for p in range(GOAL))


KEYS = tuple(_square_keys(route, o) for o, route in enumerate(ROUTES))
PIECE_KEYS = tuple(KEYS[i >> 3] for i in range(16))
# Safe track squares (MG-1.2); column squares never hold an opponent piece (MG-1.6).
SAFE = tuple(tuple(p > LAST_TRACK or board().is_safe(route, p) for p in range(GOAL)) for route in ROUTES)
START = tuple(keys[0] for keys in KEYS)


class MaghrebState(NamedTuple):
    pieces: tuple[int, ...] = (HOUSE,) * 16
    seat: int = 0                   # player whose turn it is
    turn_no: int = 0                # turns begun; turns 0 and 1 are the players' first turns (MG-3)
    phase: str = ROLL
    die: int = 0                    # last value rolled
    rolls: int = 0                  # rolls made in this turn (the third one may be a third 6, MG-6.8)
    pending: tuple[int, ...] = ()   # counts of 10/20 to play, the top (last) first (MG-7.3)
    sacrifice: bool = False         # the die was played as a sacrifice: no extra roll (MG-6.7)
    last_piece: int = -1            # last piece moved in this turn (MG-6.8)
    last_move: tuple[int, int, int] | None = None   # (piece, from, to) of the last move
    # --- cheating (MG-10): the record of the turn open to a call-out ---
    log: tuple[tuple[int, bool], ...] = ()   # (piece, legal) of every accepted move of that turn
    snapshot: MaghrebState | None = None   # the position just before its first illegal move
    recorded: tuple[int, ...] = ()           # die values rolled after that snapshot
    forced: tuple[int, ...] = ()             # values a caught cheater must roll again, in order
    call_used: bool = False                  # the opponent's one call-out for that turn is spent
    honest: bool = False                     # after a valid call-out: legal moves only
    winner: int = -1
    classy: bool = False                     # MG-9.2

    def to_json(self) -> dict[str, Any]:
        data = self._asdict()
        data["snapshot"] = self.snapshot.to_json() if self.snapshot else None
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MaghrebState:
        return cls(
            pieces=tuple(data["pieces"]), seat=data["seat"], turn_no=data["turn_no"], phase=data["phase"],
            die=data["die"], rolls=data["rolls"], pending=tuple(data["pending"]), sacrifice=data["sacrifice"],
            last_piece=data["last_piece"],
            last_move=tuple(data["last_move"]) if data["last_move"] is not None else None,
            log=tuple((p, legal) for p, legal in data["log"]),
            snapshot=cls.from_json(data["snapshot"]) if data["snapshot"] else None,
            recorded=tuple(data["recorded"]), forced=tuple(data["forced"]), call_used=data["call_used"],
            honest=data["honest"], winner=data["winner"], classy=data["classy"],
        )


# --- action codes ------------------------------------------------------------
# "r4" roll; "R2+4" piece R2 moves 4 (also 12, counts 10/20, any distance when cheating);
# "out:G" a green piece comes out onto the start square; "out:G+3" first-roll entry (MG-3.1);
# "call:R2" call-out naming R2 (MG-10.3).

_ROLL = re.compile(r"r([1-6])")
_MOVE = re.compile(r"([RGYB])([1-4])\+([1-9][0-9]?)")
_OUT = re.compile(r"out:([RGYB])(?:\+([1-6]))?")
_CALL = re.compile(r"call:([RGYB])([1-4])")
_PIECE = re.compile(r"([RGYB])([1-4])")


@dataclass(frozen=True, slots=True)
class Action:
    kind: str           # "roll", "move", "out", "call"
    piece: int = -1     # move, call: the piece; out: the colour index
    value: int = 0      # roll: the die; move: the distance; out: the entry distance (0 = plain bring-out)


@lru_cache(maxsize=4096)   # codes come from a small set; a malformed one raises and is not kept
def parse(action: str) -> Action:
    """The action a code stands for; IllegalAction for anything malformed."""
    if m := _ROLL.fullmatch(action):
        return Action("roll", value=int(m[1]))
    if m := _MOVE.fullmatch(action):
        return Action("move", piece_index(m[1], m[2]), int(m[3]))
    if m := _OUT.fullmatch(action):
        return Action("out", LETTERS.index(m[1]), int(m[2] or 0))
    if m := _CALL.fullmatch(action):
        return Action("call", piece_index(m[1], m[2]))
    raise IllegalAction(msg("maghreb.error.malformed", action=action[:40]))


def parse_piece(code: str) -> int:
    """The piece a code such as "Y2" names; IllegalAction for anything else."""
    if m := _PIECE.fullmatch(code):
        return piece_index(m[1], m[2])
    raise IllegalAction(msg("maghreb.error.malformed", action=code[:40]))


def piece_index(letter: str, number: str) -> int:
    return LETTERS.index(letter) * 4 + int(number) - 1


def piece_code(piece: int) -> str:
    return f"{LETTERS[piece >> 2]}{(piece & 3) + 1}"


def move_code(piece: int, distance: int) -> str:
    return _MOVE_CODES[piece][distance]


_MOVE_CODES = tuple(tuple(f"{piece_code(piece)}+{d}" for d in range(GOAL + 2)) for piece in range(16))


def out_code(colour: int, entry: int = 0) -> str:
    return f"out:{LETTERS[colour]}+{entry}" if entry else f"out:{LETTERS[colour]}"


# --- words -------------------------------------------------------------------

@cache   # Messages are immutable: the frequent ones are built once
def piece_name(piece: int) -> Message:
    return msg("maghreb.piece", colour=COLOURS[piece >> 2], number=(piece & 3) + 1)


@cache
def square_name(owner: int, progress: int) -> Message:
    if progress == HOUSE:
        return msg("maghreb.square.house")
    if progress >= GOAL:
        return msg("maghreb.square.exit")
    if progress > LAST_TRACK:
        return msg("maghreb.square.column", step=progress - LAST_TRACK)
    return msg("maghreb.square.track", square=KEYS[owner][progress])
