"""Server defaults end to end: `/game defaults` by a member with Manage Server, applied to a new game and
overridden by its own options; shown to anyone, refused to others."""
import pytest

from tests.fake_discord import MEMBER_PERMISSIONS

pytestmark = pytest.mark.e2e
MANAGE_GUILD = 1 << 5   # Discord's Manage Server permission bit


async def test_defaults_apply_to_new_games_unless_their_own_options_say_otherwise(fake_discord, quick_bot):
    admin = fake_discord.add_user("admin", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    ana = fake_discord.add_user("ana")
    bruno = fake_discord.add_user("bruno", locale="fr")

    refused = await fake_discord.slash(ana, fake_discord.add_channel("lounge"), "game defaults", seating="lobby")
    assert refused.ephemeral and "Manage Server" in refused.content
    set_ = await fake_discord.slash(admin, fake_discord.add_channel("admin"), "game defaults", turn_time="2d",
                                    on_timeout="skip", seating="lobby")
    assert set_.ephemeral and "Turn time: 2d" in set_.content and "lobby order" in set_.content
    shown = await fake_discord.slash(bruno, fake_discord.add_channel("salon"), "game defaults")
    assert shown.ephemeral and "Temps par tour\u00a0: 2d" in shown.content and "l’emportent" in shown.content

    plain = fake_discord.add_channel("plain")
    await fake_discord.slash(ana, plain, "game new", game="parcheesi")
    lobby = fake_discord.last_message(plain, lambda m: m.buttons)
    assert "Turn time: 2d" in lobby.content and "the turn is passed" in lobby.content
    assert "Seats follow the lobby order" in lobby.content

    own = fake_discord.add_channel("own")
    await fake_discord.slash(ana, own, "game new", game="parcheesi", turn_time="3h", seating="random")
    lobby = fake_discord.last_message(own, lambda m: m.buttons)
    assert "Turn time: 3h" in lobby.content and "the turn is passed" in lobby.content   # on_timeout: the server's
    assert "drawn at random" in lobby.content

    await fake_discord.slash(admin, plain, "game defaults", turn_time="off")
    untimed = fake_discord.add_channel("untimed")
    await fake_discord.slash(ana, untimed, "game new", game="pariti")
    lobby = fake_discord.last_message(untimed, lambda m: m.buttons)
    assert "Turn time" not in lobby.content and "Seats follow the lobby order" in lobby.content
    assert "Traceback" not in quick_bot.log_tail(400)
