"""A PostgreSQL a few milliseconds away, on loopback: a TCP proxy in front of the test server that holds each
of the server's answers `delay_s` before passing it on (a whole round trip's worth, added once per exchange),
and counts what crosses it by reading PostgreSQL's wire protocol (frontend messages: a type byte, then a
32-bit length that counts itself).

- round trips: each time the client writes after having read (or first writes) on a connection, it waits for
  an answer: one round trip. Messages pipelined in one go (asyncpg's Parse/Bind/Execute/Sync, or a batch) are
  one.
- statements: Execute ('E') and simple Query ('Q') messages, also by what each statement does (`kinds`: its
  verb and table, read from the Parse message that prepared it).

Started and stopped by the benchmark (`async with LatencyProxy(url, delay_s) as proxy: proxy.url`); it listens
on 127.0.0.1 only and stops with the benchmark.
"""
from __future__ import annotations

import asyncio
import contextlib
import re
import struct
import time
from collections import Counter
from dataclasses import dataclass, field
from types import TracebackType

from sqlalchemy import make_url

_STARTUP = 0   # the client's first messages (startup, SSL request) carry no type byte


_WHAT = re.compile(r"(?:^|\)\s*)(SELECT|INSERT INTO|UPDATE|DELETE FROM|BEGIN|COMMIT|ROLLBACK)\b(?:.*?\bFROM)?\s*(\w*)",
                   re.S | re.I)


def what_of(sql: str) -> str:
    """A statement's kind: its last verb and the table it names ("UPDATE games", "SELECT away_periods")."""
    found = _WHAT.findall(sql)
    if not found:
        return sql.split(None, 1)[0] if sql.strip() else "?"
    verb, table = found[-1] if not sql.lstrip().upper().startswith("WITH") else found[-1]
    return f"{verb.split()[0].upper()} {table}".strip()


@dataclass
class Counts:
    round_trips: int = 0
    statements: int = 0
    kinds: Counter[str] = field(default_factory=Counter)


class LatencyProxy:
    def __init__(self, url: str, delay_s: float) -> None:
        self._target = make_url(url)
        self.delay_s = delay_s
        self.counts = Counts()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.url = ""

    async def __aenter__(self) -> LatencyProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.url = self._target.set(host="127.0.0.1", port=port).render_as_string(hide_password=False)
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), 1)

    async def _serve(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            server_reader, server_writer = await asyncio.open_connection(self._target.host or "127.0.0.1",
                                                                         self._target.port or 5432)
        except OSError:
            client_writer.close()
            self._tasks.discard(task)
            return
        waiting = [False]   # the client has written since it last read: the next write is no new round trip
        upstream = asyncio.create_task(self._client_to_server(client_reader, server_writer, waiting))
        downstream = asyncio.create_task(self._server_to_client(server_reader, client_writer, waiting))
        try:
            await asyncio.wait((upstream, downstream), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for side in (upstream, downstream):
                side.cancel()
            await asyncio.gather(upstream, downstream, return_exceptions=True)
            for writer in (client_writer, server_writer):
                writer.close()
            self._tasks.discard(task)

    async def _client_to_server(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                                waiting: list[bool]) -> None:
        pending = b""
        phase = _STARTUP
        prepared: dict[bytes, str] = {}   # this connection's prepared statements, by name
        state = [phase, b""]   # the phase, and the statement the last Bind named
        while chunk := await reader.read(65536):
            if not waiting[0]:
                self.counts.round_trips += 1
                waiting[0] = True
            pending += chunk
            pending = self._count(pending, state, prepared)
            writer.write(chunk)
            await writer.drain()

    def _count(self, data: bytes, state: list, prepared: dict[bytes, str]) -> bytes:
        """Count the whole messages of `data`; what is left of an unfinished one. `state`: the connection's
        phase and the statement its last Bind named."""
        at = 0
        while True:
            if state[0] == _STARTUP:
                if len(data) - at < 8:
                    break
                length, code = struct.unpack_from("!ii", data, at)
                at += length
                if code != 80877103:   # not an SSL request: the startup message; typed messages follow
                    state[0] = 1
                continue
            if len(data) - at < 5:
                break
            kind = data[at:at + 1]
            (length,) = struct.unpack_from("!i", data, at + 1)
            if len(data) - at < 1 + length:
                break
            body = data[at + 5:at + 1 + length]
            if kind == b"P":   # Parse: name, query
                name, _, rest = body.partition(b"\0")
                prepared[name] = what_of(rest.partition(b"\0")[0].decode(errors="replace"))
            elif kind == b"B":   # Bind: portal, statement name
                state[1] = body.partition(b"\0")[2].partition(b"\0")[0]
            elif kind == b"E":
                self.counts.statements += 1
                self.counts.kinds[prepared.get(state[1], "?")] += 1
            elif kind == b"Q":
                self.counts.statements += 1
                self.counts.kinds[what_of(body.rstrip(b"\0").decode(errors="replace"))] += 1
            at += 1 + length
        return data[at:]

    async def _server_to_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                                waiting: list[bool]) -> None:
        """Each chunk of the server's answer is passed on `delay_s` after it came, in order."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, chunk = await queue.get()
                if (wait := due - time.monotonic()) > 0:
                    await asyncio.sleep(wait)
                waiting[0] = False
                writer.write(chunk)
                await writer.drain()

        delivering = asyncio.create_task(deliver())
        try:
            while chunk := await reader.read(65536):
                queue.put_nowait((time.monotonic() + self.delay_s, chunk))
            while not queue.empty():
                await asyncio.sleep(self.delay_s / 2 or 0.001)
        finally:
            delivering.cancel()
            await asyncio.gather(delivering, return_exceptions=True)
