"""Turn deadlines as the service acts on them: the host's settings, the half-time reminder, the expiry
(an easy computer plays the turn, or it is forfeited), the vote on a seat whose turns keep expiring,
and who asked to be told when it is their turn. The arithmetic (durations, who is late, majorities)
is bot/domain/deadline_math.py; bot/services/scheduler.py decides when to call `remind` and `expire`."""
from __future__ import annotations

import logging
import random
from dataclasses import replace
from typing import Any

from bot import ai
from bot.core.game_records import GameRecord, TurnClock
from bot.core.outages import StoreUnavailable
from bot.domain import deadline_math, dice
from bot.domain.positions import position
from bot.domain.session_results import Outcome, Vote
from bot.games.base import GameError, Ruleset, msg
from bot.services.base import Channels, hosts
from bot.services.endings import Endings, host_passed, with_computer
from bot.services.play import Play, computer_seed

log = logging.getLogger(__name__)


class Deadlines:
    def __init__(self, channels: Channels, play: Play, endings: Endings):
        self.channels = channels
        self.play = play
        self.endings = endings

    async def configure(self, channel_id: int, user_id: int, settings: dict[str, Any]) -> Outcome:
        """The host changes turn_time (seconds, None for no deadline) or on_timeout.
        The waiting time starts again from now."""
        async with self.channels.lock(channel_id):
            record = await self.channels.current(channel_id)
            if not hosts(record, user_id):
                raise GameError(msg("timers.error.host_only"))
            options = {k: v for k, v in {**record.options, **settings}.items() if v is not None}
            record = await self.channels.save(record, options=options)
        return Outcome(record, (deadline_math.settings_message(options),),
                       seat_before=deadline_math.seat_to_move(record))

    async def turn_clocks(self, game_id: int | None = None) -> list[TurnClock]:
        """The clocks of every timed game on this process's shards (or of `game_id`), for the scheduler; a
        turn whose player is away waits for the end of that time away (deadline_math.after_away)."""
        clocks = await self.channels.store.deadlines.turn_clocks(game_id, self.channels.shards)
        waiting = {clock.record.id: user for clock in clocks
                   if (user := deadline_math.waiting_person(clock.record)) is not None}
        away, _ = await self.channels.store.people.of(set(waiting.values()))
        away_until = {game: away[user] for game, user in waiting.items() if user in away}
        return [deadline_math.after_away(clock, away_until.get(clock.record.id)) for clock in clocks]

    async def set_turn_notifications(self, user_id: int, wanted: bool) -> None:
        await self.channels.store.people.set_turn_notifications(user_id, wanted)

    async def remind(self, channel_id: int, game_id: int, version: int, now: float) -> TurnClock | None:
        """Mark the half-time reminder of `version` sent, if it is due and was not sent."""
        async with self.channels.lock(channel_id):
            clock = await self._due(game_id, version, now, "remind")
            if clock is None or not await self.channels.store.deadlines.mark_reminded(game_id, version):
                return None
        return clock

    async def expire(self, channel_id: int, game_id: int, version: int, now: float) -> Outcome | None:
        """The deadline of `version` passed: the waiting seat's turn is played by an easy
        computer player, or forfeited (on_timeout "skip": Ruleset.SKIP, whose events say
        what was lost). None when someone acted first or the deadline moved."""
        async with self.channels.lock(channel_id):
            clock = await self._due(game_id, version, now, "expire")
            if clock is None:
                return None
            record = clock.record
            ruleset, state = position(record)
            seat = deadline_math.seat_to_move(record)
            assert seat is not None   # a turn's deadline: a seat is to move
            skip = record.options.get("on_timeout") == "skip"
            action = self._timeout_action(record, ruleset, state, seat, skip)
            # A forfeit tells why it happens in its own events (logged with it, so history retells them);
            # a turn played for the absent player is announced here.
            why = "timers.expired_roll" if skip and ruleset.roll_due(state) else "timers.expired_play"
            try:
                outcome = await self.play.apply(record, ruleset, state, seat, 0, action,
                                            () if action == ruleset.SKIP else (msg(why, seat=seat),))
            except GameError:   # the version check: another process fired this deadline (or a move came) first
                return None
            vote = None
            try:
                while outcome.record.status == "active" and \
                        ruleset.to_move(state := position(outcome.record)[1]) == seat:
                    action = self._timeout_action(outcome.record, ruleset, state, seat, skip)
                    outcome = await self.play.apply(outcome.record, ruleset, state, seat, 0, action, outcome.events)
                # A vote that opens is said by its own message (the outcome's vote), not by the board too.
                vote = Vote(seat) if await self._vote_opens(outcome.record, seat) else None
                outcome = await self.play.computers(outcome.record, outcome.events)
            except StoreUnavailable as error:
                # What the deadline stored stands and must be shown; the rest waits for the database (the
                # position's new deadline, or the Discord layer's catch-up of an unfinished outcome).
                log.warning("game %s: its expired turn stopped at version %s, the database is out of reach (%s)",
                            record.id, outcome.record.version, error)
                outcome = replace(outcome, unfinished=True)
        return Outcome(outcome.record, outcome.events, seat_before=seat, unfinished=outcome.unfinished, vote=vote)

    async def vote(self, channel_id: int, user_id: int, game_id: int, seat: int, choice: str) -> Outcome:
        """Another seated person votes on an absent seat; a majority of them decides (the outcome's vote)."""
        async with self.channels.lock(channel_id):
            record = await self.channels.active(channel_id, game_id, None)
            electorate = _electorate(record, seat) if 0 <= seat < len(record.seats) else set()
            if user_id not in electorate:
                raise GameError(msg("timers.error.not_a_voter"))
            if choice not in deadline_math.VOTE_CHOICES or record.seats[seat].level is not None or \
                    deadline_math.expiry_streak(await self.channels.store.games.actions(record.id), seat) \
                    < deadline_math.VOTE_AFTER:
                raise GameError(msg("timers.error.vote_closed"))
            await self.channels.store.deadlines.set_vote(record.id, seat, user_id, choice)
            votes = await self.channels.store.deadlines.votes(record.id, seat)
            decided = deadline_math.majority(votes, electorate)
            counted = Vote(seat, len(electorate), {c: sum(1 for v in votes.values() if v == c)
                                                   for c in deadline_math.VOTE_CHOICES}, decided)
            seat_before = deadline_math.seat_to_move(record)
            if decided is None:
                return Outcome(record, (), seat_before, vote=counted)
            await self.channels.store.deadlines.clear_votes(record.id, seat)
            if decided == "end":
                record = await self.endings.end_without_result(record, {"ended_by_vote": seat})
                return Outcome(record, (msg("timers.vote.ended", seat=seat),), seat_before, vote=counted)
            changes = with_computer(record, seat)
            record = await self.channels.save(record, **changes)
            outcome = await self.play.computers(record, (msg("timers.vote.computer", seat=seat),
                                                          *host_passed(record, changes)))
        return Outcome(outcome.record, outcome.events, seat_before, unfinished=outcome.unfinished, vote=counted)

    async def _due(self, game_id: int, version: int, now: float, kind: str) -> TurnClock | None:
        """The game's clock if its next event is `kind` for `version` and due at `now` (as the scheduler saw it)."""
        clocks = await self.turn_clocks(game_id)
        due = deadline_math.next_due(clocks[0], now) if clocks else None
        if due is None or due.kind != kind or due.record.version != version or due.when > now:
            return None
        return clocks[0]

    def _timeout_action(self, record: GameRecord, ruleset: Ruleset[Any], state: Any, seat: int, skip: bool) -> str:
        """The forfeit when the game says so and there is a turn to forfeit; else a roll drawn from the
        seed, or an easy computer player's move."""
        if skip and _forfeits(ruleset, state, seat):
            return ruleset.SKIP
        if ruleset.roll_due(state):
            return ruleset.random_roll(state, dice.rng_for(record.seed, record.version))
        return ai.choose_action(ruleset, state, seat, "easy", rng=random.Random(computer_seed(record)))

    async def _vote_opens(self, record: GameRecord, seat: int) -> bool:
        """After every VOTE_AFTER expiries in a row of a seat, the other people vote afresh."""
        if record.status != "active" or not _electorate(record, seat):
            return False
        streak = deadline_math.expiry_streak(await self.channels.store.games.actions(record.id), seat)
        if streak == 0 or streak % deadline_math.VOTE_AFTER:
            return False
        await self.channels.store.deadlines.clear_votes(record.id, seat)
        return True


def _forfeits(ruleset: Ruleset[Any], state: Any, seat: int) -> bool:
    """Whether the ruleset takes the forfeit of `seat`'s turn now (not in Barricade's rolls for the order
    of play, which are no turn: the bot rolls them)."""
    try:
        ruleset.apply(state, ruleset.SKIP, seat)
    except GameError:
        return False
    return True


def _electorate(record: GameRecord, seat: int) -> set[int]:
    """Who votes on an absent seat: the other seated people."""
    return {s.user_id for i, s in enumerate(record.seats) if s.level is None and i != seat}
