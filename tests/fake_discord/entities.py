"""What the fake Discord holds: guilds, users, channels, messages, interactions."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any, TypedDict

from tests.fake_discord.constants import (
    BOT_PERMISSIONS,
    BUTTON,
    DISCORD_EPOCH_MS,
    DM_CHANNEL,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    GUILD_INSTALL,
    INTERACTION_COMPONENT,
    INTERACTION_MODAL,
    MEMBER_PERMISSIONS,
    OPTION_SUB_COMMAND,
    OPTION_SUB_COMMAND_GROUP,
    PRIVATE_CHANNELS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    TEXT_CHANNEL,
    USER_INSTALL,
)

# A JSON object as Discord sends or receives it: bodies the bot sends (messages, components, embeds, commands)
# are free-form until limits.py checks them, and the payloads the fake sends carry Discord's many fields.
JsonObject = dict[str, Any]


class Overwrite(TypedDict):
    """A permission overwrite as Discord sends it in a channel's permission_overwrites."""

    id: str  # a role's id (@everyone's is the guild's) or a member's
    type: int  # OVERWRITE_ROLE or OVERWRITE_MEMBER
    allow: str  # permission bits, as a decimal string
    deny: str


class FakeDiscordUsageError(AssertionError):
    """The test asked for something a Discord user could not do (unknown command, no such button...)."""


def _snowflakes() -> Iterator[int]:
    counter = itertools.count()
    while True:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        yield (ms << 22) | (next(counter) & 0x3FFFFF)


def _iso_now() -> str:
    return datetime.now(UTC).isoformat()


# --------------------------------------------------------------------------- entities


@dataclasses.dataclass(eq=False)
class Guild:
    id: int
    name: str
    locale: str = "en-US"
    bot_installed: bool = True  # False: only users installed the app; the bot is not in the server
    # The server removed the bot (FakeDiscord.remove_bot): a channel request then answers 403 (50001) as ever,
    # but is no violation: it may have been sent before the bot saw GUILD_DELETE (the e2e tests check that
    # none starts after the bot ended the server's games)
    removed: bool = False
    unavailable: bool = False  # an outage: READY lists it, its GUILD_CREATE at connection says only unavailable

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
    installed: bool = False  # the user installed the app to their account (user install, integration type 1)

    def payload(self) -> JsonObject:
        return {"id": str(self.id), "username": self.name, "global_name": self.name, "discriminator": "0",
                "avatar": None, "bot": False, "public_flags": 0, "flags": 0, "primary_guild": None}

    def member_payload(self, *, with_user: bool = True, roles: Sequence[int] = ()) -> JsonObject:
        member = {"roles": [str(r) for r in roles], "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False,
                  "mute": False, "flags": 0, "pending": False, "nick": None, "avatar": None, "banner": None,
                  "premium_since": None, "communication_disabled_until": None}
        if with_user:
            member["user"] = self.payload()
        return member

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclasses.dataclass(eq=False)
class Channel:
    """A text channel, or a thread (`type` 11/12, `parent_id` its channel, permissions those of the parent),
    or a private channel between users (`type` 1 DM or 3 group DM: `guild_id` None, `recipients`)."""

    id: int
    name: str
    guild_id: int | None
    bot_permissions: int = BOT_PERMISSIONS  # a thread's are its parent's (see FakeDiscord.bot_permissions)
    last_write: float = 0.0  # fake clock of the bot's last write in the channel
    type: int = TEXT_CHANNEL
    parent_id: int | None = None
    overwrites: list[Overwrite] = dataclasses.field(default_factory=list)  # Discord's permission_overwrites
    owner_id: int | None = None  # a thread's creator
    created: str = dataclasses.field(default_factory=_iso_now)
    recipients: list[User] = dataclasses.field(default_factory=list)  # a private channel's users

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_private(self) -> bool:
        """A DM or group DM between users (the bot is never one of its recipients)."""
        return self.type in PRIVATE_CHANNELS

    def payload(self) -> JsonObject:
        if self.is_private:
            return self.private_payload()
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

    def private_payload(self, invoker: User | None = None) -> JsonObject:
        """The partial channel an interaction carries from a DM or group DM, as Discord sends it: a group DM
        with `owner_id`, `name`, `icon` and no recipients; a DM with its other user in `recipients`."""
        data = {"id": str(self.id), "type": self.type, "last_message_id": None, "flags": 0}
        if self.type == DM_CHANNEL:
            data["recipients"] = [u.payload() for u in self.recipients if u is not invoker]
        else:
            data.update(owner_id=str(self.owner_id), name=self.name or None, icon=None)
        return data


@dataclasses.dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    bytes: bytes
    content_type: str = "application/octet-stream"
    description: str | None = None

    def payload(self) -> JsonObject:
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
    author: JsonObject
    content: str = ""
    embeds: list[JsonObject] = dataclasses.field(default_factory=list)
    components: list[JsonObject] = dataclasses.field(default_factory=list)
    attachments: list[Attachment] = dataclasses.field(default_factory=list)
    flags: int = 0
    ephemeral_to: int | None = None  # the one user who sees an ephemeral message
    interaction: Interaction | None = None  # set for interaction responses and followups
    type: int = 0
    timestamp: str = dataclasses.field(default_factory=_iso_now)
    edited_timestamp: str | None = None
    edits: int = 0
    pictured: bool = False   # it carried a file at some point (a retired board keeps its text alone)
    deleted: bool = False
    deleted_by: User | None = None  # the moderator who deleted it (FakeDiscord.delete_message)
    pings: list[int] = dataclasses.field(default_factory=list)  # users Discord notified when it appeared
    nonce: str | None = None
    shown_at: float = dataclasses.field(default_factory=time.monotonic)  # when it appeared (a real clock)
    deleted_at: float | None = None  # when it was deleted (a real clock)

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
    def items(self) -> list[JsonObject]:
        """Every button and select, row by row."""
        return [item for row in self.components for item in row.get("components", [])]

    @property
    def buttons(self) -> list[JsonObject]:
        return [item for item in self.items if item["type"] == BUTTON]

    @property
    def custom_ids(self) -> list[str]:
        return [item["custom_id"] for item in self.items if "custom_id" in item]

    def component(self, *, custom_id: str | None = None, label: str | None = None) -> JsonObject:
        found = [item for item in self.items
                 if (custom_id is None or item.get("custom_id") == custom_id)
                 and (label is None or item.get("label") == label)]
        if len(found) != 1:
            labels = [(item.get("label"), item.get("custom_id")) for item in self.items]
            raise FakeDiscordUsageError(
                f"message {self.id} has {len(found)} components matching custom_id={custom_id!r} "
                f"label={label!r}; it shows (label, custom_id): {labels}")
        return found[0]

    def payload(self) -> JsonObject:
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
            data["interaction_metadata"] = ia.metadata()
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
    guild_id: int | None
    user: User
    channel: Channel
    payload: JsonObject
    created_at: float  # fake clock (FakeDiscord.now)
    context: int = 0  # 0 a server, 1 the bot's DM, 2 a DM or group DM between users
    owners: dict[str, str] = dataclasses.field(default_factory=dict)  # authorizing_integration_owners
    shard_id: int = 0  # the gateway shard it was dispatched on
    source_message: Message | None = None  # the message whose component was used
    parent: Interaction | None = None  # a modal submit's: the interaction the modal answered
    command: JsonObject | None = None  # the synced command, for slash and autocomplete
    response_type: int | None = None
    responded_at: float | None = None
    original: Message | None = None
    messages: list[Message] = dataclasses.field(default_factory=list)
    choices: list[JsonObject] | None = None
    modal: JsonObject | None = None
    last_write: float = 0.0
    followups_sent: int = 0  # follow-up messages created (POST /webhooks/{app}/{token})
    # In a server that did not install the app, used by a member without Use External Apps: every message the
    # answer creates (the response, deferred or not, and the follow-ups) is ephemeral, whatever its flags
    forced_ephemeral: bool = False

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

    @property
    def user_installed_only(self) -> bool:
        """Authorized by a user install alone (the app is not installed where it happened)."""
        return str(GUILD_INSTALL) not in self.owners and str(USER_INSTALL) in self.owners

    # Shortcuts to the main visible reply (`message`)
    @property
    def content(self) -> str:
        return self.message.content

    @property
    def ephemeral(self) -> bool:
        return self.message.ephemeral

    @property
    def files(self) -> list[Attachment]:
        return self.message.files

    @property
    def components(self) -> list[JsonObject]:
        return self.message.components

    def metadata(self) -> JsonObject:
        """The `interaction_metadata` of the messages it created: a component's names the message clicked, a
        modal submit's the interaction that opened the modal."""
        data = {"id": str(self.id), "type": self.type, "user": self.user.payload(),
                "authorizing_integration_owners": self.owners}
        if self.type == INTERACTION_COMPONENT and self.source_message is not None:
            data["interacted_message_id"] = str(self.source_message.id)
        if self.type == INTERACTION_MODAL and self.parent is not None:
            data["triggering_interaction_metadata"] = self.parent.metadata()
        return data

    def describe(self) -> str:
        data = self.payload.get("data", {})
        what = data.get("custom_id") or "/" + " ".join(_command_path(data))
        return f"#{self.id} {what!r} by {self.user.name}"


def _command_path(data: JsonObject) -> list[str]:
    path = [data.get("name", "?")]
    options = data.get("options") or []
    while options and options[0].get("type") in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP):
        path.append(options[0]["name"])
        options = options[0].get("options") or []
    return path


class DiscordError(Exception):
    """A REST request Discord refuses; becomes the HTTP error response."""

    def __init__(self, status: int, code: int, message: str, *, bot_at_fault: bool = True,
                 errors: JsonObject | None = None):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.bot_at_fault = bot_at_fault  # False: Discord refuses, but the bot broke no rule (closed DMs)
        self.errors = errors  # Discord's `errors` of an Invalid Form Body: the fields' paths and what is wrong


def _role_payload(role_id: int, name: str, permissions: int) -> JsonObject:
    return {"id": str(role_id), "name": name, "color": 0, "hoist": False, "position": 0 if name == "@everyone" else 1,
            "permissions": str(permissions), "managed": False, "mentionable": False, "flags": 0}


@dataclasses.dataclass(eq=False)
class Hold:
    """A request the fake holds (FakeDiscord.hold): carried out (or not yet, `before`), its answer kept
    back until `release()`, so that a test can kill the bot at that very moment."""

    method: str
    route: str
    when: Callable[[Message | None], bool]
    before: bool
    reached: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    released: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    message: Message | None = None  # the message the held request created, edited or targets

    async def wait(self, timeout: float = 10.0) -> Message | None:
        """Until the bot sent the request; the message concerned."""
        await asyncio.wait_for(self.reached.wait(), timeout)
        return self.message

    def release(self) -> None:
        self.released.set()

