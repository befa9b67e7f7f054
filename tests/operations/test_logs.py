"""TABLERO_LOG_FORMAT=json: one JSON object per line, ids where known, no secret and no whole payload."""
import json
import logging

from bot.core import metrics
from bot.operations.logs import IDS, MAX_MESSAGE, CountingHandler, JsonFormatter


def record(message: str, *args: object, exc_info=None, **extra: object) -> logging.LogRecord:
    made = logging.LogRecord("bot.cogs.commands.game", logging.WARNING, __file__, 1, message, args, exc_info)
    made.__dict__.update(extra)
    return made


def test_a_line_is_one_json_object_with_time_level_logger_and_message():
    line = JsonFormatter().format(record("game %s: board %s not shown", 7, 12))
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["level"] == "WARNING" and entry["logger"] == "bot.cogs.commands.game"
    assert entry["message"] == "game 7: board 12 not shown"
    assert entry["time"].endswith("+00:00") and "T" in entry["time"]
    assert "game" not in entry and "guild" not in entry


def test_the_ids_of_the_interaction_being_handled_are_added():
    token = IDS.set({"guild": 1, "channel": 2, "game": 3})
    try:
        entry = json.loads(JsonFormatter().format(record("refused")))
    finally:
        IDS.reset(token)
    assert (entry["guild"], entry["channel"], entry["game"]) == (1, 2, 3)
    assert json.loads(JsonFormatter().format(record("x", game=9)))["game"] == 9   # extra={"game": 9}


def test_the_token_url_tokens_and_whole_payloads_never_reach_the_log():
    formatter = JsonFormatter(secrets=["MTIz.secret.token"])
    said = json.loads(formatter.format(record("login with %s", "MTIz.secret.token")))["message"]
    assert said == "login with [secret]"
    url = "POST https://discord.com/api/v10/interactions/123/aW50ZXJhY3Rpb246.tok-en_1/callback"
    assert json.loads(formatter.format(record(url)))["message"].endswith("/interactions/123/[token]/callback")
    payload = json.loads(formatter.format(record("event %s", {"d": "x" * 10_000})))["message"]
    assert len(payload) < MAX_MESSAGE + 40 and payload.endswith("characters)")


def test_an_exception_stays_on_the_objects_one_line():
    try:
        raise ValueError("boom")
    except ValueError:
        import sys
        line = JsonFormatter().format(record("failed", exc_info=sys.exc_info()))
    assert "\n" not in line and "ValueError: boom" in json.loads(line)["exception"]


def test_every_line_is_counted_by_level():
    before = metrics.LOG_MESSAGES.labels("WARNING")._value.get()
    CountingHandler().handle(record("x"))
    assert metrics.LOG_MESSAGES.labels("WARNING")._value.get() == before + 1
