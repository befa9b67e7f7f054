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
"""
from __future__ import annotations

import unicodedata

import arabic_reshaper
from bidi import algorithm as bidi_algorithm  # the pure-Python algorithm: per-character levels
from bidi import get_base_level
from bidi.mirror import MIRRORED
from PIL import ImageFont, features

from bot.domain.names import graphemes

FSI, PDI = "\u2068", "\u2069"
# Explicit direction controls a player may have typed: left out of a name, which `isolate` wraps itself.
_CONTROLS = dict.fromkeys(map(ord, "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))
_STRONG_RTL = ("R", "AL")

# The layout engine every font is opened with (renderer.common.font); tests set BASIC to try the fallback.
LAYOUT = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC


def layout_description() -> str:
    """Which way right-to-left names are written, for the start-up log."""
    if LAYOUT == ImageFont.Layout.RAQM:
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
    layout = LAYOUT if layout is None else layout
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
