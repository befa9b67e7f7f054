"""Which message shows a game's board, and which version of the game it shows: what lets a front end
edit the board in place, retire an old board's controls, and repost what a restart left unposted."""
from __future__ import annotations

from bot.core.game_records import GameRecord
from bot.core.shards import Shards
from bot.services.base import remember
from bot.store import LOBBY_SHOWN, Store

__all__ = ["LOBBY_SHOWN", "Boards"]

KNOWN_BOARDS = 2000   # games whose board this process remembers, the least recently recorded dropped first


class Boards:
    def __init__(self, store: Store, shards: Shards | None = None):
        self.store = store
        self.shards = shards
        # The boards this process recorded, as (message id, version shown): only the process of a game's shard
        # posts its boards (after a restart, or shards handed over, the store tells), so a board read back is
        # one recorded here.
        self._boards: dict[int, tuple[int, int]] = {}

    async def message(self, game_id: int) -> int | None:
        """The id of the message showing the game's board, as last recorded (None: none posted)."""
        if game_id in self._boards:
            return self._boards[game_id][0]
        record = await self.store.games.game(game_id)
        return None if record is None else record.board_message_id

    def shows_newer(self, game_id: int, version: int) -> bool:
        """Whether this process already recorded a board of the game newer than `version` (a board of
        `version` would be a stale one)."""
        return game_id in self._boards and self._boards[game_id][1] > version

    async def set_message(self, game_id: int, message_id: int, version: int, status: str) -> None:
        """The message showing the game's board, and the game version and status it shows (LOBBY_SHOWN: the lobby)."""
        await self.store.boards.set_message(game_id, message_id, version, status)
        remember(self._boards, game_id, (message_id, version), KNOWN_BOARDS)

    async def to_resume(self, game_id: int | None = None) -> list[tuple[GameRecord, int | None, str | None]]:
        """Every game in play on this process's shards (or just `game_id`), and those that just ended unshown
        or whose lobby was never shown (BoardRows.to_resume), with the version and status its posted board
        shows (None: not recorded)."""
        return await self.store.boards.to_resume(self.shards, game_id)
