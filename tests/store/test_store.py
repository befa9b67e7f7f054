"""Store, on both backends (a SQLite file, a PostgreSQL server: tests/databases.py): crashes in the middle of
writes lose nothing acknowledged, and of two writers racing on one game exactly one wins."""
import ast
import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import make_url

import bot.store
from bot.core.game_records import Seat
from bot.core.shards import Shards, shard_of
from bot.store import (
    FINAL_BOARD_DAYS,
    LOBBY_SHOWN,
    ChannelBusy,
    StaleVersion,
    Store,
    StoreClosed,
    is_postgresql,
    postgresql_url,
    shown_url,
)


async def _new(store: Store, channel: int = 10):
    return await store.games.create_game(guild_id=1, channel_id=channel, game="parcheesi", host=Seat(7, "Ann"),
                                         locale="en", options={}, seed="00" * 32)


async def test_second_open_game_in_a_channel_is_refused(database):
    store = await Store.open(database)
    await _new(store)
    with pytest.raises(ChannelBusy):
        await _new(store)
    assert (await _new(store, channel=11)).channel_id == 11
    await store.close()


async def test_finished_game_frees_the_channel(database):
    store = await Store.open(database)
    record = await _new(store)
    await store.games.update_game(record, status="ended")
    assert await store.games.open_game(10) is None
    await _new(store)
    await store.close()


async def test_append_action_checks_the_version(database):
    store = await Store.open(database)
    record = await store.games.update_game(await _new(store), status="active", state={"n": 0})
    newer = await store.games.append_action(record, seat=0, user_id=7, action="a", legal=True, state={"n": 1})
    with pytest.raises(StaleVersion):  # a second writer holding the old version
        await store.games.append_action(record, seat=0, user_id=7, action="b", legal=True, state={"n": 2})
    assert [a.action for a in await store.games.actions(record.id)] == ["a"]
    assert (await store.games.game(record.id)).state == {"n": 1} == newer.state
    await store.close()


async def test_a_move_ends_its_players_time_away_only_if_it_is_written(database):
    store = await Store.open(database, clock=lambda: 1000.0)
    record = await store.games.update_game(await _new(store), status="active", state={"n": 0})
    for user in (7, 8):
        await store.people.start_away(user, 500.0, 5000.0)
    await store.games.append_action(record, seat=0, user_id=7, action="a", legal=True, state={"n": 1})
    with pytest.raises(StaleVersion):   # refused: user 8 stays away
        await store.games.append_action(record, seat=1, user_id=8, action="b", legal=True, state={"n": 1})
    assert (await store.people.of({7, 8}))[0] == {7: 1000.0, 8: 5000.0}
    await store.close()


async def test_one_read_tells_who_is_away_until_when_and_who_wants_a_message_on_their_turn(database):
    store = await Store.open(database)
    await store.people.start_away(7, 500.0, 5000.0)
    await store.people.start_away(8, 500.0, 600.0)     # over: still its latest period
    for user in (8, 9):
        await store.people.set_turn_notifications(user, True)
    assert await store.people.of({7, 8, 9, 10}) == ({7: 5000.0, 8: 600.0}, {8, 9})
    assert await store.people.of(set()) == ({}, set())
    await store.close()


async def test_the_log_is_read_from_any_position(database):
    store = await Store.open(database)
    record = await store.games.update_game(await _new(store), status="active", state={})
    for action in "abc":
        record = await store.games.append_action(record, seat=0, user_id=None, action=action, legal=True, state={})
    assert [(a.seq, a.action) for a in await store.games.actions(record.id, since=1)] == [(1, "b"), (2, "c")]
    assert await store.games.actions(record.id, since=3) == []
    await store.close()


async def test_migrations_are_applied_once_and_data_survives_reopening(database):
    store = await Store.open(database)
    record = await _new(store)
    await store.close()
    store = await Store.open(database)
    assert (await store.games.game(record.id)).seats == (Seat(7, "Ann"),)
    await store.close()


WRITER = textwrap.dedent("""
    import asyncio, sys
    from bot.core.game_records import Seat
    from bot.store import Store

    async def main(database):
        store = await Store.open(database)
        record = await store.games.create_game(guild_id=1, channel_id=5, game="parcheesi", host=Seat(1, "A"),
                                               locale="en", options={}, seed="00" * 32)
        record = await store.games.update_game(record, status="active", state={"log": []})
        while True:
            log = record.state["log"] + [record.version]
            record = await store.games.append_action(record, seat=0, user_id=1, action=f"a{record.version}",
                                                     legal=True, state={"log": log, "pad": "x" * 4000})
            print(record.version, flush=True)   # acknowledged

    asyncio.run(main(sys.argv[1]))
""")


async def _game_in_channel_5(database: str):
    store = await Store.open(database)
    record = await store.games.open_game(5)
    actions = await store.games.actions(record.id)
    await store.close()
    return record, actions


def _python(code: str, *args: str, **options) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": os.getcwd()}, **options)


@pytest.mark.parametrize("after", [40, 400])
def test_kill_during_writes_loses_nothing_acknowledged(database, after):
    """SIGKILL while the writer is committing (on PostgreSQL, most often with a transaction open on the
    server, which rolls it back): every acknowledged action is there, and the snapshot always matches its
    log (nothing half-written)."""
    writer = _python(WRITER, database)
    acknowledged = 0
    for line in writer.stdout:
        acknowledged = int(line)
        if acknowledged >= after:
            break
    writer.send_signal(signal.SIGKILL)
    writer.wait()

    record, actions = asyncio.run(_game_in_channel_5(database))
    assert record.version >= acknowledged
    assert [a.seq for a in actions] == list(range(record.version))
    assert record.state["log"] == list(range(record.version))
    assert json.dumps(record.state)  # a whole snapshot, readable


RACER = textwrap.dedent("""
    import asyncio, sys
    from bot.store import StaleVersion, Store

    async def main(database, name, moves):
        store = await Store.open(database)
        print("ready", flush=True)
        sys.stdin.readline()   # both start at once
        applied = 0
        while applied < moves:
            record = await store.games.open_game(5)
            try:
                await store.games.append_action(record, seat=0, user_id=1, action=f"{name}{applied}", legal=True,
                                                state={"last": f"{name}{applied}"})
                applied += 1
            except StaleVersion:
                print("stale", flush=True)
        await store.close()

    asyncio.run(main(*sys.argv[1:3], int(sys.argv[3])))
""")


def test_two_writer_processes_racing_on_one_game_never_both_apply_a_move(database):
    """Two processes read the game and write a move on top of what they read, as fast as they can: each
    write lands on the version its writer read or is refused, so the log has each move once, in order,
    and the snapshot is the last move's."""
    async def setup():
        store = await Store.open(database)
        await store.games.update_game(await _new(store, channel=5), status="active", state={})
        await store.close()
    asyncio.run(setup())
    racers = [_python(RACER, database, name, "150", stdin=subprocess.PIPE) for name in ("a", "b")]
    assert [racer.stdout.readline() for racer in racers] == ["ready\n"] * 2
    for racer in racers:
        racer.stdin.write("go\n")
        racer.stdin.flush()
    refused = sum(len(racer.communicate()[0].split()) for racer in racers)
    assert [racer.returncode for racer in racers] == [0, 0]

    record, actions = asyncio.run(_game_in_channel_5(database))
    assert record.version == len(actions) == 300
    assert [a.seq for a in actions] == list(range(300))
    assert sorted(a.action for a in actions) == sorted(f"{n}{i}" for n in "ab" for i in range(150))
    assert record.state == {"last": actions[-1].action}
    assert refused > 0  # they did race


async def test_of_two_connections_writing_the_same_version_exactly_one_wins(database):
    first, second = await Store.open(database), await Store.open(database)
    record = await first.games.update_game(await _new(first), status="active", state={"n": 0})
    for n in range(1, 21):
        outcomes = await asyncio.gather(
            *(store.games.append_action(record, seat=0, user_id=7, action=f"{name}{n}", legal=True, state={"n": n})
              for store, name in ((first, "a"), (second, "b"))), return_exceptions=True)
        assert sorted(type(o).__name__ for o in outcomes) == ["GameRecord", "StaleVersion"]
        record = next(o for o in outcomes if not isinstance(o, Exception))
    assert [a.seq for a in await second.games.actions(record.id)] == list(range(20))
    assert (await first.games.game(record.id)).version == 20
    await first.close()
    await second.close()


async def test_games_of_different_channels_write_at_the_same_time(database):
    """One game's transaction must not meet another's BEGIN or ROLLBACK."""
    store = await Store.open(database)
    records = [await store.games.update_game(await _new(store, channel=c), status="active", state={"n": 0})
               for c in range(20, 30)]

    async def play(record):
        for n in range(1, 11):
            record = await store.games.append_action(record, seat=0, user_id=7, action=str(n), legal=True,
                                                     state={"n": n})
        with pytest.raises(StaleVersion):  # rolled back while the other games go on writing
            await store.games.append_action(replace(record, version=0), seat=0, user_id=7, action="x", legal=True,
                                            state={})
        await store.boards.set_message(record.id, record.version, record.version, "active")

    await asyncio.gather(*(play(r) for r in records))
    for record in records:
        assert [a.action for a in await store.games.actions(record.id)] == [str(n) for n in range(1, 11)]
        assert (await store.games.game(record.id)).state == {"n": 10}
    await store.close()


async def test_boards_to_resume_tell_the_version_each_posted_board_shows(database):
    store = await Store.open(database)
    lobby = await _new(store, channel=1)
    playing = await store.games.update_game(await _new(store, channel=2), status="active", state={"n": 0})
    # A lobby never shown (its post failed) is resumed too, until its message is recorded.
    assert [(r.id, shown) for r, shown, _ in await store.boards.to_resume()] == [(lobby.id, None), (playing.id, None)]
    await store.boards.set_message(lobby.id, 554, LOBBY_SHOWN, "lobby")
    await store.boards.set_message(playing.id, 555, playing.version, "active")
    playing = await store.games.append_action(playing, seat=0, user_id=7, action="a", legal=True, state={"n": 1})
    [(record, shown, status)] = await store.boards.to_resume()
    assert (record.board_message_id, shown, status, record.version) == (555, playing.version - 1, "active",
                                                                          playing.version)
    assert lobby.status == "lobby"
    await store.close()


async def test_a_game_a_move_finished_is_resumed_until_its_final_board_is_shown_within_a_week(database):
    now = [1_000_000.0]
    store = await Store.open(database, clock=lambda: now[0])
    record = await store.games.update_game(await _new(store), status="active", state={"n": 0})
    await store.boards.set_message(record.id, 555, record.version, "active")
    won = await store.games.append_action(record, seat=0, user_id=7, action="a", legal=True, state={"n": 1},
                                          status="finished", result={"winners": [0]})
    assert [(r.id, r.status, shown) for r, shown, _ in await store.boards.to_resume()] == [(won.id, "finished", 0)]
    now[0] += FINAL_BOARD_DAYS * 86400 + 1     # given up: not tried at every start for ever
    assert await store.boards.to_resume() == []
    now[0] -= 2
    await store.boards.set_message(won.id, 556, won.version, "finished")
    assert await store.boards.to_resume() == []
    await store.close()


@pytest.mark.parametrize("details", [{"resigned": 1}, {"ended_by": 7}])
async def test_a_game_a_resignation_or_game_end_ended_is_resumed_until_its_board_shows_the_end(database, details):
    """A resignation or /game end changes the status, not the version: the board's status tells."""
    store = await Store.open(database)
    record = await store.games.update_game(await _new(store), status="active", state={"n": 0})
    await store.boards.set_message(record.id, 555, record.version, "active")
    status = "finished" if "resigned" in details else "ended"
    over = await store.games.update_game(record, status=status,
                                         result={"winners": [], "draw": False, "details": details})
    assert [(r.id, shown, shown_status) for r, shown, shown_status in await store.boards.to_resume()] == \
        [(over.id, over.version, "active")]
    await store.boards.set_message(over.id, 556, over.version, status)
    assert await store.boards.to_resume() == []
    await store.close()


@pytest.mark.parametrize("why", ["channel_deleted", "bot_removed"])
async def test_a_game_ended_with_its_channel_or_server_gone_is_not_resumed(database, why):
    store = await Store.open(database)
    record = await store.games.update_game(await _new(store), status="active", state={"n": 0})
    await store.boards.set_message(record.id, 555, record.version, "active")
    await store.games.update_game(record, status="ended", result={"winners": [], "draw": False, "details": {why: True}})
    assert await store.boards.to_resume() == []
    await store.close()


async def test_a_process_resumes_and_times_only_the_games_of_its_shards_guilds(database):
    """The shard of a guild is computed in SQL as bot.core.shards.shard_of does (on 64-bit ids: the high bits
    count); a game without a guild is shard 0's."""
    store = await Store.open(database)
    guilds = [None, 1, 5 << 22, (1 << 62) + (3 << 22), 9 << 22, (1 << 63) - 1]
    for channel, guild in enumerate(guilds):
        record = await store.games.create_game(guild_id=guild, channel_id=channel, game="parcheesi",
                                               host=Seat(7, "Ann"), locale="en", options={"turn_time": 600},
                                               seed="00" * 32)
        await store.games.update_game(record, status="active", state={"n": 0})
    for shards in (Shards(2, (0,)), Shards(2, (1,)), Shards(3, (0, 2)), Shards(4, (1, 2, 3)), Shards(1, (0,))):
        mine = [g for g in guilds if shards.owns(g)]
        assert [r.guild_id for r, _, _ in await store.boards.to_resume(shards)] == mine, shards
        assert [c.record.guild_id for c in await store.deadlines.turn_clocks(shards=shards)] == mine, shards
    assert len(await store.boards.to_resume()) == len(await store.deadlines.turn_clocks()) == len(guilds)
    assert [shard_of(g, 2) for g in guilds] == [0, 0, 1, 1, 1, 1]
    await store.close()


async def test_a_closed_store_refuses_calls_at_once_and_ends_those_in_flight(database):
    store = await Store.open(database)
    record = await _new(store)
    in_flight = [asyncio.ensure_future(store.games.game(record.id)) for _ in range(40)]
    await asyncio.sleep(0)   # under way
    # A hang fails here (wait_for), not by the clock of a slow machine: 30 s is far beyond any of these calls.
    await asyncio.wait_for(store.close(), 30)
    ended = await asyncio.wait_for(asyncio.gather(*in_flight, return_exceptions=True), 30)
    assert all(result == record or isinstance(result, StoreClosed) for result in ended)
    with pytest.raises(StoreClosed):
        await asyncio.wait_for(store.games.open_game(10), 30)


def test_postgres_urls_are_postgresql_and_a_password_may_hold_at_colon_and_slash_encoded():
    assert is_postgresql("postgres://tablero@db.example/tablero") and is_postgresql("postgresql+asyncpg://h/db")
    assert not is_postgresql("postgres.sqlite3") and not is_postgresql("data/postgresql.sqlite3")
    url = postgresql_url("postgres://tablero:p%40ss%3Aw%2Frd@db.example:6543/games")
    assert (url.drivername, url.username, url.password, url.host, url.port, url.database) == \
        ("postgresql+asyncpg", "tablero", "p@ss:w/rd", "db.example", 6543, "games")


@pytest.mark.parametrize("url, shown", [
    ("postgresql://tablero:secret@db.example/games", "postgresql://tablero:***@db.example/games"),
    ("postgres://tablero:p%40ss@db.example:6543/games", "postgres://tablero:***@db.example:6543/games"),
    ("postgresql+asyncpg://tablero:secret@db.example/games", "postgresql://tablero:***@db.example/games"),
    ("postgresql://tablero:secret@db.example:port/games", "postgresql://tablero:***@db.example:port/games"),
])
def test_a_url_is_shown_without_its_password_or_a_driver_name(url, shown):
    assert shown_url(url) == shown


async def test_a_postgres_url_with_an_encoded_password_opens_the_database(postgresql_database):
    url = make_url(postgresql_database).set(drivername="postgres", password="p@ss:w/rd")
    text = url.render_as_string(hide_password=False)
    assert text.startswith("postgres://") and "p%40ss%3Aw%2Frd@" in text
    store = await Store.open(text)
    assert (await _new(store)).channel_id == 10
    await store.close()


def test_rows_are_read_by_column_name_never_by_position():
    """row[14] would read another column, silently, once a column is added before it."""
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in Path(bot.store.__file__).parent.glob("*.py")]
    by_position = [ast.unparse(node) for tree in trees for node in ast.walk(tree) if isinstance(node, ast.Subscript)
                   and isinstance(node.value, ast.Name) and node.value.id in ("row", "r")
                   and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int)]
    assert by_position == []


@pytest.mark.parametrize("sslmode", ["disable", "prefer"])
async def test_a_postgres_url_with_an_sslmode_as_hosts_hand_them_out_opens_the_database(postgresql_database, sslmode):
    """Managed hosts append ?sslmode=require to the URL they hand out: libpq's parameter, understood."""
    store = await Store.open(f"{postgresql_database}?sslmode={sslmode}")
    assert (await _new(store)).channel_id == 10
    await store.close()
