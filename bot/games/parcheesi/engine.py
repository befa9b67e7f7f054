"""The rules engine shared by the 68-square Parcheesi rulesets.

`Engine` holds everything the Mundijeux and classic rules really share: playing a
roll, a move along a route with its captures and bridges (barriers), a bring-out
onto the start square, bonuses and their chaining, the third double (six), the end of a
roll and of a turn. A variant subclass says which actions are open before each action
(`_options`, built from engine_moves.py) and sets a few class attributes, the way
python-chess builds its variant boards on one base board. The state, action codes and
tables are in engine_state.py, the ends of turns in engine_turns.py, the words in
engine_words.py.
"""
from __future__ import annotations

import random
from typing import Any, ClassVar

from bot.games.base import Applied, IllegalAction, Message, Result, Ruleset, msg
from bot.games.parcheesi.board import GOAL, HOUSE, Cross68Scene
from bot.games.parcheesi.engine_state import (
    BONUS,
    BOTH_BITS,
    BRING_OUT,
    CALL,
    CALLEE_F,
    CHEATS_F,
    COLOURS,
    DICE_F,
    LOCKED_F,
    PAWN_CODE,
    SQUARE,
    USED_F,
    WEIGHTS,
    Occupancy,
    Option,
    RawOption,
    State,
    applied,
    freeze,
    new_state,
    occupancy,
    owner,
    pawns_on,
    set_at,
    state_from_json,
    state_to_json,
)
from bot.games.parcheesi.engine_turns import (
    RollTable,
    arrive,
    find_winners,
    forfeit_reason,
    pass_turn,
    skip,
    third_repeat,
)
from bot.games.parcheesi.engine_words import (
    AGAIN_EVENT,
    MOVE_EVENTS,
    NEXT_EVENT,
    bonus_lost_event,
    capture_event,
    describe,
    forfeit_event,
    goal_event,
    move_event,
    option_label,
    out_event,
    pawn_group_label,
    refusal,
    roll_refusal,
    scene,
    shared_notes,
)


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
        self._rolls = RollTable(self.n_dice, self._is_repeat)

    # --- setup -------------------------------------------------------------
    def seat_colours(self, n_players: int, options: dict[str, Any]) -> list[tuple[str, ...]]:
        return [(c,) for c in self.seat_colour_ids[n_players]]

    def new_game(self, n_players: int, options: dict[str, Any], seed: int) -> State:
        self.check_setup(n_players, options)
        colours = tuple(COLOURS.index(c) for c in self.seat_colour_ids[n_players])
        return new_state(colours, bool(options.get("teams")), self.pawns_out_at_start)

    # --- serialisation -------------------------------------------------------
    def to_json(self, state: State) -> dict[str, Any]:
        return state_to_json(state)

    def from_json(self, data: dict[str, Any]) -> State:
        return state_from_json(data)

    # --- whose move ------------------------------------------------------------
    def to_move(self, state: State) -> int | None:
        return None if state.winners else state.turn

    def result(self, state: State) -> Result | None:
        return Result(state.winners) if state.winners else None

    def roll_due(self, state: State) -> bool:
        return not state.winners and not state.dice

    def random_roll(self, state: State, rng: random.Random) -> str:
        return self._rolls.draw(rng)

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
                return skip(state, self._rolls.repeats)
            raise refusal(action)
        if option[0] == BRING_OUT:
            return self._bring_out(state, option)
        return self._move(state, option)

    def _call(self, state: State, seat: int) -> Applied[State]:
        raise IllegalAction(msg("parcheesi.error.no_call"))

    def _is_repeat(self, dice: tuple[int, ...]) -> bool:
        """Does this roll give another one (a double, a six)?"""
        raise NotImplementedError

    def _roll(self, state: State, action: str) -> Applied[State]:
        roll = self._rolls.rolls.get(action)
        if roll is None:
            if action == self.SKIP:
                return skip(state, self._rolls.repeats)
            raise roll_refusal(action)
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
                third_repeat(d, events, self.key)
                return applied((freeze(d), tuple(events)))
            repeats += 1
        return self._finish(freeze((colours, teams, pos, arrivals, turn, dice, 0, bonus, repeats, last, -1,
                                     last_move, winners, released, cheats, callee)), events,
                            self._occupancy(pos, colours))

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
        events = [MOVE_EVENTS[c][i][src].get(dst) or move_event(c, i, src, dst)]
        # One list copy: cheaper than slicing and concatenating pos.
        new = [*before]
        new[p] = dst
        if victim >= 0:                                            # PM-7.1, PC-7.1
            new[victim] = HOUSE
            bonus += (20,)
            events.append(capture_event(colours, p, victim))
        pos = tuple(new)
        counted, counted_colours, counts, bridges = self._occ
        # Carry the occupancy to the new position with a few integer operations instead of counting it
        # afresh (occupancy()).
        if counted is before and counted_colours is colours:
            row = WEIGHTS[c]
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
            arrivals = arrive(arrivals, p)
        if dst == GOAL:
            bonus += (10,)                                         # PM-8.1, PC-8.2
            events.append(goal_event(colours, p))
            winners = find_winners(teams, colours, pos, turn, p >> 2, events)
            if winners:
                bonus = ()                                         # unused dice and bonuses are dropped
        if not bonus and not winners and used == (1 << len(dice)) - 1:
            # The roll is spent: the next roll is due (what _finish would find, one State less).
            if dice in self._rolls.repeats:
                events.append(AGAIN_EVENT[turn])
                return applied((freeze((colours, teams, pos, arrivals, turn, (), 0, bonus, repeats, p, -1,
                                          (p, src, dst), winners, released, cheats, callee)), tuple(events)))
            turn = (turn + 1) % len(colours)
            events.append(NEXT_EVENT[turn])
            return applied((freeze((colours, teams, pos, arrivals, turn, (), 0, (), 0, -1, -1,
                                      (p, src, dst), winners, released, cheats, callee)), tuple(events)))
        return self._finish(freeze((colours, teams, pos, arrivals, turn, dice, used, bonus, repeats, p, locked,
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
        weight = WEIGHTS[c][0]
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
            events.append(out_event(c, p & 3))
            if victim >= 0 and bridges & weight << 1:   # a foreign bridge loses a pawn
                bridges ^= weight << 1
            if 0 in pos[first:first + 4]:           # it joins an own pawn: a new bridge
                bridges |= weight << 1
            new = list(pos)
            new[p] = 0
            if victim >= 0:
                new[victim] = HOUSE
                bonus += (20,)                                     # PM-6.9, PC-5.6
                events.append(capture_event(colours, p, victim))
            else:
                counts += weight
            pos = tuple(new)
            arrivals = arrive(arrivals, p)
        occ = self._occ = pos, colours, counts, bridges
        if not released[seat]:
            released = set_at(released, seat, True)
        return self._finish(freeze((colours, teams, pos, arrivals, turn, dice, used, bonus, repeats, p, locked,
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
                events.append(bonus_lost_event(s.bonus[0]))
                s = s._replace(bonus=s.bonus[1:])
                continue
            if s.used != (1 << len(s.dice)) - 1:
                events.append(forfeit_event(s.turn, s.dice, s.used, forfeit_reason(s, self.owner(s), self.key)))
            d = list(s)
            if s.dice in self._rolls.repeats:
                events.append(AGAIN_EVENT[s.turn])
                d[DICE_F], d[USED_F], d[LOCKED_F] = (), 0, -1
            else:
                pass_turn(d, events)
            s = freeze(d)                           # a roll is due: nothing left to drop
        return applied((s, tuple(events)))

    # --- words -------------------------------------------------------------------
    def action_label(self, state: State, action: str) -> Message:
        if action == CALL:
            return msg("parcheesi.label.call", seat=state.callee)
        if not state.dice:
            return msg("parcheesi.label.roll")
        o = self.options(state).get(action)
        if o is None:
            raise refusal(action)
        return option_label(state, o)

    def distinct_actions(self, state: State, actions: list[str]) -> list[str]:
        """Two pawns of one colour on one square make the same move with the same dice: offered once."""
        options, seen, found = self.options(state), set(), []
        for action in actions:
            o = options.get(action)
            same = None if o is None else (o.kind, o.pawn >> 2, o.src, o.dst, o.mask, o.legal, o.brought_out)
            if same is None or same not in seen:
                seen.add(same)
                found.append(action)
        return found

    def action_group(self, state: State, action: str) -> str | None:
        o = self.options(state).get(action)
        if o is None:
            return None
        return PAWN_CODE[state.colours[o.pawn >> 2]][o.pawn % 4]

    def group_label(self, state: State, group: str) -> Message:
        return pawn_group_label(group)

    def describe(self, state: State) -> list[Message]:
        return describe(state, self._notes(state))

    def _notes(self, s: State) -> list[Message]:
        """What the player to move sees beside the board (each variant adds its own)."""
        return shared_notes(s, self.owner(s))

    def scene(self, state: State) -> Cross68Scene:
        return scene(state, self._notes(state))
