"""Finished and running games as records, for anyone in the server to read: the history pages, the
fair-dice verification, the statistics and the leaderboard. Only reads."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot import dice, history, stats
from bot.games.base import GameError, Message, msg
from bot.services.base import ruleset_of
from bot.game_records import GameRecord, LoggedAction
from bot.store import Store
from bot.verify import OVER, verify

NO_GAME = msg("history.no_game")   # an unknown game, and one in a channel the asker cannot view


@dataclass(frozen=True)
class HistoryPage:
    number: int                        # from 0
    count: int
    entries: list[history.Entry]


class Records:
    def __init__(self, store: Store):
        self.store = store

    async def game_for(self, guild_id: int | None, channel_id: int, game_id: int | None) -> GameRecord:
        """Game `game_id` of this server, or this channel's latest game."""
        store = self.store
        record = await (store.game(game_id) if game_id is not None else store.latest_game(channel_id))
        if record is None or record.guild_id != guild_id or record.state is None:
            raise GameError(NO_GAME)
        return record

    async def actions(self, game_id: int) -> list[LoggedAction]:
        return await self.store.actions(game_id)

    async def history_page(self, record: GameRecord, page: int | None) -> HistoryPage:
        """One page of the game's history (default: the last), retold in a thread."""
        actions = await self.store.actions(record.id)
        pages = history.page_count(len(actions))
        page = pages - 1 if page is None else min(max(page, 0), pages - 1)
        entries = await asyncio.to_thread(_page_entries, record, actions, page)
        return HistoryPage(page, pages, entries)

    async def verification(self, record: GameRecord) -> Message:
        """What /game verify answers: the commitment of a running game, or the check of a finished one."""
        commitment = dice.commitment(record.seed)
        if record.status not in OVER:
            return msg("verify.running", game_id=record.id, commitment=commitment)
        actions = await self.store.actions(record.id)
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

    async def player(self, guild_id: int | None, user_id: int) -> stats.PlayerStats | None:
        """A person's statistics and ratings over the server's finished games (None: no game yet)."""
        return (await self._players(guild_id)).get(user_id)

    async def leaderboard(self, guild_id: int | None, game: str | None) -> list[tuple[int, stats.PlayerStats]]:
        """The server's people ranked by rating in `game`, or by wins over every game."""
        return stats.leaderboard(await self._players(guild_id), game)

    async def _players(self, guild_id: int | None) -> dict[stats.PlayerKey, stats.PlayerStats]:
        return stats.compute(await self.store.finished_games(guild_id))


def _page_entries(record: GameRecord, actions: list[LoggedAction], page: int) -> list[history.Entry]:
    start = page * history.PAGE_SIZE
    return history.entries(ruleset_of(record), record, actions, start, start + history.PAGE_SIZE)
