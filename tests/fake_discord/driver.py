"""FakeDiscord: the world set-up and the driver calls a test makes as users and moderators.

The package docstring (tests/fake_discord/__init__.py) shows every call. Added for places without the bot
and for Discord's budgets: add_group_dm, add_dm, add_guild(bot_installed=False), add_bot / remove_bot,
add_user(installed=True) / install_app, bot_present; FakeDiscord(token_lifetime_s=..., global_limit=True);
counted, counts(since), global_requests, interaction_requests, refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from tests.fake_discord.constants import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    ATTACHMENT_SIZE_LIMIT,
    BOT_PERMISSIONS,
    BUTTON,
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_DEFERRED_UPDATE,
    CONTEXT_GUILD,
    CONTEXT_PRIVATE_CHANNEL,
    DM_CHANNEL,
    GROUP_DM_CHANNEL,
    GROUP_DM_RECIPIENT_LIMIT,
    GUILD_INSTALL,
    INTERACTION_AUTOCOMPLETE,
    INTERACTION_COMMAND,
    INTERACTION_COMPONENT,
    INTERACTION_MODAL,
    INTERACTION_RESPONSE_PERMISSIONS,
    LINK_STYLE,
    MANAGE_MESSAGES,
    MEMBER_PERMISSIONS,
    OPTION_BOOLEAN,
    OPTION_CHANNEL,
    OPTION_INTEGER,
    OPTION_NUMBER,
    OPTION_STRING,
    OPTION_SUB_COMMAND,
    OPTION_SUB_COMMAND_GROUP,
    OPTION_USER,
    OVERWRITE_MEMBER,
    OVERWRITE_ROLE,
    PREMIUM_STYLE,
    PRIVATE_CHANNEL_APP_PERMISSIONS,
    PUBLIC_THREAD,
    RESPONSE_DEADLINE_S,
    STRING_SELECT,
    TEXT_INPUT,
    TOKEN_LIFETIME_S,
    USE_EXTERNAL_APPS,
    USER_INSTALL,
    VIEW_CHANNEL,
)
from tests.fake_discord.contract import ContractTally
from tests.fake_discord.counting import CountedRequest, GlobalLimiter, RequestCounts
from tests.fake_discord.entities import (
    Channel,
    FakeDiscordUsageError,
    Guild,
    Hold,
    Interaction,
    JsonObject,
    Message,
    Overwrite,
    User,
    _role_payload,
    _snowflakes,
)
from tests.fake_discord.gateway import GatewayMixin, _GatewaySession
from tests.fake_discord.limits import command_contexts, command_integration_types
from tests.fake_discord.process import ClientProcess
from tests.fake_discord.rest import RestMixin

log = logging.getLogger(__name__)
_T = TypeVar("_T")
# How long a click acknowledged silently waits for its own answer before any write in its channel settles it
# (FakeDiscord.settle).
OWN_ANSWER_S = 3.0


class FakeDiscord(GatewayMixin, RestMixin):
    """The fake Discord: the world (guilds, users, channels, messages) and what users do in it."""

    def __init__(self, *, token: str | None = None, guild_locale: str = "en-US", shard_count: int = 1,
                 max_concurrency: int = 1, token_lifetime_s: float = TOKEN_LIFETIME_S, global_limit: bool = False
                 ) -> None:
        self._ids = _snowflakes()
        self.token_lifetime_s = token_lifetime_s  # interaction tokens then answer 401 (50027), on the fake's clock
        # Discord's global limit of 50 requests a second (interaction endpoints exempt), off unless asked for
        self.global_limiter: GlobalLimiter | None = GlobalLimiter() if global_limit else None
        self.counted: list[CountedRequest] = []  # every REST request, its scope, route and answer (see counts())
        self.token = token or "fake." + secrets.token_urlsafe(24)
        self.application_id = next(self._ids)
        self.bot_user: JsonObject = {"id": str(self.application_id), "username": "Tablero", "global_name": None,
                         "discriminator": "0000", "avatar": None, "bot": True, "verified": True,
                         "mfa_enabled": False, "flags": 0, "public_flags": 0, "locale": "en-US",
                         "primary_guild": None}
        self.shard_count = shard_count  # what GET /gateway/bot recommends
        self.max_concurrency = max_concurrency  # session_start_limit.max_concurrency (reported, not enforced)
        self.guilds: dict[int, Guild] = {}
        self.users: dict[int, User] = {}
        self.channels: dict[int, Channel] = {}
        self._roles: dict[tuple[int, int], int] = {}  # (guild id, user id) -> the user's own role
        self._messages: dict[int, list[Message]] = {}
        self._nonces: dict[tuple[int, str], tuple[Message, float]] = {}  # (channel id, nonce) -> first message
        self.commands: dict[tuple[int | None, int, str], JsonObject] = {}  # (guild_id, type, name) -> command
        self.command_syncs = 0
        self.interactions: list[Interaction] = []
        self._by_token: dict[str, Interaction] = {}
        self.violations: list[str] = []
        self.contract = ContractTally()  # bodies and answers checked against Discord's OpenAPI document
        self.refusals: list[str] = []  # errors answered where the bot broke no rule (see DiscordError)
        self._dm_channels: dict[int, User] = {}  # DM channel id -> the user at the other end
        self._dms: dict[int, list[Message]] = {}  # user id -> direct messages the bot sent
        self.requests: list[tuple[str, str]] = []
        # (method, route) -> the next requests' fault answers (rate_limit, fail): (response, carried out?)
        self._faults: dict[tuple[str, str], list[tuple[Callable[[], web.Response], bool]]] = {}
        self.rate_limited: list[tuple[str, str]] = []  # requests answered 429, as (method, path)
        self.failed: list[tuple[str, str]] = []  # requests answered with a server error (fail), as (method, path)
        self.dropped: list[tuple[str, str]] = []  # requests whose connection was closed unanswered (drop)
        self._holds: list[Hold] = []  # Hold: requests kept back for a test (FakeDiscord.hold)
        self.clock_offset = 0.0
        self.quiet = 0.3  # seconds without a bot write before an interaction counts as settled
        self._sessions: dict[str, _GatewaySession] = {}
        self._live: dict[tuple[int, int], _GatewaySession] = {}  # (shard id, shard count) -> live session
        self.identifies = 0
        self.identified: list[tuple[int, int]] = []  # the `shard` of every IDENTIFY, in order
        self.gateway_drops: list[tuple[int, int]] = []  # (shard id, close code) of every drop_gateway
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
        self.port = self._runner.addresses[0][1]
        log.info("fake Discord listening on %s", self.api_base)
        return self

    async def close(self) -> None:
        for held in self._holds:
            held.release()
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
        self.contract.provoked += self.contract.violations[len(self.contract.provoked):]   # those since the last
        return taken

    def assert_clean(self) -> None:
        assert not self.violations, "Discord would have rejected:\n  " + "\n  ".join(self.violations)
        assert not self.contract.gaps, "The fake answered what Discord would not (tests/fake_discord/" \
                                       "contract.py):\n  " + "\n  ".join(self.contract.gaps)

    def _notify(self) -> None:
        self._change.set()
        self._change = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], _T | None], *, timeout: float = 10.0,
                         what: str = "condition") -> _T:
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
                  shard: tuple[int, int] | None = None, bot_installed: bool = True) -> Guild:
        """A guild the bot is in (GUILD_CREATE on its shard if connected). `shard=(k, n)` picks an id
        that lands on shard k of n; every user is a member of every guild. `bot_installed=False`: a server
        that has not added the app, where only users who installed it (`install_app`) can use it: the bot
        gets no event of it, and its channel endpoints answer 403 (50001)."""
        if guild_id is not None and shard is not None:
            raise FakeDiscordUsageError("pass guild_id or shard, not both")
        guild = Guild(guild_id if guild_id is not None else self._guild_snowflake(*(shard or (0, 1))), name, locale,
                      bot_installed=bot_installed)
        self.guilds[guild.id] = guild
        for user in self.users.values():
            self._add_role(guild, user)
        if bot_installed:
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
                 dms_open: bool = True, installed: bool = False) -> User:
        """A member of every guild; `permissions` beyond @everyone's come from a role of their own.
        `installed`: the user installed the app to their account (see `install_app`)."""
        user = User(next(self._ids), name, locale, permissions, dms_open=dms_open, installed=installed)
        self.users[user.id] = user
        for guild in self.guilds.values():
            self._add_role(guild, user)
        return user

    def install_app(self, user: User, installed: bool = True) -> None:
        """The user installs the app to their account (User Install), or removes it (`installed=False`): their
        commands then show in DMs, group DMs and servers without the bot, where their interactions carry
        authorizing_integration_owners {"1": their id}."""
        user.installed = installed

    def add_group_dm(self, *users: User, name: str = "", owner: User | None = None) -> Channel:
        """A group DM (channel type 3) of these users (2 to 10), the bot not among them: no event reaches
        the bot; its channel endpoints answer 403 (50001); only interactions work there."""
        if not 2 <= len(users) <= GROUP_DM_RECIPIENT_LIMIT or len(set(users)) != len(users):
            raise FakeDiscordUsageError(f"a group DM holds 2 to {GROUP_DM_RECIPIENT_LIMIT} distinct users, "
                                        f"not {[u.name for u in users]}")
        channel = Channel(next(self._ids), name, None, type=GROUP_DM_CHANNEL, recipients=list(users),
                          owner_id=(owner or users[0]).id)
        self._register_channel(channel)
        return channel

    def add_dm(self, user_a: User, user_b: User) -> Channel:
        """The DM (channel type 1) between two users, the bot not one of them (see `add_group_dm`)."""
        if user_a is user_b:
            raise FakeDiscordUsageError("a DM between users needs two users")
        channel = Channel(next(self._ids), "", None, type=DM_CHANNEL, recipients=[user_a, user_b])
        self._register_channel(channel)
        return channel

    def bot_present(self, channel: Channel) -> bool:
        """Whether the bot is there: a channel of a server that installed it (not a DM or group DM between
        users, nor a server where only users installed the app)."""
        if channel.is_private:
            return False
        guild = self.guilds.get(channel.guild_id or 0)
        return guild is not None and guild.bot_installed

    # ----- counting requests

    def counts(self, since: int = 0) -> RequestCounts:
        """The requests counted from `since` (a `len(fake.counted)` taken earlier) on: `.global_requests`
        (against the 50/s global limit), `.interaction_requests` (exempt), `.by_route(scope)`, `.refused`."""
        return RequestCounts(self.counted[since:])

    @property
    def global_requests(self) -> int:
        return self.counts().global_requests

    @property
    def interaction_requests(self) -> int:
        return self.counts().interaction_requests

    @property
    def refused(self) -> list[CountedRequest]:
        """Every request the fake answered 4xx: 403 (50001), 400 (40094), 401 (50027), 429, 404 (10008)...
        (`bot_at_fault` False for what the bot could not know: a moderator's deletion, closed DMs, an
        injected `rate_limit`)."""
        return self.counts().refused

    def _add_role(self, guild: Guild, user: User) -> None:
        if user.permissions & ~MEMBER_PERMISSIONS:
            self._roles[(guild.id, user.id)] = role = next(self._ids)
            if guild.bot_installed:
                self._dispatch_if_connected("GUILD_ROLE_CREATE",
                                            {"guild_id": str(guild.id),
                                             "role": _role_payload(role, user.name, user.permissions)},
                                            guild_id=guild.id)

    def in_guild(self, user: User, guild: Guild | int | None = None) -> bool:
        guild_id = self.guild_id if guild is None else guild.id if isinstance(guild, Guild) else guild
        return guild_id not in user.left_guilds

    def add_channel(self, name: str, *, bot_permissions: int = BOT_PERMISSIONS, guild: Guild | None = None,
                    private: bool = False, members: Sequence[User] = (),
                    overwrites: Sequence[Overwrite] = ()) -> Channel:
        """A text channel of `guild` (default: the default guild). `private=True`: @everyone is denied
        View Channel, allowed to `members` and the bot. `overwrites`: more of Discord's overwrite objects."""
        guild_id = (guild or self.default_guild).id
        hidden: list[Overwrite] = []
        if private:
            hidden = [{"id": str(guild_id), "type": OVERWRITE_ROLE, "allow": "0", "deny": str(VIEW_CHANNEL)}]
            hidden += [{"id": str(member_id), "type": OVERWRITE_MEMBER, "allow": str(VIEW_CHANNEL), "deny": "0"}
                       for member_id in [self.application_id, *(m.id for m in members)]]
        channel = Channel(next(self._ids), name, guild_id, bot_permissions, overwrites=hidden + list(overwrites))
        self._register_channel(channel)
        if self.bot_present(channel):
            self._dispatch_if_connected("CHANNEL_CREATE", channel.payload(), guild_id=guild_id)
        return channel

    def _register_channel(self, channel: Channel) -> None:
        self.channels[channel.id] = channel
        self._messages[channel.id] = []

    def threads(self, channel: Channel) -> list[Channel]:
        """The threads of `channel`, oldest first."""
        return [c for c in self.channels.values() if c.parent_id == channel.id]

    def permissions(self, user: User, channel: Channel) -> int:
        """The user's permissions in the channel, as Discord computes them (a thread: its parent's; a DM or
        group DM: a member's for its recipients, none for others)."""
        if channel.is_private:
            return MEMBER_PERMISSIONS if user in channel.recipients else 0
        if user.permissions & ADMINISTRATOR:
            return ALL_PERMISSIONS
        source = self.channels.get(channel.parent_id or 0, channel) if channel.is_thread else channel
        role = self._roles.get((channel.guild_id or 0, user.id))
        allowed = user.permissions
        # Discord's order: @everyone's overwrite, then the member's roles' overwrites, then the member's own
        for kind, ids in ((OVERWRITE_ROLE, {str(channel.guild_id)}), (OVERWRITE_ROLE, {str(role)} if role else set()),
                          (OVERWRITE_MEMBER, {str(user.id)})):
            deny = allow = 0
            for overwrite in source.overwrites:
                if overwrite["type"] == kind and overwrite["id"] in ids:
                    deny, allow = deny | int(overwrite["deny"]), allow | int(overwrite["allow"])
            allowed = allowed & ~deny | allow
        return allowed if allowed & VIEW_CHANNEL else 0

    def bot_permissions(self, channel: Channel) -> int:
        """The bot's permissions in the channel (`Channel.bot_permissions`; a thread's are its parent's)."""
        parent = self.channels.get(channel.parent_id or 0) if channel.is_thread else None
        return (parent or channel).bot_permissions

    async def delete_channel(self, channel: Channel, *, as_thread: bool = False, bot_offline: bool = False) -> None:
        """A moderator deletes the channel (CHANNEL_DELETE; THREAD_DELETE for a thread, or with `as_thread`
        for a bot that played in a thread). Later requests to it answer 404 Unknown Channel, a violation:
        the bot knows the channel is gone. With `bot_offline`, while no bot is connected: Discord sends no
        event then, and the guild's channel list at the next connection simply lacks it."""
        del self.channels[channel.id]
        if bot_offline or not self.bot_present(channel):
            return
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

    async def remove_bot(self, guild: Guild | None = None, *, bot_offline: bool = False) -> None:
        """The bot is kicked from the guild (GUILD_DELETE without `unavailable`): from then on the guild has
        not installed the app (its channel endpoints answer 403, code 50001; users' installs still work). With
        `bot_offline`, while no bot is connected: Discord sends no event then, and READY at the next
        connection simply lacks the guild."""
        removed = guild or self.default_guild
        removed.bot_installed, removed.removed = False, True   # the bot is out before Discord tells it
        if not bot_offline:
            await self.dispatch("GUILD_DELETE", {"id": str(removed.id)}, guild_id=removed.id)

    async def add_bot(self, guild: Guild, *, bot_offline: bool = False) -> None:
        """The server installs the app with its bot (GUILD_CREATE on the guild's shard; with `bot_offline`, no
        event: READY at the next connection lists the guild)."""
        guild.bot_installed, guild.removed = True, False
        if not bot_offline:
            await self.dispatch("GUILD_CREATE", self._guild_payload(guild), guild_id=guild.id)

    async def remove_member(self, user: User, guild: Guild | None = None) -> None:
        """The user leaves the guild (GUILD_MEMBER_REMOVE)."""
        guild_id = (guild or self.default_guild).id
        user.left_guilds.add(guild_id)
        if not self.guilds[guild_id].bot_installed:
            return
        await self.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": str(guild_id), "user": user.payload()},
                            guild_id=guild_id)

    def _member_payload(self, user: User, guild_id: int, *, with_user: bool = True) -> JsonObject:
        role = self._roles.get((guild_id, user.id))
        return user.member_payload(with_user=with_user, roles=[role] if role else [])


    def notified(self, user: User, channel: Channel | None = None) -> list[Message]:
        """The messages (of `channel`, or anywhere) whose appearance notified `user` (`Message.pings`), oldest first."""
        channels = [channel.id] if channel else list(self._messages)
        return [m for cid in channels for m in self._messages[cid] if user.id in m.pings]

    def messages(self, channel: Channel, *, viewer: User | None = None, deleted: bool = False) -> list[Message]:
        """Messages of the channel, oldest first: public ones plus the ephemeral ones `viewer` sees
        (`deleted=True`: also those deleted since)."""
        return [m for m in self._messages[channel.id]
                if (deleted or not m.deleted)
                and (m.ephemeral_to is None or (viewer is not None and m.ephemeral_to == viewer.id))]

    def last_message(self, channel: Channel, predicate: Callable[[Message], bool] = lambda m: True) -> Message:
        found = [m for m in self.messages(channel) if predicate(m)]
        if not found:
            raise AssertionError(f"no matching message in #{channel.name}: {self.messages(channel)}")
        return found[-1]

    async def wait_for_message(self, channel: Channel, predicate: Callable[[Message], bool] = lambda m: True,
                               *, after: Message | None = None, timeout: float = 10.0) -> Message:
        """Wait for a public message in `channel` (newer than `after`) matching `predicate`."""
        def found() -> Message | None:
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
        def found() -> Message | None:
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
                                    self._command_data(schema, built, resolved, channel),
                                    command=schema, timeout=timeout)

    async def autocomplete(self, user: User, channel: Channel, command: str, option: str, *, typed: str = "",
                           timeout: float = 10.0, **options: Any) -> list[JsonObject]:
        """The user types `typed` into `option` of "/command sub"; return the offered choices."""
        path = command.split()
        schema = self._find_command(path[0], channel.guild_id)
        built, resolved = self._build_options(schema, path, path[1:], {**options, option: typed}, focused=option)
        interaction = await self._interact(user, channel, INTERACTION_AUTOCOMPLETE,
                                           self._command_data(schema, built, resolved, channel),
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
                                    source=shown_by.source_message, parent=shown_by, timeout=timeout)

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

    def _find_command(self, name: str, guild_id: int | None) -> JsonObject:
        for key in ((guild_id, 1, name), (None, 1, name)):
            if key in self.commands:
                return self.commands[key]
        synced = sorted(n for (_, kind, n) in self.commands if kind == 1)
        raise FakeDiscordUsageError(f"/{name} is not a synced command; synced: {synced}")

    def _command_data(self, schema: JsonObject, options: list[JsonObject], resolved: JsonObject,
                      channel: Channel) -> JsonObject:
        if channel.is_private:
            resolved.pop("members", None)   # no guild, no members: users only
        data = {"id": schema["id"], "name": schema["name"], "type": 1, "options": options}
        if resolved:
            data["resolved"] = resolved
        if schema.get("guild_id"):
            data["guild_id"] = schema["guild_id"]
        return data

    def _build_options(self, node: JsonObject, path: list[str], rest: list[str], values: dict[str, Any],
                       focused: str | None) -> tuple[list[JsonObject], JsonObject]:
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

    def _option_value(self, path: list[str], option: JsonObject, value: Any, resolved: JsonObject) -> Any:
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
        expected: dict[int, type | tuple[type, ...]] = {OPTION_STRING: str, OPTION_INTEGER: int, OPTION_BOOLEAN: bool,
                                                        OPTION_NUMBER: (int, float)}
        if kind not in expected:
            raise FakeDiscordUsageError(f"{where}: option type {kind} is not supported by the fake")
        if not isinstance(value, expected[kind]) or (kind != OPTION_BOOLEAN and isinstance(value, bool)):
            raise FakeDiscordUsageError(f"{where}: Discord's client only sends type {kind} here")
        choices = option.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise FakeDiscordUsageError(f"{where}: not among the choices {[c['value'] for c in choices]}")
        if kind == OPTION_STRING and isinstance(value, str) \
                and not option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000):
            raise FakeDiscordUsageError(f"{where}: length outside the schema's bounds")
        if kind in (OPTION_INTEGER, OPTION_NUMBER) and not (
                option.get("min_value", -2**53) <= value <= option.get("max_value", 2**53)):
            raise FakeDiscordUsageError(f"{where}: outside the schema's bounds")
        return value

    async def _interact(self, user: User, channel: Channel, kind: int, data: JsonObject, *,
                        command: JsonObject | None = None, source: Message | None = None,
                        parent: Interaction | None = None, timeout: float) -> Interaction:
        """Send INTERACTION_CREATE as Discord would from where the user is. `source`: the message of the
        component; `parent`: the interaction whose modal is submitted."""
        if channel.is_private:
            if user not in channel.recipients:
                raise FakeDiscordUsageError(f"{user.name} is not in the private channel {channel.id}")
            guild = None
        else:
            guild = self.guilds[channel.guild_id or 0]
            if not self.in_guild(user, guild):
                raise FakeDiscordUsageError(f"{user.name} left the guild and cannot interact")
        permissions = self.permissions(user, channel)
        if not permissions & VIEW_CHANNEL:
            raise FakeDiscordUsageError(f"{user.name} cannot see #{channel.name}")
        context = CONTEXT_PRIVATE_CHANNEL if channel.is_private else CONTEXT_GUILD
        if source is not None or parent is not None:   # a component or modal: authorized as its message was
            origin = source.interaction if source is not None else parent
            owners = dict(origin.owners) if origin is not None else {str(GUILD_INSTALL): str(channel.guild_id)}
        else:
            owners = self._command_owners(user, channel, command)
        interaction = Interaction(
            id=next(self._ids), token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48), type=kind,
            application_id=self.application_id, guild_id=None if guild is None else guild.id, user=user,
            channel=channel, payload={}, created_at=self.now(), source_message=source, parent=parent, command=command,
            context=context, owners=owners,
            forced_ephemeral=(guild is not None and str(GUILD_INSTALL) not in owners
                              and not permissions & USE_EXTERNAL_APPS))
        payload = interaction.payload = {
            "id": str(interaction.id), "application_id": str(self.application_id), "type": kind,
            "token": interaction.token, "version": 1, "data": data, "channel_id": str(channel.id),
            "locale": user.locale, "entitlements": [], "authorizing_integration_owners": owners,
            "context": context, "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if guild is None:   # a DM or group DM between users: `user`, no member, the partial private channel
            payload.update(user=user.payload(), channel=channel.private_payload(user),
                           app_permissions=str(PRIVATE_CHANNEL_APP_PERMISSIONS))
        else:
            app_permissions = (self.bot_permissions(channel) if guild.bot_installed
                               else self._everyone_permissions(channel) & INTERACTION_RESPONSE_PERMISSIONS)
            payload.update(guild_id=str(guild.id),
                           guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                           channel={**channel.payload(), "permissions": str(permissions)},
                           member={**self._member_payload(user, guild.id), "permissions": str(permissions)},
                           guild_locale=guild.locale, app_permissions=str(app_permissions))
        if source is not None:
            payload["message"] = source.payload()
        interaction.shard_id = await self.dispatch("INTERACTION_CREATE", payload, guild_id=interaction.guild_id,
                                                   timeout=min(timeout, 10.0))
        self.interactions.append(interaction)
        self._by_token[interaction.token] = interaction
        interaction.created_at = self.now()
        await self.settle(interaction, timeout=timeout)
        return interaction

    def _command_owners(self, user: User, channel: Channel, command: JsonObject | None) -> dict[str, str]:
        """authorizing_integration_owners of a command used here: the server's install ("0": its id) where the
        bot is in the server, the user's ("1": their id) if they installed the app, each only if the command is
        declared for that installation (`integration_types`) and this context (`contexts`). A command declared
        for none of them does not show in Discord's client: a usage error."""
        context = CONTEXT_PRIVATE_CHANNEL if channel.is_private else CONTEXT_GUILD
        owners = {}
        if self.bot_present(channel):
            owners[str(GUILD_INSTALL)] = str(channel.guild_id)
        if user.installed:
            owners[str(USER_INSTALL)] = str(user.id)
        if command is None:
            return owners
        if command.get("guild_id"):   # a server's own command: that server's install only
            return {key: value for key, value in owners.items() if key == str(GUILD_INSTALL)}
        declared = command_integration_types(command)
        owners = {key: value for key, value in owners.items() if int(key) in declared}
        contexts = command_contexts(command)
        if context not in contexts or not owners:
            where = {CONTEXT_GUILD: "a server" + ("" if self.bot_present(channel) else " without the bot"),
                     CONTEXT_PRIVATE_CHANNEL: "a DM or group DM between users"}[context]
            raise FakeDiscordUsageError(
                f"/{command['name']} does not show for {user.name} in {where}: the command declares "
                f"integration_types={sorted(declared)} contexts={sorted(contexts)}; installed here: "
                f"server={self.bot_present(channel)} user={user.installed}")
        return owners

    def _everyone_permissions(self, channel: Channel) -> int:
        """@everyone's permissions in a server channel (its overwrite applied)."""
        source = self.channels.get(channel.parent_id or 0, channel) if channel.is_thread else channel
        allowed = MEMBER_PERMISSIONS
        for overwrite in source.overwrites:
            if overwrite["type"] == OVERWRITE_ROLE and overwrite["id"] == str(channel.guild_id):
                allowed = allowed & ~int(overwrite["deny"]) | int(overwrite["allow"])
        return allowed if allowed & VIEW_CHANNEL else 0

    async def settle(self, interaction: Interaction, *, timeout: float = 10.0) -> None:
        """Wait until the interaction is answered, a deferral completed, and the bot is quiet (`self.quiet`)."""
        await self.wait_until(lambda: interaction.responded_at is not None, timeout=timeout,
                              what=f"the response to {interaction.describe()} (on shard {interaction.shard_id}; "
                                   f"Discord shows 'This interaction failed' after {RESPONSE_DEADLINE_S:.0f} s)")
        responded_at, original = interaction.responded_at, interaction.original
        assert responded_at is not None   # what the wait above waited for
        if interaction.response_type == CALLBACK_DEFERRED_MESSAGE:
            assert original is not None   # the loading message the deferral created
            await self.wait_until(lambda: not original.thinking or original.deleted or interaction.followups,
                                  timeout=timeout, what=f"the deferred reply to {interaction.describe()}")
        elif interaction.response_type == CALLBACK_DEFERRED_UPDATE:
            # Its own answer, rather than any write to the channel: the answer before may still be finishing,
            # and a starved bot can be quiet between acknowledging a click and storing it. Some clicks are
            # answered through the channel only (a board reposted meanwhile, a bot restarted): any write counts
            # once OWN_ANSWER_S have passed without one.
            def answered() -> bool:
                return interaction.last_write > responded_at
            try:
                await self.wait_until(answered, timeout=min(timeout, OWN_ANSWER_S), what="its own answer")
            except TimeoutError:
                await self.wait_until(lambda: answered() or interaction.channel.last_write > responded_at,
                                      timeout=timeout, what=f"the update after deferring {interaction.describe()}")
        while (idle := self.now() - max(interaction.last_write, interaction.channel.last_write)) < self.quiet:
            await asyncio.sleep(self.quiet - idle)

    def _touch(self, channel_id: int, interaction: Interaction | None = None) -> None:
        moment = self.now()
        if channel_id in self.channels:   # (an interaction's answer may come after a moderator deleted its channel)
            self.channels[channel_id].last_write = moment
        if interaction is not None:
            interaction.last_write = moment
        self._notify()

    # ----- processes under test

    def client_process(self, argv: Sequence[str], *, env: dict[str, str] | None = None,
                       cwd: str | Path | None = None, log_path: str | Path | None = None,
                       shards: Sequence[int] | None = None, fork: bool = True) -> ClientProcess:
        """A discord.py program run as a subprocess with DISCORD_TOKEN, DISCORD_API_BASE and DISCORD_GATEWAY_URL
        set to this fake. `shards`: the shard ids it connects (default all); tell the program in `env`.
        `fork=False`: a fresh interpreter even in the test session (see ClientProcess)."""
        full_env = {**os.environ, "DISCORD_TOKEN": self.token, "DISCORD_API_BASE": self.api_base,
                    "DISCORD_GATEWAY_URL": self.gateway_url, **(env or {})}
        return ClientProcess(self, list(argv), full_env, cwd, Path(log_path) if log_path else None,
                             list(range(self.shard_count)) if shards is None else list(shards), fork=fork)
