"""/game privacy and /game forget through the fake Discord: each person is told, alone and in their language,
what is kept about them; forgetting (after a confirmation only they can click) resigns the game they sit in,
the board shows it, and neither their id nor their name is left in the database."""
import sqlite3
from contextlib import closing

import pytest

from tests.e2e.table import Table

pytestmark = pytest.mark.e2e


def everything(database) -> str:
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        return "\n".join(db.iterdump())


async def test_a_player_learns_what_is_kept_then_is_forgotten_after_confirming(fake_discord, bot_process):
    ana, bruno = fake_discord.add_user("ana"), fake_discord.add_user("bruno", locale="fr")
    table = Table(fake_discord, [ana, bruno], "pariti", seed=8)
    await table.open(seating="lobby")
    await table.play(2)

    told = await fake_discord.slash(bruno, table.channel, "game privacy")
    assert told.ephemeral and told.content.startswith("**Ce que Tablero garde sur vous**"), told.content
    assert "parties\u00a0: 1\u00a0; encore en attente ou en cours\u00a0: 1" in told.content
    assert "effacées 30\u00a0jours" in told.content or "effacées 30 jours" in told.content

    asked = await fake_discord.slash(bruno, table.channel, "game forget")
    assert asked.ephemeral and asked.content.startswith("**Vous faire oublier\u00a0?**"), asked.content
    (confirm,) = asked.message.custom_ids
    stranger = await fake_discord.forge_click(ana, table.board(), custom_id=confirm)   # bruno's, forged by ana
    assert stranger.ephemeral
    assert str(bruno.id) in everything(bot_process.database)

    done = await fake_discord.click(bruno, asked.message, custom_id=confirm)
    assert done.ack_seconds < 3
    reply = await fake_discord.wait_for_reply(done, lambda m: "Tablero a tout oublié de vous" in m.content)
    assert reply.ephemeral
    final = await fake_discord.wait_for_message(table.channel, lambda m: m.files and "won the game" in m.content)
    assert ana.mention in final.content or "ana" in final.content        # bruno resigned: ana won
    stored = everything(bot_process.database)
    assert str(bruno.id) not in stored and "bruno" not in stored
    assert not fake_discord.unanswered()


async def test_a_server_that_removed_the_bot_has_its_games_deleted_after_the_retention(fake_discord, bot_process):
    players = [fake_discord.add_user("ana"), fake_discord.add_user("bruno")]
    table = Table(fake_discord, players, "pariti", seed=9)
    await table.open()
    await fake_discord.remove_bot()
    await fake_discord.wait_until(lambda: "bot_removed" in everything(bot_process.database),
                                  what="the game ended with the server gone")
    assert "INSERT INTO \"guilds_left\"" in everything(bot_process.database)   # when it left, remembered
    await bot_process.terminate()
    bot_process.env["TABLERO_RETAIN_DAYS"] = "0"             # the retention over: deleted at start-up
    await bot_process.start()
    await fake_discord.wait_until(lambda: "INSERT INTO \"games\"" not in everything(bot_process.database),
                                  what="the server's games deleted")
    stored = everything(bot_process.database)
    assert "INSERT INTO \"actions\"" not in stored and "INSERT INTO \"guilds_left\"" not in stored
    assert "retention: deleted 1 games" in bot_process.log_path.read_text()
