"""A disk of the tests' own that fails as a real one does: a small ext4 filesystem in a file, mounted on a loop
device with `errors=remount-ro` in a private mount namespace (`unshare --mount`: nothing outside sees it, and
it goes away with the process), that a test turns read-only the way the kernel does after a disk error
(ext4's `trigger_fs_error`). A file made read-only by chmod would not do: SQLite's open connection keeps
writing, and root writes whatever the mode; a read-only bind mount cannot be remounted under an open file.

It needs root (mount, loop devices) and `mkfs.ext4`, `losetup`, `unshare`: without them the tests skip, with
one line saying why (CI's runner is no root).
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

TOOLS = ("mkfs.ext4", "losetup", "unshare", "mount")
SIZE = 16 * 1024 * 1024


class FailingDisk:
    def __init__(self, directory: Path):
        self.image = directory / "disk.img"
        self.mount_point = directory / "disk"

    def make(self) -> None:
        with open(self.image, "wb") as image:
            image.truncate(SIZE)
        subprocess.run(["mkfs.ext4", "-q", "-F", str(self.image)], check=True, capture_output=True)
        self.mount_point.mkdir()

    def command(self, argv: list[str]) -> list[str]:
        """`argv` run with this disk mounted at mount_point, in a mount namespace of its own."""
        script = f'mount -o loop,errors=remount-ro "{self.image}" "{self.mount_point}" && exec "$@"'
        return ["unshare", "--mount", "sh", "-c", script, "sh", *argv]

    def fail(self) -> None:
        """The filesystem meets an error: the kernel makes it read-only, under the open files too."""
        device = subprocess.run(["losetup", "-j", str(self.image), "-n", "-O", "NAME"], check=True,
                                capture_output=True, text=True).stdout.split()[0]
        Path(f"/sys/fs/ext4/{Path(device).name}/trigger_fs_error").write_text("a disk error staged by a test")

    def path_seen_by(self, pid: int, path: Path) -> Path:
        """`path` (under mount_point) as the process `pid` sees it, from outside its namespace."""
        return Path(f"/proc/{pid}/root") / path.relative_to("/")


def failing_disk(directory: Path) -> FailingDisk:
    """A FailingDisk made in `directory`; the test skips when the machine cannot stage it."""
    missing = [tool for tool in TOOLS if not shutil.which(tool)]
    if os.geteuid() != 0 or missing:
        pytest.skip(f"a failing disk needs root and {', '.join(TOOLS)} (missing: {', '.join(missing) or 'root'})")
    disk = FailingDisk(directory)
    disk.make()
    probe = subprocess.run(disk.command(["true"]), capture_output=True, text=True)
    if probe.returncode:
        pytest.skip(f"a failing disk cannot be mounted here: {probe.stderr.strip()}")
    return disk
