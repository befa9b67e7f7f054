"""A game's history: its actions in words, page by page (`/game history`; no discord, no I/O).

Each action is retold from the step it made (bot.domain.timeline.steps): a headline, then its events.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from bot.core.game_records import GameRecord, LoggedAction
from bot.domain.timeline import Step, is_roll, steps
from bot.games.base import GameError, Message, Ruleset, msg

PAGE_SIZE = 15   # actions per history page


@dataclass(frozen=True)
class Entry:
    """One action in words: a headline, then the events it caused."""

    seq: int
    head: Message
    events: tuple[Message, ...]


@dataclass(frozen=True)
class HistoryPage:
    number: int                        # from 0
    count: int
    entries: list[Entry]


def entry(ruleset: Ruleset[Any], step: Step) -> Entry:
    number = step.seq + 1
    if is_roll(ruleset, step.before, step.action, step.seat):   # the events say what was rolled
        return Entry(step.seq, msg("history.roll", n=number), step.events)
    if step.events:   # they retell the move, naming the player: the label would say it twice
        return Entry(step.seq, msg("history.step", n=number), step.events)
    try:
        label = ruleset.action_label(step.before, step.action)
    except GameError:   # e.g. a cheat that the ruleset has no wording for
        label = msg("history.raw_action", action=step.action)
    if step.seat is None:
        return Entry(step.seq, msg("history.move_anonymous", n=number, action=label), step.events)
    return Entry(step.seq, msg("history.move", n=number, seat=step.seat, action=label), step.events)


def entries(ruleset: Ruleset[Any], record: GameRecord, actions: Sequence[LoggedAction], start: int = 0,
            stop: int | None = None) -> list[Entry]:
    """The actions `start` to `stop` in words (the log is replayed up to `stop`)."""
    return [entry(ruleset, step) for step in islice(steps(ruleset, record, actions[:stop]), start, None)]


def page_count(n_entries: int) -> int:
    return max(1, -(-n_entries // PAGE_SIZE))
