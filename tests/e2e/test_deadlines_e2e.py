"""Turn deadlines end to end: `python -m bot` against the fake Discord, with real (short) turn times.

The `quick_bot` fixture (tests/e2e/conftest.py) lets a game use a turn time of a few seconds."""

import re

import pytest

pytestmark = pytest.mark.e2e
TURN_S = 4
LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)")


async def test_deadline_expires_and_the_next_player_gets_a_direct_message(fake_discord, quick_bot):
    ana, shy = fake_discord.add_user("ana"), fake_discord.add_user("shy", locale="fr", dms_open=False)
    table = fake_discord.add_channel("slow-game")
    for user in (ana, shy):
        assert (await fake_discord.slash(user, table, "game notify", state="on")).ephemeral

    refused = await fake_discord.slash(ana, table, "game new", game="parcheesi", turn_time="soon")
    assert refused.ephemeral and "not a duration" in refused.content
    await fake_discord.slash(ana, table, "game new", game="parcheesi", turn_time=f"{TURN_S}s")
    lobby = fake_discord.last_message(table, lambda m: "Join" in [b.get("label") for b in m.buttons])
    assert f"Turn time: {TURN_S}s" in lobby.content
    await fake_discord.click(shy, lobby, label="Join")
    await fake_discord.click(ana, lobby, label="Start")
    first = fake_discord.last_message(table, lambda m: m.files)
    assert "<t:" in first.content  # when the turn's time runs out, in each reader's own time zone

    # Nobody plays: a reminder at half time, then an easy computer player takes the turn.
    reminder = await fake_discord.wait_for_message(table, lambda m: "half of your time" in m.content
                                                   or "moitié de votre temps" in m.content, timeout=TURN_S * 2)
    assert re.search(r"<@\d+>", reminder.content)
    expired = await fake_discord.wait_for_message(table, lambda m: m.files and "ran out of time" in m.content,
                                                  after=reminder, timeout=TURN_S * 3)

    # Within two turns, each player's turn came: ana got a link to the board; shy's closed DMs
    # were refused by Discord and handled quietly (no violation, no retry loop, the game goes on).
    dm = await fake_discord.wait_for_dm(ana, timeout=TURN_S * 3)
    guild, channel, message = map(int, LINK.search(dm.content).groups())
    assert (guild, channel) == (fake_discord.guild_id, table.id)
    assert message in [m.id for m in fake_discord.messages(table) if m.files]
    await fake_discord.wait_until(lambda: fake_discord.refusals, timeout=TURN_S * 3, what="shy's refused DM")
    assert all("Cannot send messages" in r for r in fake_discord.refusals)
    await fake_discord.wait_for_message(table, lambda m: m.files and "ran out of time" in m.content,
                                        after=expired, timeout=TURN_S * 3)
    turns_of_shy = [m for m in fake_discord.messages(table) if m.files and shy.mention in m.content]
    assert 1 <= len(fake_discord.refusals) <= len(turns_of_shy), "one DM attempt per turn, never retried"
    assert "no turn notification for user" in quick_bot.log_tail(400)

    await fake_discord.slash(ana, table, "game end")
    assert "Traceback" not in quick_bot.log_tail(400)
