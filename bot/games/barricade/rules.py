"""Barricade (Malefiz) per ../shared/rules/barricade.md (rule IDs BA-n.m).

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

from bot.games.barricade.board import Area, Board, standard_board
from bot.games.barricade.state import (
    MOVE, ORDER, OVER, PLACE, ROLL, SIX, START, START_OF_TURN, Held, State,
)
from bot.games.base import Applied, IllegalAction, Message, Result, Ruleset, msg, skip_event

PAWNS = 5
START_NAME = "start"
AREA_PREFIX = "rows:"   # action_group key of a placement area
_ROLL_RE = re.compile(r"roll:([1-6])")


class Barricade(Ruleset[State]):
    id = "barricade"
    name = "game.barricade"
    board_family = "renderer.barricade"
    heuristic = "bot.ai.barricade:HEURISTIC"
    min_players = 2
    max_players = 4
    pick_group_first = True   # pawn, then its destination on a focused board (issue 5)
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
            return [self._move_code(frm, dest) for frm, dest in self.moves(state)]
        if state.stage == SIX:
            return ["again", "stop"]
        if state.stage in (START_OF_TURN, PLACE):
            places = [f"bar:{self.board.names[p]}" for p in self.free_points(state)]
            return ["roll"] + places if state.stage == START_OF_TURN else places
        return []

    def moves(self, state: State) -> list[tuple[int, int]]:
        """(from, to) of every legal move for `state.die` (BA-3.1 to BA-3.9, BA-6.2 to BA-6.4)."""
        seat = state.seat
        return list(_moves(self.board, state.colours[seat], state.pawns[seat], state.barricades, state.die, state.bonus))

    def free_points(self, state: State) -> list[int]:
        """Where a barricade may be placed (BA-5.3)."""
        return [p for p in range(len(self.board.names)) if self._is_free(state, p)]

    def _is_free(self, state: State, point: int) -> bool:
        board = self.board
        return (
            point != board.goal and point not in board.start_line and point not in state.barricades
            and not any(point in p for p in state.pawns)
        )

    # --- applying ----------------------------------------------------------
    def apply(self, state: State, action: str, seat: int | None = None) -> Applied[State]:
        if state.stage == OVER:
            raise IllegalAction(msg("barricade.error.game_over"))
        if seat is not None and seat != state.seat:
            raise IllegalAction(msg("barricade.error.not_your_turn"))
        if action == self.SKIP:
            return self._skip(state)
        kind, a, b = self._parse(action)
        if kind == "roll:":
            if not self.roll_due(state):
                raise IllegalAction(msg("barricade.error.no_roll_due"))
            return self._order_roll(state, a) if state.stage == ORDER else self._roll(state, a)
        if not self._allowed(state, kind, a, b):
            raise IllegalAction(msg("barricade.error.illegal", action=action))
        if kind == "move":
            return self._move(state, a, b)
        if kind == "bar":
            return self._place(state, a)
        if kind in ("roll", "again"):   # BA-5.2 (place after moving), BA-4.1
            return Applied(state.evolve(stage=ROLL))
        return Applied(*self._end_of_moves(state.evolve(bonus=None), [msg("barricade.event.stop", seat=state.seat)]))

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
            return state.stage in (START_OF_TURN, PLACE) and self._is_free(state, a)
        return state.stage == (START_OF_TURN if kind == "roll" else SIX)

    def _order_roll(self, state: State, value: int) -> Applied[State]:
        """BA-2.2: everybody rolls; ties roll again among themselves."""
        events = [msg("barricade.event.order_roll", seat=state.seat, value=value)]
        rolls = state.order_rolls + ((state.seat, value),)
        at = next(i for i, g in enumerate(state.ranking) if len(g) > 1)
        group = state.ranking[at]
        if len(rolls) < len(group):
            return Applied(state.evolve(order_rolls=rolls, seat=group[len(rolls)], die=value), tuple(events))
        split = []
        for v in sorted({v for _, v in rolls}, reverse=True):
            tied = tuple(s for s, w in rolls if w == v)
            split.append(tied)
            if len(tied) > 1:
                events += [msg("barricade.event.order_tied", seat=s, value=v) for s in tied]
        ranking = state.ranking[:at] + tuple(split) + state.ranking[at + 1:]
        unsettled = [g for g in ranking if len(g) > 1]
        if unsettled:
            return Applied(state.evolve(ranking=ranking, order_rolls=(), seat=unsettled[0][0], die=value), tuple(events))
        order = tuple(g[0] for g in ranking)
        events += [msg("barricade.event.order_rank", rank=i + 1, seat=s) for i, s in enumerate(order)]
        settled = state.evolve(ranking=(), order_rolls=(), order=order, die=value)
        return Applied(self._start_turn(settled, order[0]), tuple(events))

    def _start_turn(self, state: State, seat: int) -> State:
        """A turn begins: barricades this seat holds must be placed during it (BA-5.2)."""
        held = tuple(h._replace(due=True) if h.seat == seat else h for h in state.held)
        due = any(h.seat == seat for h in held)
        return state.evolve(seat=seat, held=held, stage=START_OF_TURN if due else ROLL, bonus=None)

    def _roll(self, state: State, value: int) -> Applied[State]:
        rolled = state.evolve(die=value, stage=MOVE)
        events = [msg("barricade.event.roll", seat=state.seat, value=value)]
        if self.moves(rolled):
            return Applied(rolled, tuple(events))
        if state.bonus is not None:   # BA-4.2
            events.append(msg("barricade.event.roll_lost", seat=state.seat, value=value, at=self.board.names[state.bonus]))
        else:                         # BA-3.9
            events.append(msg("barricade.event.no_move", seat=state.seat, value=value))
        return Applied(*self._end_of_moves(rolled.evolve(bonus=None), events))

    def _end_of_moves(self, state: State, events: list[Message]) -> tuple[State, tuple[Message, ...]]:
        """After the last move of a turn: place due barricades (BA-5.2), else pass."""
        if any(h.due and h.seat == state.seat for h in state.held):
            events.append(msg("barricade.event.must_place", seat=state.seat))
            return state.evolve(stage=PLACE), tuple(events)
        return self._start_turn(state, self._next_seat(state)), tuple(events)

    @staticmethod
    def _next_seat(state: State) -> int:
        return state.order[(state.order.index(state.seat) + 1) % len(state.order)]

    def _skip(self, state: State) -> Applied[State]:
        """The turn forfeited at its deadline (Ruleset.SKIP): the roll not made, the die not played or the
        extra roll of a 6 is lost, and the next player's turn begins (BA-2.3). A barricade due this turn
        (BA-5.2) must not leave the game: the absent player loses his choice of point and it goes back on
        its former point, or on the free point nearest to it when that one is taken (BA-5.3). Barricades
        taken in this turn stay held until his next turn, as BA-5.2 says. The rolls for the order of play
        are not a turn (BA-2.2: the bot rolls for everyone): there is nothing to forfeit then."""
        if state.stage == ORDER:
            raise IllegalAction(msg("barricade.error.illegal", action=self.SKIP))
        seat = state.seat
        events = [skip_event(seat)]
        if state.stage == MOVE:
            events.append(msg("timers.lost.die", dice=str(state.die)))
        elif state.stage == SIX or (state.stage == ROLL and state.bonus is not None):
            events.append(msg("timers.lost.extra_roll"))
        elif state.stage != PLACE:
            events.append(msg("timers.lost.roll"))
        placed = state.evolve(held=tuple(h for h in state.held if not (h.seat == seat and h.due)), bonus=None)
        for held in state.held:
            if held.seat == seat and held.due:
                point = self._nearest_free(placed, held.point)
                placed = placed.evolve(barricades=tuple(sorted(placed.barricades + (point,))))
                names = self.board.names
                events.append(msg("barricade.lost.back", seat=seat, at=names[point]) if point == held.point else
                              msg("barricade.lost.near", seat=seat, at=names[point], former=names[held.point]))
        return Applied(self._start_turn(placed, self._next_seat(placed)), tuple(events))

    def _nearest_free(self, state: State, point: int) -> int:
        """`point` if a barricade may stand there, else the nearest such point (fewest lines away, then
        first in the board's order)."""
        seen, ring = {point}, [point]
        while ring:
            free = [p for p in ring if self._is_free(state, p)]
            if free:
                return min(free)
            ring = sorted({near for p in ring for near in self.board.neighbours[p]} - seen)
            seen.update(ring)
        raise AssertionError("no free point on the board")

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
        return Applied(*self._end_of_moves(placed, events))

    def _move(self, state: State, frm: int, dest: int) -> Applied[State]:
        board, seat, names = self.board, state.seat, self.board.names
        bounce = frm != START and (state.die or 0) >= 2 and frm in board.bounce_paths
        key = "barricade.event.bounce" if bounce else "barricade.event.move"
        events = [msg(key, seat=seat, pawn=self._pawn_label(frm), dest=names[dest])]
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
                        events.append(msg("barricade.event.barricade_won", seat=seat, loser_seat=victim, at=names[dest]))
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
        return Applied(*self._end_of_moves(moved.evolve(bonus=None), events))

    # --- words -------------------------------------------------------------
    def _pawn_name(self, point: int) -> str:
        return START_NAME if point == START else self.board.names[point]

    def _move_code(self, frm: int, dest: int) -> str:
        return f"{self._pawn_name(frm)}-{self.board.names[dest]}"

    def _pawn_label(self, point: int) -> Message:
        if point == START:
            return msg("barricade.pawn.start")
        return msg("barricade.pawn.at", at=self.board.names[point])

    def action_label(self, state: State, action: str) -> Message:
        kind, a, b = self._parse(action)
        names = self.board.names
        if kind == "roll:":
            return msg("barricade.action.roll_value", value=a)
        if kind == "bar":
            return msg("barricade.action.place", at=names[a])
        if kind == "again":
            return msg("barricade.action.again", at=names[state.bonus] if state.bonus is not None else "?")
        if kind != "move":
            return msg(f"barricade.action.{kind}")
        bounce = a != START and (state.die or 0) >= 2 and a in self.board.bounce_paths
        outcome = ""
        if b == self.board.goal and not bounce:
            outcome = "_goal"
        elif b in state.barricades:
            outcome = "_take"
        elif any(b in p for s, p in enumerate(state.pawns) if s != state.seat):
            outcome = "_capture"
        kind = "bounce" if bounce else "move"
        return msg(f"barricade.action.{kind}{outcome}", pawn=self._pawn_label(a), dest=names[b])

    def action_group(self, state: State, action: str) -> str | None:
        """The pawn for moves ("e5", or "start": also the renderer's `focus`), the
        area (band of rows, "rows:2-3") for barricades."""
        kind, a, _ = self._parse(action)
        if kind == "move":
            return self._pawn_name(a)
        if kind == "bar":
            area = self.board.area_of(a)
            return f"{AREA_PREFIX}{area.low}-{area.high}"
        return None

    def group_label(self, state: State, group: str) -> Message:
        area = group_area(self.board, group)
        if area is not None:
            return msg("barricade.group.area", low=area.low, high=area.high)
        if group == START_NAME or group in self.board.index:
            return self._pawn_label(START if group == START_NAME else self.board.index[group])
        return super().group_label(state, group)

    def describe(self, state: State) -> list[Message]:
        names = self.board.names
        lines = [self._stage_line(state)]
        for rank, seat in enumerate(state.order or range(len(state.colours))):
            mine = state.pawns[seat]
            on_board = ", ".join(names[p] for p in mine if p != START) or msg("list.none")
            lines.append(msg(
                "barricade.describe.seat", seat=seat, colour=state.colours[seat], home=mine.count(START),
                points=on_board, held=sum(h.seat == seat for h in state.held),
            ))
        lines.append(msg("barricade.describe.barricades", points=", ".join(names[p] for p in state.barricades) or msg("list.none_feminine")))
        return lines

    def _stage_line(self, state: State) -> Message:
        if state.stage == OVER:
            return msg("barricade.describe.over", seat=state.winner)
        at = self.board.names[state.bonus] if state.bonus is not None else ""
        due = sum(h.seat == state.seat and h.due for h in state.held)
        stage = "extra_roll" if state.stage == ROLL and state.bonus is not None else state.stage
        return msg(f"barricade.describe.{stage}", seat=state.seat, value=state.die, at=at, count=due)

    def rules_summary(self) -> Message:
        return msg("rules.barricade")


def group_area(board: Board, group: str | None) -> Area | None:
    """The placement area an action_group key names ("rows:2-3"), else None."""
    if group is None or not group.startswith(AREA_PREFIX):
        return None
    low, _, high = group[len(AREA_PREFIX):].partition("-")
    return next((a for a in board.areas if (a.low, a.high) == (low, high)), None)


@lru_cache(maxsize=4096)
def _moves(board: Board, colour: str, mine: tuple[int, ...], barricades: tuple[int, ...], n: int, bonus: int | None) -> tuple[tuple[int, int], ...]:
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
