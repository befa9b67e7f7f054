"""Finished and running games as records, for anyone in the server (or in the DM or group DM) to read: the
history pages, the fair-dice verification, the statistics and the leaderboard. Only reads."""
from __future__ import annotations

import asyncio

from bot.core.game_records import GameRecord, LoggedAction
from bot.domain import dice, retelling, stats
from bot.domain.positions import ruleset_of
from bot.domain.retelling import HistoryPage
from bot.domain.verify import OVER, verify
from bot.games.base import GameError, Message, msg
from bot.store import Store

NO_GAME = msg("history.no_game")   # an unknown game, and one in a channel the asker cannot view


class Records:
    def __init__(self, store: Store):
        self.store = store

    async def game_for(self, guild_id: int | None, channel_id: int, game_id: int | None, user_id: int) -> GameRecord:
        """Game `game_id` of this server, or this channel's latest game, for `user_id` asking in that channel
        (`guild_id` None: a DM or group DM). A DM or group DM's game is visible only there, and to its players."""
        store = self.store
        record = await (store.games.game(game_id) if game_id is not None else store.games.latest_game(channel_id))
        if record is None or record.state is None:
            raise GameError(NO_GAME)
        if record.guild_id is None:   # a DM or group DM's
            hidden = record.channel_id != channel_id and record.seat_of(user_id) is None
        else:
            hidden = record.guild_id != guild_id
        if hidden:
            raise GameError(NO_GAME)
        return record

    async def actions(self, game_id: int) -> list[LoggedAction]:
        return await self.store.games.actions(game_id)

    async def history_page(self, record: GameRecord, page: int | None) -> HistoryPage:
        """One page of the game's history (default: the last), retold in a thread."""
        actions = await self.store.games.actions(record.id)
        pages = retelling.page_count(len(actions))
        page = pages - 1 if page is None else min(max(page, 0), pages - 1)
        entries = await asyncio.to_thread(_page_entries, record, actions, page)
        return HistoryPage(page, pages, entries)

    async def verification(self, record: GameRecord) -> Message:
        """What /game verify answers: the commitment of a running game, or the check of a finished one."""
        commitment = dice.commitment(record.seed)
        if record.status not in OVER:
            return msg("verify.running", game_id=record.id, commitment=commitment)
        actions = await self.store.games.actions(record.id)
        result = await asyncio.to_thread(verify, ruleset_of(record), record, actions)
        if result.mismatches:
            first = result.mismatches[0]
            return msg("verify.mismatch", game_id=record.id, count=len(result.mismatches), n=first.seq + 1,
                       logged=first.logged, expected=first.expected or "—")
        if result.seating_matches is False:
            return msg("verify.seating_differs", game_id=record.id)
        if not result.final_state_matches:
            return msg("verify.final_differs", game_id=record.id)
        return msg("verify.ok_seating" if result.seating_matches else "verify.ok", game_id=record.id, seed=record.seed,
                   commitment=commitment, rolls=result.rolls)

    async def player(self, guild_id: int | None, channel_id: int, user_id: int) -> stats.PlayerStats | None:
        """A person's statistics and ratings over the finished games of the server, or of the DM or group DM
        (`guild_id` None) `channel_id` (None: no game yet)."""
        return (await self._players(guild_id, channel_id)).get(user_id)

    async def leaderboard(self, guild_id: int | None, channel_id: int,
                          game: str | None) -> list[tuple[int, stats.PlayerStats]]:
        """The people of the server (or of the DM or group DM) ranked by rating in `game`, or by wins over
        every game."""
        return stats.leaderboard(await self._players(guild_id, channel_id), game)

    async def _players(self, guild_id: int | None, channel_id: int) -> dict[stats.PlayerKey, stats.PlayerStats]:
        """Asked in a server: its games; in a DM or group DM: that channel's alone (they are private to it)."""
        games = await (self.store.games.finished_games(guild_id) if guild_id is not None
                       else self.store.games.finished_private_games(channel_id))
        return stats.compute(games)


def _page_entries(record: GameRecord, actions: list[LoggedAction], page: int) -> list[retelling.Entry]:
    start = page * retelling.PAGE_SIZE
    return retelling.entries(ruleset_of(record), record, actions, start, start + retelling.PAGE_SIZE)
