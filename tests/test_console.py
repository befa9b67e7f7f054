"""`python -m bot play`: a terminal game through the same sessions and store, resumable."""
import sqlite3

from bot import dice, i18n
from bot.console import play
from bot.games.base import msg


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
    assert shown[0] == i18n.text("console.resumed", "en", game=msg("game.parcheesi"), database=database)
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (1,)
        assert db.execute("SELECT count(*) FROM actions").fetchone()[0] >= 1


async def test_a_seat_count_the_game_refuses_is_said_plainly(tmp_path):
    shown: list[str] = []
    code = await play("pariti", ["human", "easy", "hard"], str(tmp_path / "c.sqlite3"), str(tmp_path / "b.png"),
                      "fr", scripted("q"), shown.append)
    assert code == 2 and shown == [i18n.text("error.lobby_full", "fr")]


def ending_input(*answers):
    """Answers, then end of input (Ctrl-D)."""
    queue = list(answers)

    def read(prompt=""):
        if not queue:
            raise EOFError
        return queue.pop(0)
    return read


async def test_each_kind_of_game_resumes_its_own_saved_game(tmp_path):
    database, board = str(tmp_path / "c.sqlite3"), str(tmp_path / "board.png")
    assert await play("parcheesi", ["human", "easy"], database, board, "en", scripted("", "q"), print) == 0
    shown: list[str] = []
    assert await play("barricade", ["human", "hard"], database, board, "en", scripted("q"), shown.append) == 0
    assert shown[0].startswith("A new game starts")
    shown.clear()
    assert await play("parcheesi", ["human", "easy"], database, board, "en", scripted("q"), shown.append) == 0
    assert shown[0] == i18n.text("console.resumed", "en", game=msg("game.parcheesi"), database=database)


async def test_new_ends_the_saved_game_and_starts_another(tmp_path):
    database, board = str(tmp_path / "c.sqlite3"), str(tmp_path / "board.png")
    assert await play("pariti", ["human", "easy"], database, board, "en", scripted("q"), print) == 0
    shown: list[str] = []
    assert await play("pariti", ["human", "easy"], database, board, "en", scripted("q"), shown.append, new=True) == 0
    assert shown[0].startswith("A new game starts")
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT status FROM games ORDER BY id").fetchall() == [("ended",), ("active",)]


async def test_end_of_input_saves_and_quits_quietly(tmp_path):
    shown: list[str] = []
    code = await play("parcheesi", ["human", "easy"], str(tmp_path / "c.sqlite3"), str(tmp_path / "b.png"), "en",
                      ending_input(), shown.append)
    assert code == 0 and shown[-1] == i18n.text("console.saved", "en")


async def test_an_unknown_move_is_refused_with_the_terminal_s_wording(tmp_path):
    shown: list[str] = []
    await play("pariti", ["human", "easy"], str(tmp_path / "c.sqlite3"), str(tmp_path / "b.png"), "en",
               scripted("xyz", "q"), shown.append)
    assert i18n.text("console.illegal_move", "en", move="xyz") in shown
    assert not any("/game" in line for line in shown)


async def test_the_seats_keep_the_order_given_unless_drawn_at_random(tmp_path, monkeypatch):
    """The terminal user chose the order with --seats (PM-1.9: chosen, so not drawn); --seating random
    draws it from the game's seed as on Discord."""
    shown: list[str] = []
    await play("parcheesi", ["human", "easy"], str(tmp_path / "c.sqlite3"), str(tmp_path / "b.png"), "en",
               scripted("q"), shown.append)
    assert "• Seats in lobby order: Player 1 (yellow), Computer (easy) (red). Player 1 plays first." in shown
    seed = next(s for i in range(100) if dice.seat_order(s := f"{i:064x}", 2) == [1, 0])
    monkeypatch.setattr(dice, "new_seed", lambda: seed)
    shown.clear()
    await play("parcheesi", ["human", "easy"], str(tmp_path / "c.sqlite3"), str(tmp_path / "b.png"), "en",
               scripted("q"), shown.append, new=True, seating="random")
    assert "• Seats drawn at random: Computer (easy) (yellow), Player 1 (red). Computer (easy) plays first." in shown
