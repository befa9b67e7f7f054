"""Take-backs: a player asks to take back their last move (`/game undo`, the board's Undo button).

What may be taken back is bot/domain/timeline.py's to say. While it is still that player's turn, the
take-back is made at once. Once the turn has passed, the player to move is asked, and it is made only
if they accept before anything else happens to the game. Their answer carries the game's version from
the moment of asking, so any action since makes it stale. A request writes nothing; the take-back
itself is logged (UNDO) with the position before the move.
"""
from __future__ import annotations

from bot.core.game_records import GameRecord, LoggedAction
from bot.domain.names import player_name
from bot.domain.session_results import Outcome, TakebackAsked, asked
from bot.domain.timeline import UNDO, Timeline
from bot.games.base import GameError, msg
from bot.services.base import Channels
from bot.services.play import Play
from bot.services.timelines import Timelines
from bot.store import StaleVersion


class Takebacks:
    def __init__(self, channels: Channels, timelines: Timelines, play: Play):
        self.channels = channels
        self.timelines = timelines
        self.play = play

    async def undo(self, channel_id: int, user_id: int, *, game_id: int | None = None,
                   version: int | None = None) -> Outcome:
        """Take back the asker's last move now, or, once their turn has passed, ask the player to move
        (the outcome's `takeback_asked`; nothing is written)."""
        async with self.channels.lock(channel_id):
            record = await self.channels.active(channel_id, game_id, version)
            seat = record.seat_of(user_id)
            if seat is None:
                raise GameError(msg("error.not_a_player"))
            line = await self.timelines.timeline(record)
            line.undoable(seat)
            to_move = line.ruleset.to_move(line.state)
            if to_move is not None and to_move != seat:
                request = TakebackAsked(seat, to_move)
                return Outcome(record, (asked(request),), to_move, record.version, takeback_asked=request)
            return await self._take_back(record, line, seat, user_id)

    async def answer(self, channel_id: int, user_id: int, game_id: int, version: int,
                              accept: bool) -> Outcome:
        """The player to move accepts or refuses the take-back asked at `version`: refused if anything
        happened since. A refusal writes nothing."""
        async with self.channels.lock(channel_id):
            record = await self.channels.store.games.open_game(channel_id)
            if record is None or record.id != game_id or record.status != "active" or record.version != version:
                raise GameError(msg("takeback.error.lapsed"))
            line = await self.timelines.timeline(record)
            to_move = line.ruleset.to_move(line.state)
            if to_move is None:
                raise GameError(msg("takeback.error.lapsed"))
            if record.seat_of(user_id) != to_move:
                raise GameError(msg("takeback.error.not_yours_to_answer", player=player_name(record, to_move)))
            seat = person(record, line.taker())
            if seat is None or seat == to_move:
                raise GameError(msg("takeback.error.lapsed"))
            request = TakebackAsked(seat, to_move)
            if not accept:
                return Outcome(record, (msg("takeback.refused", seat=to_move, asked_seat=seat),), to_move,
                               record.version, takeback_asked=request)
            outcome = await self._take_back(record, line, seat, record.seats[seat].user_id)
        return Outcome(outcome.record, (msg("takeback.accepted", seat=to_move, asked_seat=seat),) + outcome.events,
                       to_move, record.version, unfinished=outcome.unfinished, takeback_asked=request)

    async def _take_back(self, record: GameRecord, line: Timeline, seat: int, user_id: int) -> Outcome:
        seat_before = line.ruleset.to_move(line.state)
        logged = LoggedAction(record.version, seat, user_id, UNDO, True)
        applied = line.step(logged)
        try:
            undone = await self.channels.store.games.append_action(
                record, seat=seat, user_id=user_id, action=UNDO, legal=True,
                state=line.ruleset.to_json(applied.state), events=[event.to_json() for event in applied.events])
        except StaleVersion:
            raise GameError(msg("error.stale")) from None
        self.channels.written(undone)
        self.timelines.written(record.id, logged)
        outcome = await self.play.computers(undone, applied.events)
        return Outcome(outcome.record, outcome.events, seat_before, version_before=record.version,
                       unfinished=outcome.unfinished)


def person(record: GameRecord, seat: int | None) -> int | None:
    """The seat if a person holds it (a computer took it over since its move: nobody to ask)."""
    return seat if seat is not None and record.seats[seat].level is None else None
