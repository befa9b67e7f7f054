"""Persistence: games and their action logs in SQLite (aiosqlite, WAL mode).

Every acknowledged action is written with the new snapshot in one
transaction, guarded by the game's version (optimistic concurrency), before
the bot replies. Schema changes are numbered migrations in MIGRATIONS; the
database records how many it has applied (PRAGMA user_version).
A PostgreSQL store would implement the same methods.
"""
from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import aiosqlite

MIGRATIONS: tuple[str, ...] = (
    # 1: games, their seats and snapshot, and the append-only action log.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL,               -- lobby | active | finished | ended
        host_id INTEGER NOT NULL,
        locale TEXT NOT NULL,
        options TEXT NOT NULL,              -- JSON
        seats TEXT NOT NULL,                -- JSON list of Seat
        seed TEXT NOT NULL,                 -- secret; revealed when the game is over
        state TEXT,                         -- JSON snapshot, NULL in the lobby
        version INTEGER NOT NULL DEFAULT 0, -- number of actions applied
        board_message_id INTEGER,
        result TEXT,                        -- JSON once finished or ended
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_open_game_per_channel ON games(channel_id)
        WHERE status IN ('lobby', 'active');
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,               -- version before the action
        seat INTEGER,
        user_id INTEGER,
        action TEXT NOT NULL,
        legal INTEGER NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    """,
    # 2: turn deadlines (see bot/timers.py). A game's waiting time starts at its
    # updated_at, which every write bumps; the settings live in its options.
    """
    ALTER TABLE games ADD COLUMN reminded_version INTEGER;  -- version whose half-time reminder was sent
    CREATE TABLE seat_votes (                   -- votes on a seat whose turns keep expiring
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        voter_id INTEGER NOT NULL,
        choice TEXT NOT NULL,                   -- computer | end
        PRIMARY KEY (game_id, seat, voter_id)
    );
    CREATE TABLE turn_notifications (user_id INTEGER PRIMARY KEY);  -- users who want a DM on their turn
    """,
    # 3: what each action caused, in words (Message JSON), so a board can tell
    # everything that happened since its player last acted.
    """
    ALTER TABLE actions ADD COLUMN events TEXT;
    """,
    # 4: facts about the bot itself, e.g. the digest of the commands last synced (bot/app.py).
    """
    CREATE TABLE bot_facts (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 5: the version of the game its posted board shows, so that a board the bot could not post
    # before a restart is posted at start-up (bot/cogs/game.py, resume).
    """
    ALTER TABLE games ADD COLUMN board_version INTEGER;
    """,
    # 6: each server's defaults of new games (turn_time, on_timeout, seating as JSON; /game defaults).
    """
    CREATE TABLE server_defaults (guild_id INTEGER PRIMARY KEY, options TEXT NOT NULL);
    """,
    # 7: time away (/game away, bot/services/away.py): each player's periods, kept for the yearly allowance;
    # a period ended early (the player acted, or came back) has its `until` moved to that moment.
    """
    CREATE TABLE away_periods (
        user_id INTEGER NOT NULL,
        started_at REAL NOT NULL,
        until REAL NOT NULL,
        PRIMARY KEY (user_id, started_at)
    );
    """,
)


class ChannelBusy(Exception):
    """The channel already has a game in its lobby or in play."""


class StaleVersion(Exception):
    """Someone else changed the game first; nothing was written."""


# board_version of a lobby message: it shows no position, not even the game's first (version 0).
LOBBY_SHOWN = -1


@dataclass(frozen=True)
class Seat:
    user_id: int                 # Discord user id; computer players use 0
    name: str
    level: str | None = None     # computer player's level, None for a person
    locale: str = "en"

    def to_json(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "level": self.level, "locale": self.locale}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Seat":
        return cls(data["user_id"], data["name"], data.get("level"), data.get("locale", "en"))


@dataclass(frozen=True)
class GameRecord:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str
    host_id: int
    locale: str
    options: dict[str, Any]
    seats: tuple[Seat, ...]
    seed: str
    state: dict[str, Any] | None
    version: int
    board_message_id: int | None = None
    result: dict[str, Any] | None = None

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.level is None and seat.user_id == user_id:
                return i
        return None


@dataclass(frozen=True)
class LoggedAction:
    seq: int
    seat: int | None
    user_id: int | None
    action: str
    legal: bool


_COLUMNS = ("id, guild_id, channel_id, game, status, host_id, locale, options, seats, seed, "
            "state, version, board_message_id, result")


@dataclass(frozen=True)
class TurnClock:
    """An active game with a turn time: when its waiting started, and whether the reminder went out."""

    record: GameRecord
    started_at: float
    reminded_version: int | None


def _record(row: aiosqlite.Row) -> GameRecord:
    return GameRecord(
        id=row[0], guild_id=row[1], channel_id=row[2], game=row[3], status=row[4], host_id=row[5],
        locale=row[6], options=json.loads(row[7]), seats=tuple(Seat.from_json(s) for s in json.loads(row[8])),
        seed=row[9], state=json.loads(row[10]) if row[10] is not None else None, version=row[11],
        board_message_id=row[12], result=json.loads(row[13]) if row[13] is not None else None,
    )


def _dump(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


_END_AWAY = "UPDATE away_periods SET until=? WHERE user_id=? AND until>?"


def _append_action(db: sqlite3.Connection, game: tuple[Any, ...], logged: tuple[Any, ...]) -> bool:
    """In the database thread: the version-checked snapshot update and the action's log row, in one
    transaction; False (nothing written) when the game's version moved on. A person who acts is back:
    their time away ends (in the same trip, as every click pays for it)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        if db.execute("UPDATE games SET state=?, version=version+1, status=?, result=?, updated_at=?"
                      " WHERE id=? AND version=? AND status='active'", game).rowcount != 1:
            db.execute("ROLLBACK")
            return False
        db.execute("INSERT INTO actions (game_id, seq, seat, user_id, action, legal, at, events)"
                   " VALUES (?,?,?,?,?,?,?,?)", logged)
        user_id, at = logged[3], logged[6]
        if user_id is not None:
            db.execute(_END_AWAY, (at, user_id, at))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return True


class Store:
    def __init__(self, db: aiosqlite.Connection, clock: Callable[[], float] = time.time):
        self._db = db
        self._clock = clock  # wall-clock seconds; tests of deadlines inject theirs
        # One connection serves every channel: a write must not run inside another game's open
        # transaction (BEGIN would fail, a ROLLBACK would undo it), so writes take turns.
        self._writing = asyncio.Lock()

    @classmethod
    async def open(cls, path: str, clock: Callable[[], float] = time.time) -> "Store":
        db = await aiosqlite.connect(path, isolation_level=None)  # explicit BEGIN/COMMIT below
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across process crashes
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db, clock)
        try:
            await store._migrate()
        except BaseException:
            await db.close()  # else aiosqlite's thread keeps the process alive
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

    async def _write(self, sql: str, parameters: tuple[Any, ...]) -> aiosqlite.Cursor:
        """One statement that writes, outside any other game's transaction."""
        async with self._writing:
            return await self._db.execute(sql, parameters)

    async def _one(self, sql: str, parameters: tuple[Any, ...]) -> aiosqlite.Row | None:
        """The first row of a query, in one trip to the database thread (execute + fetch make two)."""
        rows = await self._db.execute_fetchall(sql, parameters)
        return next(iter(rows), None)

    async def _migrate(self) -> None:
        (applied,) = await (await self._db.execute("PRAGMA user_version")).fetchone()
        for number, script in enumerate(MIGRATIONS[applied:], start=applied + 1):
            # One transaction per migration: a crash leaves it wholly applied or not at all.
            await self._db.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")

    # --- reads ---------------------------------------------------------------
    async def open_game(self, channel_id: int) -> GameRecord | None:
        """The game in its lobby or in play in this channel, if any."""
        row = await self._one(
            f"SELECT {_COLUMNS} FROM games WHERE channel_id=? AND status IN ('lobby','active')", (channel_id,))
        return _record(row) if row else None

    async def open_games_in_guild(self, guild_id: int) -> list[GameRecord]:
        """The games in their lobby or in play on one server."""
        rows = await self._db.execute_fetchall(
            f"SELECT {_COLUMNS} FROM games WHERE guild_id=? AND status IN ('lobby','active') ORDER BY id", (guild_id,))
        return [_record(row) for row in rows]

    async def game(self, game_id: int) -> GameRecord | None:
        row = await self._one(f"SELECT {_COLUMNS} FROM games WHERE id=?", (game_id,))
        return _record(row) if row else None

    async def latest_game(self, channel_id: int) -> GameRecord | None:
        """The most recent game of this channel, open or over (history, verification)."""
        row = await self._one(
            f"SELECT {_COLUMNS} FROM games WHERE channel_id=? ORDER BY id DESC LIMIT 1", (channel_id,))
        return _record(row) if row else None

    async def finished_games(self, guild_id: int) -> list[GameRecord]:
        """The server's games that ended with a result, in the order they finished (statistics)."""
        cursor = await self._db.execute(
            f"SELECT {_COLUMNS} FROM games WHERE guild_id=? AND status='finished' ORDER BY updated_at, id",
            (guild_id,))
        return [_record(row) for row in await cursor.fetchall()]

    async def actions(self, game_id: int) -> list[LoggedAction]:
        cursor = await self._db.execute(
            "SELECT seq, seat, user_id, action, legal FROM actions WHERE game_id=? ORDER BY seq", (game_id,))
        return [LoggedAction(r[0], r[1], r[2], r[3], bool(r[4])) for r in await cursor.fetchall()]

    # --- writes ----------------------------------------------------------------
    async def create_game(self, *, guild_id: int | None, channel_id: int, game: str, host: Seat,
                          locale: str, options: dict[str, Any], seed: str) -> GameRecord:
        now = self._clock()
        try:
            cursor = await self._write(
                "INSERT INTO games (guild_id, channel_id, game, status, host_id, locale, options, seats, seed,"
                " created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (guild_id, channel_id, game, "lobby", host.user_id, locale, _dump(options),
                 _dump([host.to_json()]), seed, now, now))
        except aiosqlite.IntegrityError as exc:
            raise ChannelBusy from exc
        record = await self.game(cursor.lastrowid)
        assert record is not None
        return record

    async def update_game(self, record: GameRecord, **changes: Any) -> GameRecord:
        """Change lobby fields (seats, status, state, result...) if nobody changed
        the game since `record` was read; returns the new record."""
        new = replace(record, **changes)
        cursor = await self._write(
            "UPDATE games SET status=?, host_id=?, seats=?, options=?, state=?, result=?, updated_at=?"
            " WHERE id=? AND version=? AND status=? AND seats=?",
            (new.status, new.host_id, _dump([s.to_json() for s in new.seats]), _dump(new.options),
             None if new.state is None else _dump(new.state), None if new.result is None else _dump(new.result),
             self._clock(), record.id, record.version, record.status, _dump([s.to_json() for s in record.seats])))
        if cursor.rowcount != 1:
            raise StaleVersion
        return new

    async def append_action(self, record: GameRecord, *, seat: int | None, user_id: int | None, action: str,
                            legal: bool, state: dict[str, Any], status: str = "active",
                            result: dict[str, Any] | None = None,
                            events: list[dict[str, Any]] | None = None) -> GameRecord:
        """Log one action and store the state it led to, in one transaction."""
        now = self._clock()
        game = (_dump(state), status, None if result is None else _dump(result), now, record.id, record.version)
        logged = (record.id, record.version, seat, user_id, action, int(legal), now, _dump(events) if events else None)
        async with self._writing:
            # The whole transaction in one trip to aiosqlite's thread (not one per statement): each trip
            # costs the event loop a hand-off and a wake-up on every click. aiosqlite runs its own calls
            # the same way (Connection._execute); it has no public method for a function of ours.
            if not await self._db._execute(_append_action, self._db._conn, game, logged):
                raise StaleVersion
        return replace(record, state=state, version=record.version + 1, status=status, result=result)

    async def events_since_turn(self, game_id: int, before: int, seat: int, scan: int = 60) -> list[dict[str, Any]]:
        """Events (Message JSON) of the actions before position `before` that
        `seat` has not seen on its turn: back to the last action of `seat`'s
        previous turn, oldest first. Only the last `scan` actions are read."""
        rows = await self._db.execute_fetchall(
            "SELECT seat, events FROM actions WHERE game_id=? AND seq<? ORDER BY seq DESC LIMIT ?",
            (game_id, before, scan))
        found: list[dict[str, Any]] = []
        others_seen = False
        for row_seat, events in rows:
            if row_seat == seat and others_seen:
                break
            others_seen = others_seen or row_seat != seat
            found[:0] = json.loads(events) if events else []
        return found

    async def bot_fact(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM bot_facts WHERE key=?", (key,))
        return None if row is None else row[0]

    async def set_bot_fact(self, key: str, value: str) -> None:
        await self._write("INSERT INTO bot_facts (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                          (key, value))

    async def set_board_message(self, game_id: int, message_id: int, version: int) -> None:
        """The message showing the game's board, and the game version it shows (LOBBY_SHOWN: the lobby)."""
        await self._write("UPDATE games SET board_message_id=?, board_version=? WHERE id=?",
                          (message_id, version, game_id))

    async def active_boards(self) -> list[tuple[GameRecord, int | None]]:
        """Every game in play, with the version its posted board shows (None: not recorded)."""
        rows = await self._db.execute_fetchall(
            f"SELECT {_COLUMNS}, board_version FROM games WHERE status='active' ORDER BY id")
        return [(_record(row), row[14]) for row in rows]

    async def server_defaults(self, guild_id: int) -> dict[str, Any]:
        """The options a server gives its new games unless they choose otherwise ({}: none)."""
        row = await self._one("SELECT options FROM server_defaults WHERE guild_id=?", (guild_id,))
        return {} if row is None else json.loads(row[0])

    async def set_server_defaults(self, guild_id: int, options: dict[str, Any]) -> None:
        await self._write("INSERT INTO server_defaults (guild_id, options) VALUES (?, ?)"
                          " ON CONFLICT(guild_id) DO UPDATE SET options=excluded.options", (guild_id, _dump(options)))

    # --- time away -------------------------------------------------------------------
    async def away_periods(self, user_id: int, since: float) -> list[tuple[float, float]]:
        """The user's periods away (started_at, until) that ended after `since`, oldest first."""
        rows = await self._db.execute_fetchall(
            "SELECT started_at, until FROM away_periods WHERE user_id=? AND until>? ORDER BY started_at",
            (user_id, since))
        return [(row[0], row[1]) for row in rows]

    async def start_away(self, user_id: int, now: float, until: float) -> None:
        """A new period away from `now`; the one running, if any, ends now."""
        async with self._writing:
            await self._db.execute(_END_AWAY, (now, user_id, now))
            await self._db.execute("INSERT INTO away_periods (user_id, started_at, until) VALUES (?,?,?)"
                                   " ON CONFLICT(user_id, started_at) DO UPDATE SET until=excluded.until",
                                   (user_id, now, until))

    async def end_away(self, user_id: int, now: float) -> bool:
        """End the user's period away now; False when none was running."""
        return (await self._write(_END_AWAY, (now, user_id, now))).rowcount > 0

    async def away_until(self, user_ids: set[int]) -> dict[int, float]:
        """The end of each user's latest period away (past or running), for those who have one."""
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        rows = await self._db.execute_fetchall(
            f"SELECT user_id, MAX(until) FROM away_periods WHERE user_id IN ({marks}) GROUP BY user_id",
            tuple(user_ids))
        return {row[0]: row[1] for row in rows}

    # --- turn deadlines, votes on absent seats, turn notifications ----------------
    async def turn_clocks(self, game_id: int | None = None) -> list[TurnClock]:
        """Active games with a turn time (or just `game_id`'s)."""
        where = "" if game_id is None else f" AND id={int(game_id)}"
        rows = await self._db.execute_fetchall(
            f"SELECT {_COLUMNS}, updated_at, reminded_version FROM games WHERE status='active'"
            f" AND json_extract(options, '$.turn_time') IS NOT NULL{where} ORDER BY id")
        return [TurnClock(_record(row), row[14], row[15]) for row in rows]

    async def mark_reminded(self, game_id: int, version: int) -> bool:
        """Record that the reminder for `version` went out (the clock keeps running)."""
        cursor = await self._write(
            "UPDATE games SET reminded_version=? WHERE id=? AND version=? AND status='active'"
            " AND reminded_version IS NOT ?", (version, game_id, version, version))
        return cursor.rowcount == 1

    async def set_vote(self, game_id: int, seat: int, voter_id: int, choice: str) -> None:
        await self._write("INSERT OR REPLACE INTO seat_votes (game_id, seat, voter_id, choice) VALUES (?,?,?,?)",
                          (game_id, seat, voter_id, choice))

    async def votes(self, game_id: int, seat: int) -> dict[int, str]:
        cursor = await self._db.execute("SELECT voter_id, choice FROM seat_votes WHERE game_id=? AND seat=?",
                                        (game_id, seat))
        return {row[0]: row[1] for row in await cursor.fetchall()}

    async def clear_votes(self, game_id: int, seat: int) -> None:
        await self._write("DELETE FROM seat_votes WHERE game_id=? AND seat=?", (game_id, seat))

    async def set_turn_notifications(self, user_id: int, enabled: bool) -> None:
        if enabled:
            await self._write("INSERT OR IGNORE INTO turn_notifications (user_id) VALUES (?)", (user_id,))
        else:
            await self._write("DELETE FROM turn_notifications WHERE user_id=?", (user_id,))

    async def wants_turn_notifications(self, user_id: int) -> bool:
        return await self._one("SELECT 1 FROM turn_notifications WHERE user_id=?", (user_id,)) is not None
