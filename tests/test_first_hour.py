"""A newcomer's first hour, as one walked it through: every setting with a bad value and every console command line
with a typo is answered in one line, without a traceback, and leaves no file (so no row) behind; with Discord out
of reach, the bot's listener already answers /healthz (503, and why), its health probe prints that reason, and
SIGTERM stops it at once (exit 0) without leaving an empty database; a listener port in use is said before any
try to reach Discord."""
import asyncio
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from contextlib import closing
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.console.game import play
from tests.conftest import free_port

REPO = Path(__file__).resolve().parent.parent
BAD_SETTINGS = {"TABLERO_LOG_LEVEL": "LOUD", "TABLERO_RETAIN_DAYS": "abc", "TABLERO_MIN_TURN_TIME": "abc",
                "TABLERO_TOKEN_LIFETIME": "x", "TABLERO_HTTP": "9108", "TABLERO_LOG_FORMAT": "xml",
                "TABLERO_SHARD_COUNT": "two"}
COMMANDS = ([], ["check"], ["play", "parcheesi"])
TYPOS = (["play", "parchesi"], ["play", "parcheesi", "--seats", "human,expert"], ["play", "pariti", "--seats", "human"],
         ["play", "parcheesi", "--seats", "easy,hard"], ["play", "barricade", "--seats", "human,hard,expert"],
         ["play", "parcheesi", "--seating", "rnd"], ["play", "parcheesi", "--lang", "xx"],
         ["play", "parcheesi", "--sets", "human,easy"], ["ply", "parcheesi"],
         ["play", "parcheesi", "--seats", "human,easy,easy,easy,easy"])


@pytest.fixture
def newcomer(tmp_path, monkeypatch):
    """A fresh clone's folder as the working directory, and none of the bot's settings set."""
    for name in [n for n in os.environ if n.startswith(("TABLERO_", "DISCORD_"))]:
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def answered_in_one_line(capsys, run) -> str:
    """`run()`'s exit status is not 0, and it said one line (on stdout or stderr), no traceback."""
    try:
        status = run()
    except SystemExit as exit:   # argparse's refusal
        status = exit.code
    out, err = capsys.readouterr()
    said = (out + err).strip().splitlines()
    assert status not in (0, None) and len(said) == 1, out + err
    return said[0]


@pytest.mark.parametrize("name", list(BAD_SETTINGS))
@pytest.mark.parametrize("command", COMMANDS, ids=["bot", "check", "play"])
def test_a_bad_setting_is_one_line_naming_it_and_leaves_nothing(newcomer, monkeypatch, capsys, name, command):
    monkeypatch.setenv(name, BAD_SETTINGS[name])
    said = answered_in_one_line(capsys, lambda: main(command))
    assert name in said and BAD_SETTINGS[name] in said
    assert list(newcomer.iterdir()) == []


@pytest.mark.parametrize("typo", TYPOS, ids=" ".join)
def test_a_console_command_line_with_a_typo_is_one_line_and_leaves_nothing(newcomer, capsys, typo):
    answered_in_one_line(capsys, lambda: main(typo))
    assert list(newcomer.iterdir()) == []


def test_a_console_command_line_with_a_typo_adds_no_row_to_a_saved_game(newcomer, capsys):
    database = newcomer / "tablero-console.sqlite3"   # where the command lines below play
    assert asyncio.run(play("parcheesi", ["human", "easy"], str(database), str(newcomer / "board.png"), "en",
                            lambda prompt="": "q", lambda line: None)) == 0

    def rows() -> list[tuple[int, ...]]:
        with closing(sqlite3.connect(database)) as db:
            return db.execute("SELECT id, version, status, seats FROM games").fetchall()
    saved = rows()
    capsys.readouterr()
    for typo in TYPOS:
        answered_in_one_line(capsys, lambda typo=typo: main(typo))
        assert rows() == saved, typo


def start_unreachable(tmp_path: Path, **settings: str) -> subprocess.Popen:
    """`python -m bot` in tmp_path (its default database there), Discord where nothing listens."""
    env = {name: value for name, value in os.environ.items() if not name.startswith(("TABLERO_", "DISCORD_"))}
    env |= {"DISCORD_TOKEN": "a-token", "DISCORD_API_BASE": f"http://127.0.0.1:{free_port()}/api/v10",
            "TABLERO_LOG_LEVEL": "WARNING", "PYTHONPATH": str(REPO), **settings}
    return subprocess.Popen([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


@pytest.mark.e2e
def test_discord_out_of_reach_healthz_says_why_and_sigterm_stops_at_once(tmp_path):
    port = free_port()
    bot = start_unreachable(tmp_path, TABLERO_HTTP=f"127.0.0.1:{port}")
    try:
        said = ""
        while "try 1 failed" not in said:   # the first try failed: the listener was up before it
            line = bot.stderr.readline()
            assert line, said
            said += line
        assert "Check this machine's network and DNS, a proxy or firewall on the way, and DISCORD_API_BASE" in said
        with pytest.raises(urllib.error.HTTPError) as unhealthy:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10)
        assert unhealthy.value.code == 503
        assert "Discord not reached yet (try " in unhealthy.value.read().decode()
        probe = subprocess.run([sys.executable, "-m", "bot.operations.probe"], capture_output=True, text=True,
                               env={**os.environ, "TABLERO_HTTP": f"127.0.0.1:{port}"}, cwd=REPO, timeout=30)
        assert probe.returncode == 1 and "Discord not reached yet" in probe.stdout   # the HEALTHCHECK's reason
        bot.send_signal(signal.SIGTERM)
        _, err = bot.communicate(timeout=30)
        assert bot.returncode == 0 and "Traceback" not in said + err, said + err
        assert list(tmp_path.iterdir()) == [], "a stop during the first tries leaves no empty database"
    finally:
        bot.kill()
        bot.wait()


@pytest.mark.e2e
def test_a_listener_port_in_use_is_said_before_discord_is_tried(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        bot = start_unreachable(tmp_path, TABLERO_HTTP=f"127.0.0.1:{taken.getsockname()[1]}")
        try:
            _, err = bot.communicate(timeout=60)   # at once: Discord is never tried (it would be tried forever)
        finally:
            bot.kill()
    assert bot.returncode == 1 and len(err.strip().splitlines()) == 1 and "TABLERO_HTTP" in err, err
    assert list(tmp_path.iterdir()) == []


def test_discord_s_voice_warning_is_not_shown(caplog):
    """Tablero joins no voice channel: discord.py's "voice will NOT be supported" would read as a fault."""
    import discord

    import bot.app  # noqa: F401  (silences it)

    with caplog.at_level("WARNING"):
        asyncio.run(discord.Client(intents=discord.Intents.none()).close())
    assert "voice will NOT be supported" not in caplog.text
