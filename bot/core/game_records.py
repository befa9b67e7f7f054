"""The domain records the store keeps and the services pass around: a game's seats, the game itself, a
logged action, a turn's clock. Plain frozen data, apart from the queries that read and write them
(bot/store/), so that the layers that only read games (words, pictures, rules of replay) need not know
the database."""
from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

LOBBY_SEATS = "lobby_seats"    # options: the seats in lobby order, kept when they were drawn at random
INTERACTIONS_ONLY = "interactions_only"   # options: the game lives where the bot may only answer interactions
# The console (`python -m bot play`) keeps each kind of game's save under a pretend channel, in no guild:
# console_channel(game), and before that the numbers 1 to 5 (releases that numbered saves by the menu).
LEGACY_CONSOLE_CHANNELS = range(1, 6)


def console_channel(game: str) -> int:
    """The "channel" a kind of game's saved game is kept under in the console: fixed by the game's id, so that
    adding a game to the menu moves no save (48 bits of its SHA-256: apart from the legacy numbers 1 to 5, and
    below any Discord id)."""
    return int.from_bytes(hashlib.sha256(game.encode()).digest()[:6], "big")


def console_channels(game_ids: Iterable[str]) -> frozenset[int]:
    """Every pretend channel of the console's games: none is a Discord channel, and the bot must keep off them."""
    return frozenset(console_channel(game) for game in game_ids) | frozenset(LEGACY_CONSOLE_CHANNELS)


@dataclass(frozen=True)
class Seat:
    user_id: int                 # Discord user id; computer players use 0
    name: str
    level: str | None = None     # computer player's level, None for a person
    locale: str = "en"

    def to_json(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "level": self.level, "locale": self.locale}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(data["user_id"], data["name"], data.get("level"), data.get("locale", "en"))


@dataclass(frozen=True)
class GameRecord:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str
    host_id: int
    locale: str
    options: dict[str, Any]
    seats: tuple[Seat, ...]
    seed: str
    state: dict[str, Any] | None
    version: int
    board_message_id: int | None = None
    result: dict[str, Any] | None = None
    # When the game was last written: a turn's clock starts there (bot/domain/deadline_math.py).
    updated_at: float = 0.0

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.level is None and seat.user_id == user_id:
                return i
        return None

    @property
    def people(self) -> frozenset[int]:
        """Everyone the game names as a person: seated, in the lobby order kept for the seats' draw, or host
        (the store's game_people; migration 11 reads the same from the JSON)."""
        seats = (*self.seats, *(Seat.from_json(s) for s in self.options.get(LOBBY_SEATS, ())))
        return frozenset({self.host_id, *(s.user_id for s in seats if s.level is None)})


@dataclass(frozen=True)
class LoggedAction:
    seq: int
    seat: int | None
    user_id: int | None
    action: str
    legal: bool


@dataclass(frozen=True)
class TurnClock:
    """An active game with a turn time: when its waiting started, and whether the reminder went out."""

    record: GameRecord
    started_at: float
    reminded_version: int | None
