"""Which message shows a game's board, and which version of the game it shows: what lets a front end
edit the board in place, retire an old board's controls, and repost what a restart left unposted."""
from __future__ import annotations

from bot.games.base import Message
from bot.services.base import Service
from bot.store import LOBBY_SHOWN, GameRecord

__all__ = ["LOBBY_SHOWN", "Boards"]


class Boards(Service):
    async def board_message(self, game_id: int) -> int | None:
        """The id of the message showing the game's board, as last recorded (None: none posted)."""
        record = await self.store.game(game_id)
        return None if record is None else record.board_message_id

    async def set_board_message(self, game_id: int, message_id: int, version: int) -> None:
        """The message showing the game's board, and the game version it shows (LOBBY_SHOWN: the lobby)."""
        await self.store.set_board_message(game_id, message_id, version)

    async def active_boards(self) -> list[tuple[GameRecord, int | None]]:
        """Every game in play on this process's shards, with the version its posted board shows (None: not
        recorded)."""
        return await self.store.active_boards(self.shards)

    async def events_since_turn(self, game_id: int, before: int, seat: int) -> tuple[Message, ...]:
        """What happened before version `before` that `seat` has not seen on a turn of its own."""
        logged = await self.store.events_since_turn(game_id, before, seat)
        return tuple(Message.from_json(event) for event in logged)
