"""The fake's gateway websocket: sharded sessions, IDENTIFY/RESUME, events routed to their guild's shard."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypedDict, TypeVar

from aiohttp import WSMsgType, web

from tests.fake_discord.constants import (
    MEMBER_PERMISSIONS,
    OP_DISPATCH,
    OP_HEARTBEAT,
    OP_HEARTBEAT_ACK,
    OP_HELLO,
    OP_IDENTIFY,
    OP_INVALID_SESSION,
    OP_PRESENCE,
    OP_REQUEST_MEMBERS,
    OP_RESUME,
)
from tests.fake_discord.entities import Channel, FakeDiscordUsageError, Guild, JsonObject, User, _role_payload

log = logging.getLogger(__name__)

# Close codes Discord's gateway sends that a client may reconnect after (the others end the bot).
CLOSE_CODES = {1001: "Going away", 4000: "Unknown error", 4007: "Invalid seq", 4008: "Rate limited.",
               4009: "Session timed out"}
SESSION_ENDING_CLOSE_CODES = {4007, 4009}   # the session cannot be resumed: identify afresh
_T = TypeVar("_T")


class Dispatch(TypedDict):
    """An event as the gateway sends it (op 0): its name, its sequence number in the session, its data."""

    op: int
    t: str
    s: int
    d: JsonObject


class GatewayMixin:
    """FakeDiscord's gateway: shards, sessions, resume, what each shard's guilds receive."""

    if TYPE_CHECKING:   # what this part of FakeDiscord uses of the rest of it (driver.py)
        token: str
        application_id: int
        bot_user: JsonObject
        shard_count: int
        guilds: dict[int, Guild]
        users: dict[int, User]
        channels: dict[int, Channel]
        _roles: dict[tuple[int, int], int]
        _sessions: dict[str, _GatewaySession]
        _live: dict[tuple[int, int], _GatewaySession]
        identifies: int
        identified: list[tuple[int, int]]
        gateway_drops: list[tuple[int, int]]

        @property
        def guild_id(self) -> int: ...
        @property
        def gateway_url(self) -> str: ...
        def violation(self, text: str) -> None: ...
        def _notify(self) -> None: ...
        def shard_of(self, guild: Guild | int | None, shard_count: int | None = None) -> int: ...
        def in_guild(self, user: User, guild: Guild | int | None = None) -> bool: ...
        def _member_payload(self, user: User, guild_id: int, *, with_user: bool = True) -> JsonObject: ...
        async def wait_until(self, predicate: Callable[[], _T | None], *, timeout: float = 10.0,
                             what: str = "condition") -> _T: ...

    def _session_for(self, guild_id: int | None) -> _GatewaySession | None:
        """The live session of the shard that receives `guild_id`'s events (shard 0 without a guild)."""
        for (shard_id, shard_count), session in self._live.items():
            if self.shard_of(guild_id, shard_count) == shard_id and session.ready and session.ws is not None:
                return session
        return None

    async def dispatch(self, event: str, data: JsonObject, *, guild_id: int | None = None,
                       timeout: float = 10.0) -> int:
        """Send an event on the shard of `guild_id` (shard 0 without a guild); waits up to `timeout` for a
        bot to be connected on it. Returns the shard id."""
        shard = self.shard_of(guild_id)
        session = await self.wait_until(
            lambda: self._session_for(guild_id), timeout=timeout,
            what=f"a bot connected on shard {shard} of {self.shard_count} (for {event} in guild {guild_id}); "
                 f"connected shards: {self.connected_shards}")
        session.dispatch(event, data)
        return session.shard_id

    def _dispatch_if_connected(self, event: str, data: JsonObject, *, guild_id: int | None) -> None:
        if (session := self._session_for(guild_id)) is not None:
            session.dispatch(event, data)

    def dispatched(self, shard_id: int) -> list[tuple[str, JsonObject]]:
        """(event name, data) of every event sent on the shard's sessions, oldest first."""
        return [(event["t"], event["d"]) for session in self._sessions.values() if session.shard_id == shard_id
                for event in session.sent]

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

    async def _identify(self, connection: _GatewayConnection, data: JsonObject) -> _GatewaySession | None:
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
        guilds = [g for g in self.guilds.values() if g.shard_id(shard_count) == shard_id and g.bot_installed]
        session.dispatch("READY", {
            "v": 10, "user": self.bot_user, "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id, "resume_gateway_url": self.gateway_url, "shard": [shard_id, shard_count],
            "application": {"id": str(self.application_id), "flags": 0}})
        for guild in guilds:
            session.dispatch("GUILD_CREATE", {"id": str(guild.id), "unavailable": True} if guild.unavailable
                             else self._guild_payload(guild))
        session.ready = True
        self._notify()
        return session

    async def _resume(self, connection: _GatewayConnection, data: JsonObject) -> _GatewaySession | None:
        session = self._sessions.get(data.get("session_id", ""))
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

    async def drop_gateway(self, shard_id: int | None = None, *, code: int = 4000) -> None:
        """Close the bot's websocket (of one shard, default all) with one of Discord's close codes, as
        Discord sometimes does: 4000 (unknown error), 4008 (rate limited), 1001 (going away): the client
        resumes; 4007 (invalid seq), 4009 (session timed out): the session is gone, its resume is answered
        INVALID_SESSION and the client identifies afresh (events meanwhile are lost, as on Discord)."""
        if code not in CLOSE_CODES:
            raise FakeDiscordUsageError(f"{code} is not a close code the fake sends: {sorted(CLOSE_CODES)}")
        for (shard, _), session in list(self._live.items()):
            if session.connection is not None and shard_id in (None, shard):
                if code in SESSION_ENDING_CLOSE_CODES:
                    self._sessions.pop(session.id, None)
                    session.ready = False
                self.gateway_drops.append((session.shard_id, code))
                await session.connection.ws.close(code=code, message=CLOSE_CODES[code].encode())

    def _guild_payload(self, guild: Guild) -> JsonObject:
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


class _GatewayConnection:
    """One websocket: payloads queued in order, zlib-stream transport compression when asked for."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None):
        self.ws = ws
        self.compressor = zlib.compressobj() if compress == "zlib-stream" else None
        self.queue: asyncio.Queue[Mapping[str, object]] = asyncio.Queue()

    def send(self, payload: Mapping[str, object]) -> None:
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
        self.sent: list[Dispatch] = []
        self.ready = False

    @property
    def ws(self) -> web.WebSocketResponse | None:
        return None if self.connection is None else self.connection.ws

    def dispatch(self, event: str, data: JsonObject) -> None:
        self.sequence += 1
        payload: Dispatch = {"op": OP_DISPATCH, "t": event, "s": self.sequence, "d": data}
        self.sent.append(payload)
        if self.connection is not None:
            self.connection.send(payload)
