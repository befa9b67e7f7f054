"""The database out of reach (issue 25, points 2 and 3): every store call then raises the one StoreUnavailable,
nothing of it is written, and the same store carries on once the database is back; a deadline that fell due
meanwhile fires then, once.

SQLite's outages are real ones: a full disk (the database's page limit reached: SQLite's own "database or disk
is full") and a file another process keeps locked. PostgreSQL's is a server of the test's own, stopped and
started (tests/postgres_cluster.py)."""
import sqlite3

import pytest
from sqlalchemy import text

from bot.outages import StoreUnavailable
from bot.services import ROLL, Sessions, ruleset_of
from bot.store import Store
from bot.timers import seat_to_move
from tests.services.test_deadlines import ANN, BOB, CHANNEL, TURN, FakeClock, Table

GUILD = 1


async def started_game(sessions: Sessions):
    await sessions.create(channel_id=CHANNEL, guild_id=GUILD, host=ANN, game="parcheesi", options={"seating": "lobby"})
    await sessions.join(CHANNEL, BOB)
    return (await sessions.start(CHANNEL, ANN.user_id)).record


async def play(sessions: Sessions, record):
    """The player to move rolls or makes the first legal move."""
    ruleset = ruleset_of(record)
    state = ruleset.from_json(record.state)
    action = ROLL if ruleset.roll_due(state) else ruleset.legal_actions(state)[0]
    user = record.seats[seat_to_move(record)].user_id
    return (await sessions.act(CHANNEL, user, action)).record


async def set_page_limit(db, pages: int | None) -> None:
    """The database may grow no further than `pages` (None: its size now): SQLite's "disk is full"."""
    size = (await db.rows(text("PRAGMA page_count")))[0][0]
    await db.execute(text(f"PRAGMA max_page_count = {pages or size}"))


async def test_a_full_disk_refuses_the_move_as_unreachable_and_loses_nothing(tmp_path):
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    sessions = Sessions(store, think_budget_s=0.05)
    record = await started_game(sessions)
    await store.run(set_page_limit, None)
    acted = 0
    with pytest.raises(StoreUnavailable, match="full"):
        for acted in range(1, 500):
            record = await play(sessions, record)
    stored = await store.open_game(CHANNEL)
    assert stored == record                                     # each move stored before the disk filled, no more
    assert [a.seq for a in await store.actions(record.id)] == list(range(record.version)) and acted > 1
    await store.run(set_page_limit, 1_000_000)                  # room again: the same store carries on
    assert (await play(sessions, record)).version == record.version + 1
    await store.close()


async def test_a_deadline_due_while_the_database_is_locked_fires_once_when_it_is_back(tmp_path):
    """The expiry's write meets the file locked by another process (SQLite's busy timeout): not dropped, it
    fires at the next pass after the lock is gone, once (point 3)."""
    table = await Table(tmp_path / "t.sqlite3", FakeClock()).open()
    try:
        record = await table.start()
        table.clock.advance(TURN)
        other = sqlite3.connect(tmp_path / "t.sqlite3", isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(StoreUnavailable, match="locked"):
            await table.timers.fire_due()
        other.execute("ROLLBACK")
        other.close()
        assert table.expiries == []
        await table.timers.fire_due()
        await table.timers.fire_due()
        assert len(table.expiries) == 1
        log = await table.store.actions(record.id)
        assert log[0].seq == record.version and log[0].user_id is None     # played by the deadline
    finally:
        await table.store.close()


async def test_the_store_carries_on_when_postgresql_restarts(own_postgres):
    store = await Store.open(own_postgres.url)
    sessions = Sessions(store, think_budget_s=0.05)
    try:
        record = await started_game(sessions)
        own_postgres.stop()
        with pytest.raises(StoreUnavailable):
            await play(sessions, record)
        with pytest.raises(StoreUnavailable):
            await sessions.current(CHANNEL)
        own_postgres.start()
        assert await sessions.current(CHANNEL) == record           # nothing half-written, the pool reconnected
        record = await play(sessions, record)
        own_postgres.stop()                                         # a restart the bot did not notice:
        own_postgres.start()                                        # its pooled connections are dead
        assert (await play(sessions, record)).version == record.version + 1
    finally:
        await store.close()
