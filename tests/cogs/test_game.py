"""The /game commands as Discord sees them (their options are a contract: options are only added)."""
import json
import os
from pathlib import Path

from bot.cogs.commands.game import GameCog

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
    assert not options["language"].required and [c.value for c in options["language"].choices] == ["en", "fr"]


async def test_the_commands_synced_to_discord_are_the_pinned_ones(fake_discord, bot_process):
    """Every command, subcommand (in their order), option, choice, description and translation, and where the
    commands may be used and installed, as the bot sends them to Discord: a change is deliberate, never the
    by-product of rearranging the code (tests/cogs/synced_commands.json; TABLERO_REPIN_COMMANDS=1 rewrites it)."""
    synced = [{key: value for key, value in command.items() if key not in ("id", "version", "application_id")}
              for command in fake_discord.commands.values()]
    if os.environ.get(REPIN):
        SYNCED.write_text(json.dumps(synced, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert synced == json.loads(SYNCED.read_text(encoding="utf-8"))
