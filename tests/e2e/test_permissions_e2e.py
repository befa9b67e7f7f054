"""Channels where the bot may not post boards: users are told why, and no game changes."""

import pytest

from tests.e2e.table import Table, roll_id, stored
from tests.fake_discord import ATTACH_FILES, BOT_PERMISSIONS, SEND_MESSAGES

pytestmark = pytest.mark.e2e


@pytest.fixture
def players(fake_discord):
    return [fake_discord.add_user("ana"), fake_discord.add_user("bruno", locale="fr")]


async def test_new_game_where_the_bot_cannot_attach_pictures_is_refused(fake_discord, bot_process, players):
    channel = fake_discord.add_channel("no-files", bot_permissions=BOT_PERMISSIONS & ~ATTACH_FILES)
    reply = await fake_discord.slash(players[0], channel, "game new", game="parcheesi")
    assert reply.ephemeral and "Attach Files" in reply.content and "Nothing was changed" in reply.content
    assert stored(bot_process.database) == ([], [])
    assert not fake_discord.messages(channel)


async def test_revoked_permissions_mid_game_leave_the_game_as_it_was(fake_discord, bot_process, players):
    """The click is refused politely (in the clicker's language); once an admin gives the permission
    back, the same board's buttons work."""
    table = Table(fake_discord, players)
    await table.open()
    board = table.board()
    before = stored(bot_process.database)
    table.channel.bot_permissions = BOT_PERMISSIONS & ~SEND_MESSAGES
    player = table.to_act(board)
    refused = await table.roll(board)
    assert refused.ephemeral and ("Send Messages" in refused.content or "Envoyer des messages" in refused.content)
    slash = await fake_discord.slash(player, table.channel, "game roll")
    assert slash.ephemeral and ("Nothing was changed" in slash.content or "Rien n’a été modifié" in slash.content)
    assert stored(bot_process.database) == before

    table.channel.bot_permissions = BOT_PERMISSIONS
    assert roll_id(board)
    await table.roll(board)
    assert stored(bot_process.database) != before


async def test_an_admin_can_still_end_a_game_where_the_bot_lost_its_permissions(fake_discord, bot_process, players):
    table = Table(fake_discord, players)
    await table.open()
    table.channel.bot_permissions = BOT_PERMISSIONS & ~ATTACH_FILES
    await fake_discord.slash(players[0], table.channel, "game end")
    games, _ = stored(bot_process.database)
    assert games[0][1] == "ended"
