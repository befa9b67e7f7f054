"""/game mine: a person's games in play on a server or in DMs and group DMs, those waiting for them first (and
the short list a turn's direct message ends with)."""
from __future__ import annotations

from bot.domain import deadline_math
from bot.domain.session_results import WaitingGame
from bot.store import Store


class MyGames:
    def __init__(self, store: Store):
        self.store = store

    async def games(self, guild_id: int | None, user_id: int,
                       now: float) -> tuple[list[WaitingGame], list[WaitingGame]]:
        """The games in play on the server where `user_id` sits (`guild_id` None: in DMs and group DMs, told to
        them alone): those waiting for them, then those waiting for someone else, the longest waiting first. The
        front end keeps a server's in channels they can view."""
        found = await (self.store.games.open_games_in_guild(guild_id) if guild_id is not None
                       else self.store.games.open_private_games(user_id))
        games = sorted((r for r in found if r.status == "active" and r.seat_of(user_id) is not None),
                       key=lambda r: (r.updated_at, r.id))
        away, _ = await self.store.people.of({p for r in games if (p := deadline_math.waiting_person(r)) is not None})
        # A game in play always waits for a seat.
        listed = [WaitingGame(r, r.updated_at, deadline_math.shown_deadline(r, away, now), seat)
                  for r in games if (seat := deadline_math.seat_to_move(r)) is not None]
        waiting = [g for g in listed if deadline_math.waiting_person(g.record) == user_id]
        return waiting, [g for g in listed if deadline_math.waiting_person(g.record) != user_id]
