"""`python -m bot check`: the configuration tested without a token or Discord, one line per result: the
database reachable and writable (nothing changed in it), its schema version one this code knows, the fonts and
the text layout (raqm with FriBiDi: right-to-left names) in place. Exit status 1 when a check failed."""
from __future__ import annotations

import asyncio
import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import asyncpg
from PIL import features

from bot.core.config import Settings
from bot.domain import i18n
from bot.store import CONNECT_TIMEOUT_S, is_postgresql, postgresql_url, shown_url
from bot.store.schema import MIGRATIONS
from renderer.fonts import FALLBACK_FONTS, faces

OK, WARN, FAIL = "check.ok", "check.warn", "check.fail"   # how each result is shown


@dataclass(frozen=True)
class Result:
    status: str   # OK, WARN or FAIL
    key: str      # the catalogue's words for it (check.*)
    params: dict[str, object]

    def line(self, locale: str = "en") -> str:
        return f"{i18n.text(self.status, locale)}: {i18n.text(self.key, locale, **self.params)}"


def run(settings: Settings) -> int:
    """Print one line per check; 0 when none failed, else 1."""
    results = [*database_results(settings.database), fonts_result(), layout_result(), token_result(settings)]
    for result in results:
        print(result.line())
    return 1 if any(r.status == FAIL for r in results) else 0


def database_results(database: str) -> list[Result]:
    """Reachable and writable, then the schema version (None: no schema yet)."""
    if is_postgresql(database):
        shown = shown_url(database)
        try:
            version = asyncio.run(_postgresql_version(database))
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
            return [Result(FAIL, "check.database.unreachable", {"database": shown, "reason": _said(error)})]
    else:
        shown = database
        if not Path(database).exists():
            folder = Path(database).resolve().parent
            if folder.is_dir() and os.access(folder, os.W_OK):
                return [Result(OK, "check.database.new", {"database": shown, "folder": folder})]
            return [Result(FAIL, "check.database.no_folder", {"database": shown, "folder": folder})]
        try:
            version = _sqlite_version(database)
        except sqlite3.Error as error:
            return [Result(FAIL, "check.database.unreachable", {"database": shown, "reason": _said(error)})]
    return [Result(OK, "check.database.writable", {"database": shown}), schema_result(version)]


def schema_result(version: int | None) -> Result:
    known = len(MIGRATIONS)
    if not version:
        return Result(OK, "check.schema.empty", {"known": known})
    if version > known:
        return Result(FAIL, "check.schema.newer", {"version": version, "known": known})
    if version < known:
        return Result(OK, "check.schema.older", {"version": version, "known": known})
    return Result(OK, "check.schema.current", {"version": version})


def _sqlite_version(path: str) -> int:
    """The schema version (PRAGMA user_version), after a write that changes nothing."""
    with closing(sqlite3.connect(path, timeout=CONNECT_TIMEOUT_S)) as db:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        db.execute(f"PRAGMA user_version={int(version)}")
    return int(version)


async def _postgresql_version(url: str) -> int | None:
    """The schema version (its one-row table; None: no schema yet), after a write rolled back."""
    dsn = postgresql_url(url).set(drivername="postgresql").render_as_string(False)
    conn = await asyncpg.connect(dsn, timeout=CONNECT_TIMEOUT_S)
    try:
        async with conn.transaction():
            version = None
            if await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL"):
                version = await conn.fetchval("SELECT version FROM schema_version")
            await conn.execute("CREATE TABLE tablero_check (written integer)")   # needs the right to write
            raise _RollBack(version)
    except _RollBack as done:
        return done.version
    finally:
        await conn.close()


class _RollBack(Exception):
    def __init__(self, version: int | None):
        super().__init__()
        self.version = version


def fonts_result() -> Result:
    found = faces()
    if not Path(found[0]).is_file():
        return Result(FAIL, "check.fonts.missing", {"font": found[0]})
    if len(found) - 1 < len(FALLBACK_FONTS[False]):
        return Result(WARN, "check.fonts.fallbacks", {"found": len(found) - 1, "wanted": len(FALLBACK_FONTS[False])})
    return Result(OK, "check.fonts.ok", {"found": len(found) - 1})


def layout_result() -> Result:
    if not (features.check("raqm") and features.check_feature("fribidi")):
        return Result(FAIL, "check.layout.missing", {})
    return Result(OK, "check.layout.ok", {"raqm": features.version("raqm"), "fribidi": features.version("fribidi")})


def token_result(settings: Settings) -> Result:
    return Result(OK, "check.token.set", {}) if settings.token else Result(WARN, "check.token.unset", {})


def _said(error: BaseException) -> str:
    return (str(error) or type(error).__name__).splitlines()[0]
