"""A game in a DM or group DM (no server: guild_id None) is visible only there: its history
and verification asked from elsewhere answer only its players, /game mine lists a person's DM games to them
alone, and the statistics asked in a DM or group DM count that channel's games (in a server, that server's)."""
import pytest

from bot.games.base import GameError
from bot.services import Sessions
from bot.services.records import NO_GAME
from bot.store import Seat, Store

ANN, BOB, CY, DEE = Seat(1, "Ann"), Seat(2, "Bob"), Seat(3, "Cy"), Seat(4, "Dee")
GROUP_DM, OTHER_DM, SERVER_CHANNEL, SERVER = 10, 11, 20, 500


@pytest.fixture
async def sessions(database):   # on SQLite and on PostgreSQL
    store = await Store.open(database)
    yield Sessions(store)
    await store.close()


async def started(sessions, channel, players, guild=None):
    host, *guests = players
    await sessions.lobby.create(channel_id=channel, guild_id=guild, host=host, game="parcheesi",
                                options={"seating": "lobby"})
    for guest in guests:
        await sessions.lobby.join(channel, guest)
    return (await sessions.lobby.start(channel, host.user_id)).record


async def won(sessions, channel, players, guild=None):
    """A finished game the host won (the other resigned)."""
    await started(sessions, channel, players, guild)
    return (await sessions.endings.resign(channel, players[1].user_id)).record


async def refused(call) -> None:
    with pytest.raises(GameError) as refusal:
        await call
    assert refusal.value.message == NO_GAME


async def test_a_dm_game_is_shown_in_its_channel_and_to_its_players_elsewhere_only(sessions):
    game_for = sessions.records.game_for
    record = await started(sessions, GROUP_DM, (ANN, BOB))
    assert (await game_for(None, GROUP_DM, None, CY.user_id)).id == record.id   # anyone in the group DM sees it
    assert (await game_for(None, GROUP_DM, record.id, CY.user_id)).id == record.id
    assert (await game_for(None, OTHER_DM, record.id, BOB.user_id)).id == record.id   # a player, from another DM
    assert (await game_for(SERVER, SERVER_CHANNEL, record.id, ANN.user_id)).id == record.id   # or from a server
    await refused(game_for(None, OTHER_DM, record.id, CY.user_id))   # nobody else, wherever they ask
    await refused(game_for(SERVER, SERVER_CHANNEL, record.id, CY.user_id))


async def test_a_server_game_stays_unknown_in_a_dm(sessions):
    record = await started(sessions, SERVER_CHANNEL, (ANN, BOB), guild=SERVER)
    await refused(sessions.records.game_for(None, GROUP_DM, record.id, ANN.user_id))
    assert (await sessions.records.game_for(SERVER, SERVER_CHANNEL + 1, record.id, CY.user_id)).id == record.id


async def test_my_dm_games_are_listed_to_me_alone_and_never_on_a_server(sessions):
    group = await started(sessions, GROUP_DM, (ANN, BOB, CY))
    pair = await started(sessions, OTHER_DM, (BOB, ANN))
    await started(sessions, OTHER_DM + 1, (BOB, CY))                  # a DM game Ann is not in
    await started(sessions, SERVER_CHANNEL, (ANN, BOB), guild=SERVER)
    waiting, others = await sessions.mine.games(None, ANN.user_id, 0.0)
    assert sorted(g.record.id for g in waiting + others) == sorted([group.id, pair.id])
    assert [g.record.id for g in waiting] == [group.id]   # Ann hosts the group DM's game: her turn first
    server_waiting, server_others = await sessions.mine.games(SERVER, ANN.user_id, 0.0)
    assert all(g.record.guild_id == SERVER for g in server_waiting + server_others)
    assert await sessions.mine.games(None, DEE.user_id, 0.0) == ([], [])


async def test_user_ids_that_only_share_digits_are_not_mixed_up(sessions):
    await started(sessions, GROUP_DM, (Seat(12, "Twelve"), Seat(112, "Hundred and twelve")))
    assert await sessions.mine.games(None, 2, 0.0) == ([], [])
    assert len(sum(await sessions.mine.games(None, 12, 0.0), [])) == 1


async def test_statistics_in_a_dm_count_that_channels_games_and_a_servers_its_own(sessions):
    await won(sessions, GROUP_DM, (ANN, BOB))
    await won(sessions, OTHER_DM, (ANN, BOB))
    await won(sessions, SERVER_CHANNEL, (BOB, ANN), guild=SERVER)
    records = sessions.records
    in_group = await records.player(None, GROUP_DM, ANN.user_id)
    assert (in_group.overall.games, in_group.overall.wins) == (1, 1)
    on_server = await records.player(SERVER, SERVER_CHANNEL, ANN.user_id)
    assert (on_server.overall.games, on_server.overall.wins) == (1, 0)
    assert await records.player(None, GROUP_DM + 100, ANN.user_id) is None   # a DM with no game yet
    ranked = await records.leaderboard(None, OTHER_DM, None)
    assert [(user, s.overall.wins) for user, s in ranked] == [(ANN.user_id, 1), (BOB.user_id, 0)]
    assert [user for user, _ in await records.leaderboard(SERVER, SERVER_CHANNEL, None)] == [BOB.user_id, ANN.user_id]
