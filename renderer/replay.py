"""The animated replay of a whole game: an animated GIF of sampled positions.

Frames come from the same renderers as the board messages (render_png),
reduced to about FRAME_SIDE pixels and mapped onto the first frame's palette
(every board family draws with one fixed palette), so the GIF needs no
dithering and Pillow stores only what changed between frames. Long games are
sampled evenly down to MAX_FRAMES; the file is kept under MAX_BYTES by
dropping frames. CPU-bound: call it off the event loop.
"""
from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image

from bot.games.base import Ruleset
from renderer import PlayerTag, render_png

FRAME_SIDE = 512
MAX_FRAMES = 80
MAX_BYTES = 8_000_000          # Discord accepts 10 MiB per upload without boost
FRAME_MS = 500
FIRST_MS = 1500
LAST_MS = 4000


def sample(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """At most `limit` indices among range(count), evenly spread, always the first and the last."""
    if count <= limit:
        return list(range(count))
    if limit < 2:
        return [count - 1]
    return sorted({round(i * (count - 1) / (limit - 1)) for i in range(limit)})


def frame(ruleset: Ruleset, state: Any, names: Sequence[str], colours: Sequence[tuple[str, ...]],
          locale: str) -> Image.Image:
    """One position, reduced to FRAME_SIDE, in full colour."""
    to_move = ruleset.to_move(state)
    players = [PlayerTag(name, tuple(colours[i]), to_move == i) for i, name in enumerate(names)]
    picture = Image.open(io.BytesIO(render_png(ruleset, state, players, locale))).convert("RGB")
    scale = FRAME_SIDE / max(picture.size)
    if scale < 1:
        size = (round(picture.width * scale), round(picture.height * scale))
        picture = picture.resize(size, Image.Resampling.LANCZOS, reducing_gap=2.0)
    return picture


def animate(ruleset: Ruleset, states: Sequence[Any], names: Sequence[str], colours: Sequence[tuple[str, ...]],
            locale: str = "en", max_frames: int = MAX_FRAMES, max_bytes: int = MAX_BYTES) -> bytes:
    """The GIF of `states` (the set-up first, the final position last)."""
    picked = [states[i] for i in sample(len(states), max_frames)]
    frames = [frame(ruleset, state, names, colours, locale) for state in picked]
    palette = frames[0].quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    indexed = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    while True:
        data = _encode(indexed)
        if len(data) <= max_bytes or len(indexed) <= 2:
            return data
        indexed = [indexed[i] for i in sample(len(indexed), len(indexed) // 2)]


def _encode(frames: list[Image.Image]) -> bytes:
    durations = [FRAME_MS] * len(frames)
    durations[0] = FIRST_MS
    durations[-1] = LAST_MS
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   optimize=False, disposal=1)
    return out.getvalue()
