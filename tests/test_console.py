"""`python -m bot play`: a terminal game through the same sessions and store, resumable."""
import sqlite3

from bot import i18n
from bot.console import play


def scripted(*answers):
    queue = list(answers)
    return lambda prompt="": queue.pop(0)


async def test_a_terminal_game_is_played_saved_and_resumed(tmp_path):
    database, board = str(tmp_path / "c.sqlite3"), tmp_path / "board.png"
    shown: list[str] = []
    assert await play("parcheesi", ["human", "easy"], database, str(board), "en", scripted("", "q"), shown.append) == 0
    assert board.read_bytes().startswith(b"\x89PNG")
    assert i18n.text("console.saved", "en") in shown
    shown.clear()
    assert await play("parcheesi", ["human", "easy"], database, str(board), "en", scripted("q"), shown.append) == 0
    assert shown[0] == i18n.text("console.resumed", "en", database=database)
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (1,)
        assert db.execute("SELECT count(*) FROM actions").fetchone()[0] >= 1


async def test_a_seat_count_the_game_refuses_is_said_plainly(tmp_path):
    shown: list[str] = []
    code = await play("pariti", ["human", "easy", "hard"], str(tmp_path / "c.sqlite3"), str(tmp_path / "b.png"),
                      "fr", scripted("q"), shown.append)
    assert code == 2 and shown == [i18n.text("error.lobby_full", "fr")]
