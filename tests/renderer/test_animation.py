"""The animation of a game: a valid GIF, sampled frames, a bounded size."""
import io
import random

import pytest
from PIL import Image

from bot.domain import timeline
from bot.domain.positions import ruleset_of
from bot.games import get_ruleset
from bot.store import Store
from renderer.animation import FRAME_SIDE, MAX_FRAMES, STRIP, Stopped, animate, move_numbers, sample, spans
from renderer.colours import INK, TRACE
from tests.game_logs import play

NAMES = ("Ana", "Bruno", "Chloé", "Dai")


def test_sampling_keeps_the_ends_and_the_cap():
    assert sample(5, 10) == [0, 1, 2, 3, 4]
    picked = sample(1000, 40)
    assert picked[0] == 0 and picked[-1] == 999 and len(picked) == 40 and picked == sorted(set(picked))


@pytest.mark.parametrize("game", ["parcheesi", "pariti"])
async def test_the_animation_is_an_animated_gif_of_the_game(tmp_path, game):
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    record, actions = await play(store, game, max_actions=60, resign=1)
    await store.close()
    ruleset = ruleset_of(record)
    states = [timeline.setup(ruleset, record)] + [s.after for s in timeline.steps(ruleset, record, actions)]
    colours = ruleset.seat_colours(len(record.seats), record.options)
    data = animate(ruleset, states, ["ann", "bob"], colours, max_frames=12)
    image = Image.open(io.BytesIO(data))
    assert data.startswith(b"GIF89a") and image.is_animated and image.n_frames == 12
    assert max(image.size) == FRAME_SIDE
    image.seek(image.n_frames - 1)
    assert len(image.convert("RGB").resize((64, 64)).getcolors(4096)) > 8, "the last frame is blank"


async def test_the_animation_draws_fewer_frames_to_fit_the_size_bound(tmp_path):
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    record, actions = await play(store, "parcheesi", max_actions=40, resign=1)
    await store.close()
    ruleset = ruleset_of(record)
    states = [timeline.setup(ruleset, record)] + [s.after for s in timeline.steps(ruleset, record, actions)]
    colours = ruleset.seat_colours(2, {})
    data = animate(ruleset, states, ["ann", "bob"], colours, max_frames=16, max_bytes=100_000)
    frames = Image.open(io.BytesIO(data)).n_frames
    assert len(data) <= 100_000 and 2 <= frames < 16


def whole_game(game: str, players: int, seed: int) -> tuple:
    """A game of seeded random actions played to its end: its ruleset and every position."""
    ruleset = get_ruleset(game)
    state, rng = ruleset.new_game(players, {}, seed), random.Random(seed)
    states = [state]
    while ruleset.result(state) is None:
        action = ruleset.random_roll(state, rng) if ruleset.roll_due(state) else \
            rng.choice(ruleset.legal_actions(state))
        state = ruleset.apply(state, action).state
        states.append(state)
    return ruleset, states


def frames_of(data: bytes) -> list[Image.Image]:
    image = Image.open(io.BytesIO(data))
    found = []
    for i in range(image.n_frames):
        image.seek(i)
        found.append(image.convert("RGB"))
    return found


def test_the_animation_stops_before_the_next_frame_once_asked_to():
    """A process that stops does not wait for the seconds of a long animation (bot/cogs/messages/announcer.py)."""
    ruleset, states = whole_game("parcheesi", 2, 11)
    asked = []

    def stop() -> bool:
        asked.append(len(asked))
        return len(asked) > 3

    with pytest.raises(Stopped):
        animate(ruleset, states[:30], NAMES[:2], ruleset.seat_colours(2, {}), stop=stop)
    assert asked == [0, 1, 2, 3]                   # asked before each frame: three drawn, then none


def test_a_whole_four_player_parcheesi_animation_stays_under_one_and_a_half_megabytes():
    """Each frame stores what changed, not the whole board again (3.8 MB before)."""
    ruleset, states = whole_game("parcheesi", 4, 11)
    data = animate(ruleset, states, NAMES, ruleset.seat_colours(4, {}))
    assert len(states) > 400 and Image.open(io.BytesIO(data)).n_frames == MAX_FRAMES
    assert len(data) < 1_500_000


def test_the_animation_keeps_the_trace_colour_exact_and_traces_the_moves_between_frames():
    """The palette is the board's own (the trace turned into red's colour before)."""
    ruleset, states = whole_game("parcheesi", 4, 11)
    frames = frames_of(animate(ruleset, states[:120], NAMES, ruleset.seat_colours(4, {}), max_frames=8))
    assert all(TRACE in set(f.get_flattened_data()) for f in frames[1:]), \
        "each frame traces the moves since the one before"
    first = Image.open(io.BytesIO(animate(ruleset, states[:120], NAMES, ruleset.seat_colours(4, {}), max_frames=8)))
    assert TRACE in {tuple(first.getpalette()[i:i + 3]) for i in range(0, 768, 3)}


def test_the_animation_counts_the_moves_under_the_board():
    """"Move 3 of 7" under the board, rolls of the dice not counted."""
    ruleset, states = whole_game("parcheesi", 4, 11)
    numbers = move_numbers(ruleset, states[:20])
    assert numbers[0] == 0 and numbers == sorted(numbers) and \
        numbers[-1] == sum(not ruleset.roll_due(s) for s in states[:19])
    frames = frames_of(animate(ruleset, states[:20], NAMES, ruleset.seat_colours(4, {}), "fr", max_frames=4))
    strips = [f.crop((0, f.height - STRIP, f.width, f.height)) for f in frames]
    assert all(INK in set(s.get_flattened_data()) for s in strips)
    assert len({s.tobytes() for s in strips}) == len(strips), "the counter changes from frame to frame"



def test_each_frame_traces_every_move_since_the_frame_before():
    """A long game's frames traced the last 8 actions of each gap, most moves unseen: the
    frames' spans follow on from one another, from the set-up to the end."""
    for count, limit in ((5, 80), (1933, 80), (400, 12)):
        found = spans(count, limit)
        assert found[0] == (0, 0) and found[-1][1] == count - 1 and len(found) == min(count, limit)
        assert all(a[1] == b[0] for a, b in zip(found, found[1:]))


def test_a_whole_barricade_animation_traces_every_move_within_one_and_a_half_megabytes(monkeypatch):
    """The longest animations (Barricade, four players: 2,000 actions, as in a reported
    game of 1,933) trace every move and stay within 1.5 MB."""
    import renderer.animation as animation
    ruleset, states = whole_game("barricade", 4, 6)
    states = states[:2000]
    traced = []
    real = animation.frame

    def frame(ruleset, span, *args):
        traced.append((span[0], span[-1]))
        return real(ruleset, span, *args)

    monkeypatch.setattr(animation, "frame", frame)
    data = animate(ruleset, states, NAMES, ruleset.seat_colours(4, {}))
    assert len(data) <= 1_500_000
    last = traced[-Image.open(io.BytesIO(data)).n_frames:]   # the frames of the file kept
    assert last[0][0] is states[0] and last[-1][1] is states[-1]
    index = {id(s): i for i, s in enumerate(states)}
    assert all(index[id(a[1])] == index[id(b[0])] for a, b in zip(last, last[1:]))
