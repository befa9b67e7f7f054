"""Drawing helpers shared by every board family: fonts, colours, the player
legend, dice, and the palette PNG encoding (design.md principle 6)."""
from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parents[1] / "data" / "fonts"

# Piece colours by colour id (bot.games rulesets name colours with these ids).
PIECE_RGB: dict[str, tuple[int, int, int]] = {
    "yellow": (242, 193, 24),
    "blue": (36, 110, 214),
    "red": (214, 48, 49),
    "green": (32, 150, 72),
    "white": (245, 245, 240),
    "black": (30, 30, 34),
}
INK = (28, 28, 32)
PAPER = (250, 247, 240)
HIGHLIGHT = (255, 0, 200)


@dataclass(frozen=True)
class PlayerTag:
    """A seat as the legend shows it."""

    name: str
    colours: tuple[str, ...]
    to_move: bool = False


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def fit_text(draw: ImageDraw.ImageDraw, text: str, width: int, size: int, bold: bool = False) -> str:
    """`text` shortened with an ellipsis so that it fits in `width` pixels."""
    f = font(size, bold)
    if draw.textlength(text, font=f) <= width:
        return text
    while text and draw.textlength(text + "…", font=f) > width:
        text = text[:-1]
    return text + "…"


def draw_die(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], value: int, spent: bool = False) -> None:
    """A die face with pips; a spent die is drawn greyed out."""
    x0, y0, x1, y1 = box
    face = (200, 200, 200) if spent else (255, 255, 255)
    pip = (140, 140, 140) if spent else INK
    draw.rounded_rectangle(box, radius=(x1 - x0) // 6, fill=face, outline=INK, width=2)
    s = (x1 - x0)
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
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pip)


def draw_legend(draw: ImageDraw.ImageDraw, origin: tuple[int, int], width: int, players: list[PlayerTag], size: int = 22) -> int:
    """One line per seat: colour swatches, name, and an arrow on whoever must
    act. Returns the height used."""
    x, y = origin
    line = size + 12
    for tag in players:
        if tag.to_move:
            draw.rounded_rectangle((x, y, x + width, y + line - 2), radius=6, fill=(255, 240, 170), outline=INK)
        sx = x + 8
        for colour in tag.colours:
            draw.ellipse((sx, y + 5, sx + size, y + 5 + size), fill=PIECE_RGB[colour], outline=INK, width=2)
            sx += size + 4
        prefix = "▶ " if tag.to_move else ""
        name = fit_text(draw, prefix + tag.name, x + width - sx - 8, size, bold=tag.to_move)
        draw.text((sx + 4, y + 4), name, font=font(size, tag.to_move), fill=INK)
        y += line
    return y - origin[1]


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes. Palette images encode ~10x faster and half the size of RGB."""
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()
