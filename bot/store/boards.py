"""Which message shows each game's board, and which version and status it shows (`store.boards`); the games whose
board start-up posts again."""
from __future__ import annotations

from sqlalchemy import and_, bindparam, or_, select

from bot.core.game_records import GameRecord
from bot.core.shards import Shards
from bot.store.calls import Database
from bot.store.game_row import GAME_COLUMNS, on_shards, record_of, shard_parameters
from bot.store.schema import games

# board_version of a lobby message: it shows no position, not even the game's first (version 0).
LOBBY_SHOWN = -1
# A game's final board that a crash kept from being posted is posted at start-up if the game ended within
# these days (not forever: a board that cannot be posted, the channel gone, would be tried at every start).
FINAL_BOARD_DAYS = 7

_SET_BOARD = (games.update().where(games.c.id == bindparam("the_game"))
              .values(board_message_id=bindparam("message"), board_version=bindparam("shown"),
                      board_status=bindparam("shown_status")))
# A game ended by a move, a resignation or /game end whose board does not show it yet; not one ended because
# its channel or server is gone (nothing left to show it in: the result's details say so).
_ENDED_UNSHOWN = and_(games.c.status.in_(("finished", "ended")), games.c.state.is_not(None),
                      or_(games.c.board_version < games.c.version, games.c.board_status != games.c.status),
                      games.c.updated_at > bindparam("ended_after"),
                      ~games.c.result.contains('"channel_deleted"'), ~games.c.result.contains('"bot_removed"'))
_TO_RESUME = (select(*GAME_COLUMNS, games.c.board_version, games.c.board_status)
              .where(or_(games.c.status == "active", _ENDED_UNSHOWN,
                         and_(games.c.status == "lobby", games.c.board_message_id.is_(None))))   # never shown
              .order_by(games.c.id))
_TO_RESUME_ON_SHARDS = on_shards(_TO_RESUME)
_GAME_TO_RESUME = _TO_RESUME.where(games.c.id == bindparam("the_game"))


class BoardRows:
    """Which message shows each game's board, and which version and status it shows."""

    def __init__(self, store: Database):
        self._store = store

    async def set_message(self, game_id: int, message_id: int, version: int, status: str) -> None:
        """The message showing the game's board, and the game version and status it shows (LOBBY_SHOWN: the lobby)."""
        await self._store.execute(_SET_BOARD, {"the_game": game_id, "message": message_id, "shown": version,
                                               "shown_status": status})

    async def to_resume(self, shards: Shards | None = None,
                        game_id: int | None = None) -> list[tuple[GameRecord, int | None, str | None]]:
        """Every game in play (in the guilds of `shards`; or just `game_id`), every lobby never shown, and
        every game a move, a resignation or /game end ended within FINAL_BOARD_DAYS whose board does not show
        that yet, with the version and status its posted board shows (None: not recorded)."""
        ended_after = {"ended_after": self._store.now() - FINAL_BOARD_DAYS * 86400}
        if game_id is not None:
            rows = await self._store.rows(_GAME_TO_RESUME, ended_after | {"the_game": game_id})
        else:
            rows = await self._store.rows(_TO_RESUME if shards is None else _TO_RESUME_ON_SHARDS,
                                          ended_after | shard_parameters(shards))
        return [(record_of(row), row["board_version"], row["board_status"]) for row in rows]
