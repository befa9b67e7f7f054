"""A turn forfeited at its deadline (`Ruleset.SKIP`, on_timeout "skip"), in every ruleset: what remains
of the turn is lost, the next player's turn begins (turn order rules), nobody can play it by hand, and
a log holding skips replays exactly. The session side is in tests/test_timers.py."""
from __future__ import annotations

import json
import random

import pytest

from bot.domain.i18n import render
from bot.games import GAME_IDS, get_ruleset
from bot.games.barricade.state import MOVE, ORDER, PLACE, ROLL, SIX, START_OF_TURN, Held
from bot.games.base import IllegalAction
from bot.games.parcheesi.classic import Classic
from bot.games.parcheesi.maghreb_state import COUNT, DIE, KEYS
from bot.games.parcheesi.mundijeux import Mundijeux
from bot.games.pariti import DRAW_TURNS
from tests.games import test_barricade as barricade
from tests.games import test_pariti as pariti
from tests.games.parcheesi import test_maghreb as maghreb
from tests.games.parcheesi.positions import (
    classic_five,
    classic_six_cheat,
    keys,
    maghreb_three,
    play,
    position,
    where,
)

SKIP = "skip"
M, C = Mundijeux(), Classic()


def words(events, locale: str = "en") -> list[str]:
    return [render(e, locale, lambda seat: "AB"[seat] if seat < 2 else "CD"[seat - 2]) for e in events]


# --- every ruleset -----------------------------------------------------------------------------

def random_game_with_skips(game: str, seed: int, skip_rate: float = 0.2, max_actions: int = 3000):
    """Random play with forfeits injected; returns the ruleset, the (seat, action) log and every state."""
    ruleset, rng = get_ruleset(game), random.Random(seed)
    state = ruleset.new_game(2, {}, seed)
    log, states = [], [state]
    while ruleset.to_move(state) is not None and len(log) < max_actions:
        seat = ruleset.to_move(state)
        for anyone in range(2):
            assert SKIP not in ruleset.call_actions(state, anyone)
        assert SKIP not in ruleset.legal_actions(state) and SKIP not in ruleset.accepted_actions(state)
        if rng.random() < skip_rate and not (game == "barricade" and state.stage == ORDER):
            with pytest.raises(IllegalAction):   # only the player to move forfeits his turn
                ruleset.apply(state, SKIP, 1 - seat)
            action = SKIP
        elif ruleset.roll_due(state):
            action = ruleset.random_roll(state, rng)
        else:
            action = rng.choice(ruleset.legal_actions(state))
        after = ruleset.apply(state, action, seat)
        if action == SKIP:
            assert after.events[0].key == "timers.skipped" and after.events[0].params == {"seat": seat}
            assert ruleset.to_move(after.state) != seat or ruleset.result(after.state) is not None
        log.append((seat, action))
        states.append(after.state)
        state = after.state
    return ruleset, log, states


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("seed", [1, 2])
def test_skips_are_never_offered_pass_the_turn_and_replay_exactly(game, seed):
    ruleset, log, states = random_game_with_skips(game, seed)
    assert any(action == SKIP for _, action in log)
    state = ruleset.new_game(2, {}, seed)
    for (seat, action), expected in zip(log, states[1:]):
        state = ruleset.apply(state, action, seat).state
        assert state == expected
    for s in states[:: max(1, len(states) // 20)]:
        assert ruleset.from_json(json.loads(json.dumps(ruleset.to_json(s)))) == s


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_finished_game_has_no_turn_to_forfeit(game):
    ruleset, _, states = random_game_with_skips(game, 3, skip_rate=0.05, max_actions=200_000)
    assert ruleset.result(states[-1]) is not None
    with pytest.raises(IllegalAction):
        ruleset.apply(states[-1], SKIP)


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_words_of_a_forfeit_exist_in_both_languages(game):
    _, log, states = random_game_with_skips(game, 4, skip_rate=0.5)
    ruleset = get_ruleset(game)
    for (seat, action), before in zip(log, states):
        if action == SKIP:
            events = ruleset.apply(before, SKIP, seat).events
            for locale in ("en", "fr"):
                assert all("{" not in line and "." in line for line in words(events, locale))


# --- Parcheesi (Mundijeux) ----------------------------------------------------------------------

def test_mundijeux_a_turn_forfeited_before_its_roll_passes_to_the_next_seat():
    """PM-3.1, PM-3.2: the roll is lost, nothing moves, the next seat in turn order rolls."""
    s = M.new_game(3, {}, 0)
    applied = M.apply(s, SKIP, 0)
    assert keys(applied.events) == ["timers.skipped", "timers.lost.roll", "parcheesi.event.next"]
    assert words(applied.events) == ["⏰ Time ran out: A's turn is passed.", "The roll is lost.", "B's turn."]
    assert applied.state == s._replace(turn=1)
    assert M.roll_due(applied.state)


def test_mundijeux_a_forfeit_mid_turn_loses_the_die_left_the_bonus_and_the_roll_of_the_double():
    """PM-3.2, PM-5.1, PM-8.5: after a double 3 + 3, one die played (a capture: a 20 is due), the
    rest is lost: the other 3, the bonus and the roll the double gives."""
    s = position(M, {"Y1": 12, "R1": 30}, players=2, dice=(3, 3), used=1, bonus=(20,), repeats=1, last=0)
    applied = M.apply(s, SKIP)
    assert keys(applied.events) == ["timers.skipped", "timers.lost.die", "parcheesi.lost.bonus",
                                    "timers.lost.extra_roll", "parcheesi.event.next"]
    assert words(applied.events)[1:4] == ["The 3 rolled is not played.", "The bonus of 20 is lost.",
                                          "The extra roll is lost."]
    after = applied.state
    assert (after.turn, after.dice, after.used, after.bonus, after.repeats, after.last, after.locked) == \
        (1, (), 0, (), 0, -1, -1)
    assert (after.pos, after.arrivals) == (s.pos, s.arrivals)


def test_mundijeux_both_dice_unplayed_and_the_extra_roll_after_a_double():
    """PM-3.2, PM-5.1: 'the 4 + 2 rolled are not played'; a forfeit when the double's roll is due."""
    s, _ = play(M, position(M, {"Y1": 12}, players=2), "r4.2")
    assert words(M.apply(s, SKIP).events)[1] == "The 4 + 2 rolled are not played."
    s, _ = play(M, position(M, {"Y1": 12}, players=2), "r1.1", "Y1+2")
    assert M.roll_due(s) and s.turn == 0 and s.repeats == 1
    assert keys(M.apply(s, SKIP).events)[1] == "timers.lost.extra_roll"


def test_mundijeux_only_the_player_to_move_forfeits():
    """PM-3.1: a skip in another seat's name is refused like any out-of-turn action."""
    s = M.new_game(2, {}, 0)
    with pytest.raises(IllegalAction):
        M.apply(s, SKIP, 1)
    assert SKIP not in M.legal_actions(play(M, s, "r4.2")[0])


# --- classic Parcheesi: the call-out window (PC-9.3) ----------------------------------------------

def test_classic_a_cheaters_forfeited_turn_stays_open_to_a_call_out_until_the_next_roll():
    """PC-9.3, PC-9.4, PC-6.1: the offender's turn is forfeited before his extra roll; green may still
    call it out (B3 is blown home) until the die is rolled for green."""
    applied = C.apply(classic_six_cheat(), SKIP)
    assert keys(applied.events) == ["timers.skipped", "timers.lost.extra_roll", "parcheesi.event.next"]
    s = applied.state
    assert s.turn == 1 and s.cheats and s.callee == 0 and C.call_actions(s, 1) == ["call"]
    called = C.apply(s, "call", 1)
    assert keys(called.events) == ["parcheesi.event.call_valid", "parcheesi.event.blown"]
    assert where(called.state, "B3") == "house"
    rolled, _ = play(C, s, "r2")
    assert rolled.cheats == () and C.call_actions(rolled, 1) == []    # the window closed at green's roll


@pytest.mark.parametrize("players", [2, 3])
def test_classic_the_next_players_forfeit_stands_for_his_roll_and_closes_the_window(players):
    """PC-9.3: the window is open 'until the die is rolled for the next player'; his turn forfeited
    before any roll closes it the same way, and the offender's next turn starts with a clean record."""
    s = classic_five()
    if players == 3:
        s = position(C, {"B1": 50, "B3": "goal", "B4": "goal"}, players=3)
        s, _ = play(C, s, "r5")
    s, _ = play(C, s, "B1+5")                    # PC-9.1: the bring-out skipped
    assert s.cheats and s.turn == 1 and C.call_actions(s, players - 1) == ["call"]
    s = C.apply(s, SKIP).state
    assert s.turn == 2 % players and (s.callee, s.cheats) == (-1, ())
    assert all(C.call_actions(s, seat) == [] for seat in range(players))
    while s.turn != 0:
        s = C.apply(s, SKIP).state
    s, _ = play(C, s, "r3")                      # blue's new turn: nothing of the old one is judged
    assert s.callee == 0 and s.cheats == ()


# --- Parchís Maghreb --------------------------------------------------------------------------

def test_maghreb_a_forfeit_before_the_roll_closes_the_window_on_the_opponents_turn():
    """MG-2.2, MG-10.3, MG-10.6: yellow's turn forfeited before his roll stands for that roll: red's
    cheat stands, and red cannot call out his own move on his next turn."""
    s = maghreb.G.apply(maghreb_three(), "R2+4").state    # MG-10.1: an illegal move, accepted
    assert s.seat == 1 and maghreb.G.call_actions(s, 1) == maghreb.CALLS_ON_SEAT_0
    applied = maghreb.G.apply(s, SKIP)
    assert keys(applied.events) == ["timers.skipped", "timers.lost.roll", "maghreb.event.turn"]
    after = applied.state
    assert after.seat == 0 and after.phase == "roll" and after.log == () and after.snapshot is None
    assert maghreb.G.call_actions(after, 0) == [] and maghreb.G.call_actions(after, 1) == []
    assert after.pieces == s.pieces


def test_maghreb_a_cheaters_forfeited_turn_can_be_called_out_and_replayed():
    """MG-6.1, MG-10.3, MG-10.4: red cheats with a 6 and is forfeited before his extra roll; yellow
    calls it out before his own roll; red's corrected turn, forfeited again, loses the 6."""
    s = maghreb.play(maghreb.position(0, r1=10), "r6", "R1+7")   # MG-10.1: 7 squares on a 6
    assert s.phase == "roll" and s.seat == 0 and s.rolls == 1
    applied = maghreb.G.apply(s, SKIP)
    assert keys(applied.events) == ["timers.skipped", "timers.lost.extra_roll", "maghreb.event.turn"]
    s = applied.state
    assert s.seat == 1 and maghreb.G.call_actions(s, 1) == maghreb.CALLS_ON_SEAT_0
    s = maghreb.G.apply(s, "call:R1", 1).state
    assert s.seat == 0 and s.phase == DIE and s.die == 6 and s.honest and maghreb.square(s, "r1") == 10
    applied = maghreb.G.apply(s, SKIP)
    assert keys(applied.events) == ["timers.skipped", "timers.lost.die", "timers.lost.extra_roll",
                                    "maghreb.event.turn"]
    assert applied.state.seat == 1 and maghreb.G.call_actions(applied.state, 1) == []   # one call per turn


def test_maghreb_counts_waiting_are_lost():
    """MG-7.2, MG-7.3: red ate yellow 1 and must count 20; forfeited, the count is lost."""
    progress = KEYS[0].index(10)
    s = maghreb.play(maghreb.position(0, r1=10, y1=KEYS[0][progress + 3]), "r3", "R1+3")
    assert s.phase == COUNT and s.pending == (20,)
    applied = maghreb.G.apply(s, SKIP)
    assert keys(applied.events) == ["timers.skipped", "maghreb.lost.count", "maghreb.event.turn"]
    assert words(applied.events)[1] == "The count of 20 is lost."
    assert applied.state.pending == () and applied.state.seat == 1


def test_maghreb_a_forfeited_first_turn_loses_its_entry():
    """MG-3.1, MG-5.1: yellow's first turn is forfeited; on his next turn a 3 brings nothing in."""
    s = maghreb.play(maghreb.G.new_game(2, {}, 0), "r3", "out:R+3")
    s = maghreb.G.apply(s, SKIP).state
    s = maghreb.play(s, "r2", "R1+2")
    applied = maghreb.G.apply(s, "r3")
    assert "maghreb.event.no_move" in keys(applied.events) and applied.state.seat == 0


# --- Barricade (the rules file's test graph) -----------------------------------------------------

B = barricade.GAME
RED, BLUE = barricade.RED, barricade.BLUE


def ix(name: str) -> int:
    return B.board.index[name]


@pytest.mark.parametrize("stage, die, bonus, lost", [
    (ROLL, None, None, "timers.lost.roll"),           # BA-3.1: the roll not made
    (MOVE, 2, None, "timers.lost.die"),               # the die not played
    (SIX, 6, "R", "timers.lost.extra_roll"),          # BA-4.1: the extra roll not taken
    (ROLL, 6, "R", "timers.lost.extra_roll"),         # BA-4.1: the extra roll not rolled
])
def test_barricade_a_forfeit_loses_the_rest_of_the_turn_and_the_next_in_order_plays(stage, die, bonus, lost):
    """BA-2.3, BA-3.1, BA-4.1: nothing moves; blue, next in the order of play, rolls."""
    s = barricade.position(red=["R"], blue=["M"], stage=stage, die=die, bonus=bonus)
    applied = B.apply(s, SKIP)
    assert keys(applied.events) == ["timers.skipped", lost]
    after = applied.state
    assert (after.seat, after.stage, after.bonus, after.pawns) == (BLUE, ROLL, None, s.pawns)


def test_barricade_the_order_of_play_is_rolled_not_forfeited():
    """BA-2.2: the bot rolls for every player; there is no turn to pass yet."""
    s = barricade.GAME.new_game(2, {}, 0)
    assert s.stage == ORDER
    with pytest.raises(IllegalAction):
        B.apply(s, SKIP)


def test_barricade_a_due_barricade_goes_back_on_its_former_point():
    """BA-5.2: it must be placed during the turn; the absent player loses his choice and it returns
    where it was taken."""
    s = barricade.position(red=["R"], stage=START_OF_TURN, held=[Held(RED, ix("P"), False, True)])
    applied = B.apply(s, SKIP)
    assert keys(applied.events) == ["timers.skipped", "timers.lost.roll", "barricade.lost.back"]
    assert words(applied.events)[2] == "The barricade A held goes back on P."
    assert applied.state.barricades == (ix("P"),) and applied.state.held == () and applied.state.seat == BLUE


def test_barricade_when_its_former_point_is_taken_it_goes_on_the_nearest_free_point():
    """BA-5.2, BA-5.3, BA-5.4: red's pawn stands on R, where the barricade was taken; blue is on P and
    a barricade on S; E, though next to R, is a start-line point: it goes on L, two lines away."""
    s = barricade.position(red=["R"], blue=["P"], bars=["S"], stage=START_OF_TURN,
                           held=[Held(RED, ix("R"), True, True)])
    applied = B.apply(s, SKIP)
    assert keys(applied.events)[-1] == "barricade.lost.near"
    assert words(applied.events)[-1] == "The barricade A held goes on L, the free point nearest to R."
    assert applied.state.barricades == (ix("L"), ix("S")) and applied.state.held == ()


def test_barricade_placing_after_the_move_is_done_for_the_absent_player():
    """BA-5.2, BA-5.7: the move made, two barricades to place: both go back, nothing else is lost."""
    held = [Held(RED, ix("P"), False, True), Held(RED, ix("K"), False, True)]
    s = barricade.position(red=["R"], stage=PLACE, held=held)
    applied = B.apply(s, SKIP)
    assert keys(applied.events) == ["timers.skipped", "barricade.lost.back", "barricade.lost.back"]
    assert applied.state.barricades == (ix("K"), ix("P")) and applied.state.seat == BLUE


def test_barricade_a_barricade_taken_in_the_forfeited_turn_waits_for_the_next_one():
    """BA-5.1, BA-5.2, BA-4.1: red took P with a 6 and is forfeited before his extra roll: he holds it
    until his next turn, when it is due."""
    s = barricade.position(red=["P"], stage=SIX, die=6, bonus="P", held=[Held(RED, ix("P"), True, False)])
    s = B.apply(s, SKIP).state
    assert s.seat == BLUE and s.held == (Held(RED, ix("P"), True, False),)
    s = B.apply(barricade.roll(s, 1).state, "start-F").state
    assert s.seat == RED and s.stage == START_OF_TURN and s.held == (Held(RED, ix("P"), True, True),)


# --- Pariti ---------------------------------------------------------------------------------

P = pariti.GAME


def test_pariti_a_forfeited_turn_loses_the_move_and_counts_towards_the_draw():
    """PA-3.1, PA-3.3, PA-5.2: Odd plays next; the turn counts as one without a pair."""
    s = pariti.position({"d4": "B4", "a10": "B9"}, quiet=3, turn=6)
    applied = P.apply(s, SKIP)
    assert keys(applied.events) == ["timers.skipped"]
    assert (applied.state.seat, applied.state.turn, applied.state.quiet, applied.state.board) == (1, 7, 4, s.board)


def test_pariti_the_thirtieth_turn_without_a_pair_forfeited_is_a_draw():
    """PA-5.2: passes count; the 30th quiet turn ends the game in a draw."""
    s = pariti.position({"d4": "B4", "a10": "B9"}, quiet=DRAW_TURNS - 1)
    applied = P.apply(s, SKIP)
    assert keys(applied.events) == ["timers.skipped", "pariti.event.draw"] and P.result(applied.state).draw


def test_pariti_after_a_forfeit_a_player_with_no_move_passes():
    """PA-3.3: Even's turn forfeited; Odd's only piece is boxed in: he passes, and Even plays again."""
    stuck = pariti.position({"d4": "B4", "a1": "B1", "a3": "P8", "c3": "B8", "c1": "B10"},
                            pairs={"a2": 2, "b2": 6, "b1": 12}, quiet=3)
    applied = P.apply(stuck, SKIP)
    assert keys(applied.events) == ["timers.skipped", "pariti.event.pass"]
    assert (applied.state.seat, applied.state.turn, applied.state.quiet) == (0, 2, 5)

