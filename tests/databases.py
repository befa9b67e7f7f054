"""The two database backends for tests: a SQLite file, and a real PostgreSQL server.

The server is TABLERO_TEST_POSTGRES (default: the local one with trust auth). Each test run creates a
database of its own there, with a unique name, and drops it at the end; each test that uses it starts
from an empty schema. No server reachable: the PostgreSQL tests skip with one line, except in CI
(CI=true), where that is a failure.
"""
from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import asyncpg
import pytest
from sqlalchemy import make_url

SERVER = os.environ.get("TABLERO_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
BACKENDS = ("sqlite", "postgresql")


def _dsn(url: str) -> str:
    """asyncpg's spelling of a SQLAlchemy-style URL (no +driver)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _admin(sql: str) -> None:
    connection = await asyncpg.connect(_dsn(SERVER), timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


async def _reset(url: str) -> None:
    connection = await asyncpg.connect(_dsn(url), timeout=5)
    try:
        await connection.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    finally:
        await connection.close()


class Unreachable(Exception):
    """No PostgreSQL server answers at TABLERO_TEST_POSTGRES."""


@contextmanager
def scratch_database(purpose: str = "test") -> Iterator[str]:
    """A new database on the test server, with a unique name; its URL; dropped afterwards."""
    name = f"tablero_{purpose}_{uuid.uuid4().hex[:12]}"
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
        raise Unreachable(f"PostgreSQL not reachable at TABLERO_TEST_POSTGRES={make_url(SERVER)!r}: {exc}") from exc
    try:
        yield make_url(SERVER).set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(_admin(f'DROP DATABASE "{name}" WITH (FORCE)'))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of this run's own database on the test server."""
    try:
        with scratch_database() as url:
            yield url
    except Unreachable as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true: PostgreSQL tests must run. {exc}")
        pytest.skip(str(exc))


def empty_database(backend: str, request: pytest.FixtureRequest, tmp_path) -> str:
    """TABLERO_DATABASE for an empty database of `backend`."""
    if backend == "sqlite":
        return str(tmp_path / "t.sqlite3")
    url = request.getfixturevalue("postgres_server")
    asyncio.run(_reset(url))
    return url


@pytest.fixture(params=BACKENDS)
def database(request, tmp_path) -> str:
    """An empty database, once per backend: a SQLite file's path, then a postgresql:// URL."""
    return empty_database(request.param, request, tmp_path)


@pytest.fixture
def postgresql_database(request, tmp_path) -> str:
    """An empty PostgreSQL database, for the tests of PostgreSQL alone."""
    return empty_database("postgresql", request, tmp_path)
