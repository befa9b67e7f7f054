"""The fake's REST routes: commands, interaction callbacks, messages, threads, members, direct messages."""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from tests.fake_discord.constants import (
    ALLOWED_CALLBACKS,
    ATTACH_FILES,
    CALLBACK_AUTOCOMPLETE,
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_DEFERRED_UPDATE,
    CALLBACK_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_UPDATE,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    GLOBAL_SCOPE,
    INTENT_GUILD_MESSAGES,
    INTERACTION_COMMAND,
    INTERACTION_SCOPE,
    MANAGE_MESSAGES,
    NONCE_LENGTH_LIMIT,
    NONCE_WINDOW_S,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    RESPONSE_DEADLINE_S,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    USER_INSTALL_FOLLOWUP_LIMIT,
    VIEW_CHANNEL,
)
from tests.fake_discord.contract import JSON, MULTIPART, ContractTally, request_errors, response_gaps, success_status
from tests.fake_discord.counting import CountedRequest, GlobalLimiter, scope_of
from tests.fake_discord.entities import (
    Attachment,
    Channel,
    DiscordError,
    FakeDiscordUsageError,
    Guild,
    Hold,
    Interaction,
    JsonObject,
    Message,
    User,
    _iso_now,
)
from tests.fake_discord.limits import (
    _choice_problems,
    _length_problems,
    command_integration_types,
    command_problems,
    message_problems,
    modal_field_problems,
)

if TYPE_CHECKING:
    from tests.fake_discord.gateway import _GatewaySession

log = logging.getLogger(__name__)
USER_MENTION = re.compile(r"<@!?(\d+)>")
ROUTE = web.RequestKey("route", str)   # a request's route template, whose schemas check its body

# What a route answers: a JSON object or array, or nothing (204 No Content).
Answer = JsonObject | list[JsonObject] | None
# A route's handler: called with the request and the route's path parameters ("/channels/{channel}": channel=...)
Handler = Callable[..., Awaitable[Answer]]
# (method, template, the template as a pattern, handler)
Route = tuple[str, str, re.Pattern[str], Handler]


class RestMixin:
    """FakeDiscord's REST API v10: the routes a bot calls, with Discord's checks and errors."""

    if TYPE_CHECKING:   # what this part of FakeDiscord uses of the rest of it (driver.py, gateway.py)
        token: str
        token_lifetime_s: float
        application_id: int
        bot_user: JsonObject
        shard_count: int
        max_concurrency: int
        guilds: dict[int, Guild]
        users: dict[int, User]
        channels: dict[int, Channel]
        commands: dict[tuple[int | None, int, str], JsonObject]
        command_syncs: int
        refusals: list[str]
        requests: list[tuple[str, str]]
        counted: list[CountedRequest]
        contract: ContractTally
        rate_limited: list[tuple[str, str]]
        failed: list[tuple[str, str]]
        dropped: list[tuple[str, str]]
        global_limiter: GlobalLimiter | None
        _ids: Iterator[int]
        _routes: list[Route]
        _faults: dict[tuple[str, str], list[tuple[Callable[[], web.Response], bool]]]
        _holds: list[Hold]
        _messages: dict[int, list[Message]]
        _nonces: dict[tuple[int, str], tuple[Message, float]]
        _by_token: dict[str, Interaction]
        _dm_channels: dict[int, User]
        _dms: dict[int, list[Message]]

        @property
        def gateway_url(self) -> str: ...
        def now(self) -> float: ...
        def violation(self, text: str) -> None: ...
        def _notify(self) -> None: ...
        def _touch(self, channel_id: int, interaction: Interaction | None = None) -> None: ...
        def bot_present(self, channel: Channel) -> bool: ...
        def bot_permissions(self, channel: Channel) -> int: ...
        def in_guild(self, user: User, guild: Guild | int | None = None) -> bool: ...
        def messages(self, channel: Channel, *, viewer: User | None = None, deleted: bool = False) -> list[Message]: ...
        def _register_channel(self, channel: Channel) -> None: ...
        def _member_payload(self, user: User, guild_id: int, *, with_user: bool = True) -> JsonObject: ...
        def _session_for(self, guild_id: int | None) -> _GatewaySession | None: ...
        def _dispatch_if_connected(self, event: str, data: JsonObject, *, guild_id: int | None) -> None: ...

    def rate_limit(self, method: str, route: str, *, times: int = 1, retry_after: float = 0.2,
                   scope: str = "shared") -> None:
        """Answer the next `times` requests to `route` (a template of the route table, e.g.
        "/channels/{channel}/messages") with Discord's 429, as a bucket exhausted by other traffic
        would (`scope="global"`: the bot's global limit): the request is not carried out, and a client
        must wait `retry_after` and retry."""
        self._add_fault(method, route, times, lambda: _too_many_requests(retry_after, scope), carried_out=False)

    def fail(self, method: str, route: str, *, status: int = 503, times: int = 1, carried_out: bool = False) -> None:
        """Answer the next `times` requests to `route` with a server error as Discord's front end sends it
        during an incident (500, 502, 503, 504 or 524: `Via`, a JSON body). Not carried out, unless
        `carried_out` (the answer was lost on the way back: the message exists all the same)."""
        if status not in SERVER_ERRORS:
            raise FakeDiscordUsageError(f"{status} is not one of Discord's server errors {sorted(SERVER_ERRORS)}")
        self._add_fault(method, route, times, lambda: _server_error(status), carried_out=carried_out)

    def drop(self, method: str, route: str, *, times: int = 1, carried_out: bool = False) -> None:
        """Close the connection of the next `times` requests to `route` without an answer, as when the
        connection to Discord is lost mid-request: the client sees the server disconnect (aiohttp's
        ServerDisconnectedError), which discord.py raises at once on every route, the interaction's too
        (where it tries a `fail` five times over 25 s). Not carried out, unless `carried_out` (the answer was
        lost on the way back: the message exists all the same)."""
        self._add_fault(method, route, times, _Dropped, carried_out=carried_out)

    def clear_faults(self) -> None:
        """Discord is well again: the faults not yet answered (rate_limit, fail, drop) are forgotten."""
        self._faults.clear()

    def _add_fault(self, method: str, route: str, times: int, answer: Callable[[], web.Response],
                   carried_out: bool) -> None:
        if not any(m == method and template == route for m, template, _, _ in self._routes):
            raise FakeDiscordUsageError(f"no route {method} {route}")
        self._faults.setdefault((method, route), []).extend([(answer, carried_out)] * times)

    def hold(self, method: str, route: str, *, when: Callable[[Message | None], bool] = lambda m: True,
             before: bool = False) -> Hold:
        """Hold the next `route` request (a template of the route table) whose message passes `when`:
        carried out, its answer kept back until `hold.release()` (or, `before`, held before it is
        carried out; `when` then sees the message it targets, None for a POST; a bot killed meanwhile
        never sent it). `await hold.wait()` returns once the bot sent it: the moment a test kills the bot at."""
        if not any(m == method and template == route for m, template, _, _ in self._routes):
            raise FakeDiscordUsageError(f"no route {method} {route}")
        held = Hold(method, route, when, before)
        self._holds.append(held)
        return held

    def drop_hold(self, held: Hold) -> None:
        """Forget a hold whether or not it took a request (one never reached would take a later one)."""
        self._holds = [h for h in self._holds if h is not held]

    async def _held(self, method: str, template: str, params: dict[str, str], result: Answer, before: bool) -> None:
        """Keep the request back if a hold waits for it (a hold takes one request)."""
        for held in self._holds:
            if (held.method, held.route, held.before) != (method, template, before) or held.reached.is_set():
                continue
            message_id = params.get("message") if before else result.get("id") if isinstance(result, dict) else None
            found = next((m for m in self._messages.get(int(params.get("channel") or 0), [])
                          if str(m.id) == str(message_id)), None)
            if held.when(found):
                held.message = found
                held.reached.set()
                self._notify()
                await held.released.wait()
                return

    def _route_table(self) -> list[Route]:
        table: list[tuple[str, str, Handler]] = [
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
        """Answer a request and count it (`self.counted`): its scope, route, status and whether it was refused."""
        path = "/" + request.match_info["path"]
        self.requests.append((request.method, path))
        route = next(((template, match, handler) for method, template, pattern, handler in self._routes
                      if method == request.method and (match := pattern.match(path))), None)
        outcome: dict[str, Any] = {}
        response = await self._answer(request, path, route, outcome)
        dropped = isinstance(response, _Dropped)
        refused = 400 <= response.status < 499   # (499: the bot died before the request reached Discord)
        self.counted.append(CountedRequest(request.method, route[0] if route else path, path, scope_of(path),
                                           0 if dropped else response.status, outcome.get("code"), refused,
                                           refused and outcome.get("bot_at_fault", False)))
        if dropped and request.transport is not None:
            request.transport.close()   # no answer: the client sees the server disconnect
        return response

    async def _answer(self, request: web.Request, path: str, route: tuple[str, re.Match[str], Handler] | None,
                      outcome: dict[str, Any]) -> web.StreamResponse:
        if route is None:
            self.violation(f"unknown route {request.method} {path}")
            outcome.update(code=0, bot_at_fault=True)
            return _error(404, 0, "404: Not Found")
        template, match, handler = route
        method = request.method
        if self.global_limiter is not None and scope_of(path) == GLOBAL_SCOPE:
            retry_after = self.global_limiter.retry_after()
            if retry_after:
                log.info("global rate limit: %s %s answered 429", method, path)
                self.rate_limited.append((method, path))
                outcome.update(bot_at_fault=True)
                self._notify()
                return _too_many_requests(retry_after, "global")
        answer = None   # a fault's answer, given instead of the route's
        faults = self._faults.get((method, template))
        if faults:
            fault, carried_out = faults.pop(0)
            answer = fault()
            lost = self.dropped if isinstance(answer, _Dropped) else self.rate_limited if answer.status == 429 \
                else self.failed
            lost.append((method, path))
            if not carried_out:
                self._notify()
                return answer
        webhook = scope_of(path) == INTERACTION_SCOPE
        if not webhook and request.headers.get("Authorization") != f"Bot {self.token}":
            outcome.update(code=0, bot_at_fault=True)
            return _error(401, 0, "401: Unauthorized")
        request[ROUTE] = template   # the route whose schemas check the body (_check_contract)
        try:
            await self._held(method, template, match.groupdict(), None, before=True)
            if request.transport is None or request.transport.is_closing():
                return web.Response(status=499)   # the bot died meanwhile: the request never reached Discord
            result = await handler(request, **match.groupdict())
            await self._held(method, template, match.groupdict(), result, before=False)
        except DiscordError as error:
            outcome.update(code=error.code, bot_at_fault=error.bot_at_fault)
            if error.bot_at_fault:
                self.violation(f"{request.method} {path}: {error.message}")
            else:
                log.info("refused (not a rule violation): %s %s: %s", request.method, path, error.message)
                self.refusals.append(f"{request.method} {path}: {error.message}")
                self._notify()
            return _error(error.status, error.code, error.message, error.errors)
        if answer is not None:   # carried out, but the answer was lost on the way back
            self._notify()
            return answer
        if result is None:
            return web.Response(status=204)
        status = success_status(method, template)
        self._check_answer(method, template, status, result)
        return _json(result, status)

    def _check_contract(self, request: web.Request, body: Any, media: str) -> None:
        """Refuse a body that Discord's OpenAPI document refuses (contract.py) as Discord does: 400, 50035,
        "Invalid Form Body" and the fields' paths; the bot's fault."""
        started = time.perf_counter()
        found = request_errors(request.method, request[ROUTE], media, body)
        self.contract.requests += 1
        self.contract.seconds += time.perf_counter() - started
        if found is not None:
            self.contract.violations.append(f"{request.method} {request[ROUTE]}: {found}")
            raise DiscordError(400, 50035, str(found), errors=found.errors)

    def _check_answer(self, method: str, template: str, status: int, answer: Answer) -> None:
        """Note where the fake's answer departs from what Discord answers (contract.py; the fake's own tests
        and the e2e summary show them)."""
        started = time.perf_counter()
        gaps = response_gaps(method, template, status, answer)
        self.contract.answers += 1
        self.contract.seconds += time.perf_counter() - started
        if gaps:
            log.error("the fake's answer departs from Discord's: %s", "; ".join(gaps))
            self.contract.gaps += gaps

    async def _json_body(self, request: web.Request) -> Any:
        """A JSON body, checked against the route's request schema."""
        body = await request.json()
        self._check_contract(request, body, JSON)
        return body

    async def _read_body(self, request: web.Request) -> tuple[JsonObject, dict[int, Attachment]]:
        """JSON body, or multipart payload_json + files[n] parts."""
        if not request.content_type.startswith("multipart/"):
            return (await self._json_body(request) if request.can_read_body else {}), {}
        body: JsonObject = {}
        files: dict[int, Attachment] = {}
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                raise DiscordError(400, 50035, "a multipart body nested in a multipart body")
            if part.name == "payload_json":
                body = json.loads(await part.text())
            elif part.name and (found := re.fullmatch(r"files\[(\d+)\]", part.name)):
                files[int(found[1])] = Attachment(next(self._ids), part.filename or "",
                                                  bytes(await part.read()),
                                                  part.headers.get("Content-Type", "application/octet-stream"))
            else:
                raise DiscordError(400, 50035, f"unexpected multipart field {part.name!r}")
        self._check_contract(request, body, MULTIPART)
        return body, files

    async def _get_me(self, request: web.Request) -> JsonObject:
        return self.bot_user

    async def _get_application(self, request: web.Request) -> JsonObject:
        owner = User(self.application_id + 1, "owner").payload()
        del owner["bot"]
        return {"id": str(self.application_id), "name": "Tablero", "icon": None, "description": "", "type": None,
                "bot_public": True, "bot_require_code_grant": False, "owner": owner, "verify_key": "0" * 64,
                "flags": 0, "flags_new": "0", "team": None, "summary": "", "rpc_origins": [], "bot": self.bot_user,
                "redirect_uris": [], "interactions_endpoint_url": None, "role_connections_verification_url": None,
                "approximate_guild_count": len(self.guilds), "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0, "explicit_content_filter": 0,
                "eligible_oauth2_scopes": ["applications.commands", "bot"]}

    async def _get_gateway(self, request: web.Request) -> JsonObject:
        return {"url": self.gateway_url, "shards": self.shard_count,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                        "max_concurrency": self.max_concurrency}}

    def _check_guild_access(self, guild: str) -> None:
        found = self.guilds.get(int(guild))
        if found is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        if not found.bot_installed:
            raise DiscordError(403, 50001, f"Missing Access: the bot is not in the server {found.name}",
                               bot_at_fault=not found.removed)

    def _check_app(self, app: str) -> None:
        if int(app) != self.application_id:
            raise DiscordError(404, 10002, "Unknown Application")

    async def _put_commands(self, request: web.Request, app: str, guild: str | None = None) -> list[JsonObject]:
        self._check_app(app)
        guild_id = int(guild) if guild else None
        if guild:
            self._check_guild_access(guild)
        commands = await self._json_body(request)
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
        return [_command_answer(entry) for entry in stored]

    async def _get_commands(self, request: web.Request, app: str, guild: str | None = None) -> list[JsonObject]:
        self._check_app(app)
        guild_id = int(guild) if guild else None
        if guild:
            self._check_guild_access(guild)
        return [_command_answer(c) for key, c in self.commands.items() if key[0] == guild_id]

    # interaction responses

    def _interaction(self, token: str, *, interaction_id: str | None = None, app: str | None = None) -> Interaction:
        interaction = self._by_token.get(token)
        if interaction is None or (interaction_id is not None and str(interaction.id) != interaction_id):
            raise DiscordError(404, 10062, "Unknown interaction")
        if app is not None:
            self._check_app(app)
        age = self.now() - interaction.created_at
        if age > self.token_lifetime_s:
            lifetime = self.token_lifetime_s
            limit = f"{lifetime / 60:g} minutes" if lifetime >= 60 else f"{lifetime:g} s"
            raise DiscordError(401, 50027, f"Invalid Webhook Token: {interaction.describe()} is {age:.0f} s old, "
                                           f"older than {limit}")
        return interaction

    async def _callback(self, request: web.Request, interaction: str, token: str) -> JsonObject | None:
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
            message = self._store_message(ia.channel, _as_answered(ia, data), files, interaction=ia)
        elif kind == CALLBACK_DEFERRED_MESSAGE:
            loading = {"flags": FLAG_LOADING | data.get("flags", 0) & FLAG_EPHEMERAL}
            message = self._store_message(ia.channel, _as_answered(ia, loading), {}, interaction=ia)
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
        # The interaction callback response (with_response): a message only for the callbacks that create or
        # update one with content (receiving-and-responding#interaction-callback-interaction-callback-resource-object)
        answer: JsonObject = {"interaction": {"id": str(ia.id), "type": ia.type}}
        if message is not None and kind != CALLBACK_DEFERRED_UPDATE:
            answer["interaction"].update(response_message_id=str(message.id),
                                         response_message_loading=kind == CALLBACK_DEFERRED_MESSAGE,
                                         response_message_ephemeral=message.ephemeral)
            if kind in (CALLBACK_MESSAGE, CALLBACK_UPDATE):
                answer["resource"] = {"type": kind, "message": message.payload()}
        return answer

    def _choices_problems(self, ia: Interaction, choices: object) -> list[str]:
        if not isinstance(choices, list):
            return [f"choices must be a list, got {choices!r}"]
        problems = [] if len(choices) <= 25 else [f"{len(choices)} choices (max 25)"]
        assert ia.command is not None   # an autocomplete interaction carries its command (FakeDiscord.autocomplete)
        option = _focused_option_schema(ia.command, ia.payload["data"])
        for choice in choices:
            problems += _choice_problems(f"{ia.describe()} {option['name']}", choice, option["type"])
        return problems

    def _current(self, message: Message) -> Message:
        return next(m for m in self._messages[message.channel_id] if m.id == message.id)

    async def _followup(self, request: web.Request, app: str, token: str) -> JsonObject:
        ia = self._interaction(token, app=app)
        body, files = await self._read_body(request)
        if ia.responded_at is None:
            raise DiscordError(404, 10015, f"Unknown Webhook: followup before the first response to {ia.describe()}")
        if ia.user_installed_only and ia.followups_sent >= USER_INSTALL_FOLLOWUP_LIMIT:
            raise DiscordError(400, 40094, f"This interaction has hit the maximum number of follow up messages: "
                                           f"{ia.describe()} (user install only) sent {ia.followups_sent}")
        self._check_message(body, files, creating=True)
        if ia.response_type == CALLBACK_DEFERRED_MESSAGE and ia.original is not None and ia.original.thinking \
                and not ia.original.deleted:   # deleted, the loading message leaves follow-ups their own
            # Discord (deprecated behaviour): right after a deferral, a follow-up edits the loading message
            # instead of creating one, which stays as ephemeral (or not) as the deferral made it
            self._apply_edit(ia.original, {key: value for key, value in body.items() if key != "flags"}, files)
            self._touch(ia.channel.id, ia)
            return ia.original.payload()
        message = self._store_message(ia.channel, _as_answered(ia, body), files, interaction=ia)
        ia.messages.append(message)
        ia.followups_sent += 1
        self._touch(ia.channel.id, ia)
        return message.payload()   # `wait` is always true for interaction follow-ups

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

    async def _get_webhook_message(self, request: web.Request, app: str, token: str, message: str) -> JsonObject:
        return self._webhook_message(self._interaction(token, app=app), message).payload()

    async def _edit_webhook_message(self, request: web.Request, app: str, token: str, message: str) -> JsonObject:
        ia = self._interaction(token, app=app)
        target = self._webhook_message(ia, message)
        body, files = await self._read_body(request)
        self._check_message(body, files, creating=target.thinking, existing=target.attachments)
        self._apply_edit(target, body, files)
        if target not in ia.messages:
            ia.messages.append(target)
        self._touch(ia.channel.id, ia)
        return target.payload()

    async def _delete_webhook_message(self, request: web.Request, app: str, token: str, message: str) -> None:
        ia = self._interaction(token, app=app)
        self._delete(self._webhook_message(ia, message))
        self._touch(ia.channel.id, ia)

    # channel messages

    def _channel(self, channel_id: str, needed: int = VIEW_CHANNEL) -> Channel:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        if not self.bot_present(channel):
            where = "a private channel between users" if channel.is_private else "a server without the bot"
            guild = self.guilds.get(channel.guild_id or 0)
            raise DiscordError(403, 50001, f"Missing Access: #{channel.name or channel.id} is {where} "
                                           "(only interaction endpoints work there)",
                               bot_at_fault=guild is None or not guild.removed)   # removed: maybe in flight
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

    async def _get_channel(self, request: web.Request, channel: str) -> JsonObject:
        return self._channel(channel).payload()

    async def _list_messages(self, request: web.Request, channel: str) -> list[JsonObject]:
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

    async def _post_message(self, request: web.Request, channel: str) -> JsonObject:
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

    async def _get_message(self, request: web.Request, channel: str, message: str) -> JsonObject:
        target = self._channel(channel, VIEW_CHANNEL | READ_MESSAGE_HISTORY)
        return self._channel_message(target, message).payload()

    async def _edit_message(self, request: web.Request, channel: str, message: str) -> JsonObject:
        target = self._channel(channel)
        found = self._channel_message(target, message)
        if found.author["id"] != self.bot_user["id"]:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await self._read_body(request)
        self._check_message(body, files, creating=False, existing=found.attachments)
        self._apply_edit(found, body, files)
        self._touch(target.id)
        return found.payload()

    async def _delete_message(self, request: web.Request, channel: str, message: str) -> None:
        target = self._channel(channel)
        found = self._channel_message(target, message)
        if found.author["id"] != self.bot_user["id"] and not target.bot_permissions & MANAGE_MESSAGES:
            raise DiscordError(403, 50013, "Missing Permissions")
        self._delete(found)
        self._touch(target.id)

    async def _typing(self, request: web.Request, channel: str) -> None:
        self._channel(channel, VIEW_CHANNEL | SEND_MESSAGES)

    async def _get_member(self, request: web.Request, guild: str, user: str) -> JsonObject:
        self._check_guild_access(guild)
        found = self.users.get(int(user))
        if int(guild) not in self.guilds or found is None or not self.in_guild(found, int(guild)):
            raise DiscordError(404, 10007, "Unknown Member")
        return self._member_payload(found, int(guild))

    async def _start_thread(self, request: web.Request, channel: str, message: str | None = None) -> JsonObject:
        """Start a thread (without a message: type 11 or 12; from a message: public, with the message's id)."""
        parent = self._channel(channel, VIEW_CHANNEL)
        body = await self._json_body(request)
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

    async def _open_dm(self, request: web.Request) -> JsonObject:
        """POST /users/@me/channels: the DM channel with a user (the same one each time)."""
        recipient = self.users.get(int((await self._json_body(request)).get("recipient_id", 0)))
        if recipient is None:
            raise DiscordError(400, 50035, "Invalid Form Body: recipient_id is not a known user")
        channel_id = next((cid for cid, user in self._dm_channels.items() if user is recipient), None)
        if channel_id is None:
            channel_id = next(self._ids)
            self._dm_channels[channel_id] = recipient
        return {"id": str(channel_id), "type": 1, "last_message_id": None, "flags": 0,
                "recipients": [recipient.payload()]}

    async def _post_dm(self, request: web.Request, recipient: User, channel_id: int) -> JsonObject:
        body, files = await self._read_body(request)
        self._check_message(body, files, creating=True)
        if not recipient.dms_open:
            raise DiscordError(403, 50007, "Cannot send messages to this user", bot_at_fault=False)
        message = Message(next(self._ids), channel_id, self.bot_user)
        self._apply_edit(message, body, files, counting=False)
        self._dms.setdefault(recipient.id, []).append(message)
        self._notify()
        return message.payload()

    async def _get_user(self, request: web.Request, user: str) -> JsonObject:
        found = self.users.get(int(user))
        if found is None:
            raise DiscordError(404, 10013, "Unknown User")
        return found.payload()

    # storing messages

    def _check_message(self, data: JsonObject, files: dict[int, Attachment], *, creating: bool,
                       existing: Sequence[Attachment] = ()) -> None:
        problems = message_problems(data, files, creating=creating, existing=list(existing))
        if problems:
            raise DiscordError(400, 50035 if "empty" not in problems[0] else 50006,
                               "Invalid Form Body: " + "; ".join(problems))

    def _store_message(self, channel: Channel, data: JsonObject, files: dict[int, Attachment], *,
                       interaction: Interaction | None = None) -> Message:
        """A new message; ephemeral (`data`'s flags, only an interaction's) to the interaction's user."""
        ephemeral = interaction is not None and data.get("flags", 0) & FLAG_EPHEMERAL
        message = Message(next(self._ids), channel.id, self.bot_user, interaction=interaction,
                          ephemeral_to=interaction.user.id if interaction is not None and ephemeral else None,
                          flags=data.get("flags", 0) & (FLAG_EPHEMERAL | FLAG_LOADING | 4 | 4096),
                          type=20 if interaction is not None and interaction.type == INTERACTION_COMMAND else 0)
        self._apply_edit(message, data, files, counting=False)
        self._messages[channel.id].append(message)
        if not ephemeral and not message.thinking:
            message.pings = _pings(data, message.content)
            self._dispatch_message_event("MESSAGE_CREATE", message)
        return message

    def _apply_edit(self, message: Message, data: JsonObject, files: dict[int, Attachment], *,
                    counting: bool = True) -> None:
        for entry in data.get("attachments") or []:
            if int(entry["id"]) in files:
                files[int(entry["id"])].filename = entry.get("filename") or files[int(entry["id"])].filename
                files[int(entry["id"])].description = entry.get("description")
        if "attachments" in data:
            kept = {int(entry["id"]) for entry in data["attachments"] or []}
            message.attachments = [a for a in message.attachments if a.id in kept]
        message.attachments += [files[key] for key in sorted(files)]
        message.pictured = message.pictured or bool(message.attachments)
        for key in ("content", "embeds", "components"):
            if key in data:
                setattr(message, key, data[key] if data[key] is not None else ("" if key == "content" else []))
        for number, item in enumerate((i for row in message.components for i in [row, *row.get("components", [])]), 1):
            item.setdefault("id", number)
            if isinstance(item.get("emoji"), dict) and item["emoji"].get("id") is None:
                item["emoji"] = {"name": item["emoji"]["name"]}   # a Unicode emoji: Discord answers its name alone
        if message.thinking and counting:
            message.flags &= ~FLAG_LOADING  # the deferred response becomes the real one
            if message.ephemeral_to is None:
                message.pings = _pings(data, message.content)
                self._dispatch_message_event("MESSAGE_CREATE", message)
        elif counting:
            message.edits += 1
            message.edited_timestamp = _iso_now()
            if message.ephemeral_to is None:
                self._dispatch_message_event("MESSAGE_UPDATE", message)

    def _delete(self, message: Message) -> None:
        message.deleted = True
        message.deleted_at = time.monotonic()
        if message.ephemeral_to is None:
            self._dispatch_message_event("MESSAGE_DELETE", message)

    def _dispatch_message_event(self, event: str, message: Message) -> None:
        channel = self.channels.get(message.channel_id)
        if channel is None or not self.bot_present(channel):
            return   # the bot receives no events of a place it is not in
        session = self._session_for(channel.guild_id)
        if not session or not session.intents & INTENT_GUILD_MESSAGES:
            return
        guild_id = channel.guild_id
        data = {"id": str(message.id), "channel_id": str(message.channel_id), "guild_id": str(guild_id)}
        if event != "MESSAGE_DELETE":
            data = {**message.payload(), "guild_id": str(guild_id)}
        session.dispatch(event, data)


def _command_answer(command: JsonObject) -> JsonObject:
    """A stored command as Discord answers it: with the defaults of what the bot left out."""
    return {**command, "description": command.get("description") or "",
            "default_member_permissions": command.get("default_member_permissions"),
            "integration_types": sorted(command_integration_types(command)),
            "contexts": command.get("contexts"), "nsfw": bool(command.get("nsfw"))}


def _as_answered(ia: Interaction, data: JsonObject) -> JsonObject:
    """A message the interaction's answer creates, as Discord stores it: ephemeral where Discord forces it
    (`Interaction.forced_ephemeral`; topics/permissions, USE_EXTERNAL_APPS), whatever flags the bot sent."""
    return {**data, "flags": data.get("flags", 0) | FLAG_EPHEMERAL} if ia.forced_ephemeral else data


def _pings(data: JsonObject, content: str) -> list[int]:
    """Users a new public message notifies: mentioned in its content and allowed by `allowed_mentions`
    (absent: all of them). Edits notify nobody."""
    mentioned = [int(user_id) for user_id in USER_MENTION.findall(content)]
    allowed = data.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return mentioned
    listed = {int(user_id) for user_id in allowed.get("users") or []}
    return [user_id for user_id in mentioned if user_id in listed]


def _focused_option_schema(command: JsonObject, data: JsonObject) -> JsonObject:
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


def _error(status: int, code: int, message: str, errors: JsonObject | None = None) -> web.Response:
    """Discord's error body; an Invalid Form Body (50035) says what is wrong where in `errors`."""
    if errors is not None:
        return _json({"message": "Invalid Form Body", "code": code, "errors": errors}, status)
    return _json({"message": message, "code": code}, status)


def _too_many_requests(retry_after: float, scope: str = "shared") -> web.Response:
    """Discord's 429 for an exhausted bucket (a 429 without `Via` would be Cloudflare's ban)."""
    is_global = scope == GLOBAL_SCOPE
    response = _json({"message": "You are being rate limited.", "retry_after": round(retry_after, 3),
                      "global": is_global}, 429)
    response.headers.update({"Via": "1.1 google", "Retry-After": str(max(1, math.ceil(retry_after))),
                             "X-RateLimit-Scope": scope})
    if is_global:   # the global limit is no route's bucket: no bucket headers
        response.headers["X-RateLimit-Global"] = "true"
    else:
        response.headers.update({"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                                 "X-RateLimit-Reset-After": str(retry_after), "X-RateLimit-Bucket": "fake-bucket"})
    return response


# Discord's server errors: discord.py retries 500, 502, 504 and 524 itself (five tries, 25 s), not 503; on the
# interaction's routes (its webhook adapter) it retries every one of them.
SERVER_ERRORS = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
                 504: "Gateway Timeout", 524: "A timeout occurred"}


def _server_error(status: int) -> web.Response:
    """A server error as Discord's front end answers it during an incident (through Google's proxy: `Via`)."""
    response = _json({"message": f"{status}: {SERVER_ERRORS[status]}", "code": 0}, status)
    response.headers["Via"] = "1.1 google"
    return response


class _Dropped(web.Response):
    """A fault's answer never sent (`drop`): the connection is closed instead."""
