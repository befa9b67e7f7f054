"""Rematch through the session service: a lobby for the same game and options, the finished game's
seats already taken (computers too), the asker as host, drawn afresh from a new seed."""
from __future__ import annotations

import pytest

from bot.core.game_records import Seat
from bot.domain import seating
from bot.games.base import GameError
from bot.services import Sessions
from tests.services.test_sessions import ANN, BOB, CHANNEL, CY, STRANGER, key_of, sessions, snapshot

__all__ = ["sessions"]   # the fixture, used by name


async def finished(sessions: Sessions, options: dict, computer: bool = False):
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="parcheesi", options=options)
    await sessions.lobby.join(CHANNEL, BOB)
    if computer:
        await sessions.lobby.add_computer(CHANNEL, ANN.user_id, "hard")
    await sessions.lobby.start(CHANNEL, ANN.user_id)
    return (await sessions.endings.end(CHANNEL, ANN.user_id, can_manage=False)).record


@pytest.mark.parametrize("mode", ["lobby", "random"])
async def test_a_rematch_seats_the_same_players_with_the_same_options(sessions, mode):
    old = await finished(sessions, {"seating": mode, "turn_time": 3600, "on_timeout": "skip"}, computer=True)
    bob = Seat(BOB.user_id, "Bob again", locale="fr")
    outcome = await sessions.lobby.rematch(CHANNEL, bob, old.id)
    lobby = outcome.record
    assert lobby.status == "lobby" and lobby.id != old.id and lobby.game == old.game
    assert lobby.host_id == BOB.user_id and lobby.locale == "fr" and lobby.seed != old.seed
    assert lobby.seats == tuple(bob if s.user_id == BOB.user_id else s for s in old.seats)
    assert [s.level for s in lobby.seats].count("hard") == 1
    assert lobby.options == {"seating": mode, "turn_time": 3600, "on_timeout": "skip"}
    assert seating.LOBBY_SEATS not in lobby.options
    assert [e.key for e in outcome.events] == ["rematch.opened"]
    await sessions.lobby.join(CHANNEL, CY)   # anyone else may still join, and a player may leave
    await sessions.lobby.leave(CHANNEL, ANN.user_id)
    started = (await sessions.lobby.start(CHANNEL, BOB.user_id)).record
    assert started.status == "active" and {s.user_id for s in started.seats} == {0, BOB.user_id, CY.user_id}


async def test_a_rematch_is_refused_politely_and_changes_nothing(sessions):
    with pytest.raises(GameError) as none:
        await sessions.lobby.rematch(CHANNEL, ANN)
    assert key_of(none) == "rematch.error.no_game"
    old = await finished(sessions, {"seating": "lobby"})
    stored = snapshot(sessions)
    with pytest.raises(GameError) as stranger:
        await sessions.lobby.rematch(CHANNEL, STRANGER, old.id)
    assert key_of(stranger) == "rematch.error.not_a_player" and snapshot(sessions) == stored
    await sessions.lobby.rematch(CHANNEL, ANN, old.id)
    with pytest.raises(GameError) as busy:   # the Rematch button clicked twice
        await sessions.lobby.rematch(CHANNEL, BOB, old.id)
    assert key_of(busy) == "error.channel_busy"
    await sessions.lobby.start(CHANNEL, ANN.user_id)
    await sessions.endings.end(CHANNEL, ANN.user_id, can_manage=False)
    with pytest.raises(GameError) as newer:   # the first game's Rematch button, after the second game
        await sessions.lobby.rematch(CHANNEL, BOB, old.id)
    assert key_of(newer) == "rematch.error.newer"
    await sessions.lobby.rematch(CHANNEL, BOB)
    await sessions.lobby.leave(CHANNEL, ANN.user_id)
    await sessions.lobby.leave(CHANNEL, BOB.user_id)   # this lobby closes unplayed: no game to play again
    with pytest.raises(GameError) as unplayed:
        await sessions.lobby.rematch(CHANNEL, BOB)
    assert key_of(unplayed) == "rematch.error.no_game"
