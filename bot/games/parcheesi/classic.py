"""Classic Parcheesi after French Wikipedia (tests/rules/parcheesi-classic.md, PC-*).

One die, every pawn starts in the house, two pawns out on the first 5, a 6
that counts 7 once the house is empty and must open a barrier, and the
"soufflé": skipping a compulsory bring-out or barrier opening is accepted
silently (PC-9.1), and any other player may call it out until the next
player's roll (PC-9.3). Everything shared with Mundijeux is in engine.py
and its engine_*.py modules.
"""
from __future__ import annotations

from bot.games.base import Applied, IllegalAction, Message, msg
from bot.games.parcheesi.board import HOUSE
from bot.games.parcheesi.engine import Engine
from bot.games.parcheesi.engine_moves import bonus_options, bridge_openings, bring_out_option, moves
from bot.games.parcheesi.engine_state import CALL, LEGAL, OUT, Occupancy, RawOption, State, set_at
from bot.games.parcheesi.engine_words import pawn_name


class Classic(Engine):
    id = "parcheesi-classic"
    name = "game.parcheesi-classic"
    board_family = "renderer.cross68"
    heuristic = "bot.ai.parcheesi:ENGINE"
    call_judge = "bot.ai.parcheesi:classic_call_valid"
    min_players = 2
    max_players = 4
    allows_cheating = True
    n_dice = 1                                  # PC-1.1
    # PC-1.3, PC-3.1: seat order is turn order, blue first.
    seat_colour_ids = {2: ("blue", "green"), 3: ("blue", "red", "green"), 4: ("blue", "red", "green", "yellow")}
    pawns_out_at_start = 0                      # PC-2.1
    bonus_may_join_own = True                   # PC-8.3
    lone_foreign_captured = True                # PC-5.5
    key = "parcheesi.classic"

    def _is_repeat(self, dice: tuple[int, ...]) -> bool:
        return dice[0] == 6                     # PC-6.1

    def _options(self, s: State, occ: Occupancy) -> dict[str, RawOption]:
        """Bonus first (PC-8.4); a 5 must bring out (PC-5.3), a 6 must open a barrier
        (PC-6.3); skipping either is accepted as an infraction (PC-9.1)."""
        if s.bonus:
            return bonus_options(s, occ, self.bonus_may_join_own)
        if s.used:
            return {}
        seat = s.turn
        die = s.dice[0]
        mine = s.pos[4 * seat:4 * seat + 4]
        steps = ((7 if die == 6 and HOUSE not in mine else die, 1),)     # PC-6.2
        found: dict[str, RawOption] = {}
        if die == 5:
            first_five = not s.released[seat] and mine.count(HOUSE) >= 2
            out = bring_out_option(s, seat, 1, count=2 if first_five else 1)
            if out:
                found[OUT] = out
                moves(occ, seat, steps, found, legal=False)
                return found
        elif die == 6:
            found = bridge_openings(s, occ, seat, steps)
            if found:
                others: dict[str, RawOption] = {}
                moves(occ, seat, steps, others, legal=False)
                return found | {code: o for code, o in others.items() if code not in found}
        moves(occ, seat, steps, found)
        return found

    def legal_actions(self, state: State) -> list[str]:
        return [a for a, o in self._raw_options(state).items() if o[LEGAL]]     # infractions are accepted only

    def call_actions(self, state: State, seat: int) -> list[str]:
        if state.winners or state.callee < 0 or seat == state.callee or not 0 <= seat < len(state.colours):
            return []
        return [CALL]

    def _call(self, state: State, seat: int) -> Applied[State]:
        """Judge a call-out from the infractions recorded for the judged turn (PC-9.3 to 9.5)."""
        if CALL not in self.call_actions(state, seat):
            raise IllegalAction(msg("parcheesi.error.cannot_call"))
        if not state.cheats:
            return Applied(state, (msg("parcheesi.event.call_none", caller_seat=seat, seat=state.callee),))
        events = [msg("parcheesi.event.call_valid", caller_seat=seat, seat=state.callee)]
        pos = state.pos
        for p in dict.fromkeys(state.cheats):
            if pos[p] != HOUSE:
                pos = set_at(pos, p, HOUSE)
                events.append(msg("parcheesi.event.blown", pawn=pawn_name(state.colours, p)))
        return self._finish(state._replace(pos=pos, cheats=()), events, self._occupancy(pos, state.colours))

    def _notes(self, s: State) -> list[Message]:
        notes = super()._notes(s)
        if s.callee >= 0 and not s.winners:
            notes.append(msg("parcheesi.note.call_window", seat=s.callee,
                             next_seat=(s.callee + 1) % len(s.colours)))
        return notes
