"""/game mine's query: a person's games in play on one server, those waiting for them first, with since when
and their deadline (which waits while the player is away)."""
import pytest

from bot.services import Sessions
from bot.store import Seat, Store

ANN, BOB = Seat(1, "Ann"), Seat(2, "Bob")
NOW = 1_700_000_000.0


@pytest.fixture
async def sessions(tmp_path):
    clock = [NOW]
    store = await Store.open(str(tmp_path / "s.sqlite3"), clock=lambda: clock[0])
    service = Sessions(store)
    service.clock = clock
    yield service
    await store.close()


async def start(sessions, channel, host, guest, guild=1, **options):
    await sessions.lobby.create(channel_id=channel, guild_id=guild, host=host, game="pariti",
                                options={"seating": "lobby", **options})
    await sessions.lobby.join(channel, guest)
    return (await sessions.lobby.start(channel, host.user_id)).record


async def test_games_waiting_for_me_come_first_then_the_others_of_this_server_only(sessions):
    timed = await start(sessions, 1, ANN, BOB, turn_time=3600)
    sessions.clock[0] = NOW + 10
    theirs = await start(sessions, 2, BOB, ANN)
    untimed = await start(sessions, 3, ANN, BOB)
    await start(sessions, 4, ANN, BOB, guild=2)   # another server
    mine, others = await sessions.mine.games(1, ANN.user_id, NOW + 20)
    assert [(g.record.id, g.since, g.deadline) for g in mine] == [(timed.id, NOW, NOW + 3600),
                                                                  (untimed.id, NOW + 10, None)]
    assert [g.record.id for g in others] == [theirs.id]
    assert await sessions.mine.games(1, 99, NOW) == ([], [])


async def test_a_deadline_waits_while_its_player_is_away(sessions):
    await start(sessions, 1, ANN, BOB, turn_time=3600)
    until, _ = await sessions.away.go_away(ANN.user_id, 2, NOW)
    mine, _ = await sessions.mine.games(1, ANN.user_id, NOW)
    assert mine[0].since == NOW and mine[0].deadline == until + 3600
