"""The rules engine shared by the 68-square Parcheesi rulesets.

`Engine` holds everything the Mundijeux and classic rules really share: the
state, moving along a route, bridges (barriers), captures, bring-outs onto the
start square, bonuses and their chaining, the third double (six), the end of a
roll and of a turn, words and the board view. A variant subclass says which
actions are open before each action (`_options`) and sets a few class
attributes, the way python-chess builds its variant boards on one base board.

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

import random
import re
from functools import cache, reduce
from operator import getitem, or_
from itertools import product
from types import MethodType
from typing import Any, ClassVar, NamedTuple

from bot.games.base import Applied, IllegalAction, Message, Result, Ruleset, joined, msg, skip_event
from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK, Cross68Scene, ScenePawn, board

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
_N_SQUARES = _TRACK + _CORRIDOR * len(COLOURS)
# Progress of each square id on colour c's route, -1 when the route skips it.
ROUTE_PROGRESS = tuple(
    tuple(SQUARE[c].index(sq) if sq in SQUARE[c][:GOAL] else -1 for sq in range(_N_SQUARES))
    for c in range(len(COLOURS)))
# Safe squares (PM-1.4): the marked track squares and every corridor square.
SAFE = tuple(sq >= _TRACK or (sq + 1) in _BOARD.safe_squares for sq in range(_N_SQUARES))
PAWN_CODE = tuple(tuple(f"{LETTERS[c]}{i + 1}" for i in range(4)) for c in range(len(COLOURS)))
_MAX_STEPS = 20
MOVE_CODE = tuple(tuple(tuple(f"{code}+{n}" for n in range(_MAX_STEPS + 1)) for code in codes)
                  for codes in PAWN_CODE)
OUT = "out"
CALL = "call"
_ACTION_RE = re.compile(r"r[1-6](\.[1-6])?|[YBRG][1-4]\+[1-9][0-9]?|out|call")

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
_freeze = MethodType(tuple.__new__, State)
_applied = MethodType(tuple.__new__, Applied)


# Who stands where in one position, as ints: (pos, colours, counts, bridges). The number of
# pawns on square id sq sits in bits 2sq and 2sq + 1 of `counts`; `bridges` has the high bit
# of every square held by two pawns of one seat (PM-4.3; partners never make one, PM-10.2);
# pos and colours are the position counted (the memo key, by identity). A move updates it with
# a few integer operations (`_move`). A plain tuple: it is unpacked on every move and option
# search, several times faster than a NamedTuple.
# Faster than a dict square -> pawns rebuilt for every position.
Occupancy = tuple[tuple[int, ...], tuple[int, ...], int, int]


def occupancy(colours: tuple[int, ...], pos: tuple[int, ...]) -> Occupancy:
    """The occupancy of `pos`, counted from scratch: per seat, so that a count of two
    (its high bit) is a bridge."""
    rows = weight_rows(colours)
    seats = [rows[f][pos[f]] + rows[f + 1][pos[f + 1]] + rows[f + 2][pos[f + 2]] + rows[f + 3][pos[f + 3]]
             for f in range(0, len(pos), 4)]
    return pos, colours, sum(seats), reduce(or_, seats) & _TWO_BITS


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
_WEIGHTS = tuple(tuple(1 << n for n in shifts) + (0, 0) for shifts in SHIFT)
_TWO_BITS = int("10" * _N_SQUARES, 2)     # the high bit of every square's count: two pawns there
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
# What _moves reads of colour c's route, in one lookup.
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
        found = _WEIGHT_ROWS[colours] = tuple(_WEIGHTS[c] for c in colours for _ in range(4))
    return found


def owner(teams: bool, pos: tuple[int, ...], turn: int) -> int:
    """Seat whose pawns the player to move plays: his own, or his partner's
    once his four pawns are in the goal (PM-10.3)."""
    if teams and pos[4 * turn:4 * turn + 4] == _ALL_HOME:
        return (turn + 2) % 4
    return turn


_ALL_HOME = (GOAL,) * 4


class Engine(Ruleset[State]):
    """Base of the 68-square rulesets; subclasses provide `_options` and the knobs below."""

    n_dice: ClassVar[int]                       # dice per roll
    seat_colour_ids: ClassVar[dict[int, tuple[str, ...]]]   # players -> colour ids in turn order
    pawns_out_at_start: ClassVar[int]           # pawns on the start square at setup
    bonus_may_join_own: ClassVar[bool]          # may a bonus end on an own pawn (PM-8.4 says no)
    lone_foreign_captured: ClassVar[bool]       # bring-out onto one foreign pawn captures (PC-5.5 / PM-6.6)
    key: ClassVar[str]                          # i18n prefix of variant wording
    code_colours = COLOURS

    def __init__(self) -> None:
        # Single-entry memo of the options of the last state seen: a playout asks
        # legal_actions(s) and then apply(s, a), and apply needs the new state's options.
        self._memo: tuple[State | None, dict[str, RawOption]] = (None, {})
        # The occupancy of the last position seen; apply carries it from one position to the next.
        self._occ: Occupancy = ((), (), 0, 0)
        # Every roll action, e.g. "r4.5", and its dice (4, 5), whether they give another roll,
        # and its event for each seat; the rolls that give another one.
        rolls = [("r" + ".".join(map(str, dice)), dice) for dice in product(range(1, 7), repeat=self.n_dice)]
        self._rolls = {code: (dice, self._is_repeat(dice), tuple(_roll_event(seat, code) for seat in range(4)))
                       for code, dice in rolls}
        self._roll_codes = tuple(self._rolls)
        # random_roll's table: a draw of `bits` random bits indexes it; None means draw again.
        bits = len(self._roll_codes).bit_length()
        self._roll_draw = bits, self._roll_codes + (None,) * ((1 << bits) - len(self._roll_codes))
        self._repeats = frozenset(dice for dice, repeat, _ in self._rolls.values() if repeat)

    # --- setup -------------------------------------------------------------
    def seat_colours(self, n_players: int, options: dict[str, Any]) -> list[tuple[str, ...]]:
        return [(c,) for c in self.seat_colour_ids[n_players]]

    def new_game(self, n_players: int, options: dict[str, Any], seed: int) -> State:
        self.check_setup(n_players, options)
        colours = tuple(COLOURS.index(c) for c in self.seat_colour_ids[n_players])
        pos = tuple(0 if i < self.pawns_out_at_start else HOUSE for _ in colours for i in range(4))
        return State(colours=colours, teams=bool(options.get("teams")), pos=pos,
                     arrivals=tuple(range(len(pos))), turn=0, dice=(), used=0, bonus=(), repeats=0,
                     last=-1, locked=-1, last_move=(), winners=(), released=(False,) * n_players,
                     cheats=(), callee=-1)

    # --- serialisation -------------------------------------------------------
    def to_json(self, state: State) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in state._asdict().items()}

    def from_json(self, data: dict[str, Any]) -> State:
        fields: dict[str, Any] = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items()}
        return State(**fields)

    # --- whose move ------------------------------------------------------------
    def to_move(self, state: State) -> int | None:
        return None if state.winners else state.turn

    def result(self, state: State) -> Result | None:
        return Result(state.winners) if state.winners else None

    def roll_due(self, state: State) -> bool:
        return not state.winners and not state.dice

    def random_roll(self, state: State, rng: random.Random) -> str:
        """rng.choice(roll codes), spelled out: the same draws (stored games still verify,
        bot/dice.py), without depending on how a Python version implements choice, and
        without its two Python calls on the playouts' hot path."""
        bits, codes = self._roll_draw
        code = codes[rng.getrandbits(bits)]
        while code is None:
            code = codes[rng.getrandbits(bits)]
        return code

    def owner(self, state: State) -> int:
        return owner(state.teams, state.pos, state.turn)

    def legal_actions(self, state: State) -> list[str]:
        memo = self._memo
        # A fresh list (callers may keep it); [*x] costs less than list(x). Classic, which accepts
        # infractions, leaves them out.
        return [*(memo[1] if memo[0] is state else self._raw_options(state))]

    def accepted_actions(self, state: State) -> list[str]:
        return list(self._raw_options(state))

    def options(self, state: State) -> dict[str, Option]:
        """Every accepted action now, decoded."""
        return {a: Option._make(o) for a, o in self._raw_options(state).items()}

    def _raw_options(self, state: State) -> dict[str, RawOption]:
        """Every accepted action now (memoised for the last state)."""
        memo = self._memo
        if memo[0] is state:
            return memo[1]
        found = {}
        if state.dice and not state.winners:
            found = self._options(state, self._occupancy(state.pos, state.colours))
        self._memo = (state, found)      # one assignment: never a state with another's options
        return found

    def _options(self, s: State, occ: Occupancy) -> dict[str, RawOption]:
        """The accepted actions of a state with dice to play, whose position `occ` counts
        (the variant's priorities)."""
        raise NotImplementedError

    def _occupancy(self, pos: tuple[int, ...], colours: tuple[int, ...]) -> Occupancy:
        """The occupancy of a position: the one carried from the last position, or counted."""
        occ = self._occ
        if occ[0] is not pos or occ[1] is not colours:
            occ = self._occ = occupancy(colours, pos)
        return occ

    @staticmethod
    def _move_pawns(d: list, moves: tuple[tuple[int, int, int], ...]) -> None:
        """Put each (pawn, from, to) of `moves` on its new progress in draft d (the occupancy
        memo is then counted afresh: drafts serve rarer actions)."""
        pos = list(d[POS_F])
        for p, _, dst in moves:
            pos[p] = dst
        d[POS_F] = tuple(pos)

    # --- building blocks for _options ------------------------------------------
    def _moves(self, occ: Occupancy, seat: int, steps: tuple[tuple[int, int], ...],
               into: dict[str, RawOption], skip: int = -1, kind: int = MOVE, legal: bool = True) -> None:
        """Add to `into` every move of one of seat's pawns (but `skip`) by n squares in the
        position counted by `occ`, for each (n, dice mask) of `steps` (PM-4.1 to 4.6, PM-8.3, PM-8.4)."""
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
                            if kind == BONUS and not self.bonus_may_join_own:
                                continue
                        elif not SAFE[at >> 1]:
                            victim = pawn_at(colours, pos, at >> 1)
                into[row[n]] = (kind, p, src, src + n, mask, legal, victim, -1, 1)

    def _bonus_options(self, s: State, occ: Occupancy) -> dict[str, RawOption]:
        found: dict[str, RawOption] = {}
        self._moves(occ, self.owner(s), ((s.bonus[0], 0),), found, kind=BONUS)
        return found

    def _bring_out_option(self, s: State, seat: int, mask: int, count: int = 1) -> RawOption | None:
        """Bringing out with the dice of `mask`, if a pawn is in the house and the start
        square (progress 0) is not held by two own pawns (PM-6.1, PM-6.3, PC-5.4)."""
        first = 4 * seat
        pos = s.pos
        mine = pos[first:first + 4]
        if HOUSE not in mine or mine.count(0) == 2:
            return None
        return BRING_OUT, pos.index(HOUSE, first), HOUSE, 0, mask, True, -1, -1, count

    def _bridge_openings(self, s: State, occ: Occupancy, seat: int,
                         steps: tuple[tuple[int, int], ...]) -> dict[str, RawOption]:
        """Moves of one pawn out of an own bridge by one of `steps` (PM-5.2, PC-6.3)."""
        found: dict[str, RawOption] = {}
        first = 4 * seat
        mine = s.pos[first:first + 4]
        c = s.colours[seat]
        weight = _WEIGHTS[c]
        own = (weight[mine[0]] + weight[mine[1]] + weight[mine[2]] + weight[mine[3]]) & _TWO_BITS   # own bridges
        if not own:
            return found
        shift = SHIFT[c]
        partner_of = {}
        for i, x in enumerate(mine):
            if 0 <= x < GOAL and own >> shift[x] & 2:
                partner_of[first + i] = first + (mine.index(x) if mine.index(x) != i else mine.index(x, i + 1))
        moves: dict[str, RawOption] = {}
        self._moves(occ, seat, steps, moves)
        for code, (kind, p, src, dst, mask, legal, victim, _, count) in moves.items():
            if p in partner_of:
                found[code] = kind, p, src, dst, mask, legal, victim, partner_of[p], count
        return found

    # --- playing -----------------------------------------------------------------
    # One function per kind of action (roll, move or bonus, bring-out), each building its
    # new State once from locals; `_finish` then drops what cannot be played.
    def apply(self, state: State, action: str, seat: int | None = None) -> Applied[State]:
        if state.winners:
            raise IllegalAction(msg("parcheesi.error.game_over"))
        if action == CALL:
            return self._call(state, state.turn if seat is None else seat)
        if seat is not None and seat != state.turn:
            raise IllegalAction(msg("parcheesi.error.not_your_turn", seat=state.turn))
        if not state.dice:
            return self._roll(state, action)
        memo = self._memo
        option = (memo[1] if memo[0] is state else self._raw_options(state)).get(action)
        if option is None:
            if action == self.SKIP:
                return self._skip(state)
            raise self._refusal(action)
        if option[0] == BRING_OUT:
            return self._bring_out(state, option)
        return self._move(state, option)

    def _refusal(self, action: str) -> IllegalAction:
        if not _ACTION_RE.fullmatch(action):
            return IllegalAction(msg("parcheesi.error.malformed", action=action[:40]))
        if action[0] == "r":
            return IllegalAction(msg("parcheesi.error.no_roll_now"))
        return IllegalAction(msg("parcheesi.error.not_allowed", action=action))

    def _call(self, state: State, seat: int) -> Applied[State]:
        raise IllegalAction(msg("parcheesi.error.no_call"))

    def _roll_refusal(self, action: str) -> IllegalAction:
        if _ACTION_RE.fullmatch(action) and action[0] != "r":
            return IllegalAction(msg("parcheesi.error.roll_first"))
        return IllegalAction(msg("parcheesi.error.malformed", action=action[:40]))

    def _is_repeat(self, dice: tuple[int, ...]) -> bool:
        """Does this roll give another one (a double, a six)?"""
        raise NotImplementedError

    def _roll(self, state: State, action: str) -> Applied[State]:
        roll = self._rolls.get(action)
        if roll is None:
            if action == self.SKIP:
                return self._skip(state)
            raise self._roll_refusal(action)
        dice, repeat, said = roll
        (colours, teams, pos, arrivals, turn, _, _, bonus, repeats, last, _, last_move, winners, released,
         cheats, callee) = state
        events = [said[turn]]
        if callee != turn:   # the next player's roll closes the call-out window (PC-9.3)
            callee, cheats = turn, ()
        if repeat:
            if repeats == 2:
                d = list(state)
                d[CALLEE_F], d[CHEATS_F] = callee, cheats
                self._third_repeat(d, events)
                return _applied((_freeze(d), tuple(events)))
            repeats += 1
        return self._finish(_freeze((colours, teams, pos, arrivals, turn, dice, 0, bonus, repeats, last, -1,
                                     last_move, winners, released, cheats, callee)), events,
                            self._occupancy(pos, colours))

    def _skip(self, state: State) -> Applied[State]:
        """The turn forfeited at its deadline (Ruleset.SKIP): the roll not made, or the dice not played,
        the pending bonuses and the roll a double (six) gives, are lost; the next player's turn (PM-3.1,
        PC-3.1). A skip before the turn's first roll stands for that roll: it closes the call-out window
        on the previous turn as the roll would have (PC-9.3); after it, the window on this turn stays open
        until the next player's roll."""
        turn, dice = state.turn, state.dice
        events = [skip_event(turn)]
        if not dice:
            events.append(msg("timers.lost.extra_roll" if state.repeats else "timers.lost.roll"))
        else:
            unused = [str(v) for i, v in enumerate(dice) if not state.used >> i & 1]
            if unused:
                events.append(msg("timers.lost.die" if len(unused) == 1 else "timers.lost.dice",
                                  dice=" + ".join(unused)))
            events += [msg("parcheesi.lost.bonus", n=n) for n in state.bonus]
            if dice in self._repeats:
                events.append(msg("timers.lost.extra_roll"))
        d = list(state)
        if not dice and state.callee != turn:
            d[CALLEE_F], d[CHEATS_F] = -1, ()
        self._pass_turn(d, events)
        return Applied(_freeze(d), tuple(events))

    def _third_repeat(self, d: list, events: list[Message]) -> None:
        """Third double / six: not played; the pawn moved last goes home unless safe (PM-5.5, PC-6.4)."""
        p = d[LAST_F]
        where = d[POS_F][p] if p >= 0 else HOUSE
        if where == HOUSE:
            events.append(msg(f"{self.key}.event.third_nothing"))
        elif where > LAST_TRACK or SAFE[SQUARE[d[COLOURS_F][p >> 2]][where]]:
            events.append(msg(f"{self.key}.event.third_safe", pawn=pawn_name(d[COLOURS_F], p)))
        else:
            self._move_pawns(d, ((p, where, HOUSE),))
            d[LAST_MOVE_F] = (p, where, HOUSE)
            events.append(msg(f"{self.key}.event.third_home", pawn=pawn_name(d[COLOURS_F], p)))
        self._pass_turn(d, events)

    def _move(self, state: State, o: RawOption) -> Applied[State]:
        """A pawn moved by dice or by a bonus, capturing or reaching the goal."""
        kind, p, src, dst, mask, legal, victim, opens, _ = o
        (colours, teams, before, arrivals, turn, dice, used, bonus, repeats, _, locked, _, winners, released,
         cheats, callee) = state
        if kind == BONUS:
            bonus = bonus[1:]
        else:
            used |= mask
        if not legal:
            cheats += (p,)
        if opens >= 0:
            locked = opens
        c, i = colours[p >> 2], p & 3
        events = [_MOVE_EVENTS[c][i][src].get(dst) or _move_event(c, i, src, dst)]
        # One list copy: cheaper than slicing and concatenating pos.
        new = [*before]
        new[p] = dst
        if victim >= 0:                                            # PM-7.1, PC-7.1
            new[victim] = HOUSE
            bonus += (20,)
            events.append(_capture_event(colours, p, victim))
        pos = tuple(new)
        counted, counted_colours, counts, bridges = self._occ
        # Carry the occupancy to the new position with a few integer operations instead of counting it
        # afresh (occupancy()).
        if counted is before and counted_colours is colours:
            row = _WEIGHTS[c]
            left, came = row[src], row[dst]
            if bridges and bridges & left << 1:                  # the pawn leaves its bridge
                bridges ^= left << 1
            if counts & BOTH_BITS[c][dst]:                       # someone was on dst (never on the goal)
                if victim >= 0:
                    counts -= came
                elif dst in before[p - (p & 3):(p | 3) + 1]:     # an own pawn: a new bridge
                    bridges |= came << 1
            occ = self._occ = pos, colours, counts + came - left, bridges
        else:                                                    # another position was counted last
            occ = self._occupancy(pos, colours)
        if arrivals[-1] != p:                                      # p is now the latest arrival (PM-1.8)
            arrivals = _arrive(arrivals, p)
        if dst == GOAL:
            bonus += (10,)                                         # PM-8.1, PC-8.2
            events.append(_goal_event(colours, p))
            winners = _winners(teams, colours, pos, turn, p >> 2, events)
            if winners:
                bonus = ()                                         # unused dice and bonuses are dropped
        if not bonus and not winners and used == (1 << len(dice)) - 1:
            # The roll is spent: the next roll is due (what _finish would find, one State less).
            if dice in self._repeats:
                events.append(_AGAIN[turn])
                return _applied((_freeze((colours, teams, pos, arrivals, turn, (), 0, bonus, repeats, p, -1,
                                          (p, src, dst), winners, released, cheats, callee)), tuple(events)))
            turn = (turn + 1) % len(colours)
            events.append(_NEXT[turn])
            return _applied((_freeze((colours, teams, pos, arrivals, turn, (), 0, (), 0, -1, -1,
                                      (p, src, dst), winners, released, cheats, callee)), tuple(events)))
        return self._finish(_freeze((colours, teams, pos, arrivals, turn, dice, used, bonus, repeats, p, locked,
                                     (p, src, dst), winners, released, cheats, callee)), events, occ)

    def _bring_out(self, state: State, o: RawOption) -> Applied[State]:
        """Bring out `brought_out` pawns with the dice of the option onto the start square,
        capturing as PM-6.4 to 6.6 / PC-5.5 say."""
        (colours, teams, pos, arrivals, turn, dice, used, bonus, repeats, last, locked, last_move, winners, released,
         cheats, callee) = state
        used |= o[4]
        seat = owner(teams, pos, turn)
        first = 4 * seat
        c = colours[seat]
        start = SQUARE[c][0]
        weight = _WEIGHTS[c][0]
        _, _, counts, bridges = self._occupancy(pos, colours)
        events: list[Message] = []
        p = -1   # the last pawn brought out: an option brings out one or two
        for _ in range(o[8]):
            p = pos.index(HOUSE, first, first + 4)
            victim = -1
            if counts & 3 * weight:                 # someone on the start square
                here = pawns_on(colours, pos, arrivals, start)
                foreign = [q for q in here if q >> 2 != seat]
                if len(here) == 2 and foreign:
                    victim = foreign[-1]        # the foreign pawn, or the one that arrived last (PM-6.5)
                elif len(here) == 1 and foreign and self.lone_foreign_captured:
                    victim = foreign[0]
            events.append(_out_event(c, p & 3))
            if victim >= 0 and bridges & weight << 1:   # a foreign bridge loses a pawn
                bridges ^= weight << 1
            if 0 in pos[first:first + 4]:           # it joins an own pawn: a new bridge
                bridges |= weight << 1
            new = list(pos)
            new[p] = 0
            if victim >= 0:
                new[victim] = HOUSE
                bonus += (20,)                                     # PM-6.9, PC-5.6
                events.append(_capture_event(colours, p, victim))
            else:
                counts += weight
            pos = tuple(new)
            arrivals = _arrive(arrivals, p)
        occ = self._occ = pos, colours, counts, bridges
        if not released[seat]:
            released = set_at(released, seat, True)
        return self._finish(_freeze((colours, teams, pos, arrivals, turn, dice, used, bonus, repeats, p, locked,
                                     (p, HOUSE, 0), winners, released, cheats, callee)), events, occ)

    def _finish(self, s: State, events: list[Message], occ: Occupancy) -> Applied[State]:
        """Drop what cannot be played; end the roll or the turn when nothing is left
        (occ counts s's position, which this never changes)."""
        while s.dice and not s.winners:
            found = self._options(s, occ)
            # As _raw_options(s) would, one call less per action.
            self._memo = (s, found)
            if found:
                break
            if s.bonus:   # _options offers a pending bonus first: no pawn can play it (PM-8.6, PC-8.4)
                events.append(_bonus_lost_event(s.bonus[0]))
                s = s._replace(bonus=s.bonus[1:])
                continue
            if s.used != (1 << len(s.dice)) - 1:
                events.append(_forfeit_event(s.turn, s.dice, s.used, self._forfeit_reason(s)))
            d = list(s)
            if s.dice in self._repeats:
                events.append(_AGAIN[s.turn])
                d[DICE_F], d[USED_F], d[LOCKED_F] = (), 0, -1
            else:
                self._pass_turn(d, events)
            s = _freeze(d)                           # a roll is due: nothing left to drop
        return _applied((s, tuple(events)))

    def _forfeit_reason(self, s: State) -> str:
        """The key of why the dice left are forfeited."""
        first = 4 * self.owner(s)
        if all(p == HOUSE or p == GOAL for p in s.pos[first:first + 4]):
            return "parcheesi.reason.none_in_play"
        return f"{self.key}.reason.blocked"

    def _pass_turn(self, d: list, events: list[Message]) -> None:
        turn = (d[TURN_F] + 1) % len(d[COLOURS_F])
        events.append(_NEXT[turn])
        d[TURN_F], d[DICE_F], d[USED_F], d[BONUS_F], d[REPEATS_F], d[LAST_F], d[LOCKED_F] = turn, (), 0, (), 0, -1, -1

    # --- words -------------------------------------------------------------------
    def action_label(self, state: State, action: str) -> Message:
        if action == CALL:
            return msg("parcheesi.label.call", seat=state.callee)
        if not state.dice:
            return msg("parcheesi.label.roll")
        o = self.options(state).get(action)
        if o is None:
            raise self._refusal(action)
        colours = state.colours
        pawn = pawn_name(colours, o.pawn)
        if o.kind == BRING_OUT:
            if o.brought_out == 2:
                return msg("parcheesi.label.out_two", pawn=pawn, pawn2=pawn_name(colours, o.pawn + 1),
                           dst=square_name(colours, o.pawn, 0))
            return msg("parcheesi.label.out", pawn=pawn, dst=square_name(colours, o.pawn, 0), how=self._how(state, o))
        return msg("parcheesi.label.move", pawn=pawn, src=square_name(colours, o.pawn, o.src),
                   dst=square_name(colours, o.pawn, o.dst), how=self._how(state, o))

    def _how(self, s: State, o: Option) -> Message:
        if o.kind == BONUS:
            return msg("parcheesi.how.bonus", n=o.dst - o.src)
        spent = [v for i, v in enumerate(s.dice) if o.mask >> i & 1]
        if len(spent) == 2:
            return msg("parcheesi.how.dice", a=spent[0], b=spent[1])
        if o.kind == MOVE and o.dst - o.src != spent[0]:
            return msg("parcheesi.how.die_counts", n=spent[0], steps=o.dst - o.src)   # PC-6.2
        return msg("parcheesi.how.die", n=spent[0])

    def action_group(self, state: State, action: str) -> str | None:
        o = self.options(state).get(action)
        if o is None:
            return None
        return PAWN_CODE[state.colours[o.pawn >> 2]][o.pawn % 4]

    def group_label(self, state: State, group: str) -> Message:
        return msg("parcheesi.pawn", colour=COLOURS[LETTERS.index(group[0])], number=int(group[1]))

    def describe(self, state: State) -> list[Message]:
        lines = []
        for seat, c in enumerate(state.colours):
            pos = state.pos[4 * seat:4 * seat + 4]
            on_board = [msg("parcheesi.describe.pawn", number=i + 1, square=_square_text(c, p))
                        for i, p in enumerate(pos) if 0 <= p < GOAL]
            lines.append(msg("parcheesi.describe.seat", seat=seat, colour=COLOURS[c], house=pos.count(HOUSE),
                             goal=pos.count(GOAL), board=joined(on_board, "list.items") if on_board else msg("list.none")))
        lines.extend(self._notes(state))
        if state.winners:
            lines.append(msg("parcheesi.describe.over"))
        elif unused := [v for i, v in enumerate(state.dice) if not state.used >> i & 1]:
            lines.append(msg("parcheesi.describe.to_play", seat=state.turn, dice=" + ".join(map(str, unused))))
        elif state.bonus:   # both dice spent, a bonus to play before the turn ends (PM-8.5)
            lines.append(msg("parcheesi.describe.to_play_bonus", seat=state.turn, n=state.bonus[0]))
        else:
            lines.append(msg("parcheesi.describe.to_roll", seat=state.turn))
        return lines

    def _notes(self, s: State) -> list[Message]:
        notes = []
        if s.bonus:
            notes.append(msg("parcheesi.note.bonus", n=s.bonus[0]))
        partner = self.owner(s)
        if partner != s.turn and not s.winners:
            notes.append(msg("parcheesi.note.plays_partner", seat=s.turn, colour=COLOURS[s.colours[partner]]))
        return notes

    def scene(self, state: State) -> Cross68Scene:
        pawns = tuple(ScenePawn(colour=COLOURS[c], route=COLOURS[c], progress=p, label=str(i % 4 + 1))
                      for i, (p, c) in enumerate(zip(state.pos, (c for c in state.colours for _ in range(4)))))
        last = None
        if state.last_move:
            p, src, dst = state.last_move
            last = (COLOURS[state.colours[p >> 2]], src, dst)
        return Cross68Scene(pawns=pawns, dice=state.dice,
                         used_dice=tuple(bool(state.used >> i & 1) for i in range(len(state.dice))),
                         last_move=last, notes=tuple(self._notes(state)))


_PAWN_NAMES = tuple(tuple(msg("parcheesi.pawn", colour=colour, number=i + 1) for i in range(4))
                    for colour in COLOURS)
_SQUARE_NAMES = tuple(tuple(msg("parcheesi.square.at", name=f"H{p - LAST_TRACK}" if p > LAST_TRACK
                                else str(SQUARE[c][p] + 1)) for p in range(GOAL)) + (msg("parcheesi.square.goal"),
                                                                                       msg("parcheesi.square.house"))
                      for c in range(len(COLOURS)))


# Frequent events, built once (Messages are immutable): a seat's turn passes on / it rolls again.
_NEXT = tuple(msg("parcheesi.event.next", seat=seat) for seat in range(4))
_AGAIN = tuple(msg("parcheesi.event.again", seat=seat) for seat in range(4))
# Move events, built on first use: _MOVE_EVENTS[c][i][src][dst] moves pawn i + 1 of colour c
# from progress src to dst (three lookups and a get cost half a functools.cache hit).
_MOVE_EVENTS: tuple[tuple[tuple[dict[int, Message], ...], ...], ...] = tuple(
    tuple(tuple({} for _ in range(GOAL)) for _ in range(4)) for _ in COLOURS)


def _move_event(c: int, i: int, src: int, dst: int) -> Message:
    """The event of a move missing from _MOVE_EVENTS, stored there."""
    event = _MOVE_EVENTS[c][i][src][dst] = msg("parcheesi.event.move", pawn=_PAWN_NAMES[c][i],
                                                src=_SQUARE_NAMES[c][src], dst=_SQUARE_NAMES[c][dst])
    return event


@cache
def _out_event(c: int, i: int) -> Message:
    return msg("parcheesi.event.out", pawn=_PAWN_NAMES[c][i], dst=_SQUARE_NAMES[c][0])


def _roll_event(seat: int, action: str) -> Message:
    return msg("parcheesi.event.roll", seat=seat, dice=action[1:].replace(".", " + "))


@cache
def _capture_event(colours: tuple[int, ...], p: int, victim: int) -> Message:
    return msg("parcheesi.event.capture", pawn=pawn_name(colours, p), victim=pawn_name(colours, victim))


@cache
def _goal_event(colours: tuple[int, ...], p: int) -> Message:
    return msg("parcheesi.event.goal", pawn=pawn_name(colours, p))


@cache
def _bonus_lost_event(n: int) -> Message:
    return msg("parcheesi.event.bonus_lost", n=n)


@cache
def _forfeit_event(seat: int, dice: tuple[int, ...], used: int, reason: str) -> Message:
    """The dice not spent (bit i of `used`: die i is spent) are lost, for the reason of key `reason`."""
    unused = [v for i, v in enumerate(dice) if not used >> i & 1]
    return msg("parcheesi.event.forfeit", seat=seat, dice=" + ".join(map(str, unused)), reason=msg(reason))


def pawn_name(colours: tuple[int, ...], p: int) -> Message:
    """Pawn p's name ("yellow 2"); shared immutable Messages, built once."""
    return _PAWN_NAMES[colours[p >> 2]][p % 4]


def square_name(colours: tuple[int, ...], p: int, progress: int) -> Message:
    """A square of pawn p's route as players read it: track number, H1-H7, house or goal."""
    return _SQUARE_NAMES[colours[p >> 2]][progress]


def _square_text(c: int, progress: int) -> str:
    if progress > LAST_TRACK:
        return f"H{progress - LAST_TRACK}"
    return str(SQUARE[c][progress] + 1)


def _winners(teams: bool, colours: tuple[int, ...], pos: tuple[int, ...], turn: int, seat: int,
             events: list[Message]) -> tuple[int, ...]:
    """The winners once a pawn of `seat` reached the goal, or (): four pawns home win (PM-9.1,
    PC-10.1); in 2 vs 2 the team's eight (PM-10.5)."""
    if pos[4 * seat:4 * seat + 4] != _ALL_HOME:
        return ()
    if teams:
        partner = (seat + 2) % 4
        if pos[4 * partner:4 * partner + 4] != _ALL_HOME:
            if seat == turn:
                events.append(msg("parcheesi.event.plays_partner", seat=seat, colour=COLOURS[colours[partner]]))
            return ()
        winners = (min(seat, partner), max(seat, partner))
        events.append(msg("parcheesi.event.team_wins", seat=winners[0], partner_seat=winners[1]))
        return winners
    events.append(msg("parcheesi.event.wins", seat=seat))
    return (seat,)


def set_at(t: tuple, i: int, value: Any) -> tuple:
    return t[:i] + (value,) + t[i + 1:]


def _arrive(arrivals: tuple[int, ...], p: int) -> tuple[int, ...]:
    """Pawn p is now the latest arrival (PM-1.8)."""
    new = [*arrivals]
    new.remove(p)
    new.append(p)
    return tuple(new)
