"""The ends of a roll and of a turn in the 68-square Parcheesi rulesets: passing the turn, the turn
forfeited at its deadline, the third double (six), the winners. Drafts are list copies of a State edited
by field index (engine_state's *_F), frozen once by their caller."""
from __future__ import annotations

import random
from collections.abc import Callable
from itertools import product
from typing import Any

from bot.games.base import Applied, Message, msg, skip_event
from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK
from bot.games.parcheesi.engine_state import (
    ALL_HOME,
    BONUS_F,
    CALLEE_F,
    CHEATS_F,
    COLOURS,
    COLOURS_F,
    DICE_F,
    LAST_F,
    LAST_MOVE_F,
    LOCKED_F,
    POS_F,
    REPEATS_F,
    SAFE,
    SQUARE,
    TURN_F,
    USED_F,
    State,
    freeze,
)
from bot.games.parcheesi.engine_words import NEXT_EVENT, pawn_name, roll_event

# A State being edited by field index.
Draft = list[Any]


class RollTable:
    """A variant's rolls: every roll action, e.g. "r4.5", with its dice (4, 5), whether they give another
    roll, and its event for each seat (`rolls`); the dice that give another roll (`repeats`). Built once
    per ruleset, then only read."""

    def __init__(self, n_dice: int, is_repeat: Callable[[tuple[int, ...]], bool]) -> None:
        made = [("r" + ".".join(map(str, dice)), dice) for dice in product(range(1, 7), repeat=n_dice)]
        self.rolls = {code: (dice, is_repeat(dice), tuple(roll_event(seat, code) for seat in range(4)))
                      for code, dice in made}
        self.codes = tuple(self.rolls)
        self.repeats = frozenset(dice for dice, repeat, _ in self.rolls.values() if repeat)
        # draw's table: a draw of `bits` random bits indexes it; None means draw again.
        self._bits = len(self.codes).bit_length()
        self._drawn: tuple[str | None, ...] = self.codes + (None,) * ((1 << self._bits) - len(self.codes))

    def draw(self, rng: random.Random) -> str:
        """rng.choice(codes), spelled out: the same draws (stored games still verify, bot/domain/dice.py), without
        depending on how a Python version implements choice, and without its two Python calls on the
        playouts' hot path."""
        bits, drawn = self._bits, self._drawn
        code = drawn[rng.getrandbits(bits)]
        while code is None:
            code = drawn[rng.getrandbits(bits)]
        return code


def pass_turn(d: Draft, events: list[Message]) -> None:
    """The next seat's turn begins: a roll is due."""
    turn = (d[TURN_F] + 1) % len(d[COLOURS_F])
    events.append(NEXT_EVENT[turn])
    d[TURN_F], d[DICE_F], d[USED_F], d[BONUS_F], d[REPEATS_F], d[LAST_F], d[LOCKED_F] = turn, (), 0, (), 0, -1, -1


def skip(state: State, repeats: frozenset[tuple[int, ...]]) -> Applied[State]:
    """The turn forfeited at its deadline (Ruleset.SKIP): the roll not made, or the dice not played,
    the pending bonuses and the roll a double (six) gives, are lost; the next player's turn (PM-3.1,
    PC-3.1). A skip before the turn's first roll stands for that roll: it closes the call-out window
    on the previous turn as the roll would have (PC-9.3); after it, the window on this turn stays open
    until the next player's roll. `repeats`: the rolls that give another one."""
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
        if dice in repeats:
            events.append(msg("timers.lost.extra_roll"))
    d = list(state)
    if not dice and state.callee != turn:
        d[CALLEE_F], d[CHEATS_F] = -1, ()
    pass_turn(d, events)
    return Applied(freeze(d), tuple(events))


def third_repeat(d: Draft, events: list[Message], key: str) -> None:
    """Third double / six: not played; the pawn moved last goes home unless safe (PM-5.5, PC-6.4).
    `key`: the variant's i18n prefix."""
    p = d[LAST_F]
    where = d[POS_F][p] if p >= 0 else HOUSE
    if where == HOUSE:
        events.append(msg(f"{key}.event.third_nothing"))
    elif where > LAST_TRACK or SAFE[SQUARE[d[COLOURS_F][p >> 2]][where]]:
        events.append(msg(f"{key}.event.third_safe", pawn=pawn_name(d[COLOURS_F], p)))
    else:
        pos = list(d[POS_F])
        pos[p] = HOUSE
        d[POS_F] = tuple(pos)
        d[LAST_MOVE_F] = (p, where, HOUSE)
        events.append(msg(f"{key}.event.third_home", pawn=pawn_name(d[COLOURS_F], p)))
    pass_turn(d, events)


def forfeit_reason(s: State, played: int, key: str) -> str:
    """The key of why the dice left are forfeited (`played`: the seat whose pawns the player to move
    plays; `key`: the variant's i18n prefix)."""
    first = 4 * played
    if all(p == HOUSE or p == GOAL for p in s.pos[first:first + 4]):
        return "parcheesi.reason.none_in_play"
    return f"{key}.reason.blocked"


def find_winners(teams: bool, colours: tuple[int, ...], pos: tuple[int, ...], turn: int, seat: int,
            events: list[Message]) -> tuple[int, ...]:
    """The winners once a pawn of `seat` reached the goal, or (): four pawns home win (PM-9.1,
    PC-10.1); in 2 vs 2 the team's eight (PM-10.5)."""
    if pos[4 * seat:4 * seat + 4] != ALL_HOME:
        return ()
    if teams:
        partner = (seat + 2) % 4
        if pos[4 * partner:4 * partner + 4] != ALL_HOME:
            if seat == turn:
                events.append(msg("parcheesi.event.plays_partner", seat=seat, colour=COLOURS[colours[partner]]))
            return ()
        found = (min(seat, partner), max(seat, partner))
        events.append(msg("parcheesi.event.team_wins", seat=found[0], partner_seat=found[1]))
        return found
    events.append(msg("parcheesi.event.wins", seat=seat))
    return (seat,)


def arrive(arrivals: tuple[int, ...], p: int) -> tuple[int, ...]:
    """Pawn p is now the latest arrival (PM-1.8)."""
    new = [*arrivals]
    new.remove(p)
    new.append(p)
    return tuple(new)
