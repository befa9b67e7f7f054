"""Self-test of the fake Discord where the bot is not present: DMs and group DMs between users, servers where
only users installed the app (user install). What Discord documents there: interaction payloads with `context`
and `authorizing_integration_owners`, 403 (50001) on channel endpoints, the follow-up limit (40094), tokens that
expire (50027); and the fake's request counts and optional global limiter."""

import asyncio
import re

import aiohttp
import pytest

from tests.fake_discord import (
    ATTACH_FILES,
    EMBED_LINKS,
    MENTION_EVERYONE,
    OVERWRITE_MEMBER,
    OVERWRITE_ROLE,
    USE_EXTERNAL_APPS,
    USE_EXTERNAL_EMOJIS,
    FakeDiscord,
    FakeDiscordUsageError,
)

pytestmark = pytest.mark.e2e


@pytest.fixture
def friends(fake_discord):
    """bob and carol, who did not install the app."""
    return fake_discord.add_user("bob"), fake_discord.add_user("carol")


def described(text: str) -> dict[str, str]:
    """The fields of the test client's `_described` line."""
    return dict(re.findall(r"(\w+)=(\S*)", text))


async def test_a_group_dm_interaction_carries_what_discord_sends(fake_discord, client, alice, friends):
    bob, carol = friends
    fake_discord.install_app(alice)
    group = fake_discord.add_group_dm(alice, bob, carol, name="friends")
    reply = await fake_discord.slash(alice, group, "anywhere where")
    seen = described(reply.content)
    assert seen["context"] == "False,False,True"               # PRIVATE_CHANNEL (2)
    assert seen["owners"] == f"1:{alice.id}"                    # the user's install only
    assert seen["channel"] == f"GroupChannel:{group.id}" and seen["guild"] == "None"
    assert int(seen["app_permissions"]) == ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE == 180224
    payload = reply.payload
    assert payload["context"] == 2 and "member" not in payload and payload["user"]["id"] == str(alice.id)
    assert payload["channel"]["type"] == 3 and payload["channel"]["owner_id"] == str(alice.id)
    assert "guild_id" not in payload and reply.message.interaction is reply

    # bob did not install the app, and may click: authorized by alice's install, as the message was
    clicked = await fake_discord.click(bob, reply.message, label="Next")
    assert clicked.response_type == 7 and clicked.payload["authorizing_integration_owners"] == {"1": str(alice.id)}
    assert reply.message.content == "next by bob" and [f.bytes for f in reply.message.files] == [b"next"]
    assert reply.message.custom_ids == ["anywhere:next", "anywhere:later"]
    [ping] = clicked.followups
    assert ping.pings == [bob.id] and described(ping.content)["owners"] == f"1:{alice.id}"
    assert fake_discord.notified(bob, group) == [ping]
    assert fake_discord.dispatched(0)[-1][0] == "INTERACTION_CREATE", "no MESSAGE_* event from a group DM"


async def test_a_dm_between_users_and_a_server_without_the_bot(fake_discord, client, alice, friends):
    bob, _ = friends
    fake_discord.install_app(alice)
    dm = fake_discord.add_dm(alice, bob)
    seen = described((await fake_discord.slash(alice, dm, "anywhere where")).content)
    assert seen["channel"] == f"DMChannel:{dm.id}" and seen["owners"] == f"1:{alice.id}"

    elsewhere = fake_discord.add_guild("Elsewhere", bot_installed=False)
    hall = fake_discord.add_channel("hall", guild=elsewhere,
                                    overwrites=[{"id": str(elsewhere.id), "type": OVERWRITE_ROLE, "allow": "0",
                                                 "deny": str(EMBED_LINKS)}])
    reply = await fake_discord.slash(alice, hall, "anywhere where")
    seen = described(reply.content)
    assert seen["context"] == "True,False,False" and seen["owners"] == f"1:{alice.id}"
    assert seen["channel"] == f"TextChannel:{hall.id}" and seen["guild"] == str(elsewhere.id)
    # @everyone's permissions there, limited to those an interaction response uses (Embed Links denied)
    assert int(seen["app_permissions"]) == ATTACH_FILES | USE_EXTERNAL_EMOJIS
    assert not fake_discord.bot_present(hall) and fake_discord.bot_present(fake_discord.add_channel("home"))
    assert not [d for event, d in fake_discord.dispatched(0) if d.get("id") in (str(elsewhere.id), str(hall.id))]

    # in a server with the bot, a user who also installed it: both installs
    both = described((await fake_discord.slash(alice, fake_discord.add_channel("both"), "anywhere where")).content)
    assert both["owners"] == f"0:{fake_discord.guild_id},1:{alice.id}"
    assert described((await fake_discord.slash(bob, fake_discord.add_channel("guild"), "anywhere where"))
                     .content)["owners"] == f"0:{fake_discord.guild_id}"


async def test_a_member_without_use_external_apps_gets_every_answer_ephemeral_where_the_server_lacks_the_app(
        fake_discord, client, alice, friends):
    """topics/permissions, USE_EXTERNAL_APPS: without it, the responses of an app the server did not install
    are ephemeral, whatever the app asked for; the bot learns it from the callback (response_message_ephemeral)
    and from the flags of the messages Discord returns."""
    bob, carol = friends
    fake_discord.install_app(alice)
    fake_discord.install_app(bob)
    elsewhere = fake_discord.add_guild("Elsewhere", bot_installed=False)
    no_apps = [{"id": str(elsewhere.id), "type": OVERWRITE_ROLE, "allow": "0", "deny": str(USE_EXTERNAL_APPS)},
               {"id": str(bob.id), "type": OVERWRITE_MEMBER, "allow": str(USE_EXTERNAL_APPS), "deny": "0"}]
    hall = fake_discord.add_channel("hall", guild=elsewhere, overwrites=no_apps)
    assert fake_discord.permissions(alice, fake_discord.add_channel("open", guild=elsewhere)) & USE_EXTERNAL_APPS

    forced = await fake_discord.slash(alice, hall, "anywhere public")
    assert forced.original.content == "deferred=True edited=True followed=True"
    assert forced.original.ephemeral and all(m.ephemeral for m in forced.followups)
    assert fake_discord.messages(hall, viewer=carol) == []
    assert (await fake_discord.slash(alice, hall, "anywhere where")).message.ephemeral   # a message response too

    allowed = await fake_discord.slash(bob, hall, "anywhere public")   # allowed back for bob
    assert allowed.original.content == "deferred=False edited=False followed=False"
    assert fake_discord.messages(hall, viewer=carol) == [allowed.original, *allowed.followups]
    # where the server installed the app, the permission does not apply
    served = fake_discord.add_channel("served", overwrites=[{**no_apps[0], "id": str(fake_discord.guild_id)}])
    assert (await fake_discord.slash(alice, served, "anywhere public")).original.content == \
        "deferred=False edited=False followed=False"


async def test_a_command_shows_only_where_it_is_declared_and_installed(fake_discord, client, alice, friends):
    bob, carol = friends
    fake_discord.install_app(alice)
    group = fake_discord.add_group_dm(alice, bob, carol)
    with pytest.raises(FakeDiscordUsageError, match="integration_types=\\[0\\]"):
        await fake_discord.slash(alice, group, "demo where")          # declares nothing: the server's install only
    with pytest.raises(FakeDiscordUsageError, match="user=False"):
        await fake_discord.slash(bob, group, "anywhere where")        # bob did not install the app
    with pytest.raises(FakeDiscordUsageError, match="not in the private channel"):
        await fake_discord.slash(alice, fake_discord.add_dm(bob, carol), "anywhere where")
    elsewhere = fake_discord.add_channel("hall", guild=fake_discord.add_guild("Elsewhere", bot_installed=False))
    with pytest.raises(FakeDiscordUsageError, match="without the bot"):
        await fake_discord.slash(alice, elsewhere, "demo where")
    fake_discord.install_app(alice, installed=False)
    with pytest.raises(FakeDiscordUsageError):
        await fake_discord.slash(alice, group, "anywhere where")


async def test_channel_endpoints_answer_missing_access_where_the_bot_is_absent(fake_discord, client, alice, friends):
    fake_discord.install_app(alice)
    places = [fake_discord.add_group_dm(alice, *friends), fake_discord.add_dm(alice, friends[0]),
              fake_discord.add_channel("hall", guild=fake_discord.add_guild("Elsewhere", bot_installed=False))]
    for place in places:
        mark = len(fake_discord.counted)
        assert (await fake_discord.slash(alice, place, "anywhere post")).content == "error 403 50001"
        counts = fake_discord.counts(mark)
        [refused] = counts.refused
        assert (refused.status, refused.code, refused.route) == (403, 50001, "/channels/{channel}/messages")
        assert counts.by_route() == {"POST /channels/{channel}/messages": 1,
                                     "POST /interactions/{interaction}/{token}/callback": 1}
        assert "Missing Access" in fake_discord.take_violations()[0]
    assert fake_discord.messages(places[0]) == []
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        for method, path in [("GET", f"/channels/{places[0].id}"), ("GET", f"/channels/{places[0].id}/messages"),
                             ("POST", f"/channels/{places[1].id}/typing"),
                             ("POST", f"/channels/{places[2].id}/threads"),
                             ("GET", f"/guilds/{places[2].guild_id}/members/{alice.id}")]:
            async with http.request(method, fake_discord.api_base + path, json={"name": "x"}) as response:
                assert (response.status, (await response.json())["code"]) == (403, 50001), path
    assert len(fake_discord.take_violations()) == 5


async def test_a_server_adds_the_bot_then_removes_it(fake_discord, client, alice):
    fake_discord.install_app(alice)
    elsewhere = fake_discord.add_guild("Elsewhere", bot_installed=False)
    hall = fake_discord.add_channel("hall", guild=elsewhere)
    await fake_discord.add_bot(elsewhere)
    assert (await fake_discord.slash(alice, hall, "demo where")).content == "shard 0 in Elsewhere"
    assert (await fake_discord.slash(alice, hall, "anywhere post")).content == "posted"
    await fake_discord.remove_bot(elsewhere)
    assert (await fake_discord.slash(alice, hall, "anywhere post")).content == "error 403 50001"
    # Discord's answer to a post that may have left before the bot saw GUILD_DELETE: no violation (the e2e
    # tests check that none starts after the bot ended the server's games)
    assert "Missing Access" in fake_discord.refusals[-1] and not fake_discord.violations
    with pytest.raises(FakeDiscordUsageError):
        await fake_discord.slash(alice, hall, "demo where")


async def test_five_follow_ups_where_only_a_user_installed_the_app(fake_discord, client, alice, friends):
    fake_discord.install_app(alice)
    group = fake_discord.add_group_dm(alice, *friends)
    answer = await fake_discord.slash(alice, group, "anywhere followups", count=6)
    assert answer.original.content == "ok ok ok ok ok 400 40094"
    assert [m.pings for m in answer.followups] == [[alice.id]] * 5
    assert "maximum number of follow up messages" in fake_discord.take_violations()[0]
    assert [(r.status, r.code) for r in fake_discord.refused] == [(400, 40094)]
    quiet = await fake_discord.slash(alice, group, "anywhere followups", count=1, quiet=True)
    assert quiet.followups[0].pings == []                     # allowed_mentions forbids it
    # where the server installed the app, no such limit
    served = await fake_discord.slash(alice, fake_discord.add_channel("served"), "anywhere followups", count=6)
    assert served.original.content == " ".join(["ok"] * 6)


@pytest.mark.fake_discord(token_lifetime_s=2)
async def test_a_token_expires_after_the_fakes_lifetime(fake_discord, client, alice, friends):
    fake_discord.install_app(alice)
    group = fake_discord.add_group_dm(alice, *friends)
    answer = await fake_discord.slash(alice, group, "anywhere followups", count=1, wait=2.5, timeout=6)
    await fake_discord.wait_until(lambda: len(fake_discord.refused) == 2, what="the refused follow-up and edit")
    assert [(r.status, r.code, r.route) for r in fake_discord.refused] == [
        (401, 50027, "/webhooks/{app}/{token}"), (401, 50027, "/webhooks/{app}/{token}/messages/{message}")]
    assert answer.followups == [] and "older than 2 s" in fake_discord.take_violations()[0]


async def test_deferred_update_then_original_edits_the_clicked_message(fake_discord, client, alice, friends):
    fake_discord.install_app(alice)
    group = fake_discord.add_group_dm(alice, *friends)
    board = (await fake_discord.slash(alice, group, "anywhere where")).message
    later = await fake_discord.click(friends[1], board, label="Later")
    assert later.response_type == 6 and later.original is board
    assert board.content == "later by carol" and board.components == [] and board.files[0].bytes == b"later"
    [secret] = later.followups
    assert secret.ephemeral and fake_discord.messages(group, viewer=friends[1])[-1] is secret
    assert secret not in fake_discord.messages(group, viewer=alice) and secret.pings == []


@pytest.mark.parametrize("ephemeral", [False, True])
async def test_a_follow_up_right_after_a_deferral_becomes_the_deferred_reply(fake_discord, client, alice, friends,
                                                                              ephemeral):
    fake_discord.install_app(alice)
    group = fake_discord.add_group_dm(alice, *friends)
    answer = await fake_discord.slash(alice, group, "anywhere deferred", ephemeral=ephemeral)
    assert answer.response_type == 5 and answer.original.content == f"board for {alice.mention}"
    assert answer.original.files[0].bytes == b"deferred" and answer.original.ephemeral == ephemeral
    assert answer.original.pings == ([] if ephemeral else [alice.id])
    [real] = answer.followups
    assert real.content == "a real follow-up" and real.ephemeral


async def test_requests_are_counted_by_limit_and_route(fake_discord, client, alice, table):
    mark = len(fake_discord.counted)
    await fake_discord.slash(alice, table, "demo bad", kind="channel")
    await fake_discord.wait_for_message(table, lambda m: m.files)
    counts = fake_discord.counts(mark)
    assert (counts.global_requests, counts.interaction_requests, counts.refused) == (1, 1, [])
    assert counts.by_route("global") == {"POST /channels/{channel}/messages": 1}
    assert fake_discord.global_requests >= 3        # the client's log-in and command sync count too


@pytest.mark.fake_discord(global_limit=True)
async def test_the_global_limiter_answers_429_past_50_a_second(fake_discord):
    channel = fake_discord.add_channel("busy")
    limiter = fake_discord.global_limiter
    assert limiter is not None
    # The burst within one second: the limiter's clock held still (a busy machine may take longer than a second
    # to deliver 60 requests; real time would then rightly let more through).
    now = 1000.0
    limiter.clock = lambda: now
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        async def get(path):
            async with http.get(fake_discord.api_base + path) as response:
                return response.status, dict(response.headers), await response.json()
        answers = await asyncio.gather(*(get(f"/channels/{channel.id}") for _ in range(60)))
        # interaction endpoints are exempt: an unknown token answers 404, never 429
        exempt = await asyncio.gather(*(get(f"/webhooks/{fake_discord.application_id}/nothing/messages/@original")
                                        for _ in range(5)))
    limited = [a for a in answers if a[0] == 429]
    assert sum(a[0] == 200 for a in answers) == 50 and len(limited) == 10
    status, response_headers, body = limited[0]
    assert body["global"] is True and 0 < body["retry_after"] <= 1
    assert response_headers["X-RateLimit-Global"] == "true" and response_headers["X-RateLimit-Scope"] == "global"
    assert int(response_headers["Retry-After"]) >= 1 and "Via" in response_headers
    assert [a[0] for a in exempt] == [404] * 5
    assert len(fake_discord.refused) == 15 and fake_discord.counts().interaction_requests == 5
    fake_discord.take_violations()
    now += 1.0   # a second later, the window is free again
    assert limiter.retry_after() == 0.0
    assert FakeDiscord().global_limiter is None      # off by default
