"""Discord answering 429 (rate limited): discord.py waits and retries, and the game goes on as if nothing happened."""

import pytest

from tests.e2e.table import Table, stored

pytestmark = pytest.mark.e2e


async def test_boards_posted_and_edited_through_rate_limits_appear_once_each(fake_discord, bot_process):
    table = Table(fake_discord, [fake_discord.add_user("ana"), fake_discord.add_user("bruno", locale="fr")])
    await table.open(forced_moves=False)   # a click, an action: counted against the log
    _, before = stored(bot_process.database)
    # A click's boards go through its interaction, whose routes have their own buckets.
    fake_discord.rate_limit("POST", "/webhooks/{app}/{token}", times=2)
    fake_discord.rate_limit("PATCH", "/webhooks/{app}/{token}/messages/{message}", times=2)
    plays = 12
    await table.play(plays)
    assert len(fake_discord.rate_limited) == 4
    _, after = stored(bot_process.database)
    assert len(after) - len(before) == plays          # every click acted once
    boards = [m for m in fake_discord.messages(table.channel) if m.files]
    assert len({m.id for m in boards}) == len(boards)
    assert sum(bool(m.custom_ids) for m in boards) == 1   # only the latest board has controls
