"""The /game commands as Discord sees them (their options are a contract: options are only added)."""
import json
import os
from pathlib import Path

from bot.cogs.commands.game import GameCog
from bot.domain import i18n
from bot.domain.i18n import LOCALES
from tests.fake_discord import command_problems
from tests.fake_discord.contract import JSON, request_errors

SYNCED = Path(__file__).with_name("synced_commands.json")
# Set to rewrite SYNCED from what the bot syncs, after a deliberate change of the commands.
REPIN = "TABLERO_REPIN_COMMANDS"


def test_game_new_offers_seating_after_its_earlier_options():
    """PM-1.9, MG-2.2, PA-3.1: seating is chosen at creation; left out, it is random."""
    options = {p.name: p for p in GameCog.new.parameters}
    assert list(options)[:5] == ["game", "teams", "turn_time", "seating", "thread"]   # thread: its own thread
    seating = options["seating"]
    assert not seating.required and [c.value for c in seating.choices] == ["random", "lobby"]
    assert seating.choices[0].name == "random (drawn when the game starts)"


def test_game_new_offers_the_game_s_language_last():
    options = {p.name: p for p in GameCog.new.parameters}
    assert list(options) == ["game", "teams", "turn_time", "seating", "thread", "forced_moves",
                             "language"]
    assert not options["language"].required and [c.value for c in options["language"].choices] == list(LOCALES)
    assert list(LOCALES[:3]) == ["en", "fr", "es"]


def test_game_defaults_offers_the_language_last():
    """A server's default language for its new games, before its Discord language."""
    options = {p.name: p for p in GameCog.defaults.parameters}
    assert list(options) == ["turn_time", "on_timeout", "seating", "language"]
    assert [c.value for c in options["language"].choices] == list(LOCALES)


async def test_the_commands_synced_to_discord_are_the_pinned_ones(fake_discord, bot_process):
    """Every command, subcommand (in their order), option, choice, description and translation, and where the
    commands may be used and installed, as the bot sends them to Discord: a change is deliberate, never the
    by-product of rearranging the code (tests/cogs/synced_commands.json; TABLERO_REPIN_COMMANDS=1 rewrites it)."""
    synced = [{key: value for key, value in command.items() if key not in ("id", "version", "application_id")}
              for command in fake_discord.commands.values()]
    if os.environ.get(REPIN):
        SYNCED.write_text(json.dumps(synced, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert synced == json.loads(SYNCED.read_text(encoding="utf-8"))


def _ours(localizations: dict | None) -> set[str]:
    """Our locales that Discord's localizations cover (es-ES and es-419 are our es)."""
    return {i18n.locale_of(discord_locale) for discord_locale in localizations or {}}


def _untranslated(node: dict, others: set[str], where: str = "") -> list[str]:
    """The descriptions and choice names of a command's tree that lack one of `others` locales."""
    where = f"{where}/{node['name']}"
    missing = [f"{where} description: {sorted(others - _ours(node.get('description_localizations')))}"
               ] if node.get("description") and not others <= _ours(node.get("description_localizations")) else []
    missing += [f"{where} choice {choice['name']!r}" for choice in node.get("choices") or []
                if not others <= _ours(choice.get("name_localizations"))]
    return missing + [line for option in node.get("options") or [] for line in _untranslated(option, others, where)]


async def test_the_commands_are_synced_in_every_locale_of_the_bot_and_pass_discords_checks(fake_discord,
                                                                                          bot_process):
    """Each description and choice name in each of the bot's languages (bot.domain.i18n.LOCALES); the sync
    passes Discord's OpenAPI document (tests/fake_discord/contract.py) and what it does not hold: names by
    Discord's regex, lowercase (tests/fake_discord/limits.py). Names stay English (translator.py)."""
    commands = [{key: value for key, value in command.items() if key not in ("id", "version", "application_id")}
                for command in fake_discord.commands.values()]
    others = set(i18n.LOCALES) - {i18n.DEFAULT_LOCALE}
    assert others and [line for command in commands for line in _untranslated(command, others)] == []
    assert command_problems(commands) == []
    assert request_errors("PUT", "/applications/{app}/commands", JSON, commands) is None
    assert fake_discord.contract.requests and not fake_discord.contract.violations
