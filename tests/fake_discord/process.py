"""A bot (or any discord.py program) run as a subprocess against the fake."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from pathlib import Path
from typing import IO, TYPE_CHECKING

from tests.support.zygote import ForkedProcess, Request, zygote_for

if TYPE_CHECKING:
    from tests.fake_discord.driver import FakeDiscord

log = logging.getLogger(__name__)


class ClientProcess:
    """A bot run as `argv` in a subprocess against the fake: start, terminate (SIGTERM), kill (SIGKILL).

    In the test session the subprocess is forked from a zygote that has the bot imported (tests/fake_discord/
    zygote.py) when `argv` is `python -m bot ...` or `python script.py ...`."""

    def __init__(self, fake: FakeDiscord, argv: list[str], env: dict[str, str], cwd: str | Path | None,
                 log_path: Path | None, shards: list[int], *, fork: bool = True):
        self.fake, self.argv, self.env, self.cwd = fake, argv, env, cwd
        self.shards, self.fork = shards, fork
        self.log_path = log_path
        self.process: asyncio.subprocess.Process | ForkedProcess | None = None
        self._log_file: IO[bytes] | None = None

    async def start(self, *, timeout: float = 30.0, require_sync: bool | None = None) -> None:
        """Start and wait until each of its shards has identified on the gateway and the commands are synced.

        `require_sync` (default: only on the first start) waits for a command sync by this process."""
        if require_sync is None:
            require_sync = not self.fake.commands
        identified, syncs = len(self.fake.identified), self.fake.command_syncs
        process: asyncio.subprocess.Process | ForkedProcess
        self._log_file = open(self.log_path, "ab") if self.log_path else None
        if self.fork and (zygote := zygote_for(self.argv, self.env)):
            with open(os.devnull, "wb") as devnull:
                output = self._log_file or devnull
                self.process = process = await zygote.spawn(
                    Request(self.argv, self.env, None if self.cwd is None else str(self.cwd)), output.fileno())
        else:
            self.process = process = await asyncio.create_subprocess_exec(
                *self.argv, env=self.env, cwd=self.cwd, stdin=asyncio.subprocess.DEVNULL,
                stdout=self._log_file or asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.STDOUT)

        def up() -> bool:
            if process.returncode is not None:
                raise AssertionError(f"{self.argv} exited with {process.returncode}:\n{self.log_tail()}")
            fresh = {shard for shard, _ in self.fake.identified[identified:]}
            return (fresh >= set(self.shards) and all(map(self.fake.shard_connected, self.shards))
                    and (self.fake.command_syncs > syncs or not require_sync))
        try:
            await self.fake.wait_until(up, timeout=timeout, what=f"{self.argv} to connect and sync")
        except (TimeoutError, AssertionError) as error:
            if process.returncode is None:
                process.kill()
                await process.wait()
            raise type(error)(f"{error}\n{self.log_tail()}") from None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def terminate(self, *, timeout: float = 10.0) -> int:
        """SIGTERM, then SIGKILL if it does not exit within `timeout`; return the exit code."""
        return await self._stop(signal.SIGTERM, timeout)

    async def kill(self) -> int:
        return await self._stop(signal.SIGKILL, 10.0)

    async def _stop(self, sig: signal.Signals, timeout: float) -> int:
        process = self.process
        if process is None:
            return 0
        if process.returncode is not None:
            return process.returncode
        process.send_signal(sig)
        try:
            returncode = await asyncio.wait_for(process.wait(), timeout)
        except TimeoutError:
            log.error("%s ignored %s; killing it", self.argv, sig.name)
            process.kill()
            returncode = await process.wait()
        if self._log_file:
            self._log_file.close()
        await self.fake.wait_until(lambda: not any(map(self.fake.shard_connected, self.shards)), timeout=10,
                                   what=f"the gateway of shards {self.shards} to close")
        return returncode

    def log_tail(self, lines: int = 40) -> str:
        if not self.log_path or not self.log_path.exists():
            return "(no log)"
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
