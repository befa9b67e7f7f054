"""Play's copy of each game it wrote (Channels.as_written): a click on the board of the version written here is
played without reading the game again, and the version-checked write keeps that safe when another process
(another Sessions on the same database) changes the game. Both backends."""
import asyncio
import contextlib

import pytest

from bot.core.game_records import Seat
from bot.domain.player_actions import FORCED_MOVES, ROLL
from bot.games.base import GameError
from bot.services import Sessions
from bot.store import Store

CHANNEL = 100
ANN, BOB = Seat(1, "Ann"), Seat(2, "Bob")


@contextlib.asynccontextmanager
async def two_processes(database: str):
    """Two bot processes' services on one database."""
    first, second = await Store.open(database), await Store.open(database)
    try:
        yield Sessions(first, think_budget_s=0.05), Sessions(second, think_budget_s=0.05)
    finally:
        await first.close()
        await second.close()


async def started(sessions: Sessions):
    # No forced move plays itself after a roll: each roll here is one version.
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="parcheesi",
                                options={"seating": "lobby", FORCED_MOVES: False})
    await sessions.lobby.join(CHANNEL, BOB)
    return (await sessions.lobby.start(CHANNEL, ANN.user_id)).record


async def test_a_click_on_the_board_written_here_reads_nothing(database):
    async with two_processes(database) as (here, _):
        record = await started(here)
        assert here.channels.as_written(CHANNEL, record.id, record.version) == record

        async def no_read(channel_id):
            raise AssertionError("the game was read again")
        here.store.games.open_game = no_read
        outcome = await here.play.act(CHANNEL, ANN.user_id, ROLL, game_id=record.id, version=record.version)
        assert outcome.record.version == record.version + 1 and outcome.people == ({}, set())
        assert here.channels.as_written(CHANNEL, record.id, outcome.record.version) == outcome.record


async def test_two_processes_acting_on_one_game_cannot_both_win_a_version(database):
    async with two_processes(database) as (first, second):
        record = await started(first)
        results = await asyncio.gather(
            first.play.act(CHANNEL, ANN.user_id, ROLL, game_id=record.id, version=record.version),
            second.play.act(CHANNEL, ANN.user_id, ROLL, game_id=record.id, version=record.version),
            return_exceptions=True)
        won = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, GameError)]
        assert len(won) == 1 and len(refused) == 1 and refused[0].message.key == "error.stale", results
        assert len(await first.store.games.actions(record.id)) == 1
        # The process that lost holds no copy newer than the store: its next click at the stored version plays.
        stored = await first.store.games.open_game(CHANNEL)
        assert stored.version == record.version + 1


async def test_a_copy_behind_another_process_s_move_refuses_the_old_board(database):
    async with two_processes(database) as (first, second):
        record = await started(first)
        moved = await second.play.act(CHANNEL, ANN.user_id, ROLL, game_id=record.id, version=record.version)
        with pytest.raises(GameError) as refused:   # first's copy is of the version the click names: stale
            await first.play.act(CHANNEL, ANN.user_id, ROLL, game_id=record.id, version=record.version)
        assert refused.value.message.key == "error.stale"
        assert (await first.store.games.open_game(CHANNEL)).version == moved.record.version


async def test_a_copy_that_missed_a_change_made_elsewhere_never_writes_over_it(database):
    """A game's settings change without a new version, in whichever process the host used: the write refuses
    the copy that predates them, and the click is played on the game as stored, settings included."""
    async with two_processes(database) as (first, second):
        record = await started(first)
        await second.deadlines.configure(CHANNEL, ANN.user_id, {"turn_time": 3600})
        outcome = await first.play.act(CHANNEL, ANN.user_id, ROLL, game_id=record.id, version=record.version)
        assert outcome.record.version == record.version + 1 and outcome.record.options["turn_time"] == 3600
        stored = await first.store.games.open_game(CHANNEL)
        assert stored.options == outcome.record.options and stored.version == outcome.record.version
