"""Fonts: the shipped face (DejaVu Sans) and its fallback chain through the system's fonts, for names in any
script and emoji, and the sizes text needs to be readable at chat size."""
from __future__ import annotations

import math
import unicodedata
from functools import cache, lru_cache
from importlib.resources import as_file
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

from bot.core.data_files import data_file
from bot.domain.names import graphemes

# The layout engine every font is opened with; tests set BASIC to try the fallback (renderer.writing).
LAYOUT = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
# Readable at chat size: Discord shows a board about 400 px wide on a phone, where text must be at
# least 9 px high; on the 1024-px picture that is DIGIT_HEIGHT px of digit (cap height).
CHAT_WIDTH, CHAT_TEXT = 400, 9
# A piece at chat size: its short side at least PIECE_SIDE px, two on one square included; its number's digits at
# least PIECE_DIGITS px (smaller than the words', CHAT_TEXT: a digit alone on a piece of its own colour).
PIECE_SIDE, PIECE_DIGITS = 14, 8
# A capture at chat size: the mark on its square at least CAPTURE_MARK px wide, the way home a line WAY_HOME px.
CAPTURE_MARK, WAY_HOME = 12, 2


def at_chat(px: float, width: int) -> float:
    """`px` pixels at chat size (CHAT_WIDTH) on a picture `width` px wide."""
    return px * width / CHAT_WIDTH


def min_text_height(width: int, chat: float = CHAT_TEXT) -> float:
    """The height text needs on a picture `width` px wide to be `chat` px high at CHAT_WIDTH."""
    return chat * width / CHAT_WIDTH


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
def readable_size(width: int, bold: bool = True, chat: float = CHAT_TEXT) -> int:
    """The smallest font size whose digits are readable at chat size on a picture `width` px wide: `chat` px
    high there (a piece's number: PIECE_DIGITS)."""
    size = 8
    while digit_height(size, bold) < min_text_height(width, chat):
        size += 1
    return size


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped face (DejaVu Sans), first of the fallback chain (see `faces`), opened with the layout
    engine in use (LAYOUT)."""
    return _font(size, bold, LAYOUT)


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
    return _face_font(path, size, LAYOUT)


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
    """Whether the font file `path` draws `ch` (anything but its "no glyph" box). A combining mark is tried on
    a letter: alone, the layout engine draws it on a dotted circle, which told a mark the font lacks (a zalgo
    name's) from the box, and the box was drawn."""
    f, _ = face_font(path, 24)
    if unicodedata.category(ch) in ("Mn", "Me"):
        return _drawn(f, "o" + ch) != _drawn(f, "o" + _MISSING)
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
