"""A rematch: the final board's Rematch button or `/game rematch` opens a lobby for the same game with
the same options, the finished game's players already seated in the same seating mode (computer
seats too) and the one who asked as host. From there it is a lobby like any other."""
from __future__ import annotations

from dataclasses import replace

from bot import dice, seating
from bot.game_records import Seat
from bot.games.base import GameError, msg
from bot.services.base import Outcome, ruleset_of
from bot.services.lobby import Lobby
from bot.store import ChannelBusy


class Rematch(Lobby):
    async def rematch(self, channel_id: int, asker: Seat, game_id: int | None = None) -> Outcome:
        """A lobby for a rematch of the channel's last game (`game_id`: the one whose board was clicked)."""
        async with self._locks[channel_id]:
            last = await self.store.latest_game(channel_id)
            if last is not None and last.status in ("lobby", "active"):
                raise GameError(msg("error.channel_busy"))
            if last is None or last.state is None:   # none yet, or a lobby that closed unplayed
                raise GameError(msg("rematch.error.no_game"))
            if game_id is not None and last.id != game_id:
                raise GameError(msg("rematch.error.newer"))
            seat = last.seat_of(asker.user_id)
            if seat is None:
                raise GameError(msg("rematch.error.not_a_player"))
            # The seats as they ended (a computer that took a seat keeps it); drawn afresh at the start
            # from the new game's seed when the seating is random.
            seats = tuple(asker if i == seat else replace(s, name="") if s.level else s  # numbered afresh
                          for i, s in enumerate(last.seats))
            options = {k: v for k, v in last.options.items() if k != seating.LOBBY_SEATS}
            try:
                record = await self.store.create_game(
                    guild_id=last.guild_id, channel_id=channel_id, game=last.game, host=asker,
                    locale=asker.locale, options=options, seed=dice.new_seed())
            except ChannelBusy:
                raise GameError(msg("error.channel_busy")) from None
            record = await self._save(record, seats=seats)
        return Outcome(record, (msg("rematch.opened", seat=seat, game=msg(ruleset_of(record).name)),))
