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

from renderer.fonts import font
from renderer.sheet import Sheet, StaticBoard

KINDS = ("piece", "square", "label", "trace", "badge", "banner", "note", "name", "die")
# Items that must never cover a piece or a label a player reads or types.
OVERLAYS = frozenset({"badge", "banner", "note", "name", "die"})
# Items that are words: no trace's line may cross one.
TEXTS = frozenset({"label", "banner", "note", "name"})

FloatBox = tuple[float, float, float, float]
Point = tuple[float, float]


@dataclass(frozen=True)
class Item:
    """One thing on the picture. `ref`: a piece's name as move codes use it ("Y2", "e5", "B7"),
    a square's or its label's name as players type it ("5", "yellow H3", "e7"); `square`: for a
    piece, the ref of the square it stands on; `role` says more where a picture needs it
    ("blockade", "chosen", "destination", "start", "end"; for a name, its lines as written); `strokes`: for
    a trace, the lines it draws, each through its points, its arrow's tip at the end of the last: they
    cross no text (TEXTS), going round it or leaving a gap where it stands."""

    kind: str
    ref: str
    box: FloatBox
    square: str | None = None
    role: str = ""
    paint: Callable[[Sheet], object] | None = field(default=None, compare=False, repr=False)
    strokes: tuple[tuple[Point, ...], ...] = ()


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


def _clip(a: Point, b: Point, box: Sequence[float], margin: float) -> tuple[float, float] | None:
    """The part (from, to: fractions of its length) of the segment a-b inside `box` grown by `margin` on every
    side, if any (Liang-Barsky clipping)."""
    x0, y0, x1, y1 = box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin
    dx, dy = b[0] - a[0], b[1] - a[1]
    low, high = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q <= 0:
                return None
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low >= high:
            return None
    return low, high


def crosses(a: Point, b: Point, box: Sequence[float], margin: float = 0.0) -> bool:
    """Whether the segment a-b passes through `box` grown by `margin` on every side."""
    return _clip(a, b, box, margin) is not None


def crossings(points: Sequence[Point], boxes: Sequence[Sequence[float]], margin: float = 0.0) -> int:
    """How many of `boxes` (grown by `margin`) the polyline `points` passes through."""
    boxes = _near(points, boxes, margin)
    return sum(any(crosses(a, b, box, margin) for a, b in zip(points, points[1:])) for box in boxes) if boxes else 0


def _near(points: Sequence[Point], boxes: Sequence[Sequence[float]], margin: float) -> list[Sequence[float]]:
    """The boxes (grown by `margin`) that meet the bounding box of `points`: the only ones they may cross."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    x0, y0, x1, y1 = min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin
    return [box for box in boxes if box[0] < x1 and x0 < box[2] and box[1] < y1 and y0 < box[3]]


def gapped(points: Sequence[Point], boxes: Sequence[Sequence[float]], margin: float, shortest: float = 0.0,
           last: float = 0.0) -> list[list[Point]]:
    """The polyline `points` as the strokes that stay `margin` px clear of every one of `boxes`: a gap
    wherever it would cross one; strokes between two gaps shorter than `shortest` left out (such a stub says
    nothing), the one that reaches the end of `points` when it is `last` long (the arrow's head) at least."""
    strokes: list[list[Point]] = [[points[0]]] if points else []
    boxes = _near(points, boxes, margin) if points else []
    for a, b in zip(points, points[1:]):
        cuts = sorted(cut for box in _near((a, b), boxes, margin) if (cut := _clip(a, b, box, margin)) is not None)
        at = 0.0   # how far along a-b is drawn so far
        for low, high in cuts:
            if low > at:
                if not strokes or strokes[-1] == []:
                    strokes.append([_along(a, b, at)])
                strokes[-1].append(_along(a, b, low))
            if high > at:
                at = high
                strokes.append([])
        if at < 1.0:
            if not strokes or strokes[-1] == []:
                strokes.append([_along(a, b, at)])
            strokes[-1].append(b)
    return [stroke for stroke in strokes if len(stroke) > 1 and (
        stroke[0] == points[0] or _length(stroke) >= (last if stroke[-1] == points[-1] else shortest))]


def _length(points: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:]))


def _along(a: Point, b: Point, t: float) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


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
