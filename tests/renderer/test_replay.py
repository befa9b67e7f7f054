"""The animated replay: a valid GIF, sampled frames, a bounded size."""
import io

import pytest
from PIL import Image

from bot import history
from bot.services import ruleset_of
from bot.store import Store
from renderer.replay import FRAME_SIDE, animate, sample
from tests.game_logs import play


def test_sampling_keeps_the_ends_and_the_cap():
    assert sample(5, 10) == [0, 1, 2, 3, 4]
    picked = sample(1000, 40)
    assert picked[0] == 0 and picked[-1] == 999 and len(picked) == 40 and picked == sorted(set(picked))


@pytest.mark.parametrize("game", ["parcheesi", "pariti"])
async def test_replay_is_an_animated_gif_of_the_game(tmp_path, game):
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    record, actions = await play(store, game, max_actions=60, resign=1)
    await store.close()
    ruleset = ruleset_of(record)
    states = [history.initial_state(ruleset, record)] + [s.after for s in history.replay(ruleset, record, actions)]
    colours = ruleset.seat_colours(len(record.seats), record.options)
    data = animate(ruleset, states, ["ann", "bob"], colours, max_frames=12)
    image = Image.open(io.BytesIO(data))
    assert data.startswith(b"GIF89a") and image.is_animated and image.n_frames == 12
    assert max(image.size) == FRAME_SIDE
    image.seek(image.n_frames - 1)
    assert len(image.convert("RGB").resize((64, 64)).getcolors(4096)) > 8, "the last frame is blank"


async def test_replay_drops_frames_to_fit_the_size_bound(tmp_path):
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    record, actions = await play(store, "parcheesi", max_actions=40, resign=1)
    await store.close()
    ruleset = ruleset_of(record)
    states = [history.initial_state(ruleset, record)] + [s.after for s in history.replay(ruleset, record, actions)]
    colours = ruleset.seat_colours(2, {})
    data = animate(ruleset, states, ["ann", "bob"], colours, max_frames=16, max_bytes=200_000)
    frames = Image.open(io.BytesIO(data)).n_frames
    assert len(data) <= 200_000 and 2 <= frames < 16
