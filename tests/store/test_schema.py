"""The migrations build, on both backends, the tables that bot/store/schema.py's Table objects describe; a
SQLite file left by an earlier release gets only the migrations it lacks."""
import sqlite3

from sqlalchemy import URL, inspect, select, text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.core.game_records import INTERACTIONS_ONLY, LOBBY_SEATS, Seat
from bot.store import Store, is_postgresql, postgresql_url
from bot.store.schema import MIGRATIONS, game_people, games, metadata, spelled
from tests.schema_fixtures.make import play_games


def _columns(conn):
    """Each table's columns (whether they may be NULL), its primary key and its indexes, as the database tells."""
    found, tables = inspect(conn), {}
    for name in found.get_table_names():
        key = found.get_pk_constraint(name)["constrained_columns"]
        # SQLite reports a key column that was not declared NOT NULL as nullable; none can hold NULL here.
        tables[name] = ({c["name"]: c["nullable"] and c["name"] not in key for c in found.get_columns(name)}, key,
                        {(i["name"], tuple(i["column_names"]), bool(i["unique"])) for i in found.get_indexes(name)})
    tables.pop("schema_version", None)   # the migrations' own (PostgreSQL)
    return tables


async def test_the_migrated_tables_are_those_the_queries_use(database):
    await (await Store.open(database)).close()
    # SQLAlchemy's inspector reads the schema the migrations built.
    engine = create_async_engine(postgresql_url(database) if is_postgresql(database)
                                 else URL.create("sqlite+aiosqlite", database=database))
    async with engine.connect() as conn:
        built = await conn.run_sync(_columns)
    await engine.dispose()
    described = {table.name: ({c.name: c.nullable for c in table.columns}, [c.name for c in table.primary_key],
                              {(i.name, tuple(c.name for c in i.columns), i.unique) for i in table.indexes})
                 for table in metadata.sorted_tables}
    assert built == described


async def test_a_file_of_an_earlier_release_gets_the_migrations_it_lacks(tmp_path):
    path = str(tmp_path / "old.sqlite3")
    with sqlite3.connect(path) as db:
        for statement in (s for migration in MIGRATIONS[:3] for s in migration):
            db.execute(spelled(statement, "sqlite"))
        db.execute("PRAGMA user_version=3")
        db.execute("INSERT INTO games (guild_id, channel_id, game, status, host_id, locale, options, seats, seed,"
                   " created_at, updated_at) VALUES (1, 2, 'pariti', 'lobby', 7, 'en', '{}',"
                   " '[{\"user_id\": 7, \"name\": \"Ann\"}]', 'ab', 0, 0)")
    store = await Store.open(path)
    assert (await store.games.open_game(2)).seats[0].name == "Ann"
    await store.set_bot_fact("k", "v")              # migration 4's table
    # Migration 9 fills in the status each board already shows: the game's.
    assert [(r.id, status) for r, _, status in await store.boards.to_resume()] == [(1, "lobby")]
    await store.boards.set_message(1, 5, -1, "lobby")   # migrations 5's and 9's columns
    assert [r.id for r in await store.privacy.games_of(7)] == [1]   # migration 11 named the game's people
    assert await store.bot_fact("k") == "v"
    await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)


async def _named(db) -> set[tuple[int, int]]:
    return {(row["game_id"], row["user_id"]) for row in await db.rows(select(game_people))}


async def test_migration_11_reads_from_the_json_the_people_the_store_writes_with_each_game(database):
    await play_games(database)   # seats drawn (the lobby order kept), a computer seated, a lobby
    store = await Store.open(database)
    try:
        records = [await store.games.game(game_id) for game_id in (1, 2, 3)]
        written = await store.run(_named)
        assert written == {(r.id, person) for r in records for person in r.people}
        assert any(LOBBY_SEATS in r.options for r in records) and any(s.level for r in records for s in r.seats)
        await store.execute(game_people.delete())
        await store.run(lambda db: db.execute(text(spelled(MIGRATIONS[10][2], db.dialect))))   # migration 11's fill
        assert await store.run(_named) == written
    finally:
        await store.close()


async def _user_installs(db) -> dict[int, bool]:
    return {row["id"]: bool(row["interactions_only"]) for row in await db.rows(select(games.c.id,
                                                                                          games.c.interactions_only))}


async def test_migration_12_reads_from_the_json_which_games_are_played_through_a_users_install(database):
    """The column the purge and the servers' census read (bot/store/privacy.py) holds what the options say, in the
    games the store writes and in those migration 12 fills from an earlier release's JSON."""
    store = await Store.open(database)
    try:
        for channel, options in ((1, {}), (2, {INTERACTIONS_ONLY: True}), (3, {"turn_time": 60})):
            await store.games.create_game(guild_id=5, channel_id=channel, game="pariti", host=Seat(7, "Ann"),
                                          locale="en", options=options, seed="00" * 32)
        lobby = await store.games.open_game(3)
        await store.games.update_game(lobby, options={INTERACTIONS_ONLY: True})   # the option set afterwards
        written = await store.run(_user_installs)
        assert written == {1: False, 2: True, 3: True}
        await store.execute(games.update().values(interactions_only=0))
        await store.run(lambda db: db.execute(text(spelled(MIGRATIONS[11][1], db.dialect))))   # migration 12's fill
        assert await store.run(_user_installs) == written
    finally:
        await store.close()
