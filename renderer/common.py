"""Drawing helpers shared by every board family: fonts, colours, the player
legend, dice, piece sprites, and the cached-board / palette-PNG machinery that
keeps a picture cheap: the static board drawn once, each move pasted over a copy.

How a renderer uses them:
1. draw its static board once per size in full colour (RGB) and wrap it in a
   `StaticBoard` with a fixed palette (`make_palette`) that holds every
   colour its pieces and highlights need, including their antialiasing ramps;
2. per move, open a `Sheet` on it: a copy of the palette picture. Shapes
   (`sheet.draw`: rectangles, ellipses, lines in palette colours, which PIL
   draws without antialiasing anyway) go straight onto it; cached RGBA
   sprites (`disc_sprite`, `die_sprite`) on a plain ground are pasted in
   palette form, blended once over its colour; text, arrows and sprites
   over mixed grounds, antialiased over whatever lies under them, are drawn
   in full colour on a copy of their small region and converted back;
3. `encode_png(sheet.finish())`: a palette PNG encodes ~10x faster than an
   RGB one.

Nothing here is cached by player name or by sentence: names and notes are
drawn afresh on each picture (cheap next to the PNG encoding), so that the
process does not grow with the number of games.
"""
from __future__ import annotations

import math
import re
import struct
import unicodedata
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import as_file
from itertools import chain
from pathlib import Path

from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont

from bot.core.data_files import data_file
from bot.domain import i18n
from bot.domain.names import graphemes
from bot.games.base import Result
from renderer import writing
from renderer.writing import FSI, PDI, isolate

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

# Piece colours by colour id (bot.games rulesets name colours with these ids).
PIECE_RGB: dict[str, RGB] = {
    "yellow": (242, 193, 24),
    "blue": (36, 110, 214),
    "red": (214, 48, 49),
    "green": (32, 150, 72),
    "white": (245, 245, 240),
    "black": (30, 30, 34),
}
# A second cue per colour, which survives colour blindness (red and green look alike under
# deuteranopia and protanopia, blue and green under tritanopia): the shape of its pieces, of its
# swatch in the legend and of its marks on the board.
SHAPES: dict[str, str] = {"yellow": "circle", "blue": "square", "red": "diamond", "green": "hexagon"}
# Readable at chat size: Discord shows a board about 400 px wide on a phone, where text must be at
# least 9 px high; on the 1024-px picture that is DIGIT_HEIGHT px of digit (cap height).
CHAT_WIDTH, CHAT_TEXT = 400, 9
INK = (28, 28, 32)
PAPER = (250, 247, 240)
# The moves traced since a player's last turn, and what a player is choosing (a piece, where it can
# go): colours no player has, apart from every player's colour (and from each other) under
# deuteranopia, protanopia and tritanopia (tests/renderer/test_colour_blindness.py). Four saturated
# player colours leave few hues free: the trace is a deep purple, darker than every player's colour;
# the choice a vivid violet, lighter, which keeps its hue under every simulation (a muted plum turned
# grey under deuteranopia and protanopia, and read as disabled).
TRACE = (60, 0, 90)
CHOICE = (165, 0, 255)
WHITE = (255, 255, 255)
DIE_SPENT = (200, 200, 200)
PIP_SPENT = (140, 140, 140)
TO_MOVE_BAND = (255, 240, 170)

SUPERSAMPLE = 4   # sprites are drawn this many times larger, then reduced (antialiasing)


@dataclass(frozen=True)
class PlayerTag:
    """A seat as the legend shows it."""

    name: str
    colours: tuple[str, ...]
    to_move: bool = False


def shape_of(colour: str) -> str:
    return SHAPES.get(colour, "circle")


def min_text_height(width: int) -> float:
    """The height text needs on a picture `width` px wide to be CHAT_TEXT px high at CHAT_WIDTH."""
    return CHAT_TEXT * width / CHAT_WIDTH


def pixel_box(f: ImageFont.FreeTypeFont, text: str, anchor: str | None = None,
              stroke_width: float = 0, direction: str | None = None) -> tuple[int, int, int, int]:
    """f.getbbox: FreeType's box is in whole pixels, though Pillow types it as floats (were one not, the box
    is rounded outwards)."""
    left, top, right, bottom = f.getbbox(text, anchor=anchor, stroke_width=stroke_width, direction=direction)
    return math.floor(left), math.floor(top), math.ceil(right), math.ceil(bottom)


@cache
def digit_height(size: int, bold: bool = True) -> int:
    """The height of a digit drawn at font `size` (what chat-size legibility is measured on)."""
    left, top, right, bottom = pixel_box(font(size, bold), "0123456789", anchor="ls")
    return -top


@cache
def readable_size(width: int, bold: bool = True) -> int:
    """The smallest font size whose digits are readable at chat size on a picture `width` px wide."""
    size = 8
    while digit_height(size, bold) < min_text_height(width):
        size += 1
    return size


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped face (DejaVu Sans), first of the fallback chain (see `faces`), opened with the layout
    engine in use (renderer.writing.LAYOUT)."""
    return _font(size, bold, writing.LAYOUT)


@cache
def _font(size: int, bold: bool, layout: ImageFont.Layout) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    with as_file(data_file("fonts", name)) as path:   # a real file, even from a zipped install
        return ImageFont.truetype(str(path), size, layout_engine=layout)


# --- the fallback chain: names in any script, emoji ------------------------------
# DejaVu (shipped) covers Latin, Greek, Cyrillic and many symbols; for the rest, the fonts the system has,
# found by name under these folders (the Docker image installs Debian's fonts-noto-cjk,
# fonts-noto-color-emoji and fonts-noto-core). A character no font has is left out: never an empty box.
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts")
FALLBACK_FONTS = {
    False: ("NotoSansCJK-Regular.ttc", "NotoColorEmoji.ttf", "NotoSans-Regular.ttf", "NotoSansArabic-Regular.ttf",
            "NotoSansHebrew-Regular.ttf", "NotoSansDevanagari-Regular.ttf", "NotoSansThai-Regular.ttf"),
    True: ("NotoSansCJK-Bold.ttc", "NotoColorEmoji.ttf", "NotoSans-Bold.ttf", "NotoSansArabic-Bold.ttf",
           "NotoSansHebrew-Bold.ttf", "NotoSansDevanagari-Bold.ttf", "NotoSansThai-Bold.ttf"),
}
ISOLATION = FSI + PDI   # the marks around an isolated name (renderer.writing.isolate)
_ISOLATION_MARK = re.compile(f"([{FSI}{PDI}])")
BITMAP_SIZE = 109    # a colour emoji font (CBDT) is drawn at this size only, then scaled
_MISSING = "\U0010ffff"   # a noncharacter: every font draws its "no glyph" box for it


@cache
def _system_font(name: str) -> str | None:
    for folder in FONT_DIRS:
        found = sorted(Path(folder).rglob(name)) if Path(folder).is_dir() else []
        if found:
            return str(found[0])
    return None


@cache
def faces(bold: bool = False) -> tuple[str, ...]:
    """The fallback chain's font files, first to last: the shipped face, then those the system has."""
    with as_file(data_file("fonts", "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")) as path:
        shipped = str(path)
    return (shipped, *(p for p in map(_system_font, FALLBACK_FONTS[bold]) if p))


def face_font(path: str, size: int) -> tuple[ImageFont.FreeTypeFont, float]:
    """A face of the chain for text of `size`, and the scale its glyphs are drawn at: 1, or for a bitmap
    colour font, which has one size only, what brings its glyphs to `size`."""
    return _face_font(path, size, writing.LAYOUT)


@lru_cache(maxsize=64)
def _face_font(path: str, size: int, layout: ImageFont.Layout) -> tuple[ImageFont.FreeTypeFont, float]:
    try:
        return ImageFont.truetype(path, size, layout_engine=layout), 1.0
    except OSError:   # a bitmap colour font refuses any size but its own
        return ImageFont.truetype(path, BITMAP_SIZE, layout_engine=layout), size / 128   # 128: an emoji's height there


def _drawn(f: ImageFont.FreeTypeFont, ch: str) -> bytes:
    left, top, right, bottom = pixel_box(f, ch)
    image = Image.new("RGBA", (max(1, right), max(1, bottom)))
    ImageDraw.Draw(image).text((0, 0), ch, font=f, embedded_color=True)
    return image.tobytes()


@lru_cache(maxsize=4096)
def has_glyph(path: str, ch: str) -> bool:
    """Whether the font file `path` draws `ch` (anything but its "no glyph" box)."""
    f, _ = face_font(path, 24)
    return ch.isspace() or _drawn(f, ch) != _drawn(f, _MISSING)


def runs(text: str, bold: bool = False) -> list[tuple[str, str]]:
    """`text` cut into (font file, characters) runs, each grapheme (a letter with its marks, an emoji
    sequence) in the first face of the chain that has all its characters; where none has them all, in the
    face of its first character, without the marks that face lacks (never an empty box, and a joiner or
    a variation selector stays with its emoji); a grapheme whose first character no face has is left out."""
    out: list[tuple[str, str]] = []
    chain = faces(bold)
    for cluster in graphemes(text):
        needed = [ch for ch in cluster if not _ignorable(ch)]
        path = next((p for p in chain if all(has_glyph(p, ch) for ch in needed)), None)
        if path is None:
            path = next((p for p in chain if has_glyph(p, cluster[0])), None)
            if path is None:
                continue
            cluster = "".join(ch for ch in cluster if _ignorable(ch) or has_glyph(path, ch))
        if out and out[-1][0] == path:
            out[-1] = (path, out[-1][1] + cluster)
        else:
            out.append((path, cluster))
    return out


def _ignorable(ch: str) -> bool:
    """A joiner, a variation selector or an emoji tag: drawn as nothing of its own."""
    return ch in "\u200c\u200d" or "\ufe00" <= ch <= "\ufe0f" or "\U000e0000" <= ch <= "\U000e01ef"


def shipped(text: str) -> bool:
    """Whether the shipped face alone writes `text` (printable ASCII: the words of most pictures), known
    without asking the fallback chain."""
    return text.isascii() and text.isprintable()


def printable(text: str, bold: bool = False) -> str:
    """`text` as the pictures write it: the characters no font has left out ("Josette 🎲" without an
    emoji font reads "Josette"), or, when none is left of a word's letters, each replaced by "?" (小明
    without a CJK font reads "??", and Barricade's "3. 小明" "3. ??", never a rank without its name).
    A name's isolation marks (renderer.writing.isolate) stay."""
    first = faces(bold)[0]
    if shipped(text) or all(has_glyph(first, ch) for ch in text if ch not in ISOLATION):
        return text

    def marked(part: str) -> str:   # each character no font has written "?"
        return "".join(ch if ch in ISOLATION or any(has_glyph(p, ch) for p in faces(bold)) else "?" for ch in part)

    words = []
    for word in text.split():
        kept = "".join(part if part in ISOLATION else "".join(chunk for _, chunk in runs(part, bold))
                       for part in _ISOLATION_MARK.split(word))
        # A letter missing (not an emoji: category S) and none kept: the word is written "?"s.
        if not any(ch.isalnum() for ch in kept) and any(
            ch not in ISOLATION and not unicodedata.category(ch).startswith("S") for ch in word
        ):
            kept = marked(word)
        if kept:
            words.append(kept)
    shown = " ".join(words)
    return shown if shown.strip(ISOLATION) else marked(text)


def pieces(text: str, bold: bool = False) -> list[tuple[str, str, str | None]]:
    """`text` (printable) as it is drawn, left to right: (font file, characters, direction) pieces, its
    runs of one direction in display order (renderer.writing.visual_runs) each cut by font (`runs`); the
    direction is what raqm draws a piece with, None with the basic layout (the characters are then in
    display order already)."""
    out: list[tuple[str, str, str | None]] = []
    for chars, direction in writing.visual_runs(text):
        parts = runs(chars, bold)
        out += [(path, chunk, direction) for path, chunk in (parts[::-1] if direction == "rtl" else parts)]
    return out


def text_length(text: str, size: int, bold: bool = False) -> float:
    """The width of `text` as `draw_text` writes it."""
    if shipped(text):
        return font(size, bold).getlength(text)
    return sum(
        f.getlength(chunk, direction=direction) * scale
        for f, scale, chunk, direction in (
            (*face_font(path, size), chunk, direction) for path, chunk, direction in pieces(printable(text, bold), bold)
        )
    )


def draw_text(image: Image.Image, xy: tuple[float, float], text: str, size: int, bold: bool = False,
              fill: RGB = INK, anchor: str = "la", stroke_width: int = 0, stroke_fill: RGB | None = None) -> None:
    """`text` on an RGB(A) `image` through the fallback chain (`pieces`), placed by `anchor` as Pillow places
    it for the shipped face: each piece on the shipped face's baseline, colour emoji scaled to the text."""
    primary, draw = font(size, bold), ImageDraw.Draw(image)
    if shipped(text):   # the common case
        draw.text(xy, text, font=primary, fill=fill, anchor=anchor, stroke_width=stroke_width, stroke_fill=stroke_fill)
        return
    text = printable(text, bold)
    parts = pieces(text, bold)
    if len(parts) == 1 and parts[0][0] == faces(bold)[0]:
        draw.text(xy, parts[0][1], font=primary, fill=fill, anchor=anchor, stroke_width=stroke_width,
                  stroke_fill=stroke_fill, direction=parts[0][2])
        return
    width = text_length(text, size, bold)
    x = xy[0] - {"l": 0.0, "m": width / 2, "r": width}[anchor[0]]
    baseline = xy[1] + primary.getbbox("x", anchor=anchor)[1] - primary.getbbox("x", anchor="ls")[1]
    for path, chunk, direction in parts:
        f, scale = face_font(path, size)
        if scale == 1.0:
            draw.text((x, baseline), chunk, font=f, fill=fill, anchor="ls", stroke_width=stroke_width,
                      stroke_fill=stroke_fill, direction=direction)
        else:
            left, top, right, bottom = pixel_box(f, chunk, anchor="ls", direction=direction)
            glyphs = Image.new("RGBA", (right - left, bottom - top))
            ImageDraw.Draw(glyphs).text((-left, -top), chunk, font=f, anchor="ls", embedded_color=True,
                                        direction=direction)
            glyphs = glyphs.resize((max(1, round(glyphs.width * scale)), max(1, round(glyphs.height * scale))),
                                   Image.Resampling.LANCZOS)
            image.paste(glyphs, (round(x + left * scale), round(baseline + top * scale)), glyphs)
        x += f.getlength(chunk, direction=direction) * scale


def text_box(xy: tuple[float, float], text: str, size: int, bold: bool = False, anchor: str = "la",
             stroke_width: int = 0) -> Box:
    """A box holding `text` as `draw_text` writes it (the fallback faces' taller glyphs included)."""
    width, pad = text_length(text, size, bold), size // 2 + stroke_width
    left, top, right, bottom = font(size, bold).getbbox("Hg", anchor=anchor, stroke_width=stroke_width)
    x = xy[0] - {"l": 0.0, "m": width / 2, "r": width}[anchor[0]]
    return (math.floor(x) - pad, math.floor(xy[1] + top) - pad, math.ceil(x + width) + pad,
            math.ceil(xy[1] + bottom) + pad)


def fit_text(text: str, width: int, size: int, bold: bool = False) -> str:
    """`text` shortened with an ellipsis so that it fits in `width` pixels (characters no font has left out),
    a letter at a time (a grapheme: never an accent without its letter). A text shortened already keeps what
    follows its ellipsis: the end that tells two long names apart (bot.domain.names.short_names), its beginning
    shortened further."""
    text = printable(text, bold)
    if text_length(text, size, bold) <= width:
        return text
    head, _, tail = text.rpartition("…") if "…" in text else (text, "", "")
    letters = graphemes(head)
    while letters and text_length("".join(letters) + "…" + tail, size, bold) > width:
        letters.pop()
    return "".join(letters).rstrip() + "…" + tail


def wrap_text(text: str, width: int, size: int, max_lines: int) -> list[str]:
    """`text` cut into at most `max_lines` lines of at most `width` pixels
    (the last one shortened with an ellipsis when the text is longer)."""
    words = printable(text).split()
    # Each word measured once (not every growing line): a line's width is the sum of its words
    # and spaces (DejaVu kerns no pair with a space; fit_text still guards each line).
    space, widths = text_length(" ", size), [text_length(word, size) for word in words]
    lines: list[str] = []
    i = 0
    while i < len(words) and len(lines) < max_lines:
        line, used = words[i], widths[i]
        i += 1
        while i < len(words) and used + space + widths[i] <= width:
            line, used = f"{line} {words[i]}", used + space + widths[i]
            i += 1
        lines.append(line)
    if i < len(words):
        lines[-1] = fit_text(f"{lines[-1]} {' '.join(words[i:])}", width - 1, size)
    return [fit_text(line, width, size) for line in lines]


def ink_on(fill: RGB) -> RGB:
    """INK or WHITE, whichever reads better on `fill`."""
    r, g, b = fill
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else WHITE


# --- dice and the legend (drawn on any RGB ImageDraw) ---------------------------

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


def tag_lines(tag: PlayerTag, width: int, size: int, max_lines: int = 1) -> list[str]:
    """The lines draw_player_tag writes `tag`'s name on in a tag `width` px wide: the first beside the
    colour swatches, the others under them across the whole tag (see break_lines); shortened with an ellipsis
    only when `max_lines` lines cannot hold it. Measured in the weight drawn: bold for whoever is to move.
    A bare name is isolated (written in its own direction); a line that holds a name among our words
    (Barricade's "1. name") has it isolated already."""
    room = width - 16
    name = tag.name if FSI in tag.name else isolate(tag.name)
    return break_lines(name, [room - len(tag.colours) * (size + 4) - 4] + [room - 4] * (max_lines - 1), size,
                       tag.to_move)


def _words(text: str) -> list[str]:
    """`text` cut where a name may go on to the next line: after a space or a hyphen, and between two
    Chinese, Japanese or Korean letters (those scripts write no space between words)."""
    words: list[str] = []
    for cluster in graphemes(text):
        if (
            words
            and not words[-1].endswith((" ", "-"))
            and not (_wide_letter(words[-1][-1]) and _wide_letter(cluster[0]))
        ):
            words[-1] += cluster
        else:
            words.append(cluster)
    return words


def _wide_letter(ch: str) -> bool:
    return ch.isalpha() and unicodedata.east_asian_width(ch) in ("W", "F")


def break_lines(text: str, widths: Sequence[float], size: int, bold: bool = False) -> list[str]:
    """`text` on as few lines as hold it, the i-th at most widths[i] px wide (see tag_lines), broken only
    between words (_words): never a word cut in two over two lines ("Bartholome / w…"). A word too wide for
    the first line (beside the swatches) starts the second, wider; a word no line holds is shortened with
    "…", with what follows it, on one line, and so is what the last line cannot hold."""
    text = printable(text, bold)
    if text_length(text, size, bold) <= widths[0]:   # the common case: one line holds it
        return [text]
    words = _words(text)
    lines: list[str] = []
    for i, line_width in enumerate(widths):
        rest = "".join(words).strip()
        if i == len(widths) - 1 or text_length(rest, size, bold) <= line_width:
            return lines + [fit_text(rest, int(line_width), size, bold)]
        taken = 0
        while taken < len(words) and text_length("".join(words[:taken + 1]).rstrip(), size, bold) <= line_width:
            taken += 1
        if taken == 0:
            if widths[i + 1] > line_width:   # beside the swatches: the next line, wider, may hold more
                lines.append("")
                continue
            return lines + [fit_text(rest, int(line_width), size, bold)]
        lines.append("".join(words[:taken]).rstrip())
        words = words[taken:]
        if not words:
            return lines
    return lines


def tag_step(size: int) -> int:
    """The distance between two lines of a name: set closer than a paragraph's (line_step), one name."""
    return size + 6


def tag_height(lines: int, size: int) -> int:
    """The height of a player tag of `lines` lines (see draw_player_tag)."""
    return size + 12 + (lines - 1) * tag_step(size)


def draw_player_tag(image: Image.Image, origin: tuple[int, int], width: int, tag: PlayerTag, size: int = 22,
                    lines: Sequence[str] = ()) -> int:
    """One seat: colour swatches and name (its `lines` from tag_lines, else one line); whoever must act
    gets an ink-framed band and a bold name (both cues outlast colour blindness; a marker before the
    name would take its room). Returns the height used."""
    draw = ImageDraw.Draw(image)
    x, y = origin
    lines = lines or tag_lines(tag, width, size)
    height = tag_height(len(lines), size)
    if tag.to_move:
        draw.rounded_rectangle((x, y, x + width, y + height - 2), radius=6, fill=TO_MOVE_BAND, outline=INK,
                               width=max(2, size // 10))
    sx = x + 8
    for colour in tag.colours:
        draw_shape(draw, shape_of(colour), (sx, y + 5, sx + size, y + 5 + size), PIECE_RGB[colour], INK, 2)
        sx += size + 4
    for i, line in enumerate(lines):
        draw_text(image, ((sx if i == 0 else x + 8) + 4, y + 4 + i * tag_step(size)), line, size, tag.to_move)
    return height


def line_step(size: int) -> int:
    """The distance between two lines of text of `size` px."""
    return round(size * 1.25)


def draw_lines(image: Image.Image, origin: tuple[float, float], lines: list[str], width: int, size: int,
               fill: RGB = INK) -> int:
    """`lines` (e.g. from wrap_text) from `origin` (top left), each centred in
    `width` px. Returns the height used."""
    x, y = origin
    for i, line in enumerate(lines):
        draw_text(image, (x + width / 2, y + i * line_step(size)), line, size, fill=fill, anchor="ma")
    return line_step(size) * len(lines)


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


# --- palette and the cached static board ----------------------------------------

def blend(a: RGB, b: RGB, t: float) -> RGB:
    """The colour a fraction `t` of the way from `a` to `b`."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


def make_palette(solid: Iterable[RGB], ramps: Iterable[tuple[RGB, RGB]] = (), steps: int = 5) -> Image.Image:
    """A fixed palette (as a 1x1 "P" image, what Image.quantize wants): every
    colour of `solid` exactly, plus `steps` intermediate shades between each
    pair of `ramps` (the antialiased edge of a foreground over a ground).
    Raises ValueError beyond 256 colours."""
    colours = dict.fromkeys(solid)
    for a, b in ramps:
        colours.update(dict.fromkeys(blend(a, b, i / (steps + 1)) for i in range(1, steps + 1)))
    if len(colours) > 256:
        raise ValueError(f"palette needs {len(colours)} colours, at most 256 fit")
    flat = [v for c in colours for v in c]
    image = Image.new("P", (1, 1))
    image.putpalette(flat + flat[:3] * (256 - len(colours)))
    return image


def to_palette(image: Image.Image, palette: Image.Image) -> Image.Image:
    """`image` (RGB) mapped to the nearest colours of `palette`, without dithering."""
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


@dataclass(frozen=True)
class StaticBoard:
    """A board drawn once, in palette form (its full-colour drawing is not
    kept: 4 MB that no picture needs)."""

    indexed: Image.Image
    palette: Image.Image

    @classmethod
    def build(cls, rgb: Image.Image, palette: Image.Image) -> StaticBoard:
        return cls(to_palette(rgb, palette), palette)


class Sheet:
    """One picture under construction over a StaticBoard, drawn in palette form.

    `draw` draws shapes in palette colours (exact colours of the palette,
    never text: PIL would draw it without antialiasing on a palette image)."""

    def __init__(self, board: StaticBoard):
        self.board = board
        self.out = board.indexed.copy()
        self.draw = ImageDraw.Draw(self.out)
        pixels = self.out.load()
        assert pixels is not None   # an image in memory (None is for one whose file cannot be read)
        self._pixels = pixels

    def paste(self, sprite: Image.Image, xy: tuple[float, float], centred: bool = True) -> None:
        """An RGBA sprite centred on `xy` (or with its top left corner there).
        On a plain ground (the same colour at its corners) the sprite is pasted
        in palette form, blended once over that colour; otherwise (a frame or
        a number under it) it is blended over what lies under it."""
        w, h = sprite.size
        x, y = (round(xy[0] - w / 2), round(xy[1] - h / 2)) if centred else (round(xy[0]), round(xy[1]))
        inset = _clear_corner(sprite)   # a round or pointed piece: what lies under its empty corners does not matter
        ground = self._ground((x + inset, y + inset, x + w - 1 - inset, y + h - 1 - inset))
        if ground is None:
            self._paint(
                (x, y, x + w - 1, y + h - 1), lambda region, rx, ry: region.paste(sprite, (x - rx, y - ry), sprite)
            )
        else:
            indexed, mask = _indexed_sprite(sprite, self.board, ground)
            self.out.paste(indexed, (x, y), mask)

    def _ground(self, box: Box) -> int | None:
        """The palette index at the four corners of `box` when they all have it,
        else None. (Lines that a piece stands on cross the middles of its sides:
        they are taken as ground, the antialiased rim over them barely differs.)"""
        w, h = self.out.size
        x0, y0, x1, y1 = max(box[0], 0), max(box[1], 0), min(box[2], w - 1), min(box[3], h - 1)
        pixels = self._pixels
        found = {pixels[x0, y0], pixels[x1, y0], pixels[x0, y1], pixels[x1, y1]}
        if len(found) != 1:
            return None
        index = found.pop()
        return index if isinstance(index, int) else None   # a palette image's pixels are ints

    def _paint(self, box: Iterable[float], paint: Callable[[Image.Image, int, int], object]) -> None:
        """`paint(region, x, y)` on a full-colour copy of `box` (clipped to the
        picture; (x, y) its top left corner), put back in palette form."""
        x0, y0, x1, y1 = box
        w, h = self.out.size
        clipped = (max(0, int(x0)), max(0, int(y0)), min(w, int(x1) + 1), min(h, int(y1) + 1))
        if clipped[0] < clipped[2] and clipped[1] < clipped[3]:
            region = self.out.crop(clipped).convert("RGB")
            paint(region, clipped[0], clipped[1])
            self.out.paste(to_palette(region, self.board.palette), clipped[:2])

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        bold: bool = False,
        fill: RGB = INK,
        anchor: str = "la",
        halo: RGB | None = None,
    ) -> None:
        """One line of text; `halo` outlines it (3 px) in that colour."""
        stroke = 3 if halo else 0
        self._paint(text_box(xy, text, size, bold, anchor, stroke), lambda region, x, y:
                    draw_text(region, (xy[0] - x, xy[1] - y), text, size, bold, fill, anchor, stroke, halo))

    def label(self, xy: tuple[float, float], text: str, size: int, bold: bool = False, fill: RGB = INK,
              anchor: str = "la", halo: RGB | None = None) -> None:
        """Sheet.text from a cached label_sprite: for a text from a small set only."""
        sprite, left, top = label_sprite(text, size, bold, fill, anchor, halo)
        self.paste(sprite, (xy[0] + left, xy[1] + top), centred=False)

    def lines(self, origin: tuple[float, float], lines: list[str], width: int, size: int, fill: RGB = INK) -> int:
        """draw_lines on the sheet. Returns the height used."""
        height = line_step(size) * len(lines)
        self._paint((origin[0], origin[1], origin[0] + width, origin[1] + height), lambda region, x, y:
                    draw_lines(region, (origin[0] - x, origin[1] - y), lines, width, size, fill))
        return height

    def arrow(self, points: Sequence[tuple[float, float]], fill: RGB, width: int, dash: float = 0,
              lead: Sequence[Sequence[tuple[float, float]]] = ()) -> None:
        """An antialiased arrow along `points`, its tip at the last point; `dash`: its line in dashes of
        that length (a gap of half as much between them); `lead`: lines of the same arrow before `points`
        (apart, where it leaves a gap), drawn alike without a head."""
        k = 2   # supersampling of the line mask
        head = 3 * width
        xs, ys = [x for x, _ in (*points, *chain(*lead))], [y for _, y in (*points, *chain(*lead))]
        left, top = int(min(xs) - head), int(min(ys) - head)
        w, h = int(max(xs) + head) + 1 - left, int(max(ys) + head) + 1 - top
        mask = Image.new("L", (w * k, h * k), 0)
        draw = ImageDraw.Draw(mask)
        (x0, y0), (x1, y1) = points[-2], points[-1]
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        base = (x1 - ux * head, y1 - uy * head)
        wing = (-uy * head * 0.6, ux * head * 0.6)

        def local(x: float, y: float) -> tuple[float, float]:
            return (x - left) * k, (y - top) * k

        lines = [[local(x, y) for x, y in stroke] for stroke in lead]
        lines.append([local(x, y) for x, y in points[:-1]] + [local(*base)])
        for line in lines:
            for part in (dashes(line, dash * k) if dash else [line]):
                draw.line(part, fill=255, width=width * k, joint="curve")
        draw.polygon(
            [local(x1, y1), local(base[0] + wing[0], base[1] + wing[1]), local(base[0] - wing[0], base[1] - wing[1])],
            fill=255,
        )
        self._paint((left, top, left + w - 1, top + h - 1),
                    lambda region, x, y: region.paste(fill, (left - x, top - y), mask.reduce(k)))

    def badge(self, xy: tuple[float, float], text: str, size: int, fill: RGB) -> None:
        """A short text (an order number) in white on a disc of `fill`, centred on `xy`."""
        f, r = font(size, True), badge_radius(text, size)
        box = (xy[0] - r, xy[1] - r, xy[0] + r, xy[1] + r)
        self._paint(
            box, lambda region, x, y: _draw_badge(ImageDraw.Draw(region), (xy[0] - x, xy[1] - y), r, text, f, fill)
        )

    def banner(self, centre: tuple[float, float], text: str, width: int, size: int, max_lines: int = 2) -> None:
        """A line (or two, or `max_lines`) of bold text on a framed white band across `centre`, at most `width`
        px wide: who won, readable at chat size."""
        box, lines = banner_box(text, centre, width, size, max_lines)
        pad, step = size * 0.6, line_step(size)

        def paint(region: Image.Image, x: int, y: int) -> None:
            draw = ImageDraw.Draw(region)
            draw.rounded_rectangle((box[0] - x, box[1] - y, box[2] - x, box[3] - y), radius=size // 2, fill=WHITE,
                                   outline=INK, width=max(3, size // 8))
            for i, line in enumerate(lines):
                draw_text(region, (centre[0] - x, box[1] - y + pad * 0.6 + i * step), line, size, True, anchor="ma")
        self._paint(box, paint)

    def player_tag(self, origin: tuple[int, int], width: int, tag: PlayerTag, size: int = 22,
                   lines: Sequence[str] = ()) -> int:
        """draw_player_tag on the sheet, `width` px wide (`lines`: tag_lines(tag, width, size, ...)).
        Returns the height used."""
        lines = lines or tag_lines(tag, width, size)
        height = tag_height(len(lines), size)
        self._paint((origin[0], origin[1], origin[0] + width - 1, origin[1] + height - 1), lambda region, x, y:
                    draw_player_tag(region, (origin[0] - x, origin[1] - y), width - 1, tag, size, lines))
        return height

    def legend(self, origin: tuple[int, int], width: int, players: list[PlayerTag], size: int = 22) -> int:
        """One line per seat (see draw_player_tag). Returns the height used."""
        x, y = origin
        for tag in players:
            y += self.player_tag((x, y), width, tag, size)
        return y - origin[1]

    def finish(self) -> Image.Image:
        """The picture in palette form (for encode_png)."""
        return self.out


def dashes(points: Sequence[tuple[float, float]], dash: float) -> list[list[tuple[float, float]]]:
    """The polyline `points` cut into dashes `dash` long, gaps half as long between them."""
    found: list[list[tuple[float, float]]] = [[points[0]]]
    drawing, left = True, dash
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        length, done = math.hypot(bx - ax, by - ay), 0.0
        while length - done > left:
            done += left
            xy = (ax + (bx - ax) * done / length, ay + (by - ay) * done / length)
            if drawing:
                found[-1].append(xy)
            else:
                found.append([xy])
            drawing, left = not drawing, dash if not drawing else dash / 2
        left -= length - done
        if drawing:
            found[-1].append((bx, by))
    return [part for part in found if len(part) > 1]


def badge_radius(text: str, size: int) -> float:
    """The radius of Sheet.badge's disc."""
    x0, y0, x1, y1 = font(size, True).getbbox(text, anchor="mm")
    return max(x1 - x0, y1 - y0) / 2 + size * 0.22


def banner_box(text: str, centre: tuple[float, float], width: int, size: int,
               max_lines: int = 2) -> tuple[tuple[float, float, float, float], list[str]]:
    """Where Sheet.banner's band goes, and its lines."""
    lines = wrap_text(text, int(width * 0.86) - 2 * size, size, max_lines)   # bold is wider than wrap_text measures
    pad, step = size * 0.6, line_step(size)
    w = max(text_length(line, size, True) for line in lines) + 2 * pad
    h = step * len(lines) + pad * 1.2
    return (centre[0] - w / 2, centre[1] - h / 2, centre[0] + w / 2, centre[1] + h / 2), lines


def whole_banner(text: str, room: int, size: int) -> tuple[int, int, int]:
    """The width to give Sheet.banner, its lines (two, or three) and its size (`size`, or down to 70 % of it when
    a word is wider than the room), so that its band shows `text` without cutting a word and stays within
    `room` px: in a narrow panel, the winner's whole name ("Computer (hard) wins", "L’ordinateur (difficile)
    gagne"). banner_box leaves a wide margin to the words; the band is only as wide as its longest line."""
    words = printable(text, True).split()
    for smaller in range(size, round(size * 0.7) - 1, -1):
        for max_lines in (2, 3):
            for width in range(room, 2 * room, 4):
                box, lines = banner_box(text, (0, 0), width, smaller, max_lines)
                if box[2] - box[0] > room:
                    break
                if " ".join(lines).split() == words:
                    return width, max_lines, smaller
    return room, 3, size


def _draw_badge(draw: ImageDraw.ImageDraw, xy: tuple[float, float], r: float, text: str, f: ImageFont.FreeTypeFont,
                fill: RGB) -> None:
    draw.ellipse((xy[0] - r, xy[1] - r, xy[0] + r, xy[1] + r), fill=fill, outline=WHITE, width=max(2, round(r / 8)))
    draw.text(xy, text, font=f, fill=WHITE, anchor="mm")


def _clear_corner(sprite: Image.Image) -> int:
    """How far along its diagonal a sprite's top left corner is transparent (kept in its `info`)."""
    found = sprite.info.get("clear_corner")
    if found is None:
        alpha, depth = sprite.getchannel("A"), 0
        while depth < min(sprite.size) // 2 and alpha.getpixel((depth, depth)) == 0:
            depth += 1
        found = sprite.info["clear_corner"] = depth
    return found


def _indexed_sprite(sprite: Image.Image, board: StaticBoard, under: int) -> tuple[Image.Image, Image.Image]:
    """`sprite` over the palette colour `under`, in `board`'s palette, and the
    mask of where it shows. Computed once and kept in the sprite's `info`
    (Images are not hashable), so it lives as long as the sprite in its
    bounded cache; a sprite lands on a few colours only."""
    variants = sprite.info.setdefault("indexed", {})
    found = variants.get((id(board), under))
    if found is None or found[0] is not board:   # an id may be reused once a board is dropped
        flat = palette_of(board.palette)
        ground = Image.new("RGB", sprite.size, tuple(flat[3 * under:3 * under + 3]))
        ground.paste(sprite, (0, 0), sprite)
        found = variants[(id(board), under)] = (board, to_palette(ground, board.palette),
                                                 sprite.getchannel("A").point(lambda a: 255 if a else 0))
    return found[1], found[2]


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def palette_of(image: Image.Image) -> list[int]:
    """A palette image's colours, flat (r, g, b, r, g, b...)."""
    flat = image.getpalette()
    if flat is None:
        raise ValueError(f"a {image.mode} image has no palette")
    return flat


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of a palette image, written here: deflate on the rows as they
    are (PNG filter 0, as PIL does for palettes) is ~1 ms faster than
    PIL's encoder for the same size. ISA-L's level 1 (a zlib stream like
    zlib's) takes 0.5 to 0.8 ms a board where zlib's level 2 took 2.9 to 3.7,
    and writes 3 to 9 % fewer bytes (docs/performance.md)."""
    w, h = image.size
    rows = Image.new("P", (w + 1, h), 0)   # a zero byte before each row: its filter type
    rows.paste(image, (1, 0))
    pixels = isal_zlib.compress(rows.tobytes(), 1)
    palette = palette_of(image)
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", bytes(palette)), _chunk(b"IDAT", pixels), _chunk(b"IEND", b"")))


def shown_name(lines: Sequence[str]) -> str:
    """A name on one line as its tag's lines (tag_lines) show it, shortened or not: what the final banner
    names, so that it reads as the panel does."""
    return "".join(line if line.endswith("-") or not line else line + " " for line in lines).strip()


def result_text(result: Result | None, players: Sequence[PlayerTag], locale: str) -> str | None:
    """Who won (a team's two players together), or a draw, for the picture; None while the game goes on.
    `players`' names as their tags show them (shown_name), each isolated in the sentence."""
    if result is None:
        return None
    if result.draw:
        return i18n.text("picture.draw", locale)
    names = [isolate(players[s].name) if s < len(players) else str(s + 1) for s in result.winners]
    if len(names) == 1:
        return i18n.text("picture.winner", locale, player=names[0])
    return i18n.text("picture.winners", locale, players=", ".join(names[:-1]), last=names[-1])
