"""Dice and pieces: shapes drawn on any RGB ImageDraw, and cached antialiased RGBA sprites of them."""
from __future__ import annotations

import math
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from renderer.colours import DIE_SPENT, INK, PIP_SPENT, RGB, WHITE, Box, ink_on
from renderer.fonts import font, pixel_box

SUPERSAMPLE = 4   # sprites are drawn this many times larger, then reduced (antialiasing)


def draw_die(draw: ImageDraw.ImageDraw, box: Box, value: int, spent: bool = False) -> None:
    """A die face with pips; a spent die is drawn greyed out."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    draw.rounded_rectangle(box, radius=s // 6, fill=DIE_SPENT if spent else WHITE, outline=INK, width=max(2, s // 24))
    r = max(2, s // 10)
    spots = {
        1: [(0.5, 0.5)],
        2: [(0.25, 0.25), (0.75, 0.75)],
        3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
        5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
        6: [(0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)],
    }[value]
    for fx, fy in spots:
        cx, cy = x0 + fx * s, y0 + fy * s
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PIP_SPENT if spent else INK)


def shape_points(shape: str, box: tuple[float, float, float, float]) -> list[tuple[float, float]]:
    """The corners of a polygon `shape` (diamond, hexagon) filling `box`."""
    x0, y0, x1, y1 = box
    cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
    if shape == "diamond":
        return [(cx, y0), (x1, cy), (cx, y1), (x0, cy)]
    return [(cx + rx * math.sin(a), cy - ry * math.cos(a)) for a in (i * math.pi / 3 for i in range(6))]   # pointy top


def draw_shape(draw: ImageDraw.ImageDraw, shape: str, box: tuple[float, float, float, float], fill: RGB | None = None,
               outline: RGB | None = None, width: int = 0) -> None:
    """A colour's shape (see SHAPES) filling `box`: circle, rounded square, diamond or hexagon."""
    if shape == "circle":
        draw.ellipse(box, fill=fill, outline=outline, width=width)
    elif shape == "square":
        draw.rounded_rectangle(box, radius=(box[2] - box[0]) * 0.16, fill=fill, outline=outline, width=width)
    else:
        draw.polygon(shape_points(shape, box), fill=fill, outline=outline, width=width)


# --- sprites: cached, antialiased RGBA -----------------------------------------

def _reduce(big: Image.Image) -> Image.Image:
    return big.reduce(SUPERSAMPLE)


# How much larger than a disc each shape is drawn, so that a label of the same size fits in it.
_SHAPE_SCALE = {"circle": 1.0, "square": 0.94, "diamond": 1.3, "hexagon": 1.06}


def label_size(diameter: int, label: str) -> int:
    """The font size of a piece's label (see disc_sprite)."""
    return int(diameter * (0.74 if len(label) == 1 else 0.5 if len(label) == 2 else 0.44))


@cache
def label_reach(diameter: int, label: str, horizontal: bool) -> int:
    """How far a piece's label reaches from the piece's centre, horizontally or vertically."""
    left, top, right, bottom = pixel_box(font(label_size(diameter, label), True), label, anchor="mm")
    return max(-left, right) if horizontal else max(-top, bottom)


def piece_reach(shape: str, diameter: int, horizontal: bool) -> float:
    """How far a piece's body (its halo included) reaches from its centre, horizontally or
    vertically (see disc_sprite: a hexagon has a point up, flat sides left and right)."""
    reach = diameter * _SHAPE_SCALE[shape] / 2
    return reach * math.cos(math.pi / 6) if shape == "hexagon" and horizontal else reach


@lru_cache(maxsize=512)
def disc_sprite(fill: RGB, diameter: int, label: str = "", ring: RGB | None = None, ring_width: int = 0,
                shape: str = "circle", text: int = 0) -> Image.Image:
    """A piece: a `shape` (SHAPES) of `fill`, `diameter` px for a disc (other shapes are scaled to hold
    the same label), with an ink outline inside a thin white halo (so that it stands out on a square
    of its own colour) and an optional centred label; `ring` draws a highlight of `ring_width` px
    around it (the sprite then grows by 2 * ring_width); `text`, when given, is the label's font
    size (else label_size)."""
    k = SUPERSAMPLE
    body = round(diameter * _SHAPE_SCALE[shape])
    side = (body + 2 * ring_width) * k
    big = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)

    def outline_of(inset: float, colour: RGB) -> None:
        # Polygons shrink by more than `inset` at their corners: a larger inset keeps the rims even.
        grow = 1.0 if shape in ("circle", "square") else 1.2 if shape == "hexagon" else 1.6
        draw_shape(draw, shape, (inset * grow, inset * grow, side - 1 - inset * grow, side - 1 - inset * grow), colour)

    if ring:
        draw.ellipse((0, 0, side - 1, side - 1), fill=ring) if shape == "circle" else outline_of(0, ring)
    halo, outline = max(1.0, diameter / 24) * k, max(2.0, diameter / 16) * k
    outline_of(ring_width * k, WHITE)
    outline_of(ring_width * k + halo, INK)
    outline_of(ring_width * k + halo + outline, fill)
    if label:
        draw.text(
            (side / 2, side / 2),
            label,
            font=font((text or label_size(diameter, label)) * k, True),
            fill=ink_on(fill),
            anchor="mm",
        )
    return _reduce(big)


@lru_cache(maxsize=256)
def label_sprite(
    text: str, size: int, bold: bool, fill: RGB, anchor: str, halo: RGB | None
) -> tuple[Image.Image, int, int]:
    """`text` on a transparent sprite, optionally haloed (3 px), and the offset
    of its top left corner from the anchor point (PIL anchor names). Only
    for texts from a small set (counters, square names): names and
    sentences are drawn with Sheet.text, so that this cache stays small."""
    f, stroke = font(size, bold), 3 if halo else 0
    left, top, right, bottom = pixel_box(f, text, anchor=anchor, stroke_width=stroke)
    image = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
    ImageDraw.Draw(image).text(
        (-left, -top), text, font=f, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=halo
    )
    return image, left, top


@lru_cache(maxsize=64)
def die_sprite(value: int, size: int, spent: bool = False) -> Image.Image:
    """An antialiased die face (see draw_die) as an RGBA sprite."""
    k = SUPERSAMPLE
    big = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    draw_die(ImageDraw.Draw(big), (0, 0, size * k - 1, size * k - 1), value, spent)
    return _reduce(big)
