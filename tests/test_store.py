"""Store: real SQLite files; crashes in the middle of writes lose nothing acknowledged."""
import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
from dataclasses import replace

import pytest

from bot.store import ChannelBusy, Seat, StaleVersion, Store


async def _new(store: Store, channel: int = 10):
    return await store.create_game(guild_id=1, channel_id=channel, game="parcheesi", host=Seat(7, "Ann"),
                                   locale="en", options={}, seed="00" * 32)


async def test_second_open_game_in_a_channel_is_refused(tmp_path):
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    await _new(store)
    with pytest.raises(ChannelBusy):
        await _new(store)
    assert (await _new(store, channel=11)).channel_id == 11
    await store.close()


async def test_finished_game_frees_the_channel(tmp_path):
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    record = await _new(store)
    await store.update_game(record, status="ended")
    assert await store.open_game(10) is None
    await _new(store)
    await store.close()


async def test_append_action_checks_the_version(tmp_path):
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    record = await store.update_game(await _new(store), status="active", state={"n": 0})
    newer = await store.append_action(record, seat=0, user_id=7, action="a", legal=True, state={"n": 1})
    with pytest.raises(StaleVersion):  # a second writer holding the old version
        await store.append_action(record, seat=0, user_id=7, action="b", legal=True, state={"n": 2})
    assert [a.action for a in await store.actions(record.id)] == ["a"]
    assert (await store.game(record.id)).state == {"n": 1} == newer.state
    await store.close()


async def test_migrations_are_applied_once_and_data_survives_reopening(tmp_path):
    path = str(tmp_path / "t.sqlite3")
    store = await Store.open(path)
    record = await _new(store)
    await store.close()
    store = await Store.open(path)
    assert (await store.game(record.id)).seats == (Seat(7, "Ann"),)
    await store.close()


WRITER = textwrap.dedent("""
    import asyncio, sys
    from bot.store import Seat, Store

    async def main(path):
        store = await Store.open(path)
        record = await store.create_game(guild_id=1, channel_id=5, game="parcheesi", host=Seat(1, "A"),
                                         locale="en", options={}, seed="00" * 32)
        record = await store.update_game(record, status="active", state={"log": []})
        while True:
            log = record.state["log"] + [record.version]
            record = await store.append_action(record, seat=0, user_id=1, action=f"a{record.version}",
                                               legal=True, state={"log": log, "pad": "x" * 4000})
            print(record.version, flush=True)   # acknowledged

    asyncio.run(main(sys.argv[1]))
""")


@pytest.mark.parametrize("after", [40, 400])
def test_kill_during_writes_loses_nothing_acknowledged(tmp_path, after):
    """SIGKILL while the writer is committing: every acknowledged action is
    there, and the snapshot always matches its log (nothing half-written)."""
    path = str(tmp_path / "crash.sqlite3")
    writer = subprocess.Popen([sys.executable, "-c", WRITER, path], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": os.getcwd()})
    acknowledged = 0
    for line in writer.stdout:
        acknowledged = int(line)
        if acknowledged >= after:
            break
    writer.send_signal(signal.SIGKILL)
    writer.wait()

    async def check():
        store = await Store.open(path)
        record = await store.open_game(5)
        actions = await store.actions(record.id)
        await store.close()
        return record, actions

    record, actions = asyncio.run(check())
    assert record.version >= acknowledged
    assert [a.seq for a in actions] == list(range(record.version))
    assert record.state["log"] == list(range(record.version))
    assert json.dumps(record.state)  # a whole snapshot, readable


async def test_games_of_different_channels_write_at_the_same_time(tmp_path):
    """The connection is shared: one game's transaction must not meet another's BEGIN or ROLLBACK."""
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    records = [await store.update_game(await _new(store, channel=c), status="active", state={"n": 0})
               for c in range(20, 30)]

    async def play(record):
        for n in range(1, 11):
            record = await store.append_action(record, seat=0, user_id=7, action=str(n), legal=True, state={"n": n})
        with pytest.raises(StaleVersion):  # rolled back while the other games go on writing
            await store.append_action(replace(record, version=0), seat=0, user_id=7, action="x", legal=True,
                                      state={})
        await store.set_board_message(record.id, record.version, record.version)

    await asyncio.gather(*(play(r) for r in records))
    for record in records:
        assert [a.action for a in await store.actions(record.id)] == [str(n) for n in range(1, 11)]
        assert (await store.game(record.id)).state == {"n": 10}
    await store.close()


async def test_events_since_turn_reach_back_to_the_seats_previous_turn(tmp_path):
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    record = await store.update_game(await _new(store), status="active", state={})
    for seat, name in [(0, "a1"), (0, "a2"), (1, "b1"), (1, "b2"), (0, "a3"), (1, "b3")]:
        record = await store.append_action(record, seat=seat, user_id=seat, action=name, legal=True, state={},
                                           events=[{"key": name, "params": {}}])
    # Seat 1 goes on with its turn (b3 was its first action): the other's turn and its own so far.
    keys = [e["key"] for e in await store.events_since_turn(record.id, before=record.version, seat=1)]
    assert keys == ["a3", "b3"]
    # Seat 1's turn starts after a3: only what the other did since b2.
    keys = [e["key"] for e in await store.events_since_turn(record.id, before=record.version - 1, seat=1)]
    assert keys == ["a3"]
    await store.close()


async def test_active_boards_tell_the_version_each_posted_board_shows(tmp_path):
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    lobby = await _new(store, channel=1)
    playing = await store.update_game(await _new(store, channel=2), status="active", state={"n": 0})
    assert [(r.id, shown) for r, shown in await store.active_boards()] == [(playing.id, None)]
    await store.set_board_message(playing.id, 555, playing.version)
    playing = await store.append_action(playing, seat=0, user_id=7, action="a", legal=True, state={"n": 1})
    [(record, shown)] = await store.active_boards()
    assert (record.board_message_id, shown, record.version) == (555, playing.version - 1, playing.version)
    assert lobby.status == "lobby"
    await store.close()
