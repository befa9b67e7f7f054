"""Deadlines where the bot may only answer interactions (deadline_math.waits_for_interactions): nothing fires there on
its own, so a deadline that passed is applied at the next interaction in the game (`apply_overdue`, which the
front end calls before the interaction's own action), or at once when a player waiting on the late one claims
the turn (`claim`), as correspondence chess lets the opponent claim a flag. Either way it is the expiry the
timers apply elsewhere (Deadlines.expire: its timeout rule, and the vote after VOTE_AFTER expiries in a row)."""
from __future__ import annotations

from bot.domain import deadline_math
from bot.domain.names import player_name
from bot.domain.session_results import Outcome
from bot.games.base import GameError, msg
from bot.services.base import Channels
from bot.services.deadlines import Deadlines


class Claims:
    def __init__(self, channels: Channels, deadlines: Deadlines):
        self.channels = channels
        self.deadlines = deadlines

    async def apply_overdue(self, channel_id: int, now: float, game_id: int | None = None,
                            version: int | None = None) -> Outcome | None:
        """The channel's game's turn whose deadline passed, played or passed by its timeout rule, if the game
        waits for interactions; None when nothing was overdue (or the timers fire this game's deadlines).
        `game_id`/`version`: the game a click names, not read again where this process wrote that version."""
        record = self.channels.as_written(channel_id, game_id, version) or \
            await self.channels.store.games.open_game(channel_id)
        if record is None or record.status != "active" or not deadline_math.waits_for_interactions(record) or \
                not record.options.get("turn_time") or record.updated_at + record.options["turn_time"] > now:
            return None   # time away only moves a deadline later: not due yet either way
        return await self.deadlines.expire(channel_id, record.id, record.version, now)

    async def claim(self, channel_id: int, user_id: int, game_id: int, version: int, now: float) -> Outcome:
        """Another seated player claims the turn of version `version` (the board's Claim button), whose deadline
        passed: it is applied at once. GameError when the clicker may not claim it, or not yet."""
        record = await self.channels.active(channel_id, game_id, version)
        seat = record.seat_of(user_id)
        if seat is None:
            raise GameError(msg("error.not_a_player"))
        late = deadline_math.seat_to_move(record)
        if late is None or record.seats[late].level is not None or not record.options.get("turn_time"):
            raise GameError(msg("claims.error.nothing_to_claim"))
        if late == seat:
            raise GameError(msg("claims.error.own_turn"))
        clocks = await self.deadlines.turn_clocks(game_id)
        if not clocks or deadline_math.deadline(clocks[0]) > now:
            raise GameError(msg("claims.error.not_yet", player=player_name(record, late)))
        outcome = await self.deadlines.expire(channel_id, game_id, version, now)
        if outcome is None:   # someone acted, or another claim or interaction applied it first
            raise GameError(msg("error.stale"))
        return outcome
