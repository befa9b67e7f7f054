"""A game in a thread of its own (`/game new … thread:true`): one busy channel hosts many games."""
import pytest

from tests.e2e.table import check_alt_text, stored
from tests.fake_discord import BOT_PERMISSIONS, CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS

pytestmark = pytest.mark.e2e


async def test_games_open_in_threads_named_after_game_and_host_and_live_there(fake_discord, bot_process):
    ana, carla = fake_discord.add_user("ana"), fake_discord.add_user("carla")
    bruno = fake_discord.add_user("bruno", locale="fr")
    hall = fake_discord.add_channel("hall")
    reply = await fake_discord.slash(ana, hall, "game new", game="parcheesi", thread=True)
    (first,) = fake_discord.threads(hall)
    assert first.name == "Parcheesi (Mundijeux) · ana"
    assert reply.ephemeral and f"<#{first.id}>" in reply.content
    lobby = fake_discord.last_message(first, lambda m: "Join" in [b.get("label") for b in m.buttons])
    assert not [m for m in fake_discord.messages(hall) if m.buttons], "nothing of the game in the channel"

    # The same channel opens a second game beside it (told in French to a French host).
    opened = await fake_discord.slash(bruno, hall, "game new", game="pariti", thread=True)
    assert "ouverte dans son fil" in opened.content
    second = fake_discord.threads(hall)[1]
    assert second.name == "Pariti · bruno"

    # The game lives in its thread: join, start, roll there.
    await fake_discord.click(carla, lobby, label="Join")
    await fake_discord.click(ana, lobby, label="Start")
    board = fake_discord.last_message(first, lambda m: m.files)
    check_alt_text(board)
    status = await fake_discord.slash(carla, first, "game status")
    assert status.ephemeral and "carla" in status.content
    refused = await fake_discord.slash(carla, first, "game new", game="barricade", thread=True)
    assert refused.ephemeral and "only from a text channel" in refused.content
    games, _ = stored(bot_process.database)
    assert sorted(g[1] for g in games) == ["active", "lobby"] and len(fake_discord.threads(hall)) == 2


async def test_without_the_thread_permissions_nothing_opens_and_the_host_is_told(fake_discord, bot_process):
    ana = fake_discord.add_user("ana")
    for missing in (CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS):
        closed = fake_discord.add_channel("closed", bot_permissions=BOT_PERMISSIONS & ~missing)
        reply = await fake_discord.slash(ana, closed, "game new", game="parcheesi", thread=True)
        assert reply.ephemeral and "Create Public Threads" in reply.content and "Nothing was opened" in reply.content
        assert not fake_discord.threads(closed) and not fake_discord.messages(closed)
    assert stored(bot_process.database) == ([], [])
