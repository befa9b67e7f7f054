"""Turn deadlines end to end: `python -m bot` against the fake Discord, with real (short) turn times.

The `quick_bot` fixture (tests/e2e/conftest.py) lets a game use a turn time of a few seconds."""

import re

import pytest

from tests.e2e.table import Table

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
    # the board that pinged her (retired since, deadlines passing every 2 s: its text, perhaps folded away)
    assert message in [m.id for m in fake_discord.messages(table, deleted=True) if m.author.get("bot")]
    await fake_discord.wait_until(lambda: fake_discord.refusals, timeout=TURN_S * 3, what="shy's refused DM")
    assert all("Cannot send messages" in r for r in fake_discord.refusals)
    await fake_discord.wait_for_message(table, lambda m: m.files and "ran out of time" in m.content,
                                        after=expired, timeout=TURN_S * 3)
    # The boards that pinged shy (retired since, they keep their text alone)
    turns_of_shy = [m for m in fake_discord.messages(table, deleted=True) if m.pictured and shy.id in m.pings]
    assert 1 <= len(fake_discord.refusals) <= len(turns_of_shy), "one DM attempt per turn, never retried"
    assert "no turn notification for user" in quick_bot.log_tail(400)

    await fake_discord.slash(ana, table, "game end")
    assert "Traceback" not in quick_bot.log_tail(400)


async def test_with_skip_an_expired_turn_is_passed_and_the_next_player_is_pinged_with_the_new_board(
        fake_discord, quick_bot):
    ana, bo = fake_discord.add_user("ana"), fake_discord.add_user("bo")
    game = Table(fake_discord, [ana, bo])
    await game.open(turn_time=f"{TURN_S}s", seating="lobby")   # ana plays first
    table = game.channel
    refused = await fake_discord.slash(bo, table, "game settings", on_timeout="skip")
    assert refused.ephemeral and "Only the host" in refused.content
    await fake_discord.slash(ana, table, "game settings", on_timeout="skip")
    first = await fake_discord.wait_for_message(
        table, lambda m: m.files and "the turn is passed and what is left of it is lost" in m.content)
    assert ana.mention in first.content and first.content.startswith(f"🎲 {ana.mention}, your turn (")

    # Ana is away: half-way she is told her turn will be passed, then it is, and bo gets a new board.
    await fake_discord.wait_for_message(table, lambda m: "your turn will be passed" in m.content,
                                        timeout=TURN_S * 2)
    passed = await fake_discord.wait_for_message(
        table, lambda m: m.files and "Time ran out: ana's turn is passed." in m.content, after=first,
        timeout=TURN_S * 3)
    assert passed.id != first.id and "The roll is lost." in passed.content and \
        passed.content.startswith(f"🎲 {bo.mention}, your turn (")   # the turn said once, by the call to act
    assert bo.mention in passed.content and passed.content.startswith(f"🎲 {bo.mention}, your turn (")
    assert ana.mention not in passed.content
    assert not fake_discord.messages(table)[[m.id for m in fake_discord.messages(table)].index(first.id)].buttons

    # The forfeit is in the history like any move, and cannot be typed.
    typed = await fake_discord.slash(bo, table, "game move", move="skip")
    assert typed.ephemeral and "Roll first" in typed.content
    listed = await fake_discord.slash(bo, table, "game history")
    assert "Time ran out: ana's turn is passed." in listed.content
    await fake_discord.slash(ana, table, "game end")
    assert "Traceback" not in quick_bot.log_tail(400)


async def test_three_expired_turns_in_a_row_announce_the_vote_once_in_the_vote_message(fake_discord, quick_bot):
    """The board of the third expiry does not say what the vote message beside it says."""
    ana, bo = fake_discord.add_user("ana"), fake_discord.add_user("bo")
    game = Table(fake_discord, [ana, bo])
    await game.open(turn_time="1s", seating="lobby")
    table = game.channel
    vote = await fake_discord.wait_for_message(
        table, lambda m: "End the game" in [b.get("label") for b in m.buttons], timeout=60)
    said = [m for m in fake_discord.messages(table, deleted=True) if "times in a row" in m.content]
    assert said == [vote], [m.content for m in said]
    await fake_discord.slash(ana, table, "game end")
    assert "Traceback" not in quick_bot.log_tail(400)
