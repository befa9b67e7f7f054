"""The PostgreSQL backend's pooled connections when the server ends them: what reaches pooled connections while
they sit idle (a fast shutdown's notice, before its hang-up) never surfaces as a bug, and the call goes through
on a new connection, however many of the pool's were ended."""
import asyncio
import contextlib

import asyncpg
from sqlalchemy import func, literal_column, select

from bot.store import Store


class HangUpHolder:
    """A TCP relay in front of a PostgreSQL server that passes on all the server says but holds back its
    hang-up (`release`): the gap, between a fast shutdown's "terminating connection" and the closed socket,
    that a busy machine opens by itself."""

    def __init__(self, port: int) -> None:
        self._port = port
        self._server: asyncio.Server | None = None
        self._held: list[asyncio.StreamWriter] = []
        self._holding = True
        self.hung_up = 0   # connections whose server's side closed, its last words passed on
        self.url = ""

    async def __aenter__(self) -> "HangUpHolder":
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.url = f"postgresql://postgres@127.0.0.1:{self._server.sockets[0].getsockname()[1]}/postgres"
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._server is not None
        self._server.close()
        self.release()

    def release(self) -> None:
        """Hang up the connections held, and from now on pass each hang-up on at once."""
        self._holding = False
        for writer in self._held:
            writer.close()
        self._held.clear()

    async def _serve(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self._port)

        async def pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError):
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()

        upstream = asyncio.create_task(pump(client_reader, server_writer))
        await pump(server_reader, client_writer)   # until the server hangs up
        if self._holding:
            self._held.append(client_writer)
            self.hung_up += 1
        else:
            client_writer.close()
        await upstream


async def test_shutdown_notices_reaching_idle_pooled_connections_make_them_stale_connections(own_postgres):
    async with HangUpHolder(own_postgres.port) as relay:
        store = await Store.open(relay.url)
        try:   # three connections in the pool: three calls at once
            pids = await asyncio.gather(*(store.run(lambda db: db.rows(select(func.pg_backend_pid(),
                                                                              func.pg_sleep(0.2))))
                                          for _ in range(3)))
            admin = await asyncpg.connect(own_postgres.url)
            try:   # the server ends the pooled connections, as a fast shutdown ends each one
                await admin.execute("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid",
                                    [rows[0][0] for rows in pids])
            finally:
                await admin.close()
            while relay.hung_up < 3:
                await asyncio.sleep(0.01)
            for _ in range(3):   # the notices, already in the sockets, read by asyncpg
                await asyncio.sleep(0)
            [(one,)] = await store.run(lambda db: db.rows(select(literal_column("1"))))
            assert one == 1   # on a new connection, not asyncpg's InternalClientError
        finally:
            relay.release()
            await store.close()
