"""What Barricade says (barricade.md, BA): pawns and moves as codes and words, the labels of actions, the
placement areas, the position in words (rules.py plays)."""
from __future__ import annotations

from bot.games.barricade.board import Area, Board
from bot.games.barricade.state import OVER, ROLL, START, State
from bot.games.base import Message, msg

START_NAME = "start"
AREA_PREFIX = "rows:"   # action_group key of a placement area


def pawn_name(board: Board, point: int) -> str:
    """A pawn as action codes name it: by its point, or \"start\"."""
    return START_NAME if point == START else board.names[point]

def move_code(board: Board, frm: int, dest: int) -> str:
    return f"{pawn_name(board, frm)}-{board.names[dest]}"

def pawn_label(board: Board, point: int) -> Message:
    if point == START:
        return msg("barricade.pawn.start")
    return msg("barricade.pawn.at", at=board.names[point])


def action_label(board: Board, state: State, kind: str, a: int, b: int) -> Message:
    """Short wording of an action parsed as (kind, a, b) (Barricade.action_label)."""
    names = board.names
    if kind == "roll:":
        return msg("barricade.action.roll_value", value=a)
    if kind == "bar":
        return msg("barricade.action.place", at=names[a])
    if kind == "again":
        return msg("barricade.action.again", at=names[state.bonus] if state.bonus is not None else "?")
    if kind != "move":
        return msg(f"barricade.action.{kind}")
    bounce = a != START and (state.die or 0) >= 2 and a in board.bounce_paths
    outcome = ""
    if b == board.goal and not bounce:
        outcome = "_goal"
    elif b in state.barricades:
        outcome = "_take"
    elif any(b in p for s, p in enumerate(state.pawns) if s != state.seat):
        outcome = "_capture"
    kind = "bounce" if bounce else "move"
    return msg(f"barricade.action.{kind}{outcome}", pawn=pawn_label(board, a), dest=names[b])


def describe(board: Board, state: State) -> list[Message]:
    """The position in words."""
    names = board.names
    lines = [_stage_line(board, state)]
    for seat in state.order or range(len(state.colours)):
        mine = state.pawns[seat]
        on_board = ", ".join(names[p] for p in mine if p != START) or msg("list.none")
        lines.append(msg(
            "barricade.describe.seat", seat=seat, colour=state.colours[seat], home=mine.count(START),
            points=on_board, held=sum(h.seat == seat for h in state.held),
        ))
    lines.append(msg("barricade.describe.barricades",
                     points=", ".join(names[p] for p in state.barricades) or msg("list.none_feminine")))
    return lines

def _stage_line(board: Board, state: State) -> Message:
    if state.stage == OVER:
        return msg("barricade.describe.over", seat=state.winner)
    at = board.names[state.bonus] if state.bonus is not None else ""
    due = sum(h.seat == state.seat and h.due for h in state.held)
    stage = "extra_roll" if state.stage == ROLL and state.bonus is not None else state.stage
    return msg(f"barricade.describe.{stage}", seat=state.seat, value=state.die, at=at, count=due)


def group_area(board: Board, group: str | None) -> Area | None:
    """The placement area an action_group key names ("rows:2-3"), else None."""
    if group is None or not group.startswith(AREA_PREFIX):
        return None
    low, _, high = group[len(AREA_PREFIX):].partition("-")
    return next((a for a in board.areas if (a.low, a.high) == (low, high)), None)
