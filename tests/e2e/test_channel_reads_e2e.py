"""How a channel reads, turn after turn: a four-seat Parcheesi game and a Pariti game, in a server
channel and in a group DM where one friend installed the app, played to the end with a restart midway.

After every interaction: one live board; a board of at most 8 lines; a board that pings opens with the pinged
player and what they must do; every control on the board usable by someone now (no Claim before a deadline,
no Call out with nothing to call, Undo naming whom it serves); no public message deleted within a second of
being posted. At the end, the messages and pictures the game left in the channel (docs/boards.md's figures),
kept with the transcript under /tmp/e2e_reads_<game>_<place>.*.
"""

import json
import re

import pytest

from bot.domain import i18n
from tests.e2e.table import Game, Table, button_id, in_play, rematch_id, save_transcript, stored

pytestmark = pytest.mark.e2e

MAX_LINES = 8
SEATS = {"parcheesi": 4, "pariti": 2}
UNDO_ID = re.compile(r"^tb:u:")
CLAIM_ID = re.compile(r"^tb:d:")


def people(fake, place: str, count: int) -> tuple[list, object]:
    """`count` friends and where they play: a server channel, or a group DM where only the first installed the app."""
    names = ("ana", "bruno", "carla", "dai")[:count]
    users = [fake.add_user(name, locale="en-US", installed=(place != "group_dm" or i == 0))
             for i, name in enumerate(names)]
    channel = fake.add_group_dm(*users, name="friends") if place == "group_dm" else fake.add_channel("table")
    return users, channel


def live_boards(fake, channel) -> list:
    return [m for m in fake.messages(channel) if in_play(m) and m.files]


def check_the_channel(fake, table: Table, game: Game) -> None:
    """What a calm channel keeps to, as it is now."""
    live = live_boards(fake, table.channel)
    assert len(live) <= 1, [m.content for m in live]
    hasty = [m.content for m in fake.messages(table.channel, deleted=True) if m.ephemeral_to is None
             and m.deleted_at is not None and m.deleted_by is None and m.deleted_at - m.shown_at < 1.0]
    assert not hasty, f"public messages deleted within a second of being posted: {hasty}"
    for board in [m for m in fake.messages(table.channel) if m.files][-1:]:
        lines = board.content.splitlines()
        assert len(lines) <= MAX_LINES, board.content
        if board.pings:
            assert f"<@{board.pings[0]}>" in lines[0], board.content
        if not in_play(board):
            continue
        ids = board.custom_ids
        assert not any(CLAIM_ID.match(cid) for cid in ids), "a claim offered in an untimed game"
        if button_id(board, "c"):
            assert any(game.calls(user) for user in table.players), "Call out with nothing to call"
        undo = [b for b in board.buttons if UNDO_ID.match(b.get("custom_id", ""))]
        assert all(any(p.name in b.get("label", "") for p in table.players) for b in undo), undo


async def friend_without_the_app_looks(fake, table: Table, friend) -> None:
    """The position in words, to the friend alone; then the board again at the bottom, the older one retired."""
    board = await table.live_board()
    call = board.content.split("\n")[0]
    status = await fake.click(friend, board, label="Status")
    assert [m.ephemeral for m in status.messages] == [True] and "Time" not in status.messages[0].content
    shown = await fake.click(friend, board, label="Board")
    assert not [m for m in shown.messages if m.ephemeral], shown.messages
    again = await table.live_board()
    assert again.id != board.id and again.content.split("\n")[0] == call


@pytest.mark.parametrize("place", ["server", "group_dm", "server_in_french"])
@pytest.mark.parametrize("game", ["parcheesi", "pariti"])
async def test_a_whole_game_reads_calmly(fake_discord, bot_process, game, place):
    fake = fake_discord
    fake.quiet = 0.1
    users, channel = people(fake, place, SEATS[game])
    table = Table(fake, users, game, seed=5, channel=channel)
    stored_game = Game(bot_process.database, game, fake)
    language = "fr" if place == "server_in_french" else "en"
    await table.open(seating="lobby", **({"language": "fr"} if language == "fr" else {}))
    check_the_channel(fake, table, stored_game)

    def checked() -> bool:
        check_the_channel(fake, table, stored_game)
        return False

    await table.plays(12, until=checked)
    if place == "group_dm":   # a friend without the app has the board's Status and Board instead of the commands
        await friend_without_the_app_looks(fake, table, users[-1])
        check_the_channel(fake, table, stored_game)
    await bot_process.kill()
    await bot_process.start()
    await table.plays(3000, until=checked)
    check_the_channel(fake, table, stored_game)
    final = table.board()
    assert not in_play(final) and rematch_id(final), final.content
    assert stored(bot_process.database)[0][0][1] == "finished"

    status = await fake.slash(users[0], channel, "game status")
    last = i18n.text("game.last", "en", game="", result="").split(":")[0]   # the asker reads English
    assert status.message.ephemeral and status.message.content.startswith(last), status.message.content
    rules = await fake.slash(users[0], channel, "game rules")
    assert rules.message.ephemeral and ("Pariti" in rules.message.content) == (game == "pariti")

    left = fake.messages(channel)
    figures = {"messages": len(left), "pictures": sum(len(m.files) for m in left),
               "ephemeral": sum(1 for u in users for m in fake.messages(channel, viewer=u) if m.ephemeral_to),
               "actions": stored(bot_process.database)[0][0][3]}
    save_transcript(fake, channel, users, f"/tmp/e2e_reads_{game}_{place}.txt")
    with open(f"/tmp/e2e_reads_{game}_{place}.json", "w") as out:
        json.dump(figures, out)
