"""A backup taken while a game is being played restores into a fresh bot, and the game goes on from the
backed-up position: the computer's turn the backup caught it thinking about is played, the turn deadline is
re-armed (docs/backup.md)."""

import asyncio
import json
import subprocess
import sys

import pytest

from bot.games import get_ruleset
from bot.tools.backup import copy_database
from tests.conftest import REPO
from tests.e2e.table import Table, stored

pytestmark = pytest.mark.e2e

TURN_S = 3


def to_move(database) -> tuple[int, int]:
    """The stored game's version and the seat to move."""
    games, _ = stored(database)
    ruleset = get_ruleset("pariti")
    return games[0][3], ruleset.to_move(ruleset.from_json(json.loads(games[0][2])))


async def test_a_backup_taken_mid_game_restores_into_a_fresh_bot_that_plays_on(fake_discord, quick_bot, tmp_path):
    ana = fake_discord.add_user("ana")
    table = Table(fake_discord, [ana], "pariti", seed=11)
    await fake_discord.slash(ana, table.channel, "game new", game="pariti", seating="lobby", turn_time=f"{TURN_S}s")
    await fake_discord.slash(ana, table.channel, "game add-bot", level="hard")   # thinks about a second a move
    lobby = fake_discord.last_message(table.channel, lambda m: "Start" in [b.get("label") for b in m.buttons])
    await fake_discord.click(ana, lobby, label="Start")
    board = await table.live_board()
    version, seat = to_move(quick_bot.database)
    assert seat == 0                                          # ana, seated first, moves first (PA-3.1)

    # Ana's move is stored, then the computer thinks: the backup is taken then, while the bot runs and writes.
    click = asyncio.create_task(table.move(ana, board))
    await fake_discord.wait_until(lambda: to_move(quick_bot.database) == (version + 1, 1), timeout=10,
                                  what="ana's move stored, the computer thinking")
    backup = tmp_path / "backup.sqlite3"
    copied = copy_database(str(quick_bot.database), str(backup))
    await click
    assert copied.games == 1
    backed_up = stored(backup)
    assert backed_up[0][0][3] == version + 1                  # the backup holds ana's move, not the computer's yet
    assert await quick_bot.terminate() == 0

    # Restored into a new file, as an operator would after losing the first.
    restored = tmp_path / "restored.sqlite3"
    done = subprocess.run([sys.executable, "-m", "bot.tools.backup", "--restore", str(backup),
                           "--database", str(restored)], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "1 games" in done.stdout, done
    before = len(fake_discord.messages(table.channel))
    fresh = fake_discord.client_process([sys.executable, "-m", "bot"], cwd=REPO, log_path=tmp_path / "fresh.log",
                                        env={"TABLERO_DATABASE": str(restored), "TABLERO_MIN_TURN_TIME": "1"})
    await fresh.start()
    try:
        # The computer's turn is finished at start-up, then ana's deadline (re-armed from the database) plays
        # hers (an easy computer, on_timeout play), and the computer answers: nobody clicked.
        await fake_discord.wait_until(lambda: stored(restored)[0][0][3] >= version + 3, timeout=TURN_S + 20,
                                      what="the restored game to go on")
        games, actions = stored(restored)
        assert actions[:len(backed_up[1])] == backed_up[1]    # the game went on from the backed-up position
        following = actions[len(backed_up[1]):]
        assert following[0][2] == 1                           # (game_id, seq, seat, user_id, ...): the computer
        assert following[1][2] == 0 and following[1][3] is None   # ana's turn, played at its deadline
        assert any(m.files for m in fake_discord.messages(table.channel)[before:])   # boards shown again
        assert "Traceback" not in (tmp_path / "fresh.log").read_text()
    finally:
        await fresh.terminate()
