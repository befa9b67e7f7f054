"""The PostgreSQL tests when no server answers: skipped with a one-line reason, except in CI, where that fails."""
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO

ONE_TEST = "tests/store/test_store.py::test_second_open_game_in_a_channel_is_refused[postgresql]"


@pytest.mark.parametrize("ci", [None, "true"])
def test_no_server_skips_outside_ci_and_fails_in_ci(ci):
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["TABLERO_TEST_POSTGRES"] = "postgresql://postgres@127.0.0.1:1/postgres"   # nothing listens there
    if ci:
        env["CI"] = ci
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-n", "0", ONE_TEST], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=120)
    if ci:
        assert done.returncode != 0 and "1 error" in done.stdout
        assert "CI=true: PostgreSQL tests must run" in done.stdout
    else:
        assert done.returncode == 0 and "1 skipped" in done.stdout
        [reason] = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
        assert "PostgreSQL not reachable at TABLERO_TEST_POSTGRES=" in reason
