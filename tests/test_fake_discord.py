"""Self-test of the fake Discord: the unmodified discord.py client (tests/fake_discord_client.py) against it."""

import asyncio
import contextlib
import sys
from pathlib import Path

import pytest

from tests.fake_discord import FakeDiscordUsageError, component_problems, message_problems, modal_field_problems

pytestmark = pytest.mark.e2e
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
async def client(fake_discord, tmp_path):
    process = fake_discord.client_process([sys.executable, "tests/fake_discord_client.py"], cwd=REPO,
                                          log_path=tmp_path / "client.log")
    await process.start()
    yield process
    await process.terminate()


@pytest.fixture
def alice(fake_discord):
    return fake_discord.add_user("alice", locale="fr")


@pytest.fixture
def table(fake_discord):
    return fake_discord.add_channel("table")


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
    ("long", "content has 2001 characters"),
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
    assert "40 choices (max 25)" in fake_discord.take_violations()[0]


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


async def test_interaction_token_expires_after_15_minutes(fake_discord, client, alice, table):
    pending = asyncio.create_task(fake_discord.slash(alice, table, "demo slow", seconds=1.0, timeout=3))
    await fake_discord.wait_until(lambda: fake_discord.interactions and fake_discord.interactions[-1].responded_at,
                                  what="the deferral")
    fake_discord.advance_clock(15 * 60 + 1)
    with pytest.raises(TimeoutError):
        await pending
    assert "older than 15 minutes" in fake_discord.take_violations()[0]
