"""Players' data on request, and servers' games past their retention (`store.privacy`, bot/services/privacy.py)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import bindparam, case, exists, func, select, union

from bot.core.game_records import GameRecord
from bot.core.shards import Shards
from bot.store.backends import upserts
from bot.store.calls import Database
from bot.store.errors import StaleVersion
from bot.store.game_row import (
    GAME_COLUMNS,
    IS_OPEN,
    dump,
    dump_or_none,
    name_people,
    on_shards,
    seats_json,
    shard_parameters,
)
from bot.store.schema import (
    Statements,
    actions,
    away_periods,
    game_people,
    games,
    guilds_left,
    seat_votes,
    server_defaults,
    turn_notifications,
)

# Each found through an index (game_people's and actions' by user; the votes are few): no game read but theirs.
_NAMES_USER = games.c.id.in_(union(
    select(game_people.c.game_id).where(game_people.c.user_id == bindparam("user")),
    select(actions.c.game_id).where(actions.c.user_id == bindparam("user")),
    select(seat_votes.c.game_id).where(seat_votes.c.voter_id == bindparam("user"))))
_GAMES_OF = select(*GAME_COLUMNS).where(_NAMES_USER).order_by(games.c.id)
# The person's games read once, the open ones counted among them (a second look for them, open games first, is
# what PostgreSQL's planner may choose: every open game read).
_KEPT_ABOUT = select(
    func.count().label("games"), func.count(case((IS_OPEN, 1))).label("open_games"),
    select(func.count()).where(actions.c.user_id == bindparam("user")).select_from(actions)
    .scalar_subquery().label("actions"),
    select(func.count()).where(away_periods.c.user_id == bindparam("user")).select_from(away_periods)
    .scalar_subquery().label("away_periods"),
    select(func.count()).where(turn_notifications.c.user_id == bindparam("user")).select_from(turn_notifications)
    .scalar_subquery().label("notifications")).select_from(games).where(_NAMES_USER)
_LOGGED_EVENTS = (select(actions.c.game_id, actions.c.seq, actions.c.events)
                  .where(actions.c.game_id.in_(bindparam("games", expanding=True)), actions.c.events.is_not(None)))
_REWRITE_GAME = (games.update()
                 .where(games.c.id == bindparam("the_game"), games.c.version == bindparam("read_version"),
                        games.c.seats == bindparam("read_seats"))
                 .values({c: bindparam(f"new_{c}") for c in ("seats", "options", "host_id", "result")}))
_REWRITE_EVENTS = (actions.update().where(actions.c.game_id == bindparam("the_game"), actions.c.seq == bindparam("seq"))
                   .values(events=bindparam("events")))
_PSEUDONYMISE_LOG = (actions.update().where(actions.c.user_id == bindparam("user"))
                     .values(user_id=bindparam("pseudonym")))
_FORGET_ROWS = (seat_votes.delete().where(seat_votes.c.voter_id == bindparam("user")),
                away_periods.delete().where(away_periods.c.user_id == bindparam("user")),
                turn_notifications.delete().where(turn_notifications.c.user_id == bindparam("user")))
_GUILD_LEFT = upserts(lambda insert: (
    stmt := insert(guilds_left).values(guild_id=bindparam("guild"), left_at=bindparam("when")))
    .on_conflict_do_update(index_elements=[guilds_left.c.guild_id], set_={"left_at": stmt.excluded.left_at}))
_GUILD_BACK = guilds_left.delete().where(guilds_left.c.guild_id == bindparam("guild"))
# A game played through a user's install of the app (bot/cogs/messages/delivery.py) is in a server the bot may never
# have been in: it says nothing of the bot's presence there. The servers from the index of games by server, and
# for each a look at its games until one the bot played (mostly the first): not every game read.
_GUILDS_WITH_GAMES = on_shards(select(games.c.guild_id).distinct().where(
    games.c.guild_id.is_not(None), games.c.guild_id.not_in(select(guilds_left.c.guild_id)))).subquery()
_BOTS_OWN = games.c.interactions_only == 0   # the bot's game, not one of a user's install (migration 12)
_GUILDS_PLAYED = select(_GUILDS_WITH_GAMES.c.guild_id).where(exists().where(
    games.c.guild_id == _GUILDS_WITH_GAMES.c.guild_id, _BOTS_OWN))
_GUILDS_LEFT = select(guilds_left.c.guild_id)
_GONE_GUILDS = select(guilds_left.c.guild_id).where(guilds_left.c.left_at < bindparam("before"))
# A server's removal of the bot says nothing of the games its members play through their own install: those
# stay, as they stayed open when the server removed the bot.
_GONE_GAMES = select(games.c.id).where(games.c.guild_id.in_(_GONE_GUILDS), _BOTS_OWN)
_PURGE = (actions.delete().where(actions.c.game_id.in_(_GONE_GAMES)),   # what names a game before the game
          seat_votes.delete().where(seat_votes.c.game_id.in_(_GONE_GAMES)),
          game_people.delete().where(game_people.c.game_id.in_(_GONE_GAMES)),
          server_defaults.delete().where(server_defaults.c.guild_id.in_(_GONE_GUILDS)))
_PURGE_GAMES = games.delete().where(games.c.guild_id.in_(_GONE_GUILDS), _BOTS_OWN)
_PURGE_GUILDS = guilds_left.delete().where(guilds_left.c.left_at < bindparam("before"))
_PURGE_AWAY = away_periods.delete().where(away_periods.c.until < bindparam("away_before"))


async def _forget_user(db: Statements, user_id: int, pseudonym: int,
                       rewritten: Sequence[tuple[GameRecord, GameRecord]],
                       events: Sequence[tuple[int, int, str]]) -> None:
    for read, new in rewritten:
        if await db.execute(_REWRITE_GAME, {
                "the_game": read.id, "read_version": read.version, "read_seats": seats_json(read.seats),
                "new_seats": seats_json(new.seats), "new_options": dump(new.options), "new_host_id": new.host_id,
                "new_result": dump_or_none(new.result)}) != 1:
            raise StaleVersion
        await name_people(db, new)
    if events:
        await db.execute(_REWRITE_EVENTS, [{"the_game": game, "seq": seq, "events": text}
                                           for game, seq, text in events])
    await db.execute(_PSEUDONYMISE_LOG, {"user": user_id, "pseudonym": pseudonym})
    for statement in _FORGET_ROWS:
        await db.execute(statement, {"user": user_id})


async def _purge(db: Statements, parameters: dict[str, Any]) -> tuple[int, int]:
    for statement in _PURGE:
        await db.execute(statement, parameters)
    deleted = await db.execute(_PURGE_GAMES, parameters)
    await db.execute(_PURGE_GUILDS, parameters)
    return deleted, await db.execute(_PURGE_AWAY, parameters)


class PrivacyRows:
    """Players' data on request, and servers' games past their retention (bot/services/privacy.py)."""

    def __init__(self, store: Database):
        self._store = store

    async def games_of(self, user_id: int) -> list[GameRecord]:
        """Every game that names `user_id`: seated (or in the lobby order), host, acting in the log or voting."""
        return await self._store.records(_GAMES_OF, {"user": user_id})

    async def kept_about(self, user_id: int) -> dict[str, int]:
        """How much is kept about `user_id`: games (those in play too), actions logged, periods away, and
        whether a direct message on their turn is wanted (1 or 0)."""
        rows = await self._store.rows(_KEPT_ABOUT, {"user": user_id})
        return dict(rows[0])

    async def logged_events(self, game_ids: Sequence[int]) -> list[tuple[int, int, str]]:
        """(game id, position, events JSON) of every action of these games that caused events."""
        rows = await self._store.rows(_LOGGED_EVENTS, {"games": list(game_ids)})
        return [(row["game_id"], row["seq"], row["events"]) for row in rows]

    async def forget_user(self, user_id: int, pseudonym: int, rewritten: Sequence[tuple[GameRecord, GameRecord]],
                          events: Sequence[tuple[int, int, str]]) -> None:
        """In one transaction: each game (as read, as rewritten: seats, options, host, result) if nobody changed
        it since (else StaleVersion, nothing written), the events given, `user_id` in the log becomes
        `pseudonym`; their votes, time away and wish for direct messages are deleted."""
        await self._store.run(_forget_user, user_id, pseudonym, rewritten, events, transaction=True)

    async def guild_left(self, guild_id: int, when: float | None) -> None:
        """The bot was removed from the server at `when` (None: it is back, nothing to delete)."""
        if when is None:
            await self._store.execute(_GUILD_BACK, {"guild": guild_id})
        else:
            await self._store.execute(_GUILD_LEFT[self._store.dialect], {"guild": guild_id, "when": when})

    async def guilds_known(self, shards: Shards) -> tuple[set[int], set[int]]:
        """Of the servers on `shards`: those whose games the bot played there (not only through users' installs)
        and that have not removed it as far as the store knows; and those that removed it (guilds_left)."""
        played = await self._store.rows(_GUILDS_PLAYED, shard_parameters(shards))
        left = await self._store.rows(_GUILDS_LEFT, {})
        return ({row["guild_id"] for row in played},
                {row["guild_id"] for row in left if shards.owns(row["guild_id"])})

    async def purge(self, left_before: float, away_before: float) -> tuple[int, int]:
        """Delete the games (their logs, votes and the server's defaults) of servers that removed the bot before
        `left_before`, and the periods away that ended before `away_before`: (games, periods) deleted."""
        return await self._store.run(_purge, {"before": left_before, "away_before": away_before}, transaction=True)
