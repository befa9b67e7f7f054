"""Self-test of the fake Discord: the unmodified discord.py client (tests/fake_discord_client.py) against it."""

import asyncio
import contextlib
import sys
from pathlib import Path

import aiohttp
import pytest

from tests.fake_discord import (
    CREATE_PUBLIC_THREADS,
    MANAGE_MESSAGES,
    MEMBER_PERMISSIONS,
    VIEW_CHANNEL,
    FakeDiscordUsageError,
    component_problems,
    message_problems,
    modal_field_problems,
)

pytestmark = pytest.mark.e2e
REPO = Path(__file__).resolve().parents[2]


async def test_login_sync_slash_with_file_and_button_then_click(fake_discord, client, alice, table):
    assert ("demo" in {name for (_, _, name) in fake_discord.commands})
    reply = await fake_discord.slash(alice, table, "demo file", colour="blue", count=3)
    assert reply.ack_seconds < 3
    assert reply.content == f"here, {alice.mention}" and not reply.ephemeral
    assert reply.files[0].filename == "note.txt" and reply.files[0].bytes == b"blue x3 for fr"
    assert [b["label"] for b in reply.message.buttons] == ["Edit me"]
    assert fake_discord.messages(table) == [reply.message]

    clicked = await fake_discord.click(alice, reply.message, label="Edit me")
    assert clicked.response_type == 7 and clicked.message is reply.message
    assert reply.message.content == "edited by alice" and reply.message.components == []
    assert reply.message.files[0].bytes == b"blue x3 for fr"  # attachments kept by the edit


async def test_buttons_survive_a_restart(fake_discord, client, alice, table):
    """A persistent view: the button of a message sent before SIGKILL still works after a restart."""
    reply = await fake_discord.slash(alice, table, "demo file", colour="red")
    await client.kill()
    await client.start()
    await fake_discord.click(alice, reply.message, custom_id="demo:edit")
    assert reply.message.content == "edited by alice"


async def test_deferred_reply_edit_and_followup(fake_discord, client, alice, table):
    reply = await fake_discord.slash(alice, table, "demo slow", seconds=0.5)
    assert reply.response_type == 5 and reply.ack_seconds < 0.5
    assert reply.message.content == "done" and reply.ephemeral
    assert fake_discord.messages(table) == reply.followups
    assert reply.followups[0].content == "and a followup" and reply.followups[0].files[0].bytes == b"x" * 10
    assert fake_discord.messages(table, viewer=alice) == reply.messages


async def test_a_silent_acknowledgement_settles_on_its_own_answer_not_on_another_write(fake_discord, client, alice,
                                                                                        table):
    """The bot may be quiet a while between acknowledging a click and answering it (a starved bot storing the
    move): a write to the channel meanwhile does not settle the click."""
    reply = await fake_discord.slash(alice, table, "demo later")
    clicked = await fake_discord.click(alice, reply.message, label="Slow")
    assert clicked.response_type == 6 and reply.message.content == "answered alice"


async def test_autocomplete_and_select(fake_discord, client, alice, table):
    choices = await fake_discord.autocomplete(alice, table, "demo pick", "fruit", typed="7")
    assert [c["value"] for c in choices] == ["fruit 07", "fruit 17", "fruit 27", "fruit 37"]
    reply = await fake_discord.slash(alice, table, "demo pick", fruit=choices[0]["value"])
    picked = await fake_discord.select(alice, reply.message, "demo:fruit", ["fruit 02"])
    assert picked.content == "picked fruit 02" and picked.ephemeral


async def test_channel_message_with_file(fake_discord, client, alice, table):
    reply = await fake_discord.slash(alice, table, "demo bad", kind="channel")
    assert reply.ephemeral
    posted = await fake_discord.wait_for_message(table, lambda m: m.files)
    assert posted.content == "a channel message" and posted.files[0].bytes == b"png?"


async def test_a_rate_limited_post_is_retried_by_discord_py_and_appears_once(fake_discord, client, alice, table):
    fake_discord.rate_limit("POST", "/channels/{channel}/messages", times=1, retry_after=0.1)
    await fake_discord.slash(alice, table, "demo bad", kind="channel")
    await fake_discord.wait_for_message(table, lambda m: m.files)
    assert [m.content for m in fake_discord.messages(table)] == ["a channel message"]
    assert fake_discord.rate_limited == [("POST", f"/channels/{table.id}/messages")]
    with pytest.raises(FakeDiscordUsageError):
        fake_discord.rate_limit("POST", "/channels/{channel}/nothing")


async def test_late_first_response_is_a_violation(fake_discord, client, alice, table):
    with pytest.raises(TimeoutError):
        await fake_discord.slash(alice, table, "demo slow", seconds=3.3, defer=False, timeout=2)
    await fake_discord.wait_until(lambda: fake_discord.violations, timeout=5, what="the violation")
    assert "after 3." in fake_discord.take_violations()[0]


@pytest.mark.parametrize("kind, expected", [
    ("long", "data.content: BASE_TYPE_MAX_LENGTH: Must be 2000 or fewer in length."),
    ("rows", "6 action rows"),
    ("twice", "already been acknowledged"),
])
async def test_rule_breaking_replies_are_violations(fake_discord, client, alice, table, kind, expected):
    with pytest.raises(TimeoutError) if kind != "twice" else contextlib.nullcontext():
        await fake_discord.slash(alice, table, "demo bad", kind=kind, timeout=2)
    await fake_discord.wait_until(lambda: fake_discord.violations, timeout=5, what="the violation")
    violations = fake_discord.take_violations()
    assert len(violations) == 1 and expected in violations[0]


async def test_too_many_autocomplete_choices_is_a_violation(fake_discord, client, alice, table):
    with pytest.raises(TimeoutError):
        await fake_discord.autocomplete(alice, table, "demo pick", "fruit", typed="all", timeout=2)
    assert "data.choices: BASE_TYPE_MAX_LENGTH: Must be 25 or fewer" in fake_discord.take_violations()[0]


async def test_users_cannot_send_what_the_schema_forbids(fake_discord, client, alice, table):
    with pytest.raises(FakeDiscordUsageError, match="not among the choices"):
        await fake_discord.slash(alice, table, "demo file", colour="green")
    with pytest.raises(FakeDiscordUsageError, match="required"):
        await fake_discord.slash(alice, table, "demo file")
    with pytest.raises(FakeDiscordUsageError, match="only sends type 4"):
        await fake_discord.slash(alice, table, "demo file", colour="red", count="2")
    with pytest.raises(FakeDiscordUsageError, match="no sub-command"):
        await fake_discord.slash(alice, table, "demo nothing")


def test_component_and_message_limits():
    button = lambda i, **extra: {"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"c{i}", **extra}  # noqa: E731
    assert component_problems([{"type": 1, "components": [button(i) for i in range(5)]}]) == []
    assert "6 components" in component_problems([{"type": 1, "components": [button(i) for i in range(6)]}])[0]
    assert "used twice" in component_problems([{"type": 1, "components": [button(1), button(1)]}])[0]
    assert "101 characters" in component_problems([{"type": 1, "components": [button(1, custom_id="x" * 101)]}])[0]
    assert "81 characters" in component_problems([{"type": 1, "components": [button(1, label="x" * 81)]}])[0]
    select = {"type": 3, "custom_id": "s", "options": [{"label": str(i), "value": str(i)} for i in range(26)]}
    assert "26 select options" in component_problems([{"type": 1, "components": [select]}])[0]
    assert "alone in its row" in component_problems(
        [{"type": 1, "components": [{**select, "options": select["options"][:3]}, button(1)]}])[0]
    assert "11 embeds" in message_problems({"embeds": [{}] * 11}, {}, creating=True)[0]
    assert message_problems({}, {}, creating=True) == ["Cannot send an empty message"]


def test_modal_text_input_limits():
    field = lambda **extra: [{"type": 1, "components": [{"type": 4, "custom_id": "f", "label": "Move", **extra}]}]  # noqa: E731
    assert modal_field_problems(field(placeholder="p" * 100)) == []
    assert "46 characters" in modal_field_problems(field(label="x" * 46))[0]
    assert "label is missing" in modal_field_problems(field(label=None))[0]
    assert "101 characters" in modal_field_problems(field(placeholder="p" * 101))[0]


async def test_dropped_gateway_is_resumed(fake_discord, client, alice, table):
    await fake_discord.drop_gateway()
    reply = await fake_discord.slash(alice, table, "demo file", colour="red")
    assert reply.files[0].bytes == b"red x1 for fr"
    assert fake_discord.identifies == 1, "the client resumed instead of identifying again"


async def test_a_session_that_timed_out_is_identified_afresh(fake_discord, client, alice, table):
    await fake_discord.drop_gateway(code=4009)
    reply = await fake_discord.slash(alice, table, "demo file", colour="red")
    assert reply.files[0].bytes == b"red x1 for fr"
    assert fake_discord.identifies == 2 and fake_discord.gateway_drops == [(0, 4009)]


EDIT = "/channels/{channel}/messages/{message}"


async def test_server_errors_discord_py_retries_pass_and_503_reaches_the_client(fake_discord, client, alice, table):
    """discord.py retries 500, 502, 504 and 524 (discord/http.py), not 503: Discord's 503 reaches the bot."""
    posted = await fake_discord.slash(alice, table, "demo file", colour="red")
    fake_discord.fail("PATCH", EDIT, status=502)
    assert (await fake_discord.slash(alice, table, "demo edit", message=str(posted.message.id))).content == "edited"
    fake_discord.fail("PATCH", EDIT, status=503)
    answer = await fake_discord.slash(alice, table, "demo edit", message=str(posted.message.id))
    assert answer.content == "error 503 0"
    assert fake_discord.failed == [("PATCH", f"/channels/{table.id}/messages/{posted.message.id}")] * 2
    with pytest.raises(FakeDiscordUsageError):
        fake_discord.fail("PATCH", EDIT, status=501)


async def test_a_server_error_on_a_request_carried_out_leaves_its_effect(fake_discord, client, alice, table):
    posted = await fake_discord.slash(alice, table, "demo file", colour="red")
    fake_discord.fail("PATCH", EDIT, status=503, carried_out=True)
    answer = await fake_discord.slash(alice, table, "demo edit", message=str(posted.message.id))
    assert answer.content == "error 503 0" and posted.message.content == "edited"


@pytest.mark.parametrize("carried_out", [False, True])
async def test_a_connection_closed_unanswered_reaches_the_client_at_once(fake_discord, client, alice, table,
                                                                        carried_out):
    """discord.py raises aiohttp's ServerDisconnectedError without trying again (its answer comes within the
    interaction's 3 s, which the fake checks); carried out, the edit is made all the same."""
    posted = await fake_discord.slash(alice, table, "demo file", colour="red")
    fake_discord.drop("PATCH", EDIT, carried_out=carried_out)
    answer = await fake_discord.slash(alice, table, "demo edit", message=str(posted.message.id))
    assert answer.content == "lost ServerDisconnectedError"
    assert (posted.message.content == "edited") is carried_out
    path = f"/channels/{table.id}/messages/{posted.message.id}"
    assert fake_discord.dropped == [("PATCH", path)] and fake_discord.failed == []
    assert [(r.path, r.status) for r in fake_discord.counted if r.method == "PATCH"] == [(path, 0)]


async def test_interaction_token_expires_after_15_minutes(fake_discord, client, alice, table):
    pending = asyncio.create_task(fake_discord.slash(alice, table, "demo slow", seconds=1.0, timeout=3))
    await fake_discord.wait_until(lambda: fake_discord.interactions and fake_discord.interactions[-1].responded_at,
                                  what="the deferral")
    fake_discord.advance_clock(15 * 60 + 1)
    with pytest.raises(TimeoutError):
        await pending
    assert "older than 15 minutes" in fake_discord.take_violations()[0]


def _client(fake, tmp_path, name: str, shards: list[int] | None = None):
    env = {"FAKE_SHARD_IDS": ",".join(map(str, shards)), "FAKE_SHARD_COUNT": str(fake.shard_count)} if shards else {}
    return fake.client_process([sys.executable, "tests/fake_discord_client.py"], cwd=REPO, env=env, shards=shards,
                               log_path=tmp_path / f"{name}.log")


@pytest.mark.fake_discord(shard_count=2)
async def test_two_processes_each_get_only_their_shards_guilds(fake_discord, tmp_path, alice):
    north = fake_discord.add_guild("North", shard=(1, 2))
    away = fake_discord.add_channel("away", guild=north)
    home = fake_discord.add_channel("home")
    assert fake_discord.shard_of(fake_discord.default_guild) == 0 and fake_discord.shard_of(north) == 1
    first, second = _client(fake_discord, tmp_path, "zero", [0]), _client(fake_discord, tmp_path, "one", [1])
    await first.start()
    await second.start()
    try:
        assert sorted(fake_discord.identified) == [(0, 2), (1, 2)]
        reply = await fake_discord.slash(alice, away, "demo where")
        assert reply.content == "shard 1 in North" and reply.shard_id == 1
        guilds_on = lambda shard: {d["id"] for t, d in fake_discord.dispatched(shard) if t == "GUILD_CREATE"}  # noqa: E731
        assert guilds_on(0) == {str(fake_discord.guild_id)} and guilds_on(1) == {str(north.id)}
        assert [t for t, _ in fake_discord.dispatched(0) if t == "INTERACTION_CREATE"] == []
        assert (await fake_discord.slash(alice, home, "demo where")).content == "shard 0 in Fake guild"
        await fake_discord.drop_gateway(1)  # resumed per shard
        assert (await fake_discord.slash(alice, away, "demo where")).content == "shard 1 in North"
        await second.kill()
        with pytest.raises(TimeoutError, match="connected on shard 1 of 2.*connected shards: \\[0\\]"):
            await fake_discord.slash(alice, away, "demo where", timeout=0.5)
        await fake_discord.slash(alice, home, "demo where")
        await second.start()   # a killed shard's process started again: a new session on the same shard
        assert sorted(fake_discord.identified) == [(0, 2), (1, 2), (1, 2)]
        assert (await fake_discord.slash(alice, away, "demo where")).content == "shard 1 in North"
    finally:
        await first.terminate()
        await second.terminate()


@pytest.mark.fake_discord(shard_count=2)
async def test_one_process_runs_the_shard_count_gateway_bot_recommends(fake_discord, client, alice, table):
    """discord.py's AutoShardedClient reads `shards` from GET /gateway/bot and identifies each shard."""
    north = fake_discord.add_guild("North", shard=(1, 2))
    assert sorted(fake_discord.identified) == [(0, 2), (1, 2)]
    assert (await fake_discord.slash(alice, fake_discord.add_channel("hall", guild=north), "demo where")).shard_id == 1
    assert (await fake_discord.slash(alice, table, "demo where")).content == "shard 0 in Fake guild"


async def test_a_moderator_deletes_a_message_then_the_bot_edit_is_unknown_message(fake_discord, client, alice, table):
    moderator = fake_discord.add_user("mod", permissions=MEMBER_PERMISSIONS | MANAGE_MESSAGES)
    posted = await fake_discord.slash(alice, table, "demo file", colour="red")
    with pytest.raises(FakeDiscordUsageError, match="Manage Messages"):
        await fake_discord.delete_message(posted.message, by=alice)
    await fake_discord.delete_message(posted.message, by=moderator)
    assert fake_discord.messages(table) == []
    answer = await fake_discord.slash(alice, table, "demo edit", message=str(posted.message.id))
    assert answer.content == "error 404 10008"
    assert "deleted by mod" in fake_discord.refusals[-1] and not fake_discord.violations


async def test_an_enforced_nonce_returns_the_first_message_and_history_pages_like_discord(fake_discord, client,
                                                                                         alice, table):
    answer = await fake_discord.slash(alice, table, "demo nonce")
    assert answer.message.content == "same=True history=['board']"
    assert [m.content for m in fake_discord.messages(table)] == ["board"]
    for _ in range(5):
        await fake_discord.slash(alice, table, "demo bad", kind="channel")
    ids = [m.id for m in fake_discord.messages(table)]  # oldest first: board, then 5 posts
    base = f"{fake_discord.api_base}/channels/{table.id}/messages"
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake_discord.token}"}) as http:
        async def page(**query):
            async with http.get(base, params={k: str(v) for k, v in query.items()}) as response:
                return [int(m["id"]) for m in await response.json()]
        assert await page(limit=2) == ids[:-3:-1]
        assert await page(limit=2, before=ids[3]) == [ids[2], ids[1]]
        assert await page(limit=2, after=ids[0]) == [ids[2], ids[1]]
        assert await page(limit=3, around=ids[3]) == [ids[4], ids[3], ids[2]]


async def test_private_channel_permissions_seen_by_discord_py_and_in_interactions(fake_discord, client, alice, table):
    moderator = fake_discord.add_user("mod", permissions=MEMBER_PERMISSIONS | MANAGE_MESSAGES)
    stranger = fake_discord.add_user("stranger")
    secret = fake_discord.add_channel("secret", private=True, members=[alice])
    assert fake_discord.permissions(stranger, secret) == 0 and fake_discord.permissions(alice, secret) & VIEW_CHANNEL
    seen = await fake_discord.slash(alice, table, "demo perms", who=stranger, where=secret)
    assert seen.content.startswith("view=False manage=False asker_view=True asker_manage=False bot_threads=True")
    seen = await fake_discord.slash(moderator, table, "demo perms", who=alice, where=secret)
    assert seen.content.startswith("view=True manage=False asker_view=True asker_manage=True")
    with pytest.raises(FakeDiscordUsageError, match="cannot see #secret"):
        await fake_discord.slash(stranger, secret, "demo where")


async def test_forged_interactions_and_unanswered_ones_are_reported(fake_discord, client, alice, table):
    posted = await fake_discord.slash(alice, table, "demo file", colour="red")
    forged = await fake_discord.forge_click(alice, posted.message, custom_id="demo:edit")
    assert forged.response_type == 7
    with pytest.raises(TimeoutError, match="'demo:nothing'.*This interaction failed"):
        await fake_discord.forge_select(alice, posted.message, "demo:nothing", ["x" * 100], timeout=3.2)
    assert [ia.payload["data"]["values"] for ia in fake_discord.unanswered()] == [["x" * 100]]


async def test_threads_need_permissions_and_carry_their_messages(fake_discord, client, alice, table):
    answer = await fake_discord.slash(alice, table, "demo thread", name="Parcheesi of alice")
    [thread] = fake_discord.threads(table)
    assert answer.message.content == f"thread {thread.id} {table.id}" and thread.name == "Parcheesi of alice"
    inside = await fake_discord.wait_for_message(thread, lambda m: m.files)
    assert inside.content == "inside" and inside.files[0].description == "a board"
    assert (await fake_discord.slash(alice, thread, "demo where")).content == "shard 0 in Fake guild"
    table.bot_permissions &= ~CREATE_PUBLIC_THREADS
    refused = await fake_discord.slash(alice, table, "demo thread", name="again")
    assert refused.message.content == "forbidden 50013"
    assert "Missing Permissions to start a thread" in fake_discord.take_violations()[0]
    await fake_discord.delete_channel(thread)


async def test_attachment_alt_text_is_recorded_and_limited(fake_discord, client, alice, table):
    await fake_discord.slash(alice, table, "demo alt", length=1024)
    posted = await fake_discord.wait_for_message(table, lambda m: m.files)
    assert posted.files[0].description == "d" * 1024
    await fake_discord.slash(alice, table, "demo alt", length=1025)
    await fake_discord.wait_until(lambda: fake_discord.violations, what="the violation")
    assert "attachments.0.description: BASE_TYPE_MAX_LENGTH: Must be 1024 or fewer" in fake_discord.take_violations()[0]


async def test_pings_are_recorded_as_discord_notifies_them(fake_discord, client, alice, table):
    reply = await fake_discord.slash(alice, table, "demo file", colour="red")
    assert reply.message.pings == [alice.id]  # no allowed_mentions: every mention notifies
    await fake_discord.click(alice, reply.message, label="Edit me")
    assert reply.message.pings == [alice.id]  # an edit notifies nobody
    for quiet, expected in ((True, []), (False, [alice.id])):
        await fake_discord.slash(alice, table, "demo ping", quiet=quiet)
        assert fake_discord.last_message(table).pings == expected
