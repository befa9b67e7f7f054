"""The positions a game goes through, its log applied step by step from the set-up, take-backs included
(no discord, no I/O).

A take-back is an action of the log like any other (the log stays append-only). UNDO, logged by the
seat whose move it takes back, returns the game to the position before that move. So the next roll is
still drawn at its own log position (`rng_for(seed, seq)`), and the history, the animation and
`/game verify` stay exact. No die is drawn or shown again: a take-back is refused once a die has been
rolled since the move.

What may be taken back: the latest moves a person made (not those played for them at a deadline),
newest first, while nobody else acted and no die was rolled since (a roll, a forfeited turn, a
call-out, a computer's or another seat's move closes them). In
the cheating rulesets a move the rules forbid may be taken back only while it is still its player's
turn. Whether the player to move must consent is the session's business (bot/services/takeback.py).
"""
from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.game_records import GameRecord, LoggedAction
from bot.domain import dice
from bot.domain.player_actions import forced_action, with_forced_note
from bot.games.base import Applied, GameError, Message, Ruleset, msg

UNDO = "undo"


def is_roll(ruleset: Ruleset[Any], state: Any, action: str, seat: int | None) -> bool:
    """Is this action, logged at `state`, a roll drawn from the seed (not a forfeited turn, a call-out
    or a take-back, which may come when a roll is due)?"""
    return ruleset.roll_due(state) and action not in (ruleset.SKIP, UNDO) and \
        (seat is None or action not in ruleset.call_actions(state, seat))


def undone_event(seat: int) -> Message:
    return msg("takeback.done", seat=seat)


@dataclass(frozen=True)
class Move:
    """A move that a take-back could still undo: where it is logged, by whom, the position before it."""

    seq: int
    seat: int
    before: Any
    legal: bool


TRAIL_LIMIT = 200   # positions kept at most for since_turn: more moves than a board could trace legibly


class Timeline:
    """A game of `seats` seats replayed action by action from its set-up; `state` is the position reached.

    Position k is the one after the first k actions. The timeline keeps the positions that `since_turn`
    may ask for (a round of play, about a dozen) and no older ones, so that a board traces the moves
    since its player's last turn without replaying the game from the start."""

    def __init__(self, ruleset: Ruleset[Any], state: Any, seats: int, people: frozenset[int] = frozenset(),
                 options: dict[str, Any] | None = None):
        self.ruleset = ruleset
        self._people = people               # the seats persons hold: their only move plays itself
        self._options = options or {}
        self._absent: int | None = None     # the seat whose turn a deadline is playing (its last action's)
        self.state = state
        self.length = 0                     # actions replayed
        self._moves: list[Move] = []        # the moves that can still be taken back, newest last
        self._closed_by: str | None = None  # what closed the last ones: "roll" or "other" (None: nothing did)
        self._last_seat: int | None = None
        self._movers: set[int] = set()      # the seats that have made a move
        self._seats = seats
        # Positions _trail_from, _trail_from + 1, ... length, each with the events of the action that led to it.
        self._trail: list[Applied[Any]] = [Applied(state, ())]
        self._trail_from = 0
        self._latest: dict[int | None, int] = {}     # each seat's latest action: the position after it
        self._turn_ends: dict[int | None, int] = {}  # same, before anybody else's latest action
        self._run_from = 0                  # the position before the latest actor's run of actions

    def copy(self) -> Timeline:
        """A timeline that goes on from here without changing this one (positions are immutable)."""
        other = copy.copy(self)
        other._moves, other._movers, other._trail = list(self._moves), set(self._movers), list(self._trail)
        other._latest, other._turn_ends = dict(self._latest), dict(self._turn_ends)
        return other

    def since_turn(self, seat: int | None) -> list[Any]:
        """The positions since `seat` last played, oldest first: the one after its latest action before
        anybody else's (from the set-up if none), then the one after each action since (its own included);
        for None (a finished game): the latest player's run of actions. At most TRAIL_LIMIT actions back.
        What a board traces for the player it pings."""
        if self.length == 0:
            return []
        return [applied.state for applied in self._trail[self._start(seat) - self._trail_from:]]

    def events_since_turn(self, seat: int, before: int) -> tuple[Message, ...]:
        """What the actions logged before position `before` since `seat` last played caused, oldest first:
        what the board tells `seat` happened besides the actions from `before` on."""
        start = self._start(seat)
        return tuple(event for applied in self._trail[start + 1 - self._trail_from:before + 1 - self._trail_from]
                     for event in applied.events)

    def _start(self, seat: int | None) -> int:
        return max(self._run_from if seat is None else self._turn_ends.get(seat, 0), self._trail_from)

    def _advance(self, seat: int | None, applied: Applied[Any]) -> None:
        """The position an action of `seat` led to: kept, and what since_turn needs no more dropped."""
        if self.length == 0 or seat != self._last_seat:
            self._run_from = self.length
        for other, latest in self._latest.items():
            if other != seat:
                self._turn_ends[other] = latest
        self.length += 1
        self.state, self._last_seat, self._latest[seat] = applied.state, seat, self.length
        self._trail.append(applied)
        keep = max(min(self._turn_ends.get(s, 0) for s in range(self._seats)), self.length - TRAIL_LIMIT)
        if keep > self._trail_from:
            del self._trail[:keep - self._trail_from]
            self._trail_from = keep

    def step(self, logged: LoggedAction) -> Applied[Any]:
        """Apply one logged action (UNDO included); GameError when the log does not replay here."""
        if logged.action == UNDO:
            move = self.undoable(logged.seat)
            self._moves.pop()
            self._closed_by = None
            undone = Applied(move.before, (undone_event(move.seat),))
            self._advance(logged.seat, undone)
            return undone
        ruleset, before = self.ruleset, self.state
        rolled = is_roll(ruleset, before, logged.action, logged.seat)
        applied = ruleset.apply(before, logged.action, logged.seat)
        if not rolled and logged.user_id is not None and forced_action(
                ruleset, before, logged.seat in self._people, self._options) == logged.action:
            applied = applied._replace(events=with_forced_note(applied.events))   # as bot.services.play says it
        # A person's turn played for them at a deadline (no one's click): said once, before its first action, as
        # bot.services.deadlines says it (a forfeit says why in its own events).
        for_absent = logged.user_id is None and logged.seat in self._people and logged.action != ruleset.SKIP \
            and logged.action not in ruleset.call_actions(before, logged.seat)
        if for_absent and self._absent != logged.seat:
            why = "timers.expired_roll" if rolled and self._options.get("on_timeout") == "skip" else \
                "timers.expired_play"
            applied = applied._replace(events=(msg(why, seat=logged.seat), *applied.events))
        self._absent = logged.seat if for_absent else None
        # A person's move: not one a computer played, nor one played for an absent person at a deadline.
        a_move = logged.user_id is not None and not rolled and logged.seat is not None and \
            logged.action != ruleset.SKIP and logged.action not in ruleset.call_actions(before, logged.seat)
        mover = logged.seat if a_move else None
        if mover is None:
            self._moves = []
            self._closed_by = "roll" if rolled else "other"
        else:
            self._movers.add(mover)
            if mover != self._last_seat:
                self._moves = []
            self._moves.append(Move(logged.seq, mover, before, logged.legal))
        self._advance(logged.seat, applied)
        return applied

    def undoable(self, seat: int | None) -> Move:
        """The move `seat` may take back now, or GameError saying why there is none."""
        if self._moves and self._moves[-1].seat == seat:
            move = self._moves[-1]
            if not move.legal and self.ruleset.to_move(self.state) != seat:
                raise GameError(msg("takeback.error.turn_over"))
            return move
        if seat in self._movers and not self._moves and self._closed_by == "roll":
            raise GameError(msg("takeback.error.rolled"))
        if seat in self._movers and self._last_seat not in (None, seat):
            raise GameError(msg("takeback.error.others_acted"))
        raise GameError(msg("takeback.error.nothing"))

    def taker(self) -> int | None:
        """The seat that may ask to take back its last move now, if any."""
        if not self._moves:
            return None
        try:
            return self.undoable(self._moves[-1].seat).seat
        except GameError:
            return None


@dataclass(frozen=True)
class Step:
    """One logged action and what it did."""

    seq: int
    seat: int | None
    action: str
    before: Any
    after: Any
    events: tuple[Message, ...]


def setup(ruleset: Ruleset[Any], record: GameRecord) -> Any:
    """The set-up the session started from (seats are stored in their dealt order)."""
    return ruleset.new_game(len(record.seats), record.options, dice.setup_seed(record.seed))


def at_setup(ruleset: Ruleset[Any], record: GameRecord) -> Timeline:
    """The game's timeline at its set-up, ready to go through its log."""
    return Timeline(ruleset, setup(ruleset, record), len(record.seats),
                    frozenset(i for i, seat in enumerate(record.seats) if seat.level is None), record.options)


def steps(ruleset: Ruleset[Any], record: GameRecord, actions: Sequence[LoggedAction]) -> Iterator[Step]:
    """Every step of the game's log; GameError if the log does not apply."""
    line = at_setup(ruleset, record)
    for logged in actions:
        before = line.state
        applied = line.step(logged)
        yield Step(logged.seq, logged.seat, logged.action, before, applied.state, applied.events)
