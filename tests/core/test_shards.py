"""bot/core/shards.py and the shard settings: which guilds a process serves, and the settings' errors."""
import subprocess
import sys

import discord
import pytest

from bot.core.config import Settings
from bot.core.shards import Shards, ShardSpecError, parse_shards, shard_of
from bot.domain import i18n
from tests.conftest import REPO


def test_a_guilds_shard_is_discords():
    """discord.py's Guild.shard_id is the formula the gateway uses; games without a guild are shard 0's."""
    state = discord.state.ConnectionState(dispatch=None, handlers={}, hooks={}, http=None)
    state.shard_count = 4   # as AutoShardedClient sets it
    for guild_id in (81384788765712384, 1 << 22, 3 << 22, (1 << 63) - 1):
        guild = discord.Guild(data={"id": guild_id}, state=state)
        assert shard_of(guild_id, 4) == guild.shard_id
    assert shard_of(None, 4) == 0
    assert Shards(2, (1,)).owns(3 << 22) and not Shards(2, (1,)).owns(None)


@pytest.mark.parametrize("count, ids, expected", [
    (None, None, None),
    ("4", None, Shards(4, (0, 1, 2, 3))),
    ("4", "0-3", Shards(4, (0, 1, 2, 3))),
    ("4", "0,2", Shards(4, (0, 2))),
    ("8", " 4-5, 7 ", Shards(8, (4, 5, 7))),
    ("2", "1", Shards(2, (1,))),
])
def test_shard_settings_name_a_count_and_this_processs_ids(count, ids, expected):
    assert parse_shards(count, ids) == expected


@pytest.mark.parametrize("count, ids, key", [
    (None, "0", "cli.shards.ids_without_count"),
    ("two", None, "cli.shards.bad_count"),
    ("0", None, "cli.shards.bad_count"),
    ("2", "0-", "cli.shards.bad_ids"),
    ("2", "1-0", "cli.shards.bad_ids"),
    ("2", "-1", "cli.shards.bad_ids"),
    ("2", "a", "cli.shards.bad_ids"),
    ("2", "0-3", "cli.shards.out_of_range"),
    ("2", "2", "cli.shards.out_of_range"),
])
def test_bad_shard_settings_are_refused(count, ids, key):
    with pytest.raises(ShardSpecError) as refused:
        Settings.from_env({**({"TABLERO_SHARD_COUNT": count} if count else {}), "TABLERO_SHARD_IDS": ids or ""})
    assert refused.value.key == key
    for locale in i18n.LOCALES:
        assert "\n" not in i18n.text(key, locale, **refused.value.params)


def test_the_bot_refuses_shards_out_of_range_with_one_line_and_no_traceback():
    run = subprocess.run([sys.executable, "-m", "bot"], cwd=REPO, capture_output=True, text=True, timeout=60,
                         env={"PATH": "", "DISCORD_TOKEN": "x", "TABLERO_SHARD_COUNT": "2", "TABLERO_SHARD_IDS": "0-3"})
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr == i18n.text("cli.shards.out_of_range", "en", shard=3, count=2) + "\n"
