"""What the bot sees of its own Discord traffic, through two narrow seams of discord.py: every HTTP answer
(an aiohttp TraceConfig, Client(http_trace=...)) counted by status, and every interaction timed from the gateway
event that brought it (its parser, wrapped) to Discord accepting its first answer (the callback request's end).
The same wrapper puts the interaction's guild, channel and game in the log context (logs.IDS)."""
from __future__ import annotations

import re
import time
from collections.abc import Callable, Collection
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord

from bot.core import metrics
from bot.operations.logs import IDS

ANSWER_WITHIN_S = 3.0       # Discord's limit for an interaction's first answer
UNANSWERED_AFTER_S = 10.0   # an interaction still unanswered then is counted unanswered (Discord gave up at 3 s)
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
# Gateway interaction types (Discord's numbers) and their names in the metrics.
_TYPES = {2: "command", 3: "control", 4: "autocomplete", 5: "modal"}
_COMMAND_OPTION_TYPES = (1, 2)   # a subcommand, a subcommand group: part of the command's name


def kind_of(data: dict[str, Any], control_codes: Collection[str]) -> str:
    """An interaction's kind, from its gateway payload: "/game new", "autocomplete /game move", "control mv"
    (a control's code, "control ?" for one the bot never sent: the kinds stay a small, fixed set)."""
    inner = data.get("data") or {}
    kind = data.get("type")
    if kind in (2, 4):
        name, options = [str(inner.get("name", "?"))], inner.get("options") or []
        while options and options[0].get("type") in _COMMAND_OPTION_TYPES:
            name.append(str(options[0].get("name")))
            options = options[0].get("options") or []
        return ("autocomplete /" if kind == 4 else "/") + " ".join(name)
    if kind in (3, 5):
        parts = str(inner.get("custom_id", "")).split(":")
        return "control " + (parts[1] if len(parts) > 2 and parts[0] == "tb" and parts[1] in control_codes else "?")
    return _TYPES.get(kind, "other") if isinstance(kind, int) else "other"


def _ids(data: dict[str, Any]) -> dict[str, int]:
    ids = {field: int(data[key]) for field, key in (("guild", "guild_id"), ("channel", "channel_id"))
           if str(data.get(key) or "").isdigit()}
    parts = str((data.get("data") or {}).get("custom_id", "")).split(":")
    if len(parts) > 2 and parts[0] == "tb" and parts[2].isdigit() and len(parts[2]) <= 19:
        ids["game"] = int(parts[2])
    return ids


class DiscordWatch:
    def __init__(self, control_codes: Collection[str], clock: Callable[[], float] = time.monotonic):
        self._codes = frozenset(control_codes)
        self._clock = clock
        # Interactions not answered yet, oldest first: id -> (received, kind, type).
        self._pending: dict[int, tuple[float, str, str]] = {}
        self.trace = aiohttp.TraceConfig()
        self.trace.on_request_end.append(self._request_ended)
        self.trace.on_request_exception.append(self._request_failed)

    def install(self, client: discord.Client) -> None:
        """Time every interaction `client` receives from now on (before discord.py reads it)."""
        # discord.py calls the parser of each gateway event from this table (its ConnectionState.parsers).
        parsers: dict[str, Callable[[Any], None]] = client._connection.parsers
        original = parsers["INTERACTION_CREATE"]

        def parse(data: Any) -> None:
            self.received(data)
            token = IDS.set(_ids(data))   # the tasks discord.py starts for it inherit the ids
            try:
                original(data)
            finally:
                IDS.reset(token)
        parsers["INTERACTION_CREATE"] = parse

    def received(self, data: dict[str, Any]) -> None:
        self.settle()
        if str(data.get("id", "")).isdigit():
            self._pending[int(data["id"])] = (self._clock(), kind_of(data, self._codes),
                                              _TYPES.get(data.get("type"), "other"))   # type: ignore[arg-type]

    def settle(self) -> None:
        """Count as unanswered the interactions waiting for longer than UNANSWERED_AFTER_S."""
        too_old = self._clock() - UNANSWERED_AFTER_S
        while self._pending:
            interaction, (received, kind, _) = next(iter(self._pending.items()))
            if received > too_old:
                return
            del self._pending[interaction]
            metrics.INTERACTIONS.labels(kind, "unanswered").inc()

    def answered(self, interaction: int, status: int) -> None:
        """Discord answered `status` to the first answer of `interaction` (later ones are not timed)."""
        pending = self._pending.pop(interaction, None)
        if pending is None:
            return
        received, kind, type_ = pending
        elapsed = self._clock() - received
        metrics.FIRST_ANSWER.labels(type_).observe(elapsed)
        outcome = "late" if elapsed > ANSWER_WITHIN_S else "refused by Discord" if status >= 400 else "answered"
        metrics.INTERACTIONS.labels(kind, outcome).inc()

    async def _request_ended(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                             params: aiohttp.TraceRequestEndParams) -> None:
        status = params.response.status
        metrics.DISCORD_RESPONSES.labels(str(status)).inc()
        if params.method == "POST" and (callback := _CALLBACK.search(params.url.path)):
            self.answered(int(callback[1]), status)

    async def _request_failed(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                              params: aiohttp.TraceRequestExceptionParams) -> None:
        metrics.DISCORD_RESPONSES.labels("none").inc()
