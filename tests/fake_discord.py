"""A fake Discord on 127.0.0.1 for end-to-end tests of the unmodified discord.py client.

It speaks enough of API v10 - REST under ``fake.api_base`` and the gateway websocket that
``GET /gateway/bot`` points to (zlib-stream or uncompressed JSON) - for a bot to log in, sync
its application commands, receive INTERACTION_CREATE and answer it. It keeps Discord's rules:
a reply Discord would reject is answered with Discord's error AND recorded as a violation, and
``fake.assert_clean()`` (called by the ``fake_discord`` fixture) fails the test. Unknown routes
are violations too. A refusal that is not the bot's fault - a direct message to a user whose DMs
are closed (403, code 50007) - is answered the same way but recorded in ``fake.refusals`` instead.

Usage (see tests/conftest.py for the fixtures)::

    fake = FakeDiscord(); await fake.start()          # or the `fake_discord` fixture
    alice = fake.add_user("alice", locale="fr")
    table = fake.add_channel("table")
    bot = fake.client_process([sys.executable, "-m", "bot"], env={...})
    await bot.start()                                  # waits for READY and a command sync
    reply = await fake.slash(alice, table, "game new", game="parcheesi", teams=False)
    reply.content, reply.ephemeral, reply.files[0].bytes, reply.message.buttons
    choices = await fake.autocomplete(alice, table, "game move", "move", typed="Y")
    await fake.click(alice, reply.message, label="Join")   # or custom_id=...
    await fake.select(alice, message, custom_id, ["value"])
    msg = await fake.wait_for_message(table, lambda m: m.files)
    shy = fake.add_user("shy", dms_open=False)         # direct messages to shy answer 403 (50007)
    fake.rate_limit("POST", "/channels/{channel}/messages", times=2)   # the next two posts answer 429
    await fake.delete_channel(table)                   # CHANNEL_DELETE (as_thread=True: THREAD_DELETE)
    dm = await fake.wait_for_dm(alice, lambda m: "turn" in m.content); fake.dms(alice)
    fake.messages(table)                               # what users see, oldest first
    await bot.terminate(); await bot.kill(); await bot.start()

Each driver call returns an ``Interaction`` once it is settled: answered, any deferral
completed, and no more writes for a short quiet period. ``interaction.ack_seconds`` is the
delay of the first response; ``interaction.messages`` the messages it created or edited.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import json
import logging
import os
import re
import secrets
import signal
import time
import zlib
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

log = logging.getLogger(__name__)

DISCORD_EPOCH_MS = 1_420_070_400_000
RESPONSE_DEADLINE_S = 3.0
TOKEN_LIFETIME_S = 15 * 60
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
ATTACHMENT_DESCRIPTION_LIMIT = 1024
NONCE_LENGTH_LIMIT = 25
NONCE_WINDOW_S = 5 * 60  # Discord enforces a nonce "within the past few minutes"

# Permission bits (https://discord.com/developers/docs/topics/permissions)
ADMINISTRATOR = 1 << 3
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
MEMBER_PERMISSIONS = (ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
                      | READ_MESSAGE_HISTORY | USE_EXTERNAL_EMOJIS | USE_APPLICATION_COMMANDS
                      | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)
BOT_PERMISSIONS = MEMBER_PERMISSIONS

# Enumerations used below
INTERACTION_COMMAND, INTERACTION_COMPONENT, INTERACTION_AUTOCOMPLETE, INTERACTION_MODAL = 2, 3, 4, 5
CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE, CALLBACK_DEFERRED_UPDATE = 4, 5, 6
CALLBACK_UPDATE, CALLBACK_AUTOCOMPLETE, CALLBACK_MODAL = 7, 8, 9
ALLOWED_CALLBACKS = {
    INTERACTION_COMMAND: {4, 5, 9},
    INTERACTION_COMPONENT: {4, 5, 6, 7, 9},
    INTERACTION_AUTOCOMPLETE: {8},
    INTERACTION_MODAL: {4, 5, 6, 7},
}
OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP = 1, 2
OPTION_STRING, OPTION_INTEGER, OPTION_BOOLEAN, OPTION_USER, OPTION_CHANNEL = 3, 4, 5, 6, 7
OPTION_NUMBER = 10
BUTTON, STRING_SELECT, TEXT_INPUT = 2, 3, 4
TEXT_CHANNEL, PUBLIC_THREAD, PRIVATE_THREAD = 0, 11, 12
OVERWRITE_ROLE, OVERWRITE_MEMBER = 0, 1
SELECTS = {3, 5, 6, 7, 8}
LINK_STYLE, PREMIUM_STYLE = 5, 6
FLAG_EPHEMERAL, FLAG_LOADING, FLAG_COMPONENTS_V2 = 1 << 6, 1 << 7, 1 << 15
SENDABLE_FLAGS = 1 << 2 | FLAG_EPHEMERAL | 1 << 12
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_RESUME = 0, 1, 2, 3, 6
OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 8, 9, 10, 11
INTENT_GUILD_MESSAGES = 1 << 9
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


class FakeDiscordUsageError(AssertionError):
    """The test asked for something a Discord user could not do (unknown command, no such button...)."""


def _snowflakes():
    counter = itertools.count()
    while True:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        yield (ms << 22) | (next(counter) & 0x3FFFFF)


def _iso_now() -> str:
    return datetime.now(timezone.utc).isoformat()


# --------------------------------------------------------------------------- entities


@dataclasses.dataclass(eq=False)
class Guild:
    id: int
    name: str
    locale: str = "en-US"

    def shard_id(self, shard_count: int) -> int:
        """The gateway shard that receives this guild's events (Discord's formula)."""
        return (self.id >> 22) % shard_count


@dataclasses.dataclass(eq=False)
class User:
    id: int
    name: str
    locale: str = "en-US"
    permissions: int = MEMBER_PERMISSIONS  # server-wide; beyond @everyone's, carried by a role of the user's own
    left_guilds: set[int] = dataclasses.field(default_factory=set)
    dms_open: bool = True  # False: direct messages from the bot are refused (403, code 50007)

    def payload(self) -> dict:
        return {"id": str(self.id), "username": self.name, "global_name": self.name, "discriminator": "0",
                "avatar": None, "bot": False, "public_flags": 0}

    def member_payload(self, *, with_user: bool = True, roles: Sequence[int] = ()) -> dict:
        member = {"roles": [str(r) for r in roles], "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False,
                  "flags": 0, "pending": False, "nick": None, "avatar": None, "premium_since": None,
                  "communication_disabled_until": None}
        if with_user:
            member["user"] = self.payload()
        return member

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclasses.dataclass(eq=False)
class Channel:
    """A text channel, or a thread (`type` 11/12, `parent_id` its channel, permissions those of the parent)."""

    id: int
    name: str
    guild_id: int
    bot_permissions: int = BOT_PERMISSIONS  # a thread's are its parent's (see FakeDiscord.bot_permissions)
    last_write: float = 0.0  # fake clock of the bot's last write in the channel
    type: int = TEXT_CHANNEL
    parent_id: int | None = None
    overwrites: list[dict] = dataclasses.field(default_factory=list)  # Discord's permission_overwrites
    owner_id: int | None = None  # a thread's creator
    created: str = dataclasses.field(default_factory=_iso_now)

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    def payload(self) -> dict:
        data = {"id": str(self.id), "type": self.type, "guild_id": str(self.guild_id), "name": self.name,
                "last_message_id": None, "rate_limit_per_user": 0, "flags": 0,
                "parent_id": None if self.parent_id is None else str(self.parent_id)}
        if self.is_thread:
            data.update(owner_id=str(self.owner_id), message_count=0, member_count=1, total_message_sent=0,
                        thread_metadata={"archived": False, "auto_archive_duration": 1440, "locked": False,
                                         "archive_timestamp": self.created, "create_timestamp": self.created})
        else:
            data.update(position=0, permission_overwrites=self.overwrites, topic=None, nsfw=False)
        return data

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclasses.dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    bytes: bytes
    content_type: str = "application/octet-stream"
    description: str | None = None

    def payload(self) -> dict:
        url = f"https://cdn.discordapp.invalid/attachments/{self.id}/{self.filename}"
        data = {"id": str(self.id), "filename": self.filename, "size": len(self.bytes), "url": url,
                "proxy_url": url, "content_type": self.content_type}
        if self.description:
            data["description"] = self.description
        return data


@dataclasses.dataclass(eq=False)
class Message:
    """A stored message as users see it; `components` and `embeds` are Discord's JSON."""

    id: int
    channel_id: int
    author: dict
    content: str = ""
    embeds: list = dataclasses.field(default_factory=list)
    components: list = dataclasses.field(default_factory=list)
    attachments: list[Attachment] = dataclasses.field(default_factory=list)
    flags: int = 0
    ephemeral_to: int | None = None  # the one user who sees an ephemeral message
    interaction: Interaction | None = None  # set for interaction responses and followups
    type: int = 0
    timestamp: str = dataclasses.field(default_factory=_iso_now)
    edited_timestamp: str | None = None
    edits: int = 0
    deleted: bool = False
    deleted_by: User | None = None  # the moderator who deleted it (FakeDiscord.delete_message)
    nonce: str | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def thinking(self) -> bool:
        """A deferred response still showing "Bot is thinking..."."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def files(self) -> list[Attachment]:
        return self.attachments

    @property
    def items(self) -> list[dict]:
        """Every button and select, row by row."""
        return [item for row in self.components for item in row.get("components", [])]

    @property
    def buttons(self) -> list[dict]:
        return [item for item in self.items if item["type"] == BUTTON]

    @property
    def custom_ids(self) -> list[str]:
        return [item["custom_id"] for item in self.items if "custom_id" in item]

    def component(self, *, custom_id: str | None = None, label: str | None = None) -> dict:
        found = [item for item in self.items
                 if (custom_id is None or item.get("custom_id") == custom_id)
                 and (label is None or item.get("label") == label)]
        if len(found) != 1:
            labels = [(item.get("label"), item.get("custom_id")) for item in self.items]
            raise FakeDiscordUsageError(
                f"message {self.id} has {len(found)} components matching custom_id={custom_id!r} "
                f"label={label!r}; it shows (label, custom_id): {labels}")
        return found[0]

    def payload(self) -> dict:
        data = {"id": str(self.id), "channel_id": str(self.channel_id), "author": self.author,
                "content": self.content, "timestamp": self.timestamp,
                "edited_timestamp": self.edited_timestamp, "tts": False, "mention_everyone": False,
                "mentions": [], "mention_roles": [], "attachments": [a.payload() for a in self.attachments],
                "embeds": self.embeds, "pinned": False, "type": self.type, "flags": self.flags,
                "components": self.components}
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.interaction is not None:
            ia = self.interaction
            data["webhook_id"] = str(ia.application_id)
            data["application_id"] = str(ia.application_id)
            data["interaction_metadata"] = {"id": str(ia.id), "type": ia.type, "user": ia.user.payload(),
                                            "authorizing_integration_owners": {"0": str(ia.guild_id)}}
        return data

    def __repr__(self) -> str:
        return (f"<Message {self.id} content={self.content[:60]!r} files={[a.filename for a in self.attachments]}"
                f" custom_ids={self.custom_ids} ephemeral={self.ephemeral}>")


@dataclasses.dataclass(eq=False)
class Interaction:
    """One user action and everything the bot answered to it."""

    id: int
    token: str
    type: int
    application_id: int
    guild_id: int
    user: User
    channel: Channel
    payload: dict
    created_at: float  # fake clock (FakeDiscord.now)
    shard_id: int = 0  # the gateway shard it was dispatched on
    source_message: Message | None = None  # the message whose component was used
    command: dict | None = None  # the synced command, for slash and autocomplete
    response_type: int | None = None
    responded_at: float | None = None
    original: Message | None = None
    messages: list[Message] = dataclasses.field(default_factory=list)
    choices: list[dict] | None = None
    modal: dict | None = None
    last_write: float = 0.0

    @property
    def ack_seconds(self) -> float | None:
        return None if self.responded_at is None else self.responded_at - self.created_at

    @property
    def message(self) -> Message:
        """The main visible reply: the original response, else the first followup."""
        if self.original is not None and not self.original.thinking:
            return self.original
        followups = [m for m in self.messages if m is not self.original]
        if followups:
            return followups[0]
        raise AssertionError(f"interaction {self.describe()} produced no message "
                             f"(response type {self.response_type})")

    @property
    def followups(self) -> list[Message]:
        return [m for m in self.messages if m is not self.original]

    content = property(lambda self: self.message.content)
    ephemeral = property(lambda self: self.message.ephemeral)
    files = property(lambda self: self.message.files)
    components = property(lambda self: self.message.components)

    def describe(self) -> str:
        data = self.payload.get("data", {})
        what = data.get("custom_id") or "/" + " ".join(_command_path(data))
        return f"#{self.id} {what!r} by {self.user.name}"


def _command_path(data: dict) -> list[str]:
    path = [data.get("name", "?")]
    options = data.get("options") or []
    while options and options[0].get("type") in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP):
        path.append(options[0]["name"])
        options = options[0].get("options") or []
    return path


class DiscordError(Exception):
    """A REST request Discord refuses; becomes the HTTP error response."""

    def __init__(self, status: int, code: int, message: str, *, bot_at_fault: bool = True):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.bot_at_fault = bot_at_fault  # False: Discord refuses, but the bot broke no rule (closed DMs)


# --------------------------------------------------------------------------- validation


def _length_problems(where: str, value: Any, limit: int, minimum: int = 0) -> list[str]:
    if value is None:
        return [f"{where} is missing"] if minimum else []
    if not isinstance(value, str):
        return [f"{where} must be a string, got {value!r}"]
    if not minimum <= len(value) <= limit:
        return [f"{where} has {len(value)} characters (allowed {minimum}..{limit}): {value[:80]!r}"]
    return []


def component_problems(components: list) -> list[str]:
    """Discord's limits on legacy action rows (5 rows; 5 buttons or 1 select per row)."""
    problems = []
    if len(components) > 5:
        problems.append(f"{len(components)} action rows (max 5)")
    seen = set()
    for r, row in enumerate(components):
        if row.get("type") != 1:
            problems.append(f"row {r}: top-level component type {row.get('type')} is not an action row "
                            "(components v2 are not supported by the fake)")
            continue
        items = row.get("components") or []
        selects = [c for c in items if c.get("type") in SELECTS]
        if not items:
            problems.append(f"row {r} is empty")
        if selects and len(items) > 1:
            problems.append(f"row {r}: a select menu must be alone in its row")
        if len(items) > 5:
            problems.append(f"row {r} has {len(items)} components (max 5)")
        for item in items:
            where = f"row {r} {item.get('label') or item.get('custom_id')!r}"
            kind, style = item.get("type"), item.get("style")
            if kind == BUTTON and style == LINK_STYLE:
                if "custom_id" in item or not item.get("url"):
                    problems.append(f"{where}: link buttons need a url and no custom_id")
            elif kind == BUTTON and style == PREMIUM_STYLE:
                continue
            elif kind == BUTTON or kind in SELECTS:
                custom_id = item.get("custom_id")
                problems += _length_problems(f"{where} custom_id", custom_id, 100, 1)
                if custom_id in seen:
                    problems.append(f"{where}: custom_id {custom_id!r} is used twice in the message")
                seen.add(custom_id)
            else:
                problems.append(f"{where}: component type {kind} is not allowed in an action row")
            if kind == BUTTON:
                problems += _length_problems(f"{where} label", item.get("label"), 80)
                if not item.get("label") and not item.get("emoji"):
                    problems.append(f"{where}: a button needs a label or an emoji")
                if style not in range(1, 7):
                    problems.append(f"{where}: unknown button style {style}")
            if kind in SELECTS:
                problems += _select_problems(where, item)
    return problems


def modal_field_problems(rows: list) -> list[str]:
    """Discord's limits on a modal's text inputs (one per action row)."""
    problems = []
    for r, row in enumerate(rows):
        for item in row.get("components") or []:
            where = f"modal row {r} {item.get('custom_id')!r}"
            if item.get("type") != TEXT_INPUT:
                problems.append(f"{where}: component type {item.get('type')} is not a text input")
                continue
            problems += _length_problems(f"{where} custom_id", item.get("custom_id"), 100, 1)
            problems += _length_problems(f"{where} label", item.get("label"), 45, 1)
            problems += _length_problems(f"{where} placeholder", item.get("placeholder"), 100)
    return problems


def _select_problems(where: str, item: dict) -> list[str]:
    problems = _length_problems(f"{where} placeholder", item.get("placeholder"), 150)
    low, high = item.get("min_values", 1), item.get("max_values", 1)
    if not (0 <= low <= 25 and 1 <= high <= 25 and low <= high):
        problems.append(f"{where}: min_values={low} max_values={high} out of range")
    if item["type"] != STRING_SELECT:
        return problems
    options = item.get("options") or []
    if not 1 <= len(options) <= 25:
        problems.append(f"{where}: {len(options)} select options (allowed 1..25)")
    if high > len(options):
        problems.append(f"{where}: max_values={high} exceeds the {len(options)} options")
    values = [o.get("value") for o in options]
    if len(set(values)) != len(values):
        problems.append(f"{where}: duplicate option values {values}")
    for o in options:
        problems += _length_problems(f"{where} option label", o.get("label"), 100, 1)
        problems += _length_problems(f"{where} option value", o.get("value"), 100, 1)
        problems += _length_problems(f"{where} option description", o.get("description"), 100)
    return problems


def embed_problems(embeds: list) -> list[str]:
    problems = [] if len(embeds) <= 10 else [f"{len(embeds)} embeds (max 10)"]
    total = 0
    for i, embed in enumerate(embeds):
        texts = [("title", embed.get("title"), 256), ("description", embed.get("description"), 4096),
                 ("footer", (embed.get("footer") or {}).get("text"), 2048),
                 ("author", (embed.get("author") or {}).get("name"), 256)]
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(f"embed {i}: {len(fields)} fields (max 25)")
        for f in fields:
            texts += [("field name", f.get("name"), 256), ("field value", f.get("value"), 1024)]
        for name, text, limit in texts:
            problems += _length_problems(f"embed {i} {name}", text, limit)
            total += len(text) if isinstance(text, str) else 0
    if total > 6000:
        problems.append(f"embeds hold {total} characters (max 6000)")
    return problems


def message_problems(data: dict, files: dict[int, Attachment], *, creating: bool,
                     existing: list[Attachment] = ()) -> list[str]:
    """What Discord would refuse in a message create/edit body (`files` are the multipart parts)."""
    problems = []
    if data.get("content") is not None:
        problems += _length_problems("content", data["content"], 2000)
    problems += embed_problems(data.get("embeds") or [])
    flags = data.get("flags") or 0
    if flags & FLAG_COMPONENTS_V2:
        problems.append("IS_COMPONENTS_V2 messages are not supported by the fake")
    elif flags & ~SENDABLE_FLAGS:
        problems.append(f"flags {flags} include bits a bot cannot set")
    problems += component_problems(data.get("components") or [])
    listed = data.get("attachments")
    if listed is not None:
        existing_ids = {a.id for a in existing}
        for entry in listed:
            key = int(entry.get("id", -1))
            if key not in files and key not in existing_ids:
                problems.append(f"attachment {entry} matches no uploaded file and no existing attachment")
            problems += _length_problems(f"attachment {key} description", entry.get("description"),
                                         ATTACHMENT_DESCRIPTION_LIMIT)
        unlisted = set(files) - {int(entry.get("id", -1)) for entry in listed}
        if unlisted:
            problems.append(f"uploaded files {sorted(unlisted)} are missing from the attachments array")
    for attachment in files.values():
        if len(attachment.bytes) > ATTACHMENT_SIZE_LIMIT:
            problems.append(f"file {attachment.filename} is {len(attachment.bytes)} bytes (max {ATTACHMENT_SIZE_LIMIT})")
        if not attachment.filename:
            problems.append("a file has no filename")
    if len(files) > 10:
        problems.append(f"{len(files)} files (max 10)")
    if creating and not (data.get("content") or data.get("embeds") or data.get("components") or files
                         or data.get("sticker_ids") or data.get("poll")):
        problems.append("Cannot send an empty message")
    return problems


def command_problems(commands: list) -> list[str]:
    """What Discord would refuse in a bulk overwrite of application commands."""
    problems = []
    names = [(c.get("type", 1), c.get("name")) for c in commands]
    if len(set(names)) != len(names):
        problems.append(f"duplicate command names {names}")
    for command in commands:
        problems += _option_schema_problems("/" + str(command.get("name")), command,
                                            top=True, chat_input=command.get("type", 1) == 1)
    return problems


def _option_schema_problems(where: str, node: dict, *, top: bool = False, chat_input: bool = True) -> list[str]:
    problems = []
    name = node.get("name") or ""
    if not COMMAND_NAME.match(name) or (chat_input and name != name.lower()):
        problems.append(f"{where}: invalid name {name!r}")
    if chat_input:
        problems += _length_problems(f"{where} description", node.get("description"), 100, 1)
    for lang, text in (node.get("name_localizations") or {}).items():
        if not COMMAND_NAME.match(text or "") or text != text.lower():
            problems.append(f"{where}: invalid {lang} name {text!r}")
    for lang, text in (node.get("description_localizations") or {}).items():
        problems += _length_problems(f"{where} {lang} description", text, 100, 1)
    options = node.get("options") or []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options (max 25)")
    seen_optional = False
    for option in options:
        sub_where = f"{where} {option.get('name')}"
        if option.get("required") and seen_optional:
            problems.append(f"{sub_where}: required options must come before optional ones")
        seen_optional |= not option.get("required") and option.get("type") not in (1, 2)
        choices = option.get("choices") or []
        if len(choices) > 25:
            problems.append(f"{sub_where}: {len(choices)} choices (max 25)")
        if choices and option.get("autocomplete"):
            problems.append(f"{sub_where}: autocomplete and choices are exclusive")
        for choice in choices:
            problems += _choice_problems(sub_where, choice, option.get("type"))
        problems += _option_schema_problems(sub_where, option)
    return problems


def _choice_problems(where: str, choice: dict, option_type: int) -> list[str]:
    problems = _length_problems(f"{where} choice name", choice.get("name"), 100, 1)
    value = choice.get("value")
    if option_type == OPTION_STRING:
        problems += _length_problems(f"{where} choice value", value, 100, 1)
    elif option_type == OPTION_INTEGER and (not isinstance(value, int) or isinstance(value, bool)):
        problems.append(f"{where}: choice value {value!r} is not an integer")
    elif option_type == OPTION_NUMBER and (not isinstance(value, (int, float)) or isinstance(value, bool)):
        problems.append(f"{where}: choice value {value!r} is not a number")
    return problems


# --------------------------------------------------------------------------- the fake


class FakeDiscord:
    def __init__(self, *, token: str | None = None, guild_locale: str = "en-US", shard_count: int = 1,
                 max_concurrency: int = 1):
        self._ids = _snowflakes()
        self.token = token or "fake." + secrets.token_urlsafe(24)
        self.application_id = next(self._ids)
        self.bot_user = {"id": str(self.application_id), "username": "Tablero", "global_name": None,
                         "discriminator": "0000", "avatar": None, "bot": True, "verified": True,
                         "mfa_enabled": False, "flags": 0, "public_flags": 0}
        self.shard_count = shard_count  # what GET /gateway/bot recommends
        self.max_concurrency = max_concurrency  # session_start_limit.max_concurrency (reported, not enforced)
        self.guilds: dict[int, Guild] = {}
        self.users: dict[int, User] = {}
        self.channels: dict[int, Channel] = {}
        self._roles: dict[tuple[int, int], int] = {}  # (guild id, user id) -> the user's own role
        self._messages: dict[int, list[Message]] = {}
        self._nonces: dict[tuple[int, str], tuple[Message, float]] = {}  # (channel id, nonce) -> first message
        self.commands: dict[tuple[int | None, int, str], dict] = {}  # (guild_id, type, name) -> command
        self.command_syncs = 0
        self.interactions: list[Interaction] = []
        self._by_token: dict[str, Interaction] = {}
        self.violations: list[str] = []
        self.refusals: list[str] = []  # errors answered where the bot broke no rule (see DiscordError)
        self._dm_channels: dict[int, User] = {}  # DM channel id -> the user at the other end
        self._dms: dict[int, list[Message]] = {}  # user id -> direct messages the bot sent
        self.requests: list[tuple[str, str]] = []
        self._rate_limits: dict[tuple[str, str], list] = {}  # (method, route) -> [times left, retry_after]
        self.rate_limited: list[tuple[str, str]] = []  # requests answered 429, as (method, path)
        self.clock_offset = 0.0
        self.quiet = 0.3  # seconds without a bot write before an interaction counts as settled
        self._sessions: dict[str, _GatewaySession] = {}
        self._live: dict[tuple[int, int], _GatewaySession] = {}  # (shard id, shard count) -> live session
        self.identifies = 0
        self.identified: list[tuple[int, int]] = []  # the `shard` of every IDENTIFY, in order
        self._change = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._routes = self._route_table()
        self.default_guild = self.add_guild("Fake guild", locale=guild_locale, shard=(0, shard_count))

    @property
    def guild_id(self) -> int:
        """The default guild's id (the guild of `add_channel` without `guild=`)."""
        return self.default_guild.id

    @property
    def guild_locale(self) -> str:
        return self.default_guild.locale


    # ----- lifecycle

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        app.router.add_route("*", "/{path:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        log.info("fake Discord listening on %s", self.api_base)
        return self

    async def close(self) -> None:
        for session in list(self._sessions.values()):
            if session.ws is not None:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def now(self) -> float:
        """The fake's clock (monotonic), which `advance_clock` moves forward for token expiry tests."""
        return time.monotonic() + self.clock_offset

    def advance_clock(self, seconds: float) -> None:
        self.clock_offset += seconds

    def violation(self, text: str) -> None:
        log.error("Discord rule violation: %s", text)
        self.violations.append(text)
        self._notify()

    def take_violations(self) -> list[str]:
        """Return and forget the recorded violations (for tests that provoke them on purpose)."""
        taken, self.violations = self.violations, []
        return taken

    def assert_clean(self) -> None:
        assert not self.violations, "Discord would have rejected:\n  " + "\n  ".join(self.violations)

    def _notify(self) -> None:
        self._change.set()
        self._change = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], Any], *, timeout: float = 10.0, what: str = "condition"):
        """Wait until `predicate()` is truthy (re-checked after every change the bot makes); return it."""
        deadline = time.monotonic() + timeout
        while not (result := predicate()):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"fake Discord: timed out after {timeout}s waiting for {what}")
            change = self._change
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(change.wait(), min(remaining, 0.5))
        return result

    # ----- world set-up

    def add_guild(self, name: str, *, locale: str = "en-US", guild_id: int | None = None,
                  shard: tuple[int, int] | None = None) -> Guild:
        """A guild the bot is in (GUILD_CREATE on its shard if connected). `shard=(k, n)` picks an id
        that lands on shard k of n; every user is a member of every guild."""
        if guild_id is not None and shard is not None:
            raise FakeDiscordUsageError("pass guild_id or shard, not both")
        guild = Guild(guild_id if guild_id is not None else self._guild_snowflake(*(shard or (0, 1))), name, locale)
        self.guilds[guild.id] = guild
        for user in self.users.values():
            self._add_role(guild, user)
        self._dispatch_if_connected("GUILD_CREATE", self._guild_payload(guild), guild_id=guild.id)
        return guild

    def _guild_snowflake(self, shard_id: int, shard_count: int) -> int:
        """A fresh snowflake whose timestamp part is moved forward (< shard_count ms) onto the shard."""
        snowflake = next(self._ids)
        ms = snowflake >> 22
        return (ms + (shard_id - ms) % shard_count) << 22 | snowflake & 0x3FFFFF

    def shard_of(self, guild: Guild | int | None, shard_count: int | None = None) -> int:
        """The shard that receives a guild's events (shard 0 for events without a guild, DMs)."""
        if guild is None:
            return 0
        guild_id = guild.id if isinstance(guild, Guild) else guild
        return (guild_id >> 22) % (shard_count or self.shard_count)

    def add_user(self, name: str, *, locale: str = "en-US", permissions: int = MEMBER_PERMISSIONS,
                 dms_open: bool = True) -> User:
        """A member of every guild; `permissions` beyond @everyone's come from a role of their own."""
        user = User(next(self._ids), name, locale, permissions, dms_open=dms_open)
        self.users[user.id] = user
        for guild in self.guilds.values():
            self._add_role(guild, user)
        return user

    def _add_role(self, guild: Guild, user: User) -> None:
        if user.permissions & ~MEMBER_PERMISSIONS:
            self._roles[(guild.id, user.id)] = role = next(self._ids)
            self._dispatch_if_connected("GUILD_ROLE_CREATE", {"guild_id": str(guild.id),
                                                              "role": _role_payload(role, user.name, user.permissions)},
                                        guild_id=guild.id)

    def in_guild(self, user: User, guild: Guild | int | None = None) -> bool:
        guild_id = self.guild_id if guild is None else guild.id if isinstance(guild, Guild) else guild
        return guild_id not in user.left_guilds

    def add_channel(self, name: str, *, bot_permissions: int = BOT_PERMISSIONS, guild: Guild | None = None,
                    private: bool = False, members: Sequence[User] = (),
                    overwrites: Sequence[dict] = ()) -> Channel:
        """A text channel of `guild` (default: the default guild). `private=True`: @everyone is denied
        View Channel, allowed to `members` and the bot. `overwrites`: more of Discord's overwrite objects."""
        guild_id = (guild or self.default_guild).id
        allowed = []
        if private:
            allowed = [{"id": str(guild_id), "type": OVERWRITE_ROLE, "allow": "0", "deny": str(VIEW_CHANNEL)}]
            allowed += [{"id": str(member_id), "type": OVERWRITE_MEMBER, "allow": str(VIEW_CHANNEL), "deny": "0"}
                        for member_id in [self.application_id, *(m.id for m in members)]]
        channel = Channel(next(self._ids), name, guild_id, bot_permissions, overwrites=allowed + list(overwrites))
        self._register_channel(channel)
        self._dispatch_if_connected("CHANNEL_CREATE", channel.payload(), guild_id=guild_id)
        return channel

    def _register_channel(self, channel: Channel) -> None:
        self.channels[channel.id] = channel
        self._messages[channel.id] = []

    def threads(self, channel: Channel) -> list[Channel]:
        """The threads of `channel`, oldest first."""
        return [c for c in self.channels.values() if c.parent_id == channel.id]

    def permissions(self, user: User, channel: Channel) -> int:
        """The user's permissions in the channel, as Discord computes them (a thread: its parent's)."""
        if user.permissions & ADMINISTRATOR:
            return ALL_PERMISSIONS
        source = self.channels.get(channel.parent_id, channel) if channel.is_thread else channel
        roles = {str(channel.guild_id), str(self._roles.get((channel.guild_id, user.id)))}
        allowed = user.permissions
        for kind, ids in ((OVERWRITE_ROLE, {str(channel.guild_id)}), (OVERWRITE_ROLE, roles - {str(channel.guild_id)}),
                          (OVERWRITE_MEMBER, {str(user.id)})):
            deny = allow = 0
            for overwrite in source.overwrites:
                if overwrite["type"] == kind and overwrite["id"] in ids:
                    deny, allow = deny | int(overwrite["deny"]), allow | int(overwrite["allow"])
            allowed = allowed & ~deny | allow
        return allowed if allowed & VIEW_CHANNEL else 0

    def bot_permissions(self, channel: Channel) -> int:
        """The bot's permissions in the channel (`Channel.bot_permissions`; a thread's are its parent's)."""
        parent = self.channels.get(channel.parent_id) if channel.is_thread else None
        return (parent or channel).bot_permissions

    async def delete_channel(self, channel: Channel, *, as_thread: bool = False) -> None:
        """A moderator deletes the channel (CHANNEL_DELETE; THREAD_DELETE for a thread, or with `as_thread`
        for a bot that played in a thread). Later requests to it answer 404 Unknown Channel, a violation:
        the bot knows the channel is gone."""
        del self.channels[channel.id]
        if channel.is_thread or as_thread:
            parent_id = channel.parent_id or next(self._ids)
            await self.dispatch("THREAD_DELETE", {"id": str(channel.id), "guild_id": str(channel.guild_id),
                                                  "parent_id": str(parent_id), "type": channel.type or PUBLIC_THREAD},
                                guild_id=channel.guild_id)
        else:
            await self.dispatch("CHANNEL_DELETE", channel.payload(), guild_id=channel.guild_id)

    async def delete_message(self, message: Message, *, by: User) -> None:
        """A moderator (`by`, with Manage Messages in the channel) deletes a bot's message: MESSAGE_DELETE
        on the guild's shard. The bot's later edits of it answer 404 Unknown Message (10008), recorded in
        `refusals`, not as a violation: the bot could not have known."""
        current = self._visible_message(by, message)
        channel = self.channels[current.channel_id]
        if current.ephemeral_to is not None or not self.permissions(by, channel) & MANAGE_MESSAGES:
            raise FakeDiscordUsageError(f"{by.name} cannot delete message {message.id} (Manage Messages, "
                                        "public messages only)")
        current.deleted_by = by
        self._delete(current)
        self._notify()

    async def remove_bot(self, guild: Guild | None = None) -> None:
        """The bot is kicked from the guild (GUILD_DELETE without `unavailable`)."""
        guild_id = (guild or self.default_guild).id
        await self.dispatch("GUILD_DELETE", {"id": str(guild_id)}, guild_id=guild_id)

    async def remove_member(self, user: User, guild: Guild | None = None) -> None:
        """The user leaves the guild (GUILD_MEMBER_REMOVE)."""
        guild_id = (guild or self.default_guild).id
        user.left_guilds.add(guild_id)
        await self.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": str(guild_id), "user": user.payload()},
                            guild_id=guild_id)

    def _member_payload(self, user: User, guild_id: int, *, with_user: bool = True) -> dict:
        role = self._roles.get((guild_id, user.id))
        return user.member_payload(with_user=with_user, roles=[role] if role else [])


    def messages(self, channel: Channel, *, viewer: User | None = None) -> list[Message]:
        """Messages of the channel, oldest first: public ones plus the ephemeral ones `viewer` sees."""
        return [m for m in self._messages[channel.id]
                if not m.deleted and (m.ephemeral_to is None or (viewer is not None and m.ephemeral_to == viewer.id))]

    def last_message(self, channel: Channel, predicate: Callable[[Message], bool] = lambda m: True) -> Message:
        found = [m for m in self.messages(channel) if predicate(m)]
        if not found:
            raise AssertionError(f"no matching message in #{channel.name}: {self.messages(channel)}")
        return found[-1]

    async def wait_for_message(self, channel: Channel, predicate: Callable[[Message], bool] = lambda m: True,
                               *, after: Message | None = None, timeout: float = 10.0) -> Message:
        """Wait for a public message in `channel` (newer than `after`) matching `predicate`."""
        def found():
            newer = [m for m in self.messages(channel) if after is None or m.id > after.id]
            return next((m for m in reversed(newer) if predicate(m)), None)
        return await self.wait_until(found, timeout=timeout, what=f"a message in #{channel.name}")

    def dms(self, user: User) -> list[Message]:
        """Direct messages the bot sent to `user`, oldest first."""
        return list(self._dms.get(user.id, []))

    async def wait_for_dm(self, user: User, predicate: Callable[[Message], bool] = lambda m: True,
                          *, timeout: float = 10.0) -> Message:
        """Wait for a direct message to `user` matching `predicate`."""
        return await self.wait_until(lambda: next((m for m in reversed(self.dms(user)) if predicate(m)), None),
                                     timeout=timeout, what=f"a direct message to {user.name}")

    async def wait_for_reply(self, interaction: Interaction, predicate: Callable[[Message], bool] = lambda m: True,
                             *, timeout: float = 10.0) -> Message:
        """Wait for a message created or edited by `interaction` matching `predicate`."""
        def found():
            return next((m for m in interaction.messages if not m.thinking and predicate(m)), None)
        return await self.wait_until(found, timeout=timeout, what=f"a reply to {interaction.describe()}")

    # ----- users acting

    async def slash(self, user: User, channel: Channel, command: str, *, timeout: float = 10.0,
                    **options: Any) -> Interaction:
        """The user runs "/command sub ..." with these options; checked against the synced schema."""
        path = command.split()
        schema = self._find_command(path[0], channel.guild_id)
        built, resolved = self._build_options(schema, path, path[1:], options, focused=None)
        return await self._interact(user, channel, INTERACTION_COMMAND,
                                    self._command_data(schema, built, resolved),
                                    command=schema, timeout=timeout)

    async def autocomplete(self, user: User, channel: Channel, command: str, option: str, *, typed: str = "",
                           timeout: float = 10.0, **options: Any) -> list[dict]:
        """The user types `typed` into `option` of "/command sub"; return the offered choices."""
        path = command.split()
        schema = self._find_command(path[0], channel.guild_id)
        built, resolved = self._build_options(schema, path, path[1:], {**options, option: typed}, focused=option)
        interaction = await self._interact(user, channel, INTERACTION_AUTOCOMPLETE,
                                           self._command_data(schema, built, resolved),
                                           command=schema, timeout=timeout)
        return interaction.choices or []

    async def click(self, user: User, message: Message, *, custom_id: str | None = None,
                    label: str | None = None, timeout: float = 10.0) -> Interaction:
        """The user clicks a button of the message as it is now (found by custom_id and/or label)."""
        current = self._visible_message(user, message)
        button = current.component(custom_id=custom_id, label=label)
        if button["type"] != BUTTON or button.get("style") in (LINK_STYLE, PREMIUM_STYLE) or button.get("disabled"):
            raise FakeDiscordUsageError(f"{button} cannot be clicked")
        data = {"custom_id": button["custom_id"], "component_type": BUTTON}
        return await self._interact(user, self.channels[current.channel_id], INTERACTION_COMPONENT, data,
                                    source=current, timeout=timeout)

    async def select(self, user: User, message: Message, custom_id: str, values: Sequence[str],
                     *, timeout: float = 10.0) -> Interaction:
        """The user picks `values` in a string select menu of the message."""
        current = self._visible_message(user, message)
        menu = current.component(custom_id=custom_id)
        if menu["type"] != STRING_SELECT or menu.get("disabled"):
            raise FakeDiscordUsageError(f"{menu} is not an enabled string select")
        offered = {o["value"] for o in menu.get("options", [])}
        if not set(values) <= offered or not menu.get("min_values", 1) <= len(values) <= menu.get("max_values", 1):
            raise FakeDiscordUsageError(f"values {values} cannot be picked in {menu}")
        data = {"custom_id": custom_id, "component_type": STRING_SELECT, "values": list(values)}
        return await self._interact(user, self.channels[current.channel_id], INTERACTION_COMPONENT, data,
                                    source=current, timeout=timeout)

    async def submit_modal(self, user: User, shown_by: Interaction, values: dict[str, str],
                           *, timeout: float = 10.0) -> Interaction:
        """The user fills the modal that `shown_by` answered with: {text input custom_id: value}."""
        modal = shown_by.modal
        if modal is None:
            raise FakeDiscordUsageError(f"{shown_by.describe()} did not open a modal")
        rows = [{"type": 1, "components": [{"type": TEXT_INPUT, "custom_id": key, "value": value}]}
                for key, value in values.items()]
        data = {"custom_id": modal["custom_id"], "components": rows}
        return await self._interact(user, shown_by.channel, INTERACTION_MODAL, data,
                                    source=shown_by.source_message, timeout=timeout)

    async def forge_click(self, user: User, message: Message, *, custom_id: str,
                          timeout: float = 10.0) -> Interaction:
        """A forged (or stale) button interaction on the message with any `custom_id`, as a modified
        client can send: the bot must still answer it within 3 s."""
        data = {"custom_id": custom_id, "component_type": BUTTON}
        return await self._interact(user, self.channels[message.channel_id], INTERACTION_COMPONENT, data,
                                    source=self._visible_message(user, message), timeout=timeout)

    async def forge_select(self, user: User, message: Message, custom_id: str, values: Sequence[str],
                           *, timeout: float = 10.0) -> Interaction:
        """A forged string-select interaction on the message: any `custom_id`, any `values`."""
        data = {"custom_id": custom_id, "component_type": STRING_SELECT, "values": list(values)}
        return await self._interact(user, self.channels[message.channel_id], INTERACTION_COMPONENT, data,
                                    source=self._visible_message(user, message), timeout=timeout)

    def unanswered(self) -> list[Interaction]:
        """Interactions with no response after Discord's 3 s ("This interaction failed" for the user)."""
        return [ia for ia in self.interactions
                if ia.responded_at is None and self.now() - ia.created_at > RESPONSE_DEADLINE_S]

    def _visible_message(self, user: User, message: Message) -> Message:
        current = next((m for m in self._messages[message.channel_id] if m.id == message.id), None)
        if current is None or current.deleted:
            raise FakeDiscordUsageError(f"message {message.id} no longer exists")
        if current.ephemeral_to not in (None, user.id):
            raise FakeDiscordUsageError(f"{user.name} cannot see ephemeral message {message.id}")
        return current

    def _find_command(self, name: str, guild_id: int) -> dict:
        for key in ((guild_id, 1, name), (None, 1, name)):
            if key in self.commands:
                return self.commands[key]
        synced = sorted(n for (_, kind, n) in self.commands if kind == 1)
        raise FakeDiscordUsageError(f"/{name} is not a synced command; synced: {synced}")

    def _command_data(self, schema: dict, options: list, resolved: dict) -> dict:
        data = {"id": schema["id"], "name": schema["name"], "type": 1, "options": options}
        if resolved:
            data["resolved"] = resolved
        if schema.get("guild_id"):
            data["guild_id"] = schema["guild_id"]
        return data

    def _build_options(self, node: dict, path: list[str], rest: list[str], values: dict,
                       focused: str | None) -> tuple[list, dict]:
        """Interaction options for `values` under the sub-command `rest`, validated like Discord's client."""
        schema = node.get("options") or []
        subs = {o["name"]: o for o in schema if o["type"] in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP)}
        if rest:
            if rest[0] not in subs:
                raise FakeDiscordUsageError(f"/{' '.join(path)}: no sub-command {rest[0]!r}; has {sorted(subs)}")
            inner, resolved = self._build_options(subs[rest[0]], path, rest[1:], values, focused)
            return [{"name": rest[0], "type": subs[rest[0]]["type"], "options": inner}], resolved
        if subs:
            raise FakeDiscordUsageError(f"/{' '.join(path)} needs a sub-command among {sorted(subs)}")
        by_name = {o["name"]: o for o in schema}
        unknown = set(values) - set(by_name)
        if unknown:
            raise FakeDiscordUsageError(f"/{' '.join(path)} has no option {sorted(unknown)}; has {sorted(by_name)}")
        options, resolved = [], {}
        for option in schema:
            name = option["name"]
            if name not in values:
                if option.get("required") and focused is None:
                    raise FakeDiscordUsageError(f"/{' '.join(path)}: option {name!r} is required")
                continue
            value = values[name]
            entry = {"name": name, "type": option["type"]}
            if name == focused:
                if not option.get("autocomplete"):
                    raise FakeDiscordUsageError(f"/{' '.join(path)} {name} has no autocomplete")
                entry.update(value=str(value), focused=True)
            else:
                entry["value"] = self._option_value(path, option, value, resolved)
            options.append(entry)
        return options, resolved

    def _option_value(self, path: list[str], option: dict, value: Any, resolved: dict) -> Any:
        where = f"/{' '.join(path)} {option['name']}={value!r}"
        kind = option["type"]
        if kind in (OPTION_USER, OPTION_CHANNEL):
            target = value
            if kind == OPTION_USER and isinstance(target, User):
                resolved.setdefault("users", {})[str(target.id)] = target.payload()
                resolved.setdefault("members", {})[str(target.id)] = {
                    **self._member_payload(target, self.guild_id, with_user=False),
                    "permissions": str(target.permissions)}
                return str(target.id)
            if kind == OPTION_CHANNEL and isinstance(target, Channel):
                resolved.setdefault("channels", {})[str(target.id)] = {
                    **target.payload(), "permissions": str(self.bot_permissions(target))}
                return str(target.id)
            raise FakeDiscordUsageError(f"{where}: pass a User/Channel")
        expected = {OPTION_STRING: str, OPTION_INTEGER: int, OPTION_BOOLEAN: bool, OPTION_NUMBER: (int, float)}
        if kind not in expected:
            raise FakeDiscordUsageError(f"{where}: option type {kind} is not supported by the fake")
        if not isinstance(value, expected[kind]) or (kind != OPTION_BOOLEAN and isinstance(value, bool)):
            raise FakeDiscordUsageError(f"{where}: Discord's client only sends type {kind} here")
        choices = option.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise FakeDiscordUsageError(f"{where}: not among the choices {[c['value'] for c in choices]}")
        if kind == OPTION_STRING and not option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000):
            raise FakeDiscordUsageError(f"{where}: length outside the schema's bounds")
        if kind in (OPTION_INTEGER, OPTION_NUMBER) and not (
                option.get("min_value", -2**53) <= value <= option.get("max_value", 2**53)):
            raise FakeDiscordUsageError(f"{where}: outside the schema's bounds")
        return value

    async def _interact(self, user: User, channel: Channel, kind: int, data: dict, *, command: dict | None = None,
                        source: Message | None = None, timeout: float) -> Interaction:
        guild = self.guilds[channel.guild_id]
        if not self.in_guild(user, guild):
            raise FakeDiscordUsageError(f"{user.name} left the guild and cannot interact")
        permissions = self.permissions(user, channel)
        if not permissions & VIEW_CHANNEL:
            raise FakeDiscordUsageError(f"{user.name} cannot see #{channel.name}")
        interaction = Interaction(
            id=next(self._ids), token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48), type=kind,
            application_id=self.application_id, guild_id=guild.id, user=user, channel=channel,
            payload={}, created_at=self.now(), source_message=source, command=command)
        interaction.payload = {
            "id": str(interaction.id), "application_id": str(self.application_id), "type": kind,
            "token": interaction.token, "version": 1, "data": data,
            "guild_id": str(guild.id), "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "channel_id": str(channel.id),
            "channel": {**channel.payload(), "permissions": str(permissions)},
            "member": {**self._member_payload(user, guild.id), "permissions": str(permissions)},
            "locale": user.locale, "guild_locale": guild.locale,
            "app_permissions": str(self.bot_permissions(channel)), "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)}, "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if source is not None:
            interaction.payload["message"] = source.payload()
        interaction.shard_id = await self.dispatch("INTERACTION_CREATE", interaction.payload, guild_id=guild.id,
                                                   timeout=min(timeout, 10.0))
        self.interactions.append(interaction)
        self._by_token[interaction.token] = interaction
        interaction.created_at = self.now()
        await self.settle(interaction, timeout=timeout)
        return interaction

    async def settle(self, interaction: Interaction, *, timeout: float = 10.0) -> None:
        """Wait until the interaction is answered, a deferral completed, and the bot is quiet (`self.quiet`)."""
        await self.wait_until(lambda: interaction.responded_at is not None, timeout=timeout,
                              what=f"the response to {interaction.describe()} (on shard {interaction.shard_id}; "
                                   f"Discord shows 'This interaction failed' after {RESPONSE_DEADLINE_S:.0f} s)")
        if interaction.response_type == CALLBACK_DEFERRED_MESSAGE:
            await self.wait_until(lambda: not interaction.original.thinking or interaction.followups,
                                  timeout=timeout, what=f"the deferred reply to {interaction.describe()}")
        elif interaction.response_type == CALLBACK_DEFERRED_UPDATE:
            await self.wait_until(lambda: interaction.last_write > interaction.responded_at
                                  or interaction.channel.last_write > interaction.responded_at,
                                  timeout=timeout, what=f"the update after deferring {interaction.describe()}")
        while (idle := self.now() - max(interaction.last_write, interaction.channel.last_write)) < self.quiet:
            await asyncio.sleep(self.quiet - idle)

    def _touch(self, channel_id: int, interaction: Interaction | None = None) -> None:
        moment = self.now()
        self.channels[channel_id].last_write = moment
        if interaction is not None:
            interaction.last_write = moment
        self._notify()

    # ----- gateway

    def _session_for(self, guild_id: int | None) -> _GatewaySession | None:
        """The live session of the shard that receives `guild_id`'s events (shard 0 without a guild)."""
        for (shard_id, shard_count), session in self._live.items():
            if self.shard_of(guild_id, shard_count) == shard_id and session.ready and session.ws is not None:
                return session
        return None

    async def dispatch(self, event: str, data: dict, *, guild_id: int | None = None, timeout: float = 10.0) -> int:
        """Send an event on the shard of `guild_id` (shard 0 without a guild); waits up to `timeout` for a
        bot to be connected on it. Returns the shard id."""
        shard = self.shard_of(guild_id)
        session = await self.wait_until(
            lambda: self._session_for(guild_id), timeout=timeout,
            what=f"a bot connected on shard {shard} of {self.shard_count} (for {event} in guild {guild_id}); "
                 f"connected shards: {self.connected_shards}")
        session.dispatch(event, data)
        return session.shard_id

    def _dispatch_if_connected(self, event: str, data: dict, *, guild_id: int | None) -> None:
        if (session := self._session_for(guild_id)) is not None:
            session.dispatch(event, data)

    @property
    def connected_shards(self) -> list[int]:
        return sorted(shard for (shard, _), session in self._live.items() if session.ready and session.ws is not None)

    def shard_connected(self, shard_id: int) -> bool:
        return shard_id in self.connected_shards

    @property
    def connected(self) -> bool:
        """Every shard of `shard_count` has a bot connected."""
        return set(self.connected_shards) >= set(range(self.shard_count))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        query = request.query
        connection = _GatewayConnection(ws, compress=query.get("compress"))
        writer = asyncio.create_task(connection.write_forever())
        if query.get("v") != "10" or query.get("encoding", "json") != "json" \
                or query.get("compress") not in (None, "zlib-stream"):
            self.violation(f"gateway query {dict(query)} (the fake speaks v=10, json, zlib-stream or none)")
            await ws.close(code=4012, message=b"Invalid API version")
            writer.cancel()
            return ws
        connection.send({"op": OP_HELLO, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        session: _GatewaySession | None = None
        try:
            async for frame in ws:
                if frame.type != WSMsgType.TEXT:
                    continue
                message = json.loads(frame.data)
                op, data = message.get("op"), message.get("d")
                if op == OP_HEARTBEAT:
                    connection.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
                elif op == OP_IDENTIFY:
                    session = await self._identify(connection, data)
                elif op == OP_RESUME:
                    session = await self._resume(connection, data)
                elif op == OP_REQUEST_MEMBERS and session is not None:
                    guild_id = int(data.get("guild_id") or self.guild_id)
                    members = [self._member_payload(u, guild_id) for u in self.users.values()
                               if self.in_guild(u, guild_id)]
                    session.dispatch("GUILD_MEMBERS_CHUNK", {
                        "guild_id": str(guild_id), "members": members, "chunk_index": 0, "chunk_count": 1,
                        "nonce": data.get("nonce")})
                elif op != OP_PRESENCE:
                    self.violation(f"gateway op {op} not understood: {message}")
        finally:
            writer.cancel()
            if session is not None and session.connection is connection:
                session.connection = None
            self._notify()
        return ws

    async def _identify(self, connection: _GatewayConnection, data: dict) -> _GatewaySession | None:
        if data.get("token") != self.token:
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard_id, shard_count = data.get("shard") or (0, 1)
        if not 0 <= shard_id < shard_count:
            self.violation(f"IDENTIFY with shard {[shard_id, shard_count]}")
            await connection.ws.close(code=4010, message=b"Invalid shard.")
            return None
        previous = self._live.get((shard_id, shard_count))
        if previous is not None and previous.connection is not None:
            log.info("a new IDENTIFY replaces the previous gateway session of shard %d", shard_id)
        session = _GatewaySession(secrets.token_hex(16), connection, data.get("intents", 0), shard_id, shard_count)
        self._sessions[session.id] = session
        self._live[(shard_id, shard_count)] = session
        self.identifies += 1
        self.identified.append((shard_id, shard_count))
        guilds = [g for g in self.guilds.values() if g.shard_id(shard_count) == shard_id]
        session.dispatch("READY", {
            "v": 10, "user": self.bot_user, "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id, "resume_gateway_url": self.gateway_url, "shard": [shard_id, shard_count],
            "application": {"id": str(self.application_id), "flags": 0}})
        for guild in guilds:
            session.dispatch("GUILD_CREATE", self._guild_payload(guild))
        session.ready = True
        self._notify()
        return session

    async def _resume(self, connection: _GatewayConnection, data: dict) -> _GatewaySession | None:
        session = self._sessions.get(data.get("session_id"))
        if session is None or data.get("token") != self.token:
            connection.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
            return None
        session.connection = connection
        for event in session.sent:
            if event["s"] > (data.get("seq") or 0):
                connection.send(event)
        session.dispatch("RESUMED", {})
        self._live[(session.shard_id, session.shard_count)] = session
        self._notify()
        return session

    async def drop_gateway(self, shard_id: int | None = None) -> None:
        """Close the bot's websocket (of one shard, default all) as Discord sometimes does (the client resumes)."""
        for (shard, _), session in list(self._live.items()):
            if session.connection is not None and shard_id in (None, shard):
                await session.connection.ws.close(code=4000, message=b"Unknown error")

    def _guild_payload(self, guild: Guild) -> dict:
        everyone = _role_payload(guild.id, "@everyone", MEMBER_PERMISSIONS)
        roles = [_role_payload(role, self.users[user_id].name, self.users[user_id].permissions)
                 for (guild_id, user_id), role in self._roles.items() if guild_id == guild.id]
        bot_member = {"user": self.bot_user, "roles": [], "joined_at": "2024-01-01T00:00:00+00:00",
                      "deaf": False, "mute": False, "flags": 0}
        channels = [c for c in self.channels.values() if c.guild_id == guild.id]
        return {
            "id": str(guild.id), "name": guild.name, "icon": None, "owner_id": str(self.application_id + 1),
            "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "roles": [everyone, *roles],
            "emojis": [], "stickers": [], "features": [], "mfa_level": 0, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None, "description": None,
            "banner": None, "premium_tier": 0, "preferred_locale": guild.locale,
            "public_updates_channel_id": None, "nsfw_level": 0, "premium_progress_bar_enabled": False,
            "joined_at": "2024-01-01T00:00:00+00:00", "large": False, "unavailable": False,
            "member_count": 1 + len(self.users), "voice_states": [], "members": [bot_member],
            "channels": [c.payload() for c in channels if not c.is_thread],
            "threads": [c.payload() for c in channels if c.is_thread], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
        }


    # ----- REST

    def rate_limit(self, method: str, route: str, *, times: int = 1, retry_after: float = 0.2) -> None:
        """Answer the next `times` requests to `route` (a template of the route table, e.g.
        "/channels/{channel}/messages") with Discord's 429, as a bucket exhausted by other traffic
        would: the request is not carried out, and a client must wait `retry_after` and retry."""
        if not any(m == method and template == route for m, template, _, _ in self._routes):
            raise FakeDiscordUsageError(f"no route {method} {route}")
        self._rate_limits[(method, route)] = [times, retry_after]

    def _route_table(self) -> list[tuple[str, str, re.Pattern, Callable]]:
        table = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/gateway", self._get_gateway),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("GET", "/applications/{app}/commands", self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("POST", "/interactions/{interaction}/{token}/callback", self._callback),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", self._get_webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._edit_webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self._delete_webhook_message),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("GET", "/channels/{channel}", self._get_channel),
            ("GET", "/channels/{channel}/messages", self._list_messages),
            ("POST", "/channels/{channel}/messages", self._post_message),
            ("GET", "/channels/{channel}/messages/{message}", self._get_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._edit_message),
            ("DELETE", "/channels/{channel}/messages/{message}", self._delete_message),
            ("POST", "/channels/{channel}/typing", self._typing),
            ("POST", "/channels/{channel}/threads", self._start_thread),
            ("POST", "/channels/{channel}/messages/{message}/threads", self._start_thread),
            ("GET", "/guilds/{guild}/members/{user}", self._get_member),
            ("GET", "/users/{user}", self._get_user),
            ("POST", "/users/@me/channels", self._open_dm),
        ]
        return [(method, path, re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", path) + "$"), handler)
                for method, path, handler in table]

    async def _unknown(self, request: web.Request) -> web.Response:
        self.violation(f"unknown route {request.method} {request.path}")
        return _error(404, 0, "404: Not Found")

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        self.requests.append((request.method, path))
        for method, template, pattern, handler in self._routes:
            match = pattern.match(path)
            if match and method == request.method:
                break
        else:
            self.violation(f"unknown route {request.method} {path}")
            return _error(404, 0, "404: Not Found")
        limit = self._rate_limits.get((method, template))
        if limit and limit[0] > 0:
            limit[0] -= 1
            self.rate_limited.append((method, path))
            return _too_many_requests(limit[1])
        webhook = path.startswith(("/interactions/", "/webhooks/"))
        if not webhook and request.headers.get("Authorization") != f"Bot {self.token}":
            return _error(401, 0, "401: Unauthorized")
        try:
            result = await handler(request, **match.groupdict())
        except DiscordError as error:
            if error.bot_at_fault:
                self.violation(f"{request.method} {path}: {error.message}")
            else:
                log.info("refused (not a rule violation): %s %s: %s", request.method, path, error.message)
                self.refusals.append(f"{request.method} {path}: {error.message}")
                self._notify()
            return _error(error.status, error.code, error.message)
        if result is None:
            return web.Response(status=204)
        return _json(result)

    async def _read_body(self, request: web.Request) -> tuple[dict, dict[int, Attachment]]:
        """JSON body, or multipart payload_json + files[n] parts."""
        if not request.content_type.startswith("multipart/"):
            return (await request.json() if request.can_read_body else {}), {}
        body, files = {}, {}
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if part.name == "payload_json":
                body = json.loads(await part.text())
            elif part.name and (found := re.fullmatch(r"files\[(\d+)\]", part.name)):
                files[int(found[1])] = Attachment(next(self._ids), part.filename or "",
                                                  bytes(await part.read()),
                                                  part.headers.get("Content-Type", "application/octet-stream"))
            else:
                raise DiscordError(400, 50035, f"unexpected multipart field {part.name!r}")
        return body, files

    async def _get_me(self, request):
        return self.bot_user

    async def _get_application(self, request):
        owner = {"id": str(self.application_id + 1), "username": "owner", "discriminator": "0", "avatar": None,
                 "global_name": "owner", "public_flags": 0}
        return {"id": str(self.application_id), "name": "Tablero", "icon": None, "description": "",
                "bot_public": True, "bot_require_code_grant": False, "owner": owner, "verify_key": "0" * 64,
                "flags": 0, "team": None, "summary": "", "rpc_origins": [], "bot": self.bot_user}

    async def _get_gateway(self, request):
        return {"url": self.gateway_url, "shards": self.shard_count,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                        "max_concurrency": self.max_concurrency}}

    def _check_app(self, app: str) -> None:
        if int(app) != self.application_id:
            raise DiscordError(404, 10002, "Unknown Application")

    async def _put_commands(self, request, app, guild=None):
        self._check_app(app)
        guild_id = int(guild) if guild else None
        if guild_id is not None and guild_id not in self.guilds:
            raise DiscordError(404, 10004, "Unknown Guild")
        commands = await request.json()
        problems = command_problems(commands)
        if problems:
            raise DiscordError(400, 50035, "Invalid Form Body (command sync): " + "; ".join(problems))
        old = {key: c for key, c in self.commands.items() if key[0] == guild_id}
        for key in old:
            del self.commands[key]
        stored = []
        for command in commands:
            key = (guild_id, command.get("type", 1), command["name"])
            previous = old.get(key)
            entry = {**command, "id": previous["id"] if previous else str(next(self._ids)),
                     "application_id": str(self.application_id), "version": str(next(self._ids)),
                     "type": command.get("type", 1)}
            if guild_id:
                entry["guild_id"] = str(guild_id)
            self.commands[key] = entry
            stored.append(entry)
        self.command_syncs += 1
        self._notify()
        return stored

    async def _get_commands(self, request, app, guild=None):
        self._check_app(app)
        guild_id = int(guild) if guild else None
        return [c for key, c in self.commands.items() if key[0] == guild_id]

    # interaction responses

    def _interaction(self, token: str, *, interaction_id: str | None = None, app: str | None = None) -> Interaction:
        interaction = self._by_token.get(token)
        if interaction is None or (interaction_id is not None and str(interaction.id) != interaction_id):
            raise DiscordError(404, 10062, "Unknown interaction")
        if app is not None:
            self._check_app(app)
        if self.now() - interaction.created_at > TOKEN_LIFETIME_S:
            raise DiscordError(401, 50027, f"Invalid Webhook Token: {interaction.describe()} is older than 15 minutes")
        return interaction

    async def _callback(self, request, interaction, token):
        ia = self._interaction(token, interaction_id=interaction)
        body, files = await self._read_body(request)
        late = self.now() - ia.created_at
        if ia.responded_at is not None:
            raise DiscordError(400, 40060, f"Interaction has already been acknowledged ({ia.describe()})")
        if late > RESPONSE_DEADLINE_S:
            raise DiscordError(404, 10062, f"Unknown interaction: first response to {ia.describe()} "
                                           f"after {late:.2f}s (deadline {RESPONSE_DEADLINE_S}s)")
        kind, data = body.get("type"), body.get("data") or {}
        if kind not in ALLOWED_CALLBACKS[ia.type]:
            raise DiscordError(400, 50035, f"callback type {kind} is not valid for interaction type {ia.type}")
        message = None
        if kind == CALLBACK_MESSAGE:
            self._check_message(data, files, creating=True)
            message = self._store_message(ia.channel, data, files, interaction=ia,
                                          ephemeral_to=ia.user.id if data.get("flags", 0) & FLAG_EPHEMERAL else None)
        elif kind == CALLBACK_DEFERRED_MESSAGE:
            ephemeral = data.get("flags", 0) & FLAG_EPHEMERAL
            message = self._store_message(ia.channel, {"flags": FLAG_LOADING | ephemeral}, {}, interaction=ia,
                                          ephemeral_to=ia.user.id if ephemeral else None)
        elif kind in (CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE):
            if ia.source_message is None:
                raise DiscordError(400, 50035, "update callbacks need a component interaction")
            message = self._current(ia.source_message)
            if kind == CALLBACK_UPDATE:
                self._check_message(data, files, creating=False, existing=message.attachments)
                self._apply_edit(message, data, files)
        elif kind == CALLBACK_AUTOCOMPLETE:
            ia.choices = data.get("choices")
            problems = self._choices_problems(ia, ia.choices)
            if problems:
                raise DiscordError(400, 50035, "Invalid autocomplete choices: " + "; ".join(problems))
        elif kind == CALLBACK_MODAL:
            problems = _length_problems("modal custom_id", data.get("custom_id"), 100, 1)
            problems += _length_problems("modal title", data.get("title"), 45, 1)
            if not 1 <= len(data.get("components") or []) <= 5:
                problems.append("a modal needs 1..5 components")
            problems += modal_field_problems(data.get("components") or [])
            if problems:
                raise DiscordError(400, 50035, "Invalid modal: " + "; ".join(problems))
            ia.modal = data
        if message is not None:
            ia.original = message
            if message not in ia.messages:
                ia.messages.append(message)
        self._touch(ia.channel.id, ia)
        ia.response_type, ia.responded_at = kind, self.now()  # after _touch: later writes are the follow-up
        self._notify()
        if kind == CALLBACK_AUTOCOMPLETE:
            return None
        answer = {"interaction": {"id": str(ia.id), "type": ia.type,
                                  "response_message_loading": kind == CALLBACK_DEFERRED_MESSAGE,
                                  "response_message_ephemeral": bool(message and message.ephemeral)}}
        if message is not None:
            answer["interaction"]["response_message_id"] = str(message.id)
            answer["resource"] = {"type": kind, "message": message.payload()}
        return answer

    def _choices_problems(self, ia: Interaction, choices: Any) -> list[str]:
        if not isinstance(choices, list):
            return [f"choices must be a list, got {choices!r}"]
        problems = [] if len(choices) <= 25 else [f"{len(choices)} choices (max 25)"]
        option = _focused_option_schema(ia.command, ia.payload["data"])
        for choice in choices:
            problems += _choice_problems(f"{ia.describe()} {option['name']}", choice, option["type"])
        return problems

    def _current(self, message: Message) -> Message:
        return next(m for m in self._messages[message.channel_id] if m.id == message.id)

    async def _followup(self, request, app, token):
        ia = self._interaction(token, app=app)
        body, files = await self._read_body(request)
        if ia.responded_at is None:
            raise DiscordError(404, 10015, f"Unknown Webhook: followup before the first response to {ia.describe()}")
        self._check_message(body, files, creating=True)
        ephemeral = body.get("flags", 0) & FLAG_EPHEMERAL
        message = self._store_message(ia.channel, body, files, interaction=ia,
                                      ephemeral_to=ia.user.id if ephemeral else None)
        ia.messages.append(message)
        self._touch(ia.channel.id, ia)
        return message.payload() if request.query.get("wait") in ("1", "true", "True") else None

    def _webhook_message(self, ia: Interaction, message_id: str) -> Message:
        if message_id == "@original":
            if ia.original is None or ia.original.deleted:
                raise DiscordError(404, 10008, f"Unknown Message: {ia.describe()} has no original response",
                                   bot_at_fault=ia.original is None or ia.original.deleted_by is None)
            return ia.original
        found = next((m for m in ia.messages if str(m.id) == message_id), None)
        if found is None or found.deleted:
            raise DiscordError(404, 10008, f"Unknown Message {message_id} for {ia.describe()}",
                               bot_at_fault=found is None or found.deleted_by is None)
        return found

    async def _get_webhook_message(self, request, app, token, message):
        return self._webhook_message(self._interaction(token, app=app), message).payload()

    async def _edit_webhook_message(self, request, app, token, message):
        ia = self._interaction(token, app=app)
        target = self._webhook_message(ia, message)
        body, files = await self._read_body(request)
        self._check_message(body, files, creating=target.thinking, existing=target.attachments)
        self._apply_edit(target, body, files)
        if target not in ia.messages:
            ia.messages.append(target)
        self._touch(ia.channel.id, ia)
        return target.payload()

    async def _delete_webhook_message(self, request, app, token, message):
        ia = self._interaction(token, app=app)
        self._delete(self._webhook_message(ia, message))
        self._touch(ia.channel.id, ia)

    # channel messages

    def _channel(self, channel_id: str, needed: int = VIEW_CHANNEL) -> Channel:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        if channel.is_thread and needed & SEND_MESSAGES:  # in a thread, Send Messages in Threads instead
            needed = needed & ~SEND_MESSAGES | SEND_MESSAGES_IN_THREADS
        if self.bot_permissions(channel) & needed != needed:
            raise DiscordError(403, 50013, f"Missing Permissions in #{channel.name}")
        return channel

    def _channel_message(self, channel: Channel, message_id: str) -> Message:
        found = next((m for m in self._messages[channel.id]
                      if str(m.id) == message_id and m.ephemeral_to is None), None)
        if found is None or found.deleted:
            by = found and found.deleted_by
            raise DiscordError(404, 10008, f"Unknown Message {message_id} in #{channel.name}"
                                           + (f" (deleted by {by.name})" if by else ""), bot_at_fault=by is None)
        return found

    async def _get_channel(self, request, channel):
        return self._channel(channel).payload()

    async def _list_messages(self, request, channel):
        """Newest first, as Discord: `limit` (1..100) messages before, after (the closest ones) or around an id."""
        target = self._channel(channel, VIEW_CHANNEL | READ_MESSAGE_HISTORY)
        query = request.query
        limit = int(query.get("limit", 50))
        if not 1 <= limit <= 100 or len({"before", "after", "around"} & set(query)) > 1:
            raise DiscordError(400, 50035, f"Invalid Form Body: {dict(query)} (limit 1..100, one of "
                                           "before/after/around)")
        found = self.messages(target)  # oldest first
        if "before" in query:
            found = [m for m in found if m.id < int(query["before"])][-limit:]
        elif "after" in query:
            found = [m for m in found if m.id > int(query["after"])][:limit]
        elif "around" in query:
            pivot = int(query["around"])
            newer = [m for m in found if m.id > pivot][:limit // 2]
            found = [m for m in found if m.id <= pivot][-(limit - len(newer)):] + newer
        else:
            found = found[-limit:]
        return [m.payload() for m in reversed(found)]

    async def _post_message(self, request, channel):
        if int(channel) in self._dm_channels:
            return await self._post_dm(request, self._dm_channels[int(channel)], int(channel))
        body, files = await self._read_body(request)
        target = self._channel(channel, VIEW_CHANNEL | SEND_MESSAGES | (ATTACH_FILES if files else 0))
        self._check_message(body, files, creating=True)
        if body.get("flags", 0) & FLAG_EPHEMERAL:
            raise DiscordError(400, 50035, "only interaction responses can be ephemeral")
        nonce = body.get("nonce")
        if nonce is not None:
            nonce = str(nonce)
            if len(nonce) > NONCE_LENGTH_LIMIT:
                raise DiscordError(400, 50035, f"Invalid Form Body: nonce {nonce!r} is longer than "
                                               f"{NONCE_LENGTH_LIMIT} characters")
            first = self._nonces.get((target.id, nonce))
            if body.get("enforce_nonce") and first and self.now() - first[1] < NONCE_WINDOW_S:
                return first[0].payload()  # Discord answers with the message the nonce already created
        message = self._store_message(target, body, files)
        if nonce is not None:
            message.nonce = nonce
            self._nonces[(target.id, nonce)] = (message, self.now())
        self._touch(target.id)
        return message.payload()

    async def _get_message(self, request, channel, message):
        target = self._channel(channel, VIEW_CHANNEL | READ_MESSAGE_HISTORY)
        return self._channel_message(target, message).payload()

    async def _edit_message(self, request, channel, message):
        target = self._channel(channel)
        found = self._channel_message(target, message)
        if found.author["id"] != self.bot_user["id"]:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await self._read_body(request)
        self._check_message(body, files, creating=False, existing=found.attachments)
        self._apply_edit(found, body, files)
        self._touch(target.id)
        return found.payload()

    async def _delete_message(self, request, channel, message):
        target = self._channel(channel)
        found = self._channel_message(target, message)
        if found.author["id"] != self.bot_user["id"] and not target.bot_permissions & MANAGE_MESSAGES:
            raise DiscordError(403, 50013, "Missing Permissions")
        self._delete(found)
        self._touch(target.id)

    async def _typing(self, request, channel):
        self._channel(channel, VIEW_CHANNEL | SEND_MESSAGES)

    async def _get_member(self, request, guild, user):
        found = self.users.get(int(user))
        if int(guild) not in self.guilds or found is None or not self.in_guild(found, int(guild)):
            raise DiscordError(404, 10007, "Unknown Member")
        return self._member_payload(found, int(guild))

    async def _start_thread(self, request, channel, message=None):
        """Start a thread (without a message: type 11 or 12; from a message: public, with the message's id)."""
        parent = self._channel(channel, VIEW_CHANNEL)
        body = await request.json()
        kind = PUBLIC_THREAD if message is not None else body.get("type", PRIVATE_THREAD)
        if message is not None:
            self._channel_message(parent, message)
        problems = _length_problems("thread name", body.get("name"), 100, 1)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD) or parent.is_thread:
            problems.append(f"thread type {kind} in a channel of type {parent.type}")
        if body.get("auto_archive_duration", 1440) not in (60, 1440, 4320, 10080):
            problems.append(f"auto_archive_duration {body['auto_archive_duration']}")
        if problems:
            raise DiscordError(400, 50035, "Invalid Form Body: " + "; ".join(problems))
        needed = SEND_MESSAGES_IN_THREADS | (CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS)
        if self.bot_permissions(parent) & needed != needed:
            raise DiscordError(403, 50013, f"Missing Permissions to start a thread in #{parent.name}")
        thread = Channel(int(message) if message is not None else next(self._ids), body["name"], parent.guild_id,
                         type=kind, parent_id=parent.id, owner_id=self.application_id)
        self._register_channel(thread)
        member = {"id": str(thread.id), "user_id": str(self.application_id), "join_timestamp": thread.created,
                  "flags": 0}
        self._dispatch_if_connected("THREAD_CREATE", {**thread.payload(), "newly_created": True, "member": member},
                                    guild_id=thread.guild_id)
        self._touch(parent.id)
        return {**thread.payload(), "member": member}

    # direct messages

    async def _open_dm(self, request):
        """POST /users/@me/channels: the DM channel with a user (the same one each time)."""
        recipient = self.users.get(int((await request.json()).get("recipient_id", 0)))
        if recipient is None:
            raise DiscordError(400, 50035, "Invalid Form Body: recipient_id is not a known user")
        channel_id = next((cid for cid, user in self._dm_channels.items() if user is recipient), None)
        if channel_id is None:
            channel_id = next(self._ids)
            self._dm_channels[channel_id] = recipient
        return {"id": str(channel_id), "type": 1, "last_message_id": None, "flags": 0,
                "recipients": [recipient.payload()]}

    async def _post_dm(self, request, recipient: User, channel_id: int):
        body, files = await self._read_body(request)
        self._check_message(body, files, creating=True)
        if not recipient.dms_open:
            raise DiscordError(403, 50007, "Cannot send messages to this user", bot_at_fault=False)
        message = Message(next(self._ids), channel_id, self.bot_user)
        self._apply_edit(message, body, files, counting=False)
        self._dms.setdefault(recipient.id, []).append(message)
        self._notify()
        return message.payload()

    async def _get_user(self, request, user):
        found = self.users.get(int(user))
        if found is None:
            raise DiscordError(404, 10013, "Unknown User")
        return found.payload()

    # storing messages

    def _check_message(self, data: dict, files: dict[int, Attachment], *, creating: bool,
                       existing: Sequence[Attachment] = ()) -> None:
        problems = message_problems(data, files, creating=creating, existing=list(existing))
        if problems:
            raise DiscordError(400, 50035 if "empty" not in problems[0] else 50006,
                               "Invalid Form Body: " + "; ".join(problems))

    def _store_message(self, channel: Channel, data: dict, files: dict[int, Attachment], *,
                       interaction: Interaction | None = None, ephemeral_to: int | None = None) -> Message:
        message = Message(next(self._ids), channel.id, self.bot_user, interaction=interaction,
                          ephemeral_to=ephemeral_to, flags=data.get("flags", 0) & (FLAG_EPHEMERAL | FLAG_LOADING | 4 | 4096),
                          type=20 if interaction is not None and interaction.type == INTERACTION_COMMAND else 0)
        self._apply_edit(message, data, files, counting=False)
        self._messages[channel.id].append(message)
        if ephemeral_to is None and not message.thinking:
            self._dispatch_message_event("MESSAGE_CREATE", message)
        return message

    def _apply_edit(self, message: Message, data: dict, files: dict[int, Attachment], *, counting: bool = True) -> None:
        for entry in data.get("attachments") or []:
            if int(entry["id"]) in files:
                files[int(entry["id"])].filename = entry.get("filename") or files[int(entry["id"])].filename
                files[int(entry["id"])].description = entry.get("description")
        if "attachments" in data:
            kept = {int(entry["id"]) for entry in data["attachments"] or []}
            message.attachments = [a for a in message.attachments if a.id in kept]
        message.attachments += [files[key] for key in sorted(files)]
        for key in ("content", "embeds", "components"):
            if key in data:
                setattr(message, key, data[key] if data[key] is not None else ("" if key == "content" else []))
        for number, item in enumerate((i for row in message.components for i in [row, *row.get("components", [])]), 1):
            item.setdefault("id", number)
        if message.thinking and counting:
            message.flags &= ~FLAG_LOADING  # the deferred response becomes the real one
            if message.ephemeral_to is None:
                self._dispatch_message_event("MESSAGE_CREATE", message)
        elif counting:
            message.edits += 1
            message.edited_timestamp = _iso_now()
            if message.ephemeral_to is None:
                self._dispatch_message_event("MESSAGE_UPDATE", message)

    def _delete(self, message: Message) -> None:
        message.deleted = True
        if message.ephemeral_to is None:
            self._dispatch_message_event("MESSAGE_DELETE", message)

    def _dispatch_message_event(self, event: str, message: Message) -> None:
        guild_id = self.channels[message.channel_id].guild_id
        session = self._session_for(guild_id)
        if session is None or not session.intents & INTENT_GUILD_MESSAGES:
            return
        data = {"id": str(message.id), "channel_id": str(message.channel_id), "guild_id": str(guild_id)}
        if event != "MESSAGE_DELETE":
            data = {**message.payload(), "guild_id": str(guild_id)}
        session.dispatch(event, data)

    # ----- processes under test

    def client_process(self, argv: Sequence[str], *, env: dict[str, str] | None = None,
                       cwd: str | Path | None = None, log_path: str | Path | None = None,
                       shards: Sequence[int] | None = None) -> ClientProcess:
        """A discord.py program run as a subprocess with DISCORD_TOKEN, DISCORD_API_BASE and DISCORD_GATEWAY_URL
        set to this fake. `shards`: the shard ids it connects (default all); tell the program in `env`."""
        full_env = {**os.environ, "DISCORD_TOKEN": self.token, "DISCORD_API_BASE": self.api_base,
                    "DISCORD_GATEWAY_URL": self.gateway_url, **(env or {})}
        return ClientProcess(self, list(argv), full_env, cwd, Path(log_path) if log_path else None,
                             list(range(self.shard_count)) if shards is None else list(shards))


def _role_payload(role_id: int, name: str, permissions: int) -> dict:
    return {"id": str(role_id), "name": name, "color": 0, "hoist": False, "position": 0 if name == "@everyone" else 1,
            "permissions": str(permissions), "managed": False, "mentionable": False, "flags": 0}


def _focused_option_schema(command: dict, data: dict) -> dict:
    schema, options = command, data.get("options") or []
    while True:
        focused = next((o for o in options if o.get("focused")), None)
        if focused is not None:
            return next(o for o in schema.get("options", []) if o["name"] == focused["name"])
        sub = options[0]
        schema = next(o for o in schema.get("options", []) if o["name"] == sub["name"])
        options = sub.get("options") or []


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py compares the content type exactly: no "; charset=utf-8"
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"message": message, "code": code}, status)


def _too_many_requests(retry_after: float) -> web.Response:
    """Discord's 429 for an exhausted per-route bucket (a 429 without `Via` would be Cloudflare's ban)."""
    response = _json({"message": "You are being rate limited.", "retry_after": retry_after, "global": False}, 429)
    response.headers.update({"Via": "1.1 google", "Retry-After": str(max(1, round(retry_after))),
                             "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                             "X-RateLimit-Reset-After": str(retry_after), "X-RateLimit-Bucket": "fake-bucket",
                             "X-RateLimit-Scope": "shared"})
    return response


class _GatewayConnection:
    """One websocket: payloads queued in order, zlib-stream transport compression when asked for."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None):
        self.ws = ws
        self.compressor = zlib.compressobj() if compress == "zlib-stream" else None
        self.queue: asyncio.Queue[dict] = asyncio.Queue()

    def send(self, payload: dict) -> None:
        self.queue.put_nowait(payload)

    async def write_forever(self) -> None:
        while True:
            text = json.dumps(await self.queue.get())
            if self.compressor is None:
                await self.ws.send_str(text)
            else:
                await self.ws.send_bytes(self.compressor.compress(text.encode())
                                         + self.compressor.flush(zlib.Z_SYNC_FLUSH))


class _GatewaySession:
    """A gateway session: survives a dropped connection (RESUME replays what was missed)."""

    def __init__(self, session_id: str, connection: _GatewayConnection, intents: int, shard_id: int,
                 shard_count: int):
        self.id = session_id
        self.shard_id, self.shard_count = shard_id, shard_count
        self.connection: _GatewayConnection | None = connection
        self.intents = intents
        self.sequence = 0
        self.sent: list[dict] = []
        self.ready = False

    @property
    def ws(self):
        return None if self.connection is None else self.connection.ws

    def dispatch(self, event: str, data: dict) -> None:
        self.sequence += 1
        payload = {"op": OP_DISPATCH, "t": event, "s": self.sequence, "d": data}
        self.sent.append(payload)
        if self.connection is not None:
            self.connection.send(payload)


class ClientProcess:
    """A bot run as `argv` in a subprocess against the fake: start, terminate (SIGTERM), kill (SIGKILL)."""

    def __init__(self, fake: FakeDiscord, argv: list[str], env: dict[str, str], cwd, log_path: Path | None,
                 shards: list[int]):
        self.fake, self.argv, self.env, self.cwd = fake, argv, env, cwd
        self.shards = shards
        self.log_path = log_path
        self.process: asyncio.subprocess.Process | None = None
        self._log_file = None

    async def start(self, *, timeout: float = 30.0, require_sync: bool | None = None) -> None:
        """Start and wait until each of its shards has identified on the gateway and the commands are synced.

        `require_sync` (default: only on the first start) waits for a command sync by this process."""
        if require_sync is None:
            require_sync = not self.fake.commands
        identified, syncs = len(self.fake.identified), self.fake.command_syncs
        self._log_file = open(self.log_path, "ab") if self.log_path else None
        self.process = await asyncio.create_subprocess_exec(
            *self.argv, env=self.env, cwd=self.cwd, stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log_file or asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.STDOUT)

        def up():
            if self.process.returncode is not None:
                raise AssertionError(f"{self.argv} exited with {self.process.returncode}:\n{self.log_tail()}")
            fresh = {shard for shard, _ in self.fake.identified[identified:]}
            return (fresh >= set(self.shards) and all(map(self.fake.shard_connected, self.shards))
                    and (self.fake.command_syncs > syncs or not require_sync))
        try:
            await self.fake.wait_until(up, timeout=timeout, what=f"{self.argv} to connect and sync")
        except (TimeoutError, AssertionError) as error:
            if self.running:
                self.process.kill()
                await self.process.wait()
            raise type(error)(f"{error}\n{self.log_tail()}") from None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def terminate(self, *, timeout: float = 10.0) -> int:
        """SIGTERM, then SIGKILL if it does not exit within `timeout`; return the exit code."""
        return await self._stop(signal.SIGTERM, timeout)

    async def kill(self) -> int:
        return await self._stop(signal.SIGKILL, 10.0)

    async def _stop(self, sig: signal.Signals, timeout: float) -> int:
        if not self.running:
            return self.process.returncode if self.process else 0
        self.process.send_signal(sig)
        try:
            await asyncio.wait_for(self.process.wait(), timeout)
        except asyncio.TimeoutError:
            log.error("%s ignored %s; killing it", self.argv, sig.name)
            self.process.kill()
            await self.process.wait()
        if self._log_file:
            self._log_file.close()
        await self.fake.wait_until(lambda: not any(map(self.fake.shard_connected, self.shards)), timeout=10,
                                   what=f"the gateway of shards {self.shards} to close")
        return self.process.returncode

    def log_tail(self, lines: int = 40) -> str:
        if not self.log_path or not self.log_path.exists():
            return "(no log)"
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
