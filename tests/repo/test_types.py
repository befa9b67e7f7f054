"""The type checker over bot/, renderer/ and the fake Discord (tests/fake_discord/), with the settings of
pyproject.toml's [tool.mypy]: no error allowed, and those settings strict enough to catch a wrong attribute or
a missing await in code that uses the project's own types."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / ".mypy_cache"
# mypy's report line: path:line: error: message  [code]
ERROR = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+): error: .*\[(?P<code>[a-z-]+)\]$", re.MULTILINE)


def mypy(*arguments: str, cwd: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"),
                           "--cache-dir", str(cache), *arguments],
                          cwd=cwd, capture_output=True, text=True, env={**os.environ, "MYPYPATH": str(REPO)})


def test_the_checked_files_type_check_without_errors():
    result = mypy(cwd=REPO, cache=CACHE)   # the files of [tool.mypy]: bot, renderer and the fake Discord
    assert result.returncode == 0, result.stdout + result.stderr


# A wrong attribute and a missing await (a coroutine that never runs; a coroutine read as its result, its
# `is None` test then always false), on the project's real store, and a parameter left unannotated (Any, on
# which a wrong attribute would pass): each marked line reported with its codes.
SNIPPET = textwrap.dedent("""\
    from bot.store import Store


    async def close(store: Store) -> None:
        store.close()  # expect: unused-coroutine


    async def misspelt(store: Store) -> None:
        await store.clsoe()  # expect: attr-defined


    async def version(store: Store, channel_id: int) -> int:
        record = store.games.open_game(channel_id)
        return 0 if record is None else record.version  # expect: redundant-expr attr-defined no-any-return


    async def untyped(store):  # expect: no-untyped-def
        await store.clsoe()
    """)


def test_the_settings_catch_a_wrong_attribute_and_a_missing_await(tmp_path):
    (tmp_path / "snippet.py").write_text(SNIPPET, encoding="utf-8")
    expected = {(number, code) for number, line in enumerate(SNIPPET.splitlines(), start=1)
                if "# expect: " in line for code in line.rpartition("# expect: ")[2].split()}
    # Errors in the snippet only (the project's own are the test above's); a cache of its own, since these
    # options differ from the project run's.
    result = mypy("--follow-imports=silent", "snippet.py", cwd=tmp_path, cache=CACHE / "snippets")
    reported = {(int(m["line"]), m["code"]) for m in ERROR.finditer(result.stdout) if m["path"] == "snippet.py"}
    assert reported == expected, result.stdout + result.stderr
