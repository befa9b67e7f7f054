"""Parcheesi end to end: `python -m bot` against the fake Discord, driven as users would, on a real SQLite file."""

import asyncio
import sys

import pytest

from tests.e2e.table import Table, board_version, check_png, in_play, rematch_id, roll_id, stored

pytestmark = pytest.mark.e2e

@pytest.fixture
def players(fake_discord):
    return [fake_discord.add_user(name, locale=locale)
            for name, locale in (("ana", "en-US"), ("bruno", "fr"), ("chloe", "en-GB"), ("dai", "fr"))]


async def test_four_users_play_a_whole_game(fake_discord, bot_process, players):
    """Lobby, start, then rolls and moves through buttons and selects until someone wins."""
    fake_discord.quiet = 0.1
    table = Table(fake_discord, players)
    check_png((await table.open(forced_moves=False)).files[0].bytes)   # each click one position (PM rules)
    boards = 0
    while played := await table.plays(50):   # fewer once the game is over
        boards += played
        assert boards < 5000, "the game does not end"
        check_png(table.board().files[0].bytes)
    final = table.board()
    assert "🏆" in final.content and not in_play(final) and rematch_id(final)
    check_png(final.files[0].bytes)
    games, actions = stored(bot_process.database)
    assert games[0][1] == "finished" and len(actions) == games[0][3]


async def test_restart_keeps_the_game_and_its_buttons(fake_discord, bot_process, players):
    """SIGKILL between a roll and the move, SIGTERM before a roll: the last board's buttons still work."""
    table = Table(fake_discord, players[:2])
    await table.open()
    while roll_id(board := table.board()):  # roll until a move is to be made
        await table.roll(board)
    before, version = stored(bot_process.database), board_version(board)  # boards are edited in place: keep numbers
    await bot_process.kill()
    await bot_process.start()
    assert stored(bot_process.database) == before
    assert await table.play_once()
    assert board_version(table.board()) > version

    while not roll_id(board := table.board()):
        await table.play_once()
    await bot_process.terminate()
    await bot_process.start()
    version = board_version(board)
    await table.roll(board)
    assert board_version(table.board()) > version


async def test_hostile_input_is_refused_and_changes_nothing(fake_discord, bot_process, players):
    """Strangers, turn thieves, double clicks, illegal and malformed moves, no game, leaving mid-game."""
    ana, bruno, stranger = players[0], players[1], players[2]
    table = Table(fake_discord, [ana, bruno])
    board = await table.open(forced_moves=False)   # a roll is one action (no move playing itself after it)
    elsewhere = fake_discord.add_channel("no-game-here")
    not_to_act = bruno if table.to_act(board) is ana else ana

    async def refused(action):
        before = stored(bot_process.database)
        answer = await action()
        reply = answer.followups[-1] if answer.followups else answer.message
        assert reply.ephemeral and reply.content, f"no ephemeral refusal: {answer.messages}"
        assert stored(bot_process.database) == before, "a refused action changed the stored game"
        return reply.content

    await refused(lambda: fake_discord.click(stranger, board, custom_id=roll_id(board)))
    await refused(lambda: fake_discord.click(not_to_act, board, custom_id=roll_id(board)))
    for move in ("zzz", "x" * 300, "'; DROP TABLE games; --", "🎲" * 50, "roll roll"):
        await refused(lambda move=move: fake_discord.slash(table.to_act(board), table.channel, "game move", move=move))
    assert "no game" in await refused(lambda: fake_discord.slash(ana, elsewhere, "game roll"))
    assert "no game" in await refused(lambda: fake_discord.slash(ana, elsewhere, "game move", move="1"))
    await refused(lambda: fake_discord.slash(bruno, table.channel, "game leave"))
    choices = await fake_discord.autocomplete(stranger, table.channel, "game move", "move", typed="")
    assert choices == []

    before_games, before_actions = stored(bot_process.database)
    player = table.to_act(board)
    roll = roll_id(board)
    first, second = await asyncio.gather(fake_discord.click(player, board, custom_id=roll),
                                         fake_discord.click(player, board, custom_id=roll))
    refusals = [m for a in (first, second) for m in a.followups if m.ephemeral]
    assert len(refusals) == 1, "exactly one of two simultaneous clicks is applied"
    games, actions = stored(bot_process.database)
    assert len(actions) == len(before_actions) + 1 and games[0][3] == before_games[0][3] + 1


async def test_every_interaction_is_acknowledged_in_time_on_a_busy_machine(fake_discord, bot_process, players):
    """Three CPU burners on this 2-core machine: every first response still within Discord's 3 s."""
    burners = [await asyncio.create_subprocess_exec(sys.executable, "-c", "while True: pass") for _ in range(3)]
    try:
        table = Table(fake_discord, players)
        await table.open()
        await table.play(30)   # each click as soon as its board is up (the burners run no longer than needed)
    finally:
        for burner in burners:
            burner.kill()
            await burner.wait()
    slowest = max(fake_discord.interactions, key=lambda i: i.ack_seconds)
    assert slowest.ack_seconds < 2.5, f"{slowest.describe()} acknowledged after {slowest.ack_seconds:.2f}s"
