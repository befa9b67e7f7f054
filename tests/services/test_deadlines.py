"""Turn deadlines with a controllable clock: reminder, expiry (an easy computer plays the turn, or
it is forfeited: on_timeout "skip"), three expiries then a vote, a restart between the reminder and
the deadline, and a move made at the very moment of the deadline."""
import asyncio
from typing import Any

import pytest

import bot.games
from bot.core.game_records import LoggedAction, Seat
from bot.domain import deadline_math, retelling, verify
from bot.domain.player_actions import ROLL
from bot.games import get_ruleset
from bot.games.base import GameError
from bot.services import Sessions
from bot.services.scheduler import DeadlineScheduler
from bot.store import Store
from tests.games.parcheesi.positions import classic_six_cheat

CHANNEL = 100
ANN, BOB, CY = Seat(1, "Ann"), Seat(2, "Bob"), Seat(3, "Cy")
TURN = 600
START = 1_700_000_000.0


class FakeClock:
    """Time moves only when the test says so."""

    def __init__(self, start: float = START):
        self.t = start
        self._moved = asyncio.Event()

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds
        self._moved.set()
        self._moved = asyncio.Event()

    async def sleep_until(self, when: float | None, wake: asyncio.Event) -> None:
        while (when is None or self.t < when) and not wake.is_set():
            moved = asyncio.ensure_future(self._moved.wait())
            woken = asyncio.ensure_future(wake.wait())
            await asyncio.wait([moved, woken], return_when=asyncio.FIRST_COMPLETED)
            moved.cancel()
            woken.cancel()


class Table:
    """A store, the sessions service and the scheduler on one database, recording what they fire."""

    def __init__(self, path, clock: FakeClock):
        self.path, self.clock = path, clock
        self.reminders: list[tuple[int, int, float]] = []   # (version, seat, deadline)
        self.expiries: list = []

    async def open(self) -> "Table":
        self.store = await Store.open(str(self.path), clock=self.clock.now)
        self.sessions = Sessions(self.store, think_budget_s=0.05)
        self.timers = DeadlineScheduler(self.sessions.deadlines, clock=self.clock, on_reminder=self._remind,
                                        on_expiry=self._expire)
        return self

    async def _remind(self, record, seat, deadline):
        self.reminders.append((record.version, seat, deadline))

    async def _expire(self, outcome):
        self.expiries.append(outcome)

    async def start(self, players=(ANN, BOB), game="parcheesi", **options: Any):
        """A started game whose seats follow `players` (lobby seating: the tests name seats by join order)."""
        await self.sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=players[0], game=game,
                                         options={"turn_time": TURN, "seating": "lobby", **options})
        for player in players[1:]:
            await self.sessions.lobby.join(CHANNEL, player)
        return (await self.sessions.lobby.start(CHANNEL, players[0].user_id)).record

    async def record(self):
        return await self.store.games.open_game(CHANNEL)

    async def to_move(self) -> int:
        return deadline_math.seat_to_move(await self.record())


@pytest.fixture
async def table(tmp_path):
    table = await Table(tmp_path / "t.sqlite3", FakeClock()).open()
    yield table
    await table.store.close()


def keys(outcome) -> list[str]:
    return [event.key for event in outcome.events]


# --- durations ---------------------------------------------------------------------

@pytest.mark.parametrize("text, seconds", [("10m", 600), ("12h", 43200), ("3d", 259200), ("1d12h", 129600),
                                           ("45s", 45), (" 2H ", 7200), ("1h 30m", 5400)])
def test_durations_are_read_strictly(text, seconds):
    assert deadline_math.parse_duration(text) == seconds
    assert deadline_math.parse_duration(deadline_math.format_duration(seconds)) == seconds


@pytest.mark.parametrize("text", ["", "10", "m", "1.5h", "-1m", "10 minutes", "1w", "h1", "99999999d"])
def test_unreadable_durations_are_refused_with_a_message(text):
    with pytest.raises(GameError) as refused:
        deadline_math.parse_duration(text)
    assert refused.value.message.key == "timers.error.bad_duration"


def test_turn_time_bounds():
    assert deadline_math.check_turn_time(60, 60) == 60
    for seconds in (59, deadline_math.MAX_TURN_TIME + 1):
        with pytest.raises(GameError) as refused:
            deadline_math.check_turn_time(seconds, 60)
        assert refused.value.message.params == {"min": "1m", "max": "30d"}


def test_expiry_streak_counts_whole_turns_ended_by_the_deadline():
    def log(*entries):  # (seat, user_id or None)
        return [LoggedAction(i, seat, user, "a", True) for i, (seat, user) in enumerate(entries)]
    assert deadline_math.expiry_streak(log((0, None), (0, None), (1, 2), (0, None), (1, 2)), 0) == 2
    assert deadline_math.expiry_streak(log((0, None), (1, 2), (0, 1), (0, None), (1, 2)), 0) == 2  # rolled, expired
    assert deadline_math.expiry_streak(log((0, None), (1, 2), (0, 1), (1, 2), (0, None)), 0) == 1  # came back, left
    assert deadline_math.expiry_streak(log((0, None), (1, 2), (0, None), (0, 1)), 0) == 0
    assert deadline_math.expiry_streak(log((0, 1), (1, None)), 1) == 1


def test_majority_of_the_other_seated_people():
    assert deadline_math.majority({2: "end"}, {2}) == "end"
    assert deadline_math.majority({2: "end"}, {2, 3}) is None
    assert deadline_math.majority({2: "end", 3: "computer"}, {2, 3}) is None
    assert deadline_math.majority({2: "computer", 3: "computer", 9: "end"}, {2, 3, 4}) == "computer"


# --- reminder and expiry --------------------------------------------------------------

async def test_reminder_at_half_time_is_sent_once(table):
    record = await table.start()
    seat = await table.to_move()
    assert await table.timers.fire_due() == START + TURN / 2
    table.clock.advance(TURN / 2 - 1)
    await table.timers.fire_due()
    assert table.reminders == []
    table.clock.advance(1)
    assert await table.timers.fire_due() == START + TURN
    assert table.reminders == [(record.version, seat, START + TURN)]
    table.clock.advance(10)
    await table.timers.fire_due()
    assert len(table.reminders) == 1 and table.expiries == []


async def test_expiry_plays_the_whole_turn_as_an_easy_computer(table):
    await table.start()
    seat = await table.to_move()
    table.clock.advance(TURN)
    assert await table.timers.fire_due() == START + TURN + TURN / 2  # the next player's reminder
    assert table.reminders == []  # past the deadline, the reminder is moot
    [outcome] = table.expiries
    assert keys(outcome)[0] == "timers.expired_play" and outcome.seat_before == seat
    assert await table.to_move() != seat
    played = await table.store.games.actions(outcome.record.id)
    assert played and all(a.seat == seat and a.user_id is None for a in played)


async def test_a_move_restarts_the_clock(table):
    record = await table.start()
    seat = await table.to_move()
    table.clock.advance(TURN - 1)
    player = (ANN, BOB)[seat]
    await table.sessions.play.act(CHANNEL, player.user_id, ROLL, game_id=record.id, version=record.version)
    table.clock.advance(1)
    await table.timers.fire_due()
    assert table.expiries == [] or (await table.to_move()) != seat  # a roll may end the turn by itself


async def test_settings_host_only_and_off(table):
    await table.start()
    with pytest.raises(GameError) as refused:
        await table.sessions.deadlines.configure(CHANNEL, BOB.user_id, {"turn_time": 60})
    assert refused.value.message.key == "timers.error.host_only"
    outcome = await table.sessions.deadlines.configure(CHANNEL, ANN.user_id, {"turn_time": None})
    assert "turn_time" not in outcome.record.options and keys(outcome) == ["timers.settings.none"]
    table.clock.advance(10 * TURN)
    assert await table.timers.fire_due() is None and table.expiries == []


async def test_new_turn_time_counts_from_the_change(table):
    await table.start()
    table.clock.advance(TURN - 10)
    await table.sessions.deadlines.configure(CHANNEL, ANN.user_id, {"turn_time": 2 * TURN})
    table.clock.advance(20)
    assert await table.timers.fire_due() == START + TURN - 10 + TURN  # half of the new time, from the change
    assert table.expiries == [] and table.reminders == []


# --- on_timeout "skip": the turn is forfeited (Ruleset.SKIP) --------------------------------------------

@pytest.mark.parametrize("game", bot.games.GAME_IDS)
async def test_the_host_may_set_skip_in_every_game(table, game):
    players = (ANN, BOB)
    await table.start(players=players, game=game)
    outcome = await table.sessions.deadlines.configure(CHANNEL, ANN.user_id, {"on_timeout": "skip"})
    assert outcome.record.options["on_timeout"] == "skip"
    assert outcome.events[0].params["on_timeout"].key == "timers.on_timeout.skip"


async def test_skip_forfeits_the_turn_logs_it_as_legal_and_replays(table):
    """PM-3.1: Ann's turn is passed without her roll; the next seat must act; the log replays and verifies."""
    record = await table.start(on_timeout="skip")
    table.clock.advance(TURN)
    await table.timers.fire_due()
    [outcome] = table.expiries
    assert keys(outcome) == ["timers.skipped", "timers.lost.roll", "parcheesi.event.next"]
    assert outcome.seat_before == 0 and await table.to_move() == 1
    [logged] = await table.store.games.actions(record.id)
    assert (logged.seat, logged.user_id, logged.action, logged.legal) == (0, None, "skip", True)
    current = await table.record()
    ruleset = get_ruleset("parcheesi")
    [entry] = retelling.entries(ruleset, current, [logged])
    assert entry.head.key == "history.step" and [e.key for e in entry.events] == keys(outcome)
    checked = verify.verify(ruleset, current, [logged])
    assert checked.ok and checked.rolls == 0


async def test_skip_after_the_roll_loses_the_dice_and_the_next_player_rolls(table):
    record = await table.start(on_timeout="skip")
    await table.sessions.play.act(CHANNEL, ANN.user_id, ROLL, game_id=record.id, version=record.version)
    if await table.to_move() != 0:
        pytest.skip("the roll ended Ann's turn by itself")   # never with a pawn on its start square (PM-2.1)
    table.clock.advance(TURN)
    await table.timers.fire_due()
    [outcome] = table.expiries
    assert keys(outcome)[0] == "timers.skipped" and keys(outcome)[1] in ("timers.lost.die", "timers.lost.dice")
    assert await table.to_move() == 1
    actions = await table.store.games.actions(record.id)
    assert [(a.action, a.user_id) for a in actions][-1] == ("skip", None)
    assert verify.verify(get_ruleset("parcheesi"), await table.record(), actions).ok


async def test_skip_survives_a_restart_and_the_next_deadline_skips_again(table):
    record = await table.start(on_timeout="skip")
    table.clock.advance(TURN)
    await table.timers.fire_due()
    await table.store.close()
    restarted = await Table(table.path, table.clock).open()
    try:
        table.clock.advance(TURN)
        await restarted.timers.fire_due()
        [outcome] = restarted.expiries
        assert keys(outcome)[0] == "timers.skipped" and outcome.seat_before == 1
        assert [a.action for a in await restarted.store.games.actions(record.id)] == ["skip", "skip"]
        assert await restarted.to_move() == 0
    finally:
        table.store = restarted.store  # closed by the fixture


async def test_barricade_rolls_the_order_of_play_for_an_absent_player_then_forfeits_his_turns(table):
    """BA-2.2: the rolls for the order of play are no turn: the bot rolls them; then turns are forfeited."""
    record = await table.start(game="barricade", on_timeout="skip")
    table.clock.advance(TURN)
    await table.timers.fire_due()
    [outcome] = table.expiries
    assert keys(outcome)[:2] == ["timers.expired_roll", "barricade.event.order_roll"]
    actions = await table.store.games.actions(record.id)
    assert actions[0].action.startswith("roll:") and actions[0].user_id is None
    while not [a for a in await table.store.games.actions(record.id) if a.action == "skip"]:
        table.clock.advance(TURN)
        await table.timers.fire_due()
    assert verify.verify(get_ruleset("barricade"), await table.record(), await table.store.games.actions(record.id)).ok


async def test_a_skipped_cheater_can_still_be_called_out_and_the_skip_is_never_called(table):
    """PC-9.3: Ann (blue) moved another pawn on a 6 instead of opening her barrier, then lets her turn run
    out before her extra roll: the forfeit is logged as legal, and Bob may still call the infraction out
    before his roll."""
    ruleset = get_ruleset("parcheesi-classic")
    await table.start(game="parcheesi-classic", on_timeout="skip")
    current = await table.record()
    state = classic_six_cheat()
    await table.store.games.update_game(current, state=ruleset.to_json(state))
    table.clock.advance(TURN)
    await table.timers.fire_due()
    [outcome] = table.expiries
    assert keys(outcome)[:2] == ["timers.skipped", "timers.lost.extra_roll"] and await table.to_move() == 1
    logged = (await table.store.games.actions(current.id))[-1]
    assert (logged.action, logged.legal) == ("skip", True)
    called = await table.sessions.play.act(CHANNEL, BOB.user_id, "call")
    assert [e.key for e in called.events] == ["parcheesi.event.call_valid", "parcheesi.event.blown"]


async def test_three_skipped_turns_in_a_row_open_the_vote_as_with_play(table):
    record = await table.start(players=(ANN, BOB, CY), on_timeout="skip")
    seat = await expire_until_vote(table)
    actions = await table.store.games.actions(record.id)
    assert [a.action for a in actions if a.seat == seat] == ["skip"] * deadline_math.VOTE_AFTER
    assert deadline_math.expiry_streak(actions, seat) == deadline_math.VOTE_AFTER


# --- three expiries, then the others vote ----------------------------------------------------

async def expire_until_vote(table) -> int:
    """Let every turn expire until a vote opens; the seat voted on."""
    for _ in range(30):
        table.clock.advance(TURN)
        await table.timers.fire_due()
        if table.expiries and table.expiries[-1].vote is not None:
            return table.expiries[-1].vote.seat
    raise AssertionError("no vote opened")


async def test_three_expiries_in_a_row_open_a_vote_and_a_majority_ends_the_game(table):
    record = await table.start(players=(ANN, BOB, CY))
    seat = await expire_until_vote(table)
    assert "timers.vote.opened" not in keys(table.expiries[-1])   # the vote message says it
    assert deadline_math.expiry_streak(await table.store.games.actions(record.id), seat) == deadline_math.VOTE_AFTER
    absent = (ANN, BOB, CY)[seat]
    first, second = [p for p in (ANN, BOB, CY) if p is not absent]
    with pytest.raises(GameError) as refused:
        await table.sessions.deadlines.vote(CHANNEL, absent.user_id, record.id, seat, "end")
    assert refused.value.message.key == "timers.error.not_a_voter"
    tally = await table.sessions.deadlines.vote(CHANNEL, first.user_id, record.id, seat, "end")
    assert tally.vote.decided is None and tally.vote.tally == {"computer": 0, "end": 1}
    split = await table.sessions.deadlines.vote(CHANNEL, second.user_id, record.id, seat, "computer")
    assert split.vote.decided is None
    decided = await table.sessions.deadlines.vote(CHANNEL, second.user_id, record.id, seat, "end")  # a vote may change
    assert decided.vote.decided == "end" and decided.record.status == "ended"
    assert decided.record.result["details"] == {"ended_by_vote": seat}


async def test_vote_hands_the_seat_to_a_computer(table):
    record = await table.start()
    seat = await expire_until_vote(table)
    other = (ANN, BOB)[1 - seat]
    outcome = await table.sessions.deadlines.vote(CHANNEL, other.user_id, record.id, seat, "computer")
    assert outcome.vote.decided == "computer" and keys(outcome)[0] == "timers.vote.computer"
    assert outcome.record.seats[seat].level == "normal"
    with pytest.raises(GameError):  # the seat is no longer a person's: the vote is over
        await table.sessions.deadlines.vote(CHANNEL, other.user_id, record.id, seat, "end")


async def test_a_returning_player_closes_the_vote(table):
    record = await table.start()
    seat = await expire_until_vote(table)
    while await table.to_move() != seat:
        table.clock.advance(TURN)
        await table.timers.fire_due()
    current = await table.record()
    await table.sessions.play.act(CHANNEL, (ANN, BOB)[seat].user_id, ROLL, game_id=record.id, version=current.version)
    while await table.to_move() == seat and (await table.record()).status == "active":  # finish the turn
        ruleset = get_ruleset("parcheesi")
        current = await table.record()
        state = ruleset.from_json(current.state)
        action = ROLL if ruleset.roll_due(state) else ruleset.legal_actions(state)[0]
        await table.sessions.play.act(CHANNEL, (ANN, BOB)[seat].user_id, action)
    with pytest.raises(GameError) as refused:
        await table.sessions.deadlines.vote(CHANNEL, (ANN, BOB)[1 - seat].user_id, record.id, seat, "end")
    assert refused.value.message.key == "timers.error.vote_closed"


# --- restarts and races ----------------------------------------------------------------------

async def test_restart_between_reminder_and_deadline_rearms_without_a_second_reminder(table):
    record = await table.start()
    table.clock.advance(TURN / 2)
    await table.timers.fire_due()
    assert len(table.reminders) == 1
    await table.store.close()

    table.clock.advance(60)  # the bot is down for a minute
    restarted = await Table(table.path, table.clock).open()
    try:
        assert await restarted.timers.fire_due() == START + TURN  # re-armed from the database alone
        assert restarted.reminders == []
        table.clock.advance(TURN / 2 - 60)
        await restarted.timers.fire_due()
        assert restarted.reminders == [] and len(restarted.expiries) == 1
        assert restarted.expiries[0].record.version > record.version
    finally:
        table.store = restarted.store  # closed by the fixture


@pytest.mark.parametrize("first", ["move", "deadline"])
async def test_a_move_at_the_deadline_races_cleanly(table, first):
    record = await table.start()
    seat = await table.to_move()
    player = (ANN, BOB)[seat]
    table.clock.advance(TURN)

    async def move():
        try:
            return await table.sessions.play.act(CHANNEL, player.user_id, ROLL, game_id=record.id,
                                                 version=record.version)
        except GameError as refusal:
            return refusal.message.key

    async def once_the_channel_is_locked(call):  # the other one arrives while the first holds the lock
        while not table.sessions.channels.lock(CHANNEL).locked():
            await asyncio.sleep(0)
        return await call

    if first == "move":
        moved, _ = await asyncio.gather(move(), once_the_channel_is_locked(table.timers.fire_due()))
    else:
        _, moved = await asyncio.gather(table.timers.fire_due(), once_the_channel_is_locked(move()))
    log = await table.store.games.actions(record.id)
    assert log[0].seq == record.version
    if first == "move":
        assert log[0].user_id == player.user_id and table.expiries == []
    else:
        assert moved == "error.stale" and log[0].user_id is None and len(table.expiries) == 1


async def test_scheduler_loop_sleeps_until_due_and_wakes_on_change(table):
    task = asyncio.create_task(table.timers.run())
    try:
        await table.start()
        table.timers.wake()
        await asyncio.sleep(0.05)
        table.clock.advance(TURN / 2)
        for _ in range(100):
            if table.reminders:
                break
            await asyncio.sleep(0.01)
        assert len(table.reminders) == 1
    finally:
        task.cancel()


# --- several bot processes on one database (docs/scaling.md) ---------------------------------------------

@pytest.mark.parametrize("kind", ["remind", "expire"])
async def test_two_processes_firing_one_deadline_fire_it_once(database, kind, caplog):
    """Two processes time the same game (its shards just handed from one to the other, or given to both
    by mistake): each has its own locks, so only the database's conditional writes stand between them."""
    clock = FakeClock()
    one, other = await Table(database, clock).open(), await Table(database, clock).open()
    try:
        record = await one.start()
        clock.advance(TURN / 2 if kind == "remind" else TURN)
        await asyncio.gather(one.timers.fire_due(), other.timers.fire_due())
        fired = one.reminders + other.reminders if kind == "remind" else one.expiries + other.expiries
        assert len(fired) == 1
        log = await one.store.games.actions(record.id)
        if kind == "expire":
            assert log[0].seq == record.version and log[0].user_id is None
            assert [a.seq for a in log] == list(range(record.version, record.version + len(log)))
        else:
            assert log == []
        assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text
    finally:
        await other.store.close()
        await one.store.close()
