"""The 68-square Parcheesi rulesets' position (`State`), action codes and square tables, and the
occupancy: who stands where, as ints (bot/games/parcheesi/engine.py plays on them).

Pawn `p` belongs to seat `p // 4`; its position is its progress on its colour's
route (board.py): HOUSE, 0..70 on the track and corridor, GOAL.

Action codes (case-sensitive, at most 9 characters):
- ``r4.5`` / ``r6``   a roll of two dice / one die (the session draws it);
- ``Y2+4``            move pawn 2 of yellow 4 squares (by a die, the total of
                      both dice or a pending bonus: the state makes it unique,
                      since a pending bonus comes before every die);
- ``out``             bring a pawn out of the house onto its start square;
- ``call``            call out an infraction (classic only).
Pawn letters are Y, B, R, G (yellow, blue, red, green), numbers 1 to 4.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import reduce
from operator import getitem, or_
from types import MethodType
from typing import Any, NamedTuple, TypeVar

from bot.games.base import Applied, Message
from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK, board

_BOARD = board()
COLOURS: tuple[str, ...] = _BOARD.colours          # board colour index -> colour id
LETTERS = "YBRG"                                   # one letter per colour, in COLOURS order
assert [c[0].upper() for c in COLOURS] == list(LETTERS)

_TRACK = _BOARD.track_length
_CORRIDOR = GOAL - LAST_TRACK - 1                  # 7 corridor squares
GOAL_SQ = -2                                       # square id of the goal (any number of pawns)
HOUSE_SQ = -1                                      # square id of the house (off the board)


def _square_table(c: int) -> tuple[int, ...]:
    """Square id at each progress of colour c's route; index -1 (= HOUSE) is the house.

    Track square t has id t - 1; corridor square Hk of colour c has id
    68 + 7c + k - 1, so pawns share a square exactly when they share an id."""
    colour = COLOURS[c]
    ids = [_BOARD.track_square(colour, p) - 1 for p in range(LAST_TRACK + 1)]
    ids += [_TRACK + _CORRIDOR * c + k for k in range(_CORRIDOR)]
    return tuple(ids + [GOAL_SQ, HOUSE_SQ])


SQUARE = tuple(_square_table(c) for c in range(len(COLOURS)))
N_SQUARES = _TRACK + _CORRIDOR * len(COLOURS)
# Progress of each square id on colour c's route, -1 when the route skips it.
ROUTE_PROGRESS = tuple(
    tuple(SQUARE[c].index(sq) if sq in SQUARE[c][:GOAL] else -1 for sq in range(N_SQUARES))
    for c in range(len(COLOURS)))
# Safe squares (PM-1.4): the marked track squares and every corridor square.
SAFE = tuple(sq >= _TRACK or (sq + 1) in _BOARD.safe_squares for sq in range(N_SQUARES))
PAWN_CODE = tuple(tuple(f"{LETTERS[c]}{i + 1}" for i in range(4)) for c in range(len(COLOURS)))
_MAX_STEPS = 20
MOVE_CODE = tuple(tuple(tuple(f"{code}+{n}" for n in range(_MAX_STEPS + 1)) for code in codes)
                  for codes in PAWN_CODE)
OUT = "out"
CALL = "call"
ACTION_RE = re.compile(r"r[1-6](\.[1-6])?|[YBRG][1-4]\+[1-9][0-9]?|out|call")

# Kinds of option (what an accepted action does).
MOVE, BONUS, BRING_OUT = 0, 1, 2


class Option(NamedTuple):
    """One accepted action, decoded: what it does and with which resources."""

    kind: int            # MOVE (by dice), BONUS or BRING_OUT
    pawn: int            # pawn moved (the first one brought out)
    src: int             # progress before (HOUSE for a bring-out)
    dst: int             # progress after
    mask: int            # bit i set: die i is spent by this action
    legal: bool = True   # False for an infraction the variant lets pass (PC-9.1)
    victim: int = -1     # pawn captured by this move, -1
    opens: int = -1      # bridge partner left behind when this move opens a bridge (PM-5.3)
    brought_out: int = 1  # pawns brought out (PC-5.2); not `count`, which would hide tuple.count


# Internally an option is a plain tuple in Option's field order (cheaper to build than a
# NamedTuple: most options of a state are never played); `Engine.options` names the fields.
RawOption = tuple[int, int, int, int, int, bool, int, int, int]
LEGAL = 5               # the field of a raw option read by index


class State(NamedTuple):
    """A whole position. Tuples only, so states compare and hash by value."""

    colours: tuple[int, ...]      # board colour index of each seat, in turn order
    teams: bool                   # 2 vs 2: seats 0+2 against 1+3 (PM-10.1)
    pos: tuple[int, ...]          # progress of pawn 4 * seat + i
    arrivals: tuple[int, ...]     # every pawn, earliest arrival on its square first (PM-1.8)
    turn: int                     # seat whose turn it is
    dice: tuple[int, ...]         # the current roll; () while a roll is due
    used: int                     # bit i set: die i is spent
    bonus: tuple[int, ...]        # pending bonuses, the next one first (PM-8.5)
    repeats: int                  # doubles (sixes) rolled in this turn
    last: int                     # pawn moved last in this turn, -1 (PM-5.5)
    locked: int                   # pawn barred from the dice for this roll, -1 (PM-5.3)
    last_move: tuple[int, ...]    # (pawn, from, to) of the latest move, or ()
    winners: tuple[int, ...]      # winning seats; () while the game goes on
    released: tuple[bool, ...]    # seat has had its first bring-out (PC-5.2)
    cheats: tuple[int, ...]       # pawns moved by an infraction in the judged turn (PC-9.4)
    callee: int                   # seat whose turn a call-out judges, -1 (PC-9.3)


# Rarer actions (bring-out, third double, call-out) edit a list copy of the state (a draft)
# by field index, then freeze it once.
(COLOURS_F, TEAMS_F, POS_F, ARRIVALS_F, TURN_F, DICE_F, USED_F, BONUS_F, REPEATS_F, LAST_F, LOCKED_F,
 LAST_MOVE_F, WINNERS_F, RELEASED_F, CHEATS_F, CALLEE_F) = range(len(State._fields))
# State(*fields) and Applied(state, events) from a tuple, without NamedTuple's keyword handling
# (tuple.__new__ bound to the class: a bound method calls it with one argument tuple less than a partial).
# Cheaper than State(...) or a functools.partial, on every action (figures: docs/performance.md).
freeze: Callable[[Iterable[Any]], State] = MethodType(tuple.__new__, State)
applied: Callable[[tuple[State, tuple[Message, ...]]], Applied[State]] = MethodType(tuple.__new__, Applied)


# Who stands where in one position, as ints: (pos, colours, counts, bridges). The number of
# pawns on square id sq sits in bits 2sq and 2sq + 1 of `counts`; `bridges` has the high bit
# of every square held by two pawns of one seat (PM-4.3; partners never make one, PM-10.2);
# pos and colours are the position counted (the memo key, by identity). A move updates it with
# a few integer operations (`Engine._move`). A plain tuple: it is unpacked on every move and option
# search, several times faster than a NamedTuple.
# Faster than a dict square -> pawns rebuilt for every position.
Occupancy = tuple[tuple[int, ...], tuple[int, ...], int, int]


def occupancy(colours: tuple[int, ...], pos: tuple[int, ...]) -> Occupancy:
    """The occupancy of `pos`, counted from scratch: per seat, so that a count of two
    (its high bit) is a bridge."""
    rows = weight_rows(colours)
    seats = [rows[f][pos[f]] + rows[f + 1][pos[f + 1]] + rows[f + 2][pos[f + 2]] + rows[f + 3][pos[f + 3]]
             for f in range(0, len(pos), 4)]
    return pos, colours, sum(seats), reduce(or_, seats) & TWO_BITS


def pawn_at(colours: tuple[int, ...], pos: tuple[int, ...], sq: int) -> int:
    """The (first-numbered) pawn on square id sq, which must be occupied."""
    return list(map(getitem, square_rows(colours), pos)).index(sq)


def pawns_on(colours: tuple[int, ...], pos: tuple[int, ...], arrivals: tuple[int, ...], sq: int) -> list[int]:
    """Pawns on square id sq, earliest arrival first."""
    rows = square_rows(colours)
    return [q for q in arrivals if rows[q][pos[q]] == sq]


_ROWS: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}


def square_rows(colours: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The SQUARE table of each pawn for a seat colouring (cached), except that the
    house and goal get an id of their own per pawn (below -2), so that pawns share
    an id exactly when they share a board square."""
    found = _ROWS.get(colours)
    if found is None:
        found = _ROWS[colours] = tuple(SQUARE[c][:GOAL] + (-3 - 2 * p, -4 - 2 * p)
                                       for p, c in enumerate(c for c in colours for _ in range(4)))
    return found


# An occupancy's counts: pawn weight 1 << 2sq on board square sq, 0 in the house and the goal.
SHIFT = tuple(tuple(2 * sq for sq in SQUARE[c][:GOAL]) for c in range(len(COLOURS)))
WEIGHTS = tuple(tuple(1 << n for n in shifts) + (0, 0) for shifts in SHIFT)
TWO_BITS = int("10" * N_SQUARES, 2)     # the high bit of every square's count: two pawns there
# HIGH[c][k]: the high bits of colour c's squares at progress 1..k (k = GOAL: up to the last
# square), so that (HIGH[c][dst] - HIGH[c][src]) & bridges is a bridge on the way (PM-4.3).
HIGH = tuple(tuple(sum(2 << n for n in shifts[1:k + 1]) for k in range(GOAL)) + (sum(2 << n for n in shifts[1:]),)
             for shifts in SHIFT)
# BOTH_BITS[c][k]: both bits of the square at colour c's progress k; 0 for the goal.
BOTH_BITS = tuple(tuple(3 << n for n in shifts) + (0,) for shifts in SHIFT)
# REACH[c][src][n]: the bits of an occupancy's counts that, all clear, let a pawn of colour c at
# progress src move n squares at once: the high bit of every square on the way (no two pawns
# there, so no bridge) and both bits of the destination (nobody there). Beyond the goal it is
# the pawn's own square (never clear). REACH[c][GOAL], which is also REACH[c][HOUSE] (index
# -1), is None: that pawn does not move.
# A free way to an empty square, the common case, costs one big-int AND instead of a walk over the squares.
REACH = tuple(tuple(tuple(high[src + n] - high[src] | square[src + n] if src + n <= GOAL else square[src]
                          for n in range(_MAX_STEPS + 1)) for src in range(GOAL)) + (None,)
              for high, square in zip(HIGH, BOTH_BITS))
# What engine_moves.moves reads of colour c's route, in one lookup.
ROUTE_TABLES = tuple(zip(SHIFT, HIGH, BOTH_BITS, REACH))
# SEAT_PAWNS[seat][c]: (pawn, its action codes) of each pawn of a seat of colour c (a tuple to
# iterate costs less than counting pawns along zip(pos slice, codes)).
SEAT_PAWNS = tuple(tuple(tuple((4 * seat + i, MOVE_CODE[c][i]) for i in range(4)) for c in range(len(COLOURS)))
                   for seat in range(4))
_WEIGHT_ROWS: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}


def weight_rows(colours: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The weight table of each pawn for a seat colouring (cached)."""
    found = _WEIGHT_ROWS.get(colours)
    if found is None:
        found = _WEIGHT_ROWS[colours] = tuple(WEIGHTS[c] for c in colours for _ in range(4))
    return found


ALL_HOME = (GOAL,) * 4    # a seat's four pawns in the goal


def owner(teams: bool, pos: tuple[int, ...], turn: int) -> int:
    """Seat whose pawns the player to move plays: his own, or his partner's
    once his four pawns are in the goal (PM-10.3)."""
    if teams and pos[4 * turn:4 * turn + 4] == ALL_HOME:
        return (turn + 2) % 4
    return turn


T = TypeVar("T")


def set_at(t: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """`t` with `value` at index i."""
    return t[:i] + (value,) + t[i + 1:]


def new_state(colours: tuple[int, ...], teams: bool, out_at_start: int) -> State:
    """The set-up: `out_at_start` pawns of each seat on its start square, the others in the house."""
    pos = tuple(0 if i < out_at_start else HOUSE for _ in colours for i in range(4))
    return State(colours=colours, teams=teams, pos=pos, arrivals=tuple(range(len(pos))), turn=0, dice=(), used=0,
                 bonus=(), repeats=0, last=-1, locked=-1, last_move=(), winners=(),
                 released=(False,) * len(colours), cheats=(), callee=-1)


def state_to_json(state: State) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in state._asdict().items()}


def state_from_json(data: dict[str, Any]) -> State:
    fields: dict[str, Any] = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items()}
    return State(**fields)
