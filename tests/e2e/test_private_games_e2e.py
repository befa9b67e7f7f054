"""A DM or group DM's games stay private, end to end: `python -m bot` against the fake Discord.
The games are made through the services on the bot's own database (as /game new in a group DM would leave them):
what is checked here is what the commands answer, and where."""
import pytest

from bot.services import Sessions
from bot.store import Seat, Store

pytestmark = pytest.mark.e2e
UNKNOWN = "I find no game here"


async def won(sessions, channel, winner, loser, guild=None):
    """A finished game of `channel` that `winner` won (`loser` resigned)."""
    await sessions.lobby.create(channel_id=channel.id, guild_id=guild, host=Seat(winner.id, winner.name),
                                game="parcheesi", options={"seating": "lobby"})
    await sessions.lobby.join(channel.id, Seat(loser.id, loser.name))
    await sessions.lobby.start(channel.id, winner.id)
    return (await sessions.endings.resign(channel.id, loser.id)).record


async def test_a_group_dms_game_is_told_only_there_and_to_its_players(fake_discord, quick_bot):
    ana, bo, cy = (fake_discord.add_user(name) for name in ("ana", "bo", "cy"))
    fake_discord.install_app(ana)
    group, lounge = fake_discord.add_group_dm(ana, bo), fake_discord.add_channel("lounge")
    store = await Store.open(str(quick_bot.database))
    try:
        sessions = Sessions(store)
        private = await won(sessions, group, ana, bo)
        await won(sessions, lounge, bo, ana, guild=fake_discord.guild_id)
    finally:
        await store.close()

    # Asked from the server: the players of the group DM's game see it, nobody else.
    for command in ("game history", "game verify"):
        nosy = await fake_discord.slash(cy, lounge, command, game_id=private.id)
        assert nosy.ephemeral and UNKNOWN in nosy.content, (command, nosy.content)
        player = await fake_discord.slash(bo, lounge, command, game_id=private.id)
        assert player.ephemeral and UNKNOWN not in player.content and f"{private.id}" in player.content, command

    # In the group DM, the statistics count its game alone; on the server, the server's.
    there = await fake_discord.slash(ana, group, "stats")
    assert there.ephemeral and "in this conversation" in there.content and "Games finished: 1; won: 1" in there.content
    ranked = await fake_discord.slash(ana, group, "leaderboard")
    assert ranked.content.splitlines()[1:] == [f"1. {ana.mention} — won: 1 of 1; longest win streak: 1",
                                               f"2. {bo.mention} — won: 0 of 1; longest win streak: 0"]
    on_server = await fake_discord.slash(ana, lounge, "stats")
    assert "on this server" in on_server.content and "Games finished: 1; won: 0" in on_server.content
    elsewhere = await fake_discord.slash(ana, fake_discord.add_dm(ana, cy), "stats")
    assert "has not finished a game in this conversation yet" in elsewhere.content
    assert fake_discord.unanswered() == [] and "Traceback" not in quick_bot.log_tail(400)
