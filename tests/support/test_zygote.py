"""The zygote the test session forks bot processes from (tests/support/zygote.py): a forked program sees
what a fresh interpreter would have shown it and ends as one would; a zygote gone fails the test, never hangs it."""
import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.support.zygote import Request, Zygote, ZygoteError, zygote_for

# What a program sees of how it was started, and a clean end: a non-daemon thread still running when the main
# module ends and an atexit handler, both heard from; then the exit code it is given.
PROBE = """\
import atexit, json, os, signal, sys, threading, time
print(json.dumps({
    "name": __name__, "argv": sys.argv, "path0": sys.path[0], "cwd": os.getcwd(), "stdin": sys.stdin.read(),
    "setting": os.environ.get("TABLERO_PROBE"), "variables": sorted(os.environ),
    "handlers": {name: str(signal.getsignal(getattr(signal, name))) for name in ("SIGINT", "SIGTERM", "SIGCHLD")},
    "threads": threading.active_count(),
}), flush=True)
atexit.register(lambda: print("atexit", flush=True))
threading.Thread(target=lambda: (time.sleep(0.2), print("thread done", flush=True))).start()
code = sys.argv[-1]
if code == "raise":
    raise ValueError("probe")
sys.exit(int(code))
"""


@pytest.fixture
def probe(tmp_path) -> Path:
    """The probe as a module (`python -m probe`, from tmp_path) and as a script in a folder (`python sub/probe.py`)."""
    (tmp_path / "probe.py").write_text(PROBE)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "probe.py").write_text(PROBE)
    return tmp_path


async def fresh(argv: list[str], env: dict[str, str], cwd: Path, output: Path) -> tuple[int, str]:
    with open(output, "wb") as out:
        process = await asyncio.create_subprocess_exec(*argv, env=env, cwd=cwd, stdin=asyncio.subprocess.DEVNULL,
                                                       stdout=out, stderr=asyncio.subprocess.STDOUT)
    return await process.wait(), output.read_text()


async def forked(argv: list[str], env: dict[str, str], cwd: Path, output: Path) -> tuple[int, str]:
    zygote = zygote_for([sys.executable, "-m", "bot"], env)   # the session's; any module may be asked of it
    assert zygote
    with open(output, "wb") as out:
        process = await zygote.spawn(Request(argv, env, str(cwd)), out.fileno())
    return await process.wait(), output.read_text()


@pytest.mark.parametrize("form", [["-m", "probe"], ["sub/probe.py"]], ids=["module", "script"])
async def test_a_forked_program_is_started_and_ends_as_in_a_fresh_interpreter(probe, form):
    env = {**os.environ, "TABLERO_PROBE": "set"}
    for code in ("0", "3", "raise"):
        argv = [sys.executable, *form, "--flag", code]
        expected_code, expected = await fresh(argv, env, probe, probe / "fresh.log")
        got_code, got = await forked(argv, env, probe, probe / "forked.log")
        assert got_code == expected_code == (1 if code == "raise" else int(code))
        seen, *rest = got.splitlines()
        assert json.loads(seen) == json.loads(expected.splitlines()[0])
        assert "thread done" in rest and "atexit" in rest, got
        if code == "raise":
            assert "ValueError: probe" in got and "ValueError: probe" in expected


async def test_a_forked_program_killed_or_stopped_has_asyncios_exit_code(probe):
    zygote = zygote_for([sys.executable, "-m", "bot"], dict(os.environ))
    assert zygote
    hang = probe / "hang.py"
    hang.write_text("import time\nprint('up', flush=True)\ntime.sleep(600)\n")
    for sig in (signal.SIGKILL, signal.SIGTERM):
        with open(probe / "hang.log", "wb") as out:
            process = await zygote.spawn(Request([sys.executable, str(hang)], dict(os.environ), None), out.fileno())
        assert process.returncode is None
        while "up" not in (probe / "hang.log").read_text():
            await asyncio.sleep(0.05)
        process.send_signal(sig)
        assert await asyncio.wait_for(process.wait(), 30) == -sig == process.returncode
        process.kill()   # ended: nothing to signal, no error


async def test_a_zygote_gone_fails_the_wait_and_the_next_start_instead_of_hanging(tmp_path):
    zygote = Zygote(dict(os.environ))   # its own: the session's goes on serving
    try:
        script = tmp_path / "sleep.py"
        script.write_text("import time\ntime.sleep(600)\n")
        argv = [sys.executable, str(script)]
        with open(os.devnull, "wb") as out:
            process = await zygote.spawn(Request(argv, dict(os.environ), None), out.fileno())
            zygote.process.kill()
            with pytest.raises(ZygoteError, match="ended before process"):
                await asyncio.wait_for(process.wait(), 60)
            with pytest.raises(ZygoteError, match="ended before process"):
                _ = process.returncode
            with pytest.raises(ZygoteError, match="did not fork"):
                await asyncio.wait_for(zygote.spawn(Request(argv, dict(os.environ), None), out.fileno()), 60)
    finally:
        zygote.stop()


def test_other_command_lines_or_environments_get_a_real_subprocess():
    env = dict(os.environ)
    assert zygote_for([sys.executable, "-m", "bot"], env)
    assert zygote_for([sys.executable, "-X", "dev", "-m", "bot"], env) is None
    assert zygote_for(["python3", "-m", "bot"], env) is None
    assert zygote_for([sys.executable, "-m", "bot"], {**env, "PYTHONHASHSEED": "1"}) is None
    assert zygote_for([sys.executable, "-m", "bot"], {**env, "TABLERO_DATABASE": "x.sqlite3"})
    assert zygote_for([sys.executable, "tests/fake_discord_client.py"], env)
    assert zygote_for([sys.executable, "-m", "tests.sixth_game.run"], env) is None   # it changes the bot first
