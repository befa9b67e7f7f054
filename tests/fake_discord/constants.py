"""Discord's numbers the fake uses: limits, permission bits, enumerations."""

from __future__ import annotations

import re

DISCORD_EPOCH_MS = 1_420_070_400_000
RESPONSE_DEADLINE_S = 3.0
TOKEN_LIFETIME_S = 15 * 60  # the default of FakeDiscord(token_lifetime_s=...)
USER_INSTALL_FOLLOWUP_LIMIT = 5  # follow-ups per interaction authorized by a user install alone (code 40094)
GLOBAL_LIMIT_PER_S = 50  # the bot's global rate limit (FakeDiscord(global_limit=True) enforces it)
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
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
# Lets apps the server did not install (a member's user install) answer in public; without it their responses
# are ephemeral (topics/permissions; change log "User-Installed Apps General Availability": on by default)
USE_EXTERNAL_APPS = 1 << 50
ALL_PERMISSIONS = (1 << 51) - 1
MEMBER_PERMISSIONS = (ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
                      | READ_MESSAGE_HISTORY | USE_EXTERNAL_EMOJIS | USE_APPLICATION_COMMANDS
                      | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS | USE_EXTERNAL_APPS)
BOT_PERMISSIONS = MEMBER_PERMISSIONS
# app_permissions where the bot is absent (receiving-and-responding#interaction-object): in DMs and group DMs
# between users; in a server without the bot, @everyone's permissions limited to INTERACTION_RESPONSE_PERMISSIONS
PRIVATE_CHANNEL_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
INTERACTION_RESPONSE_PERMISSIONS = PRIVATE_CHANNEL_APP_PERMISSIONS | USE_EXTERNAL_EMOJIS

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
TEXT_CHANNEL, DM_CHANNEL, GROUP_DM_CHANNEL, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 3, 11, 12
PRIVATE_CHANNELS = {DM_CHANNEL, GROUP_DM_CHANNEL}
GROUP_DM_RECIPIENT_LIMIT = 10
# Interaction context types, application integration types (the keys of authorizing_integration_owners)
CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1
# Request scopes the fake counts: the bot's global limit, or exempt from it (interaction endpoints)
GLOBAL_SCOPE, INTERACTION_SCOPE = "global", "interaction"
OVERWRITE_ROLE, OVERWRITE_MEMBER = 0, 1
SELECTS = {3, 5, 6, 7, 8}
LINK_STYLE, PREMIUM_STYLE = 5, 6
FLAG_EPHEMERAL, FLAG_LOADING, FLAG_COMPONENTS_V2 = 1 << 6, 1 << 7, 1 << 15
SENDABLE_FLAGS = 1 << 2 | FLAG_EPHEMERAL | 1 << 12
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_RESUME = 0, 1, 2, 3, 6
OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 8, 9, 10, 11
INTENT_GUILD_MESSAGES = 1 << 9
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
