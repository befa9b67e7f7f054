"""The building blocks of the 68-square Parcheesi rulesets' accepted actions: moves along a route,
the bonus, bringing out, opening a bridge. Each variant's `_options` (mundijeux.py, classic.py) puts them
together after its priorities."""
from __future__ import annotations

from bot.games.parcheesi.board import GOAL, HOUSE
from bot.games.parcheesi.engine_state import (
    BONUS,
    BRING_OUT,
    MOVE,
    ROUTE_TABLES,
    SAFE,
    SEAT_PAWNS,
    SHIFT,
    TWO_BITS,
    WEIGHTS,
    Occupancy,
    RawOption,
    State,
    owner,
    pawn_at,
)


def moves(occ: Occupancy, seat: int, steps: tuple[tuple[int, int], ...], into: dict[str, RawOption],
          skip: int = -1, kind: int = MOVE, legal: bool = True, join_own: bool = True) -> None:
    """Add to `into` every move of one of seat's pawns (but `skip`) by n squares in the
    position counted by `occ`, for each (n, dice mask) of `steps` (PM-4.1 to 4.6, PM-8.3, PM-8.4);
    a bonus (`kind` BONUS) ends on an own pawn only if `join_own` (PC-8.3; PM-8.4 says no)."""
    pos, colours, counts, bridges = occ
    c = colours[seat]
    shift, high, square, reach_from = ROUTE_TABLES[c]
    for p, row in SEAT_PAWNS[seat][c]:
        src = pos[p]
        reach = reach_from[src]
        if reach is None or p == skip:        # in the house or the goal, or barred
            continue
        for n, mask in steps:
            victim = -1
            if counts & reach[n]:             # someone on the way or on dst, or dst beyond the goal
                dst = src + n
                if dst > GOAL or bridges and (high[dst] - high[src]) & bridges:
                    continue
                if counts & square[dst]:      # someone on the destination (never on the goal)
                    at = shift[dst]
                    if counts >> at & 2:      # two pawns: full (PM-4.4)
                        continue
                    if dst in pos[4 * seat:4 * seat + 4]:    # an own pawn
                        if kind == BONUS and not join_own:
                            continue
                    elif not SAFE[at >> 1]:
                        victim = pawn_at(colours, pos, at >> 1)
            into[row[n]] = (kind, p, src, src + n, mask, legal, victim, -1, 1)

def bonus_options(s: State, occ: Occupancy, join_own: bool) -> dict[str, RawOption]:
    """The moves by the pending bonus (PM-8.3, PC-8.3), which comes before the dice."""
    found: dict[str, RawOption] = {}
    moves(occ, owner(s.teams, s.pos, s.turn), ((s.bonus[0], 0),), found, kind=BONUS, join_own=join_own)
    return found

def bring_out_option(s: State, seat: int, mask: int, count: int = 1) -> RawOption | None:
    """Bringing out with the dice of `mask`, if a pawn is in the house and the start
    square (progress 0) is not held by two own pawns (PM-6.1, PM-6.3, PC-5.4)."""
    first = 4 * seat
    pos = s.pos
    mine = pos[first:first + 4]
    if HOUSE not in mine or mine.count(0) == 2:
        return None
    return BRING_OUT, pos.index(HOUSE, first), HOUSE, 0, mask, True, -1, -1, count

def bridge_openings(s: State, occ: Occupancy, seat: int, steps: tuple[tuple[int, int], ...]) -> dict[str, RawOption]:
    """Moves of one pawn out of an own bridge by one of `steps` (PM-5.2, PC-6.3)."""
    found: dict[str, RawOption] = {}
    first = 4 * seat
    mine = s.pos[first:first + 4]
    c = s.colours[seat]
    weight = WEIGHTS[c]
    own = (weight[mine[0]] + weight[mine[1]] + weight[mine[2]] + weight[mine[3]]) & TWO_BITS   # own bridges
    if not own:
        return found
    shift = SHIFT[c]
    partner_of: dict[int, int] = {}
    for i, x in enumerate(mine):
        if 0 <= x < GOAL and own >> shift[x] & 2:
            partner_of[first + i] = first + (mine.index(x) if mine.index(x) != i else mine.index(x, i + 1))
    found_moves: dict[str, RawOption] = {}
    moves(occ, seat, steps, found_moves)
    for code, (kind, p, src, dst, mask, legal, victim, _, count) in found_moves.items():
        if p in partner_of:
            found[code] = kind, p, src, dst, mask, legal, victim, partner_of[p], count
    return found
