"""Discord failing: a board whose post or edit fails after the move was stored (Discord's 503 past discord.py's
own tries, or the connection lost) is posted once Discord answers again: the table sees one board, of the stored
position, never two; a lobby whose post failed is posted at the next start. A turn reminder Discord would not post
is tried again the same way: posted once, or not at all once the game moved on; so is a piece's moves. Any other
answer whose connection was lost is one log line, the game as it was.

discord.py tries an interaction's request (its webhook routes) five times over 25 s on any 5xx before it raises;
a channel endpoint's 503 it raises at once, and a connection lost on any route. One test waits out the five
tries; the others lose the connection, which the bot meets as it does the error after them."""

import re

import pytest

from tests.e2e.table import Table, board_version, choices, roll_id, said, stored, told, two_players

pytestmark = pytest.mark.e2e

POST, EDIT = "/channels/{channel}/messages", "/channels/{channel}/messages/{message}"
# A click's or a command's board goes through its interaction: the original response or a follow-up.
HOOK_EDIT = "/webhooks/{app}/{token}/messages/{message}"
CALLBACK = "/interactions/{interaction}/{token}/callback"   # an interaction's acknowledgement or first answer
TURN_S = 6   # the reminder at half time, its first retry a second later, well before the deadline


def live_boards(fake, table: Table) -> list:
    return [m for m in fake.messages(table.channel) if m.files and m.custom_ids]


async def the_stored_board(fake, table: Table, database):
    """Waits until the one live board shows the stored version; that board."""
    def shown():
        live = live_boards(fake, table)
        return len(live) == 1 and board_version(live[0]) == stored(database)[0][-1][3] and live[0]
    return await fake.wait_until(shown, timeout=15, what="one live board of the stored version")


def log_of(bot) -> str:
    return bot.log_path.read_text(errors="replace")


@pytest.mark.parametrize("carried_out", [False, True], ids=["not carried out", "carried out, answer lost"])
async def test_a_board_discord_would_not_show_is_shown_once_discord_answers_again(fake_discord, bot_process,
                                                                                  carried_out):
    fake, database = fake_discord, bot_process.database
    table = Table(fake, two_players(fake), "parcheesi", seed=5)
    await table.open()
    _, before = stored(database)
    board = await table.live_board()
    player = table.to_act(board)
    # The roll's board, edited (or retired) through the click's answer, fails; the catching up that follows goes
    # through the channel.
    if carried_out:   # the edit's connection lost; the catching up's post made, its answer lost with the connection
        fake.drop("PATCH", HOOK_EDIT)
        fake.drop("POST", POST, carried_out=True)
    else:   # Discord's 503 at each of discord.py's five tries (a webhook's 5xx: 25 s), the click acknowledged
        fake.fail("PATCH", HOOK_EDIT, status=503, times=5)
    answer = await fake.click(player, board, custom_id=roll_id(board), timeout=60)
    assert answer.ack_seconds < 3
    # (the click may look settled before the bot hears of the failure)
    told_ = await fake.wait_until(lambda: told(answer), timeout=60, what="the player told")
    assert [m.content for m in told_] == [said("boards.error.not_shown", player)]
    _, after = stored(database)
    assert len(after) > len(before), "the roll was stored"

    # Once the catching up is done (a board whose post lost its answer is found at its next try; a click on that
    # board before then: the next test), the channel as it leaves it.
    await fake.wait_until(lambda: "its board: caught up" in log_of(bot_process), timeout=60, what="the catching up")
    shown = await the_stored_board(fake, table, database)
    posted = [m for m in fake.messages(table.channel) if m.files and board_version_or_none(m) == board_version(shown)]
    assert posted == [shown], "one live board of the stored position, not two"
    # One message of that position, live or retired: a board whose post's answer was lost is found in the channel
    # and kept (BoardPublisher._adopt_board), not posted again.
    assert [m for m in fake.messages(table.channel) if m.files and m.id > board.id] == [shown], "no board posted twice"
    assert (fake.dropped if carried_out else fake.failed) and not fake.unanswered()
    assert "Traceback" not in log_of(bot_process)
    fake.clear_faults()                       # a request the bot did not need to make (an edit, a post)
    await table.play(2)                       # and the game goes on from it


async def test_a_board_whose_posts_answer_was_lost_clicked_before_it_is_found_becomes_the_games_board(
        fake_discord, bot_process):
    fake, database = fake_discord, bot_process.database
    table = Table(fake, two_players(fake), "parcheesi", seed=5)
    await table.open()
    board = await table.live_board()
    player = table.to_act(board)
    fake.drop("PATCH", HOOK_EDIT)                 # the roll's board, edited through the click's answer: lost
    fake.drop("POST", POST, carried_out=True)     # the catching up's post: made, its answer lost
    await fake.click(player, board, custom_id=roll_id(board), timeout=60)
    unknown = await fake.wait_until(lambda: [m for m in live_boards(fake, table) if m.id > board.id],
                                    timeout=60, what="the board posted with its answer lost")
    # Clicked at once, before the bot's next try finds it in the channel (a second later at the soonest).
    await table.move(table.to_act(unknown[-1]), unknown[-1])
    shown = await the_stored_board(fake, table, database)
    assert not [m for m in live_boards(fake, table) if m.id != shown.id], "one live board"
    assert "Traceback" not in log_of(bot_process)
    fake.clear_faults()
    await table.play(2)


def board_version_or_none(message) -> int | None:
    return board_version(message) if message.custom_ids else None


async def test_a_pieces_moves_discord_would_not_show_come_once_it_answers_again(fake_discord, bot_process):
    fake, database = fake_discord, bot_process.database
    table = Table(fake, two_players(fake), "barricade", seed=5)
    await table.open()
    await table.play_until(lambda: any(c.kind == "g" for c in choices(table.board())), limit=30)
    board = table.board()
    player = table.to_act(board)
    piece = next(c for c in choices(board) if c.kind == "g")
    before = stored(database)
    fake.drop("PATCH", HOOK_EDIT)   # the piece's moves, its "thinking…" edited: the connection lost
    answer = await fake.select(player, board, piece.custom_id, [piece.value], timeout=30)
    moves = answer.message
    assert moves.ephemeral and moves.files and choices(moves), moves
    assert fake.dropped and stored(database) == before and not fake.unanswered()
    await table.move(player, moves)   # and the player goes on from that menu
    assert len(stored(database)[1]) > len(before[1]), "the move was stored"
    assert "Traceback" not in log_of(bot_process)


async def test_an_answer_whose_connection_was_lost_leaves_one_log_line_and_the_game_as_it_was(fake_discord,
                                                                                            bot_process):
    fake, database = fake_discord, bot_process.database
    table = Table(fake, two_players(fake), "parcheesi", seed=5)
    await table.open()
    before = stored(database)
    player = table.to_act(table.board())
    fake.drop("POST", CALLBACK, carried_out=True)   # the answer shown, the bot told the connection was lost
    reply = await fake.slash(player, table.channel, "game status")
    assert reply.message.ephemeral and fake.dropped
    await fake.wait_until(lambda: "left unanswered: Discord failed" in log_of(bot_process), timeout=10,
                          what="the fault logged")
    assert stored(database) == before and "Traceback" not in log_of(bot_process)
    await table.play(2)                               # and the game goes on


@pytest.mark.parametrize("command", ["game history", "game verify"])
async def test_a_history_or_verify_answer_discord_would_not_show_comes_once_it_answers_again(fake_discord,
                                                                                          bot_process, command):
    fake = fake_discord
    table = Table(fake, two_players(fake), "parcheesi", seed=5)
    await table.open()
    await table.play(2)
    fake.drop("PATCH", HOOK_EDIT)   # the answer edited in over "thinking…": the connection lost
    reply = await fake.slash(table.players[0], table.channel, command, timeout=30)
    answered = await fake.wait_until(lambda: reply.message is not None and reply.message.content and reply.message,
                                     timeout=30, what="the answer edited in again")
    assert answered.ephemeral and fake.dropped and not fake.unanswered()
    assert "Traceback" not in log_of(bot_process)


async def test_a_lobby_never_shown_before_a_restart_is_posted_at_start_up(fake_discord, bot_process):
    fake = fake_discord
    host = fake.add_user("ana")
    channel = fake.add_channel("lobby")
    fake.drop("PATCH", HOOK_EDIT)                       # the lobby as the command's response: connection lost
    fake.fail("POST", POST, status=503, times=1000)     # and Discord down for longer than the bot runs
    reply = await fake.slash(host, channel, "game new", game="parcheesi", timeout=60)
    assert reply.content == said("boards.error.not_shown", host) and reply.ephemeral
    assert not fake.messages(channel)
    await bot_process.terminate()
    fake.clear_faults()
    await bot_process.start()
    lobby = await fake.wait_for_message(channel, lambda m: "Join" in [b.get("label") for b in m.buttons])
    assert len([m for m in fake.messages(channel) if m.custom_ids]) == 1 and lobby


def reminders(fake, table: Table) -> list:
    return [m for m in fake.messages(table.channel) if "half of your time" in m.content]


@pytest.mark.parametrize("carried_out", [False, True], ids=["not carried out", "carried out, answer lost"])
async def test_a_reminder_discord_would_not_post_is_posted_once_when_discord_answers_again(fake_discord, quick_bot,
                                                                                          carried_out):
    fake = fake_discord
    table = Table(fake, two_players(fake))
    board = await table.open(turn_time=f"{TURN_S}s", seating="lobby")
    fake.fail("POST", POST, status=503, carried_out=carried_out)   # the next post: the half-time reminder
    await fake.wait_until(lambda: "its reminder: caught up" in log_of(quick_bot), timeout=TURN_S,
                          what="the reminder tried again")
    assert fake.failed == [("POST", f"/channels/{table.channel.id}/messages")]
    [reminder] = reminders(fake, table)
    assert table.to_act(board).mention in reminder.content
    assert "Traceback" not in log_of(quick_bot)


async def test_a_reminder_discord_would_not_post_is_dropped_once_the_game_moved_on(fake_discord, quick_bot):
    """The game moves on by its own deadline, while Discord still refuses posts: a player's move would have to
    come between the reminder (half time) and the deadline, which a starved bot may not leave it (the deadline
    then plays the turn first and retires the board the move was to be made on)."""
    fake = fake_discord
    table = Table(fake, two_players(fake))
    board = await table.open(turn_time=f"{TURN_S}s", seating="lobby")
    deadline, version = board_deadline(board), stored(quick_bot.database)[0][0][3]
    fake.fail("POST", POST, status=503, times=1000)                # Discord down for posts
    await fake.wait_until(lambda: fake.failed, timeout=TURN_S, what="the reminder's post failed")
    await fake.wait_until(lambda: stored(quick_bot.database)[0][0][3] > version, timeout=TURN_S + 30,
                          what="the turn played at its deadline")
    fake.clear_faults()
    await fake.wait_until(lambda: "its reminder is no longer due" in log_of(quick_bot), timeout=TURN_S,
                          what="the reminder dropped")
    assert all(f"<t:{deadline}:R>" not in m.content for m in reminders(fake, table))
    assert "Traceback" not in log_of(quick_bot)


def board_deadline(board) -> int:
    """When the board's turn runs out (its Discord timestamp)."""
    return int(re.search(r"<t:(\d+):R>", board.content).group(1))
