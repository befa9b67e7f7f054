"""Parcheesi as played on Mundijeux (tests/rules/parcheesi-mundijeux.md, PM-*).

Two dice, one pawn out at the start, bridges opened on doubles, bring-out on a
5 or a sum of 5, bonuses of 10 and 20 that chain, the third double, and the
2 vs 2 mode. Everything shared with the other 68-square rulesets is in engine.py and
its engine_*.py modules.
"""
from __future__ import annotations

from typing import Any

from bot.games.base import Message, msg
from bot.games.parcheesi.engine import Engine
from bot.games.parcheesi.engine_moves import bonus_options, bridge_openings, bring_out_option, moves
from bot.games.parcheesi.engine_state import OUT, Occupancy, RawOption, State, owner
from bot.games.parcheesi.engine_words import pawn_name


def _by_dice(used: int, d0: int, d1: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """What a roll (d0, d1) of which the dice of mask `used` are spent allows: the dice mask a
    bring-out spends, 0 for none (a 5 or a total of 5, PM-6.1, PM-6.2), and the (squares, dice
    mask) of each move: each die left and, with both, their total; a double's dice once (PM-3.3)."""
    if not used & 1 and d0 == 5:
        mask = 1
    elif not used & 2 and d1 == 5:
        mask = 2
    else:
        mask = 3 if not used and d0 + d1 == 5 else 0
    steps: tuple[tuple[int, int], ...]
    if not used:
        steps = ((d0, 1), (2 * d0, 3)) if d0 == d1 else ((d0, 1), (d1, 2), (d0 + d1, 3))
    else:
        steps = ((d1, 2),) if used & 1 else ((d0, 1),)
    return mask, steps


# _by_dice of every roll, looked up: _BY_DICE[used][d0][d1] (computed once instead of at every option search).
_BY_DICE = tuple(tuple(tuple(_by_dice(used, d0, d1) for d1 in range(7)) for d0 in range(7)) for used in range(3))


class Mundijeux(Engine):
    id = "parcheesi"
    name = "game.parcheesi"
    board_family = "renderer.cross68"
    heuristic = "bot.ai.parcheesi:ENGINE"
    min_players = 2
    max_players = 4
    n_dice = 2
    # PM-1.9, PM-3.1: seat order is turn order, yellow first.
    seat_colour_ids = {2: ("yellow", "red"), 3: ("yellow", "blue", "red"), 4: ("yellow", "blue", "red", "green")}
    pawns_out_at_start = 1            # PM-2.1
    bonus_may_join_own = False        # PM-8.4
    lone_foreign_captured = False     # PM-6.6
    has_teams = True                  # PM-10
    key = "parcheesi.mundijeux"

    def player_range(self, options: dict[str, Any]) -> tuple[int, int]:
        return (4, 4) if options.get("teams") else super().player_range(options)   # PM-10.1

    def teams(self, n_players: int, options: dict[str, Any]) -> list[tuple[int, ...]] | None:
        # Yellow + red against blue + green (PM-10.1).
        return [(0, 2), (1, 3)] if options.get("teams") else None

    def _is_repeat(self, dice: tuple[int, ...]) -> bool:
        return dice[0] == dice[1]

    def _options(self, s: State, occ: Occupancy) -> dict[str, RawOption]:
        """The actions open now, after the priorities of PM-3.4."""
        colours, teams, pos, _, turn, dice, used, bonus, _, _, locked, _, _, _, _, _ = s
        if bonus:                                            # 1. the bonus (PM-8.5)
            return bonus_options(s, occ, self.bonus_may_join_own)
        if used == 3:
            return {}
        seat = owner(teams, pos, turn) if teams else turn
        d0, d1 = dice
        steps: tuple[tuple[int, int], ...]
        if not used and d0 == d1:                            # 2. opening a bridge (PM-5.2, PM-5.4)
            steps = ((d0, 1),) if d0 == 5 else ((d0, 1), (2 * d0, 3))
            found = bridge_openings(s, occ, seat, steps)
            if found:
                return found
        mask, steps = _BY_DICE[used][d0][d1]
        if mask:                                             # 3. bringing out (PM-6.1, PM-6.2)
            out = bring_out_option(s, seat, mask)
            if out:
                return {OUT: out}
        found = {}                                           # 4. anything else
        moves(occ, seat, steps, found, locked)
        return found

    def _notes(self, s: State) -> list[Message]:
        notes = super()._notes(s)
        if s.locked >= 0 and s.dice and not s.winners:
            notes.append(msg("parcheesi.note.locked", pawn=pawn_name(s.colours, s.locked)))
        return notes
