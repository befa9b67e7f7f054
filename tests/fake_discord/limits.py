"""Discord's limits on messages, components, modals and commands: what it would refuse, as text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.fake_discord.constants import (
    ATTACHMENT_DESCRIPTION_LIMIT,
    ATTACHMENT_SIZE_LIMIT,
    BUTTON,
    COMMAND_NAME,
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    CONTEXT_PRIVATE_CHANNEL,
    FLAG_COMPONENTS_V2,
    GUILD_INSTALL,
    LINK_STYLE,
    OPTION_INTEGER,
    OPTION_NUMBER,
    OPTION_STRING,
    PREMIUM_STYLE,
    SELECTS,
    SENDABLE_FLAGS,
    STRING_SELECT,
    TEXT_INPUT,
    USER_INSTALL,
)
from tests.fake_discord.entities import Attachment, JsonObject


def _length_problems(where: str, value: Any, limit: int, minimum: int = 0) -> list[str]:
    if value is None:
        return [f"{where} is missing"] if minimum else []
    if not isinstance(value, str):
        return [f"{where} must be a string, got {value!r}"]
    if not minimum <= len(value) <= limit:
        return [f"{where} has {len(value)} characters (allowed {minimum}..{limit}): {value[:80]!r}"]
    return []


def component_problems(components: list[JsonObject]) -> list[str]:
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


def modal_field_problems(rows: list[JsonObject]) -> list[str]:
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


def _select_problems(where: str, item: JsonObject) -> list[str]:
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


def embed_problems(embeds: list[JsonObject]) -> list[str]:
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


def message_problems(data: JsonObject, files: dict[int, Attachment], *, creating: bool,
                     existing: Sequence[Attachment] = ()) -> list[str]:
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
            problems.append(f"file {attachment.filename} is {len(attachment.bytes)} bytes "
                            f"(max {ATTACHMENT_SIZE_LIMIT})")
        if not attachment.filename:
            problems.append("a file has no filename")
    if len(files) > 10:
        problems.append(f"{len(files)} files (max 10)")
    if creating and not (data.get("content") or data.get("embeds") or data.get("components") or files
                         or data.get("sticker_ids") or data.get("poll")):
        problems.append("Cannot send an empty message")
    return problems


def command_integration_types(command: JsonObject) -> set[int]:
    """Where a command is installed: its `integration_types`, else the server install alone (what Discord
    stores for a command created without it, while the app's default installation is the server's)."""
    return set(command.get("integration_types") or [GUILD_INSTALL])


def command_contexts(command: JsonObject) -> set[int]:
    """Where a command shows: its `contexts`, else all three, less the bot's DM if `dm_permission` is false.
    PRIVATE_CHANNEL is only meaningful with USER_INSTALL among the integration types."""
    if command.get("contexts") is not None:
        return set(command["contexts"])
    every = {CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL}
    return every if command.get("dm_permission", True) else every - {CONTEXT_BOT_DM}


def command_problems(commands: list[JsonObject]) -> list[str]:
    """What Discord would refuse in a bulk overwrite of application commands."""
    problems = []
    names = [(c.get("type", 1), c.get("name")) for c in commands]
    if len(set(names)) != len(names):
        problems.append(f"duplicate command names {names}")
    for command in commands:
        if not set(command.get("integration_types") or []) <= {GUILD_INSTALL, USER_INSTALL}:
            problems.append(f"/{command.get('name')}: integration_types {command['integration_types']}")
        if not set(command.get("contexts") or []) <= {CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL}:
            problems.append(f"/{command.get('name')}: contexts {command['contexts']}")
        problems += _option_schema_problems("/" + str(command.get("name")), command,
                                            top=True, chat_input=command.get("type", 1) == 1)
    return problems


def _option_schema_problems(where: str, node: JsonObject, *, top: bool = False, chat_input: bool = True) -> list[str]:
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


def _choice_problems(where: str, choice: JsonObject, option_type: int) -> list[str]:
    problems = _length_problems(f"{where} choice name", choice.get("name"), 100, 1)
    value = choice.get("value")
    if option_type == OPTION_STRING:
        problems += _length_problems(f"{where} choice value", value, 100, 1)
    elif option_type == OPTION_INTEGER and (not isinstance(value, int) or isinstance(value, bool)):
        problems.append(f"{where}: choice value {value!r} is not an integer")
    elif option_type == OPTION_NUMBER and (not isinstance(value, (int, float)) or isinstance(value, bool)):
        problems.append(f"{where}: choice value {value!r} is not a number")
    return problems
