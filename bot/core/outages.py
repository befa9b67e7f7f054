"""The database out of reach: the one error the store raises for it, and which driver errors mean it.

A PostgreSQL server stopped, restarting or failing over (the connection refused, closed by the server,
timing out), or a SQLite file that cannot be written (read-only, the disk full, locked too long) is no bug:
the store turns each into `StoreUnavailable` (bot/store/calls.py, Database.run), nothing of the call is written,
and the front ends answer "the game's storage is not reachable, try again in a moment". The same URL
answering again is enough: the pool opens new connections (a pooled one the server closed meanwhile is
dropped, and the call tried again on a fresh one)."""
from __future__ import annotations

import sqlite3

import asyncpg

# Out of reach: asyncpg's connection errors (SQLSTATE class 08, and class 57, operator intervention: shutting
# down, starting up, terminated by an administrator), the network's (OSError, a timeout), a connection
# closed under a call (asyncpg's InterfaceError), one asyncpg dropped (its InternalClientError, below), and
# SQLite's through aiosqlite (read-only, disk full, locked, cannot open: its OperationalError).
_OUT_OF_REACH = (OSError, TimeoutError, asyncpg.PostgresConnectionError, asyncpg.exceptions.OperatorInterventionError,
                 asyncpg.InterfaceError, asyncpg.InternalClientError, sqlite3.OperationalError)
# A pooled connection found closed by the server (a restart since its last use). A restart's notice that
# reaches a connection while it sits idle in the pool leaves asyncpg's protocol mid-exchange: the next call on it
# fails with an InternalClientError ("another operation is in progress"), and asyncpg drops the connection, as
# it does on any error of its protocol.
_STALE = (asyncpg.ConnectionDoesNotExistError, asyncpg.exceptions.AdminShutdownError, ConnectionResetError,
          BrokenPipeError, asyncpg.InternalClientError)


class StoreUnavailable(Exception):
    """The database cannot be reached or written just now; nothing of the call was written."""


def unreachable(error: BaseException) -> bool:
    """Whether `error` (from a store call) says the database is out of reach rather than that a query is wrong."""
    return isinstance(error, _OUT_OF_REACH)


def stale_connection(error: BaseException) -> bool:
    """A pooled connection the server closed (a restart since its last use): the call may be tried again on a
    new one (the pool replaces a closed connection). The server ended its transaction uncommitted; a write
    that went through all the same is refused the second time by the version check."""
    return isinstance(error, _STALE)
