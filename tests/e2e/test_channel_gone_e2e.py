"""A channel deleted, or the bot removed from its server, in the middle of a game: the game ends
without a result and its deadline with it."""
import asyncio
import json

import pytest

from tests.e2e.table import stored

pytestmark = pytest.mark.e2e
TURN_S = 2


@pytest.mark.parametrize("as_thread", [False, True], ids=["channel", "thread"])
async def test_deleting_the_channel_ends_its_game_and_nobody_plays_on(fake_discord, quick_bot, as_thread):
    ana, bruno = fake_discord.add_user("ana"), fake_discord.add_user("bruno")
    table = fake_discord.add_channel("doomed")
    await fake_discord.slash(ana, table, "game new", game="parcheesi", turn_time=f"{TURN_S}s")
    lobby = fake_discord.last_message(table, lambda m: "Join" in [b.get("label") for b in m.buttons])
    await fake_discord.click(bruno, lobby, label="Join")
    await fake_discord.click(ana, lobby, label="Start")

    await fake_discord.delete_channel(table, as_thread=as_thread)
    await fake_discord.wait_until(lambda: stored(quick_bot.database)[0][0][1] == "ended", timeout=5,
                                  what="the game to end")
    games, actions = stored(quick_bot.database)
    assert json.loads(games[0][5]) == {"winners": [], "draw": False, "details": {"channel_deleted": True}}
    requests = len(fake_discord.requests)
    await asyncio.sleep(TURN_S * 2.5)     # past the deadline: no easy computer plays for the absent seat
    assert stored(quick_bot.database) == (games, actions)
    assert not [path for _, path in fake_discord.requests[requests:] if str(table.id) in path]


async def test_removing_the_bot_from_the_server_ends_its_games_and_lobbies(fake_discord, quick_bot):
    ana, bruno = fake_discord.add_user("ana"), fake_discord.add_user("bruno")
    playing, waiting = fake_discord.add_channel("playing"), fake_discord.add_channel("waiting")
    await fake_discord.slash(ana, playing, "game new", game="parcheesi", turn_time=f"{TURN_S}s")
    lobby = fake_discord.last_message(playing, lambda m: "Join" in [b.get("label") for b in m.buttons])
    await fake_discord.click(bruno, lobby, label="Join")
    await fake_discord.click(ana, lobby, label="Start")
    await fake_discord.slash(bruno, waiting, "game new", game="pariti")

    await fake_discord.remove_bot()
    await fake_discord.wait_until(lambda: {g[1] for g in stored(quick_bot.database)[0]} == {"ended"}, timeout=5,
                                  what="both games to end")
    games, actions = stored(quick_bot.database)
    assert [json.loads(g[5])["details"] for g in games] == [{"bot_removed": True}] * 2
    requests = len(fake_discord.requests)
    await asyncio.sleep(TURN_S * 2.5)     # past the deadline: nobody plays on
    assert stored(quick_bot.database) == (games, actions)
    assert len(fake_discord.requests) == requests
