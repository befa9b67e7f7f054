"""Parchís Maghreb's moves (parchis-maghreb.md, MG): who stands where (the occupancy, with its doors),
where a move lands, the legal actions after the priorities of MG-5 and MG-6, the physically possible
ones a cheater may play (MG-10.1), and who may call out (MG-10.3). maghreb.py plays them."""
from __future__ import annotations

from bot.games.parcheesi.board import GOAL, HOUSE
from bot.games.parcheesi.maghreb_state import (
    COUNT,
    DIE,
    KEYS,
    PIECE_KEYS,
    PIECES_PER_SEAT,
    ROLL,
    SAFE,
    START,
    Action,
    MaghrebState,
    move_code,
    out_code,
    parse,
    piece_code,
)

NO_EAT = -1       # where a move lands without eating (reach)


class Occupancy(dict[int, tuple[int, ...]]):
    """Pieces on each physical square (the exit is not a square), and the doors (MG-4.3):
    the squares holding two pieces, whoever owns them."""

    __slots__ = ("doors",)
    doors: list[int]


def occupancy(pieces: tuple[int, ...]) -> Occupancy:
    occ = Occupancy()
    doors = []
    for i, p in enumerate(pieces):
        if 0 <= p < GOAL:
            key = PIECE_KEYS[i][p]
            here = occ.get(key)
            if here:
                occ[key] = (here[0], i)
                doors.append(key)
            else:
                occ[key] = (i,)
    occ.doors = doors
    return occ


# Progress of each physical square on each player's route (MG-1.5).
_PROGRESS = tuple({key: p for p, key in enumerate(keys)} for keys in KEYS)


def reach(occ: Occupancy, owner: int, progress: int, distance: int, strict: bool) -> int | None:
    """Where a move of `owner`'s piece lands: None if impossible, else the piece it eats or NO_EAT.

    Every move must fit before the exit and end beside at most one piece (MG-4.2, MG-4.5);
    a `strict` (legal) move may not pass a door either (MG-4.3). From HOUSE, the path
    includes the start square (first-turn entry, MG-3.1)."""
    target = progress + distance
    if target > GOAL:
        return None
    if strict and occ.doors:
        on_route = _PROGRESS[owner]
        for key in occ.doors:
            if progress < on_route.get(key, GOAL) < target:
                return None
    if target == GOAL:
        return NO_EAT
    here = occ.get(KEYS[owner][target], ())
    if len(here) >= 2:
        return None
    if here and here[0] >> 3 != owner and not SAFE[owner][target]:
        return here[0]
    return NO_EAT


def own_pieces(seat: int) -> range:
    return range(seat * PIECES_PER_SEAT, (seat + 1) * PIECES_PER_SEAT)


def house_piece(pieces: tuple[int, ...], colour: int) -> int:
    """The lowest-numbered piece of `colour` in the house, or -1."""
    for i in range(colour * 4, colour * 4 + 4):
        if pieces[i] == HOUSE:
            return i
    return -1


def own_at_start(occ: Occupancy, seat: int) -> int:
    return sum(1 for i in occ.get(START[seat], ()) if i >> 3 == seat)


def first_roll(s: MaghrebState) -> bool:
    """The die in play is the first roll of the player's first turn (MG-3.1)."""
    return s.turn_no < 2 and s.rolls == 1 and s.phase == DIE


def find_legal(s: MaghrebState, occ: Occupancy) -> tuple[list[str], bool]:
    """The legal actions and whether a 12-move is compulsory (a 6 that eats is then a sacrifice)."""
    if s.winner >= 0 or s.phase == ROLL:
        return [], False
    seat = s.seat
    if s.phase == COUNT:
        return moves_by(s, occ, s.pending[-1]), False      # MG-7.6: no priorities
    die = s.die
    if first_roll(s):   # MG-3.1: the chosen colour enters and moves at once
        return [out_code(c, die) for c in (2 * seat, 2 * seat + 1)
                if house_piece(s.pieces, c) >= 0 and reach(occ, seat, HOUSE, die + 1, True) is not None], False
    if die == 5 and s.turn_no >= 2 and own_at_start(occ, seat) < 2:   # MG-5.1, MG-3.2
        outs = [out_code(c) for c in (2 * seat, 2 * seat + 1) if house_piece(s.pieces, c) >= 0]
        if outs:
            return outs, False
    if die == 6:
        return rule_of_six(s, occ)
    return moves_by(s, occ, die), False

def moves_by(s: MaghrebState, occ: Occupancy, distance: int, eating_only: bool = False) -> list[str]:
    """The legal moves of `distance` squares (only those that eat, if `eating_only`)."""
    out = []
    for i in own_pieces(s.seat):
        p = s.pieces[i]
        if 0 <= p < GOAL:
            landing = reach(occ, s.seat, p, distance, True)
            if landing is not None and (not eating_only or landing != NO_EAT):
                out.append(move_code(i, distance))
    return out

def rule_of_six(s: MaghrebState, occ: Occupancy) -> tuple[list[str], bool]:
    """The legal moves of a 6 and whether a 12-move is compulsory (MG-6.2 to MG-6.7)."""
    seat, pieces = s.seat, s.pieces

    def can(i: int, d: int) -> int | None:
        return reach(occ, seat, pieces[i], d, True)

    on_board = [i for i in own_pieces(seat) if 0 <= pieces[i] < GOAL]
    complete = [c for c in (2 * seat, 2 * seat + 1) if house_piece(pieces, c) < 0]    # MG-6.2
    eligible = [i for i in on_board if i >> 2 in complete]
    on_doors = [i for i in on_board if len(occ[KEYS[seat][pieces[i]]]) == 2]
    sacrifices = [move_code(i, 6) for i in on_doors if can(i, 6) not in (None, NO_EAT)]   # MG-6.7
    open12 = [move_code(i, 12) for i in on_doors if i in eligible and can(i, 12) is not None]
    if open12:                                                       # MG-6.4 (a)
        return open12 + sacrifices, True
    open6 = [move_code(i, 6) for i in on_doors if can(i, 6) is not None]
    if open6:                                                        # MG-6.4 (b)
        return open6, False
    twelve = [move_code(i, 12) for i in eligible if can(i, 12) is not None]
    if twelve:                                                       # MG-6.5 (a), (b)
        return twelve + moves_by(s, occ, 6, eating_only=True), True
    return moves_by(s, occ, 6), False                          # MG-6.5 (c), broken priority


def accepted(s: MaghrebState, occ: Occupancy, legal: list[str]) -> list[str]:
    """The `legal` actions, then every other physically possible one (MG-10.1)."""
    if s.honest or not legal:
        return legal
    seat = s.seat
    candidates = [move_code(i, d) for i in own_pieces(seat) if 0 <= s.pieces[i] < GOAL
                  for d in range(1, GOAL - s.pieces[i] + 1)]
    candidates += [out_code(c) for c in (2 * seat, 2 * seat + 1)]
    if first_roll(s):
        candidates += [out_code(c, s.die) for c in (2 * seat, 2 * seat + 1)]
    known = set(legal)
    return legal + [a for a in candidates if a not in known and physical(s, parse(a), occ)]


def physical(s: MaghrebState, a: Action, occ: Occupancy) -> bool:
    """A move that can be represented on the board (MG-10.1)."""
    seat = s.seat
    if a.kind == "move":
        p = s.pieces[a.piece]
        return a.piece >> 3 == seat and 0 <= p < GOAL and reach(occ, seat, p, a.value, False) is not None
    if a.piece >> 1 != seat or house_piece(s.pieces, a.piece) < 0:
        return False
    if a.value:
        return first_roll(s) and a.value == s.die and reach(occ, seat, HOUSE, a.value + 1, False) is not None
    return own_at_start(occ, seat) < 2


# --- call-outs (MG-10.3) -------------------------------------------------

def caller(s: MaghrebState) -> int:
    """Who may call out now: the opponent of the player whose turn is on record.

    That turn is the current one, or the one just ended until the next roll."""
    return s.seat if s.phase == ROLL and s.rolls == 0 else 1 - s.seat


def call_actions(state: MaghrebState, seat: int) -> list[str]:
    """Any piece of the player whose turn is on record, once that turn has a move (MG-10.3);
    naming one that did not cheat, or did not move, is an invalid call-out (MG-10.5)."""
    if state.winner >= 0 or state.call_used or seat != caller(state) or not state.log:
        return []
    return [f"call:{piece_code(i)}" for i in own_pieces(1 - seat)]
