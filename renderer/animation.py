"""The animation of a whole game: an animated GIF of sampled positions.

Each frame is a board as the messages show it (render_png). It traces every move made since the frame
before it, so that no move goes unseen however long the game (once, 80 frames of 1,933 Barricade
actions traced 8 actions each, most moves skipped). A frame's longest side is FRAME_SIDE pixels, with a
move counter under the board.

Every frame is mapped, without dithering, onto the board family's fixed palette, so the trace and choice
colours stay exact. Each frame after the first keeps only the pixels that changed; the others are
transparent (one palette index is kept for it). So the file stores what moved, not the whole board again.
Long games are sampled evenly down to MAX_FRAMES; a file over MAX_BYTES is drawn again with fewer frames,
each tracing the longer stretch since the one before (never a frame dropped, with the moves it traced).
CPU-bound: call it off the event loop. Seconds of it for a long game: `stop`, asked before each frame, ends it
early (Stopped), so that a process stopping does not wait for it.
"""
from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import TypeVar

from PIL import Image, ImageChops

from bot.domain import i18n
from bot.games.base import Ruleset
from renderer import PlayerTag, render_png
from renderer.colours import INK, PAPER
from renderer.fonts import readable_size
from renderer.writing import draw_text

S = TypeVar("S")   # the game's state

FRAME_SIDE = 512
MAX_FRAMES = 80
MAX_BYTES = 1_500_000          # a long game's animation; Discord accepts 10 MiB per upload without boost
FRAME_MS = 500
FIRST_MS = 1500
LAST_MS = 4000
CLEAR = 255                    # the palette index of a pixel unchanged since the frame before
COUNTER_SIZE = readable_size(1024) * FRAME_SIDE // 1024 + 3   # the counter's text, readable at chat size
STRIP = COUNTER_SIZE * 2       # the band under the board holding it


class Stopped(Exception):
    """The drawing was asked to stop (`animate`'s `stop`): no animation."""


def _never() -> bool:
    return False


def sample(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """At most `limit` indices among range(count), evenly spread, always the first and the last."""
    if count <= limit:
        return list(range(count))
    if limit < 2:
        return [count - 1]
    return sorted({round(i * (count - 1) / (limit - 1)) for i in range(limit)})


def spans(count: int, limit: int = MAX_FRAMES) -> list[tuple[int, int]]:
    """The frames of an animation of `count` positions: (first, last) index of the positions each one traces,
    each from the position the frame before shows to its own (sample's), so that every move is traced once."""
    picked = sample(count, limit)
    return [(before, index) for before, index in zip([0, *picked], picked)]


def move_numbers(ruleset: Ruleset[S], states: Sequence[S]) -> list[int]:
    """For each position, how many moves led to it (a roll of the dice is not a move)."""
    numbers = [0]
    for state in states[:-1]:
        numbers.append(numbers[-1] + (not ruleset.roll_due(state)))
    return numbers


def frame(ruleset: Ruleset[S], states: Sequence[S], names: Sequence[str], colours: Sequence[tuple[str, ...]],
          locale: str, counter: str) -> tuple[Image.Image, Image.Image]:
    """The last of `states` with the moves along them traced, reduced, the `counter` under it, in full
    colour; and the palette render_png drew it with."""
    state = states[-1]
    to_move = ruleset.to_move(state)
    players = [PlayerTag(name, tuple(colours[i]), to_move == i) for i, name in enumerate(names)]
    png = Image.open(io.BytesIO(render_png(ruleset, state, players, locale, traced=states)))
    scale = min(1.0, (FRAME_SIDE - STRIP) / png.height, FRAME_SIDE / png.width)
    board = png.convert("RGB")
    if scale < 1:
        board = board.resize((round(png.width * scale), round(png.height * scale)), Image.Resampling.LANCZOS,
                             reducing_gap=2.0)
    picture = Image.new("RGB", (board.width, board.height + STRIP), PAPER)
    picture.paste(board)
    draw_text(picture, (board.width / 2, board.height + STRIP / 2), counter, COUNTER_SIZE, True, INK, "mm")
    return picture, png


def fixed_palette(png: Image.Image) -> Image.Image:
    """The palette of a picture render_png drew (a "P" PNG), its last index kept for CLEAR."""
    flat = png.getpalette() or []
    colours = list(dict.fromkeys(tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)))[:CLEAR]
    values = [v for c in colours for v in c]
    image = Image.new("P", (1, 1))
    image.putpalette(values + values[:3] * (256 - len(colours)))
    image.info["colours"] = len(colours)
    return image


def animate(ruleset: Ruleset[S], states: Sequence[S], names: Sequence[str], colours: Sequence[tuple[str, ...]],
            locale: str = "en", max_frames: int = MAX_FRAMES, max_bytes: int = MAX_BYTES,
            stop: Callable[[], bool] = _never) -> bytes:
    """The GIF of `states` (the set-up first, the final position last); Stopped once `stop()` says so."""
    numbers = move_numbers(ruleset, states)
    limit = max_frames
    while True:
        data = _encode(_frames(ruleset, states, names, colours, locale, spans(len(states), limit), numbers, stop))
        if len(data) <= max_bytes or limit <= 2:
            return data
        limit = max(2, min(limit - 1, int(limit * max_bytes / len(data) * 0.9)))


def _frames(ruleset: Ruleset[S], states: Sequence[S], names: Sequence[str], colours: Sequence[tuple[str, ...]],
            locale: str, frames: list[tuple[int, int]], numbers: list[int], stop: Callable[[], bool]
            ) -> list[Image.Image]:
    """The frames of `frames` (spans), in the palette of the first."""
    total, found, palette = numbers[-1], [], None
    for before, index in frames:
        if stop():
            raise Stopped
        counter = (i18n.text("animation.counter", locale, number=numbers[index], total=total) if numbers[index]
                   else i18n.text("animation.start", locale, count=total))
        picture, png = frame(ruleset, states[before:index + 1], names, colours, locale, counter)
        palette = palette or fixed_palette(png)
        # Nothing maps onto the padding of the palette (CLEAR and its like): a repeat of its first colour.
        found.append(picture.quantize(palette=palette, dither=Image.Dither.NONE)
                     .point(lambda i, colours=palette.info["colours"]: i if i < colours else 0))
    return found


def _changes(frames: list[Image.Image]) -> list[Image.Image]:
    """Each frame after the first with the pixels the frame before already shows made CLEAR."""
    out = [frames[0]]
    for before, after in zip(frames, frames[1:]):
        delta = ImageChops.difference(_indices(before), _indices(after))
        kept = after.copy()
        kept.paste(CLEAR, mask=delta.point([255] + [0] * 255, "1"))
        out.append(kept)
    return out


def _indices(image: Image.Image) -> Image.Image:
    """A palette image's indices as a grey image (to compare two frames index by index)."""
    return Image.frombytes("L", image.size, image.tobytes())


def _encode(frames: list[Image.Image]) -> bytes:
    durations = [FRAME_MS] * len(frames)
    durations[0] = FIRST_MS
    durations[-1] = LAST_MS
    out = io.BytesIO()
    changes = _changes(frames)
    changes[0].save(out, format="GIF", save_all=True, append_images=changes[1:], duration=durations, loop=0,
                    optimize=False, disposal=1, transparency=CLEAR)
    return out.getvalue()
