"""Two `python -m bot` processes, shards 0 and 1 of 2, on one PostgreSQL database (docs/scaling.md): games in
guilds of both shards go on side by side; the process of shard 1 is killed with SIGKILL mid-game, its game
waits (the other process leaves it alone, deadline included) while the other shard's game goes on; restarted,
it fires the deadline that passed meanwhile once and the game carries on. Turn notifications come from both
processes; `/stats` and `/leaderboard` answer for each server from the shared database."""
import asyncio
import sys

import pytest

from bot.domain import i18n
from bot.store import Store
from tests.conftest import REPO
from tests.e2e.table import Table, a_later_deadline_fired, two_players

pytestmark = [pytest.mark.e2e, pytest.mark.fake_discord(shard_count=2)]
# The requests that answer a command once it acknowledged it (its reply, a follow-up, the reply deleted).
ANSWERS = (("PATCH", "/webhooks/{app}/{token}/messages/{message}"), ("POST", "/webhooks/{app}/{token}"),
           ("DELETE", "/webhooks/{app}/{token}/messages/{message}"))


def shard_process(fake, database, shard: int, tmp_path):
    return fake.client_process([sys.executable, "-m", "bot"], cwd=REPO, log_path=tmp_path / f"bot-{shard}.log",
                               shards=[shard], env={"TABLERO_DATABASE": database, "TABLERO_SHARD_COUNT": "2",
                                                    "TABLERO_SHARD_IDS": str(shard), "TABLERO_MIN_TURN_TIME": "1"})


async def test_two_shard_processes_share_the_database_and_one_survives_a_kill(fake_discord, postgresql_database,
                                                                               tmp_path):
    fake, database = fake_discord, postgresql_database
    north = fake.add_guild("North", shard=(1, 2))
    assert fake.shard_of(fake.default_guild) == 0 and fake.shard_of(north) == 1
    first, second = shard_process(fake, database, 0, tmp_path), shard_process(fake, database, 1, tmp_path)
    await first.start()                     # shard 0's process syncs the commands...
    await second.start(require_sync=False)  # ...the other does not
    try:
        ana, bruno = two_players(fake)
        home = Table(fake, [ana, bruno], "parcheesi", seed=3)
        away = Table(fake, [ana, bruno], "parcheesi", seed=4, guild=north)
        await fake.slash(bruno, away.channel, "game notify", state="on")   # answered by shard 1's process
        # Home's deadline is far off, but each move there has shard 0's process read the clocks again.
        # Each click one action, counted below against the log: no forced move plays itself.
        await home.open(turn_time="1h", forced_moves=False)
        await away.open(forced_moves=False)
        plays = {home: 0, away: 0}
        for table in (home, away):   # bruno is told of his turns in both servers, by both processes
            plays[table] += await table.play_until(lambda table=table: dm_to(fake, bruno, table), limit=30)
            await table.play(4)
            plays[table] += 4
        assert all(any(t == "INTERACTION_CREATE" for t, _ in fake.dispatched(shard)) for shard in (0, 1))

        # SIGKILL, mid-game, a deadline running: as soon as the settings are stored (the first request of their
        # answer held). Killed once the command settled instead (0.3 s after its last answer), a busy machine
        # could let the 2 s run out first: that deadline fired before the kill, the next one while it was down,
        # and the restart showed two expiries.
        holds = [fake.hold(method, route, before=True) for method, route in ANSWERS]
        answering = asyncio.create_task(fake.slash(ana, away.channel, "game settings", turn_time="2s"))
        await fake.wait_until(lambda: any(h.reached.is_set() for h in holds), what="the settings stored")
        await second.kill()
        for held in holds:
            held.release()
            fake.drop_hold(held)
        answering.cancel()
        stalled = await version_of(database, away)
        await home.play(6)    # the other shard's game goes on meanwhile
        plays[home] += 6
        # away's deadline passes with its process down: nobody else may fire it (a witness game on shard 0)
        await a_later_deadline_fired(fake, [fake.add_user("carl"), fake.add_user("dora")], 2)
        await home.play(1)
        plays[home] += 1
        assert await version_of(database, away) == stalled

        await second.start()   # restarted: the deadline that passed fires, once
        # Discord listed it North alone: home's server, shard 0's, is not taken for one that removed the bot
        # (home goes on below)
        assert fake.command_syncs == 1   # by shard 0's process alone
        ran_out = i18n.catalogue("en")["timers.expired_play"].split("{seat}")[1]   # the words after the player
        await fake.wait_for_message(away.channel, lambda m: ran_out in m.content and m.files, timeout=10)
        await fake.slash(ana, away.channel, "game settings", turn_time="off")
        await away.play(6)
        plays[away] += 6
        # once: no second expiry came while six moves were played (a deadline fires within its timers' pass). Read
        # in the game's log: the channel's scrollback folds retired boards, and the first board after a restart
        # does not know the boards before it (docs/channel.md).
        assert await turns_played_by_deadlines(database, away) == 1

        await fake.slash(ana, home.channel, "game resign")    # bruno wins at home,
        await fake.slash(bruno, away.channel, "game resign")  # ana in North
        assert "1516" in (await fake.slash(bruno, home.channel, "stats")).content
        assert "1484" in (await fake.slash(bruno, away.channel, "stats")).content
        home_board = (await fake.slash(ana, home.channel, "leaderboard", game="parcheesi")).content
        away_board = (await fake.slash(bruno, away.channel, "leaderboard", game="parcheesi")).content
        assert f"1. <@{bruno.id}> — 1516" in home_board and f"2. <@{ana.id}> — 1484" in home_board
        assert f"1. <@{ana.id}> — 1516" in away_board and f"2. <@{bruno.id}> — 1484" in away_board
    finally:
        await second.terminate()
        await first.terminate()

    store = await Store.open(database)
    try:
        for table in (home, away):
            record = await store.games.latest_game(table.channel.id)
            log = await store.games.actions(record.id)
            assert record.status == "finished" and [a.seq for a in log] == list(range(record.version))
            # Each click applied once: one logged action per play; the deadline's turn (one run of actions
            # by nobody, from the version the kill left) fired once, and only in the game that had one.
            assert sum(1 for a in log if a.user_id is not None) == plays[table], table.channel.name
            by_nobody = [a.seq for a in log if a.user_id is None]
            if table is home:
                assert by_nobody == []
            else:
                assert by_nobody and by_nobody == list(range(stalled, stalled + len(by_nobody)))
    finally:
        await store.close()


async def version_of(database: str, table: Table) -> int:
    store = await Store.open(database)
    try:
        return (await store.games.open_game(table.channel.id)).version
    finally:
        await store.close()


async def turns_played_by_deadlines(database: str, table: Table) -> int:
    """The turns of the table's game that its deadlines played: runs of one seat's actions logged with no person
    (every seat of the game is a person's)."""
    store = await Store.open(database)
    try:
        actions = await store.games.actions((await store.games.open_game(table.channel.id)).id)
    finally:
        await store.close()
    runs, previous = 0, None
    for action in actions:
        played_by_deadline = (action.seat, action.user_id is None)
        if played_by_deadline[1] and played_by_deadline != previous:
            runs += 1
        previous = played_by_deadline
    return runs


def dm_to(fake, user, table: Table) -> bool:
    """Has `user` had a turn notification with a link into the table's channel?"""
    return any(f"/{table.channel.id}/" in m.content for m in fake.dms(user))
