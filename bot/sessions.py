"""Per-channel game sessions: lobby, turns, locking, computer players.

The service is the only writer: it takes the channel's lock, loads the game,
asks the ruleset whether the action is accepted, and writes the action with
the new snapshot in one transaction (store.append_action) before returning.
Refusals are GameError values carrying a translatable Message; the stored
game is untouched by them. Nothing here imports discord.
"""
from __future__ import annotations

import asyncio
import logging
import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bot import ai, dice, seating, timers
from bot.games import GAME_IDS, get_ruleset
from bot.games.base import GameError, Message, Result, Ruleset, msg
from bot.store import ChannelBusy, GameRecord, Seat, StaleVersion, Store, TurnClock

log = logging.getLogger(__name__)

ROLL = "roll"          # what a player sends to ask for a roll; the session draws the dice
COMPUTER_LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True)
class Outcome:
    """What a session call changed, for the front end to show."""

    record: GameRecord
    events: tuple[Message, ...] = ()
    # The seat that was to move before the call (None in the lobby), so the
    # front end knows whether to edit the board or post a new one with a ping.
    moved_before: int | None = None
    details: dict[str, Any] = field(default_factory=dict)
    # The game's version before the call: what happened earlier is in the log.
    version_before: int | None = None


def started_events(record: GameRecord) -> tuple[Message, ...]:
    """What the first board of a started game says: the game begins, who sits where."""
    ruleset = ruleset_of(record)
    return msg("game.started", game=msg(ruleset.name)), seating.announcement(ruleset, record)


def ruleset_of(record: GameRecord) -> Ruleset:
    ruleset = get_ruleset(record.game)
    assert ruleset is not None, record.game
    return ruleset


class Sessions:
    def __init__(self, store: Store, think_budget_s: float = 1.0):
        self.store = store
        self._think_budget_s = think_budget_s  # hard computer players' time per move
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    # --- reading -----------------------------------------------------------
    async def current(self, channel_id: int) -> GameRecord:
        record = await self.store.open_game(channel_id)
        if record is None:
            raise GameError(msg("error.no_game"))
        return record

    async def game(self, channel_id: int, game_id: int) -> GameRecord:
        """The open game `game_id` of this channel; a click on a finished game's board is refused."""
        record = await self.store.open_game(channel_id)
        if record is None or record.id != game_id:
            raise GameError(msg("error.game_over_or_gone"))
        return record

    # --- lobby -------------------------------------------------------------
    async def create(self, *, channel_id: int, guild_id: int | None, host: Seat, game: str,
                     options: dict[str, Any]) -> Outcome:
        if game not in GAME_IDS:
            raise GameError(msg("error.unknown_game", game=game))
        ruleset = get_ruleset(game)
        if ruleset is None:
            raise GameError(msg("error.coming_soon", game=msg(f"game.{game}")))
        ruleset.check_options(options)
        options = seating.chosen(options)
        async with self._locks[channel_id]:
            try:
                record = await self.store.create_game(
                    guild_id=guild_id, channel_id=channel_id, game=game, host=host, locale=host.locale,
                    options=options, seed=dice.new_seed())
            except ChannelBusy:
                raise GameError(msg("error.channel_busy")) from None
        return Outcome(record, (msg("lobby.created", seat=0, game=msg(ruleset.name)),))

    async def join(self, channel_id: int, seat: Seat, game_id: int | None = None) -> Outcome:
        async with self._locks[channel_id]:
            record = await self._lobby(channel_id, game_id)
            if record.seat_of(seat.user_id) is not None:
                raise GameError(msg("error.already_seated"))
            if len(record.seats) >= ruleset_of(record).max_players:
                raise GameError(msg("error.lobby_full"))
            record = await self._save_lobby(record, seats=record.seats + (seat,))
        return Outcome(record, (msg("lobby.joined", seat=len(record.seats) - 1),))

    async def add_computer(self, channel_id: int, user_id: int, level: str, game_id: int | None = None) -> Outcome:
        if level not in COMPUTER_LEVELS:
            raise GameError(msg("error.bad_level"))
        async with self._locks[channel_id]:
            record = await self._lobby(channel_id, game_id)
            if record.seat_of(user_id) is None:
                raise GameError(msg("error.not_seated"))
            if len(record.seats) >= ruleset_of(record).max_players:
                raise GameError(msg("error.lobby_full"))
            computer = Seat(0, "", level=level, locale=record.locale)
            record = await self._save_lobby(record, seats=record.seats + (computer,))
        return Outcome(record, (msg("lobby.joined", seat=len(record.seats) - 1),))

    async def leave(self, channel_id: int, user_id: int, game_id: int | None = None) -> Outcome:
        async with self._locks[channel_id]:
            record = await self.store.open_game(channel_id)
            if record is None or (game_id is not None and record.id != game_id):
                raise GameError(msg("error.no_game"))
            if record.status != "lobby":
                raise GameError(msg("error.leave_started"))
            index = record.seat_of(user_id)
            if index is None:
                raise GameError(msg("error.not_seated"))
            event = msg("lobby.left", seat=index)
            seats = record.seats[:index] + record.seats[index + 1:]
            if not any(s.level is None for s in seats):
                # The last person left: the lobby closes.
                record = await self._save_lobby(record, seats=seats, status="ended")
                return Outcome(record, (event, msg("lobby.closed")))
            if record.host_id == user_id:
                new_host = next(s for s in seats if s.level is None)
                record = await self._save_lobby(record, seats=seats, host_id=new_host.user_id)
            else:
                record = await self._save_lobby(record, seats=seats)
        return Outcome(record, (event,))

    async def start(self, channel_id: int, user_id: int, game_id: int | None = None) -> Outcome:
        async with self._locks[channel_id]:
            record = await self._lobby(channel_id, game_id)
            if record.host_id != user_id:
                raise GameError(msg("error.host_only"))
            ruleset = ruleset_of(record)
            ruleset.check_setup(len(record.seats), record.options)
            # Seats drawn from the seed, or as they sat in the lobby (PM-1.9, MG-2.2, PA-3.1).
            seats, options = seating.seat(record)
            state = ruleset.new_game(len(seats), options, dice.setup_seed(record.seed))
            record = await self._save_lobby(record, status="active", state=ruleset.to_json(state), seats=seats,
                                            options=options)
            outcome = await self._play_computers(record, started_events(record))
        return Outcome(outcome.record, outcome.events, moved_before=None)

    async def _lobby(self, channel_id: int, game_id: int | None) -> GameRecord:
        record = await self.store.open_game(channel_id)
        if record is None or (game_id is not None and record.id != game_id):
            raise GameError(msg("error.no_game"))
        if record.status != "lobby":
            raise GameError(msg("error.already_started"))
        return record

    async def _save_lobby(self, record: GameRecord, **changes: Any) -> GameRecord:
        try:
            return await self.store.update_game(record, **changes)
        except StaleVersion:
            raise GameError(msg("error.stale")) from None

    # --- play ----------------------------------------------------------------
    async def act(self, channel_id: int, user_id: int, action: str, *, game_id: int | None = None,
                  version: int | None = None) -> Outcome:
        """Apply `action` (or ROLL) for `user_id`. `game_id`/`version` come from a
        button: a click on an older board is refused."""
        async with self._locks[channel_id]:
            record = await self._active(channel_id, game_id, version)
            ruleset = ruleset_of(record)
            state = ruleset.from_json(record.state)
            seat = record.seat_of(user_id)
            if seat is None:
                raise GameError(msg("error.not_a_player"))
            moved_before = ruleset.to_move(state)
            if action in ruleset.call_actions(state, seat):
                outcome = await self._apply(record, ruleset, state, seat, user_id, action)
            else:
                if action == ROLL and not ruleset.has_dice:   # whoever asks: the answer is the same
                    raise GameError(msg("error.no_dice"))
                if moved_before != seat:
                    raise GameError(msg("error.not_your_turn", player=record.seats[moved_before].name or "🤖"))
                outcome = await self._apply(record, ruleset, state, seat, user_id, self._resolve(
                    ruleset, state, record, action))
            outcome = await self._play_computers(outcome.record, outcome.events)
        return Outcome(outcome.record, outcome.events, moved_before=moved_before, version_before=record.version)

    def _resolve(self, ruleset: Ruleset, state: Any, record: GameRecord, action: str) -> str:
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

    async def _apply(self, record: GameRecord, ruleset: Ruleset, state: Any, seat: int, user_id: int,
                     action: str, events: tuple[Message, ...] = ()) -> Outcome:
        # A forfeit at a deadline (only `expire` plays it: players never have it accepted) breaks no rule.
        legal = action == ruleset.SKIP or ruleset.roll_due(state) or action in ruleset.legal_actions(state) or \
            action in ruleset.call_actions(state, seat)
        applied = ruleset.apply(state, action, seat)
        result = ruleset.result(applied.state)
        try:
            record = await self.store.append_action(
                record, seat=seat, user_id=user_id or None, action=action, legal=legal,
                state=ruleset.to_json(applied.state), status="finished" if result else "active",
                result=None if result is None else result_json(result),
                events=[event.to_json() for event in applied.events])
        except StaleVersion:
            raise GameError(msg("error.stale")) from None
        return Outcome(record, events + applied.events)

    async def _play_computers(self, record: GameRecord, events: tuple[Message, ...]) -> Outcome:
        """Let computer seats act until a person must act or the game is over.
        After each action, each computer opponent may call out a cheat (and
        never cheats itself)."""
        outcome = Outcome(record, events)
        while outcome.record.status == "active":
            record = outcome.record
            ruleset = ruleset_of(record)
            state = ruleset.from_json(record.state)
            call = self._computer_call(record, ruleset, state)
            if call is not None:
                outcome = await self._apply(record, ruleset, state, call[0], 0, call[1], outcome.events)
                continue
            seat = ruleset.to_move(state)
            if seat is None or record.seats[seat].level is None:
                break
            if ruleset.roll_due(state):
                action = ruleset.random_roll(state, dice.rng_for(record.seed, record.version))
            else:
                action = await ai.think(ruleset.id, record.state, seat, record.seats[seat].level or "easy",
                                        self._think_budget_s, seed=_computer_seed(record))
            outcome = await self._apply(record, ruleset, state, seat, 0, action, outcome.events)
        return outcome

    def _computer_call(self, record: GameRecord, ruleset: Ruleset, state: Any) -> tuple[int, str] | None:
        if not ruleset.allows_cheating:
            return None
        rng = random.Random(_computer_seed(record))
        for seat, player in enumerate(record.seats):
            if player.level is not None:
                action = ai.choose_call(ruleset, state, seat, player.level, rng)
                if action is not None:
                    return seat, action
        return None

    async def _active(self, channel_id: int, game_id: int | None, version: int | None) -> GameRecord:
        record = await self.store.open_game(channel_id)
        if record is None:
            raise GameError(msg("error.no_game"))
        if game_id is not None and record.id != game_id:
            raise GameError(msg("error.game_over_or_gone"))
        if record.status != "active":
            raise GameError(msg("error.not_started"))
        if version is not None and version != record.version:
            raise GameError(msg("error.stale"))
        return record

    # --- leaving a game ----------------------------------------------------
    async def resign(self, channel_id: int, user_id: int) -> Outcome:
        """Two sides, or no other person seated: the others win. Otherwise a computer player takes the seat."""
        async with self._locks[channel_id]:
            record = await self._active(channel_id, None, None)
            ruleset = ruleset_of(record)
            seat = record.seat_of(user_id)
            if seat is None:
                raise GameError(msg("error.not_a_player"))
            state = ruleset.from_json(record.state)
            moved_before = ruleset.to_move(state)
            sides = ruleset.teams(len(record.seats), record.options) or [(i,) for i in range(len(record.seats))]
            humans_left = [s for i, s in enumerate(record.seats) if i != seat and s.level is None]
            if len(sides) == 2 or not humans_left:
                winners = [i for side in sides if seat not in side for i in side]
                result = {"winners": winners, "draw": False, "details": {"resigned": seat}}
                record = await self._save_over(record, status="finished", result=result)
                return Outcome(record, (msg("game.resigned", seat=seat),), moved_before)
            record = await self._save_over(record, seats=_with_computer(record, seat))
            outcome = await self._play_computers(record, (msg("game.resigned_replaced", seat=seat),))
        return Outcome(outcome.record, outcome.events, moved_before)

    async def end(self, channel_id: int, user_id: int, *, can_manage: bool) -> Outcome:
        async with self._locks[channel_id]:
            record = await self.current(channel_id)
            if record.host_id != user_id and not can_manage:
                raise GameError(msg("error.end_not_allowed"))
            record = await self._end_without_result(record, {"ended_by": user_id})
        return Outcome(record, (msg("game.ended"),))

    async def resume(self, channel_id: int, game_id: int) -> Outcome | None:
        """After a restart: computer seats play if it is their turn (the bot stopped while one was
        thinking). What they did, or None when no computer had to act."""
        async with self._locks[channel_id]:
            record = await self.store.open_game(channel_id)
            if record is None or record.id != game_id or record.status != "active":
                return None
            outcome = await self._play_computers(record, ())
        if outcome.record.version == record.version:
            return None
        return Outcome(outcome.record, outcome.events, version_before=record.version)

    async def close_channel(self, channel_id: int, why: str = "channel_deleted") -> GameRecord | None:
        """The channel was deleted (or the bot removed from its server): its open game (lobby or in
        play) ends without a result, so that no deadline plays on for nobody and no rating counts it.
        The ended game, or None."""
        async with self._locks[channel_id]:
            record = await self.store.open_game(channel_id)
            if record is None:
                return None
            return await self._end_without_result(record, {why: True})

    async def close_guild(self, guild_id: int) -> list[GameRecord]:
        """The bot was removed from a server: every open game there ends as in close_channel."""
        ended = []
        for record in await self.store.open_games_in_guild(guild_id):
            if (closed := await self.close_channel(record.channel_id, "bot_removed")) is not None:
                ended.append(closed)
        return ended

    async def _end_without_result(self, record: GameRecord, details: dict[str, Any]) -> GameRecord:
        """Status "ended": no winner, so statistics and ratings leave the game out (bot/stats.py)."""
        return await self._save_over(record, status="ended", result={"winners": [], "draw": False, "details": details})

    async def _save_over(self, record: GameRecord, **changes: Any) -> GameRecord:
        try:
            return await self.store.update_game(record, **changes)
        except StaleVersion:
            raise GameError(msg("error.stale")) from None

    # --- turn deadlines (scheduled by bot/timers.py) ------------------------------
    async def configure(self, channel_id: int, user_id: int, settings: dict[str, Any]) -> Outcome:
        """The host changes turn_time (seconds, None for no deadline) or on_timeout.
        The waiting time starts again from now."""
        async with self._locks[channel_id]:
            record = await self.current(channel_id)
            if record.host_id != user_id:
                raise GameError(msg("timers.error.host_only"))
            options = {k: v for k, v in {**record.options, **settings}.items() if v is not None}
            record = await self._save_over(record, options=options)
        return Outcome(record, (timers.settings_message(options),), moved_before=timers.seat_to_move(record))

    async def remind(self, channel_id: int, game_id: int, version: int, now: float) -> TurnClock | None:
        """Mark the half-time reminder of `version` sent, if it is due and was not sent."""
        async with self._locks[channel_id]:
            clock = await self._due(game_id, version, now, "remind")
            if clock is None or not await self.store.mark_reminded(game_id, version):
                return None
        return clock

    async def expire(self, channel_id: int, game_id: int, version: int, now: float) -> Outcome | None:
        """The deadline of `version` passed: the waiting seat's turn is played by an easy
        computer player, or forfeited (on_timeout "skip": Ruleset.SKIP, whose events say
        what was lost). None when someone acted first or the deadline moved."""
        async with self._locks[channel_id]:
            clock = await self._due(game_id, version, now, "expire")
            if clock is None:
                return None
            record, ruleset = clock.record, ruleset_of(clock.record)
            seat = timers.seat_to_move(record)
            skip = record.options.get("on_timeout") == "skip"
            state = ruleset.from_json(record.state)
            action = self._timeout_action(record, ruleset, state, seat, skip)
            # A forfeit tells why it happens in its own events (logged with it, so history retells them);
            # a turn played for the absent player is announced here.
            why = "timers.expired_roll" if skip and ruleset.roll_due(state) else "timers.expired_play"
            outcome = Outcome(record, () if action == ruleset.SKIP else (msg(why, seat=seat),))
            while True:
                outcome = await self._apply(outcome.record, ruleset, state, seat, 0, action, outcome.events)
                if outcome.record.status != "active":
                    break
                state = ruleset.from_json(outcome.record.state)
                if ruleset.to_move(state) != seat:
                    break
                action = self._timeout_action(outcome.record, ruleset, state, seat, skip)
            details, events = {}, outcome.events
            if await self._vote_opens(outcome.record, seat):
                details["vote_seat"] = seat
                events += (msg("timers.vote.opened", seat=seat, count=timers.VOTE_AFTER),)
            outcome = await self._play_computers(outcome.record, events)
        return Outcome(outcome.record, outcome.events, moved_before=seat, details=details)

    async def _due(self, game_id: int, version: int, now: float, kind: str) -> TurnClock | None:
        """The game's clock if its next event is `kind` for `version` and due at `now` (as the scheduler saw it)."""
        clocks = await self.store.turn_clocks(game_id)
        due = timers.next_due(clocks[0], now) if clocks else None
        if due is None or due.kind != kind or due.record.version != version or due.when > now:
            return None
        return clocks[0]

    def _timeout_action(self, record: GameRecord, ruleset: Ruleset, state: Any, seat: int, skip: bool) -> str:
        """The forfeit when the game says so and there is a turn to forfeit; else a roll drawn from the
        seed, or an easy computer player's move."""
        if skip and _forfeits(ruleset, state, seat):
            return ruleset.SKIP
        if ruleset.roll_due(state):
            return ruleset.random_roll(state, dice.rng_for(record.seed, record.version))
        return ai.choose_action(ruleset, state, seat, "easy", rng=random.Random(_computer_seed(record)))

    async def _vote_opens(self, record: GameRecord, seat: int) -> bool:
        """After every VOTE_AFTER expiries in a row of a seat, the other people vote afresh."""
        if record.status != "active" or not _electorate(record, seat):
            return False
        streak = timers.expiry_streak(await self.store.actions(record.id), seat)
        if streak == 0 or streak % timers.VOTE_AFTER:
            return False
        await self.store.clear_votes(record.id, seat)
        return True

    async def vote(self, channel_id: int, user_id: int, game_id: int, seat: int, choice: str) -> Outcome:
        """Another seated person votes on an absent seat; a majority of them decides.
        details: vote_seat, tally {choice: votes}, voters, decided (a choice or None)."""
        async with self._locks[channel_id]:
            record = await self._active(channel_id, game_id, None)
            electorate = _electorate(record, seat) if 0 <= seat < len(record.seats) else set()
            if user_id not in electorate:
                raise GameError(msg("timers.error.not_a_voter"))
            if choice not in timers.VOTE_CHOICES or record.seats[seat].level is not None or \
                    timers.expiry_streak(await self.store.actions(record.id), seat) < timers.VOTE_AFTER:
                raise GameError(msg("timers.error.vote_closed"))
            await self.store.set_vote(record.id, seat, user_id, choice)
            votes = await self.store.votes(record.id, seat)
            decided = timers.majority(votes, electorate)
            details = {"vote_seat": seat, "voters": len(electorate), "decided": decided,
                       "tally": {c: sum(1 for v in votes.values() if v == c) for c in timers.VOTE_CHOICES}}
            moved_before = timers.seat_to_move(record)
            if decided is None:
                return Outcome(record, (), moved_before, details)
            await self.store.clear_votes(record.id, seat)
            if decided == "end":
                record = await self._save_over(record, status="ended", result={
                    "winners": [], "draw": False, "details": {"ended_by_vote": seat}})
                return Outcome(record, (msg("timers.vote.ended", seat=seat),), moved_before, details)
            record = await self._save_over(record, seats=_with_computer(record, seat))
            outcome = await self._play_computers(record, (msg("timers.vote.computer", seat=seat),))
        return Outcome(outcome.record, outcome.events, moved_before, details)


def typed_action(accepted: list[str], typed: str) -> str | None:
    """The accepted action that `typed` stands for: itself, or, typed by hand, the only one
    equal to it regardless of case ("y2+4" means "Y2+4"); None when there is none."""
    if typed in accepted:
        return typed
    same = [a for a in accepted if a.casefold() == typed.casefold()]
    return same[0] if len(same) == 1 else None


def refusal(ruleset: Ruleset, state: Any, action: str) -> Message:
    """Why the player to move cannot play `action` (not among the accepted actions).

    In a cheating ruleset a player may type any move the ruleset accepts, legal or not, so the
    ruleset says what is wrong with the code (`apply`'s refusal: its code syntax for a malformed
    one, ...). Elsewhere only legal moves are accepted: the answer points at their list."""
    if ruleset.allows_cheating:
        try:
            ruleset.apply(state, action, ruleset.to_move(state))
        except GameError as refused:
            return refused.message
    return msg("error.illegal_move", move=action[:40])


def _forfeits(ruleset: Ruleset, state: Any, seat: int) -> bool:
    """Whether the ruleset takes the forfeit of `seat`'s turn now (not in Barricade's rolls for the order
    of play, which are no turn: the bot rolls them)."""
    try:
        ruleset.apply(state, ruleset.SKIP, seat)
    except GameError:
        return False
    return True


def _computer_seed(record: GameRecord) -> int:
    """Computer players' choices are reproducible from the game and its version."""
    return int(dice.rng_for(record.seed, record.version).getrandbits(64)) ^ 0x5EED

def _with_computer(record: GameRecord, seat: int) -> tuple[Seat, ...]:
    """The seats with a computer player in `seat` (a resignation, or the others' vote)."""
    return tuple(Seat(0, "", level="normal", locale=record.locale) if i == seat else s
                 for i, s in enumerate(record.seats))


def _electorate(record: GameRecord, seat: int) -> set[int]:
    """Who votes on an absent seat: the other seated people."""
    return {s.user_id for i, s in enumerate(record.seats) if s.level is None and i != seat}


def result_json(result: Result) -> dict[str, Any]:
    return {"winners": list(result.winners), "draw": result.draw, "details": dict(result.details)}
