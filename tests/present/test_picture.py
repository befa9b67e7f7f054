"""The board picture as the bot and the terminal ask for it (bot/present/picture.py)."""
import io

from PIL import Image

from bot.games import get_ruleset
from bot.present.picture import picture
from bot.services import Sessions
from renderer import cross68, layout
from renderer.colours import TRACE
from tests.game_logs import play

PARCHEESI = get_ruleset("parcheesi")


async def test_the_board_traces_every_move_since_the_player_to_move_last_played(store):
    """Three players: the board that pings one shows both others' moves, numbered (not only the last)."""
    record, _ = await play(store, "parcheesi", players=(1, 2, 3), max_actions=45)
    positions = (await Sessions(store).timelines.since_turn(record)).positions
    moves = cross68.moves(PARCHEESI, positions)
    assert len(moves) >= 2
    image = Image.open(io.BytesIO(picture(record, traced=positions))).convert("RGB")
    badges = layout(PARCHEESI, PARCHEESI.from_json(record.state), [], traced=positions).of("badge")
    assert [b.ref for b in badges] == [str(i + 1) for i in range(len(moves))]
    for x0, y0, x1, y1 in (b.box for b in badges):
        xy = round(x0 + (x1 - x0) * 0.2), round((y0 + y1) / 2)
        assert all(abs(a - b) < 30 for a, b in zip(image.getpixel(xy), TRACE)), xy
