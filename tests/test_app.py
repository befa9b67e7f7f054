"""The bot process as a whole (bot/app.py): start-up against the fake Discord."""
import sqlite3


async def test_restart_with_the_same_commands_sends_them_no_more(fake_discord, bot_process):
    """Discord rate-limits command updates: a restart of the same release does not resend them."""
    assert fake_discord.command_syncs == 1
    await bot_process.terminate()
    await bot_process.start()
    await bot_process.kill()
    await bot_process.start()
    assert fake_discord.command_syncs == 1
    assert "not sent again" in bot_process.log_tail()
    user, channel = fake_discord.add_user("Ana"), fake_discord.add_channel("games")
    reply = await fake_discord.slash(user, channel, "game rules")   # the commands still answer
    assert reply.response_type is not None


async def test_changed_commands_are_sent_at_the_next_start(fake_discord, bot_process):
    await bot_process.terminate()
    with sqlite3.connect(bot_process.database) as db:     # as if the last release had other commands
        db.execute("UPDATE bot_facts SET value='an older release' WHERE key='commands_digest'")
    await bot_process.start(require_sync=True)
    assert fake_discord.command_syncs == 2


def test_a_shard_of_this_process_not_connected_is_named_by_the_health_check(monkeypatch):
    from types import SimpleNamespace

    from bot.app import TableroBot
    from bot.core.config import Settings

    bot = TableroBot(Settings.from_env({"TABLERO_SHARD_COUNT": "4", "TABLERO_SHARD_IDS": "1-3"}))
    connected = {}
    monkeypatch.setattr(TableroBot, "shards", property(lambda self: connected))
    assert bot.shards_down() == ["all"]   # before the first connection
    connected.update({1: SimpleNamespace(is_closed=lambda: False), 2: SimpleNamespace(is_closed=lambda: True)})
    assert bot.shards_down() == ["2", "3"]   # 2 dropped, 3 not launched yet
    connected[3] = connected[2] = SimpleNamespace(is_closed=lambda: False)
    assert bot.shards_down() == []
