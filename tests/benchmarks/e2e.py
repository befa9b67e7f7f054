"""End to end: many games at once through the fake Discord against `python -m bot`: one process, or one
per shard (`processes`, the tables dealt over guilds of every shard), on SQLite or PostgreSQL.

Every table (channel) has two players who act as soon as their board is shown (closed loop, or
after a random think time); a finished game is followed by a new one in the same channel, so
`games` games are in play all along. The run stops by itself after `moves` moves or `seconds`.
Latency is what Discord measures: from the interaction's arrival to the bot's first response
(the fake records it); "board" is from the click until the next board is visible. CPU is the bot
processes' own (the database server's is not counted); the database's load is read from it before and
after the measured phase: actions logged, bytes grown, and on PostgreSQL transactions (each statement
outside a transaction is one) and rows written. With `db_latency_s` (PostgreSQL), the bots reach the database
through a loopback proxy that adds that round trip to each exchange and counts the round trips and statements
(tests/benchmarks/latency_proxy.py). With `scrape_s`, each bot runs its health and metrics listener
(TABLERO_HTTP) and its /metrics is fetched every `scrape_s` seconds all along, as Prometheus would; after the
measured phase, the CPU of one scrape is measured alone (SCRAPES scrapes of the idle bot).
"""
from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import re
import sqlite3
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import asyncpg
from sqlalchemy import make_url

from bot.store import is_postgresql
from tests.benchmarks.common import percentile
from tests.benchmarks.latency_proxy import Counts, LatencyProxy
from tests.benchmarks.tables import Table, Timings, add_players, bot_against_fake, warm_up
from tests.databases import scratch_database

STAGGER_S = 2.0
SCRAPES = 200   # scrapes of the idle bot that time one
# The interaction endpoints (callback, original response, follow-ups): exempt from the global limit.
INTERACTION_ROUTES = ("/interactions/", "/webhooks/")
_ID = re.compile(r"/(\d{6,}|@original)(?=/|$)")


def route_of(method: str, path: str) -> str:
    """A request as its route: ids and tokens replaced by their names."""
    parts = path.split("/")
    if path.startswith(INTERACTION_ROUTES) and len(parts) > 3:
        parts[3] = "{token}"   # /interactions/{id}/{token}/..., /webhooks/{app}/{token}/...
    return f"{method} " + _ID.sub("/{id}", "/".join(parts))


def limit_of(path: str) -> str:
    """Which of Discord's limits a request counts against: "global", or none ("interaction")."""
    return "interaction" if path.startswith(INTERACTION_ROUTES) else "global"


@dataclass(frozen=True)
class E2EFigures:
    games: int                 # tables in play at once
    think_s: float             # mean think time before each click (0: closed loop)
    moves: int                 # rolls and moves applied in the measured phase
    interactions: int          # everything acknowledged in that phase (moves and pawn picks)
    finished: int              # games played to their end (then a new one opened)
    seconds: float
    ack_p50_ms: float
    ack_p99_ms: float
    ack_max_ms: float
    board_p50_ms: float
    board_p99_ms: float
    bot_cpu: float             # share of one core used by the bot
    driver_cpu: float          # share of one core used by the fake Discord and the players (this process)
    stuck: int                 # tables given up after a timeout or an error
    refused: int
    per_game: dict[str, tuple[int, float, float]]   # game -> (moves, ack p50 ms, ack p99 ms)
    errors: list[str]          # why tables got stuck
    misplaced: int             # new states shown on an older board message (see docs/performance.md)
    backend: str = "sqlite"
    processes: int = 1
    bot_cpu_s: float = 0.0     # CPU seconds of the bot processes in the measured phase
    database: dict[str, float] = field(default_factory=dict)   # per move: see `_database_counters`
    scrape_s: float | None = None   # /metrics fetched this often (None: no listener)
    scrapes: int = 0                # fetched in the measured phase
    scrape_cpu_ms: float = 0.0      # the bot's CPU for one scrape, measured alone
    # Requests to Discord per move: counted against the bot's global limit or not (interaction endpoints),
    # and by route (method and template), as the fake received them in the measured phase.
    requests: dict[str, float] = field(default_factory=dict)
    routes: dict[str, float] = field(default_factory=dict)
    db_latency_s: float | None = None   # the round trip the proxy added (None: no proxy)
    db_exchanges: dict[str, float] = field(default_factory=dict)   # per move: round trips, statements
    db_statements: dict[str, float] = field(default_factory=dict)  # per move, by kind ("UPDATE games")

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds

    @property
    def cpu_ms_per_move(self) -> float:
        """What a move costs the bot processes (its board, the acknowledgements and the pawn picks included)."""
        return self.bot_cpu_s * 1000 / max(1, self.moves)


async def _play(table: Table, timings: Timings, until: float, budget: list[int], think: float,
                rng: random.Random) -> int:
    """Play on this table until the time or the shared move budget runs out; return games finished."""
    finished = 0
    try:
        # Players arrive over a second or two, as they would, not in one burst of `games` clicks.
        await asyncio.sleep(rng.uniform(0, STAGGER_S))
        while time.monotonic() < until and budget[0] > 0:
            if table.finished:
                finished += 1
                await table.open()
                continue
            if think:
                await asyncio.sleep(min(rng.expovariate(1 / think), until - time.monotonic()))
                if time.monotonic() >= until:
                    break
            budget[0] -= 1
            await table.play_once(timings)
    except Exception as error:  # a broken table must not stop the run; it is reported
        timings.stuck += 1
        table.error = f"{type(error).__name__}: {str(error)[:200]}"
    return finished


@contextlib.contextmanager
def _no_collector_pauses() -> Iterator[None]:
    """No garbage collection in THIS process (the fake Discord and the players) while it measures: a
    full collection over everything the fake recorded stalls its event loop for a tenth of a second or
    more, and the interactions it was sending or answering then would count that against the bot."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def measure(game_ids: list[str], *, backend: str = "sqlite", **options) -> E2EFigures:
    """`run` on a temporary SQLite file, or on a scratch database of the test server (TABLERO_TEST_POSTGRES)."""
    if backend == "sqlite":
        return asyncio.run(run(game_ids, **options))
    with scratch_database("benchmark") as url:
        return asyncio.run(run(game_ids, database=url, **options))


@contextlib.asynccontextmanager
async def _reached(database: str | None, delay_s: float | None) -> AsyncIterator[tuple[str | None, Counts]]:
    """The database's URL for the bots: itself, or through a latency proxy (TLS off, so that the proxy reads
    the protocol); and the proxy's counts (zero without one)."""
    if database is None or delay_s is None:
        yield database, Counts()
        return
    async with LatencyProxy(database, delay_s) as proxy:
        url = make_url(proxy.url)
        yield url.set(query={**url.query, "sslmode": "disable"}).render_as_string(hide_password=False), proxy.counts


async def _database_counters(database: str) -> dict[str, float]:
    """actions (rows of the log), bytes (the database's size: SQLite's pages in use, PostgreSQL's files, dead
    row versions included until vacuumed), and on PostgreSQL transactions (commits: a statement outside a
    transaction is one, so about the round trips) and rows (inserted, updated or deleted), as the server
    counts them."""
    if not is_postgresql(database):
        with contextlib.closing(sqlite3.connect(database, timeout=5)) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")   # what the log holds, into the file: its pages count
            actions = db.execute("SELECT count(*) FROM actions").fetchone()[0]
            pages = db.execute("PRAGMA page_count").fetchone()[0] - db.execute("PRAGMA freelist_count").fetchone()[0]
            return {"actions": actions, "bytes": pages * db.execute("PRAGMA page_size").fetchone()[0]}
    conn = await asyncpg.connect(make_url(database).set(drivername="postgresql").render_as_string(hide_password=False))
    try:
        row = await conn.fetchrow("SELECT xact_commit, tup_inserted + tup_updated + tup_deleted, "
                                  "pg_database_size(current_database()) FROM pg_stat_database "
                                  "WHERE datname = current_database()")
        actions = await conn.fetchval("SELECT count(*) FROM actions")
    finally:
        await conn.close()
    return {"actions": actions, "bytes": row[2], "transactions": row[0], "rows": row[1]}


async def _scrape(urls: list[str], every: float, scrapes: list[int], times: int | None = None) -> None:
    """GET each URL, then again `every` s later, until cancelled (or `times` scrapes); counted in scrapes[0]."""
    async with aiohttp.ClientSession() as session:
        while times is None or scrapes[0] < times:
            for url in urls:
                async with session.get(url) as response:
                    assert response.status == 200 and await response.read()
                scrapes[0] += 1
            if every:
                await asyncio.sleep(every)


def _group_dm_table(fake, game: str, number: int) -> Table:
    """A table in a group DM of three friends (two play), the host alone having installed the app."""
    players = add_players(fake, 2, f"t{number}")
    fake.install_app(players[0])
    group = fake.add_group_dm(*players, fake.add_user(f"t{number}-watching"), name=f"t{number}")
    return Table(fake, game, players, seed=number, channel=group)


async def run(game_ids: list[str], *, games: int, moves: int, seconds: float, think: float = 0.0,
              opening: int = 40, profile: tuple[str, Path] | None = None, database: str | None = None,
              processes: int = 1, scrape_s: float | None = None, place: str = "server",
              db_latency_s: float | None = None) -> E2EFigures:
    """`games` tables spread evenly over `game_ids` (and over the processes); at most `opening` lobbies
    opened at once. `place`: "server" (channels of servers that installed the bot) or "group-dm" (group DMs
    where one player installed the app: only interactions reach them)."""
    async with _reached(database, db_latency_s) as (reached, exchanges), \
            bot_against_fake(profile, database=reached, processes=processes,
                             listen=scrape_s is not None) as (fake, bots):
        await warm_up(fake, game_ids, bots=bots)
        if place == "group-dm":
            tables = [_group_dm_table(fake, game_ids[i % len(game_ids)], i) for i in range(games)]
        else:
            tables = [Table(fake, game_ids[i % len(game_ids)], add_players(fake, 2, f"t{i}"), seed=i,
                            channel=bots.channel(fake, f"t{i}", i))
                      for i in range(games)]
        gate = asyncio.Semaphore(opening)

        async def open_one(table: Table) -> None:
            async with gate:
                await table.open()
        await asyncio.gather(*(open_one(t) for t in tables))
        timings = {g: Timings() for g in game_ids}
        seen, sent = len(fake.interactions), len(fake.requests)
        rng = random.Random(0)
        counted = await _database_counters(database or bots.database)
        exchanged = (exchanges.round_trips, exchanges.statements)
        kinds = Counter(exchanges.kinds)
        cpu0, own0, start = bots.cpu_seconds(), time.process_time(), time.monotonic()
        budget = [moves]
        scrapes, alone = [0], [0]
        with _no_collector_pauses():
            scraping = asyncio.create_task(_scrape(bots.metrics, scrape_s or 0.0, scrapes)) if bots.metrics else None
            done = await asyncio.gather(*(_play(t, timings[t.game], start + seconds, budget, think, rng)
                                          for t in tables))
            if scraping:
                scraping.cancel()
        elapsed = time.monotonic() - start
        exchanged = (exchanges.round_trips - exchanged[0], exchanges.statements - exchanged[1])
        kinds = exchanges.kinds - kinds
        bot_cpu_s = bots.cpu_seconds() - cpu0
        requests = fake.requests[sent:]
        driver_cpu = (time.process_time() - own0) / elapsed
        scrape_cpu_ms = 0.0
        if bots.metrics:   # one scrape's CPU, the bot idle otherwise
            idle = bots.cpu_seconds()
            await _scrape(bots.metrics, 0.0, alone, times=SCRAPES)
            scrape_cpu_ms = (bots.cpu_seconds() - idle) * 1000 / alone[0]
        errors = [f"{t.channel.name}: {t.error}" for t in tables if t.error]
        for bot in bots.processes:   # stopped: the database server has counted all they did
            await bot.terminate()
        after = await _database_counters(database or bots.database)
    moved = max(1, sum(len(t.moves) for t in timings.values()))
    by_limit = Counter(limit_of(path) for _, path in requests)
    by_route = Counter(route_of(method, path) for method, path in requests)
    per_move = {key: (after[key] - counted[key]) / moved for key in counted}
    acks = [i.ack_seconds * 1000 for i in fake.interactions[seen:] if i.ack_seconds is not None]
    boards = [s * 1000 for t in timings.values() for s in t.board_seconds]
    per_game = {}
    for game, t in timings.items():
        game_acks = [i.ack_seconds * 1000 for i in t.moves + t.picks if i.ack_seconds is not None]
        per_game[game] = (len(t.moves), percentile(game_acks, 0.5), percentile(game_acks, 0.99))
    figures = E2EFigures(
        games=games, think_s=think, moves=sum(len(t.moves) for t in timings.values()), interactions=len(acks),
        finished=sum(done), seconds=elapsed, ack_p50_ms=percentile(acks, 0.5), ack_p99_ms=percentile(acks, 0.99),
        ack_max_ms=max(acks, default=float("nan")), board_p50_ms=percentile(boards, 0.5),
        board_p99_ms=percentile(boards, 0.99), bot_cpu=bot_cpu_s / elapsed, driver_cpu=driver_cpu,
        stuck=sum(t.stuck for t in timings.values()), refused=sum(t.refused for t in timings.values()),
        per_game=per_game, errors=errors, misplaced=sum(t.misplaced for t in tables),
        backend="postgresql" if database and is_postgresql(database) else "sqlite", processes=processes,
        bot_cpu_s=bot_cpu_s, database=per_move, scrape_s=scrape_s, scrapes=scrapes[0], scrape_cpu_ms=scrape_cpu_ms,
        requests={limit: by_limit[limit] / moved for limit in ("global", "interaction")},
        routes={route: count / moved for route, count in by_route.most_common()}, db_latency_s=db_latency_s,
        db_exchanges={"round trips": exchanged[0] / moved, "statements": exchanged[1] / moved} if db_latency_s else {},
        db_statements={kind: count / moved for kind, count in kinds.most_common()})
    return figures
