"""A restart that cut a turn short: at start-up the bot finishes what it was doing.

The crash is staged on the stored game, as a bot killed at that moment leaves it: the move is in the
database (one transaction, before anything is shown) and nothing after it happened."""

import random
import sqlite3

import pytest

from bot.domain import dice
from bot.domain.player_actions import ROLL
from bot.domain.positions import ruleset_of
from bot.games import get_ruleset
from bot.services import Sessions
from bot.store import Store
from tests.e2e.table import Table, stored
from tests.e2e.test_computers_e2e import click_lobby

pytestmark = pytest.mark.e2e


async def store_a_move_and_stop(database, channel) -> str:
    """The player to move makes a legal move; the bot dies before doing anything else. The action."""
    store = await Store.open(str(database))
    record = await store.games.open_game(channel.id)
    ruleset = get_ruleset(record.game)
    state = ruleset.from_json(record.state)
    seat = ruleset.to_move(state)
    action = (ruleset.random_roll(state, dice.rng_for(record.seed, record.version)) if ruleset.roll_due(state)
              else ruleset.legal_actions(state)[0])
    applied = ruleset.apply(state, action, seat)
    await store.games.append_action(record, seat=seat, user_id=record.seats[seat].user_id, action=action, legal=True,
                                    state=ruleset.to_json(applied.state), events=[e.to_json() for e in applied.events])
    await store.close()
    return action


async def test_the_computers_turn_cut_by_a_restart_is_played_at_start_up(fake_discord, bot_process):
    host = fake_discord.add_user("ana")
    table = Table(fake_discord, [host], "pariti", seed=5)
    await fake_discord.slash(host, table.channel, "game new", game="pariti", seating="lobby")
    await click_lobby(fake_discord, table, host, "add-bot")
    await click_lobby(fake_discord, table, host, "start")
    first = table.board()
    assert host.mention in first.content                  # the person, seated first, moves first (PA-3.1)
    await bot_process.kill()
    await store_a_move_and_stop(bot_process.database, table.channel)   # the computer is to move now
    version = stored(bot_process.database)[0][0][3]

    await bot_process.start()
    board = await fake_discord.wait_for_message(table.channel, lambda m: m.files and m.custom_ids, after=first)
    assert host.mention in board.content                  # the computer played: the person's turn again
    games, actions = stored(bot_process.database)
    assert games[0][3] > version and actions[-1][2] == 1  # (game_id, seq, seat, ...): the computer's move
    assert not [m for m in fake_discord.messages(table.channel) if m.custom_ids and m is not board]


async def test_a_board_the_bot_could_not_post_before_a_restart_is_posted_at_start_up(fake_discord, bot_process):
    players = [fake_discord.add_user("ana"), fake_discord.add_user("bruno", locale="fr")]
    table = Table(fake_discord, players, "pariti", seed=2)
    first = await table.open()
    await bot_process.terminate()
    await store_a_move_and_stop(bot_process.database, table.channel)
    before = stored(bot_process.database)

    await bot_process.start()
    board = await fake_discord.wait_for_message(table.channel, lambda m: m.files and m.custom_ids, after=first)
    assert table.to_act(board) is table.opponent(first)   # the new board pings the next player
    assert "→" in board.content.split("\n")[1]             # and then tells the move it missed
    assert stored(bot_process.database) == before          # only shown, nothing played
    assert not first.custom_ids                            # the old board's controls are retired
    await bot_process.terminate()
    await bot_process.start()                              # once posted, a restart posts nothing more
    assert [m.id for m in fake_discord.messages(table.channel) if m.files][-1] == board.id


async def test_a_game_started_just_before_a_restart_gets_its_first_board_at_start_up(fake_discord, bot_process):
    players = [fake_discord.add_user("ana"), fake_discord.add_user("bruno")]
    table = Table(fake_discord, players, "parcheesi", seed=3)
    await fake_discord.slash(players[0], table.channel, "game new", game="parcheesi")
    await click_lobby(fake_discord, table, players[1], "join")
    lobby = fake_discord.last_message(table.channel, lambda m: m.custom_ids)
    await bot_process.terminate()
    # The host's Start is stored; the bot dies before posting the board.
    sessions = Sessions(await Store.open(str(bot_process.database)))
    await sessions.lobby.start(table.channel.id, players[0].id)
    await sessions.store.close()
    before = stored(bot_process.database)

    await bot_process.start()
    board = await fake_discord.wait_for_message(table.channel, lambda m: m.files and m.custom_ids, after=lobby)
    assert "Seats drawn at random:" in board.content      # who sits where, as the first board says (PM-1.9)
    assert table.to_act(board) in players
    assert stored(bot_process.database) == before          # only shown, nothing played
    assert not lobby.custom_ids                            # the lobby's buttons are retired
    commitment = await fake_discord.wait_for_message(table.channel, lambda m: "Fair dice" in m.content)
    with sqlite3.connect(f"file:{bot_process.database}?mode=ro", uri=True) as db:
        seed = db.execute("SELECT seed FROM games").fetchone()[0]
    assert dice.commitment(seed) in commitment.content     # the start's fair-dice commitment goes out too


async def test_a_games_final_board_that_a_restart_kept_from_being_posted_is_posted_at_start_up(fake_discord,
                                                                                              bot_process):
    """The game is played out while the bot is down, as if it died after storing the last move: at start-up
    the final board goes out, saying who won, with the seed revealed; a second restart posts nothing more."""
    players = [fake_discord.add_user("ana"), fake_discord.add_user("bruno")]
    table = Table(fake_discord, players, "pariti", seed=4)
    first = await table.open()
    await bot_process.terminate()
    sessions, rng = Sessions(await Store.open(str(bot_process.database))), random.Random(4)
    record = await sessions.channels.open_game(table.channel.id)
    while record.status == "active":
        ruleset = ruleset_of(record)
        state = ruleset.from_json(record.state)
        action = ROLL if ruleset.roll_due(state) else rng.choice(ruleset.legal_actions(state))
        player = record.seats[ruleset.to_move(state)].user_id
        record = (await sessions.play.act(table.channel.id, player, action)).record
    await sessions.store.close()
    before = stored(bot_process.database)

    await bot_process.start()
    final = await fake_discord.wait_for_message(table.channel, lambda m: m.files, after=first)
    assert "won the game" in final.content or "is a draw" in final.content, final.content
    assert await fake_discord.wait_for_message(table.channel, lambda m: record.seed in m.content, after=first)
    assert stored(bot_process.database) == before          # only shown, nothing played
    assert not first.custom_ids                            # the old board's controls are retired
    await bot_process.terminate()
    await bot_process.start()
    assert [m.id for m in fake_discord.messages(table.channel) if m.files][-1] == final.id


@pytest.mark.parametrize("ending", ["resign", "end"])
async def test_a_resignation_or_game_end_a_restart_kept_from_being_shown_is_shown_at_start_up(fake_discord,
                                                                                            bot_process, ending):
    """A resignation or /game end changes the game's status, not its version: stored, then the bot dies before
    posting. At start-up the final board goes out (its only control a rematch); a second restart posts
    nothing more."""
    players = [fake_discord.add_user("ana"), fake_discord.add_user("bruno")]
    table = Table(fake_discord, players, "pariti", seed=6)
    first = await table.open()
    await bot_process.terminate()
    sessions = Sessions(await Store.open(str(bot_process.database)))
    if ending == "resign":
        await sessions.endings.resign(table.channel.id, players[1].id)
    else:
        await sessions.endings.end(table.channel.id, players[0].id, can_manage=False)
    await sessions.store.close()
    before = stored(bot_process.database)

    await bot_process.start()
    final = await fake_discord.wait_for_message(table.channel, lambda m: m.files, after=first)
    assert ("won the game" if ending == "resign" else "ended before its finish") in final.content, final.content
    assert all(custom_id.startswith("tb:r:") for custom_id in final.custom_ids)   # a rematch at most
    assert stored(bot_process.database) == before          # only shown, nothing played
    assert not first.custom_ids                            # the old board's controls are retired
    await bot_process.terminate()
    await bot_process.start()
    assert [m.id for m in fake_discord.messages(table.channel) if m.files][-1] == final.id
