"""Sessions: lobby, turns, refusals that leave the stored game untouched, concurrency, computers."""
import asyncio
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import ai
from bot.core.game_records import INTERACTIONS_ONLY, Seat
from bot.domain import dice, i18n
from bot.domain.player_actions import FORCED_EVENT, FORCED_MOVES, ROLL, typed_action
from bot.games import get_ruleset
from bot.games.base import GameError
from bot.services import Sessions
from bot.services.play import refusal
from bot.store import Store
from tests.games.parcheesi.positions import classic_five, maghreb_three

CHANNEL = 100
ANN, BOB, CY, DEE, STRANGER = (Seat(i, n) for i, n in enumerate(["Ann", "Bob", "Cy", "Dee", "Eve"], start=1))
# These tests name seats by join order: Ann, the host, is seat 0 (yellow, plays first). Random seating
# (the default) has its own tests in test_seating.py.
IN_LOBBY_ORDER = {"seating": "lobby"}


@pytest.fixture
async def sessions(tmp_path):
    store = await Store.open(str(tmp_path / "s.sqlite3"))
    service = Sessions(store, think_budget_s=0.05)
    service.path = tmp_path / "s.sqlite3"
    yield service
    await store.close()


def snapshot(sessions: Sessions) -> tuple:
    """The stored rows, byte for byte (read with a second connection, as another process would)."""
    with sqlite3.connect(sessions.path) as db:
        return (db.execute("SELECT * FROM games ORDER BY id").fetchall(),
                db.execute("SELECT * FROM actions ORDER BY game_id, seq").fetchall())


async def two_player_game(sessions: Sessions, game="parcheesi", forced_moves: bool = False):
    """Ann and Bob at a started game; each action one click (a forced move waits for it) unless `forced_moves`."""
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game=game,
                                options={**IN_LOBBY_ORDER, FORCED_MOVES: forced_moves})
    await sessions.lobby.join(CHANNEL, BOB)
    return (await sessions.lobby.start(CHANNEL, ANN.user_id)).record


def key_of(excinfo) -> str:
    return excinfo.value.message.key


async def test_second_game_in_a_channel_is_refused(sessions):
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="parcheesi", options=IN_LOBBY_ORDER)
    with pytest.raises(GameError) as refused:
        await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=BOB, game="pariti", options=IN_LOBBY_ORDER)
    assert key_of(refused) == "error.channel_busy"


async def test_unknown_game_is_refused(sessions):
    with pytest.raises(GameError) as refused:
        await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="chess", options=IN_LOBBY_ORDER)
    assert key_of(refused) == "error.unknown_game"


async def test_lobby_join_leave_and_host_handover(sessions):
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="parcheesi", options=IN_LOBBY_ORDER)
    await sessions.lobby.join(CHANNEL, BOB)
    with pytest.raises(GameError) as refused:
        await sessions.lobby.join(CHANNEL, BOB)
    assert key_of(refused) == "error.already_seated"
    record = (await sessions.lobby.leave(CHANNEL, ANN.user_id)).record
    assert record.host_id == BOB.user_id and [s.name for s in record.seats] == ["Bob"]
    closed = (await sessions.lobby.leave(CHANNEL, BOB.user_id)).record
    assert closed.status == "ended"
    assert await sessions.store.games.open_game(CHANNEL) is None


async def test_only_the_host_starts_and_the_player_count_is_checked(sessions):
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="parcheesi", options={"teams": True})
    await sessions.lobby.join(CHANNEL, BOB)
    with pytest.raises(GameError) as refused:
        await sessions.lobby.start(CHANNEL, BOB.user_id)
    assert key_of(refused) == "error.host_only"
    with pytest.raises(GameError) as refused:  # teams need exactly four players (PM-10.1)
        await sessions.lobby.start(CHANNEL, ANN.user_id)
    assert key_of(refused) == "error.teams_player_count"
    assert (await sessions.channels.current(CHANNEL)).status == "lobby"


@pytest.mark.parametrize("game", ["parcheesi-classic", "parchis-maghreb", "barricade", "pariti"])
async def test_teams_are_refused_when_the_lobby_opens_in_games_without_them(sessions, game):
    before = snapshot(sessions)
    with pytest.raises(GameError) as refused:
        await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game=game, options={"teams": True})
    assert key_of(refused) == "error.no_teams"
    assert snapshot(sessions) == before


async def test_lobby_is_full_at_the_ruleset_maximum(sessions):
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="pariti", options=IN_LOBBY_ORDER)
    await sessions.lobby.join(CHANNEL, BOB)
    with pytest.raises(GameError) as refused:
        await sessions.lobby.join(CHANNEL, CY)
    assert key_of(refused) == "error.lobby_full"


async def test_rolls_are_derived_from_the_game_seed(sessions):
    record = await two_player_game(sessions)
    ruleset = get_ruleset("parcheesi")
    expected = ruleset.random_roll(ruleset.from_json(record.state), dice.rng_for(record.seed, record.version))
    await sessions.play.act(CHANNEL, ANN.user_id, ROLL)
    assert (await sessions.store.games.actions(record.id))[0].action == expected


@pytest.mark.parametrize("who, action, version, key", [
    (STRANGER, ROLL, None, "error.not_a_player"),
    (BOB, ROLL, None, "error.not_your_turn"),
    (ANN, "Y1+3", None, "error.roll_first"),
    (ANN, ROLL, 7, "error.stale"),
    (ANN, "'; DROP TABLE games; --", None, "error.roll_first"),
])
async def test_refusals_leave_the_stored_game_byte_identical(sessions, who, action, version, key):
    record = await two_player_game(sessions)
    before = snapshot(sessions)
    with pytest.raises(GameError) as refused:
        await sessions.play.act(CHANNEL, who.user_id, action, game_id=record.id, version=version)
    assert key_of(refused) == key
    assert snapshot(sessions) == before


async def test_illegal_and_malformed_moves_are_refused_after_the_roll(sessions):
    await two_player_game(sessions)
    await sessions.play.act(CHANNEL, ANN.user_id, ROLL)
    before = snapshot(sessions)
    for bad in ("Y9+3", "R1+1", "", "x" * 500, "out out", "roll"):
        with pytest.raises(GameError):
            await sessions.play.act(CHANNEL, ANN.user_id, bad)
    assert snapshot(sessions) == before


async def test_two_clicks_on_the_same_board_apply_once(sessions):
    record = await two_player_game(sessions)
    results = await asyncio.gather(
        *(sessions.play.act(CHANNEL, ANN.user_id, ROLL, game_id=record.id, version=record.version) for _ in range(2)),
        return_exceptions=True)
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(refused) == 1 and refused[0].message.key == "error.stale"
    assert len(await sessions.store.games.actions(record.id)) == 1


async def test_a_click_on_a_finished_games_board_is_refused(sessions):
    record = await two_player_game(sessions)
    await sessions.endings.end(CHANNEL, ANN.user_id, can_manage=False)
    with pytest.raises(GameError) as refused:
        await sessions.play.act(CHANNEL, ANN.user_id, ROLL, game_id=record.id, version=record.version)
    assert key_of(refused) == "error.no_game"


async def test_end_needs_the_host_or_manage_messages(sessions):
    await two_player_game(sessions)
    with pytest.raises(GameError) as refused:
        await sessions.endings.end(CHANNEL, BOB.user_id, can_manage=False)
    assert key_of(refused) == "error.end_not_allowed"
    assert (await sessions.endings.end(CHANNEL, BOB.user_id, can_manage=True)).record.status == "ended"


async def test_a_deleted_channel_ends_its_game_or_lobby_without_a_result(sessions):
    assert await sessions.endings.close_channel(CHANNEL) is None              # no game there: nothing to do
    await two_player_game(sessions)
    record = await sessions.endings.close_channel(CHANNEL)
    assert record.status == "ended" and record.result == {"winners": [], "draw": False,
                                                          "details": {"channel_deleted": True}}
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="pariti", options=IN_LOBBY_ORDER)
    assert (await sessions.endings.close_channel(CHANNEL)).status == "ended"
    assert await sessions.store.games.open_game(CHANNEL) is None


async def test_removing_the_bot_from_a_server_ends_its_open_games_only_there(sessions):
    await two_player_game(sessions)                                   # guild 1
    await sessions.lobby.create(channel_id=CHANNEL + 1, guild_id=1, host=CY, game="pariti", options=IN_LOBBY_ORDER)
    await sessions.lobby.create(channel_id=CHANNEL + 2, guild_id=2, host=DEE, game="pariti", options=IN_LOBBY_ORDER)
    # played through a user's install of the app: it never needed the bot in the server
    await sessions.lobby.create(channel_id=CHANNEL + 3, guild_id=1, host=DEE, game="pariti",
                                options={**IN_LOBBY_ORDER, INTERACTIONS_ONLY: True})
    ended = await sessions.endings.close_guild(1)
    assert [(r.channel_id, r.status, r.result["details"]) for r in ended] == [
        (CHANNEL, "ended", {"bot_removed": True}), (CHANNEL + 1, "ended", {"bot_removed": True})]
    assert [(await sessions.store.games.open_game(CHANNEL + k)).status for k in (2, 3)] == ["lobby", "lobby"]


async def test_resigning_in_a_two_player_game_gives_the_win_to_the_other(sessions):
    await two_player_game(sessions)
    record = (await sessions.endings.resign(CHANNEL, ANN.user_id)).record
    assert record.status == "finished" and record.result["winners"] == [1]


async def test_resigning_among_three_hands_the_seat_to_a_computer(sessions):
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="parcheesi", options=IN_LOBBY_ORDER)
    await sessions.lobby.join(CHANNEL, BOB)
    await sessions.lobby.join(CHANNEL, CY)
    await sessions.lobby.start(CHANNEL, ANN.user_id)
    record = (await sessions.endings.resign(CHANNEL, BOB.user_id)).record
    assert record.status == "active" and record.seats[1].level == "normal"
    with pytest.raises(GameError):
        await sessions.play.act(CHANNEL, BOB.user_id, ROLL)


async def test_last_person_resigning_among_computers_loses_to_them(sessions):
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="parcheesi", options=IN_LOBBY_ORDER)
    await sessions.lobby.add_computer(CHANNEL, ANN.user_id, "easy")
    await sessions.lobby.add_computer(CHANNEL, ANN.user_id, "easy")
    await sessions.lobby.start(CHANNEL, ANN.user_id)
    record = (await sessions.endings.resign(CHANNEL, ANN.user_id)).record
    assert record.status == "finished" and record.result["winners"] == [1, 2]


async def test_leaving_a_started_game_points_to_resign(sessions):
    await two_player_game(sessions)
    with pytest.raises(GameError) as refused:
        await sessions.lobby.leave(CHANNEL, BOB.user_id)
    assert key_of(refused) == "error.leave_started"


async def test_computer_players_play_their_turns_until_a_person_must_act(sessions):
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="parcheesi", options=IN_LOBBY_ORDER)
    await sessions.lobby.add_computer(CHANNEL, ANN.user_id, "easy")
    record = (await sessions.lobby.start(CHANNEL, ANN.user_id)).record
    ruleset = get_ruleset("parcheesi")
    for _ in range(60):  # Ann plays at random; the computer answers by itself each time
        state = ruleset.from_json(record.state)
        if record.status != "active":
            break
        assert ruleset.to_move(state) == 0, "after every call it is the person's turn again"
        action = ROLL if ruleset.roll_due(state) else ruleset.legal_actions(state)[0]
        record = (await sessions.play.act(CHANNEL, ANN.user_id, action)).record
    actions = await sessions.store.games.actions(record.id)
    assert any(a.seat == 1 for a in actions) and all(a.legal for a in actions)


async def test_a_computer_turn_of_several_decisions_is_thought_in_one_go(sessions, monkeypatch):
    """Two dice, two pawn moves, maybe a bonus: a computer's turn up to its next roll is one request to the
    worker pool, so its later decisions do not queue again behind other games' searches, and a turn that
    rolls again asks within the budget counted from the turn's start."""
    ruleset = get_ruleset("parcheesi")
    requests = []

    async def think(ruleset_id, state_json, seat, level, budget_s, *, seed, started):
        requests[-1].append(started)
        return ai.pool._choose(ruleset_id, state_json, seat, "normal", None, seed)

    monkeypatch.setattr(ai, "think", think)
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="parcheesi", options=IN_LOBBY_ORDER)
    await sessions.lobby.add_computer(CHANNEL, ANN.user_id, "hard")
    record = (await sessions.lobby.start(CHANNEL, ANN.user_id)).record
    segments = []   # per call of Ann's: the computer's runs of decisions between its rolls
    for _ in range(80):
        if record.status != "active":
            break
        state = ruleset.from_json(record.state)
        requests.append([])
        action = ROLL if ruleset.roll_due(state) else ruleset.legal_actions(state)[0]
        before = record.version
        record = (await sessions.play.act(CHANNEL, ANN.user_id, action)).record
        moves = "".join("r" if a.action.startswith("r") else "m"   # rolls are "r<dice>", moves a colour
                        for a in await sessions.store.games.actions(record.id) if a.seq >= before and a.seat == 1)
        segments.append([len(run) for run in moves.split("r") if run])
    assert max(max(runs, default=0) for runs in segments) >= 2, "some computer turn took several decisions"
    assert [len(starts) for starts in requests] == [len(runs) for runs in segments]
    assert all(len(set(starts)) <= 1 for starts in requests)   # the computer's turn: one start, one budget


async def test_a_persons_only_move_plays_itself_and_the_recap_says_so(sessions):
    """With the default setting, a roll that leaves one move (two like pawns on one square count once) is
    followed by that move, logged as the player's own, with a note among its events."""
    record = await two_player_game(sessions, forced_moves=True)
    ruleset = get_ruleset("parcheesi")
    for _ in range(200):
        state = ruleset.from_json(record.state)
        seat = ruleset.to_move(state)
        outcome = await sessions.play.act(CHANNEL, record.seats[seat].user_id, ROLL if ruleset.roll_due(state)
                                          else ruleset.legal_actions(state)[-1])
        if FORCED_EVENT in outcome.events:
            break
        record = outcome.record
    else:
        raise AssertionError("no forced move in 200 actions")
    click, forced = (await sessions.store.games.actions(record.id))[record.version:record.version + 2]
    assert outcome.record.version > record.version + 1, "the click and the move that followed on its own"
    assert forced.seat == click.seat == seat and forced.user_id == click.user_id == record.seats[seat].user_id


async def test_a_typed_move_is_matched_regardless_of_case(sessions):
    record = await two_player_game(sessions)
    record = (await sessions.play.act(CHANNEL, ANN.user_id, ROLL)).record
    ruleset = get_ruleset("parcheesi")
    action = ruleset.legal_actions(ruleset.from_json(record.state))[0]
    record = (await sessions.play.act(CHANNEL, ANN.user_id, action.lower())).record
    assert (await sessions.store.games.actions(record.id))[-1].action == action


# --- typed moves in the cheating rulesets ----------------------------------------------------------

POSITIONS = {"parchis-maghreb": maghreb_three, "parcheesi-classic": classic_five}


async def game_at(sessions: Sessions, game: str, state) -> None:
    """A started two-player game of Ann (to move) and Bob, in `state`."""
    record = await two_player_game(sessions, game)
    await sessions.store.games.update_game(record, state=get_ruleset(game).to_json(state))


@pytest.mark.parametrize("game, typed, key", [
    ("parchis-maghreb", "red 1 +3", "maghreb.error.malformed"),
    ("parchis-maghreb", "R1+99", "maghreb.error.impossible"),        # MG-10.1: beyond the exit
    ("parchis-maghreb", "Y1+3", "maghreb.error.impossible"),         # MG-10.1: not his piece
    ("parchis-maghreb", "call:Y1", "maghreb.error.no_call"),
    ("parcheesi-classic", "blue 1 out", "parcheesi.error.malformed"),
    ("parcheesi-classic", "B1+4", "parcheesi.error.not_allowed"),    # PC-9.1: other illegal moves are refused
])
async def test_a_code_a_cheating_ruleset_cannot_take_is_answered_in_its_own_words(sessions, game, typed, key):
    await game_at(sessions, game, POSITIONS[game]())
    before = snapshot(sessions)
    with pytest.raises(GameError) as refused:
        await sessions.play.act(CHANNEL, ANN.user_id, typed)
    assert key_of(refused) == key
    assert snapshot(sessions) == before


@pytest.mark.parametrize("game, syntax", [("parchis-maghreb", "R2+4, out:G"), ("parcheesi-classic", "Y2+4, out")])
def test_the_answer_to_a_malformed_code_gives_the_code_syntax(game, syntax):
    text = i18n.render(refusal(get_ruleset(game), POSITIONS[game](), "red 1 +3"), "en")
    assert text.startswith("“red 1 +3” is not a move code") and syntax in text


async def test_games_without_cheating_keep_the_answer_that_points_at_the_legal_moves(sessions):
    await two_player_game(sessions)
    await sessions.play.act(CHANNEL, ANN.user_id, ROLL)
    for typed in ("yellow 2", "Y1+99"):
        with pytest.raises(GameError) as refused:
            await sessions.play.act(CHANNEL, ANN.user_id, typed)
        assert key_of(refused) == "error.illegal_move"


@pytest.mark.parametrize("game, typed, logged", [
    ("parchis-maghreb", "r1+4", "R1+4"),      # MG-10.1, MG-10.2
    ("parcheesi-classic", "b1+5", "B1+5"),    # PC-9.1, PC-9.2: the skipped bring-out
])
async def test_an_illegal_code_typed_in_any_case_is_played_and_logged_as_illegal(sessions, game, typed, logged):
    await game_at(sessions, game, POSITIONS[game]())
    outcome = await sessions.play.act(CHANNEL, ANN.user_id, typed)
    action = (await sessions.store.games.actions(outcome.record.id))[-1]
    assert (action.action, action.legal) == (logged, False)


@pytest.mark.parametrize("game, build", [("parcheesi", None), ("barricade", None), ("pariti", None),
                                         ("parcheesi-classic", classic_five), ("parchis-maghreb", maghreb_three)])
async def test_the_forfeit_of_a_deadline_cannot_be_typed(sessions, game, build):
    """Ruleset.SKIP is played by an expired deadline only: typed (or sent as a button's action) it is
    refused like any move the player may not play, even where any accepted move may be typed."""
    if build is None:
        await two_player_game(sessions, game)
    else:
        await game_at(sessions, game, build())
    ruleset = get_ruleset(game)
    state = ruleset.from_json((await sessions.channels.current(CHANNEL)).state)
    player = (ANN, BOB)[ruleset.to_move(state)]
    before = snapshot(sessions)
    with pytest.raises(GameError) as refused:
        await sessions.play.act(CHANNEL, player.user_id, "skip")
    assert key_of(refused) == ("error.roll_first" if ruleset.roll_due(state) else "error.illegal_move")
    with pytest.raises(GameError) as refused:   # in another case: some code it is not (cheating rulesets: their syntax)
        await sessions.play.act(CHANNEL, player.user_id, "SKIP")
    assert i18n.has_key(key_of(refused), "fr")
    assert snapshot(sessions) == before


CODE_LIKE = st.from_regex(r"(out:|call:)?[RGYBrgyb ]?[0-9]?(\+[0-9]{1,3})?|r[1-6]|out|call|roll", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(typed=st.one_of(st.text(max_size=12), CODE_LIKE))
def test_whatever_is_typed_is_either_an_accepted_move_or_refused_in_words(typed):
    """No text makes the refusal fail: it is a translated message (in both languages), never an error."""
    for game, build in POSITIONS.items():
        ruleset, state = get_ruleset(game), build()
        if typed_action(ruleset.accepted_actions(state), typed) is None:
            message = refusal(ruleset, state, typed)
            assert i18n.has_key(message.key, "en") and i18n.has_key(message.key, "fr"), message
            assert i18n.render(message, "fr") != message.key


async def test_a_host_who_resigns_hands_the_host_powers_to_the_next_seated_person(sessions):
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="parcheesi", options=IN_LOBBY_ORDER)
    for person in (BOB, CY):
        await sessions.lobby.join(CHANNEL, person)
    await sessions.lobby.start(CHANNEL, ANN.user_id)
    outcome = await sessions.endings.resign(CHANNEL, ANN.user_id)
    assert outcome.record.host_id == BOB.user_id
    assert [e.key for e in outcome.events][:2] == ["game.resigned_replaced", "game.host_passed"]
    assert outcome.events[0].params == {"player": "Ann"}   # not the computer now in her seat
    assert outcome.events[1].params == {"seat": 1}
    with pytest.raises(GameError) as refused:
        await sessions.deadlines.configure(CHANNEL, ANN.user_id, {"turn_time": 3600})
    assert key_of(refused) == "timers.error.host_only"
    with pytest.raises(GameError) as refused:
        await sessions.endings.end(CHANNEL, ANN.user_id, can_manage=False)
    assert key_of(refused) == "error.end_not_allowed"
    configured = await sessions.deadlines.configure(CHANNEL, BOB.user_id, {"turn_time": 3600})
    assert configured.record.options["turn_time"] == 3600


async def test_a_host_no_longer_seated_has_no_host_powers_but_a_moderator_can_always_end(sessions):
    """A game stored before host powers passed on: its host resigned and kept the host's id."""
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="parcheesi", options=IN_LOBBY_ORDER)
    for person in (BOB, CY):
        await sessions.lobby.join(CHANNEL, person)
    record = (await sessions.lobby.start(CHANNEL, ANN.user_id)).record
    await sessions.store.games.update_game(record, seats=(Seat(0, "", level="normal"),) + record.seats[1:])
    for attempt in (lambda: sessions.deadlines.configure(CHANNEL, ANN.user_id, {"turn_time": 3600}),
                    lambda: sessions.endings.end(CHANNEL, ANN.user_id, can_manage=False),
                    lambda: sessions.endings.end(CHANNEL, STRANGER.user_id, can_manage=False)):
        with pytest.raises(GameError):
            await attempt()
    assert (await sessions.endings.end(CHANNEL, STRANGER.user_id, can_manage=True)).record.status == "ended"


async def test_the_services_messages_shorten_a_long_name_as_every_message_does(sessions):
    """A refusal and a resignation name the player as seat_name shows them (bot.domain.names.short_names), not
    by their whole Discord name."""
    josette = Seat(7, "Grand-mère Josette 👵")
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=josette, game="parcheesi", options=IN_LOBBY_ORDER)
    for person in (BOB, CY):   # three: her resignation leaves the game going
        await sessions.lobby.join(CHANNEL, person)
    await sessions.lobby.start(CHANNEL, josette.user_id)
    with pytest.raises(GameError) as refused:
        await sessions.play.act(CHANNEL, BOB.user_id, ROLL)
    assert refused.value.message.params == {"player": "Grand-mère…"}
    outcome = await sessions.endings.resign(CHANNEL, josette.user_id)
    assert outcome.events[0].key == "game.resigned_replaced" and outcome.events[0].params == {"player": "Grand-mère…"}
