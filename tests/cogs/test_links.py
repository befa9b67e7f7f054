"""Links to a board: a server's under its id, a DM or group DM's under @me (they have no server)."""
from bot.cogs.messages.links import board_link


def test_a_board_link_names_its_server_or_me_for_a_dm():
    assert board_link(5, 6, 7) == "https://discord.com/channels/5/6/7"
    assert board_link(None, 6, 7) == "https://discord.com/channels/@me/6/7"
    assert board_link(None, 6, None) == "https://discord.com/channels/@me/6"
