"""A fork server for the test suite's bot processes: each test still gets a fresh bot process of its own, forked
from a process that imported discord.py, aiohttp, SQLAlchemy, Pillow and the bot once, instead of a new
interpreter paying those imports (~0.8 CPU-s a start, most of the CPU of the end-to-end tests).

`python -m tests.support.zygote SOCKET` imports, then serves requests on the Unix socket SOCKET (SEQPACKET:
one message a request or an answer). A request is an argv of the forms `python -m module ...` or
`python script.py ...`, its environment, its working directory, and the file descriptor its stdout and stderr
go to. The zygote forks; the child makes itself what the interpreter would have made of that command line
(sys.argv, sys.path[0], the environment, the working directory, its output) and runs the module or script as
`__main__`; it then ends as an interpreter does (non-daemon threads joined, atexit handlers run, SystemExit
codes, a traceback and 1 for an uncaught exception). The zygote answers with the child's pid and a pidfd, and
once the child has ended, with its exit code as asyncio reports it (minus the signal number if it was killed).

Settings are read at run time, never at import (bot/core/config.py), so importing the bot ahead changes nothing
`python -m bot` does; a program that changes the bot before importing it (tests.sixth_game.run) is not forked
(FORKED_MODULES). What a fork does not give afresh: the string hash seed is the zygote's (`random` is reseeded by Python
at fork), and modules the zygote imported are there without the program importing them: a fresh
interpreter's `python -m bot` stays tested (tests/test_main.py starts one with `fork=False`, tests/test_upgrades.py
and the console tests with subprocess).

The test side (`Zygote.spawn`, used by ClientProcess once the test session called `use_zygote`) gets a
ForkedProcess, with the interface of asyncio's Process that the tests use. An argv of another form or module, or
an environment that differs from the zygote's in a variable the interpreter or an import could read, gets a
real subprocess instead (ClientProcess)."""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import os
import runpy
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

# Imported by the zygote: all that `python -m bot` imports on its way to connecting (bot/__main__.py imports
# some where used), and the fake's client script's discord.py. Never bot.__main__: runpy would run a module
# already imported.
PRELOAD = ("argparse", "sqlite3", "aiohttp", "asyncpg", "discord", "yarl", "sqlalchemy.exc", "PIL.PngImagePlugin",
           "bot.app", "bot.core.config", "bot.games", "bot.domain.i18n", "bot.operations.listener",
           "bot.operations.logs", "bot.core.outages", "bot.store.schema", "bot.domain.seating", "bot.core.shards",
           "bot.store", "renderer.writing")
# The modules forked as `python -m module`: those that take the bot as imported. tests.sixth_game.run adds a game
# before the bot's modules are imported (its menus are built at import): a fresh interpreter.
FORKED_MODULES = ("bot",)
# Variables of a request's environment that may differ from the zygote's: read by the programs at run time
# (pytest's PYTEST_CURRENT_TEST, by none).
RUN_TIME_VARIABLES = ("TABLERO_", "DISCORD_", "FAKE_", "PYTEST_CURRENT_TEST")
MAX_MESSAGE = 1 << 20
ANSWER_S = 60.0       # the most a fork may take to be answered (a loaded machine)
READY_S = 120.0       # the most the zygote's imports may take
PARENT_POLL_S = 1.0   # how often the zygote checks that the test process that started it is still there

log = logging.getLogger(__name__)


class ZygoteError(RuntimeError):
    """The zygote is gone or failed: the test cannot know what became of its process."""


@dataclass
class Request:
    argv: list[str]
    env: dict[str, str]
    cwd: str | None


def forkable(argv: Sequence[str]) -> bool:
    """`python -m module ...` or `python script.py ...`, with this interpreter and no option."""
    return (len(argv) >= 2 and argv[0] == sys.executable
            and ((argv[1] == "-m" and len(argv) >= 3) or (argv[1].endswith(".py") and not argv[1].startswith("-"))))


# The zygote's side.

class _Server:
    def __init__(self, path: str):
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.listener.bind(path + ".new")
        self.listener.listen(64)
        os.rename(path + ".new", path)   # a client that sees the path can connect
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(self.wake_w, False)
        self.pending: set[socket.socket] = set()                 # connected, request not read yet
        self.children: dict[int, socket.socket | None] = {}      # pid: its requester (None once it hung up)
        self.stopping = False
        self.parent = os.getppid()

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if signum == signal.SIGTERM:
            self.stopping = True

    def serve(self) -> Request | None:
        """Serve until SIGTERM or the parent's end (then None), or, in a forked child, return its request."""
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, self._on_signal)
        signal.signal(signal.SIGTERM, self._on_signal)
        while not self.stopping and os.getppid() == self.parent:
            watched: list[socket.socket | int] = [self.listener, self.wake_r, *self.pending,
                                                  *(conn for conn in self.children.values() if conn)]
            readable, _, _ = select.select(watched, [], [], PARENT_POLL_S)
            while True:
                try:
                    os.read(self.wake_r, 4096)
                except BlockingIOError:
                    break
            self._reap()
            for ready in readable:
                if ready is self.listener:
                    self.pending.add(self.listener.accept()[0])
                elif ready in self.pending:
                    assert isinstance(ready, socket.socket)
                    if (request := self._answer(ready)) is not None:
                        return request
                elif (pid := next((pid for pid, conn in self.children.items() if conn is ready), None)) is not None:
                    # Its requester hung up (not a child reaped above, whose requester was closed): it goes too.
                    self.children[pid] = None
                    assert isinstance(ready, socket.socket)
                    ready.close()
                    os.kill(pid, signal.SIGKILL)
        for pid in self.children:
            os.kill(pid, signal.SIGKILL)
        while self.children:
            self._reap(block=True)
        return None

    def _answer(self, conn: socket.socket) -> Request | None:
        self.pending.discard(conn)
        message, fds, _, _ = socket.recv_fds(conn, MAX_MESSAGE, 1, socket.MSG_CMSG_CLOEXEC)
        if not message or len(fds) != 1:
            for fd in fds:
                os.close(fd)
            conn.close()
            return None
        request = Request(**json.loads(message))
        assert threading.active_count() == 1 and len(os.listdir("/proc/self/task")) == 1, "the zygote has threads"
        assert asyncio._get_running_loop() is None, "the zygote runs an event loop"
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            self._become(request, fds[0], conn)
            return request
        os.close(fds[0])
        pidfd = os.pidfd_open(pid)
        try:
            socket.send_fds(conn, [json.dumps({"pid": pid}).encode()], [pidfd])
            self.children[pid] = conn
        except OSError:   # the requester is gone
            conn.close()
            self.children[pid] = None
            os.kill(pid, signal.SIGKILL)
        finally:
            os.close(pidfd)
        return None

    def _become(self, request: Request, output: int, conn: socket.socket) -> None:
        """In the child: nothing of the zygote's left (its signal handlers, sockets), the request's setting."""
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        for sock in (self.listener, conn, *self.pending, *(c for c in self.children.values() if c)):
            sock.close()
        os.close(self.wake_r)
        os.close(self.wake_w)
        os.dup2(output, 1)
        os.dup2(output, 2)
        os.close(output)
        os.environ.clear()
        os.environ.update(request.env)
        time.tzset()
        if request.cwd is not None:
            os.chdir(request.cwd)

    def _reap(self, *, block: bool = False) -> None:
        while self.children:
            pid, status, usage = os.wait4(-1, 0 if block else os.WNOHANG)
            if pid == 0:
                return
            conn = self.children.pop(pid, None)
            if conn:
                report = {"returncode": os.waitstatus_to_exitcode(status), "cpu": usage.ru_utime + usage.ru_stime}
                try:
                    conn.send(json.dumps(report).encode())
                except OSError:
                    pass   # the requester is gone: no one to tell
                conn.close()
            if block:
                return


def run(request: Request) -> None:
    """In the child: what `python -m module ...` or `python script.py ...` does."""
    argv = request.argv
    sys.orig_argv = list(argv)
    if argv[1] == "-m":
        sys.path[0] = os.getcwd()
        sys.argv = [argv[2], *argv[3:]]   # runpy sets sys.argv[0] to the module's file
        runpy.run_module(argv[2], run_name="__main__", alter_sys=True)
    else:
        sys.path[0] = os.path.dirname(os.path.realpath(argv[1]))
        sys.argv = argv[1:]
        runpy.run_path(argv[1], run_name="__main__")


def main() -> None:
    path = sys.argv[1]
    for module in PRELOAD:
        importlib.import_module(module)
    request = _Server(path).serve()
    if request is not None:
        run(request)   # SystemExit and other exceptions end this child as they end the interpreter


# The test side.

class ForkedProcess:
    """A process forked by the zygote, with the interface of asyncio.subprocess.Process that the tests use."""

    def __init__(self, conn: socket.socket, pid: int, pidfd: int, zygote: Zygote):
        self.pid = pid
        self._conn, self._pidfd, self._zygote = conn, pidfd, zygote
        self._returncode: int | None = None
        self.cpu_seconds: float | None = None   # user + system, once it has ended
        self._lost: str | None = None
        self._ended = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> int:
        try:
            message, _ = await _receive(self._conn)
        finally:
            self._conn.close()
        if not message:
            self._lost = (f"the test zygote ended before process {self.pid} did; what became of it is unknown "
                          f"(the zygote {self._zygote.describe()})")
            try:
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.close(self._pidfd)
            raise ZygoteError(self._lost)
        report = json.loads(message)
        self._returncode, self.cpu_seconds = report["returncode"], report["cpu"]
        os.close(self._pidfd)
        return self._returncode

    @property
    def returncode(self) -> int | None:
        if self._lost:
            raise ZygoteError(self._lost)
        return self._returncode

    async def wait(self) -> int:
        return await asyncio.shield(self._ended)

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            try:
                signal.pidfd_send_signal(self._pidfd, sig)
            except ProcessLookupError:
                pass   # ended, and its end not told yet

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


async def _receive(conn: socket.socket) -> tuple[bytes, list[int]]:
    """One message (b"" at the end of the connection) and the file descriptors it carries."""
    loop = asyncio.get_running_loop()
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(conn, MAX_MESSAGE, 1, socket.MSG_CMSG_CLOEXEC)
            return message, fds
        except BlockingIOError:
            readable = loop.create_future()

            def ready(readable: asyncio.Future[None] = readable) -> None:
                if not readable.done():
                    readable.set_result(None)
            loop.add_reader(conn, ready)
            try:
                await readable
            finally:
                loop.remove_reader(conn)


class Zygote:
    """The zygote of this test process (one per xdist worker), started on first need."""

    def __init__(self, env: dict[str, str]):
        self.folder = Path(tempfile.mkdtemp(prefix="tablero-zygote-"))
        self.socket_path = str(self.folder / "zygote.sock")
        self.log_path = self.folder / "zygote.log"
        self.env = env
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen([sys.executable, "-m", __name__, self.socket_path],
                                            cwd=Path(__file__).resolve().parents[2], env=self.env,
                                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)

    def fits(self, argv: Sequence[str], env: dict[str, str]) -> bool:
        """Whether the zygote can fork this command line: a real interpreter would start the same."""
        if not forkable(argv) or (argv[1] == "-m" and argv[2] not in FORKED_MODULES):
            return False
        differ = sorted(name for name in {*env, *self.env}
                        if env.get(name) != self.env.get(name) and not name.startswith(RUN_TIME_VARIABLES))
        if differ:
            log.info("%s started as a fresh interpreter: its environment differs from the zygote's in %s",
                     argv, ", ".join(differ))
        return not differ

    def describe(self) -> str:
        code = self.process.poll()
        state = "is running" if code is None else f"exited with {code}"
        log = self.log_path.read_text(errors="replace")[-4000:] if self.log_path.exists() else ""
        return f"{state}; its log {self.log_path}:\n{log}"

    async def spawn(self, request: Request, output: int) -> ForkedProcess:
        """Fork `request`, its stdout and stderr to the file descriptor `output`; failing loudly if the zygote
        is gone or does not answer."""
        deadline = time.monotonic() + READY_S
        while not os.path.exists(self.socket_path):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise ZygoteError(f"the test zygote did not start: it {self.describe()}")
            await asyncio.sleep(0.05)
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        conn.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(conn, self.socket_path)
            socket.send_fds(conn, [json.dumps(request.__dict__).encode()], [output])
            message, fds = await asyncio.wait_for(_receive(conn), ANSWER_S)
        except (OSError, TimeoutError) as error:
            conn.close()
            raise ZygoteError(f"the test zygote did not fork {request.argv} ({error!r}): it {self.describe()}") \
                from None
        if not message or len(fds) != 1:
            conn.close()
            raise ZygoteError(f"the test zygote did not fork {request.argv}: it {self.describe()}")
        return ForkedProcess(conn, json.loads(message)["pid"], fds[0], self)

    def stop(self) -> None:
        """SIGTERM: it kills what it forked and is still running, then exits; and waited for here, so that its
        CPU time and its children's count in this process's."""
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


class _Use:
    env: dict[str, str] | None = None   # set once the zygote is in use
    zygote: Zygote | None = None


def use_zygote() -> None:
    """From now on, ClientProcess forks what it can from a zygote (the test session: tests/conftest.py), one
    with the environment of now: before a test changes it."""
    _Use.env = dict(os.environ)


def zygote_for(argv: Sequence[str], env: dict[str, str]) -> Zygote | None:
    """The zygote that can fork this command line (started now if need be), or None: a real subprocess then."""
    if _Use.env is None or not forkable(argv):
        return None
    if _Use.zygote is None:
        _Use.zygote = Zygote(_Use.env)
    return _Use.zygote if _Use.zygote.fits(argv, env) else None


def stop_zygote() -> None:
    if _Use.zygote is not None:
        _Use.zygote.stop()
        _Use.zygote = None


if __name__ == "__main__":
    main()
