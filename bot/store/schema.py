"""The database's tables (SQLAlchemy Core, the queries' one vocabulary on SQLite and PostgreSQL) and
the numbered migrations that build them.

Migrations are a small runner rather than Alembic: each is a few portable statements (only the games' id
column is spelled per dialect, and a statement that reads JSON is written for each), applied in order, each in
one transaction with the number it brings the database to; the number lives where SQLite databases made before
PostgreSQL support already keep it (PRAGMA user_version), and in a one-row table on PostgreSQL. Alembic would
bring a configuration file, an environment script and a stamping step for those existing files, for the same
few ALTER-or-CREATE steps. The Table objects below describe the schema the last migration leaves
(tests/store/test_schema.py checks that they agree).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from sqlalchemy import (
    BigInteger,
    Column,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Table,
    Text,
    func,
    select,
    text,
)

metadata = MetaData()


class Row(Protocol):
    """A row read by column name: sqlite3.Row (SQLite) or asyncpg's Record (PostgreSQL)."""

    def keys(self) -> Iterable[str]: ...

    def __getitem__(self, column: str, /) -> Any: ...


class Statements(Protocol):
    """What a query runs its statements on: a connection of the store, in a transaction or not."""

    dialect: str

    async def rows(self, statement: Any, parameters: Mapping[str, Any] | None = None) -> Sequence[Row]:
        """The statement's rows, each read by column name."""

    async def execute(self, statement: Any, parameters: Any = None) -> int:
        """Run a statement (a list of parameter sets: once for each); the rows it changed."""


games = Table(
    "games", metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("guild_id", BigInteger),
    Column("channel_id", BigInteger, nullable=False),
    Column("game", Text, nullable=False),
    Column("status", Text, nullable=False),        # lobby | active | finished | ended
    Column("host_id", BigInteger, nullable=False),
    Column("locale", Text, nullable=False),
    Column("options", Text, nullable=False),       # JSON
    Column("seats", Text, nullable=False),         # JSON list of Seat
    Column("seed", Text, nullable=False),          # secret; revealed when the game is over
    Column("state", Text),                         # JSON snapshot, NULL in the lobby
    Column("version", BigInteger, nullable=False),  # number of actions applied
    Column("board_message_id", BigInteger),
    Column("result", Text),                        # JSON once finished or ended
    Column("created_at", Double, nullable=False),
    Column("updated_at", Double, nullable=False),
    Column("reminded_version", BigInteger),        # version whose half-time reminder was sent
    Column("board_version", BigInteger),           # version the posted board shows (store.LOBBY_SHOWN: the lobby)
    Column("board_status", Text),                  # the game's status the posted board shows
    # played through a user's install of the app: the option of that name, copied (migration 12)
    Column("interactions_only", Integer, nullable=False, server_default="0"),   # 1 or 0
    Index("one_open_game_per_channel", "channel_id", unique=True),   # WHERE status IN ('lobby', 'active')
    Index("games_by_channel", "channel_id", "id"),
    Index("games_by_guild", "guild_id", "status"),
)

actions = Table(
    "actions", metadata,
    Column("game_id", BigInteger, ForeignKey("games.id"), primary_key=True),
    Column("seq", BigInteger, primary_key=True),   # version before the action
    Column("seat", Integer),
    Column("user_id", BigInteger),
    Column("action", Text, nullable=False),
    Column("legal", Integer, nullable=False),
    Column("at", Double, nullable=False),
    Column("events", Text),                        # what the action caused, Message JSON
    Index("actions_by_user", "user_id"),
)

seat_votes = Table(                                # votes on a seat whose turns keep expiring
    "seat_votes", metadata,
    Column("game_id", BigInteger, ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("voter_id", BigInteger, primary_key=True),
    Column("choice", Text, nullable=False),        # computer | end
)

turn_notifications = Table("turn_notifications", metadata,   # users who want a DM on their turn
                           Column("user_id", BigInteger, primary_key=True))

server_defaults = Table("server_defaults", metadata,  # each server's defaults of new games (/game defaults)
                        Column("guild_id", BigInteger, primary_key=True), Column("options", Text, nullable=False))

away_periods = Table(                              # time away (/game away, bot/services/away.py)
    "away_periods", metadata,
    Column("user_id", BigInteger, primary_key=True),
    Column("started_at", Double, primary_key=True),
    Column("until", Double, nullable=False),       # moved to the moment a period ended early
)

guilds_left = Table(                               # servers that removed the bot: their games go after the retention
    "guilds_left", metadata,                       # (TABLERO_RETAIN_DAYS, bot/services/privacy.py)
    Column("guild_id", BigInteger, primary_key=True),
    Column("left_at", Double, nullable=False),
)

game_people = Table(                               # each person a game names (GameRecord.people): a person's games
    "game_people", metadata,                       # found without reading every game (/game privacy, /game forget)
    Column("game_id", BigInteger, ForeignKey("games.id"), primary_key=True),
    Column("user_id", BigInteger, primary_key=True),
    Index("game_people_by_user", "user_id"),
)

bot_facts = Table("bot_facts", metadata,           # facts about the bot itself (bot/app.py)
                  Column("key", Text, primary_key=True), Column("value", Text, nullable=False))

# The games' id: SQLite's rowid alias, PostgreSQL's identity column.
_ID = {"sqlite": "INTEGER PRIMARY KEY", "postgresql": "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"}


def spelled(statement: str | Mapping[str, str], dialect: str) -> str:
    """A migration's statement as `dialect` runs it: a portable one with the games' id spelled, or its own."""
    return statement.replace("{id}", _ID[dialect]) if isinstance(statement, str) else statement[dialect]


MIGRATIONS: tuple[tuple[str | Mapping[str, str], ...], ...] = (
    # 1: games, their seats and snapshot, and the append-only action log.
    ("""CREATE TABLE games (
            id {id}, guild_id BIGINT, channel_id BIGINT NOT NULL, game TEXT NOT NULL, status TEXT NOT NULL,
            host_id BIGINT NOT NULL, locale TEXT NOT NULL, options TEXT NOT NULL, seats TEXT NOT NULL,
            seed TEXT NOT NULL, state TEXT, version BIGINT NOT NULL DEFAULT 0, board_message_id BIGINT,
            result TEXT, created_at DOUBLE PRECISION NOT NULL, updated_at DOUBLE PRECISION NOT NULL)""",
     "CREATE UNIQUE INDEX one_open_game_per_channel ON games(channel_id) WHERE status IN ('lobby', 'active')",
     """CREATE TABLE actions (
            game_id BIGINT NOT NULL REFERENCES games(id), seq BIGINT NOT NULL, seat INTEGER, user_id BIGINT,
            action TEXT NOT NULL, legal INTEGER NOT NULL, at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game_id, seq))"""),
    # 2: turn deadlines (see bot/domain/deadline_math.py). A game's waiting time starts at its
    # updated_at, which every write bumps; the settings live in its options.
    ("ALTER TABLE games ADD COLUMN reminded_version BIGINT",
     """CREATE TABLE seat_votes (
            game_id BIGINT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL, voter_id BIGINT NOT NULL,
            choice TEXT NOT NULL, PRIMARY KEY (game_id, seat, voter_id))""",
     "CREATE TABLE turn_notifications (user_id BIGINT PRIMARY KEY)"),
    # 3: what each action caused, in words (Message JSON), so a board can tell
    # everything that happened since its player last acted.
    ("ALTER TABLE actions ADD COLUMN events TEXT",),
    # 4: facts about the bot itself, e.g. the digest of the commands last synced (bot/app.py).
    ("CREATE TABLE bot_facts (key TEXT PRIMARY KEY, value TEXT NOT NULL)",),
    # 5: the version of the game its posted board shows, so that a board the bot could not post
    # before a restart is posted at start-up (bot/cogs/commands/game.py, resume).
    ("ALTER TABLE games ADD COLUMN board_version BIGINT",),
    # 6: each server's defaults of new games (turn_time, on_timeout, seating as JSON; /game defaults).
    ("CREATE TABLE server_defaults (guild_id BIGINT PRIMARY KEY, options TEXT NOT NULL)",),
    # 7: time away (/game away, bot/services/away.py): each player's periods, kept for the yearly allowance;
    # a period ended early (the player acted, or came back) has its `until` moved to that moment.
    ("""CREATE TABLE away_periods (
            user_id BIGINT NOT NULL, started_at DOUBLE PRECISION NOT NULL, until DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (user_id, started_at))""",),
    # 8: a channel's games (latest_game) and a server's (its open games, its statistics) without reading
    # every game: with one database for many processes and servers, the table is large.
    ("CREATE INDEX games_by_channel ON games(channel_id, id)",
     "CREATE INDEX games_by_guild ON games(guild_id, status)"),
    # 9: the status the posted board shows: a resignation or /game end changes the status, not the version,
    # and a crash before its board went out must still show it at start-up (store.boards.to_resume).
    ("ALTER TABLE games ADD COLUMN board_status TEXT",
     "UPDATE games SET board_status = status"),
    # 10 (self-contained: renumber freely): the servers that removed the bot and when, so that their
    # games are deleted TABLERO_RETAIN_DAYS later (bot/services/privacy.py); a server that adds it back leaves.
    # And a person's actions found without reading every game's log (/game privacy, /game forget).
    ("CREATE TABLE guilds_left (guild_id BIGINT PRIMARY KEY, left_at DOUBLE PRECISION NOT NULL)",
     "CREATE INDEX actions_by_user ON actions(user_id)"),
    # 11: each person a game names, seated, in the lobby order kept for the seats' draw, or host (GameRecord.people),
    # so that /game privacy and /game forget find a person's games without reading every game's JSON (a LIKE on
    # the seats read them all). Filled from the JSON, each database's own way.
    ("""CREATE TABLE game_people (
            game_id BIGINT NOT NULL REFERENCES games(id), user_id BIGINT NOT NULL, PRIMARY KEY (game_id, user_id))""",
     "CREATE INDEX game_people_by_user ON game_people(user_id)",
     {"sqlite": """INSERT INTO game_people (game_id, user_id)
            SELECT id, host_id FROM games
            UNION SELECT games.id, json_extract(seat.value, '$.user_id') FROM games, json_each(games.seats) AS seat
                WHERE json_extract(seat.value, '$.level') IS NULL
            UNION SELECT games.id, json_extract(seat.value, '$.user_id')
                FROM games, json_each(games.options, '$.lobby_seats') AS seat
                WHERE json_extract(seat.value, '$.level') IS NULL""",
      "postgresql": """INSERT INTO game_people (game_id, user_id)
            SELECT id, host_id FROM games
            UNION SELECT games.id, (seat ->> 'user_id')::bigint
                FROM games, jsonb_array_elements(games.seats::jsonb) AS seat WHERE seat ->> 'level' IS NULL
            UNION SELECT games.id, (seat ->> 'user_id')::bigint
                FROM games, jsonb_array_elements(COALESCE(games.options::jsonb -> 'lobby_seats', '[]')) AS seat
                WHERE seat ->> 'level' IS NULL"""}),
    # 12: whether a game is played through a user's install of the app (its options' interactions_only), a
    # column rather than a LIKE on the options' JSON, so that a server's games the bot played itself are found
    # (bot/store/privacy.py) by a plain condition. Filled from the JSON, each database's own way.
    ("ALTER TABLE games ADD COLUMN interactions_only INTEGER NOT NULL DEFAULT 0",
     {"sqlite": "UPDATE games SET interactions_only = 1 WHERE json_extract(options, '$.interactions_only') = 1",
      "postgresql": """UPDATE games SET interactions_only = 1
            WHERE options::jsonb -> 'interactions_only' = 'true'::jsonb"""}),
)


class SchemaTooNew(Exception):
    """The database was migrated by a newer Tablero than this one: nothing is read or written."""

    def __init__(self, found: int, known: int = len(MIGRATIONS)):
        super().__init__(f"schema version {found}, newer than this code's {known}")
        self.found, self.known = found, known


class SchemaNotCurrent(Exception):
    """A database opened only to be read (Store.open(..., migrate=False)) is not at this code's schema: none
    yet (`found` 0: not a Tablero database, or an empty one), an older one, or a newer one. Nothing was written."""

    def __init__(self, found: int, known: int = len(MIGRATIONS)):
        super().__init__(f"schema version {found}, this code's is {known}")
        self.found, self.known = found, known


_schema_version = Table("schema_version", MetaData(), Column("version", Integer, nullable=False))
_USER_VERSION = text("PRAGMA user_version")


async def migrate_one(db: Statements) -> bool:
    """Apply the next migration the database lacks, in the caller's transaction (so that a crash leaves
    it wholly applied or not at all); False when it has them all. SchemaTooNew when it has more: a newer
    release wrote it, and this one must not guess what its columns mean (nor migrate it again)."""
    applied = await applied_migrations(db)
    if applied > len(MIGRATIONS):
        raise SchemaTooNew(applied)
    if applied == len(MIGRATIONS):
        return False
    for statement in MIGRATIONS[applied]:
        await db.execute(text(spelled(statement, db.dialect)))
    if db.dialect == "sqlite":
        await db.execute(text(f"PRAGMA user_version={applied + 1}"))
    else:
        await db.execute(_schema_version.update().values(version=applied + 1))
    return True


async def schema_version(db: Statements) -> int:
    """How many migrations the database has (0: no schema yet), read without writing anything."""
    if db.dialect == "sqlite":
        return await applied_migrations(db)
    if not (await db.rows(text("SELECT to_regclass('schema_version') IS NOT NULL AS found")))[0]["found"]:
        return 0
    rows = await db.rows(select(_schema_version.c.version))
    return int(rows[0]["version"]) if rows else 0


async def applied_migrations(db: Statements) -> int:
    """How many migrations the database has; on PostgreSQL, serialises the processes that migrate at
    once (a transaction-scoped advisory lock) and creates the version's table on first use."""
    if db.dialect == "sqlite":
        user_version: int = (await db.rows(_USER_VERSION))[0]["user_version"]
        return user_version
    await db.rows(select(func.pg_advisory_xact_lock(0x7461626C65726F)))   # "tablero"
    await db.execute(text("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"))
    rows = await db.rows(select(_schema_version.c.version))
    if not rows:
        await db.execute(_schema_version.insert().values(version=0))
        return 0
    version: int = rows[0]["version"]
    return version
