"""Players' data on request (Discord's developer policy; Red-DiscordBot's red_delete_data_for_user is the model),
and servers' games kept no longer than the retention after the bot leaves them.

Forgetting a person: the games they still sit in are resigned first (a lobby left), as /game resign does;
then, in one transaction, their id in every stored game (seats, the lobby order kept for the seats' draw, host,
the log, who ended a game) becomes one pseudonym, a random negative number drawn for them alone, and their
names there become a "former player" (a Message, so each reader sees it in their own language); their time
away, their wish for direct messages and their votes go. The pseudonym is the same across their games, so the
others' ratings, computed from the games, stay as they were, and the seats and the log keep their order, so
every roll and the seats' draw still verify (bot/domain/verify.py). Their own ratings and statistics go with their id
(bot/domain/stats.py lists no pseudonym). Server defaults name no person: they stay with the server.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import replace
from typing import Any

from bot.core.game_records import GameRecord, Seat
from bot.core.shards import Shards
from bot.domain.names import FORMER_PLAYER, person_name
from bot.domain.seating import LOBBY_SEATS
from bot.domain.session_results import Forgotten, Kept
from bot.games.base import GameError, msg
from bot.services.endings import Endings
from bot.services.lobby import Lobby
from bot.store import StaleVersion, Store

RETAIN_DAYS = 30                          # TABLERO_RETAIN_DAYS' default
AWAY_DAYS = 366                           # a period away counts toward the yearly allowance this long
                                          # (bot/domain/deadline_math.py)
DAY_S = 86400.0
_TRIES = 3                                # the rewrite tried again when a game moved on meanwhile


class Privacy:
    def __init__(self, store: Store, lobby: Lobby, endings: Endings):
        self.store = store
        self.lobby = lobby
        self.endings = endings

    async def kept_about(self, user_id: int) -> Kept:
        kept = await self.store.privacy.kept_about(user_id)
        return Kept(kept["games"], kept["open_games"], kept["actions"], kept["away_periods"],
                    bool(kept["notifications"]))

    async def forget(self, user_id: int) -> Forgotten:
        """Remove `user_id`'s personal data (see the module's docstring)."""
        resigned = []
        for record in await self.store.privacy.games_of(user_id):
            if record.seat_of(user_id) is None or record.status not in ("lobby", "active"):
                continue
            try:
                if record.status == "lobby":
                    resigned.append(await self.lobby.leave(record.channel_id, user_id, record.id))
                else:
                    resigned.append(await self.endings.resign(record.channel_id, user_id))
            except GameError:   # the game moved on meanwhile (started, ended): rewritten below all the same
                pass
        pseudonym = -1 - secrets.randbelow(2**62)
        for attempt in range(_TRIES):
            records = await self.store.privacy.games_of(user_id)
            rewritten = [(record, anonymised(record, user_id, pseudonym)) for record in records]
            names = {name for record in records for name in names_of(record, user_id)}
            logged = await self.store.privacy.logged_events([r.id for r in records])
            events = [(game, seq, new) for game, seq, text in logged
                      if (new := scrubbed(text, names)) != text]
            try:
                await self.store.privacy.forget_user(user_id, pseudonym, rewritten, events)
                return Forgotten(len(records), tuple(resigned))
            except StaleVersion:   # a game changed between the read and the write: nothing written, read again
                if attempt == _TRIES - 1:
                    raise GameError(msg("error.stale")) from None
        raise AssertionError("unreachable")

    async def guild_left(self, guild_id: int, now: float) -> None:
        await self.store.privacy.guild_left(guild_id, now)

    async def guild_back(self, guild_id: int) -> None:
        await self.store.privacy.guild_left(guild_id, None)

    async def unseen_departures(self, present: set[int], shards: Shards) -> tuple[list[int], list[int]]:
        """The servers on `shards` that removed the bot, and those that added it back, while no event could say
        so (the bot stopped): compared with `present`, every server Discord listed for these shards once they
        were ready, those in an outage (unavailable) too. A server known only from games played through a
        user's install of the app is none of them: the bot need not be there. (gone, back), each sorted."""
        played, left = await self.store.privacy.guilds_known(shards)
        return sorted(played - present), sorted(left & present)

    async def purge(self, now: float, retain_days: int) -> tuple[int, int]:
        """Delete the games of servers that removed the bot more than `retain_days` ago, and periods away older
        than the yearly allowance looks: (games, periods) deleted."""
        return await self.store.privacy.purge(now - retain_days * DAY_S, now - AWAY_DAYS * DAY_S)


def anonymised(record: GameRecord, user_id: int, pseudonym: int) -> GameRecord:
    """`record` with `user_id` become `pseudonym`, without their names (seats, lobby order, host, result)."""
    def seat(s: Seat) -> Seat:
        return Seat(pseudonym, "", None, record.locale) if s.level is None and s.user_id == user_id else s

    options: dict[str, Any] = dict(record.options)
    if LOBBY_SEATS in options:
        options[LOBBY_SEATS] = [seat(Seat.from_json(s)).to_json() for s in options[LOBBY_SEATS]]
    result = record.result
    if result is not None and (result.get("details") or {}).get("ended_by") == user_id:
        result = {**result, "details": {**result["details"], "ended_by": pseudonym}}
    return replace(record, seats=tuple(seat(s) for s in record.seats), options=options, result=result,
                   host_id=pseudonym if record.host_id == user_id else record.host_id)


def names_of(record: GameRecord, user_id: int) -> set[str]:
    """The names `user_id` has in `record`: as written, and as messages shortened them (bot.domain.names)."""
    seats = [i for i, s in enumerate(record.seats) if s.level is None and s.user_id == user_id]
    lobby = [Seat.from_json(s) for s in record.options.get(LOBBY_SEATS, ())]
    return ({record.seats[i].name for i in seats} | {person_name(record, i) for i in seats}
            | {s.name for s in lobby if s.level is None and s.user_id == user_id}) - {""}


def scrubbed(events_json: str, names: set[str]) -> str:
    """The events (Message JSON) with every player's name among `names` become a former player."""
    def scrub(message: Any) -> Any:
        if isinstance(message, list):
            return [scrub(m) for m in message]
        params = {key: ({"key": FORMER_PLAYER, "params": {}} if key == "player" and value in names
                        else scrub(value) if isinstance(value, dict) and "key" in value else value)
                  for key, value in message["params"].items()}
        return {**message, "params": params}
    events = json.loads(events_json)
    new = scrub(events)
    return events_json if new == events else json.dumps(new, separators=(",", ":"), sort_keys=True)
