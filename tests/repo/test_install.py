"""A normal (non-editable) install carries its data: the wheel, installed into a fresh virtual
environment, plays a console game from an empty directory."""
import os
import subprocess
import sys
import venv
from pathlib import Path

import aiosqlite
import asyncpg
import discord
import PIL
import sqlalchemy

from bot.domain import i18n

ROOT = Path(__file__).resolve().parents[2]


def test_the_installed_wheel_plays_a_console_game_from_an_empty_directory(tmp_path):
    wheels, env, empty = tmp_path / "wheels", tmp_path / "venv", tmp_path / "empty"
    empty.mkdir()
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    subprocess.run([*pip, "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)], check=True, cwd=tmp_path)
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    subprocess.run([*pip, "--python", str(python), "install", "--no-deps", "--no-index", "-q",
                    *map(str, wheels.glob("tablero-*.whl"))], check=True)
    # Tablero's dependencies from this interpreter (offline, fast): a .pth line adds their folder after
    # the new environment's own site-packages, so `bot` is imported from the wheel, not from here.
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    installed = {str(Path(m.__file__).parents[1]) for m in (discord, PIL, sqlalchemy, aiosqlite, asyncpg)}
    (site / "dependencies.pth").write_text("\n".join(installed))
    env_vars = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TABLERO_DATABASE")}
    run = subprocess.run([str(python), "-m", "bot", "play", "parcheesi", "--seats", "human,easy", "--lang", "fr"],
                         input="\n1\n1\n1\nq\n", capture_output=True, text=True, cwd=empty, env=env_vars, timeout=120)
    assert run.returncode == 0, run.stderr
    saved = i18n.text("console.saved", "fr", game_id=1, database="tablero-console.sqlite3")
    assert "Traceback" not in run.stderr and saved in run.stdout   # translations found
    assert (empty / "board.png").read_bytes().startswith(b"\x89PNG")
    # Every module is in the wheel (the Discord front end too, which the console game does not import).
    where = subprocess.run([str(python), "-c", "import bot.app, bot.tools.migrate, bot.domain.verify, tablero_data; "
                            "print(bot.app.__file__, tablero_data.__file__)"],
                           capture_output=True, text=True, cwd=empty, env=env_vars, check=True).stdout
    assert str(ROOT) not in where and str(site) in where
