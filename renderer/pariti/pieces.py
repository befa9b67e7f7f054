"""Pariti's pieces: a single piece, and a pair (one disc, half blue and half pink)."""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.pariti import (
    colour_of,
    is_pair,
    number_of,
)
from renderer.colours import INK, RGB, WHITE
from renderer.fonts import font
from renderer.pariti.geometry import (
    PAIR_RING,
    PIECE,
    PIECE_FILL,
    PINK,
)
from renderer.sprites import SUPERSAMPLE, disc_sprite


@lru_cache(maxsize=64)
def pair_sprite(number: int, diameter: int, ring: RGB | None = None, ring_width: int = 0) -> Image.Image:
    """A pair: one disc, its left half blue and its right half pink, in a gold
    band (it never moves again), with the number outlined to read on both;
    `ring` as for disc_sprite."""
    k = SUPERSAMPLE
    d = (diameter + 2 * ring_width) * k
    big = Image.new("RGBA", (d, d), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    if ring:
        draw.ellipse((0, 0, d - 1, d - 1), fill=ring)
    o, band = ring_width * k, max(3, diameter // 12) * k
    draw.ellipse((o, o, d - 1 - o, d - 1 - o), fill=PAIR_RING, outline=INK, width=max(1, diameter // 40) * k)
    inner = (o + band, o + band, d - 1 - o - band, d - 1 - o - band)
    draw.pieslice(inner, 90, 270, fill=PIECE_FILL[0])
    draw.pieslice(inner, 270, 90, fill=PINK)
    size = int(diameter * (0.54 if number < 10 else 0.46)) * k
    draw.text((d / 2, d / 2), str(number), font=font(size, True), fill=WHITE, anchor="mm",
              stroke_width=max(2, diameter // 22) * k, stroke_fill=INK)
    return big.reduce(k)


def piece_sprite(code: int, ring: RGB | None = None) -> Image.Image:
    """A single piece or, for a pair's code, the pair; `ring` circles it."""
    width = 5 if ring else 0
    if is_pair(code):
        return pair_sprite(number_of(code), PIECE, ring, width)
    return disc_sprite(PIECE_FILL[colour_of(code)], PIECE, str(number_of(code)), ring, width)
