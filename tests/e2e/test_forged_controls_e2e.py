"""Forged and corrupted controls: whatever a click, a select or a modal holds, the
bot answers the user alone within Discord's 3 s, changes nothing and logs no traceback."""
import pytest

from tests.e2e.table import ACTION_ID, Table, board_version, said, stored, two_players
from tests.fake_discord import STRING_SELECT

pytestmark = pytest.mark.e2e

FORGED_CLICKS = [
    "tb:h:99999999999999999999:0:f",     # a history page of a game id beyond 64 bits
    "tb:a:1:99999999999999999999:roll",
    "tb:a:1:1:roll", "tb:l:1:explode", "tb:v:1:0:maybe", "tb:c:1:1:extra", "tb:q:1:1",
    "", "garbage", "tb:", "tb:a:1:1:" + "é" * 91, "tb:g:1:1",
]


async def test_forged_clicks_and_selects_are_refused_politely(fake_discord, bot_process):
    table = Table(fake_discord, two_players(fake_discord), "barricade")
    board = await table.open()
    player = table.to_act(board)
    before = stored(bot_process.database)
    refusal = said("controls.error.unknown", player)

    answers = [await fake_discord.forge_click(player, board, custom_id=custom_id) for custom_id in FORGED_CLICKS]
    roll = next(cid for cid in board.custom_ids if cid.endswith(":roll"))
    answers.append(await fake_discord.forge_select(player, board, roll, ["roll"]))   # a button sent as a select
    answers.append(await fake_discord.forge_select(player, board, "tb:s:1:1", ["not-an-option"]))
    for answer in answers:
        assert answer.ack_seconds < 3 and answer.ephemeral and answer.content == refusal, answer.describe()
    assert not fake_discord.unanswered() and stored(bot_process.database) == before

    # A select of pieces or moves offered by the bot, then a value it never offered in it.
    def menu():
        return next((item for item in table.board().items if item["custom_id"][:5] in ("tb:g:", "tb:s:")), None)
    await table.play_until(menu, limit=60)
    board, before = table.board(), stored(bot_process.database)
    bad = await fake_discord.forge_select(player := table.to_act(board), board, menu()["custom_id"], ["Z9"])
    assert bad.ephemeral and bad.content == said("controls.error.unknown", player)
    assert stored(bot_process.database) == before
    assert "Traceback" not in bot_process.log_tail(400)


def offer_pawn(board, custom_id: str, value: str) -> None:
    """Discord's copy of the board gets a pawn menu (custom_id) offering `value`, as a board an earlier
    release posted could: menus stay in the channel across upgrades, whatever they offer."""
    menu = next((item for item in board.items if item["custom_id"] == custom_id), None)
    if menu is None:
        menu = {"type": STRING_SELECT, "custom_id": custom_id, "options": []}
        board.components.append({"type": 1, "components": [menu]})
    menu["options"].append({"label": value, "value": value})


@pytest.mark.parametrize("game", ["parcheesi", "pariti"])
async def test_a_pawn_menu_naming_no_pawn_of_the_game_is_refused_politely(fake_discord, bot_process, game):
    """A pawn that is no pawn of the game (Parcheesi's pawn names once raised `ValueError: substring not
    found`: a traceback and no answer) is refused to the user alone; the game is unchanged."""
    table = Table(fake_discord, two_players(fake_discord), game)
    board = await table.open()
    if game == "parcheesi":   # its first board has no pawn menu: one for its game and version
        menu = f"tb:g:{ACTION_ID.match(board.custom_ids[0])[1]}:{board_version(board)}"
    else:
        menu = next(item["custom_id"] for item in board.items if item["custom_id"].startswith("tb:g:"))
    offer_pawn(board, menu, "Z9")
    before, player = stored(bot_process.database), table.to_act(board)

    answer = await fake_discord.select(player, board, menu, ["Z9"])
    assert answer.ack_seconds < 3 and answer.ephemeral and answer.content == said("controls.error.unknown", player)
    assert stored(bot_process.database) == before
    assert "Traceback" not in bot_process.log_tail(400)
