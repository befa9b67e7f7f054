"""`python -m bot play`: a terminal game through the same sessions and store, resumable."""
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pexpect
from pexpect.popen_spawn import PopenSpawn

from bot.console.game import play
from bot.console.prompts import Say, prompt, read_answer
from bot.core.game_records import LEGACY_CONSOLE_CHANNELS, console_channel
from bot.domain import dice, i18n
from bot.games import GAME_IDS, get_ruleset
from bot.games.barricade.state import PLACE, Held
from bot.games.base import msg
from bot.present.words import say
from bot.services import GameRecord, Seat, Sessions
from bot.services.play import refusal
from bot.store import Store
from tests.benchmarks.common import random_action


def scripted(*answers):
    queue = list(answers)
    return lambda prompt="": queue.pop(0)


async def test_a_terminal_game_is_played_saved_and_resumed(tmp_path):
    database, board = str(tmp_path / "c.sqlite3"), tmp_path / "board.png"
    shown: list[str] = []
    assert await play("parcheesi", ["human", "easy"], database, str(board), "en", scripted("", "q"), shown.append) == 0
    assert board.read_bytes().startswith(b"\x89PNG")
    assert i18n.text("console.saved", "en", game_id=1, database=database) in shown
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
    assert code == 2 and shown == ["Ce jeu se joue à 2\u00a0joueurs au plus."]


def test_a_fifth_seat_is_refused_and_seats_take_any_case(tmp_path):
    five = run_console(tmp_path, "parcheesi", "--seats", "Human,easy,easy,easy,easy", stdin="q\n")
    assert five.returncode == 2 and five.stdout.strip() == "At most 4 players can play this game."
    mixed = run_console(tmp_path, "parcheesi", "--seats", "Human,EASY", stdin="q\n")
    assert mixed.returncode == 0 and "Game 1 is saved in" in mixed.stdout


def run_console(tmp_path, *args, stdin, language="C.UTF-8"):
    """`python -m bot play` in a terminal whose language is `language` (LANG; English for C)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")} | {"LANG": language}
    return subprocess.run([sys.executable, "-m", "bot", "play", *args, "--database", str(tmp_path / "c.sqlite3"),
                           "--board", str(tmp_path / "b.png")], cwd=REPO, input=stdin, capture_output=True,
                          text=True, timeout=60, env=env)


def test_the_console_speaks_the_terminal_s_language_unless_lang_says_otherwise(tmp_path):
    """LANG=es_MX.UTF-8 gives a Spanish game; --lang picks another; a language Tablero lacks, English."""
    spanish = run_console(tmp_path, "parcheesi", "--seats", "human,easy,easy,easy,easy", stdin="q\n",
                          language="es_MX.UTF-8")
    assert spanish.stdout.strip() == "Este juego admite como mucho 4 jugadores."
    english = run_console(tmp_path, "parcheesi", "--seats", "human,easy,easy,easy,easy", "--lang", "en", stdin="q\n",
                          language="es_ES.UTF-8")
    assert english.stdout.strip() == "At most 4 players can play this game."
    japanese = run_console(tmp_path, "parcheesi", "--seats", "human,easy,easy,easy,easy", stdin="q\n",
                           language="ja_JP.UTF-8")
    assert japanese.stdout.strip() == "At most 4 players can play this game."


REPO = Path(__file__).resolve().parents[2]


def terminal(tmp_path, seats: str) -> pexpect.spawn:
    """`python -m bot play pariti` in a pseudo-terminal: Ctrl-C reaches its process group, as a terminal's does
    (the computer players' worker processes too)."""
    return pexpect.spawn(sys.executable, ["-m", "bot", "play", "pariti", "--seats", seats, "--lang", "en",
                                          "--database", str(tmp_path / "c.sqlite3"), "--board",
                                          str(tmp_path / "b.png")], cwd=str(REPO), encoding="utf-8", timeout=60)


def stopped(console: pexpect.spawn) -> list[str]:
    """Ctrl-C, then what the console printed until it ended, a line each."""
    console.sendintr()
    console.expect(pexpect.EOF)
    console.close()
    return console.before.replace("\r", "").rstrip().splitlines()


def test_ctrl_c_at_a_prompt_saves_and_leaves_at_once_in_one_line(tmp_path):
    console = terminal(tmp_path, "human,easy")
    console.expect(PROMPT)   # the first prompt is up
    printed = stopped(console)
    assert console.exitstatus == 130
    assert printed[-1] == i18n.text("console.interrupted", "en", game_id=1, database=str(tmp_path / "c.sqlite3"))
    assert not any("Traceback" in line for line in printed)
    with sqlite3.connect(tmp_path / "c.sqlite3") as db:
        assert db.execute("SELECT status FROM games").fetchall() == [("active",)]


def test_ctrl_c_in_a_terminal_after_a_computer_played_prints_one_line_and_no_worker_traceback(tmp_path):
    """A terminal's Ctrl-C reaches the whole process group, the computer players' worker processes too."""
    database = tmp_path / "c.sqlite3"
    console = terminal(tmp_path, "human,normal")
    console.expect(PROMPT)
    console.sendline("1")   # the human's first move; then the computer thinks in a worker
    console.expect(PROMPT)   # the computer played: the next prompt is up
    assert moves_stored(database) >= 2
    printed = stopped(console)
    assert console.exitstatus == 130
    assert printed[-1] == i18n.text("console.interrupted", "en", game_id=1, database=str(database))
    assert printed[:-1] == ["^C"], printed   # the terminal's echo, then that one line: nothing from the workers


def test_ctrl_c_with_the_answers_piped_in_stops_in_one_line_and_exits_cleanly(tmp_path):
    """Input from a pipe left open (a script typing the answers): Python aborted at exit, its reader thread
    holding sys.stdin's lock. The answers already piped still count, a line each."""
    database = tmp_path / "c.sqlite3"
    console = PopenSpawn([sys.executable, "-m", "bot", "play", "pariti", "--seats", "human,easy", "--lang", "en",
                          "--database", str(database), "--board", str(tmp_path / "b.png")],
                         cwd=str(REPO), encoding="utf-8", timeout=60)
    console.expect(PROMPT)
    console.send("xyz\n1\n")   # refused, then the first move
    console.expect("is not a move")
    console.expect(PROMPT)
    console.expect(PROMPT)   # the move played, and the computer's
    console.kill(signal.SIGINT)
    console.expect(pexpect.EOF)
    assert console.wait() == 130
    assert moves_stored(database) >= 2
    assert console.before.replace("\r", "").rstrip().splitlines()[-1] == i18n.text(
        "console.interrupted", "en", game_id=1, database=str(database))


# A console whose reader thread a busy machine runs late, and whose exit is slow (the computers' workers joined).
LATE_READER = """
import atexit, builtins, sys, time
typed = builtins.input
def late(prompt=""):
    time.sleep(0.5)
    return typed(prompt)
builtins.input = late
atexit.register(time.sleep, 1)
from bot.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_ctrl_c_as_the_question_comes_leaves_the_stop_line_last(tmp_path):
    """The question is printed before its answer is awaited, by the thread that prints the stop line: a reader
    thread run late cannot print it under that line, where the shell's own prompt would then follow it."""
    database = tmp_path / "c.sqlite3"
    console = pexpect.spawn(sys.executable, ["-c", LATE_READER, "play", "pariti", "--seats", "human,easy", "--lang",
                                             "en", "--database", str(database), "--board", str(tmp_path / "b.png")],
                            cwd=str(REPO), encoding="utf-8", timeout=60)
    console.expect_exact(i18n.text("console.board_written", "en", file=tmp_path / "b.png"))   # the question next
    console.sendintr()
    console.expect(pexpect.EOF)
    console.close()
    assert console.exitstatus == 130
    assert console.before.replace("\r", "").rstrip().splitlines()[-1] == i18n.text(
        "console.interrupted", "en", game_id=1, database=str(database))


# A console whose typed line comes with a Ctrl-C: the signal is raised as the line is handed to the game (its
# type read, between the check that the question is still waiting and the answer's setting).
CTRL_C_WITH_THE_LINE = """
import asyncio, signal, sys
from bot.console.game import play

class Typed(str):
    raised = False
    @property
    def __class__(self):
        if not Typed.raised:
            Typed.raised = True
            signal.raise_signal(signal.SIGINT)
        return str

sys.exit(asyncio.run(play("pariti", ["human", "easy"], sys.argv[1], sys.argv[2], "en", lambda prompt: Typed("q"))))
"""


def test_a_ctrl_c_as_the_typed_line_is_handed_over_stops_the_game_without_a_traceback(tmp_path):
    database = tmp_path / "c.sqlite3"
    console = subprocess.run([sys.executable, "-c", CTRL_C_WITH_THE_LINE, str(database), str(tmp_path / "b.png")],
                             cwd=REPO, capture_output=True, text=True, timeout=60)
    assert console.returncode in (0, 130) and console.stderr == "", console.stderr
    saved = [i18n.text(key, "en", game_id=1, database=database) for key in ("console.saved", "console.interrupted")]
    assert console.stdout.rstrip().splitlines()[-1] in saved


# The end of the console's prompts (printed, then the answer waited for).
PROMPT = re.compile(r"q to quit\)?: ")


def moves_stored(database) -> int:
    try:
        with sqlite3.connect(database) as db:
            return db.execute("SELECT count(*) FROM actions").fetchone()[0]
    except sqlite3.Error:   # not created yet
        return 0


async def test_a_ctrl_c_in_the_function_api_is_answered_the_same_way(tmp_path):
    def interrupted(prompt=""):
        raise KeyboardInterrupt
    shown: list[str] = []
    database = str(tmp_path / "c.sqlite3")
    code = await play("pariti", ["human", "easy"], database, str(tmp_path / "b.png"), "en", interrupted, shown.append)
    assert code == 130 and shown[-1] == i18n.text("console.interrupted", "en", game_id=1, database=database)


async def test_r_rolls_at_the_roll_prompt(tmp_path):
    prompts: list[str] = []
    shown: list[str] = []
    await play("parcheesi", ["human", "easy"], str(tmp_path / "c.sqlite3"), str(tmp_path / "b.png"), "en",
               recorded(prompts, "r", "q"), shown.append)
    assert prompts[0].startswith(i18n.text("console.prompt_roll", "en"))
    assert any(line.startswith("• Player 1 rolls ") for line in shown)


async def test_an_empty_line_at_the_move_prompt_shows_the_moves_again(tmp_path):
    prompts: list[str] = []
    shown: list[str] = []
    await play("pariti", ["human", "easy"], str(tmp_path / "c.sqlite3"), str(tmp_path / "b.png"), "en",
               recorded(prompts, "", "q"), shown.append)
    assert prompts[0].startswith("  1. ") and prompts[1] == prompts[0]
    assert not any("is not a move" in line for line in shown)


def recorded(prompts, *answers):
    """Scripted answers; the prompts shown are kept in `prompts`."""
    queue = list(answers)

    def read(prompt=""):
        prompts.append(prompt)
        return queue.pop(0)
    return read


def test_barricade_placement_asks_for_a_point_s_label_not_73_numbered_lines():
    """BA-5.3: a barricade goes on any free point; the player types its name, which the picture's sides show."""
    ruleset = get_ruleset("barricade")
    start = ruleset.new_game(2, {}, 1)
    placing = start.evolve(held=(Held(0, 0, False, True),), stage=PLACE, seat=0, order=(0, 1), ranking=(),
                           order_rolls=(), die=None)
    record = GameRecord(id=1, guild_id=None, channel_id=4, game="barricade", status="active", host_id=1,
                        locale="en", options={}, seats=(Seat(1, "Ann"), Seat(0, "", level="easy")), seed="0",
                        state=ruleset.to_json(placing), version=1)
    shown = prompt(record, "en")
    label = re.search(r"for example (\w+)", shown)[1]
    assert len(shown.splitlines()) == 2 and len(ruleset.legal_actions(placing)) > 70
    assert read_answer(record, label, "en") == read_answer(record, label.upper(), "en") == f"bar:{label}"


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
    assert shown[0] == i18n.text("console.ended_saved", "en", game_id=1, database=database)
    assert shown[1].startswith("A new game starts")
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT status FROM games ORDER BY id").fetchall() == [("ended",), ("active",)]


async def test_end_of_input_saves_and_quits_quietly(tmp_path):
    shown: list[str] = []
    database = str(tmp_path / "c.sqlite3")
    code = await play("parcheesi", ["human", "easy"], database, str(tmp_path / "b.png"), "en", ending_input(),
                      shown.append)
    assert code == 0 and shown[-1] == i18n.text("console.saved", "en", game_id=1, database=database)


async def test_an_unknown_move_is_refused_with_the_terminal_s_wording_after_the_list(tmp_path):
    """Pariti lists some 40 moves: the refusal comes after them, just above the question, not scrolled away."""
    prompts: list[str] = []
    shown: list[str] = []
    await play("pariti", ["human", "easy"], str(tmp_path / "c.sqlite3"), str(tmp_path / "b.png"), "en",
               recorded(prompts, "xyz", "q"), shown.append)
    refusal = i18n.text("console.illegal_move_point", "en", move="xyz")
    assert prompts[1].splitlines()[-2:] == [refusal, i18n.text("console.prompt_move", "en") + " "]
    assert prompts[1].startswith("  1. ") and not any("/game" in line for line in shown + prompts)


async def test_the_seats_keep_the_order_given_unless_drawn_at_random(tmp_path, monkeypatch):
    """The terminal user chose the order with --seats (PM-1.9: chosen, so not drawn); --seating random
    draws it from the game's seed as on Discord."""
    shown: list[str] = []
    await play("parcheesi", ["human", "easy"], str(tmp_path / "c.sqlite3"), str(tmp_path / "b.png"), "en",
               scripted("q"), shown.append)
    assert "• Seats in lobby order: Player 1 (yellow), Computer (easy, red). Player 1 plays first." in shown
    seed = next(s for i in range(100) if dice.seat_order(s := f"{i:064x}", 2) == [1, 0])
    monkeypatch.setattr(dice, "new_seed", lambda: seed)
    shown.clear()
    await play("parcheesi", ["human", "easy"], str(tmp_path / "c.sqlite3"), str(tmp_path / "b.png"), "en",
               scripted("q"), shown.append, new=True, seating="random")
    assert "• Seats drawn at random: Computer (easy, yellow), Player 1 (red). Computer (easy) plays first." in shown


async def test_a_french_game_lists_and_takes_french_colour_letters(tmp_path):
    """J for jaune where English says Y; the stored action stays canonical."""
    prompts: list[str] = []
    typed: list[str] = []

    def read(prompt=""):
        prompts.append(prompt)
        code = re.search(r"\[(J\d\+\d+)\]", prompt)
        if code and not typed:
            typed.append(code[1])
            return code[1].lower()
        return "q" if typed or len(prompts) > 40 else "r" if "  1. " not in prompt else "1"
    database = str(tmp_path / "c.sqlite3")
    await play("parcheesi", ["human", "easy"], database, str(tmp_path / "b.png"), "fr", read, print)
    assert typed and not any("[Y" in prompt for prompt in prompts)
    with sqlite3.connect(database) as db:
        assert ("Y" + typed[0][1:],) in db.execute("SELECT action FROM actions").fetchall()


def test_the_readme_console_example_works_for_every_game_it_lists(tmp_path):
    """Maghreb (MG-1.1) and Pariti (PA-1.3) are two-player games: the example's seats fit them all."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    example = re.search(r"python -m bot play (\S+) --seats (\S+) +# or (.+)", readme)
    games = [example[1], *example[3].split(", ")]
    assert len(games) == 5
    for game in games:
        done = run_console(tmp_path, game, "--seats", example[2], "--new", stdin="q\n")
        assert done.returncode == 0, (game, done.stdout)


def position(game, wanted, seats=2, seed=1):
    """A record of `game` after random legal play, at the first position where `wanted(ruleset, state)` holds."""
    ruleset = get_ruleset(game)
    rng = random.Random(seed)
    state = ruleset.new_game(seats, {}, seed)
    for _ in range(2000):
        if wanted(ruleset, state):
            return GameRecord(id=1, guild_id=None, channel_id=4, game=game, status="active", host_id=1, locale="en",
                              options={}, seats=(Seat(1, "Ann"), Seat(2, "Bob")), seed="0",
                              state=ruleset.to_json(state), version=1)
        action = random_action(ruleset, state, rng)
        state = ruleset.apply(state, action).state
    raise AssertionError("no such position")



def test_enter_in_a_terminal_shows_the_moves_again_and_plays_nothing(tmp_path):
    """As a player types it: Enter twice at Pariti's first move prompt lists the moves three times in all, the
    computer never gets a turn (nothing was played), and q saves the game."""
    run = run_console(tmp_path, "pariti", "--seats", "human,easy", stdin="\n\nq\n")
    assert run.returncode == 0 and run.stdout.count("  1. ") == 3, run.stdout[-500:]
    assert "Computer (easy)'s turn" not in run.stdout and "Game 1 is saved in" in run.stdout

def test_enter_alone_never_plays_a_move_even_the_only_one():
    record = position("parcheesi", lambda r, s: not r.roll_due(s) and len(r.legal_actions(s)) == 1)
    assert read_answer(record, "", "en") == Say(())   # asked again, the list shown again
    assert "Enter to see the moves again" in prompt(record, "en")


def test_a_call_out_is_typed_call_then_the_piece_as_a_player_would():
    """MG-10.3: the opponent names the piece he calls out; the prompt says how."""
    record = position("parchis-maghreb", lambda r, s: bool(r.call_actions(s, r.to_move(s))))
    ruleset = get_ruleset("parchis-maghreb")
    state = ruleset.from_json(record.state)
    calls = ruleset.call_actions(state, ruleset.to_move(state))
    piece = calls[0].partition(":")[2]
    assert read_answer(record, f"call {piece}", "en") == read_answer(record, f"CALL:{piece.lower()}", "en") == calls[0]
    assert f"call {piece}" in prompt(record, "en")
    assert read_answer(record, "call", "en") == Say((i18n.text(   # which piece? said with the pieces to name
        "console.call_which", "en", pieces=", ".join(c.partition(":")[2] for c in calls), example=f"call {piece}"),))


def test_classic_parcheesi_says_how_to_call_out():
    """PC-9.1: any other player may call out the last turn; the prompt says `call`."""
    record = position("parcheesi-classic", lambda r, s: r.to_move(s) is not None
                      and bool(r.call_actions(s, r.to_move(s))))
    assert read_answer(record, "call", "en") == "call" and "call out" in prompt(record, "en")


def test_a_barricade_pawn_goes_to_a_point_typed_by_its_name():
    """BA-3.1: a pawn moves to a point; typing that point's name plays the one move that ends there."""
    def one_ends_there(ruleset, state):
        moves = [] if ruleset.roll_due(state) else ruleset.legal_actions(state)
        ends = [m.rpartition("-")[2] for m in moves if "-" in m]
        return any(ends.count(e) == 1 for e in ends)
    record = position("barricade", one_ends_there)
    moves = get_ruleset("barricade").legal_actions(get_ruleset("barricade").from_json(record.state))
    ends = [m.rpartition("-")[2] for m in moves if "-" in m]
    move = next(m for m, e in zip([m for m in moves if "-" in m], ends) if ends.count(e) == 1)
    assert read_answer(record, move.rpartition("-")[2].upper(), "en") == move


async def test_the_first_human_sits_first_as_player_1_whatever_place_seats_gives(tmp_path):
    shown: list[str] = []
    await play("pariti", ["normal", "human"], str(tmp_path / "c.sqlite3"), str(tmp_path / "b.png"), "en",
               scripted("q"), shown.append)
    assert any(line.startswith("• Seats in lobby order: Player 1 (") for line in shown)


async def test_the_end_of_a_game_names_its_id_for_verify(tmp_path):
    database = str(tmp_path / "c.sqlite3")
    shown: list[str] = []
    code = await play("pariti", ["human", "easy"], database, str(tmp_path / "b.png"), "en", lambda prompt="": "1",
                      shown.append)
    assert code == 0 and shown[-1] == i18n.text("console.over.pariti", "en", game_id=1, database=database)
    assert "set-up" in shown[-1]   # Pariti has no dice: verify checks the set-up its seed draws


async def test_a_maghreb_call_out_typed_at_the_prompt_is_judged(tmp_path):
    """MG-10.3: when the prompt offers a call-out ("call R1"), typing it calls out that piece."""
    called: list[str] = []

    def read(prompt=""):
        read.asked += 1
        offer = re.search(r"call out .* e\.g\. (call \w+)", prompt)
        if offer and not called:
            called.append(offer[1])
            return offer[1].lower()
        return "q" if called or read.asked > 300 else "1" if "  1. " in prompt else "r"
    read.asked = 0
    shown: list[str] = []
    await play("parchis-maghreb", ["human", "normal"], str(tmp_path / "c.sqlite3"), str(tmp_path / "b.png"), "en",
               read, shown.append)
    assert called and any(line.startswith("• Player 1 calls out cheating by ") for line in shown), shown[-5:]


async def test_a_save_numbered_by_the_menu_place_is_still_resumed_and_new_saves_go_by_game_id(tmp_path):
    """Older releases kept a kind of game's save under its place in the menu (GAME_IDS.index(game) + 1)."""
    database = str(tmp_path / "c.sqlite3")
    store = await Store.open(database)
    sessions = Sessions(store)
    legacy = GAME_IDS.index("pariti") + 1
    await sessions.lobby.create(channel_id=legacy, guild_id=None, host=Seat(1, "Player 1"), game="pariti", options={})
    await sessions.lobby.add_computer(legacy, 1, "easy")
    old = (await sessions.lobby.start(legacy, 1)).record
    await store.close()
    shown: list[str] = []
    assert await play("pariti", ["human", "easy"], database, str(tmp_path / "b.png"), "en", scripted("q"),
                      shown.append) == 0
    assert shown[0] == i18n.text("console.resumed", "en", game=msg("game.pariti"), database=database)
    assert shown[-1] == i18n.text("console.saved", "en", game_id=old.id, database=database)
    shown.clear()
    await play("pariti", ["human", "easy"], database, str(tmp_path / "b.png"), "en", scripted("q"), shown.append,
               new=True)
    assert shown[0] == i18n.text("console.ended_saved", "en", game_id=old.id, database=database)
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT channel_id, status FROM games ORDER BY id").fetchall() == [
            (legacy, "ended"), (console_channel("pariti"), "active")]
    assert len({console_channel(game) for game in GAME_IDS} | set(LEGACY_CONSOLE_CHANNELS)) == len(GAME_IDS) + 5


async def test_a_computer_s_turn_cut_short_is_finished_when_the_game_resumes(tmp_path):
    """Ctrl-C while a computer thought left the player's move stored and the computer to move: on resume the
    computer plays (as the bot does at start-up), then the player is asked, never for the computer's move."""
    database, board = str(tmp_path / "c.sqlite3"), str(tmp_path / "b.png")
    await play("pariti", ["human", "easy"], database, board, "en", scripted("q"), print)
    store = await Store.open(database)
    record = await store.games.open_game(console_channel("pariti"))
    ruleset = get_ruleset("pariti")
    state = ruleset.from_json(record.state)
    move = ruleset.legal_actions(state)[0]
    applied = ruleset.apply(state, move)   # the player's move stored, the computers' turn not played
    await store.games.append_action(record, seat=0, user_id=record.seats[0].user_id, action=move, legal=True,
                                    state=ruleset.to_json(applied.state))
    await store.close()
    prompts: list[str] = []
    shown: list[str] = []
    await play("pariti", ["human", "easy"], database, board, "en", recorded(prompts, "1", "q"), shown.append)
    # Retold first: the player's move stored before the Ctrl-C, which its printing may not have reached.
    assert shown[1] == i18n.text("console.since_last_prompt", "en")
    assert shown[2] == "• " + say(record, applied.events[0], "en")
    assert any(line.startswith("• Computer (easy) ") for line in shown[3:5]), shown[:5]
    assert not any("not playing" in line or "not your turn" in line for line in shown + prompts)
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM actions").fetchone()[0] >= 3   # moves, computer's, player's again


async def test_seats_the_game_refuses_store_nothing(tmp_path):
    shown: list[str] = []
    database = tmp_path / "c.sqlite3"
    assert await play("pariti", ["human"], str(database), str(tmp_path / "b.png"), "en", scripted("q"),
                      shown.append) == 2
    assert shown == [i18n.render(msg("error.player_count", min=2, max=2), "en")]
    assert not database.exists()   # refused before the database is opened


def test_help_lists_what_the_prompt_takes_and_rules_the_game_s_rules():
    record = position_record("barricade", lambda r, s: not r.roll_due(s) and "roll" in r.legal_actions(s))
    said = read_answer(record, "?", "en")
    assert isinstance(said, Say) and said == read_answer(record, "help", "en")
    assert said.lines[0] == i18n.text("console.help.title", "en")
    assert "  r: Roll first, place the barricade after moving" in said.lines
    assert read_answer(record, "rules", "en") == Say((i18n.text("rules.barricade", "en"),))


def test_barricade_s_roll_first_takes_r_and_only_the_numbers_shown():
    """BA-5.2: holding a barricade, roll first and place it after moving; BA-5.3: the points go by name."""
    record = position_record("barricade", lambda r, s: not r.roll_due(s) and "roll" in r.legal_actions(s))
    shown = prompt(record, "en")
    numbered = re.findall(r"^  (\d+)\. ", shown, re.M)
    assert "[roll]" in shown and read_answer(record, "r", "en") == "roll"
    assert read_answer(record, str(len(numbered) + 1), "en") == Say((i18n.text(
        "console.not_listed", "en", number=str(len(numbered) + 1), count=len(numbered)),))


def test_every_call_out_form_gets_its_answer():
    """MG-10.3: one piece of the opponent named, until the caller rolls; PC-9.3: the others call out a turn."""
    maghreb = position("parchis-maghreb", lambda r, s: bool(r.call_actions(s, r.to_move(s))))
    ruleset = get_ruleset("parchis-maghreb")
    state = ruleset.from_json(maghreb.state)
    calls = ruleset.call_actions(state, ruleset.to_move(state))
    pieces = ", ".join(c.partition(":")[2] for c in calls)
    example = "call " + calls[0].partition(":")[2]
    assert read_answer(maghreb, "call X9", "en") == Say((i18n.text("console.call_unknown", "en", piece="X9",
                                                                   pieces=pieces, example=example),))
    closed = position("parchis-maghreb", lambda r, s: r.to_move(s) is not None and not any(
        r.call_actions(s, seat) for seat in (0, 1)))
    assert read_answer(closed, "call B1", "en") == Say((i18n.text("console.call_closed.parchis-maghreb", "en"),))
    own = position("parcheesi-classic", lambda r, s: r.to_move(s) is not None and not r.call_actions(s, r.to_move(s))
                   and any(r.call_actions(s, seat) for seat in (0, 1)))
    assert read_answer(own, "call", "en") == Say((i18n.text("console.call_own_turn", "en"),))
    open_call = position("parcheesi-classic", lambda r, s: r.to_move(s) is not None
                         and bool(r.call_actions(s, r.to_move(s))))
    assert read_answer(open_call, "call G1", "en") == "call"   # the call-out names the turn: a piece is no matter
    assert "type call" in prompt(open_call, "en") and "naming a piece" not in prompt(open_call, "en")
    pariti = position("pariti", lambda r, s: True)
    assert read_answer(pariti, "call", "en") == Say((i18n.text("error.no_cheating", "en"),))


def position_record(game, wanted):
    return position(game, wanted, seats=2, seed=3)


def test_a_typo_in_the_seats_stores_nothing_and_the_corrected_command_starts_as_asked(tmp_path):
    """A refused command line leaves no database behind; the corrected one seats what it says (not what the
    refused one had seated: no half-filled lobby is resumed)."""
    for game, typo in (("parcheesi", "human,expert"), ("pariti", "human,expert"), ("barricade", "human,hard,expert")):
        folder = tmp_path / game
        folder.mkdir()
        refused = run_console(folder, game, "--seats", typo, stdin="q\n")
        assert refused.returncode == 2 and refused.stderr == "", refused.stderr
        assert refused.stdout.strip() == i18n.text("console.unknown_seat", "en", given="expert",
                                                   levels="easy, normal, hard")
        assert list(folder.iterdir()) == []
        corrected = run_console(folder, game, "--seats", "human,easy", stdin="q\n")
        assert corrected.returncode == 0 and "Traceback" not in corrected.stderr, corrected.stderr
        with closing(sqlite3.connect(folder / "c.sqlite3")) as db:
            assert db.execute("SELECT status, seats FROM games").fetchall() == [
                ("active", '[{"level":null,"locale":"en","name":"Player 1","user_id":1},'
                           '{"level":"easy","locale":"en","name":"","user_id":0}]')]


async def test_a_lobby_an_older_release_left_is_not_resumed_but_seated_anew(tmp_path):
    """Older releases stored the lobby before refusing a seat: that lobby is ended, the seats asked for seated."""
    database = str(tmp_path / "c.sqlite3")
    store = await Store.open(database)
    sessions = Sessions(store)
    channel = console_channel("barricade")
    await sessions.lobby.create(channel_id=channel, guild_id=None, host=Seat(1, "Player 1"), game="barricade",
                                options={})
    await sessions.lobby.add_computer(channel, 1, "hard")
    await store.close()
    shown: list[str] = []
    assert await play("barricade", ["human", "easy"], database, str(tmp_path / "b.png"), "en", scripted("q"),
                      shown.append) == 0
    assert shown[0] == i18n.text("console.started", "en", database=database)
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT status FROM games ORDER BY id").fetchall() == [("ended",), ("active",)]
        assert '"level":"easy"' in db.execute("SELECT seats FROM games WHERE id = 2").fetchone()[0]


async def test_the_console_keeps_off_a_database_holding_the_bot_s_games(tmp_path):
    database = str(tmp_path / "tablero.sqlite3")
    store = await Store.open(database)
    await Sessions(store).lobby.create(channel_id=1234567890123456789, guild_id=42, host=Seat(7, "Ana"),
                                       game="pariti", options={})
    await store.close()
    shown: list[str] = []
    assert await play("pariti", ["human", "easy"], database, str(tmp_path / "b.png"), "en", scripted("q"),
                      shown.append) == 2
    assert shown == [i18n.text("console.bot_database", "en", database=database)]
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (1,)


def test_an_unknown_word_at_a_roll_prompt_is_said_unknown_not_roll_first():
    record = position("parchis-maghreb", lambda r, s: r.roll_due(s) and not r.call_actions(s, r.to_move(s)))
    for typed in ("xyz", "Y1+4", "5"):
        assert read_answer(record, typed, "en") == Say((i18n.text("console.unknown", "en", typed=typed),))
    assert read_answer(record, "r", "en") == read_answer(record, "", "en") == "roll"


def barricade_placing(**changes):
    ruleset = get_ruleset("barricade")
    placing = ruleset.new_game(2, {}, 1).evolve(held=(Held(0, 0, False, True),), stage=PLACE, seat=0, order=(0, 1),
                                                 ranking=(), order_rolls=(), die=None, **changes)
    return ruleset, placing, GameRecord(
        id=1, guild_id=None, channel_id=4, game="barricade", status="active", host_id=1, locale="en", options={},
        seats=(Seat(1, "Ann"), Seat(0, "", level="easy")), seed="0", state=ruleset.to_json(placing), version=1)


def test_barricade_s_place_prompt_asks_for_a_point_and_says_why_each_point_is_refused():
    """BA-5.3: not on the bottom row (the start line), the goal, a pawn or another barricade; a point that is not
    on the board, or a number, is said to be no point."""
    ruleset, placing, record = barricade_placing()
    shown = prompt(record, "en").splitlines()
    count = len(ruleset.legal_actions(placing))
    assert shown[0] == i18n.text("console.prompt_points.barricade", "en", count=count, example="a13")
    assert shown[1] == i18n.text("console.prompt_point", "en") + " " and len(shown) == 2
    assert read_answer(record, "1", "en") == Say((i18n.text("console.no_numbers", "en", number="1", count=0),))
    goal, barricade = ruleset.board.names[ruleset.board.goal], ruleset.board.names[placing.barricades[0]]
    pawn = ruleset.board.names[next(p for p in range(len(ruleset.board.names)) if p not in ruleset.board.start_line
                                    and p != ruleset.board.goal and p not in placing.barricades)]
    _, occupied, occupied_record = barricade_placing(pawns=((ruleset.board.index[pawn],),) + placing.pawns[1:])
    for typed, key, point, at in (("z9", "barricade.error.no_such_point", "z9", record),
                                  ("A0", "barricade.error.no_such_point", "a0", record),
                                  ("c1", "barricade.error.place_start_line", "c1", record),
                                  (goal, "barricade.error.place_goal", goal, record),
                                  (barricade, "barricade.error.place_barricade", barricade, record),
                                  (pawn, "barricade.error.place_pawn", pawn, occupied_record)):
        action = read_answer(at, typed, "en")
        assert action == f"bar:{point}", typed
        message = ruleset.refusal(ruleset.from_json(at.state), action)
        assert message is not None and message.key == key, typed
        said = refusal(ruleset, ruleset.from_json(at.state), action)
        assert point in i18n.render(said, "en"), typed
