"""Playing a turn: a person's action (or roll), the computer players' turns that follow, and resuming
after a restart. Each call holds the channel's lock from reading the game to writing the action."""
from __future__ import annotations

import logging
import random
import time
from dataclasses import replace
from typing import Any

from bot import ai
from bot.core.game_records import GameRecord, LoggedAction
from bot.core.outages import StoreUnavailable
from bot.domain import dice
from bot.domain.player_actions import ROLL, check_to_move, forced_action, typed_action, with_forced_note
from bot.domain.positions import position, ruleset_of, snapshot
from bot.domain.session_results import Outcome
from bot.games.base import GameError, Message, Ruleset, msg
from bot.services.base import Channels, result_json
from bot.services.timelines import Timelines
from bot.store import StaleVersion

log = logging.getLogger(__name__)

class Play:
    def __init__(self, channels: Channels, timelines: Timelines, think_budget_s: float = 1.0):
        self.channels = channels
        self.timelines = timelines
        self.think_budget_s = think_budget_s  # hard computer players' time per move

    async def act(self, channel_id: int, user_id: int, action: str, *, game_id: int | None = None,
                  version: int | None = None) -> Outcome:
        """Apply `action` (or ROLL) for `user_id`. `game_id`/`version` come from a
        button: a click on an older board is refused."""
        async with self.channels.lock(channel_id):
            try:
                return await self._act(await self.channels.active(channel_id, game_id, version), user_id, action)
            except GameError as refusal:
                # The copy this process wrote missed a change made without a new version (a seat rewritten,
                # the settings): the write refused it; the click is answered from the game as stored.
                if refusal.message.key != "error.stale" or self.channels.as_written(channel_id, game_id,
                                                                                     version) is None:
                    raise
                assert game_id is not None   # as_written found it
                self.channels.forget(game_id)
                return await self._act(await self.channels.active(channel_id, game_id, version), user_id, action)

    async def _act(self, record: GameRecord, user_id: int, action: str) -> Outcome:
        ruleset, state = position(record)
        seat = record.seat_of(user_id)
        seat_before = ruleset.to_move(state)
        if seat is not None and action in ruleset.call_actions(state, seat):
            played = await self.apply(record, ruleset, state, seat, user_id, action)
        else:
            if action == ROLL and not ruleset.has_dice:   # whoever asks: the answer is the same
                raise GameError(msg("error.no_dice"))
            played = await self.apply(record, ruleset, state, check_to_move(record, seat, seat_before), user_id,
                                      self._resolve(ruleset, state, record, action))
        outcome = await self.computers(played.record, played.events)
        return Outcome(outcome.record, outcome.events, seat_before=seat_before, version_before=record.version,
                       unfinished=outcome.unfinished, people=outcome.people or played.people)

    async def call_out(self, channel_id: int, user_id: int, action: str) -> Outcome:
        """`/game call`: a call-out (cheating rulesets), refused unless it is one the player may make now."""
        record = await self.channels.current(channel_id)
        ruleset = ruleset_of(record)
        seat = record.seat_of(user_id)
        if not ruleset.allows_cheating:
            raise GameError(msg("error.no_cheating"))
        if record.status != "active":   # a lobby: nothing has been played
            raise GameError(msg("error.not_started"))
        if seat is None or action not in ruleset.call_actions(position(record)[1], seat):
            raise GameError(msg("error.cannot_call"))
        return await self.act(channel_id, user_id, action)

    async def resume(self, channel_id: int, game_id: int) -> Outcome | None:
        """After a restart: computer seats play if it is their turn (the bot stopped while one was
        thinking). What they did, or None when no computer had to act."""
        async with self.channels.lock(channel_id):
            record = await self.channels.store.games.open_game(channel_id)
            if record is None or record.id != game_id or record.status != "active":
                return None
            outcome = await self.computers(record, ())
        if outcome.record.version == record.version:
            if outcome.unfinished:   # the first computer move could not be written: nothing to show yet
                raise StoreUnavailable("computer players wait for the database")
            return None
        return Outcome(outcome.record, outcome.events, version_before=record.version, unfinished=outcome.unfinished)

    def _resolve(self, ruleset: Ruleset[Any], state: Any, record: GameRecord, action: str) -> str:
        """The action to apply for what the player sent: a roll is drawn here."""
        if ruleset.roll_due(state):
            if action != ROLL:
                raise GameError(msg("error.roll_first"))
            return ruleset.random_roll(state, dice.rng_for(record.seed, record.version))
        found = typed_action(ruleset.accepted_actions(state), action)
        if found is not None:
            return found
        if action == ROLL:
            raise GameError(msg("error.no_roll_now"))
        raise GameError(refusal(ruleset, state, action))

    async def apply(self, record: GameRecord, ruleset: Ruleset[Any], state: Any, seat: int, user_id: int,
                     action: str, events: tuple[Message, ...] = (), forced: bool = False) -> Outcome:
        # A forfeit at a deadline (only `expire` plays it: players never have it accepted) breaks no rule.
        legal = action == ruleset.SKIP or ruleset.roll_due(state) or action in ruleset.legal_actions(state) or \
            action in ruleset.call_actions(state, seat)
        applied = ruleset.apply(state, action, seat)
        if forced:   # a person's only move, played for them: the board says so (as bot.domain.timeline does)
            applied = applied._replace(events=with_forced_note(applied.events))
        result = ruleset.result(applied.state)
        # The people the board shows next, read in the write's own round trip.
        seated = {player.user_id for player in record.seats if player.level is None}
        try:
            record, people = await self.channels.store.games.append_action_reading_people(
                record, seated, seat=seat, user_id=user_id or None, action=action, legal=legal,
                state=ruleset.to_json(applied.state), status="finished" if result else "active",
                result=None if result is None else result_json(result),
                events=[event.to_json() for event in applied.events])
        except StaleVersion:
            raise GameError(msg("error.stale")) from None
        self.channels.written(record)
        self.timelines.written(record.id, LoggedAction(record.version - 1, seat, user_id or None, action, legal))
        return Outcome(record, events + applied.events, people=people)

    async def computers(self, record: GameRecord, events: tuple[Message, ...]) -> Outcome:
        """Let computer seats act until a person must act or the game is over, a person's only move
        playing itself (`forced_move`). After each action, each computer opponent may call out a cheat
        (and never cheats itself)."""
        outcome = Outcome(record, events)
        planned: list[str] = []   # a computer's next actions up to its next roll, thought in one go
        turn: tuple[int, float] | None = None   # (computer seat, when its turn began): one budget a turn
        while outcome.record.status == "active":
            record = outcome.record
            ruleset, state = position(record)
            call = self._computer_call(record, ruleset, state)
            forced = forced_move(record, ruleset, state) if call is None else None
            if call is not None:
                planned = []
                seat, action = call
            elif forced is not None:
                seat, action = forced
                planned = []
            else:
                to_move = ruleset.to_move(state)
                if to_move is None or record.seats[to_move].level is None:
                    break
                seat = to_move
                if turn is None or turn[0] != seat:
                    turn = (seat, time.time())
                if ruleset.roll_due(state):
                    action = ruleset.random_roll(state, dice.rng_for(record.seed, record.version))
                else:
                    if not planned:
                        planned = await ai.think(ruleset.id, snapshot(record), seat, record.seats[seat].level or "easy",
                                                 self.think_budget_s, seed=computer_seed(record), started=turn[1])
                    action = planned.pop(0)
            try:
                # A person's only move is logged as theirs (they may take it back as any other).
                user_id = record.seats[seat].user_id if forced else 0
                outcome = await self.apply(record, ruleset, state, seat, user_id, action, outcome.events,
                                           forced=forced is not None)
            except StoreUnavailable as error:   # what was played before stands; the rest waits for the database
                log.warning("game %s: computer players stopped at version %s, the database is out of reach (%s)",
                            record.id, record.version, error)
                return replace(outcome, unfinished=True)
        return outcome

    def _computer_call(self, record: GameRecord, ruleset: Ruleset[Any], state: Any) -> tuple[int, str] | None:
        if not ruleset.allows_cheating:
            return None
        rng = random.Random(computer_seed(record))
        for seat, player in enumerate(record.seats):
            if player.level is not None:
                action = ai.choose_call(ruleset, state, seat, player.level, rng)
                if action is not None:
                    return seat, action
        return None


def forced_move(record: GameRecord, ruleset: Ruleset[Any], state: Any) -> tuple[int, str] | None:
    """(seat, action) of a person's only move, which plays itself (bot.domain.player_actions.forced_action)."""
    seat = ruleset.to_move(state)
    if seat is None:
        return None
    action = forced_action(ruleset, state, record.seats[seat].level is None, record.options)
    return None if action is None else (seat, action)


def refusal(ruleset: Ruleset[Any], state: Any, action: str) -> Message:
    """Why the player to move cannot play `action` (not among the accepted actions).

    In a cheating ruleset a player may type any move the ruleset accepts, legal or not, so the
    ruleset says what is wrong with the code (`apply`'s refusal: its code syntax for a malformed
    one, ...). Elsewhere only legal moves are accepted: the answer says why when the rules can (Ruleset.refusal),
    else points at their list."""
    if ruleset.allows_cheating:
        try:
            ruleset.apply(state, action, ruleset.to_move(state))
        except GameError as refused:
            return refused.message
    return ruleset.refusal(state, action) or msg("error.illegal_move", move=action[:40])


def computer_seed(record: GameRecord) -> int:
    """Computer players' choices are reproducible from the game and its version."""
    return int(dice.rng_for(record.seed, record.version).getrandbits(64)) ^ 0x5EED
