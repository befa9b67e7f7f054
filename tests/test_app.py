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


async def test_a_stop_on_sigterm_is_over_once_the_bot_is_left_the_store_closed_included():
    """SIGTERM's stop closes Discord's connection, which ends the bot's run, then the store: the `async with`
    that ran the bot waits for the store too. (It did not: the stop was cut at the loop's end, and the database
    thread, still closing, printed 'Event loop is closed' tracebacks into the log.)"""
    import asyncio

    from bot.app import TableroBot
    from bot.core.config import Settings

    closed = []

    class SlowStore:
        async def close(self) -> None:
            await asyncio.sleep(0.05)   # the database thread finishing the calls before its close
            closed.append(True)

    async with TableroBot(Settings.from_env({})) as bot:
        bot.store = SlowStore()
        bot.stop_on_signal()
        while not bot.is_closed():   # Discord's connection closed: bot.start() would return now
            await asyncio.sleep(0.001)
    assert closed == [True]
