"""A game's row, shared by the parts that read or write games: the columns read and the GameRecord made of
them, JSON written compactly, the condition of the open games, the filter of a process's shards, and the people a
game names (game_people), written with the game."""
from __future__ import annotations

import json
from typing import Any

from sqlalchemy import BigInteger, Select, bindparam, func, literal_column

from bot.core.game_records import GameRecord, Seat
from bot.core.shards import GUILD_ID_SHIFT, Shards
from bot.store.schema import Row, Statements, game_people, games

GAME_COLUMNS = (games.c.id, games.c.guild_id, games.c.channel_id, games.c.game, games.c.status, games.c.host_id,
                games.c.locale, games.c.options, games.c.seats, games.c.seed, games.c.state, games.c.version,
                games.c.board_message_id, games.c.result, games.c.updated_at)
# Spelled out, not bound: the index of open games per channel is partial (WHERE status IN these), and
# a query can use it only if its own condition says so literally.
IS_OPEN = games.c.status.in_([literal_column("'lobby'"), literal_column("'active'")])


def record_of(row: Row) -> GameRecord:
    """The game a row of GAME_COLUMNS holds."""
    return GameRecord(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], game=row["game"],
        status=row["status"], host_id=row["host_id"], locale=row["locale"], options=json.loads(row["options"]),
        seats=tuple(Seat.from_json(s) for s in json.loads(row["seats"])), seed=row["seed"],
        state=_loaded(row["state"]), version=row["version"], board_message_id=row["board_message_id"],
        result=_loaded(row["result"]), updated_at=row["updated_at"],
    )


def _loaded(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def dump(data: Any) -> str:
    """JSON as the store writes it: compact, keys sorted (so that equal data is equal text)."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def dump_or_none(data: Any) -> str | None:
    return None if data is None else dump(data)


def seats_json(seats: tuple[Seat, ...]) -> str:
    return dump([s.to_json() for s in seats])


def on_shards(query: Select[Any]) -> Select[Any]:
    """`query` narrowed to the games of the guilds of the shards `shard_ids` of `shard_count` (bot.core.shards.shard_of,
    in SQL; both databases have >> and % on 64-bit integers)."""
    # The shift inline: PostgreSQL has bigint >> integer, not bigint >> bigint (a bound value's type).
    shard = (func.coalesce(games.c.guild_id, 0).op(">>", return_type=BigInteger)(literal_column(str(GUILD_ID_SHIFT)))
             % bindparam("shard_count", type_=BigInteger))
    return query.where(shard.in_(bindparam("shard_ids", expanding=True)))


def shard_parameters(shards: Shards | None) -> dict[str, Any]:
    return {} if shards is None else {"shard_count": shards.count, "shard_ids": list(shards.ids)}


# The people a game names (GameRecord.people), written again whenever they change.
_UNNAME_PEOPLE = game_people.delete().where(game_people.c.game_id == bindparam("the_game"))
_NAME_PERSON = game_people.insert().values(game_id=bindparam("the_game"), user_id=bindparam("user"))


async def name_people(db: Statements, record: GameRecord, *, new: bool = False) -> None:
    """The game's people written (again: those it named before deleted first, unless it is `new`)."""
    if not new:
        await db.execute(_UNNAME_PEOPLE, {"the_game": record.id})
    await db.execute(_NAME_PERSON, [{"the_game": record.id, "user": user} for user in sorted(record.people)])
