"""A finished or running game retold from its action log (no discord, no I/O).

A game is its seats, options and seed plus the action log: replaying the log
through the ruleset from the seeded set-up (take-backs through bot/timeline.py)
yields every intermediate state and the events each action caused. The history, the fair-dice verification
and the animated replay are all built on `replay`.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from bot import dice
from bot.games.base import GameError, Message, Ruleset, msg
from bot.game_records import GameRecord, LoggedAction
from bot.timeline import Timeline, is_roll

PAGE_SIZE = 15   # actions per history page


@dataclass(frozen=True)
class Step:
    """One logged action and what it did."""

    seq: int
    seat: int | None
    action: str
    before: Any
    after: Any
    events: tuple[Message, ...]


@dataclass(frozen=True)
class Entry:
    """One action in words: a headline, then the events it caused."""

    seq: int
    head: Message
    events: tuple[Message, ...]


def initial_state(ruleset: Ruleset, record: GameRecord) -> Any:
    """The set-up the session started from (seats are stored in their dealt order)."""
    return ruleset.new_game(len(record.seats), record.options, dice.setup_seed(record.seed))


def timeline(ruleset: Ruleset, record: GameRecord) -> Timeline:
    """The game at its set-up, ready to replay its log."""
    return Timeline(ruleset, initial_state(ruleset, record), len(record.seats))


def replay(ruleset: Ruleset, record: GameRecord, actions: Sequence[LoggedAction]) -> Iterator[Step]:
    """Every step of the game; raises GameError if the log does not replay."""
    line = timeline(ruleset, record)
    for logged in actions:
        before = line.state
        applied = line.step(logged)
        yield Step(logged.seq, logged.seat, logged.action, before, applied.state, applied.events)


def entry(ruleset: Ruleset, step: Step) -> Entry:
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


def entries(ruleset: Ruleset, record: GameRecord, actions: Sequence[LoggedAction], start: int = 0,
            stop: int | None = None) -> list[Entry]:
    """The actions `start` to `stop` in words (the log is replayed up to `stop`)."""
    return [entry(ruleset, step) for step in islice(replay(ruleset, record, actions[:stop]), start, None)]


def page_count(n_entries: int) -> int:
    return max(1, -(-n_entries // PAGE_SIZE))
