"""How a game stops before its natural end: a resignation, the host's /game end, a channel deleted or
the bot removed from its server. Games ended without a result ("ended") count in no statistics."""
from __future__ import annotations

from typing import Any

from bot.core.game_records import INTERACTIONS_ONLY, GameRecord, Seat
from bot.domain.names import person_name
from bot.domain.positions import position
from bot.domain.session_results import Outcome
from bot.games.base import GameError, Message, msg
from bot.services.base import Channels, hosts, remember
from bot.services.play import Play

# Games this process ended because their channel or server is gone, remembered so that nothing more is shown
# of them (a board computed before the end, posted after it, would meet Discord's 403 or 404).
KNOWN_GONE = 2000


class Endings:
    def __init__(self, channels: Channels, play: Play):
        self.channels = channels
        self.play = play
        self._gone: dict[int, None] = {}

    def gone(self, game_id: int) -> bool:
        """Whether this process ended the game because its channel was deleted or the bot removed from its
        server: nothing of it is to be shown any more."""
        return game_id in self._gone

    async def resign(self, channel_id: int, user_id: int) -> Outcome:
        """Two sides, or no other person seated: the others win. Otherwise a computer player takes the seat."""
        async with self.channels.lock(channel_id):
            record = await self.channels.active(channel_id, None, None)
            ruleset, state = position(record)
            seat = record.seat_of(user_id)
            if seat is None:
                raise GameError(msg("error.not_a_player"))
            seat_before = ruleset.to_move(state)
            sides = ruleset.teams(len(record.seats), record.options) or [(i,) for i in range(len(record.seats))]
            humans_left = [s for i, s in enumerate(record.seats) if i != seat and s.level is None]
            if len(sides) == 2 or not humans_left:
                winners = [i for side in sides if seat not in side for i in side]
                result = {"winners": winners, "draw": False, "details": {"resigned": seat}}
                record = await self.channels.save(record, status="finished", result=result)
                return Outcome(record, (msg("game.resigned", seat=seat),), seat_before)
            # Named, not seated: the seat's name is the computer's from now on.
            resigned = msg("game.resigned_replaced", player=person_name(record, seat))
            changes = with_computer(record, seat)
            record = await self.channels.save(record, **changes)
            outcome = await self.play.computers(record, (resigned, *host_passed(record, changes)))
        return Outcome(outcome.record, outcome.events, seat_before, unfinished=outcome.unfinished)

    async def end(self, channel_id: int, user_id: int, *, can_manage: bool) -> Outcome:
        async with self.channels.lock(channel_id):
            record = await self.channels.current(channel_id)
            if not (hosts(record, user_id) or can_manage):
                raise GameError(msg("error.end_not_allowed"))
            record = await self.end_without_result(record, {"ended_by": user_id})
        return Outcome(record, (msg("game.ended"),))

    async def close_channel(self, channel_id: int, why: str = "channel_deleted") -> GameRecord | None:
        """The channel was deleted (or the bot removed from its server): its open game (lobby or in
        play) ends without a result, so that no deadline plays on for nobody and no rating counts it.
        The ended game, or None."""
        async with self.channels.lock(channel_id):
            record = await self.channels.store.games.open_game(channel_id)
            if record is None:
                return None
            remember(self._gone, record.id, None, KNOWN_GONE)
            return await self.end_without_result(record, {why: True})

    async def close_guild(self, guild_id: int) -> list[GameRecord]:
        """The bot was removed from a server: every open game there ends as in close_channel, but those played
        through a user's install of the app, which never needed the bot there."""
        ended = []
        for record in await self.channels.store.games.open_games_in_guild(guild_id):
            if record.options.get(INTERACTIONS_ONLY):
                continue
            if (closed := await self.close_channel(record.channel_id, "bot_removed")) is not None:
                ended.append(closed)
        return ended

    async def end_without_result(self, record: GameRecord, details: dict[str, Any]) -> GameRecord:
        """Status "ended": no winner, so statistics and ratings leave the game out (bot/domain/stats.py)."""
        return await self.channels.save(record, status="ended",
                                        result={"winners": [], "draw": False, "details": details})


def with_computer(record: GameRecord, seat: int) -> dict[str, Any]:
    """The changes when a computer player takes `seat` (a resignation, or the others' vote): the seats
    and, when it was the host's, the host's powers passed to the next person seated after it."""
    # Numbered after the normal computers already seated, if any: their names stay as they were.
    others = sum(1 for s in record.seats if s.level == "normal")
    computer = Seat(0, str(others + 1) if others else "", level="normal", locale=record.locale)
    seats = tuple(computer if i == seat else s for i, s in enumerate(record.seats))
    changes: dict[str, Any] = {"seats": seats}
    if record.seat_of(record.host_id) == seat:
        following = [seats[(seat + k) % len(seats)] for k in range(1, len(seats))]
        heir = next((s for s in following if s.level is None), None)
        if heir is not None:
            changes["host_id"] = heir.user_id
    return changes


def host_passed(record: GameRecord, changes: dict[str, Any]) -> tuple[Message, ...]:
    """"X is the host now", when `changes` (applied: `record`) passed the host's powers on."""
    if "host_id" not in changes:
        return ()
    return (msg("game.host_passed", seat=record.seat_of(changes["host_id"])),)
