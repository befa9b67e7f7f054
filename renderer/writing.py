"""How a line that mixes scripts and directions is written on a picture: our sentences (English, French)
run left to right, a player's name may run right to left (Arabic, Hebrew) and hold an emoji.

- Each name is put into a sentence isolated (`isolate`: Unicode's FSI ... PDI): a name at the start of a
  line does not turn the sentence around ("يوسف wins", never "wins يوسف"), and the name is ordered in
  its own direction, an emoji on the side where its owner wrote it.
- `visual_runs` cuts a line into runs of one direction, in the order they are drawn, left to right. The
  levels come from python-bidi's implementation of the Unicode bidirectional algorithm, whichever way
  the letters are then drawn, so that both ways order a line alike:
  - with raqm (Pillow's layout engine, which needs FriBiDi: the Docker image installs it), a run keeps
    its characters in reading order and is drawn with its direction, HarfBuzz joining the letters;
  - without it (Pillow's basic layout: a pip install where FriBiDi is missing), a right-to-left run's
    Arabic letters are joined by arabic-reshaper (presentation forms), and its letters put in display
    order, bracket characters mirrored.

It also writes lines on a picture through the font chain (renderer.fonts): `printable` (what no font has left
out), `draw_text`, `text_length`, and wrapping and shortening (`wrap_text`, `break_lines`, `fit_text`).
"""
from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence

import arabic_reshaper
from bidi import algorithm as bidi_algorithm  # the pure-Python algorithm: per-character levels
from bidi import get_base_level
from bidi.mirror import MIRRORED
from PIL import Image, ImageDraw, ImageFont, features

from bot.domain.names import graphemes
from renderer import fonts
from renderer.colours import INK, RGB, Box
from renderer.fonts import face_font, faces, font, has_glyph, pixel_box, runs, shipped

FSI, PDI = "\u2068", "\u2069"
# Explicit direction controls a player may have typed: left out of a name, which `isolate` wraps itself.
_CONTROLS = dict.fromkeys(map(ord, "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))
_STRONG_RTL = ("R", "AL")

def layout_description() -> str:
    """Which way right-to-left names are written, for the start-up log."""
    if fonts.LAYOUT == ImageFont.Layout.RAQM:
        return (f"text layout: raqm {features.version('raqm')} (FriBiDi {features.version('fribidi')}, "
                f"HarfBuzz {features.version('harfbuzz')}) shapes right-to-left names")
    return ("text layout: Pillow's basic layout (raqm or FriBiDi missing): right-to-left names ordered by "
            "python-bidi and joined by arabic-reshaper")


def right_to_left(text: str) -> bool:
    """Whether `text` holds a right-to-left letter (Hebrew, Arabic...)."""
    return not text.isascii() and any(unicodedata.bidirectional(ch) in _STRONG_RTL for ch in text)


def isolate(name: str) -> str:
    """`name` as it goes into a sentence: isolated when it holds right-to-left letters (a name of
    left-to-right letters alone changes nothing in our left-to-right sentences), the direction controls
    it held left out."""
    if name.isascii():
        return name
    name = name.translate(_CONTROLS)
    return FSI + name + PDI if right_to_left(name) else name


def segments(text: str) -> list[tuple[str, bool]]:
    """`text` cut into (characters, isolated) parts. A line cut out of a longer text may hold only one end
    of an isolate (a name across two lines): the other end is taken as the line's end or beginning."""
    if FSI not in text and PDI not in text:
        return [(text, False)]
    out: list[tuple[str, bool]] = []
    inside = text.find(PDI) != -1 and (text.find(FSI) == -1 or text.find(PDI) < text.find(FSI))
    part = ""
    for ch in text:
        if ch in (FSI, PDI):
            if part:
                out.append((part, inside))
            part, inside = "", ch == FSI
        else:
            part += ch
    if part:
        out.append((part, inside))
    return out


def visual_runs(text: str, rtl: bool = False, layout: ImageFont.Layout | None = None) -> list[tuple[str, str | None]]:
    """The line `text` (its paragraph right to left when `rtl`) as runs of one direction, in the order they
    are drawn, left to right. Each run is (characters, direction): with raqm, the characters in reading
    order and the direction ("ltr", "rtl") to draw them with; with the basic layout, the characters
    already in display order, shaped, and None."""
    layout = fonts.LAYOUT if layout is None else layout
    parts = []
    for part, isolated in segments(text):
        base = get_base_level(part) == 1 if isolated else rtl
        parts.append(_ordered(part, base) if base or right_to_left(part) else [(part, 0)])
    if rtl:
        parts.reverse()
    runs = [run for part in parts for run in part]
    if layout == ImageFont.Layout.RAQM:
        return [(chars, "rtl" if level % 2 else "ltr") for chars, level in runs]
    return [(_displayed(chars) if level % 2 else chars, None) for chars, level in runs]


def _ordered(text: str, rtl: bool) -> list[tuple[str, int]]:
    """`text`'s runs of one embedding level, in display order (rules X1 to L2 of the algorithm)."""
    storage = bidi_algorithm.get_empty_storage()
    storage["base_level"], storage["base_dir"] = (1, "R") if rtl else (0, "L")
    bidi_algorithm.get_embedding_levels(text, storage)
    bidi_algorithm.explicit_embed_and_overrides(storage)
    bidi_algorithm.resolve_weak_types(storage)
    bidi_algorithm.resolve_neutral_types(storage, False)
    bidi_algorithm.resolve_implicit_levels(storage, False)
    runs: list[tuple[str, int]] = []
    for ch in storage["chars"]:
        if runs and runs[-1][1] == ch["level"]:
            runs[-1] = (runs[-1][0] + ch["ch"], ch["level"])
        else:
            runs.append((ch["ch"], ch["level"]))
    levels = [level for _, level in runs]
    odd = [level for level in levels if level % 2]
    for level in range(max(levels, default=0), min(odd, default=max(levels, default=0) + 1) - 1, -1):   # L2
        i = 0
        while i < len(runs):
            if runs[i][1] < level:
                i += 1
                continue
            j = i
            while j < len(runs) and runs[j][1] >= level:
                j += 1
            runs[i:j] = runs[i:j][::-1]
            i = j
    return runs


def _displayed(text: str) -> str:
    """A right-to-left run for the basic layout: letters joined, in display order (each letter with its
    marks, which follow it), brackets mirrored."""
    shaped = arabic_reshaper.reshape(text)
    return "".join(MIRRORED.get(cluster, cluster) for cluster in reversed(graphemes(shaped)))


ISOLATION = FSI + PDI   # the marks around an isolated name (isolate)
_ISOLATION_MARK = re.compile(f"([{FSI}{PDI}])")


def printable(text: str, bold: bool = False) -> str:
    """`text` as the pictures write it: the characters no font has left out ("Josette 🎲" without an
    emoji font reads "Josette"), or, when none is left of a word's letters, each replaced by "?" (小明
    without a CJK font reads "??", and Barricade's "3. 小明" "3. ??", never a rank without its name).
    A name's isolation marks (isolate) stay."""
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
    runs of one direction in display order (visual_runs) each cut by font (`runs`); the
    direction is what raqm draws a piece with, None with the basic layout (the characters are then in
    display order already)."""
    out: list[tuple[str, str, str | None]] = []
    for chars, direction in visual_runs(text):
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
