"""A picture's plan: where every piece, square, label, trace, badge, banner, note, name and die
goes. Each board family computes the plan first and paints only from it, so that tests can check
what the picture means (renderer.layout): each piece on its own square, nothing over a piece or a
label a player types.

An item's `box` is in the posted picture's pixels. Squares and labels are painted once on the
static board, from the same geometry; every other item carries its own `paint` step, which
draws inside (or, for a halo or an arrow's head, just around) its box.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from PIL import Image

from renderer.common import Sheet, StaticBoard, font

KINDS = ("piece", "square", "label", "trace", "badge", "banner", "note", "name", "die")
# Items that must never cover a piece or a label a player reads or types.
OVERLAYS = frozenset({"badge", "banner", "note", "name", "die"})
# Items that are words: no trace's line may cross one.
TEXTS = frozenset({"label", "banner", "note", "name"})

FloatBox = tuple[float, float, float, float]


@dataclass(frozen=True)
class Item:
    """One thing on the picture. `ref`: a piece's name as move codes use it ("Y2", "e5", "B7"),
    a square's or its label's name as players type it ("5", "yellow H3", "e7"); `square`: for a
    piece, the ref of the square it stands on; `role` says more where a picture needs it
    ("blockade", "chosen", "destination", "start", "end"; for a name, its lines as written); `line`: for a
    trace, the points its line is drawn through (its arrow's tip last), which must cross no text (TEXTS)."""

    kind: str
    ref: str
    box: FloatBox
    square: str | None = None
    role: str = ""
    paint: Callable[[Sheet], object] | None = field(default=None, compare=False, repr=False)
    line: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True)
class Plan:
    """`size` of the posted picture, its `items` back to front, and `ground`: the cached static
    board (squares and labels drawn once) its items are painted over."""

    size: tuple[int, int]
    items: tuple[Item, ...]
    ground: Callable[[], StaticBoard] = field(compare=False, repr=False)

    def of(self, *kinds: str) -> list[Item]:
        return [item for item in self.items if item.kind in kinds]

    def square(self, ref: str) -> Item:
        return next(item for item in self.items if item.kind == "square" and item.ref == ref)

    def picture(self) -> Image.Image:
        """The picture in palette form: every item's paint step over the static board, back to front."""
        sheet = Sheet(self.ground())
        for item in self.items:
            if item.paint is not None:
                item.paint(sheet)
        return sheet.finish()


def overlap(a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether two boxes share more than an edge."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(inner: Sequence[float], outer: Sequence[float], slack: float = 0.5) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack and inner[2] <= outer[2] + slack
            and inner[3] <= outer[3] + slack)


def centred(xy: tuple[float, float], w: float, h: float) -> FloatBox:
    return xy[0] - w / 2, xy[1] - h / 2, xy[0] + w / 2, xy[1] + h / 2


def first_clear(candidates: Iterable[FloatBox], avoid: Iterable[Sequence[float]],
                within: Sequence[float] | None = None) -> FloatBox | None:
    """The first of `candidates` that overlaps none of `avoid` (and lies `within`, when given)."""
    avoid = list(avoid)
    for box in candidates:
        if (within is None or inside(box, within)) and not any(overlap(box, other) for other in avoid):
            return box
    return None


def crosses(a: tuple[float, float], b: tuple[float, float], box: Sequence[float], margin: float = 0.0) -> bool:
    """Whether the segment a-b passes through `box` grown by `margin` on every side (Liang-Barsky clipping)."""
    x0, y0, x1, y1 = box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin
    dx, dy = b[0] - a[0], b[1] - a[1]
    low, high = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low >= high:
            return False
    return True


def offset_line(points: Sequence[tuple[float, float]], distance: float) -> list[tuple[float, float]]:
    """`points` moved `distance` px to the left of the way they run (a lane beside the path), each
    corner along the mean of its two segments' normals."""
    if not distance or len(points) < 2:
        return list(points)
    normals = []
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        length = math.hypot(bx - ax, by - ay) or 1.0
        normals.append(((ay - by) / length, (bx - ax) / length))
    moved = []
    for i, (x, y) in enumerate(points):
        around = normals[max(i - 1, 0):i + 1]
        nx, ny = sum(n[0] for n in around) / len(around), sum(n[1] for n in around) / len(around)
        scale = distance / max(math.hypot(nx, ny) ** 2, 0.5)   # a corner moves further, the lanes keep their width
        moved.append((x + nx * scale, y + ny * scale))
    return moved


def text_box(xy: tuple[float, float], text: str, size: int, bold: bool = True, anchor: str = "mm") -> FloatBox:
    """The box of `text` written at `xy`: as wide as its ink, as high as a digit of its font (the
    height chat-size legibility is measured on, whether the text is a number or a lower-case letter)."""
    f = font(size, bold)
    left, _, right, _ = f.getbbox(text, anchor=anchor)
    _, top, _, bottom = f.getbbox("0", anchor=anchor)
    return xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom
