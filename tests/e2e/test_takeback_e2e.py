"""Take-backs and rematches end to end: a take-back inside a turn with the board's Undo
button; across turns, one refused and one accepted by the player to move; one refused because a die
was rolled since; a rematch lobby with the old seats, from the final board's Rematch button."""

import re
import sqlite3

import pytest

from bot.domain import i18n
from tests.e2e.table import (
    Game,
    Table,
    button_id,
    in_play,
    rematch_id,
    save_transcript,
    stored,
    told_alone,
    two_players,
)
from tests.services.test_takeback import ends_the_turn, keeps_the_turn

pytestmark = pytest.mark.e2e


def said(key: str, user, **params) -> str:
    return i18n.text(key, i18n.locale_of(user.locale), **params)


async def until(table: Table, game: Game, found) -> str:
    """Play on until `found(ruleset, state)` gives a move for the player to act; that move."""
    await table.play_until(lambda: not game.ruleset.roll_due(game.state()) and found(game.ruleset, game.state()),
                           limit=400)
    return found(game.ruleset, game.state())


async def test_a_move_is_taken_back_inside_the_turn_with_the_undo_button(fake_discord, bot_process):
    fake_discord.quiet = 0.1
    table = Table(fake_discord, two_players(fake_discord), seed=3)
    game = Game(bot_process.database, "parcheesi", fake_discord)
    await table.open(forced_moves=False)   # the move kept to take back leaves one: not played on its own
    move = await until(table, game, keeps_the_turn)
    before, mover = game.state(), table.to_act(table.board())
    await fake_discord.slash(mover, table.channel, "game move", move=move)
    board = table.board()
    assert button_id(board, "u") and table.to_act(board) is mover, "the same player goes on, and may undo"
    answer = await fake_discord.click(mover, board, custom_id=button_id(board, "u"))
    assert not [m for m in answer.followups if m.ephemeral]
    # The click counts as settled at the first write in the channel after its acknowledgement; on a busy machine
    # that may be a write left over from the move's command (the older board's retirement, once the command's
    # own board showed), before the undo is even stored: wait for the board that shows it.
    shown = await fake_discord.wait_until(lambda: "takes back their last move" in (b := table.board()).content and b,
                                          timeout=10, what="the board taken back")
    assert game.state() == before and game.log()[-1][1] == "undo"
    assert not button_id(shown, "u")
    assert await table.play_once(), "the game goes on from the position before the move"


async def test_across_turns_the_player_to_move_refuses_then_accepts(fake_discord, bot_process):
    """Pariti: every move passes the turn (PA-3.2), so taking one back asks the opponent."""
    fake_discord.quiet = 0.1
    ana, bruno = players = two_players(fake_discord)
    table = Table(fake_discord, players, "pariti", seed=5)
    game = Game(bot_process.database, "pariti", fake_discord)
    await table.open(seating="lobby")   # ana (the host) plays first
    start = game.state()
    await fake_discord.slash(ana, table.channel, "game move", move=game.ruleset.legal_actions(start)[0])
    board = table.board()
    assert table.to_act(board) is bruno and button_id(board, "u")
    refused = await fake_discord.click(bruno, board, custom_id=button_id(board, "u"))
    assert refused.followups[0].content == said("takeback.error.nothing", bruno)

    async def ask():
        await fake_discord.click(ana, table.board(), custom_id=button_id(table.board(), "u"))
        return fake_discord.last_message(table.channel, lambda m: any(c.startswith("tb:t:") for c in m.custom_ids))

    stored_before = stored(bot_process.database)
    request = await ask()
    assert request.pings == [bruno.id] and "ana asks to take back" in request.content
    not_hers = await fake_discord.click(ana, request, label=i18n.text("button.takeback.yes", "en"))
    assert not_hers.followups[0].ephemeral and stored(bot_process.database) == stored_before
    await fake_discord.click(bruno, request, label=i18n.text("button.takeback.no", "en"))
    answered = next(m for m in fake_discord.messages(table.channel) if m.id == request.id)
    assert "refuses" in answered.content and not answered.custom_ids
    assert stored(bot_process.database) == stored_before, "a refusal changes nothing"

    request = await ask()
    await fake_discord.click(bruno, request, label=i18n.text("button.takeback.yes", "en"))
    assert game.state() == start and game.log()[-1][1:] == ("undo", True)
    # The answer is edited in first, the board drawn after it: on a busy machine the drawing outlasts the
    # fake's quiet window, and the click returns before the board is posted.
    board = await fake_discord.wait_until(lambda: "takes back their last move" in (b := table.board()).content and b,
                                          timeout=5, what="the board taken back")
    assert table.to_act(board) is ana
    save_transcript(fake_discord, table.channel, players, "/tmp/e2e_takeback.txt")


async def test_no_take_back_once_a_die_was_rolled_since(fake_discord, bot_process):
    fake_discord.quiet = 0.1
    table = Table(fake_discord, two_players(fake_discord), seed=9)
    game = Game(bot_process.database, "parcheesi", fake_discord)
    await table.open(forced_moves=False)   # the roll since, then nothing else
    move = await until(table, game, ends_the_turn)
    mover = table.to_act(table.board())
    await fake_discord.slash(mover, table.channel, "game move", move=move)
    board = table.board()
    assert table.to_act(board) is not mover and button_id(board, "u"), "the mover could still ask"
    await table.roll(board)
    before = stored(bot_process.database)
    reply = await told_alone(fake_discord, await fake_discord.slash(mover, table.channel, "game undo"))
    assert reply.content == said("takeback.error.rolled", mover)
    assert stored(bot_process.database) == before


async def test_a_rematch_lobby_seats_the_old_players(fake_discord, bot_process):
    fake_discord.quiet = 0.1
    ana, bruno = players = two_players(fake_discord)
    table = Table(fake_discord, players, "pariti", seed=2)
    await table.open(seating="lobby", turn_time="1d")
    await fake_discord.slash(ana, table.channel, "game end")
    final = table.board()
    assert not in_play(final) and rematch_id(final)
    await fake_discord.click(bruno, final, custom_id=rematch_id(final))
    lobby = fake_discord.last_message(table.channel, lambda m: any(c.startswith("tb:l:") for c in m.custom_ids))
    seated = [line for line in lobby.content.splitlines() if re.match(r"\d\. ", line)]
    assert seated[0].startswith(f"1. <@{ana.id}>") and seated[1].startswith(f"2. <@{bruno.id}>")
    assert i18n.text("lobby.host", "fr") in seated[1], "bruno asked: he hosts, and the lobby speaks his language"
    busy = await told_alone(fake_discord, await fake_discord.slash(ana, table.channel, "game rematch"))
    assert busy.content == said("error.channel_busy", ana)
    with sqlite3.connect(f"file:{bot_process.database}?mode=ro", uri=True) as db:
        games = db.execute("SELECT status, seats, options, host_id FROM games ORDER BY id").fetchall()
    assert [g[0] for g in games] == ["ended", "lobby"] and games[0][1:3] == games[1][1:3]
    assert games[1][3] == bruno.id
    save_transcript(fake_discord, table.channel, players, "/tmp/e2e_rematch.txt")
