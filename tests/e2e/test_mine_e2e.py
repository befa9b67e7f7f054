"""/game mine through the fake Discord: the games waiting for the member (a link to each board, since
when, the deadline), then those they sit in; ephemeral, in the member's language, nothing from a channel
they cannot view; the turn's direct message ends with the same list when more than one game waits."""
import re

import pytest

pytestmark = pytest.mark.e2e
NO_BREAK = "\u00a0"


async def open_game(fake, channel, host, guests, game, **options):
    await fake.slash(host, channel, "game new", game=game, seating="lobby", **options)   # the host plays first
    lobby = fake.last_message(channel, lambda m: m.buttons)
    for guest in guests:
        await fake.click(guest, lobby, label="Join")
    await fake.click(host, lobby, label="Start")
    return fake.last_message(channel, lambda m: m.files)


async def test_my_games_list_those_waiting_for_me_then_the_others_and_never_a_hidden_channel(fake_discord,
                                                                                          bot_process):
    ana = fake_discord.add_user("ana", locale="fr")
    bruno, carla = fake_discord.add_user("bruno"), fake_discord.add_user("carla")
    one, two, three = (fake_discord.add_channel(name) for name in ("one", "two", "three"))
    secret = fake_discord.add_channel("secret", private=True, members=[ana, carla])
    assert (await fake_discord.slash(ana, one, "game notify", state="on")).ephemeral

    timed = await open_game(fake_discord, one, ana, [bruno], "parcheesi", turn_time="1h")
    untimed = await open_game(fake_discord, two, ana, [carla], "pariti")
    others = await open_game(fake_discord, three, bruno, [ana], "parcheesi-classic")
    await open_game(fake_discord, secret, carla, [ana], "pariti")
    # ana may no longer view the secret channel (a moderator changed its permissions)
    secret.overwrites = [o for o in secret.overwrites if o["id"] != str(ana.id)]
    fake_discord._dispatch_if_connected("CHANNEL_UPDATE", secret.payload(), guild_id=secret.guild_id)

    # The turn's direct message: one game waiting, no list; two, the list of both.
    await fake_discord.wait_until(lambda: len(fake_discord.dms(ana)) >= 2, what="two turn messages to ana")
    first, second = fake_discord.dms(ana)[:2]
    assert f"/{timed.id}" in first.content and "**À vous de jouer** dans" not in first.content
    assert second.content.startswith("À vous de jouer à Pariti")
    assert f"**À vous de jouer** dans 2{NO_BREAK}parties{NO_BREAK}:" in second.content
    assert second.content.count(f"/{timed.id})") == 1 and second.content.count(f"/{untimed.id})") == 1

    mine = await fake_discord.slash(ana, two, "game mine")
    assert mine.ephemeral
    lines = mine.content.splitlines()
    assert lines[0] == f"**À vous de jouer** dans 2{NO_BREAK}parties{NO_BREAK}:"
    link = f"https://discord.com/channels/{fake_discord.guild_id}/{one.id}/{timed.id}"
    assert lines[1].startswith(f"• [Parchís (Mundijeux)]({link}) dans <#{one.id}>, tour commencé <t:")
    assert "fin du temps imparti <t:" in lines[1] and "fin du temps" not in lines[2]   # only the timed game
    assert f"/{two.id}/{untimed.id})" in lines[2]
    assert lines[3] == f"**Au tour d’un autre** dans 1{NO_BREAK}partie{NO_BREAK}:"
    assert f"/{three.id}/{others.id})" in lines[4] and "au tour de bruno, commencé <t:" in lines[4]
    assert len(lines) == 5 and str(secret.id) not in mine.content, "nothing from a channel ana cannot view"
    assert re.search(r"<t:\d+:R>", lines[1])

    nothing = await fake_discord.slash(fake_discord.add_user("dan"), one, "game mine")
    assert nothing.ephemeral and nothing.content == "You sit in no game in play on this server."
    assert "Traceback" not in bot_process.log_tail(400)
