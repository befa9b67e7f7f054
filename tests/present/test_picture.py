"""The board picture as the bot and the terminal ask for it (bot/present/picture.py)."""
import io

from PIL import Image

from bot.games import get_ruleset
from bot.present.picture import picture, players_of
from bot.services import Sessions
from renderer import cross68, layout
from renderer.colours import TRACE
from renderer.cross68.geometry import FADED
from renderer.cross68.traces import recent_move
from tests.game_logs import play

PARCHEESI = get_ruleset("parcheesi")


async def test_the_board_traces_every_move_since_the_player_to_move_last_played(store):
    """Three players: the board that pings one shows both others' moves, numbered (not only the last)."""
    record, _ = await play(store, "parcheesi", players=(1, 2, 3), max_actions=45)
    positions = (await Sessions(store).timelines.since_turn(record)).positions
    moves = cross68.moves(PARCHEESI, positions)
    assert len(moves) >= 2
    image = Image.open(io.BytesIO(picture(record, traced=positions))).convert("RGB")
    # The plan of that very picture: the players' names take room that badges keep clear of.
    badges = layout(PARCHEESI, PARCHEESI.from_json(record.state), players_of(record, record.locale),
                    record.locale, traced=positions).of("badge")
    assert [b.ref for b in badges] == [str(i + 1) for i in range(len(moves))]
    for index, (x0, y0, x1, y1) in enumerate(b.box for b in badges):
        xy = round(x0 + (x1 - x0) * 0.2), round((y0 + y1) / 2)
        colour = TRACE if recent_move(index, len(badges)) else FADED   # the last moves lead, older ones pale
        assert all(abs(a - b) < 30 for a, b in zip(image.getpixel(xy), colour)), (index, xy)
