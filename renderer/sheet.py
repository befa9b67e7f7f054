"""The cached-board / palette machinery shared by every board family: a picture is kept cheap by
drawing the static board once and pasting each move over a copy (renderer.png encodes it).

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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain

from PIL import Image, ImageDraw, ImageFont

from renderer.colours import INK, RGB, WHITE, Box, blend
from renderer.fonts import font
from renderer.legend import PlayerTag, draw_player_tag, tag_height, tag_lines
from renderer.png import palette_of
from renderer.sprites import label_sprite
from renderer.writing import draw_lines, draw_text, line_step, printable, text_box, text_length, wrap_text


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
