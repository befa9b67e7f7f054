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

Each driver call returns an ``Interaction`` once it is settled: answered, any deferral
completed, and no more writes for a short quiet period. ``interaction.ack_seconds`` is the
delay of the first response; ``interaction.messages`` the messages it created or edited.
"""

# The package's public names: tests import them from tests.fake_discord.
from tests.fake_discord.constants import (ADD_REACTIONS, ADMINISTRATOR, ALLOWED_CALLBACKS, ALL_PERMISSIONS,
                                          ATTACHMENT_DESCRIPTION_LIMIT, ATTACHMENT_SIZE_LIMIT, ATTACH_FILES,
                                          BOT_PERMISSIONS, BUTTON, CALLBACK_AUTOCOMPLETE, CALLBACK_DEFERRED_MESSAGE,
                                          CALLBACK_DEFERRED_UPDATE, CALLBACK_MESSAGE, CALLBACK_MODAL, CALLBACK_UPDATE,
                                          COMMAND_NAME, CREATE_PRIVATE_THREADS, CREATE_PUBLIC_THREADS,
                                          DISCORD_EPOCH_MS, EMBED_LINKS, FLAG_COMPONENTS_V2, FLAG_EPHEMERAL,
                                          FLAG_LOADING, INTENT_GUILD_MESSAGES, INTERACTION_AUTOCOMPLETE,
                                          INTERACTION_COMMAND, INTERACTION_COMPONENT, INTERACTION_MODAL, LINK_STYLE,
                                          MANAGE_MESSAGES, MEMBER_PERMISSIONS, NONCE_LENGTH_LIMIT, NONCE_WINDOW_S,
                                          OPTION_BOOLEAN, OPTION_CHANNEL, OPTION_INTEGER, OPTION_NUMBER,
                                          OPTION_STRING, OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP, OPTION_USER,
                                          OP_DISPATCH, OP_HEARTBEAT, OP_HEARTBEAT_ACK, OP_HELLO, OP_IDENTIFY,
                                          OP_INVALID_SESSION, OP_PRESENCE, OP_REQUEST_MEMBERS, OP_RESUME,
                                          OVERWRITE_MEMBER, OVERWRITE_ROLE, PREMIUM_STYLE, PRIVATE_THREAD,
                                          PUBLIC_THREAD, READ_MESSAGE_HISTORY, RESPONSE_DEADLINE_S, SELECTS,
                                          SENDABLE_FLAGS, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS, STRING_SELECT,
                                          TEXT_CHANNEL, TEXT_INPUT, TOKEN_LIFETIME_S, USE_APPLICATION_COMMANDS,
                                          USE_EXTERNAL_EMOJIS, VIEW_CHANNEL)
from tests.fake_discord.entities import (Attachment, Channel, DiscordError, FakeDiscordUsageError, Guild, Hold,
                                         Interaction, Message, User)
from tests.fake_discord.limits import (command_problems, component_problems, embed_problems, message_problems,
                                       modal_field_problems)
from tests.fake_discord.driver import FakeDiscord
from tests.fake_discord.process import ClientProcess

