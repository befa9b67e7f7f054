"""The database out of reach: the one error the store raises for it, and which driver errors mean it.

A PostgreSQL server stopped, restarting or failing over (the connection refused, closed by the server,
timing out), or a SQLite file that cannot be written (read-only, the disk full, locked too long) is no bug:
the store turns each into `StoreUnavailable` (bot/store.py, Store.run), nothing of the call is written,
and the front ends answer "the game's storage is not reachable, try again in a moment". The same URL
answering again is enough: the pool opens new connections (a pooled one the server closed meanwhile is
dropped, and the call tried once more on a fresh one)."""
from __future__ import annotations

import sqlite3

import asyncpg
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

# Raised as they are: by asyncpg while connecting (SQLAlchemy wraps only what a connection raises), and by
# SQLite through aiosqlite (read-only, disk full, locked, cannot open: its OperationalError).
_RAW = (OSError, TimeoutError, asyncpg.exceptions.PostgresConnectionError, asyncpg.exceptions.OperatorInterventionError,
        asyncpg.exceptions.InterfaceError, sqlite3.OperationalError)


class StoreUnavailable(Exception):
    """The database cannot be reached or written just now; nothing of the call was written."""


# SQLSTATE classes of a server out of reach: 08 connection exception, 57 operator intervention (shutting
# down, starting up, terminated by an administrator); what asyncpg raises while connecting comes wrapped so.
_OUT_OF_REACH_CLASSES = ("08", "57")


def unreachable(error: BaseException) -> bool:
    """Whether `error` (from a store call) says the database is out of reach rather than that a query is wrong."""
    if isinstance(error, DBAPIError):
        state = getattr(error.orig, "sqlstate", None) or ""
        return error.connection_invalidated or isinstance(error, (OperationalError, InterfaceError)) \
            or state.startswith(_OUT_OF_REACH_CLASSES)
    return isinstance(error, _RAW)


def stale_connection(error: BaseException) -> bool:
    """A pooled connection the server closed (a restart since its last use): the call may be tried again on a
    new one. The server ended its transaction uncommitted; a write that went through all the same is refused
    the second time by the version check."""
    return isinstance(error, DBAPIError) and error.connection_invalidated
