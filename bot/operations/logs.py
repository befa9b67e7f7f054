"""Logs for collectors (TABLERO_LOG_FORMAT=json): one JSON object per line, with the game, guild and channel an
interaction concerns where known; never a secret, never a whole payload. And every line counted by level
(metrics.LOG_MESSAGES), whatever the format."""
from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

from bot.core import metrics

# The ids of what the code running now works on (set per interaction by bot/operations/discord_watch.py; tasks
# started meanwhile inherit them): "game", "guild", "channel".
# The default is read-only: a context that set nothing shares it.
IDS: ContextVar[Mapping[str, int]] = ContextVar("log_ids", default=MappingProxyType({}))
# A message longer than this is a payload (discord.py's DEBUG lines print whole gateway events): cut.
MAX_MESSAGE = 1000
# Interaction and webhook tokens inside URLs (discord.py's DEBUG lines name the routes they call).
_URL_TOKEN = re.compile(r"(/(?:interactions|webhooks)/\d+/)[A-Za-z0-9_.\-]+")
_FIELDS = ("game", "guild", "channel")


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` without the given secrets or URL tokens, cut to MAX_MESSAGE characters."""
    for secret in secrets:
        text = text.replace(secret, "[secret]")
    text = _URL_TOKEN.sub(r"\1[token]", text)
    if len(text) > MAX_MESSAGE:
        text = f"{text[:MAX_MESSAGE]}… ({len(text)} characters)"
    return text


class JsonFormatter(logging.Formatter):
    """{"time", "level", "logger", "message"[, "game", "guild", "channel"][, "exception"]} on one line. The ids
    come from IDS, or from a call's `extra={"game": ...}`."""

    def __init__(self, secrets: Iterable[str] = ()):
        super().__init__()
        self._secrets = tuple(s for s in secrets if s)

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname, "logger": record.name,
            "message": redact(record.getMessage(), self._secrets)}
        ids = IDS.get()
        for field in _FIELDS:
            value = getattr(record, field, None) or ids.get(field)
            if value is not None:
                entry[field] = value
        if record.exc_info:
            entry["exception"] = redact(self.formatException(record.exc_info), self._secrets)
        return json.dumps(entry, ensure_ascii=False)


class CountingHandler(logging.Handler):
    """Counts every line logged by level (metrics.LOG_MESSAGES); writes nothing."""

    def emit(self, record: logging.LogRecord) -> None:
        metrics.LOG_MESSAGES.labels(record.levelname).inc()


def configure(level: str, json_format: bool, secrets: Iterable[str] = ()) -> None:
    """The root logger: plain lines (the default) or JSON ones on stderr, each counted."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter(secrets) if json_format
                         else logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler, CountingHandler()], force=True)
