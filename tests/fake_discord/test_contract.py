"""The fake held to Discord's OpenAPI document (tests/fake_discord/contract.py): bodies it refuses as Discord does,
its answers in the document's shapes, the known divergences, and what it costs."""

import json
import time

import aiohttp
import pytest

from tests.fake_discord import contract
from tests.fake_discord.contract import DIVERGENCES, MULTIPART, request_errors, response_gaps

MESSAGES = "/channels/{channel}/messages"
CALLBACK = "/interactions/{interaction}/{token}/callback"


def board_body(rows: int = 5) -> dict:
    """A message as large as the bot sends: a picture with its description, 25 buttons and a ping."""
    return {"content": "x" * 300, "allowed_mentions": {"parse": [], "users": [123456789012345678]},
            "attachments": [{"id": 0, "filename": "board.png", "description": "d" * 1000}],
            "components": [{"type": 1, "components": [{"type": 2, "style": 1 + j % 4, "label": f"{i}{j}",
                                                        "custom_id": f"g:{i}:{j}"} for j in range(5)]}
                           for i in range(rows)]}


def test_the_vendored_document_is_pinned_with_its_licence():
    assert len(contract.spec_commit()) == 40
    assert "MIT License" in (contract.HERE / "openapi.LICENSE").read_text()
    assert json.loads(contract.SPEC.read_text())["openapi"].startswith("3.1")


def test_a_body_the_document_refuses_gives_discords_errors_at_the_field():
    body = board_body()
    body["components"][1]["components"][2]["custom_id"] = "c" * 101
    body["components"][0]["components"][0]["style"] = 9
    found = request_errors("POST", MESSAGES, MULTIPART, body)
    assert found is not None
    assert found.errors["components"]["1"]["components"]["2"]["custom_id"]["_errors"] == [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 100 or fewer in length."}]
    assert found.errors["components"]["0"]["components"]["0"]["style"]["_errors"][0]["code"] == "BASE_TYPE_CHOICES"
    callback = request_errors("POST", CALLBACK, MULTIPART, {"type": 4, "data": {"content": 7}})
    assert callback is not None and "data.content: BASE_TYPE_BAD" in str(callback)
    missing = request_errors("POST", CALLBACK, MULTIPART, {"type": 9})
    assert missing is not None and "data: BASE_TYPE_REQUIRED" in str(missing)   # a modal needs its data...
    assert request_errors("POST", CALLBACK, MULTIPART, {"type": 6}) is None          # ...a deferred update none


@pytest.mark.parametrize("divergence", DIVERGENCES, ids=lambda d: d.what[:30])
def test_each_divergence_says_what_and_why(divergence):
    assert divergence.what and divergence.why


def test_the_divergences_hold_snowflakes_as_integers_and_a_bots_content_at_2000():
    assert request_errors("POST", MESSAGES, "application/json", board_body()) is None  # integer ids and users
    assert request_errors("POST", MESSAGES, "application/json", {"content": "x" * 2000}) is None
    too_long = request_errors("POST", MESSAGES, "application/json", {"content": "x" * 2001})
    assert too_long is not None and too_long.errors == {"content": {"_errors": [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}]}}


def test_the_fakes_message_answers_carry_what_discord_sends():
    from tests.fake_discord.entities import Message, User

    author = User(1, "bot").payload()
    assert response_gaps("POST", MESSAGES, 200, Message(5, 6, author, content="hi").payload()) == []
    assert response_gaps("POST", MESSAGES, 200, {"id": "5"})   # a bare answer is a gap


def test_validation_is_cheap_enough_for_thousands_of_bodies():
    """The e2e suite sends about 13,000 bodies: each validator is built once per route, and a large body is
    checked in a few milliseconds (the unions dispatched on their tag: about 30 ms each before)."""
    body = board_body()
    request_errors("POST", MESSAGES, MULTIPART, body)
    started = time.process_time()
    for _ in range(20):
        assert request_errors("POST", MESSAGES, MULTIPART, body) is None
    assert (time.process_time() - started) / 20 < 0.015


async def test_an_invalid_body_is_answered_400_50035_and_is_the_bots_fault(fake_discord, table):
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{fake_discord.api_base}/channels/{table.id}/messages", headers=headers,
                                json={"content": "hello", "embeds": [{"title": "t" * 257}]}) as answer:
            assert answer.status == 400
            assert await answer.json() == {"code": 50035, "message": "Invalid Form Body", "errors": {
                "embeds": {"0": {"title": {"_errors": [
                    {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 256 or fewer in length."}]}}}}}
        async with session.post(f"{fake_discord.api_base}/channels/{table.id}/messages", headers=headers,
                                json={"content": "hello"}) as answer:
            assert answer.status == 200
    assert [r.bot_at_fault for r in fake_discord.counted] == [True, False]
    assert "embeds.0.title" in fake_discord.take_violations()[0]
    assert fake_discord.contract.requests == 2 and len(fake_discord.contract.violations) == 1
    assert fake_discord.contract.answers == 1 and fake_discord.contract.gaps == []


def test_the_fakes_member_answer_carries_what_discord_sends():
    from tests.fake_discord.entities import User

    member = User(1, "ana").member_payload(roles=[2])
    assert response_gaps("GET", "/guilds/{guild}/members/{user}", 200, member) == []
