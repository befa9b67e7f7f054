"""Which gateway shards a process runs, and which games are therefore its own.

Discord sends a guild's events, interactions included, only to shard `(guild_id >> 22) % shard_count`
(discord.py's `Guild.shard_id`), and events without a guild (direct messages) to shard 0. A process
re-arms deadlines, finishes interrupted turns and reposts lagging boards only for the games whose
guild is on one of its shards: another process owns the others. A game without a guild counts as
shard 0's.
"""
from __future__ import annotations

from dataclasses import dataclass

GUILD_ID_SHIFT = 22   # a snowflake's timestamp starts above its 22 low bits


def shard_of(guild_id: int | None, count: int) -> int:
    return 0 if guild_id is None else (guild_id >> GUILD_ID_SHIFT) % count


@dataclass(frozen=True)
class Shards:
    """This process's shards `ids` out of `count`."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    @property
    def syncs_commands(self) -> bool:
        """One process sends the slash commands to Discord: the one running shard 0."""
        return 0 in self.ids


class ShardSpecError(ValueError):
    """Unreadable shard settings; `key` and `params` name the problem in the catalogue (cli.shards.*)."""

    def __init__(self, key: str, **params: object):
        super().__init__(key)
        self.key, self.params = key, params


def parse_shards(count_text: str | None, ids_text: str | None) -> Shards | None:
    """TABLERO_SHARD_COUNT and TABLERO_SHARD_IDS ("0-3", "0,2", "0-1,5"): None when both are unset
    (one process runs every shard Discord recommends). A count alone: this process runs all of them."""
    if not count_text:
        if ids_text:
            raise ShardSpecError("cli.shards.ids_without_count")
        return None
    try:
        count = int(count_text)
    except ValueError:
        raise ShardSpecError("cli.shards.bad_count", value=count_text) from None
    if count < 1:
        raise ShardSpecError("cli.shards.bad_count", value=count_text)
    if not ids_text:
        return Shards(count, tuple(range(count)))
    ids: set[int] = set()
    for part in ids_text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            low, high = int(first), int(last if dash else first)
        except ValueError:
            raise ShardSpecError("cli.shards.bad_ids", value=ids_text) from None
        if low > high or low < 0:
            raise ShardSpecError("cli.shards.bad_ids", value=ids_text)
        if high >= count:
            raise ShardSpecError("cli.shards.out_of_range", shard=high, count=count)
        ids.update(range(low, high + 1))
    return Shards(count, tuple(sorted(ids)))
