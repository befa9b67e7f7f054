"""Time away with the controllable clock of the deadline tests: while the player to move is away, the
turn's deadline and reminder wait (also across a restart); coming back or acting restarts the turn's time;
at most 14 days at a time and 30 in any 365."""
import pytest

from bot.domain import deadline_math
from bot.domain.player_actions import ROLL
from bot.games.base import GameError
from tests.services.test_deadlines import ANN, BOB, CHANNEL, START, TURN, FakeClock, Table

DAY = deadline_math.DAY


@pytest.fixture
async def table(tmp_path):
    table = await Table(tmp_path / "t.sqlite3", FakeClock()).open()
    yield table
    await table.store.close()


async def test_a_deadline_waits_while_its_player_is_away_and_runs_again_when_they_come_back(table, tmp_path):
    record = await table.start()                      # lobby seating: Ann (seat 0) to roll
    until, left = await table.sessions.away.go_away(ANN.user_id, 2, table.clock.now())
    assert (until, left) == (START + 2 * DAY, 28)
    assert (await table.sessions.annotations.of(record, table.clock.now())).people.away == {0: until}
    assert await table.timers.fire_due() == until + TURN / 2   # no reminder while she is away
    table.clock.advance(DAY)
    await table.timers.fire_due()
    assert table.reminders == [] and table.expiries == []

    # A restart re-reads the periods from the database: the deadline still waits.
    await table.store.close()
    await table.open()
    assert await table.timers.fire_due() == until + TURN / 2
    assert (await table.sessions.annotations.of(record, table.clock.now())).deadline == until + TURN

    # Back early: the turn's full time runs from now, then expires as usual.
    assert await table.sessions.away.come_back(ANN.user_id, table.clock.now())
    assert not await table.sessions.away.come_back(ANN.user_id, table.clock.now())
    back = table.clock.now()
    assert (await table.sessions.annotations.of(record, back)).people.away == {}
    assert await table.timers.fire_due() == back + TURN / 2
    table.clock.advance(TURN)
    await table.timers.fire_due()
    assert [o.seat_before for o in table.expiries] == [0]


async def test_an_away_period_that_simply_ends_lets_the_deadline_fall_a_turn_time_later(table):
    await table.start()
    until, _ = await table.sessions.away.go_away(ANN.user_id, 1, table.clock.now())
    table.clock.advance(DAY + TURN - 1)
    await table.timers.fire_due()
    assert table.expiries == [] and len(table.reminders) == 1
    table.clock.advance(1)
    await table.timers.fire_due()
    assert [o.seat_before for o in table.expiries] == [0]


async def test_acting_in_a_game_ends_time_away(table):
    record = await table.start()
    await table.sessions.away.go_away(ANN.user_id, 3, table.clock.now())
    await table.sessions.away.go_away(BOB.user_id, 3, table.clock.now())
    table.clock.advance(60)
    await table.sessions.play.act(CHANNEL, ANN.user_id, ROLL, game_id=record.id, version=record.version)
    record = await table.record()
    assert (await table.sessions.annotations.of(record, table.clock.now())).people.away == {1: START + 3 * DAY}
    assert await table.store.people.away_periods(ANN.user_id, 0) == [(START, START + 60)]


async def test_at_most_14_days_at_a_time_and_30_in_any_365(table):
    now = table.clock.now()
    for days in (0, 15):
        with pytest.raises(GameError) as refused:
            await table.sessions.away.go_away(ANN.user_id, days, now)
        assert refused.value.message.key == "away.error.days"
    assert (await table.sessions.away.go_away(ANN.user_id, 14, now))[1] == 16
    assert (await table.sessions.away.go_away(ANN.user_id, 14, now + 20 * DAY))[1] == 2
    # A new period replaces the one running: only the days really spent count.
    assert (await table.sessions.away.go_away(ANN.user_id, 2, now + 21 * DAY))[1] == 13
    with pytest.raises(GameError) as refused:
        await table.sessions.away.go_away(ANN.user_id, 14, now + 40 * DAY)
    assert refused.value.message.key == "away.error.allowance" and refused.value.message.params["count"] == 13
    # 365 days before the end of a period from day 365 is day 14: the first period no longer counts, the
    # 3 days from day 20 to 23 still do.
    assert (await table.sessions.away.go_away(ANN.user_id, 14, now + 365 * DAY))[1] == 30 - 3 - 14
