"""Deadlines where the bot may only answer interactions (the game's `interactions_only` option): the timers
send the reminder but never apply the deadline; the next interaction in the game applies it (apply_overdue),
or a player waiting on the late one claims the turn (claim), with the vote after three expiries in a row."""
import pytest

from bot.core.game_records import INTERACTIONS_ONLY
from bot.domain import deadline_math
from bot.domain.player_actions import ROLL
from bot.games.base import GameError
from bot.present.board import board_post
from bot.present.post import ControlKind
from tests.services.test_deadlines import ANN, BOB, CHANNEL, CY, START, TURN, FakeClock, Table, keys

ONLY = {INTERACTIONS_ONLY: True}


@pytest.fixture
async def table(tmp_path):
    table = await Table(tmp_path / "t.sqlite3", FakeClock()).open()
    yield table
    await table.store.close()


async def refused(call) -> str:
    with pytest.raises(GameError) as refusal:
        await call
    return refusal.value.message.key


async def test_the_timers_remind_but_never_apply_the_deadline(table):
    record = await table.start(**ONLY)
    seat = await table.to_move()
    assert await table.timers.fire_due() == START + TURN / 2
    table.clock.advance(TURN / 2)
    assert await table.timers.fire_due() is None   # after the reminder, nothing left to fire on its own
    assert table.reminders == [(record.version, seat, START + TURN)]
    table.clock.advance(10 * TURN)
    assert await table.timers.fire_due() is None
    assert table.expiries == [] and await table.to_move() == seat and (await table.record()).version == record.version


async def test_the_next_interaction_applies_the_passed_deadline_first(table):
    record = await table.start(**ONLY)
    late = await table.to_move()
    assert await table.sessions.claims.apply_overdue(CHANNEL, START + TURN - 1) is None   # still in time
    table.clock.advance(TURN + 3600)   # nobody came for an hour past the deadline
    outcome = await table.sessions.claims.apply_overdue(CHANNEL, table.clock.now())
    assert keys(outcome)[0] == "timers.expired_play" and outcome.seat_before == late
    assert await table.to_move() != late
    played = await table.store.games.actions(record.id)
    assert played and all(a.seat == late and a.user_id is None for a in played)
    # The new turn's time just began.
    assert await table.sessions.claims.apply_overdue(CHANNEL, table.clock.now()) is None
    # The late player's click on the board of the turn that ran out finds it gone.
    assert await refused(table.sessions.play.act(CHANNEL, (ANN, BOB)[late].user_id, ROLL, game_id=record.id,
                                                 version=record.version)) == "error.stale"


async def test_apply_overdue_leaves_games_the_timers_fire_and_untimed_ones(table):
    await table.start()   # a server game where the bot is: its deadlines are the timers' to fire
    table.clock.advance(2 * TURN)
    assert await table.sessions.claims.apply_overdue(CHANNEL, table.clock.now()) is None
    assert await table.sessions.claims.apply_overdue(CHANNEL + 1, table.clock.now()) is None   # no game there
    await table.sessions.deadlines.configure(CHANNEL, ANN.user_id, {**ONLY, "turn_time": None})
    table.clock.advance(2 * TURN)
    assert await table.sessions.claims.apply_overdue(CHANNEL, table.clock.now()) is None


async def test_apply_overdue_with_skip_passes_the_turn(table):
    await table.start(on_timeout="skip", **ONLY)
    table.clock.advance(TURN)
    outcome = await table.sessions.claims.apply_overdue(CHANNEL, table.clock.now())
    assert keys(outcome)[:2] == ["timers.skipped", "timers.lost.roll"] and await table.to_move() == 1


async def test_a_waiting_player_claims_the_turn_once_its_time_ran_out(table):
    record = await table.start(**ONLY)
    late = await table.to_move()
    players = (ANN, BOB)
    waiting, slow = players[1 - late], players[late]
    claim = table.sessions.claims.claim
    table.clock.advance(TURN - 1)
    assert await refused(claim(CHANNEL, waiting.user_id, record.id, record.version, table.clock.now())) \
        == "claims.error.not_yet"
    table.clock.advance(1)
    assert await refused(claim(CHANNEL, slow.user_id, record.id, record.version, table.clock.now())) \
        == "claims.error.own_turn"
    assert await refused(claim(CHANNEL, CY.user_id, record.id, record.version, table.clock.now())) \
        == "error.not_a_player"
    outcome = await claim(CHANNEL, waiting.user_id, record.id, record.version, table.clock.now())
    assert keys(outcome)[0] == "timers.expired_play" and outcome.seat_before == late
    assert await table.to_move() == 1 - late
    # A second click on the same board (a double click, or the other waiting player) is refused: done already.
    assert await refused(claim(CHANNEL, waiting.user_id, record.id, record.version, table.clock.now())) \
        == "error.stale"


async def test_time_away_moves_what_may_be_claimed(table):
    record = await table.start(**ONLY)
    late = await table.to_move()
    slow, waiting = (ANN, BOB)[late], (ANN, BOB)[1 - late]
    await table.sessions.away.go_away(slow.user_id, 1, table.clock.now())
    table.clock.advance(TURN)
    assert await refused(table.sessions.claims.claim(CHANNEL, waiting.user_id, record.id, record.version,
                                                     table.clock.now())) == "claims.error.not_yet"
    assert await table.sessions.claims.apply_overdue(CHANNEL, table.clock.now()) is None


async def test_a_claim_needs_a_deadline_and_a_person_to_wait_for(table):
    record = await table.start(**ONLY)
    await table.sessions.deadlines.configure(CHANNEL, ANN.user_id, {"turn_time": None})
    record = await table.record()
    assert await refused(table.sessions.claims.claim(CHANNEL, BOB.user_id, record.id, record.version,
                                                     START + 10 * TURN)) == "claims.error.nothing_to_claim"


async def test_the_third_claimed_expiry_in_a_row_opens_the_vote(table):
    await table.start(players=(ANN, BOB, CY), **ONLY)
    players = (ANN, BOB, CY)
    for _ in range(30):
        table.clock.advance(TURN)
        record = await table.record()
        late = deadline_math.seat_to_move(record)
        claimer = players[(late + 1) % 3]
        outcome = await table.sessions.claims.claim(CHANNEL, claimer.user_id, record.id, record.version,
                                                    table.clock.now())
        if outcome.vote is not None:
            break
    else:
        raise AssertionError("no vote opened")
    seat = outcome.vote.seat
    assert deadline_math.expiry_streak(await table.store.games.actions(record.id), seat) == deadline_math.VOTE_AFTER
    voters = [p for i, p in enumerate(players) if i != seat]
    decided = None
    for voter in voters:
        decided = await table.sessions.deadlines.vote(CHANNEL, voter.user_id, record.id, seat, "computer")
    assert decided.vote.decided == "computer" and decided.record.seats[seat].level == "normal"


async def test_the_board_offers_the_claim_only_where_deadlines_wait_for_interactions(table):
    await table.start(**ONLY)
    claims = [c for c in board_post(await table.record()).controls if c.kind == ControlKind.CLAIM]
    assert [(c.label, c.row) for c in claims] == [("Claim the turn", 4)]
    await table.sessions.deadlines.configure(CHANNEL, ANN.user_id, {INTERACTIONS_ONLY: None})
    assert ControlKind.CLAIM not in [c.kind for c in board_post(await table.record()).controls]
    await table.sessions.deadlines.configure(CHANNEL, ANN.user_id, {**ONLY, "turn_time": None})
    assert ControlKind.CLAIM not in [c.kind for c in board_post(await table.record()).controls]
