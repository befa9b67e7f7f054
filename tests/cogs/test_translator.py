"""Every localization of the commands holds to Discord's rules: discord.py does not check translated names and
descriptions, so a bad one would fail only when the commands are synced, and leave the bot with none."""
import re

import discord
import pytest
from discord import app_commands

from bot.cogs.commands.game import GameCog
from bot.cogs.commands.stats import StatsCog
from bot.cogs.commands.translator import CatalogueTranslator
from bot.domain import i18n

# Discord's rule for command and option names (\p{L}, \p{N}, Devanagari and Thai marks; lower case).
NAME = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
PER_COMMAND = 8000   # a command's names, descriptions and localizations, all together


async def payloads() -> list[dict]:
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    commands = [GameCog(None).app_command, *StatsCog(None).get_app_commands()]   # type: ignore[arg-type]
    return [await command.get_translated_payload(tree, CatalogueTranslator()) for command in commands]


def texts(node: dict, path: str = ""):
    """(where, kind, text) for every name, description and choice name in a command's payload, localized ones
    included."""
    where = f"{path}/{node['name']}"
    yield where, "name", node["name"]
    yield from ((f"{where}[{loc}]", "name", name) for loc, name in (node.get("name_localizations") or {}).items())
    if "description" in node:
        yield where, "description", node["description"]
        yield from ((f"{where}[{loc}]", "description", text)
                    for loc, text in (node.get("description_localizations") or {}).items())
    for choice in node.get("choices") or []:
        yield f"{where}:{choice['value']}", "choice", choice["name"]
        yield from ((f"{where}:{choice['value']}[{loc}]", "choice", name)
                    for loc, name in (choice.get("name_localizations") or {}).items())
    for option in node.get("options") or []:
        yield from texts(option, where)


async def test_every_localized_name_description_and_choice_holds_to_discord_s_rules():
    wrong = []
    for payload in await payloads():
        for where, kind, text in texts(payload):
            if kind == "name" and not (NAME.match(text) and text == text.lower()):
                wrong.append((where, text))
            if kind in ("description", "choice") and not 1 <= len(text) <= 100:
                wrong.append((where, len(text), text))
    assert wrong == []


def size(node: dict) -> int:
    """A command's size as Discord counts it: its names, descriptions and choices' names and values, each field
    counted by its longest localization (the default included)."""
    def longest(field: str, holder: dict) -> int:
        return max([len(holder[field]), *map(len, (holder.get(f"{field}_localizations") or {}).values())])
    own = longest("name", node) + (longest("description", node) if "description" in node else 0)
    choices = sum(longest("name", c) + len(str(c["value"])) for c in node.get("choices") or [])
    return own + choices + sum(size(option) for option in node.get("options") or [])


async def test_each_command_stays_within_8000_characters_with_every_localization():
    sizes = {payload["name"]: size(payload) for payload in await payloads()}
    assert {name: n for name, n in sizes.items() if n > PER_COMMAND} == {}
    assert sizes["game"] < PER_COMMAND * 0.8, "a margin for the next languages' longer words"


@pytest.mark.parametrize("locale", [loc for loc in i18n.LOCALES if loc != i18n.DEFAULT_LOCALE])
async def test_every_description_and_choice_is_translated_for_each_discord_locale_we_serve(locale):
    """Spanish serves es-ES and es-419 alike; names stay English (the README's commands are the contract)."""
    discord_locales = [loc.value for loc in discord.Locale if i18n.locale_of(loc) == locale]
    assert discord_locales
    missing = []
    for payload in await payloads():
        for where, kind, _ in texts(payload):
            if kind == "description" and "[" not in where:
                node = _find(payload, where)
                missing += [(where, loc) for loc in discord_locales
                            if loc not in (node.get("description_localizations") or {})]
        assert not any(kind == "name" and "[" in where for where, kind, _ in texts(payload))
    assert missing == []


def _find(payload: dict, where: str) -> dict:
    node = payload
    for name in where.strip("/").split("/")[1:]:
        node = next(option for option in node["options"] if option["name"] == name)
    return node
