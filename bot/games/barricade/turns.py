"""Barricade's turns (barricade.md, BA): the rolls for the order of play, a turn's start and end, where a
barricade may stand, and the turn forfeited at its deadline. rules.py plays the moves."""
from __future__ import annotations

from bot.games.barricade.board import Board
from bot.games.barricade.state import MOVE, ORDER, PLACE, ROLL, SIX, START_OF_TURN, State
from bot.games.base import Applied, IllegalAction, Message, Ruleset, msg, skip_event


def is_free(board: Board, state: State, point: int) -> bool:
    """May a barricade be placed on `point` (BA-5.3)?"""
    return (
        point != board.goal and point not in board.start_line and point not in state.barricades
        and not any(point in p for p in state.pawns)
    )


def order_roll(state: State, value: int) -> Applied[State]:
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
    return Applied(start_turn(settled, order[0]), tuple(events))

def start_turn(state: State, seat: int) -> State:
    """A turn begins: barricades this seat holds must be placed during it (BA-5.2)."""
    held = tuple(h._replace(due=True) if h.seat == seat else h for h in state.held)
    due = any(h.seat == seat for h in held)
    return state.evolve(seat=seat, held=held, stage=START_OF_TURN if due else ROLL, bonus=None)


def end_of_moves(state: State, events: list[Message]) -> tuple[State, tuple[Message, ...]]:
    """After the last move of a turn: place due barricades (BA-5.2), else pass."""
    if any(h.due and h.seat == state.seat for h in state.held):
        events.append(msg("barricade.event.must_place", seat=state.seat))
        return state.evolve(stage=PLACE), tuple(events)
    return start_turn(state, next_seat(state)), tuple(events)

def next_seat(state: State) -> int:
    """Who plays after the player to move (the order rolled for, BA-2.2)."""
    return state.order[(state.order.index(state.seat) + 1) % len(state.order)]

def skip(board: Board, state: State) -> Applied[State]:
    """The turn forfeited at its deadline (Ruleset.SKIP): the roll not made, the die not played or the
    extra roll of a 6 is lost, and the next player's turn begins (BA-2.3). A barricade due this turn
    (BA-5.2) must not leave the game: the absent player loses his choice of point and it goes back on
    its former point, or on the free point nearest to it when that one is taken (BA-5.3). Barricades
    taken in this turn stay held until his next turn, as BA-5.2 says. The rolls for the order of play
    are not a turn (BA-2.2: the bot rolls for everyone): there is nothing to forfeit then."""
    if state.stage == ORDER:
        raise IllegalAction(msg("barricade.error.illegal", action=Ruleset.SKIP))
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
            point = nearest_free(board, placed, held.point)
            placed = placed.evolve(barricades=tuple(sorted(placed.barricades + (point,))))
            names = board.names
            events.append(msg("barricade.lost.back", seat=seat, at=names[point]) if point == held.point else
                          msg("barricade.lost.near", seat=seat, at=names[point], former=names[held.point]))
    return Applied(start_turn(placed, next_seat(placed)), tuple(events))

def nearest_free(board: Board, state: State, point: int) -> int:
    """`point` if a barricade may stand there, else the nearest such point (fewest lines away, then
    first in the board's order)."""
    seen, ring = {point}, [point]
    while ring:
        free = [p for p in ring if is_free(board, state, p)]
        if free:
            return min(free)
        ring = sorted({near for p in ring for near in board.neighbours[p]} - seen)
        seen.update(ring)
    raise AssertionError("no free point on the board")
