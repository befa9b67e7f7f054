"""`python -m bot.tools.backup DEST`: a consistent copy of the bot's SQLite database, taken while the bot runs;
`python -m bot.tools.backup --restore BACKUP`: that copy put back, the bot stopped (docs/backup.md).

The copy is SQLite's online backup (sqlite3.Connection.backup) in one step: it reads one snapshot of the
database, the pages still in the write-ahead log included, while the bot goes on writing (in WAL mode a
reader blocks no writer). It is written beside DEST and renamed into place once whole and checked, so that
DEST is never half a database. A restore is the same copy the other way, through SQLite too: the target's
own log is first replayed and removed, never left to be replayed over the restored pages.

PostgreSQL is backed up with its own tools (pg_dump / pg_restore); the command says so and prints them.
"""
from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import make_url

from bot.core.config import database_setting
from bot.domain import i18n
from bot.store import client_options, is_postgresql


@dataclass(frozen=True)
class Copied:
    games: int
    size: int          # bytes of the copy
    seconds: float


def copy_database(source: str, target: str) -> Copied:
    """Copy the SQLite database `source` (which must exist; read only) to the file `target`, whole or not
    at all. sqlite3.Error when `source` is no database or the copy is not sound."""
    started = time.perf_counter()
    partial = f"{target}.partial"
    Path(partial).unlink(missing_ok=True)
    with closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as src, \
            closing(sqlite3.connect(partial)) as dst:
        src.backup(dst)   # one step: one snapshot of the source, its WAL included
        if (check := dst.execute("PRAGMA quick_check").fetchone()[0]) != "ok":
            raise sqlite3.DatabaseError(check)
        games = dst.execute("SELECT count(*) FROM games").fetchone()[0]
        dst.execute("PRAGMA journal_mode=DELETE")   # one self-contained file (the bot turns WAL back on)
    os.replace(partial, target)
    return Copied(games, Path(target).stat().st_size, time.perf_counter() - started)


def restore_database(backup: str, target: str) -> Copied:
    """Replace the SQLite database `target` (the bot stopped) by the copy `backup`, through SQLite's backup
    into `target`'s own connection: its write-ahead log, if any, is replaced with it."""
    started = time.perf_counter()
    with closing(sqlite3.connect(f"file:{backup}?mode=ro", uri=True)) as src, closing(sqlite3.connect(target)) as dst:
        if (check := src.execute("PRAGMA quick_check").fetchone()[0]) != "ok":
            raise sqlite3.DatabaseError(check)
        dst.execute("PRAGMA journal_mode=DELETE")   # its log replayed and removed; written once (the bot turns WAL on)
        src.backup(dst)
        games = dst.execute("SELECT count(*) FROM games").fetchone()[0]
    return Copied(games, Path(target).stat().st_size, time.perf_counter() - started)


def _destination(dest: str, database: str) -> str:
    """DEST itself, or in a folder DEST a file named after the database and the time (UTC)."""
    if Path(dest).is_dir():
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        return str(Path(dest) / f"{Path(database).stem}-{stamp}.sqlite3")
    return dest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.backup", description=i18n.text("backup.cli", "en"))
    parser.add_argument("dest", help=i18n.text("backup.cli_dest", "en"))
    parser.add_argument("--restore", action="store_true", help=i18n.text("backup.cli_restore", "en"))
    parser.add_argument("--database", help=i18n.text("backup.cli_database", "en"))
    args = parser.parse_args(argv)
    database = args.database or database_setting()
    if is_postgresql(database):
        url = make_url(database).set(drivername="postgresql")
        print(i18n.text("backup.postgresql", "en", url=url.render_as_string(hide_password=True),
                        database=url.database or "tablero", options=client_options(database)), file=sys.stderr)
        return 2
    if args.restore:
        if not Path(args.dest).is_file():
            print(i18n.text("backup.no_file", "en", path=args.dest), file=sys.stderr)
            return 1
        source, target = args.dest, database
    else:
        if not Path(database).is_file():
            print(i18n.text("backup.no_file", "en", path=database), file=sys.stderr)
            return 1
        source, target = database, _destination(args.dest, database)
    try:
        copied = (restore_database if args.restore else copy_database)(source, target)
    except (sqlite3.Error, OSError) as error:
        print(i18n.text("backup.failed", "en", source=source, target=target, reason=error), file=sys.stderr)
        return 1
    print(i18n.text("backup.restored" if args.restore else "backup.done", "en", source=source, target=target,
                    games=copied.games, megabytes=f"{copied.size / 1e6:.1f}", seconds=f"{copied.seconds:.2f}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
