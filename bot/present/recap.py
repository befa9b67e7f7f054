"""A board's recap of what happened since its player last acted: one line a turn, each player's turn whole
("ana rolls 2 + 1. ① Yellow 1: 5 → 8."), its moves numbered as the picture numbers its traces, at most a
few lines (the earlier turns counted, with where to read them).

A turn change is said once, by the board's call to act: the games' "X's turn." and "X rolls again." events
are left out of the recap (the next line names its player anyway), and so is the games' own "X wins!"
once the board's result line says it, and that the game begins (the lobby message, which the game started
from, says it just above).
"""
from __future__ import annotations

from dataclasses import dataclass

from bot.core.game_records import GameRecord
from bot.domain import i18n
from bot.domain.player_actions import FORCED_EVENT
from bot.games.base import Message
from bot.present.words import sentence

MAX_TURNS = 6          # recap lines on a board (the earlier turns are counted in one more)
# Events whose only news is whose turn it is: the board's call to act says it.
TURN_EVENTS = frozenset({"parcheesi.event.next", "parcheesi.event.again", "maghreb.event.turn"})
# The game's start: the lobby message, just above the first board, says it (who sits where stays: the
# first board says it in one line).
START_EVENTS = frozenset({"game.started"})
# Events that say a game is won: the board's result line says it.
WIN_EVENTS = frozenset({"parcheesi.event.wins", "parcheesi.event.team_wins", "maghreb.event.win",
                        "barricade.event.win", "pariti.event.win"})
# The kinds of event that are a traced move on the picture (numbered there from ① in order).
MOVE_KINDS = frozenset({"move", "out", "enter", "step", "jump", "bring_out", "exit"})
CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"


@dataclass(frozen=True)
class Turn:
    """One player's run of events, as a line: `plain` (said again word for word on later boards, so that a
    retired board's lines can be matched) and `shown` (with the moves' numbers, for the picture beside it)."""

    plain: str
    shown: str


def turns(record: GameRecord, events: tuple[Message, ...], locale: str, *, ended: bool = False) -> list[Turn]:
    """The events as turns, oldest first: a new turn begins where an event names another player than the
    turn's (`seat`)."""
    found: list[tuple[list[str], list[str]]] = []
    seat: object = None
    number = 0
    for event in events:
        if event.key in TURN_EVENTS or event.key in START_EVENTS or (ended and event.key in WIN_EVENTS):
            continue
        who = event.params.get("seat")
        if not found or (who is not None and who != seat):
            found.append(([], []))
            seat = who if who is not None else seat
        text = sentence(record, event, locale)
        plain, shown = found[-1]
        if event.key == FORCED_EVENT.key and text in plain:   # said once a turn
            continue
        plain.append(text)
        if event.key.rsplit(".", 1)[-1] in MOVE_KINDS:
            number += 1
            text = f"{circled(number)} {text}"
        shown.append(text)
    if number <= 1:   # the picture numbers its traces only when it draws more than one
        return [Turn(" ".join(plain), " ".join(plain)) for plain, _ in found]
    return [Turn(" ".join(plain), " ".join(shown)) for plain, shown in found]


def circled(number: int) -> str:
    return CIRCLED[number - 1] if 0 < number <= len(CIRCLED) else f"({number})"


def recap_lines(recap: list[Turn], locale: str) -> list[str]:
    """The board's recap lines: the last turns, the earlier ones counted."""
    if len(recap) <= MAX_TURNS:
        return [turn.shown for turn in recap]
    earlier = len(recap) - (MAX_TURNS - 1)
    return [t.shown for t in recap[-(MAX_TURNS - 1):]] + [i18n.text("turn.earlier", locale, count=earlier)]
