"""Parchís Maghreb (parchis-maghreb.md, prefix MG): two players with two colours each,
one die, doors, counts of 10 and 20, the 6 that counts 12, and cheating that the
opponent may call out (MG-10).

Cheating: `legal_actions` is what the rules allow, `accepted_actions` every physically
possible move (MG-10.1). Each accepted move is logged with its legality in the state;
the position before the turn's first illegal move and the dice rolled after it are
kept, so a valid call-out restores that position and replays the same values
(MG-10.4). Events never say whether a move was legal (MG-10.2).
"""
from __future__ import annotations

import random
from functools import cache
from typing import Any, TypedDict

from bot.games.base import Applied, IllegalAction, Message, Result, Ruleset, msg, skip_event
from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK, Cross68Scene, ScenePawn
from bot.games.parcheesi.maghreb_state import (
    COLOURS, COUNT, DIE, KEYS, PIECE_KEYS, PIECES_PER_SEAT, ROLL, ROUTES, SAFE, START, Action, MaghrebState,
    move_code, out_code, parse, parse_piece, piece_code, piece_name, square_name,
)

NO_EAT = -1
COUNT_EXIT = 10    # MG-7.1
COUNT_EAT = 20     # MG-7.2
# What a turn's first roll resets: the record open to a call-out is now this turn's (MG-10.3, MG-10.6).
class _NewTurn(TypedDict):
    log: tuple[tuple[int, bool], ...]
    snapshot: MaghrebState | None
    recorded: tuple[int, ...]
    forced: tuple[int, ...]
    call_used: bool
    honest: bool
    last_piece: int


NEW_TURN: _NewTurn = {"log": (), "snapshot": None, "recorded": (), "forced": (), "call_used": False, "honest": False,
                      "last_piece": -1}

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


class Maghreb(Ruleset[MaghrebState]):
    id = "parchis-maghreb"
    name = "game.parchis-maghreb"
    board_family = "renderer.cross68"
    heuristic = "bot.ai.parcheesi:MAGHREB"
    call_judge = "bot.ai.parcheesi:maghreb_call_valid"
    code_colours = COLOURS
    min_players = 2
    max_players = 2
    allows_cheating = True

    def __init__(self) -> None:
        # Single-entry memo of the legal actions of the last state seen: apply asks for them
        # after a roll, then a player (or playout) asks legal_actions, then apply plays one.
        self._memo: tuple[MaghrebState | None, tuple[list[str], bool]] = (None, ([], False))
        # Same for the occupancy of the last pieces tuple (a roll keeps the tuple, a move reads it again).
        self._occ_memo: tuple[tuple[int, ...] | None, Occupancy] = (None, Occupancy())

    def _occupancy(self, pieces: tuple[int, ...]) -> Occupancy:
        memo = self._occ_memo
        if memo[0] is pieces:
            return memo[1]
        occ = occupancy(pieces)
        self._occ_memo = (pieces, occ)
        return occ

    # --- setup -------------------------------------------------------------
    def seat_colours(self, n_players: int, options: dict[str, Any]) -> list[tuple[str, ...]]:
        return [("red", "green"), ("yellow", "blue")]   # MG-1.3, MG-1.4

    def new_game(self, n_players: int, options: dict[str, Any], seed: int) -> MaghrebState:
        self.check_setup(n_players, options)
        return MaghrebState()   # MG-2.1, MG-2.2: everything in the houses, player 1 first

    def to_json(self, state: MaghrebState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: dict[str, Any]) -> MaghrebState:
        return MaghrebState.from_json(data)

    # --- whose move --------------------------------------------------------
    def to_move(self, state: MaghrebState) -> int | None:
        return None if state.winner >= 0 else state.seat

    def result(self, state: MaghrebState) -> Result | None:
        if state.winner < 0:
            return None
        return Result(winners=(state.winner,), details={"classy": state.classy})

    def roll_due(self, state: MaghrebState) -> bool:
        return state.winner < 0 and state.phase == ROLL

    def random_roll(self, state: MaghrebState, rng: random.Random) -> str:
        # A caught cheater rolls the recorded values again (MG-10.4).
        return f"r{state.forced[0] if state.forced else rng.randint(1, 6)}"

    # --- legal and accepted actions -------------------------------------------
    def legal_actions(self, state: MaghrebState) -> list[str]:
        return list(self._legal(state)[0])

    def _legal(self, s: MaghrebState) -> tuple[list[str], bool]:
        """The legal actions and whether a 12-move is compulsory (memoised for the last state)."""
        memo = self._memo
        if memo[0] is s:
            return memo[1]
        found = self._find_legal(s)
        self._memo = (s, found)      # one assignment: never a state with another's actions
        return found

    def _find_legal(self, s: MaghrebState) -> tuple[list[str], bool]:
        """The legal actions and whether a 12-move is compulsory (a 6 that eats is then a sacrifice)."""
        if s.winner >= 0 or s.phase == ROLL:
            return [], False
        occ = self._occupancy(s.pieces)
        seat = s.seat
        if s.phase == COUNT:
            return self._moves_by(s, occ, s.pending[-1]), False      # MG-7.6: no priorities
        die = s.die
        if first_roll(s):   # MG-3.1: the chosen colour enters and moves at once
            return [out_code(c, die) for c in (2 * seat, 2 * seat + 1)
                    if house_piece(s.pieces, c) >= 0 and reach(occ, seat, HOUSE, die + 1, True) is not None], False
        if die == 5 and s.turn_no >= 2 and own_at_start(occ, seat) < 2:   # MG-5.1, MG-3.2
            outs = [out_code(c) for c in (2 * seat, 2 * seat + 1) if house_piece(s.pieces, c) >= 0]
            if outs:
                return outs, False
        if die == 6:
            return self._rule_of_six(s, occ)
        return self._moves_by(s, occ, die), False

    def _moves_by(self, s: MaghrebState, occ: Occupancy, distance: int, eating_only: bool = False) -> list[str]:
        out = []
        for i in own_pieces(s.seat):
            p = s.pieces[i]
            if 0 <= p < GOAL:
                landing = reach(occ, s.seat, p, distance, True)
                if landing is not None and (not eating_only or landing != NO_EAT):
                    out.append(move_code(i, distance))
        return out

    def _rule_of_six(self, s: MaghrebState, occ: Occupancy) -> tuple[list[str], bool]:
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
            return twelve + self._moves_by(s, occ, 6, eating_only=True), True
        return self._moves_by(s, occ, 6), False                          # MG-6.5 (c), broken priority

    def accepted_actions(self, state: MaghrebState) -> list[str]:
        legal = self.legal_actions(state)
        if state.honest or not legal:
            return legal
        s, seat = state, state.seat
        occ = self._occupancy(s.pieces)
        candidates = [move_code(i, d) for i in own_pieces(seat) if 0 <= s.pieces[i] < GOAL
                      for d in range(1, GOAL - s.pieces[i] + 1)]
        candidates += [out_code(c) for c in (2 * seat, 2 * seat + 1)]
        if first_roll(s):
            candidates += [out_code(c, s.die) for c in (2 * seat, 2 * seat + 1)]
        known = set(legal)
        return legal + [a for a in candidates if a not in known and self._physical(s, parse(a), occ)]

    def _physical(self, s: MaghrebState, a: Action, occ: Occupancy) -> bool:
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
    @staticmethod
    def _caller(s: MaghrebState) -> int:
        """Who may call out now: the opponent of the player whose turn is on record.

        That turn is the current one, or the one just ended until the next roll."""
        return s.seat if s.phase == ROLL and s.rolls == 0 else 1 - s.seat

    def call_actions(self, state: MaghrebState, seat: int) -> list[str]:
        """Any piece of the player whose turn is on record, once that turn has a move (MG-10.3);
        naming one that did not cheat, or did not move, is an invalid call-out (MG-10.5)."""
        if state.winner >= 0 or state.call_used or seat != self._caller(state) or not state.log:
            return []
        return [f"call:{piece_code(i)}" for i in own_pieces(1 - seat)]

    # --- apply -----------------------------------------------------------------
    def apply(self, state: MaghrebState, action: str, seat: int | None = None) -> Applied[MaghrebState]:
        if action == self.SKIP:
            return self._skip(state, seat)
        a = parse(action)
        if state.winner >= 0:
            raise IllegalAction(msg("maghreb.error.game_over"))
        if a.kind == "call":
            return self._call(state, action, a, self._caller(state) if seat is None else seat)
        if seat is not None and seat != state.seat:
            raise IllegalAction(msg("maghreb.error.not_your_turn"))
        if a.kind == "roll":
            return self._roll(state, a.value)
        if state.phase == ROLL:
            raise IllegalAction(msg("maghreb.error.roll_first"))
        return self._play(state, action, a)

    def _roll(self, s: MaghrebState, value: int) -> Applied[MaghrebState]:
        if s.phase != ROLL:
            raise IllegalAction(msg("maghreb.error.no_roll_due"))
        if s.forced and value != s.forced[0]:
            raise IllegalAction(msg("maghreb.error.replay_roll", value=s.forced[0]))
        if s.rolls == 0:   # a new turn: the previous turn's call-out window closes (MG-10.6)
            s = s._replace(phase=DIE, die=value, rolls=1, pending=(), sacrifice=False, **NEW_TURN)
        else:
            s = s._replace(phase=DIE, die=value, rolls=s.rolls + 1, pending=(), sacrifice=False, forced=s.forced[1:],
                           recorded=s.recorded + (value,) if s.snapshot is not None else s.recorded)
        events = [_roll_event(s.seat, value)]
        if value == 6 and s.rolls == 3:
            return Applied(self._third_six(s, events), tuple(events))
        if not self._legal(s)[0]:
            events.append(msg("maghreb.event.no_move", seat=s.seat, value=value))   # MG-4.6
            s = self._end_roll(s, events)
        return Applied(s, tuple(events))

    def _third_six(self, s: MaghrebState, events: list[Message]) -> MaghrebState:
        """MG-6.8: the third 6 is not played; the last piece moved dies unless it is safe."""
        last = s.last_piece
        p = s.pieces[last] if last >= 0 else HOUSE
        if 0 <= p <= LAST_TRACK and not SAFE[s.seat][p]:
            events.append(msg("maghreb.event.third_six_killed", piece=piece_name(last)))
            s = s._replace(pieces=s.pieces[:last] + (HOUSE,) + s.pieces[last + 1:])
        else:
            events.append(msg("maghreb.event.third_six", seat=s.seat))
        return self._pass_turn(s, events)

    def _play(self, s: MaghrebState, action: str, a: Action) -> Applied[MaghrebState]:
        legal, must12 = self._legal(s)
        is_legal = action in legal
        occ = self._occupancy(s.pieces)
        if not is_legal:
            if s.honest:
                raise IllegalAction(msg("maghreb.error.replay_legally"))
            if not self._physical(s, a, occ):
                raise IllegalAction(msg("maghreb.error.impossible"))
        seat = s.seat
        pieces = list(s.pieces)
        if a.kind == "out":
            piece, origin, target = house_piece(s.pieces, a.piece), HOUSE, a.value
            if a.value:
                landing = reach(occ, seat, HOUSE, a.value + 1, False)
                assert landing is not None   # legal, or physical (checked above): it lands
                victims = [landing] if landing != NO_EAT else []
            else:   # the bring-out eats every opponent piece on the start square (MG-5.4)
                victims = [i for i in occ.get(START[seat], ()) if i >> 3 != seat]
        else:
            piece, origin = a.piece, s.pieces[a.piece]
            target = origin + a.value
            landing = reach(occ, seat, origin, a.value, False)
            assert landing is not None   # legal, or physical (checked above): it lands
            victims = [landing] if landing != NO_EAT else []
        pieces[piece] = target
        key = "maghreb.event.move" if origin != HOUSE else "maghreb.event.enter" if a.value else "maghreb.event.bring_out"
        events = [msg(key, piece=piece_name(piece),
                      distance=a.value, origin=square_name(seat, origin), target=square_name(seat, target))]
        counts: tuple[int, ...] = ()
        for v in victims:
            pieces[v] = HOUSE
            counts += (COUNT_EAT,)
            events.append(msg("maghreb.event.eat", piece=piece_name(piece), victim=piece_name(v)))
        if target == GOAL:
            counts += (COUNT_EXIT,)
            events.append(msg("maghreb.event.exit", piece=piece_name(piece)))
        sacrifice = s.phase == DIE and is_legal and must12 and a.kind == "move" and a.value == 6
        if sacrifice:
            events.append(msg("maghreb.event.sacrifice", seat=seat))
        # Counts caused by this move come before any count still waiting (MG-7.3).
        pending = (s.pending[:-1] if s.phase == COUNT else ()) + counts
        s = s._replace(pieces=tuple(pieces), pending=pending, sacrifice=s.sacrifice or sacrifice, last_piece=piece,
                    last_move=(piece, origin, target), log=s.log + ((piece, is_legal),),
                    snapshot=s.snapshot if is_legal or s.snapshot is not None else s)
        if all(pieces[i] == GOAL for i in own_pieces(seat)):   # MG-9.1, MG-9.2
            events.append(msg("maghreb.event.win", seat=seat))
            if s.die == 1:
                events.append(msg("maghreb.event.classy", seat=seat))
            return Applied(s._replace(winner=seat, classy=s.die == 1, pending=()), tuple(events))
        return Applied(self._settle(s, events), tuple(events))

    def _settle(self, s: MaghrebState, events: list[Message]) -> MaghrebState:
        """After a move: the next count that can be played, else the end of the roll."""
        while s.pending:
            if self._moves_by(s, self._occupancy(s.pieces), s.pending[-1]):
                return s._replace(phase=COUNT)
            events.append(msg("maghreb.event.count_lost", value=s.pending[-1]))   # MG-7.3
            s = s._replace(pending=s.pending[:-1])
        return self._end_roll(s, events)

    def _end_roll(self, s: MaghrebState, events: list[Message]) -> MaghrebState:
        if s.die == 6 and not s.sacrifice:   # MG-6.1, also after a lost 6 (MG-4.6)
            events.append(msg("maghreb.event.roll_again", seat=s.seat))
            return s._replace(phase=ROLL, pending=())
        return self._pass_turn(s, events)

    def _pass_turn(self, s: MaghrebState, events: list[Message]) -> MaghrebState:
        nxt = 1 - s.seat
        events.append(_turn_event(nxt))
        # Recorded values a corrected turn did not use are dropped (MG-10.4).
        return s._replace(seat=nxt, turn_no=s.turn_no + 1, phase=ROLL, rolls=0, pending=(), sacrifice=False,
                       forced=())

    def _skip(self, s: MaghrebState, seat: int | None) -> Applied[MaghrebState]:
        """The turn forfeited at its deadline (Ruleset.SKIP): the roll not made, or the die not played, the
        counts waiting and the extra roll of a 6 are lost; the opponent's turn (MG-2.2). A player's first
        turn forfeited is his first turn all the same: its entry (MG-3.1) is lost with it. Call-outs
        (MG-10.3): a skip before the turn's first roll stands for that roll, so the window on the
        opponent's turn closes (he could not call out his own moves); after it, the opponent may call
        out this turn until his own roll, as after any turn."""
        if s.winner >= 0:
            raise IllegalAction(msg("maghreb.error.game_over"))
        if seat is not None and seat != s.seat:
            raise IllegalAction(msg("maghreb.error.not_your_turn"))
        events = [skip_event(s.seat)]
        if s.phase == ROLL:
            events.append(msg("timers.lost.extra_roll" if s.rolls else "timers.lost.roll"))
            if not s.rolls:   # as _roll does when a turn begins (MG-10.6)
                s = s._replace(**NEW_TURN)
        else:
            if s.phase == DIE:
                events.append(msg("timers.lost.die", dice=str(s.die)))
            events += [msg("maghreb.lost.count", value=v) for v in reversed(s.pending)]
            if s.die == 6 and not s.sacrifice:
                events.append(msg("timers.lost.extra_roll"))
        return Applied(self._pass_turn(s, events), tuple(events))

    def _call(self, s: MaghrebState, action: str, a: Action, seat: int) -> Applied[MaghrebState]:
        if action not in self.call_actions(s, seat):
            raise IllegalAction(msg("maghreb.error.no_call"))
        cheater = 1 - seat
        events = [msg("maghreb.event.call", seat=seat, piece=piece_name(a.piece))]
        if not any(p == a.piece and not legal for p, legal in s.log):   # MG-10.5
            events.append(msg("maghreb.event.call_wrong", piece=piece_name(a.piece)))
            return Applied(s._replace(call_used=True), tuple(events))
        # MG-10.4: back to just before the first illegal move; the same dice, legal moves only.
        events += [msg("maghreb.event.apology", seat=cheater), msg("maghreb.event.replay", seat=cheater)]
        assert s.snapshot is not None   # kept at the turn's first illegal move, which the log holds
        restored = s.snapshot._replace(call_used=True, honest=True, forced=s.recorded, recorded=())
        return Applied(restored, tuple(events))

    # --- words -----------------------------------------------------------------
    def action_label(self, state: MaghrebState, action: str) -> Message:
        a = parse(action)
        if a.kind == "roll":
            return msg("maghreb.action.roll", value=a.value)
        if a.kind == "call":
            return msg("maghreb.action.call", piece=piece_name(a.piece))
        if a.kind == "out":
            key = "maghreb.action.enter" if a.value else "maghreb.action.bring_out"
            return msg(key, colour=COLOURS[a.piece], value=a.value, target=square_name(a.piece >> 1, a.value))
        owner, p = a.piece >> 3, state.pieces[a.piece]
        target = min(p + a.value, GOAL) if p >= 0 else HOUSE
        key = "maghreb.action.count" if state.phase == COUNT else "maghreb.action.move"
        return msg(key, piece=piece_name(a.piece), distance=a.value, origin=square_name(owner, p),
                   target=square_name(owner, target))

    def action_group(self, state: MaghrebState, action: str) -> str | None:
        """The piece an action moves ("R2"; for a bring-out, the house piece that comes out)."""
        a = parse(action)
        if a.kind == "move":
            return piece_code(a.piece)
        if a.kind == "out":
            piece = house_piece(state.pieces, a.piece)
            return piece_code(piece) if piece >= 0 else None
        return None

    def group_label(self, state: MaghrebState, group: str) -> Message:
        return piece_name(parse_piece(group))

    def describe(self, state: MaghrebState) -> list[Message]:
        s = state
        lines: list[Message] = []
        if s.winner >= 0:
            lines.append(msg("maghreb.describe.classy_winner" if s.classy else "maghreb.describe.winner",
                             seat=s.winner))
        elif s.phase == ROLL:
            lines.append(msg("maghreb.describe.roll_due", seat=s.seat))
        elif s.phase == DIE:
            lines.append(msg("maghreb.describe.play_die", seat=s.seat, value=s.die))
        else:
            lines.append(msg("maghreb.describe.play_count", seat=s.seat, value=s.pending[-1]))
        occ = self._occupancy(s.pieces)
        for seat in (0, 1):
            mine = [s.pieces[i] for i in own_pieces(seat)]
            lines.append(msg("maghreb.describe.side", seat=seat, first_colour=COLOURS[2 * seat],
                             second_colour=COLOURS[2 * seat + 1], home=mine.count(HOUSE), exited=mine.count(GOAL)))
            for i in own_pieces(seat):
                p = s.pieces[i]
                if 0 <= p < GOAL:
                    door = len(occ[KEYS[seat][p]]) == 2
                    lines.append(msg("maghreb.describe.door_piece" if door else "maghreb.describe.piece",
                                     piece=piece_name(i), square=square_name(seat, p)))
        return lines + self._notes(s)

    def _notes(self, s: MaghrebState) -> list[Message]:
        notes = [msg("maghreb.note.pending", seat=s.seat, value=v) for v in reversed(s.pending)]
        caller = self._caller(s)
        if self.call_actions(s, caller):
            notes.append(msg("maghreb.note.call_window", seat=caller, cheater_seat=1 - caller))
        if s.honest and s.winner < 0 and s.phase != ROLL:
            notes.append(msg("maghreb.note.replaying", seat=s.seat))
        return notes

    def scene(self, state: MaghrebState) -> Cross68Scene:
        s = state
        pawns = tuple(ScenePawn(colour=COLOURS[i >> 2], route=ROUTES[i >> 3], progress=p, label=str((i & 3) + 1))
                      for i, p in enumerate(s.pieces))
        last = (ROUTES[s.last_move[0] >> 3], s.last_move[1], s.last_move[2]) if s.last_move else None
        caller = self._caller(s)
        return Cross68Scene(
            pawns=pawns,
            dice=(s.die,) if s.die else (),
            used_dice=(s.phase != DIE,) if s.die else (),
            last_move=last,
            notes=tuple(self._notes(s)),
            extra={"pending": tuple(reversed(s.pending)),
                   "call_window": caller if self.call_actions(s, caller) else None},
            any_pair_blocks=True,
        )


@cache   # frequent events, built once (Messages are immutable)
def _roll_event(seat: int, value: int) -> Message:
    return msg("maghreb.event.roll", seat=seat, value=value)


@cache
def _turn_event(seat: int) -> Message:
    return msg("maghreb.event.turn", seat=seat)
