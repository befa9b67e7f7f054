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
from typing import Any, TypedDict

from bot.games.base import Applied, IllegalAction, Message, Result, Ruleset, msg, skip_event
from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK, Cross68Scene
from bot.games.parcheesi.maghreb_moves import (
    NO_EAT,
    Occupancy,
    accepted,
    call_actions,
    caller,
    find_legal,
    house_piece,
    moves_by,
    occupancy,
    own_pieces,
    physical,
    reach,
)
from bot.games.parcheesi.maghreb_state import (
    COLOURS,
    COUNT,
    DIE,
    ROLL,
    SAFE,
    START,
    Action,
    MaghrebState,
    parse,
    parse_piece,
    piece_code,
    piece_name,
    square_name,
)
from bot.games.parcheesi.maghreb_words import action_label, describe, roll_event, scene, turn_event

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
        found = find_legal(s, self._occupancy(s.pieces))
        self._memo = (s, found)      # one assignment: never a state with another's actions
        return found

    def accepted_actions(self, state: MaghrebState) -> list[str]:
        return accepted(state, self._occupancy(state.pieces), self.legal_actions(state))

    # --- call-outs (MG-10.3) -------------------------------------------------
    def call_actions(self, state: MaghrebState, seat: int) -> list[str]:
        return call_actions(state, seat)

    # --- apply -----------------------------------------------------------------
    def apply(self, state: MaghrebState, action: str, seat: int | None = None) -> Applied[MaghrebState]:
        if action == self.SKIP:
            return self._skip(state, seat)
        a = parse(action)
        if state.winner >= 0:
            raise IllegalAction(msg("maghreb.error.game_over"))
        if a.kind == "call":
            return self._call(state, action, a, caller(state) if seat is None else seat)
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
        events = [roll_event(s.seat, value)]
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
            if not physical(s, a, occ):
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
        key = "maghreb.event.move" if origin != HOUSE else \
            "maghreb.event.enter" if a.value else "maghreb.event.bring_out"
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
            if moves_by(s, self._occupancy(s.pieces), s.pending[-1]):
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
        events.append(turn_event(nxt))
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
        return action_label(state, action)

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
        return describe(state, self._occupancy(state.pieces))

    def scene(self, state: MaghrebState) -> Cross68Scene:
        return scene(state)
