"""A fake Discord on 127.0.0.1 for end-to-end tests of the unmodified discord.py client.

It speaks enough of API v10 - REST under ``fake.api_base`` and the gateway websocket that
``GET /gateway/bot`` points to (zlib-stream or uncompressed JSON) - for a bot to log in, sync
its application commands, receive INTERACTION_CREATE and answer it. It keeps Discord's rules:
a reply Discord would reject is answered with Discord's error AND recorded as a violation, and
``fake.assert_clean()`` (called by the ``fake_discord`` fixture) fails the test. Unknown routes
are violations too. A refusal that is not the bot's fault - a direct message to a user whose DMs
are closed (403, code 50007), an edit of a message a moderator deleted (404, code 10008) - is
answered the same way but recorded in ``fake.refusals`` instead.

Usage (see tests/conftest.py for the fixtures; ``@pytest.mark.fake_discord(shard_count=2)`` passes options)::

    fake = FakeDiscord(); await fake.start()          # or the `fake_discord` fixture
    alice = fake.add_user("alice", locale="fr")
    mod = fake.add_user("mod", permissions=MEMBER_PERMISSIONS | MANAGE_MESSAGES)  # extra bits: a role of their own
    table = fake.add_channel("table")                  # in the default guild (fake.default_guild, fake.guild_id)
    bot = fake.client_process([sys.executable, "-m", "bot"], env={...})
    await bot.start()                                  # waits for READY and a command sync
    reply = await fake.slash(alice, table, "game new", game="parcheesi", teams=False)
    reply.content, reply.ephemeral, reply.files[0].bytes, reply.files[0].description, reply.message.buttons
    choices = await fake.autocomplete(alice, table, "game move", "move", typed="Y")
    await fake.click(alice, reply.message, label="Join")   # or custom_id=...
    await fake.select(alice, message, custom_id, ["value"])
    await fake.forge_click(alice, message, custom_id="x:99999999999999999999")  # any custom_id, not on the message
    await fake.forge_select(alice, message, "pawn", ["not-an-option"]); fake.unanswered()  # none after 3 s?
    msg = await fake.wait_for_message(table, lambda m: m.files)
    shy = fake.add_user("shy", dms_open=False)         # direct messages to shy answer 403 (50007)
    fake.rate_limit("POST", "/channels/{channel}/messages", times=2)   # the next two posts answer 429
    fake.fail("POST", "/channels/{channel}/messages")  # 503 (status=502...; carried_out=True: posted all the same)
    fake.drop("POST", "/webhooks/{app}/{token}")       # the connection closed unanswered (discord.py: at once)
    await fake.delete_message(msg, by=mod)             # MESSAGE_DELETE; the bot's edits then answer 404 (10008)
    msg.pings                                          # user ids Discord notified when it appeared (edits: none)
    await fake.delete_channel(table)                   # CHANNEL_DELETE (a thread, or as_thread=True: THREAD_DELETE)
    dm = await fake.wait_for_dm(alice, lambda m: "turn" in m.content); fake.dms(alice)
    fake.messages(table)                               # what users see, oldest first
    fake.notified(alice, table)                        # messages whose appearance notified alice
    held = fake.hold("POST", "/channels/{channel}/messages", when=lambda m: m.files)  # carried out, answer kept
    await held.wait(); await bot.kill(); held.release()   # (before=True: held before it is carried out)
    await bot.terminate(); await bot.kill(); await bot.start()

Several guilds, shards, private channels, threads::

    fake = FakeDiscord(shard_count=2)                  # GET /gateway/bot answers shards=2
    north = fake.add_guild("North", locale="fr", shard=(1, 2))   # an id on shard 1 of 2; fake.shard_of(north) == 1
    hall = fake.add_channel("hall", guild=north)
    one = fake.client_process(argv, env={"TABLERO_SHARD_COUNT": "2", "TABLERO_SHARD_IDS": "1"}, shards=[1])
    await one.start()                                  # waits for shard 1's IDENTIFY (fake.identified: [(1, 2)])
    reply = await fake.slash(alice, hall, ...); reply.shard_id   # dispatched on shard 1 only
    await fake.drop_gateway(1)                         # that shard resumes (code=4009: it identifies afresh)
    secret = fake.add_channel("secret", private=True, members=[alice])  # @everyone denied View Channel
    fake.permissions(alice, secret); fake.bot_permissions(secret)  # as sent in member.permissions / app_permissions
    fake.dispatched(1)                                 # [(event name, data)] sent on shard 1, oldest first
    fake.threads(table)                                # threads the bot started (POST /channels/{id}/threads)

Each guild's events (interactions, MESSAGE_*, CHANNEL_*, THREAD_*, GUILD_*) go only to the session of the
shard ``(guild_id >> 22) % shard_count``; events without a guild to shard 0. A driver call to a guild
whose shard has no bot connected fails with a TimeoutError naming the shard. discord.py dials its default
gateway when given an explicit shard count: a client must set ``DiscordWebSocket.DEFAULT_GATEWAY`` from
``DISCORD_GATEWAY_URL`` (set by ``client_process``), and it waits 5 s before each non-first shard's IDENTIFY.
Bot posts with ``nonce`` + ``enforce_nonce`` (discord.py's ``send(nonce=...)`` sets both) return the first
message for a repeated nonce in the channel within NONCE_WINDOW_S; ``GET /channels/{id}/messages`` pages
with limit/before/after/around, newest first.

Where the bot is not present: DMs and group DMs between users, servers where only users installed the app
(Discord's "user install"; see docs/dm.md). Interactions there carry ``context`` (0 a server, 2 a DM or group
DM between users) and ``authorizing_integration_owners`` ({"0": guild id} where the server installed the app,
{"1": user id} where the invoking user did, both when both; a component or modal: those of its message)::

    alice = fake.add_user("alice", installed=True)     # or fake.install_app(alice) (installed=False removes it)
    group = fake.add_group_dm(alice, bob, carol, name="friends")   # channel type 3, 2..10 users, owner: the first
    dm = fake.add_dm(alice, bob)                       # channel type 1 between two users
    elsewhere = fake.add_guild("Elsewhere", bot_installed=False)   # no GUILD_CREATE, no events of it
    await fake.add_bot(elsewhere); await fake.remove_bot(elsewhere)   # the server adds the bot, kicks it
    hall = fake.add_channel("hall", guild=elsewhere)
    fake.bot_present(group)                            # False: channel endpoints answer 403 (50001), a violation
    reply = await fake.slash(alice, group, "game new", ...)  # ia.context, ia.owners, ia.user_installed_only
    await fake.click(bob, reply.message, label="Join") # anyone who sees a button may click it

A slash command shows only where it is declared (``integration_types``: absent means [0], the server's install;
``contexts``: absent means all) AND installed (the server's install where the bot is, the user's if they
installed the app): elsewhere ``slash``/``autocomplete`` raise FakeDiscordUsageError, as Discord's client would
not offer it. ``app_permissions`` is what Discord sends: ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE in (group)
DMs; in a server without the bot, @everyone's limited to those and USE_EXTERNAL_EMOJIS. Interaction endpoints work
everywhere; where only a user installed the app, the 6th follow-up answers 400 (40094). Tokens expire after
``FakeDiscord(token_lifetime_s=...)`` (default 15 min) on the fake's clock (``advance_clock``): 401 (50027).
In a server without the bot, a member without Use External Apps (USE_EXTERNAL_APPS: @everyone has it unless an
overwrite denies it) gets every message of the answer ephemeral, the response (deferred or not) and follow-ups,
whatever their flags; the callback says so (``response_message_ephemeral``), as do the messages' flags (64)::

    hall = fake.add_channel("hall", guild=elsewhere, overwrites=[
        {"id": str(elsewhere.id), "type": OVERWRITE_ROLE, "allow": "0", "deny": str(USE_EXTERNAL_APPS)}])
    (await fake.slash(alice, hall, "game new", ...)).original.ephemeral   # True; ia.forced_ephemeral

Counting: every REST request is in ``fake.counted`` (CountedRequest: method, route template, path, scope
"global" or "interaction", status, code, refused, bot_at_fault)::

    mark = len(fake.counted); ...; counts = fake.counts(mark)   # or fake.counts() for all
    counts.global_requests, counts.interaction_requests        # against the 50/s global limit, or exempt
    counts.by_route("global")                                  # Counter {"POST /channels/{channel}/messages": 2}
    counts.refused                                             # answered 4xx (403 50001, 40094, 50027, 429...)
    fake.global_requests, fake.interaction_requests, fake.refused   # the same over the whole test
    FakeDiscord(global_limit=True)   # or @pytest.mark.fake_discord(global_limit=True): > 50 global-scope
                                     # requests in any second answer 429 {"global": true} (X-RateLimit-Global,
                                     # X-RateLimit-Scope: global, Retry-After); interaction endpoints exempt

Each driver call returns an ``Interaction`` once it is settled: answered, any deferral
completed, and no more writes for a short quiet period. ``interaction.ack_seconds`` is the
delay of the first response; ``interaction.messages`` the messages it created or edited.
"""

# The package's public names: tests import them from tests.fake_discord.
from tests.fake_discord.constants import (
    ADD_REACTIONS,
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    ALLOWED_CALLBACKS,
    ATTACH_FILES,
    ATTACHMENT_DESCRIPTION_LIMIT,
    ATTACHMENT_SIZE_LIMIT,
    BOT_PERMISSIONS,
    BUTTON,
    CALLBACK_AUTOCOMPLETE,
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_DEFERRED_UPDATE,
    CALLBACK_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_UPDATE,
    COMMAND_NAME,
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    CONTEXT_PRIVATE_CHANNEL,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DISCORD_EPOCH_MS,
    DM_CHANNEL,
    EMBED_LINKS,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    GLOBAL_LIMIT_PER_S,
    GLOBAL_SCOPE,
    GROUP_DM_CHANNEL,
    GUILD_INSTALL,
    INTENT_GUILD_MESSAGES,
    INTERACTION_AUTOCOMPLETE,
    INTERACTION_COMMAND,
    INTERACTION_COMPONENT,
    INTERACTION_MODAL,
    INTERACTION_SCOPE,
    LINK_STYLE,
    MANAGE_MESSAGES,
    MEMBER_PERMISSIONS,
    MENTION_EVERYONE,
    NONCE_LENGTH_LIMIT,
    NONCE_WINDOW_S,
    OP_DISPATCH,
    OP_HEARTBEAT,
    OP_HEARTBEAT_ACK,
    OP_HELLO,
    OP_IDENTIFY,
    OP_INVALID_SESSION,
    OP_PRESENCE,
    OP_REQUEST_MEMBERS,
    OP_RESUME,
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
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    RESPONSE_DEADLINE_S,
    SELECTS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    SENDABLE_FLAGS,
    STRING_SELECT,
    TEXT_CHANNEL,
    TEXT_INPUT,
    TOKEN_LIFETIME_S,
    USE_APPLICATION_COMMANDS,
    USE_EXTERNAL_APPS,
    USE_EXTERNAL_EMOJIS,
    USER_INSTALL,
    USER_INSTALL_FOLLOWUP_LIMIT,
    VIEW_CHANNEL,
)
from tests.fake_discord.counting import CountedRequest, RequestCounts
from tests.fake_discord.driver import FakeDiscord
from tests.fake_discord.entities import (
    Attachment,
    Channel,
    DiscordError,
    FakeDiscordUsageError,
    Guild,
    Hold,
    Interaction,
    Message,
    User,
)
from tests.fake_discord.limits import (
    command_problems,
    component_problems,
    embed_problems,
    message_problems,
    modal_field_problems,
)
from tests.fake_discord.process import ClientProcess

# Re-exported: ruff flags an import missing here (F401) and a name here never imported (F822).
__all__ = [
    "ADD_REACTIONS", "ADMINISTRATOR", "ALL_PERMISSIONS", "ALLOWED_CALLBACKS", "ATTACH_FILES",
    "ATTACHMENT_DESCRIPTION_LIMIT", "ATTACHMENT_SIZE_LIMIT", "BOT_PERMISSIONS", "BUTTON", "CALLBACK_AUTOCOMPLETE",
    "CALLBACK_DEFERRED_MESSAGE", "CALLBACK_DEFERRED_UPDATE", "CALLBACK_MESSAGE", "CALLBACK_MODAL", "CALLBACK_UPDATE",
    "COMMAND_NAME", "CONTEXT_BOT_DM", "CONTEXT_GUILD", "CONTEXT_PRIVATE_CHANNEL", "CREATE_PRIVATE_THREADS",
    "CREATE_PUBLIC_THREADS", "DISCORD_EPOCH_MS", "DM_CHANNEL", "EMBED_LINKS", "FLAG_COMPONENTS_V2", "FLAG_EPHEMERAL",
    "FLAG_LOADING", "GLOBAL_LIMIT_PER_S", "GLOBAL_SCOPE", "GROUP_DM_CHANNEL", "GUILD_INSTALL", "INTENT_GUILD_MESSAGES",
    "INTERACTION_AUTOCOMPLETE", "INTERACTION_COMMAND", "INTERACTION_COMPONENT", "INTERACTION_MODAL",
    "INTERACTION_SCOPE", "LINK_STYLE", "MANAGE_MESSAGES", "MEMBER_PERMISSIONS", "MENTION_EVERYONE",
    "NONCE_LENGTH_LIMIT", "NONCE_WINDOW_S", "OP_DISPATCH", "OP_HEARTBEAT", "OP_HEARTBEAT_ACK", "OP_HELLO",
    "OP_IDENTIFY", "OP_INVALID_SESSION", "OP_PRESENCE", "OP_REQUEST_MEMBERS", "OP_RESUME", "OPTION_BOOLEAN",
    "OPTION_CHANNEL", "OPTION_INTEGER", "OPTION_NUMBER", "OPTION_STRING", "OPTION_SUB_COMMAND",
    "OPTION_SUB_COMMAND_GROUP", "OPTION_USER", "OVERWRITE_MEMBER", "OVERWRITE_ROLE", "PREMIUM_STYLE", "PRIVATE_THREAD",
    "PUBLIC_THREAD", "READ_MESSAGE_HISTORY", "RESPONSE_DEADLINE_S", "SELECTS", "SEND_MESSAGES",
    "SEND_MESSAGES_IN_THREADS", "SENDABLE_FLAGS", "STRING_SELECT", "TEXT_CHANNEL", "TEXT_INPUT", "TOKEN_LIFETIME_S",
    "USE_APPLICATION_COMMANDS", "USE_EXTERNAL_APPS", "USE_EXTERNAL_EMOJIS", "USER_INSTALL",
    "USER_INSTALL_FOLLOWUP_LIMIT", "VIEW_CHANNEL",
    "CountedRequest", "RequestCounts", "FakeDiscord", "Attachment", "Channel", "DiscordError", "FakeDiscordUsageError",
    "Guild", "Hold", "Interaction", "Message", "User", "command_problems", "component_problems", "embed_problems",
    "message_problems", "modal_field_problems", "ClientProcess"
]
