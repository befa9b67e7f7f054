"""A PostgreSQL server of the tests' own, that a test may stop and start in the middle of a game: a throwaway
cluster made with `initdb` and run with `pg_ctl` on a free port of 127.0.0.1, in a temporary directory removed
afterwards. The shared test server (TABLERO_TEST_POSTGRES) is never stopped.

The tools are found on PATH or under /usr/lib/postgresql/<version>/bin. Missing, the tests that need them skip
with one line, except in CI (CI=true), where that is a failure. initdb refuses to run as root: run as root, the
cluster belongs to the `postgres` user and the tools run as that user (runuser).
"""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

SERVICE_USER = "postgres"


def tools() -> Path | None:
    """The directory holding initdb and pg_ctl, if any (the newest version's)."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[-3]))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """One throwaway cluster: `start()`, `stop()` (fast shutdown, as a maintenance restart does), `url`."""

    def __init__(self, bin_dir: Path):
        self.bin_dir = bin_dir
        self.directory = Path(tempfile.mkdtemp(prefix="tablero-pg-"))
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.directory, SERVICE_USER)
        self._run("initdb", "-D", str(self.directory / "data"), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                  "--no-sync")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        argv = [str(self.bin_dir / tool), *args]
        if self.as_root:
            argv = ["runuser", "-u", SERVICE_USER, "--", *argv]
        subprocess.run(argv, check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.directory / "data"), "-l", str(self.directory / "server.log"),
                  "-o", options, "-w", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.directory / "data"), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass   # already stopped
        shutil.rmtree(self.directory, ignore_errors=True)


@pytest.fixture
def own_postgres() -> Iterator[Cluster]:
    """A running PostgreSQL cluster of this test's own (its `url`), stopped and removed afterwards."""
    bin_dir = tools()
    if bin_dir is None:
        message = "initdb/pg_ctl not found (PATH, /usr/lib/postgresql/*/bin): cannot run a PostgreSQL of our own"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true: PostgreSQL restart tests must run. {message}")
        pytest.skip(message)
    cluster = Cluster(bin_dir)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()
