"""What a board shows besides its position comes from one service call after a move: one read of the people
and nothing else from the store (the game is the one the move wrote), agreeing with the scheduler's clocks."""
from bot.domain import deadline_math
from bot.domain.player_actions import ROLL
from bot.services import Sessions
from bot.store import Store
from tests.services.test_deadlines import ANN, BOB, CHANNEL, START, TURN, FakeClock, Table

DAY = deadline_math.DAY


class CountingStore(Store):
    """The store, counting its calls (each one a trip to the database)."""

    calls = 0

    async def run(self, query, *args, transaction=False):
        self.calls += 1
        return await super().run(query, *args, transaction=transaction)


async def test_after_a_move_the_board_annotations_read_only_the_people_once(tmp_path):
    table = Table(tmp_path / "t.sqlite3", FakeClock())
    table.store = await CountingStore.open(str(table.path), clock=table.clock.now)
    table.sessions = Sessions(table.store, think_budget_s=0.05)
    try:
        record = await table.start()
        await table.sessions.annotations.of(record, table.clock.now())   # the first board: the game's replay kept
        await table.sessions.away.go_away(BOB.user_id, 2, table.clock.now())
        await table.store.people.set_turn_notifications(BOB.user_id, True)
        table.clock.advance(60)
        moved = await table.sessions.play.act(CHANNEL, ANN.user_id, ROLL, game_id=record.id, version=record.version)
        table.store.calls = 0
        annotations = await table.sessions.annotations.of(moved.record, table.clock.now(), moved.version_before)
        assert table.store.calls == 1
        assert annotations.people.away == {1: START + 2 * DAY} and annotations.people.turn_dms == {BOB.user_id}
        [clock] = await table.sessions.deadlines.turn_clocks(record.id)   # the scheduler's own read
        waiting = deadline_math.waiting_person(moved.record)
        assert annotations.deadline == deadline_math.deadline(clock) == (START + 60 + TURN if waiting == ANN.user_id
                                                                         else START + 2 * DAY + TURN)
    finally:
        await table.store.close()


async def test_a_finished_or_untimed_game_shows_no_deadline_and_reads_nobody(tmp_path):
    store = await CountingStore.open(str(tmp_path / "t.sqlite3"))
    sessions = Sessions(store, think_budget_s=0.05)
    try:
        await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="parcheesi",
                                    options={"seating": "lobby"})
        await sessions.lobby.join(CHANNEL, BOB)
        record = (await sessions.lobby.start(CHANNEL, ANN.user_id)).record
        assert (await sessions.annotations.of(record, START)).deadline is None
        ended = await sessions.endings.end(CHANNEL, ANN.user_id, can_manage=True)
        store.calls = 0
        annotations = await sessions.annotations.of(ended.record, START)
        assert (store.calls, annotations.deadline, annotations.takeback_seat,
                annotations.people.away) == (0, None, None, {})
    finally:
        await store.close()
