"""The database out of reach: every store call then raises the one StoreUnavailable,
nothing of it is written, and the same store carries on once the database is back; a deadline that fell due
meanwhile fires then, once.

SQLite's outages are real ones: a full disk (the database's page limit reached: SQLite's own "database or disk
is full") and a file another process keeps locked. PostgreSQL's is a server of the test's own, stopped and
started (tests/postgres_cluster.py)."""
import sqlite3

import pytest
from sqlalchemy import text

from bot.core.outages import StoreUnavailable
from bot.domain.deadline_math import seat_to_move
from bot.domain.player_actions import ROLL
from bot.domain.positions import ruleset_of
from bot.domain.verify import verify
from bot.services import Sessions
from bot.store import Store
from tests.services.test_deadlines import ANN, BOB, CHANNEL, TURN, FakeClock, Table

GUILD = 1


async def started_game(sessions: Sessions):
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=GUILD, host=ANN, game="parcheesi",
                                options={"seating": "lobby", "forced_moves": False})   # one action a call
    await sessions.lobby.join(CHANNEL, BOB)
    return (await sessions.lobby.start(CHANNEL, ANN.user_id)).record


async def play(sessions: Sessions, record):
    """The player to move rolls or makes the first legal move."""
    user = record.seats[seat_to_move(record)].user_id
    return (await sessions.play.act(CHANNEL, user, next_action(record))).record


def next_action(record) -> str:
    """A roll when one is due, else the first legal move."""
    ruleset = ruleset_of(record)
    state = ruleset.from_json(record.state)
    return ROLL if ruleset.roll_due(state) else ruleset.legal_actions(state)[0]


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
        for _ in range(499):
            record = await play(sessions, record)
            acted += 1
    stored = await store.games.open_game(CHANNEL)
    assert stored == record                                     # each move stored before the disk filled, no more
    assert [a.seq for a in await store.games.actions(record.id)] == list(range(record.version)) and acted >= 1
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
        log = await table.store.games.actions(record.id)
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
            await sessions.channels.current(CHANNEL)
        own_postgres.start()
        assert await sessions.channels.current(CHANNEL) == record           # nothing half-written, the pool reconnected
        record = await play(sessions, record)
        own_postgres.stop()                                         # a restart the bot did not notice:
        own_postgres.start()                                        # its pooled connections are dead
        assert (await play(sessions, record)).version == record.version + 1
    finally:
        await store.close()


async def test_computer_players_cut_short_by_a_full_disk_resume_once_when_it_is_back(tmp_path):
    """An outage between two computer moves (the disk fills after Ann's move and a computer's were written):
    what was written stands and is what the outcome says; once the database is back the computers resume
    once from the stored position (the Discord layer's catch-up, Play.resume), nothing played twice, and
    the log replays to the stored snapshot."""
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    sessions = Sessions(store, think_budget_s=0.05)
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=GUILD, host=ANN, game="parcheesi",
                                options={"seating": "lobby", "forced_moves": False})   # one action a call
    for _ in range(2):
        await sessions.lobby.add_computer(CHANNEL, ANN.user_id, "easy")
    record = (await sessions.lobby.start(CHANNEL, ANN.user_id)).record
    cut = None
    for _ in range(300):
        if record.status != "active":
            break
        await store.run(set_page_limit, None)
        try:
            outcome = await sessions.play.act(CHANNEL, ANN.user_id, next_action(record))
        except StoreUnavailable:    # Ann's own move found the disk full: refused, she tries again
            outcome = None
        await store.run(set_page_limit, 1_000_000)
        if outcome is None:
            continue
        record = outcome.record
        if outcome.unfinished and record.version >= outcome.version_before + 2:
            cut = outcome           # Ann's move and at least one computer's stored, then the disk full
            break
    assert cut is not None, "no outage fell between two computer moves"
    assert await store.games.open_game(CHANNEL) == cut.record             # the stored position is the one returned
    assert ruleset_of(cut.record).to_move(ruleset_of(cut.record).from_json(cut.record.state)) != 0   # computers' turn
    resumed = await sessions.play.resume(CHANNEL, cut.record.id)
    assert resumed is not None and resumed.version_before == cut.record.version and not resumed.unfinished
    assert await sessions.play.resume(CHANNEL, cut.record.id) is None     # resumed once: nothing left to play
    stored = await store.games.open_game(CHANNEL) or await store.games.game(cut.record.id)
    assert stored == resumed.record
    log = await store.games.actions(stored.id)
    assert [a.seq for a in log] == list(range(stored.version))       # each action once, none lost
    assert verify(ruleset_of(stored), stored, log).ok                  # the log replays to the stored snapshot
    await store.close()



async def test_an_expiry_cut_short_by_a_full_disk_still_shows_what_it_stored(tmp_path):
    """A deadline plays the absent player's roll, then the disk fills before the move that follows: the roll
    stands, and the expiry's outcome still goes to the Discord layer (unfinished: shown and caught up once the
    database is back) instead of the roll staying stored but never shown (the next pass sees a new version and
    fires nothing)."""
    table = await Table(tmp_path / "t.sqlite3", FakeClock()).open()
    try:
        record = await table.start()
        cut = None
        for _ in range(200):
            before = await table.record()
            if before is None:
                break
            table.clock.advance(TURN)
            await table.store.run(set_page_limit, None)
            try:
                await table.timers.fire_due()
            except StoreUnavailable:
                pass
            await table.store.run(set_page_limit, 1_000_000)
            after = await table.record() or await table.store.games.game(record.id)
            stored_by_expiry = after.version > before.version
            if stored_by_expiry and not any(o.record.version == after.version for o in table.expiries):
                cut = after
                break
            await table.timers.fire_due()
        assert cut is None, f"version {cut.version} was stored by a deadline and never handed on to be shown"
        assert any(o.unfinished for o in table.expiries), "no outage fell inside an expiry"
    finally:
        await table.store.close()
