"""What a board of a game shows besides its position, in one call after each change (and for the console):
the moves since its player's last turn, who may take a move back, who is away and who wants a direct
message, and when time runs out. One timeline lookup and one read of the people; the game as the caller
holds it (its last write), not read again."""
from __future__ import annotations

from dataclasses import dataclass

from bot.core.game_records import GameRecord
from bot.domain import deadline_math
from bot.services.away import People, people_of
from bot.services.takeback import person
from bot.services.timelines import SinceTurn, Timelines, since_turn
from bot.store import Store


@dataclass(frozen=True)
class BoardAnnotations:
    since: SinceTurn               # traced and told: what happened since the player to move last played
    takeback_seat: int | None      # the seat that may ask to take back its last move (the board shows Undo)
    people: People
    deadline: float | None         # when time runs out, in a timed game waiting for a person


class Annotations:
    def __init__(self, store: Store, timelines: Timelines):
        self.store = store
        self.timelines = timelines

    async def of(self, record: GameRecord, now: float, before: int | None = None,
                 people: tuple[dict[int, float], set[int]] | None = None) -> BoardAnnotations:
        """What a board of `record` shows; `before`: the version before the change shown (what happened from
        it on is the caller's to tell; Timelines.since_turn); `people`: the seated people's time away and turn
        messages where the write that made `record` read them (Outcome.people), else they are read here."""
        line = await self.timelines.timeline(record)
        if record.status != "active":
            return BoardAnnotations(since_turn(line, record, before), None, People({}, frozenset()), None)
        away, turn_dms = people if people is not None else \
            await self.store.people.of({seat.user_id for seat in record.seats if seat.level is None})
        return BoardAnnotations(since_turn(line, record, before), person(record, line.taker()),
                                people_of(record, away, turn_dms, now), deadline_math.shown_deadline(record, away, now))
