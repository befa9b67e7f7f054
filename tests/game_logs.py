"""Real games for the history, verification, replay and statistics tests:
played through the session service on a real SQLite store, random legal moves."""
from __future__ import annotations

import random

import pytest

from bot.core.game_records import GameRecord, LoggedAction, Seat
from bot.domain.player_actions import ROLL
from bot.domain.positions import ruleset_of
from bot.services import Sessions
from bot.store import Store


async def play(store: Store, game: str = "parcheesi", players: tuple[int, ...] = (1, 2), *, channel: int = 5,
               guild: int = 9, options: dict | None = None, seed: int = 1, max_actions: int | None = None,
               resign: int | None = None) -> tuple[GameRecord, list[LoggedAction]]:
    """A game among `players` (user ids) played to its end (or `max_actions`, then `resign` gives up)."""
    sessions = Sessions(store)
    await sessions.lobby.create(channel_id=channel, guild_id=guild, host=Seat(players[0], f"user{players[0]}"),
                                game=game, options=options or {})
    for user in players[1:]:
        await sessions.lobby.join(channel, Seat(user, f"user{user}"))
    record = (await sessions.lobby.start(channel, players[0])).record
    rng = random.Random(seed)
    while record.status == "active" and (max_actions is None or record.version < max_actions):
        ruleset = ruleset_of(record)
        state = ruleset.from_json(record.state)
        seat = ruleset.to_move(state)
        action = ROLL if ruleset.roll_due(state) else rng.choice(ruleset.legal_actions(state))
        record = (await sessions.play.act(channel, record.seats[seat].user_id, action)).record
    if record.status == "active" and resign is not None:
        record = (await sessions.endings.resign(channel, resign)).record
    return record, await store.games.actions(record.id)


@pytest.fixture
async def store(tmp_path):
    """A store on a real SQLite file (import this fixture into the test module)."""
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    yield store
    await store.close()
