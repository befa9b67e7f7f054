"""The bot killed with SIGKILL at chosen moments of a turn: after the action is stored, after
the board is posted, after it is edited, after a new board is posted but before its id is stored.

The fake holds the bot's request at that moment (`FakeDiscord.hold`) while the test kills the bot: no
code path of the bot exists for the test. After each restart nothing acknowledged is lost (the click's
action is stored and shown), each game shows exactly one live board (one message with controls), on
the game's current version, and a click on a board from before the kill is refused politely."""

import asyncio
import json
import sqlite3

import pytest

from bot.domain import dice
from bot.games import get_ruleset
from tests.e2e.table import Table, board_version, choices, stale, start_caught_up, told, two_players

pytestmark = pytest.mark.e2e

GAME = get_ruleset("barricade")   # a roll, then a pawn and its destination: boards both edited and posted
# A click's boards go through its interaction: the board edited or retired through a token, the new
# board a follow-up. The fake names no channel for these routes: a hold takes the next such request.
MESSAGE = "/webhooks/{app}/{token}/messages/{message}"
FOLLOWUP = "/webhooks/{app}/{token}"
# A board the bot sent before a restart is edited through the channel: the restarted bot no longer knows the
# token of the interaction that sent it (bot/cogs/messages/delivery.py keeps them in memory).
CHANNEL_EDIT = "/channels/{channel}/messages/{message}"


RESTART_S = 40.0   # seconds a click may wait when the bot is restarted before it is answered


class FirstHeld:
    """Holds of the same moment on every route the bot may take there; the first one reached is the moment."""

    def __init__(self, fake, method: str, routes: tuple[str, ...], before: bool = False):
        self.fake = fake
        # a channel's edit held only for a board (a picture): no other message of the channel is the moment
        self.holds = [fake.hold(method, route, before=before, when=lambda m, route=route: route != CHANNEL_EDIT
                                or (m is not None and bool(m.files))) for route in routes]

    async def wait(self, timeout: float = 10.0) -> None:
        waits = [asyncio.create_task(hold.reached.wait()) for hold in self.holds]
        done, pending = await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        if not done:
            raise TimeoutError(f"none of {[hold.route for hold in self.holds]} was requested")

    def release(self) -> None:
        for hold in self.holds:
            hold.release()
            self.fake.drop_hold(hold)


def stored_game(database, channel) -> tuple[int, int, dict, str]:
    """(id, version, state, seed) of the channel's game, straight from the SQLite file."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        game_id, version, state, seed = db.execute(
            "SELECT id, version, state, seed FROM games WHERE channel_id=?", (channel.id,)).fetchone()
    return game_id, version, json.loads(state), seed


def hands_on(database, channel, action: str) -> bool:
    """Whether `action` ("roll" or a move) of the player to act passes the turn (rolls come from the seed)."""
    _, version, state_json, seed = stored_game(database, channel)
    state = GAME.from_json(state_json)
    seat = GAME.to_move(state)
    if GAME.roll_due(state):   # drawn as the session draws it (otherwise "roll" is a move: after a 6, roll again)
        action = GAME.random_roll(state, dice.rng_for(seed, version))
    return GAME.to_move(GAME.apply(state, action, seat).state) != seat


def live_boards(fake, table: Table) -> list:
    return [m for m in fake.messages(table.channel) if m.custom_ids]


async def a_click(table: Table, database, passes: bool | None):
    """(player, message, custom_id) of a control that passes the turn (`passes`), keeps it (not
    `passes`) or either (None), the game played on until there is one: a piece's move, shown to the
    player alone (that message keeps its buttons after a kill: a click from before it), or, to keep
    the turn, the roll."""
    for _ in range(60):
        board = await table.fake.wait_until(   # shown once stored: under load an edit may come late
            lambda: (shown := table.board()).custom_ids
            and board_version(shown) == stored_game(database, table.channel)[1] and shown,
            what="the board of the stored version")
        player = table.to_act(board)
        found = []
        for choice in choices(board):
            on, offered = board, [choice]
            if choice.kind == "g":   # a piece: its moves come to the player alone, nothing is played
                on = (await table.fake.select(player, board, choice.custom_id, [choice.value])).message
                offered = choices(on)
            found += [(player, on, option.custom_id) for option in offered if option.kind == "a"
                      and passes in (None, hands_on(database, table.channel, option.value))]
        found.sort(key=lambda click: not click[1].ephemeral)
        if found and (found[0][1].ephemeral or passes is False):   # a roll, edited in place, will do
            return found[0]
        await table.play_once()
    raise AssertionError("no such click in 60 turns")


async def kill_at(fake, bot, table: Table, click, hold=None):
    """Click; when the fake holds the bot's request (or, without a hold, once the click is settled),
    SIGKILL the bot; restart it. The click's interaction, settled."""
    player, message, custom_id = click
    # The click is settled only after the bot was killed and started again: its wait covers a whole restart
    # (Python, discord.py and the bot imported, login, commands synced, turns resumed), several seconds on a
    # busy machine, which the fake's usual 10 s for a click did not always leave.
    clicking = asyncio.create_task(fake.click(player, message, custom_id=custom_id, timeout=RESTART_S))
    if hold is not None:
        await hold.wait()
    else:
        await clicking
    await bot.kill()
    if hold is not None:
        hold.release()
    await start_caught_up(fake, bot)   # what the restart was to post is posted
    return await clicking   # settled once something shows it (what the restart posts, for one)


async def test_a_kill_at_each_moment_of_a_turn_loses_nothing_and_leaves_one_live_board(fake_discord, bot_process):
    fake, database = fake_discord, bot_process.database
    table = Table(fake, two_players(fake), GAME.id, seed=9)
    idle = Table(fake, [fake.add_user("carla"), fake.add_user("dan")], GAME.id, seed=1)
    await table.open()
    await idle.open()
    # moment: (the click passes the turn?, the request held when the bot is killed, boards posted for the click)
    moments = {
        "after the action is stored": (None, lambda board: FirstHeld(fake, "PATCH", (MESSAGE, CHANNEL_EDIT),
                                                                     before=True), 1),
        "after the board is posted": (True, lambda board: None, 1),
        "after the board is edited": (False, lambda board: FirstHeld(fake, "PATCH", (MESSAGE, CHANNEL_EDIT)), 0),
        "before the new board's id is stored": (True, lambda board: fake.hold("POST", FOLLOWUP), 1),
    }
    survived, stale_clicks = [], 0
    for moment, (passes, hold_for, new_boards) in moments.items():
        click = await a_click(table, database, passes)
        board = table.board()
        boards_before = [m.id for m in fake.messages(table.channel) if m.files]
        version_before = stored_game(database, table.channel)[1]
        answer = await kill_at(fake, bot_process, table, click, hold_for(board))
        assert answer.ack_seconds is not None and answer.ack_seconds < 3, moment   # the click was acknowledged

        version = stored_game(database, table.channel)[1]
        assert version > version_before, f"{moment}: the acknowledged click's action was lost"
        shown = await fake.wait_until(lambda version=version: [m for m in live_boards(fake, table)
                                                               if board_version(m) == version],
                                      what=f"the board of version {version} ({moment})")
        assert live_boards(fake, table) == shown and len(shown) == 1, f"{moment}: {live_boards(fake, table)}"
        assert len(live_boards(fake, idle)) == 1, moment
        posted = [m.id for m in fake.messages(table.channel) if m.files and m.id not in boards_before]
        assert len(posted) == new_boards, f"{moment}: {len(posted)} boards posted for one action"

        player, moves, custom_id = click
        if moves.ephemeral and custom_id in moves.custom_ids:   # a piece's moves still shown (not closed by
            # the move): clicked again
            refused = await fake.click(player, moves, custom_id=custom_id)
            assert [stale(m.content, player) for m in told(refused)] == [True], moment
            assert refused.ack_seconds < 3
            assert stored_game(database, table.channel)[1] == version, "a refusal changes nothing"
            stale_clicks += 1
        survived.append(moment)
    assert not fake.unanswered()
    assert len(survived) == len(moments)   # (a panel its move closed cannot be clicked again)
    await table.play(3)                      # and the game goes on from the one live board
