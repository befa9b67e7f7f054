"""The linter over the whole repository, with the settings of pyproject.toml's [tool.ruff]: no finding allowed,
and those settings catching what they are chosen for (imports out of order or unused, lines over 120
characters, a loop variable captured by a closure)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "pyproject.toml"


def ruff(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--config", str(CONFIG), "--no-cache",
                           *arguments], cwd=cwd, capture_output=True, text=True)


def test_the_repository_has_no_lint_finding():
    result = ruff("--output-format", "concise", ".", cwd=REPO)
    if result.returncode != 0:
        pytest.fail("ruff found what [tool.ruff] forbids (`python -m ruff check --fix` mends the imports; long "
                    "lines are wrapped by hand):\n" + result.stdout + result.stderr, pytrace=False)


# Each marked line is reported with its codes, and nothing else is. (The long line is made long here, since
# this file is linted too.)
SNIPPET = textwrap.dedent("""\
    import sys  # expect: I001
    import os
    import json  # expect: F401


    def callbacks(names: list[str]) -> list:
        return [lambda: print(name, os.sep, sys.argv) for name in names]  # expect: B023


    WORDS = "LONG"  # expect: E501
    """).replace("LONG", "a word " * 20)


def test_the_settings_catch_disorder_unused_imports_long_lines_and_captured_loop_variables(tmp_path):
    (tmp_path / "snippet.py").write_text(SNIPPET, encoding="utf-8")
    expected = {(number, code) for number, line in enumerate(SNIPPET.splitlines(), start=1)
                if "# expect: " in line for code in line.rpartition("# expect: ")[2].split()}
    result = ruff("--output-format", "json", "snippet.py", cwd=tmp_path)
    reported = {(finding["location"]["row"], finding["code"]) for finding in json.loads(result.stdout)}
    assert reported == expected, result.stdout + result.stderr
