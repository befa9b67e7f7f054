"""The Barricade (Malefiz) board picture.

The static board (lines, points with their grid names, goal, start areas,
axis labels) is drawn once per colour set in full colour and converted once
to a fixed palette; each render copies it and pastes pawn and barricade
sprites, highlight rings, the die and the legend in that palette, so that
the palette PNG encodes fast (design.md principle 6).

`focus`: a pawn as in move actions ("e5", or "start" for the start area;
the `pawn` parameter of `Barricade.action_group`), or a whole move action.
"""
from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.barricade import Barricade
from bot.games.barricade.board import Board
from bot.games.barricade.rules import START_NAME
from bot.games.barricade.state import MOVE, PLACE, START, START_OF_TURN, State
from renderer.common import HIGHLIGHT, INK, PAPER, PIECE_RGB, PlayerTag, draw_die, draw_legend, encode_png, font

WIDTH = 1024
STEP = 56                     # distance between neighbouring points
LEFT, TOP = 64, 62            # centre of point (0, 0)
POINT_R, PAWN_R, RING_R = 19, 20, 26
SLOT_STEP = 40                # start-area slots
LEGEND_LINE = 34
BAR_RGB = (50, 44, 58)
LINE_RGB = (120, 112, 100)
LABEL_RGB = (70, 70, 78)
GOAL_RGB = (250, 212, 80)
START_LINE_RGB = (222, 222, 222)
LAST_MOVE_RGB = (240, 120, 0)
FREE_RGB = (0, 150, 165)
DIE_RGB = [(255, 255, 255), (200, 200, 200), (140, 140, 140), (255, 240, 170)]
RESERVED = [PAPER, INK, BAR_RGB, LINE_RGB, LABEL_RGB, GOAL_RGB, START_LINE_RGB, LAST_MOVE_RGB, FREE_RGB, HIGHLIGHT,
            *PIECE_RGB.values(), *DIE_RGB]


def centre(board: Board, point: int) -> tuple[int, int]:
    x, y = board.coords[point]
    return LEFT + x * STEP, TOP + y * STEP


def rows_bottom(board: Board) -> int:
    return TOP + max(y for _, y in board.coords) * STEP


def slot_centres(board: Board, colour: str) -> list[tuple[int, int]]:
    """The five start-area slots under the colour's entry point (BA-1.2)."""
    ex, _ = centre(board, board.entry[colour])
    y = rows_bottom(board) + 64
    return [(ex + (i - 2) * SLOT_STEP, y) for i in range(5)]


def height(n_players: int, board: Board) -> int:
    return legend_top(board) + n_players * LEGEND_LINE + 12


def legend_top(board: Board) -> int:
    return rows_bottom(board) + 132


def tint(rgb: tuple[int, int, int], amount: float = 0.72) -> tuple[int, int, int]:
    return tuple(round(c + (255 - c) * amount) for c in rgb)


def _circle(draw: ImageDraw.ImageDraw, xy: tuple[int, int], r: int, **kw: Any) -> None:
    x, y = xy
    draw.ellipse((x - r, y - r, x + r, y + r), **kw)


def _label(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, size: int, fill: Any) -> None:
    draw.text(xy, text, font=font(size, True), fill=fill, anchor="mm")


# --- the static board, once per colour set ---------------------------------------

@cache
def _static_rgb(board: Board, colours: tuple[str, ...], n_players: int) -> Image.Image:
    im = Image.new("RGB", (WIDTH, height(n_players, board)), PAPER)
    draw = ImageDraw.Draw(im)
    for a, b in board.lines():
        draw.line((centre(board, a), centre(board, b)), fill=LINE_RGB, width=5)
    entries = {board.entry[c]: c for c in colours}
    for p, name in enumerate(board.names):
        xy = centre(board, p)
        if p == board.goal:
            _circle(draw, xy, RING_R, fill=GOAL_RGB, outline=INK, width=3)
            _label(draw, xy, name, 16, INK)
            continue
        if p in entries:
            _circle(draw, xy, POINT_R + 2, fill=tint(PIECE_RGB[entries[p]]), outline=PIECE_RGB[entries[p]], width=5)
        else:
            fill = START_LINE_RGB if p in board.start_line else (255, 255, 255)
            _circle(draw, xy, POINT_R, fill=fill, outline=INK, width=2)
        _label(draw, xy, name, 14, LABEL_RGB)
    xs = sorted({x for x, _ in board.coords})
    ys = sorted({y for _, y in board.coords})
    names = {board.coords[p]: n for p, n in enumerate(board.names)}
    bottom = rows_bottom(board)
    for x in xs:
        letter = next(n for (px, _), n in names.items() if px == x).rstrip("0123456789")
        _label(draw, (LEFT + x * STEP, 22), letter, 20, INK)
        _label(draw, (LEFT + x * STEP, bottom + 110), letter, 20, INK)
    for y in ys:
        number = next(n for (_, py), n in names.items() if py == y).lstrip("abcdefghijklmnopqrstuvwxyz")
        _label(draw, (22, TOP + y * STEP), number, 20, INK)
        _label(draw, (WIDTH - 22, TOP + y * STEP), number, 20, INK)
    for colour in colours:
        slots = slot_centres(board, colour)
        (x0, y0), (x1, _) = slots[0], slots[-1]
        draw.rounded_rectangle((x0 - 24, y0 - 24, x1 + 24, y0 + 24), radius=14, fill=tint(PIECE_RGB[colour]),
                               outline=PIECE_RGB[colour], width=3)
        for xy in slots:
            _circle(draw, xy, 15, outline=PIECE_RGB[colour], width=2)
    return im


@cache
def _palette(board: Board, colours: tuple[str, ...], n_players: int) -> Image.Image:
    """A fixed palette: every colour a piece or highlight needs, then the board's own shades."""
    static = _static_rgb(board, colours, n_players)
    reserved = list(dict.fromkeys(RESERVED + [tint(PIECE_RGB[c]) for c in PIECE_RGB]))
    shades = static.quantize(colors=256 - len(reserved), method=Image.Quantize.MEDIANCUT).getpalette()
    # Shades too close to a reserved colour would steal its pixels (Pillow's nearest-colour search is approximate).
    extra = [rgb for i in range(0, len(shades), 3) if not _near(rgb := tuple(shades[i:i + 3]), reserved)]
    colours_list = list(dict.fromkeys(reserved + extra))[:256]
    pal = Image.new("P", (1, 1))
    pal.putpalette([c for rgb in colours_list for c in rgb])
    return pal


def _near(rgb: tuple[int, ...], others: list[tuple[int, int, int]], distance: int = 12) -> bool:
    return any(sum(abs(a - b) for a, b in zip(rgb, other)) < distance for other in others)


def _to_palette(image: Image.Image, palette: Image.Image) -> Image.Image:
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


@cache
def _static(board: Board, colours: tuple[str, ...], n_players: int) -> Image.Image:
    return _to_palette(_static_rgb(board, colours, n_players), _palette(board, colours, n_players))


@cache
def _index(board: Board, colours: tuple[str, ...], n_players: int) -> dict[tuple[int, int, int], int]:
    flat = _palette(board, colours, n_players).getpalette()
    found: dict[tuple[int, int, int], int] = {}
    for i in range(len(flat) // 3):
        found.setdefault(tuple(flat[3 * i:3 * i + 3]), i)
    return found


# --- sprites (pre-rendered once, in the palette) ------------------------------------

@cache
def _sprite(look: tuple[Board, tuple[str, ...], int], kind: str, colour: str, label: str) -> tuple[Image.Image, Image.Image]:
    """A pawn ("pawn") or a barricade ("bar") with its point name; (image, mask)."""
    size = 2 * PAWN_R + 4
    im = Image.new("RGB", (size, size), PAPER)
    mask = Image.new("1", (size, size), 0)
    d, m = ImageDraw.Draw(im), ImageDraw.Draw(mask)
    box = (2, 2, size - 3, size - 3)
    if kind == "pawn":
        rgb = PIECE_RGB[colour]
        d.ellipse(box, fill=rgb, outline=INK, width=2)
        m.ellipse(box, fill=1)
        text_rgb = INK if colour == "yellow" else (255, 255, 255)
    else:
        d.rounded_rectangle(box, radius=7, fill=BAR_RGB, outline=(255, 255, 255), width=3)
        m.rounded_rectangle(box, radius=7, fill=1)
        text_rgb = (255, 255, 255)
    if label:
        _label(d, (size // 2, size // 2), label, 13, text_rgb)
    return _to_palette(im, _palette(*look)), mask


def _paste(canvas: Image.Image, sprite: tuple[Image.Image, Image.Image], xy: tuple[int, int]) -> None:
    im, mask = sprite
    canvas.paste(im, (xy[0] - im.width // 2, xy[1] - im.height // 2), mask)


@lru_cache(maxsize=128)
def _legend(look: tuple[Board, tuple[str, ...], int], players: tuple[PlayerTag, ...], width: int) -> Image.Image:
    im = Image.new("RGB", (width, len(players) * LEGEND_LINE + 4), PAPER)
    draw_legend(ImageDraw.Draw(im), (0, 0), width - 1, list(players))
    return _to_palette(im, _palette(*look))


# --- per move -----------------------------------------------------------------------

def _focus_point(board: Board, focus: str | None) -> int | None:
    """START, a point, or None for an unknown focus."""
    pawn = (focus or "").split("-")[0]
    if pawn == START_NAME:
        return START
    return board.index.get(pawn)


def render(ruleset: Barricade, state: State, players: list[PlayerTag], locale: str = "en", focus: str | None = None) -> bytes:
    return encode_png(picture(ruleset, state, players, focus))


def picture(ruleset: Barricade, state: State, players: list[PlayerTag], focus: str | None = None) -> Image.Image:
    board, colours, n = ruleset.board, state.colours, len(state.colours)
    look = (board, colours, n)
    ink = _index(*look)
    im = _static(board, colours, n).copy()
    draw = ImageDraw.Draw(im)

    if state.stage in (START_OF_TURN, PLACE):   # where the held barricade may go (BA-5.3)
        for p in ruleset.free_points(state):
            _circle(draw, centre(board, p), POINT_R + 3, outline=ink[FREE_RGB], width=3)
    if state.last_move is not None:
        _, frm, dest = state.last_move
        if frm != START and frm != dest:
            _circle(draw, centre(board, frm), POINT_R + 3, outline=ink[LAST_MOVE_RGB], width=3)
        _circle(draw, centre(board, dest), RING_R + 2, outline=ink[LAST_MOVE_RGB], width=5)
    pawn = _focus_point(board, focus)
    if pawn is not None and pawn in state.pawns[state.seat]:
        if pawn != START:
            _circle(draw, centre(board, pawn), RING_R + 2, outline=ink[HIGHLIGHT], width=6)
        if state.stage == MOVE:
            for frm, dest in ruleset.moves(state):
                if frm == pawn:
                    _circle(draw, centre(board, dest), RING_R, fill=ink[HIGHLIGHT])
                    _circle(draw, centre(board, dest), POINT_R - 1, fill=ink[(255, 255, 255)])
                    _label(draw, centre(board, dest), board.names[dest], 14, ink[INK])

    for p in state.barricades:
        _paste(im, _sprite(look, "bar", "", board.names[p]), centre(board, p))
    for seat, pawns in enumerate(state.pawns):
        colour = colours[seat]
        slots = iter(slot_centres(board, colour))
        for p in pawns:
            if p == START:
                _paste(im, _sprite(look, "pawn", colour, ""), next(slots))
            else:
                _paste(im, _sprite(look, "pawn", colour, board.names[p]), centre(board, p))

    top = legend_top(board)
    die_box = (WIDTH - 86, top + 6, WIDTH - 22, top + 70)
    if state.die is not None:
        draw_die(draw, die_box, state.die, spent=state.stage != MOVE)
    x = die_box[0] - 46
    for held in state.held:   # barricades off the board, framed in the holder's colour
        draw.rounded_rectangle((x, top + 20, x + 34, top + 54), radius=6, fill=ink[BAR_RGB],
                               outline=ink[PIECE_RGB[colours[held.seat]]], width=5)
        x -= 42
    legend = _legend(look, tuple(players), x + 30 - 22)
    im.paste(legend, (22, top))
    return im
