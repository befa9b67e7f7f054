"""What Parchís Maghreb says (parchis-maghreb.md, MG): the labels of actions, the position in words, the notes
beside the board and the scene renderer/cross68/ draws (maghreb.py plays)."""
from __future__ import annotations

from functools import cache

from bot.games.base import Message, msg
from bot.games.parcheesi.board import GOAL, HOUSE, Cross68Scene, ScenePawn
from bot.games.parcheesi.maghreb_moves import Occupancy, call_actions, caller, own_pieces
from bot.games.parcheesi.maghreb_state import (
    COLOURS,
    COUNT,
    DIE,
    KEYS,
    ROLL,
    ROUTES,
    MaghrebState,
    parse,
    piece_name,
    square_name,
)


def action_label(state: MaghrebState, action: str) -> Message:
    """Short wording of an action (Maghreb.action_label)."""
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


def describe(state: MaghrebState, occ: Occupancy) -> list[Message]:
    """The position in words; `occ` counts its pieces."""
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
    return lines + notes(s)


def notes(s: MaghrebState) -> list[Message]:
    """What the player to move sees beside the board: counts to play, a call-out window, a turn replayed."""
    found = [msg("maghreb.note.pending", seat=s.seat, value=v) for v in reversed(s.pending)]
    who = caller(s)
    if call_actions(s, who):
        found.append(msg("maghreb.note.call_window", seat=who, cheater_seat=1 - who))
    if s.honest and s.winner < 0 and s.phase != ROLL:
        found.append(msg("maghreb.note.replaying", seat=s.seat))
    return found


def scene(state: MaghrebState) -> Cross68Scene:
    """What renderer/cross68/ draws of the position."""
    s = state
    pawns = tuple(ScenePawn(colour=COLOURS[i >> 2], route=ROUTES[i >> 3], progress=p, label=str((i & 3) + 1))
                  for i, p in enumerate(s.pieces))
    last = (ROUTES[s.last_move[0] >> 3], s.last_move[1], s.last_move[2]) if s.last_move else None
    who = caller(s)
    return Cross68Scene(
        pawns=pawns,
        dice=(s.die,) if s.die else (),
        used_dice=(s.phase != DIE,) if s.die else (),
        last_move=last,
        notes=tuple(notes(s)),
        extra={"pending": tuple(reversed(s.pending)),
               "call_window": who if call_actions(s, who) else None},
        any_pair_blocks=True,
    )


@cache   # frequent events, built once (Messages are immutable)
def roll_event(seat: int, value: int) -> Message:
    return msg("maghreb.event.roll", seat=seat, value=value)


@cache
def turn_event(seat: int) -> Message:
    return msg("maghreb.event.turn", seat=seat)
