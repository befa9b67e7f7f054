"""TABLERO_DATABASE read: a SQLite file's path or a PostgreSQL URL, the URL the driver connects with, and the URL
as messages show it (never its password)."""
from __future__ import annotations

from sqlalchemy import URL, make_url

# Hosts hand out both spellings (Heroku, Render, Supabase: postgres://).
POSTGRESQL_SCHEMES = ("postgresql", "postgres")


def is_postgresql(database: str) -> bool:
    """Whether TABLERO_DATABASE names a PostgreSQL database (a URL) rather than a SQLite file."""
    scheme, separator, _ = database.partition("://")
    return bool(separator) and scheme.partition("+")[0] in POSTGRESQL_SCHEMES


def postgresql_url(database: str) -> URL:
    """The URL SQLAlchemy connects with: asyncpg's driver, the user name and password percent-decoded (a
    password holding @ : / is written %40 %3A %2F in the URL)."""
    return make_url(database).set(drivername="postgresql+asyncpg")


def shown_url(database: str) -> str:
    """A PostgreSQL URL as messages show it: the scheme the user wrote without a driver name (never
    postgresql+asyncpg), the password hidden, even when the URL does not parse (a port that is no number)."""
    scheme = database.partition("://")[0].partition("+")[0]
    try:
        return make_url(database).set(drivername=scheme).render_as_string(hide_password=True)
    except ValueError:   # SQLAlchemy's ArgumentError is one too
        user, at, place = database.partition("://")[2].rpartition("@")
        return f"{scheme}://{user.partition(':')[0] + ':***@' if at else ''}{place}"


def client_options(database: str) -> str:
    """PostgreSQL's own tools' options naming the server and the user of a URL ("-h db -p 5432 -U tablero"), for
    the createdb and pg_restore commands messages print."""
    parts = make_url(database)
    return " ".join(f"{flag} {value}" for flag, value in (("-h", parts.host), ("-p", parts.port),
                                                          ("-U", parts.username)) if value)
