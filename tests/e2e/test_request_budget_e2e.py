"""Moves within Discord's global request budget: clicking as players do in a server channel,
a game's boards go through the interactions (the clicked board updated or retired in the click's answer, a
new board as a follow-up), so that at most 0.1 request per action counts against the bot's global limit."""

import asyncio

import pytest

from bot.games import GAME_IDS
from tests.benchmarks.e2e import limit_of, route_of
from tests.e2e.table import Table, left_nothing, two_players

pytestmark = pytest.mark.e2e

ACTIONS = 40


@pytest.mark.parametrize("game", GAME_IDS)
async def test_clicking_as_players_do_costs_at_most_a_tenth_of_a_global_request_per_action(
        fake_discord, bot_process, game):
    fake_discord.quiet = 0.1
    sent = len(fake_discord.requests)
    table = Table(fake_discord, two_players(fake_discord), game, seed=5)
    await table.open()
    played = await table.plays(ACTIONS)   # fewer if the game ends first
    requests = fake_discord.requests[sent:]
    counted = [route_of(method, path) for method, path in requests if limit_of(path) == "global"]
    assert played >= 10
    assert len(counted) <= 0.1 * played, counted
    assert len(requests) - len(counted) >= played, "every action answered through its interaction"


async def test_a_command_answers_with_the_board_and_the_turn_passing_pings_the_next_player(fake_discord, bot_process):
    """`/game roll` and `/game move`: the command's own response is the new board; the older board
    loses its controls (through the token of the interaction that showed it)."""
    fake_discord.quiet = 0.1
    table = Table(fake_discord, two_players(fake_discord), "parcheesi", seed=2)
    first = await table.open()
    sent = len(fake_discord.requests)
    player = table.to_act(first)
    rolled = await fake_discord.slash(player, table.channel, "game roll")
    assert left_nothing(rolled) and not rolled.original.deleted
    board = await table.live_board()
    assert board.id == rolled.original.id and board.files
    assert [m.id for m in fake_discord.messages(table.channel) if m.custom_ids] == [board.id]
    assert not [p for _, p in fake_discord.requests[sent:] if limit_of(p) == "global"]


@pytest.mark.fake_discord(global_limit=True)
async def test_with_discords_global_limit_on_no_table_waits_on_the_others_moves(fake_discord, bot_process):
    """Discord's global limit (50 requests a second for the whole bot, interaction endpoints exempt) enforced
    by the fake: ten tables playing at once spend nothing of it, so none is answered 429 and none waits for
    the budget another table used."""
    fake_discord.quiet = 0.1
    mark = len(fake_discord.counted)
    tables = [Table(fake_discord, two_players(fake_discord), game, seed=seed)
              for seed, game in enumerate(GAME_IDS * 2)]

    async def play(table: Table) -> int:
        await table.open()
        return await table.plays(ACTIONS // 2)

    played = await asyncio.gather(*(play(table) for table in tables))
    counts = fake_discord.counts(since=mark)
    assert min(played) >= 10, played
    assert [r.key for r in counts.refused] == []   # no 429 from the global limiter, nothing else refused
    assert counts.global_requests <= 0.1 * sum(played), counts.by_route("global")
