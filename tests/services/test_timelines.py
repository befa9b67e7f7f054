"""The positions a board traces (bot/services/timelines.py): from the game's log, kept between clicks."""
from bot.core.game_records import GameRecord
from bot.domain.positions import ruleset_of
from bot.services import Sessions
from bot.services.timelines import Timelines
from tests.game_logs import play


def _last_own_action(seats: list, seat: int) -> int:
    return max(i for i, s in enumerate(seats) if s == seat and any(t != seat for t in seats[i + 1:]))


async def test_a_board_traces_from_just_after_its_players_previous_turn(store):
    record, actions = await play(store, "parcheesi", players=(1, 2, 3), max_actions=60)
    ruleset = ruleset_of(record)
    seat = ruleset.to_move(ruleset.from_json(record.state))
    positions = (await Timelines(store).since_turn(record)).positions
    assert len(positions) == len(actions) - _last_own_action([a.seat for a in actions], seat)
    assert ruleset.to_json(positions[-1]) == record.state


async def test_the_final_board_traces_the_last_players_last_turn(store):
    record, actions = await play(store, "pariti", max_actions=30, resign=1)
    seats = [a.seat for a in actions]
    positions = (await Timelines(store).since_turn(record)).positions
    assert len(positions) - 1 == len(seats) - max(i for i, s in enumerate(seats) if s != seats[-1]) - 1


async def test_positions_kept_between_clicks_are_those_a_restart_finds_from_the_log(store):
    """One service follows the game click by click; a fresh one (a restart) goes through the whole log; an older
    record than the one last seen (a concurrent click) gets its own positions, not newer ones."""
    record, _ = await play(store, "barricade", players=(1, 2, 3, 4), max_actions=10)
    following = Sessions(store)
    versions = {}
    while record.version < 80:
        ruleset = ruleset_of(record)
        state = ruleset.from_json(record.state)
        user = record.seats[ruleset.to_move(state)].user_id
        action = "roll" if ruleset.roll_due(state) else sorted(ruleset.legal_actions(state))[0]
        record = (await following.play.act(5, user, action)).record
        versions[record.version] = record
        before = record.version - 1
        assert await following.timelines.since_turn(record, before) == await Timelines(store).since_turn(record, before)
    older: GameRecord = versions[50]
    assert await following.timelines.since_turn(older, 48) == await Timelines(store).since_turn(older, 48)
