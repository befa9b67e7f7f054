"""Barricade (Malefiz) per tests/rules/barricade.md (rule IDs BA-n.m).

Action codes (points are named as on the board, e.g. "i3"):
- "roll:N"      a die showing N (drawn by the session; order of play and turns)
- "roll"        roll now and place the held barricade after moving (BA-5.2)
- "again"       roll again after a 6, for the same pawn (BA-4.1); "stop" declines
- "start-c1"    a pawn of the start area to c1; "e5-g7" the pawn on e5 to g7
                (also a bounce, BA-6.2). Only the destination matters: captures,
                taking a barricade and winning depend on where a move ends.
- "bar:i3"      place a held barricade on i3
"""
from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Any

from bot.games.barricade.board import Board, standard_board
from bot.games.barricade.state import (
    MOVE,
    ORDER,
    OVER,
    PLACE,
    ROLL,
    SIX,
    START,
    START_OF_TURN,
    Held,
    State,
)
from bot.games.barricade.turns import end_of_moves, is_free, order_roll, skip
from bot.games.barricade.words import (
    AREA_PREFIX,
    START_NAME,
    action_label,
    describe,
    group_area,
    move_code,
    pawn_label,
    pawn_name,
)
from bot.games.base import Applied, IllegalAction, Message, Result, Ruleset, msg

PAWNS = 5
_ROLL_RE = re.compile(r"roll:([1-6])")


class Barricade(Ruleset[State]):
    id = "barricade"
    name = "game.barricade"
    board_family = "renderer.barricade"
    heuristic = "bot.ai.barricade:HEURISTIC"
    min_players = 2
    max_players = 4
    pick_group_first = True   # pawn, then its destination on a focused board
    order_by_dice = True      # everybody rolls for the order of play (BA-2.2)

    def __init__(self, board: Board | None = None):
        self.board = board or standard_board()

    # --- setup ---------------------------------------------------------
    def seat_colours(self, n_players: int, options: dict[str, Any]) -> list[tuple[str, ...]]:
        self.check_setup(n_players, options)
        return [(c,) for c in self.board.colour_sets[n_players]]

    def new_game(self, n_players: int, options: dict[str, Any], seed: int) -> State:
        """BA-2.1: pawns in their start areas, a barricade on every black point;
        then everybody rolls for the order of play (BA-2.2)."""
        self.check_setup(n_players, options)
        seats = tuple(range(n_players))
        return State(
            colours=self.board.colour_sets[n_players],
            pawns=((START,) * PAWNS,) * n_players,
            barricades=self.board.black_points,
            ranking=(seats,),
        )

    def to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: dict[str, Any]) -> State:
        return State.from_json(data)

    # --- whose move, what is legal -----------------------------------------
    def to_move(self, state: State) -> int | None:
        return None if state.stage == OVER else state.seat

    def result(self, state: State) -> Result | None:
        return None if state.winner is None else Result((state.winner,))

    def roll_due(self, state: State) -> bool:
        return state.stage in (ORDER, ROLL)

    def random_roll(self, state: State, rng: random.Random) -> str:
        return f"roll:{rng.randint(1, 6)}"

    def legal_actions(self, state: State) -> list[str]:
        if state.stage == MOVE:
            return [move_code(self.board, frm, dest) for frm, dest in self.moves(state)]
        if state.stage == SIX:
            return ["again", "stop"]
        if state.stage in (START_OF_TURN, PLACE):
            places = [f"bar:{self.board.names[p]}" for p in self.free_points(state)]
            return ["roll"] + places if state.stage == START_OF_TURN else places
        return []

    def moves(self, state: State) -> list[tuple[int, int]]:
        """(from, to) of every legal move for `state.die` (BA-3.1 to BA-3.9, BA-6.2 to BA-6.4)."""
        seat = state.seat
        return list(_moves(self.board, state.colours[seat], state.pawns[seat], state.barricades, state.die,
                           state.bonus))

    def refusal(self, state: State, action: str) -> Message | None:
        """Why a barricade may not go where `action` ("bar:<point>") puts it, while one is to be placed (BA-5.3)."""
        kind, _, name = action.partition(":")
        if kind != "bar" or state.stage not in (START_OF_TURN, PLACE) or not self.free_points(state):
            return None
        point = self.board.index.get(name)
        if point is None:
            columns = sorted({n[0] for n in self.board.names})
            rows = sorted({int(n[1:]) for n in self.board.names})
            return msg("barricade.error.no_such_point", point=name[:12], first_column=columns[0],
                       last_column=columns[-1], first_row=rows[0], last_row=rows[-1])
        if point in self.board.start_line:
            return msg("barricade.error.place_start_line", point=name)
        if point == self.board.goal:
            return msg("barricade.error.place_goal", point=name)
        if point in state.barricades:
            return msg("barricade.error.place_barricade", point=name)
        if any(point in pawns for pawns in state.pawns):
            return msg("barricade.error.place_pawn", point=name)
        return None

    def free_points(self, state: State) -> list[int]:
        """Where a barricade may be placed (BA-5.3)."""
        return [p for p in range(len(self.board.names)) if is_free(self.board, state, p)]

    # --- applying ----------------------------------------------------------
    def apply(self, state: State, action: str, seat: int | None = None) -> Applied[State]:
        if state.stage == OVER:
            raise IllegalAction(msg("barricade.error.game_over"))
        if seat is not None and seat != state.seat:
            raise IllegalAction(msg("barricade.error.not_your_turn"))
        if action == self.SKIP:
            return skip(self.board, state)
        kind, a, b = self._parse(action)
        if kind == "roll:":
            if not self.roll_due(state):
                raise IllegalAction(msg("barricade.error.no_roll_due"))
            return order_roll(state, a) if state.stage == ORDER else self._roll(state, a)
        if not self._allowed(state, kind, a, b):
            raise IllegalAction(msg("barricade.error.illegal", action=action))
        if kind == "move":
            return self._move(state, a, b)
        if kind == "bar":
            return self._place(state, a)
        if kind in ("roll", "again"):   # BA-5.2 (place after moving), BA-4.1
            return Applied(state.evolve(stage=ROLL))
        return Applied(*end_of_moves(state.evolve(bonus=None), [msg("barricade.event.stop", seat=state.seat)]))

    def _parse(self, action: str) -> tuple[str, int, int]:
        """(kind, a, b); strict: anything malformed is refused."""
        index = self.board.index
        m = _ROLL_RE.fullmatch(action)
        if m:
            return "roll:", int(m.group(1)), 0
        if action in ("roll", "again", "stop"):
            return action, 0, 0
        if action.startswith("bar:") and action[4:] in index:
            return "bar", index[action[4:]], 0
        frm, sep, dest = action.partition("-")
        if sep and (frm == START_NAME or frm in index) and dest in index:
            return "move", START if frm == START_NAME else index[frm], index[dest]
        raise IllegalAction(msg("barricade.error.malformed", action=action))

    def _allowed(self, state: State, kind: str, a: int, b: int) -> bool:
        """Whether a parsed non-roll action is in legal_actions (without listing them)."""
        if kind == "move":
            return state.stage == MOVE and (a, b) in self.moves(state)
        if kind == "bar":
            return state.stage in (START_OF_TURN, PLACE) and is_free(self.board, state, a)
        return state.stage == (START_OF_TURN if kind == "roll" else SIX)

    def _roll(self, state: State, value: int) -> Applied[State]:
        rolled = state.evolve(die=value, stage=MOVE)
        events = [msg("barricade.event.roll", seat=state.seat, value=value)]
        if self.moves(rolled):
            return Applied(rolled, tuple(events))
        if state.bonus is not None:   # BA-4.2
            events.append(msg("barricade.event.roll_lost", seat=state.seat, value=value,
                              at=self.board.names[state.bonus]))
        else:                         # BA-3.9
            events.append(msg("barricade.event.no_move", seat=state.seat, value=value))
        return Applied(*end_of_moves(rolled.evolve(bonus=None), events))

    def _place(self, state: State, point: int) -> Applied[State]:
        """BA-5.2, BA-5.3, BA-5.7: one due barricade goes back on the board."""
        i = next(i for i, h in enumerate(state.held) if h.due and h.seat == state.seat)
        held = state.held[:i] + state.held[i + 1:]
        placed = state.evolve(held=held, barricades=tuple(sorted(state.barricades + (point,))))
        events = [msg("barricade.event.place", seat=state.seat, at=self.board.names[point])]
        if any(h.due and h.seat == state.seat for h in held):
            return Applied(placed, tuple(events))
        if state.stage == START_OF_TURN:
            return Applied(placed.evolve(stage=ROLL), tuple(events))
        return Applied(*end_of_moves(placed, events))

    def _move(self, state: State, frm: int, dest: int) -> Applied[State]:
        board, seat, names = self.board, state.seat, self.board.names
        bounce = frm != START and (state.die or 0) >= 2 and frm in board.bounce_paths
        key = "barricade.event.bounce" if bounce else "barricade.event.move"
        events = [msg(key, seat=seat, pawn=pawn_label(self.board, frm), dest=names[dest])]
        mine = list(state.pawns[seat])
        mine.remove(frm)
        pawns = list(state.pawns)
        pawns[seat] = tuple(sorted(mine + [dest]))
        held = list(state.held)
        if dest != frm:   # the taking pawn left its point: its owner keeps the barricade (BA-5.6)
            held = [h._replace(pinned=False) if h.pinned and h.point == frm else h for h in held]
        barricades = state.barricades
        for victim, theirs in enumerate(state.pawns):
            if victim != seat and dest in theirs:   # BA-3.6
                rest = list(theirs)
                rest.remove(dest)
                pawns[victim] = (START,) + tuple(sorted(rest))
                events.append(msg("barricade.event.capture", seat=seat, victim_seat=victim, at=names[dest]))
                for i, h in enumerate(held):
                    if h.pinned and h.point == dest:   # BA-5.5: the privilege changes hands
                        held[i] = Held(seat, dest, True, False)
                        events.append(msg("barricade.event.barricade_won", seat=seat, loser_seat=victim,
                                          at=names[dest]))
        if dest in barricades:   # BA-5.1
            barricades = tuple(b for b in barricades if b != dest)
            held.append(Held(seat, dest, True, False))
            events.append(msg("barricade.event.take", seat=seat, at=names[dest]))
        moved = state.evolve(
            pawns=tuple(pawns), held=tuple(sorted(held)), barricades=barricades, last_move=(seat, frm, dest)
        )
        if dest == board.goal and not bounce:   # BA-6.1
            events.append(msg("barricade.event.win", seat=seat))
            return Applied(moved.evolve(stage=OVER, winner=seat, bonus=None), tuple(events))
        if state.die == 6:   # BA-4.1
            events.append(msg("barricade.event.six", seat=seat, at=names[dest]))
            return Applied(moved.evolve(stage=SIX, bonus=dest), tuple(events))
        return Applied(*end_of_moves(moved.evolve(bonus=None), events))

    # --- words -------------------------------------------------------------
    def action_label(self, state: State, action: str) -> Message:
        return action_label(self.board, state, *self._parse(action))

    def action_group(self, state: State, action: str) -> str | None:
        """The pawn for moves ("e5", or "start": also the renderer's `focus`), the
        area (band of rows, "rows:2-3") for barricades."""
        kind, a, _ = self._parse(action)
        if kind == "move":
            return pawn_name(self.board, a)
        if kind == "bar":
            area = self.board.area_of(a)
            return f"{AREA_PREFIX}{area.low}-{area.high}"
        return None

    def group_label(self, state: State, group: str) -> Message:
        area = group_area(self.board, group)
        if area is not None:
            return msg("barricade.group.area", low=area.low, high=area.high)
        if group == START_NAME or group in self.board.index:
            return pawn_label(self.board, START if group == START_NAME else self.board.index[group])
        return super().group_label(state, group)

    def describe(self, state: State) -> list[Message]:
        return describe(self.board, state)

    def rules_summary(self) -> Message:
        return msg("rules.barricade")


@lru_cache(maxsize=4096)
def _moves(board: Board, colour: str, mine: tuple[int, ...], barricades: tuple[int, ...], n: int,
           bonus: int | None) -> tuple[tuple[int, int], ...]:
    """Barricade.moves; only the mover's own pawns matter, as pawns of any colour may be passed (BA-3.4)."""
    own = set(mine)
    bars = set(barricades)
    pawns = [bonus] if bonus is not None else sorted(own)  # BA-4.1
    found = []
    for frm in pawns:
        if frm == START:
            reach = board.enter_paths[colour][n]
        elif n >= 2 and frm in board.bounce_paths:
            continue   # next to the goal: no ordinary move of 2 or more (BA-6.2)
        else:
            reach = board.paths[frm][n]
        found += [(frm, d) for d, passes in reach.items() if d not in own and any(map(bars.isdisjoint, passes))]
    if found or n < 2:
        return tuple(found)
    # Nobody else can move: a pawn next to the goal bounces (BA-6.2, BA-6.3).
    return tuple(
        (frm, d)
        for frm in pawns if frm in board.bounce_paths
        for d, passes in board.bounce_paths[frm][n].items()
        if (d not in own or d == frm) and any(map(bars.isdisjoint, passes))
    )
