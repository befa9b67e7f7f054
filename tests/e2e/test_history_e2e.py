"""History, fair dice, the animation, statistics and spectators end to end: `python -m bot` against the fake Discord."""
import hashlib
import io
import re

import pytest
from PIL import Image

from tests.e2e.table import Table, in_play, rematch_id, roll_id, stored

pytestmark = pytest.mark.e2e

HEX64 = re.compile(r"`([0-9a-f]{64})`")
PAGE = re.compile(r"page (\d+) of (\d+)")


@pytest.fixture
def people(fake_discord):
    return [fake_discord.add_user(name) for name in ("ana", "bruno", "carla")]


def _page(message) -> tuple[int, int]:
    found = PAGE.search(message.content)
    assert found, message.content
    return int(found[1]), int(found[2])


async def test_spectators_read_history_and_fair_dice_are_revealed_with_an_animation(fake_discord, bot_process, people):
    """Commitment at the start, history pages for a spectator, the seed and the animation at the end, verify, stats."""
    ana, bruno, carla = people
    table = Table(fake_discord, [ana, bruno])
    await table.open()
    commitment = HEX64.search(fake_discord.last_message(table.channel, lambda m: "SHA-256" in m.content).content)[1]

    running = await fake_discord.slash(carla, table.channel, "game verify")
    assert running.ephemeral and commitment in running.content and "still being played" in running.content

    await table.play_until(lambda: len(stored(bot_process.database)[1]) >= 40, limit=100)
    assert in_play(table.board()), "the game goes on"

    # A spectator may look but not act.
    board = table.board()
    if roll_id(board):
        refused = await fake_discord.click(carla, board, custom_id=roll_id(board))
        assert refused.followups[-1].ephemeral and "not playing" in refused.followups[-1].content
    status = await fake_discord.slash(carla, table.channel, "game status")
    assert status.ephemeral and status.content
    await fake_discord.slash(carla, table.channel, "game board")
    assert table.board().id != board.id, "a spectator can have the board posted again"

    history = (await fake_discord.slash(carla, table.channel, "game history")).message
    assert history.ephemeral
    page, pages = _page(history)
    assert page == pages >= 3, "the history opens on the latest moves"
    labels = [b["label"] for b in history.buttons]
    assert labels == ["⏮", "◀", "▶", "⏭"]
    await fake_discord.click(carla, history, label="◀")
    assert _page(history) == (pages - 1, pages)
    await fake_discord.click(carla, history, label="⏮")
    first = history.content
    assert _page(history) == (1, pages) and "`1` 🎲" in first and "`2`" in first
    assert history.component(label="⏮").get("disabled") and history.component(label="◀").get("disabled")

    await fake_discord.slash(ana, table.channel, "game resign")
    reveal = await fake_discord.wait_for_message(table.channel, lambda m: "seed" in m.content and "over" in m.content)
    seed = HEX64.search(reveal.content)[1]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment

    final = await fake_discord.wait_for_message(
        table.channel, lambda m: [f.filename for f in m.files] == ["board.png", "replay.gif"], timeout=60)
    assert "🏆" in final.content and not in_play(final) and rematch_id(final)
    gif = final.files[1].bytes
    assert gif.startswith(b"GIF89a") and len(gif) <= 8_000_000
    assert Image.open(io.BytesIO(gif)).n_frames > 10
    board_alt, animation_alt = (f.description for f in final.files)
    assert board_alt.startswith("Board of Parcheesi (Mundijeux).") and "🏆 bruno won the game!" in board_alt
    assert re.fullmatch(r"Animated replay of Parcheesi \(Mundijeux\): \d+ rolls and moves\. 🏆 bruno won the game!",
                        animation_alt)

    verified = await fake_discord.slash(carla, table.channel, "game verify")
    assert "✅" in verified.content and seed in verified.content

    mine = await fake_discord.slash(bruno, table.channel, "stats")
    assert mine.ephemeral and "Games finished: 1; won: 1;" in mine.content and "1516" in mine.content
    theirs = await fake_discord.slash(bruno, table.channel, "stats", player=ana)
    assert "Games finished: 1; won: 0;" in theirs.content and "1484" in theirs.content
    board_all = await fake_discord.slash(carla, table.channel, "leaderboard")
    assert board_all.content.splitlines()[1].startswith(f"1. <@{bruno.id}>")
    by_rating = await fake_discord.slash(carla, table.channel, "leaderboard", game="parcheesi")
    assert f"1. <@{bruno.id}> — 1516" in by_rating.content and f"2. <@{ana.id}> — 1484" in by_rating.content
    nobody = await fake_discord.slash(carla, table.channel, "stats")
    assert "has not finished a game" in nobody.content


async def test_games_of_a_private_channel_are_told_only_to_members_who_can_view_it(fake_discord, bot_process, people):
    """/game history and /game verify with a game id answer about a private channel's game
    only to a member who can view that channel; anyone else gets the answer for an unknown id."""
    ana, bruno, carla = people
    table = Table(fake_discord, [ana, bruno])
    table.channel = fake_discord.add_channel("secret", private=True, members=[ana, bruno])
    await table.open()
    await table.play(4)
    game_id = stored(bot_process.database)[0][0][0]
    hall = fake_discord.add_channel("hall")

    for command in ("game history", "game verify"):
        unknown = await fake_discord.slash(carla, hall, command, game_id=game_id + 1000)
        hidden = await fake_discord.slash(carla, hall, command, game_id=game_id)
        assert hidden.ephemeral and hidden.content == unknown.content, (command, hidden.content)
        seen = await fake_discord.slash(bruno, hall, command, game_id=game_id)
        assert seen.ephemeral and seen.content != unknown.content, (command, seen.content)
