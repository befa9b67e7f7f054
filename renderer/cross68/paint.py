"""The static board, painted once per size and set of houses in play: the cross, the numbers, the houses and
the goal, in a fixed palette (renderer.sheet)."""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.parcheesi.board import Cross68, board
from renderer.colours import (
    DIE_SPENT,
    INK,
    PAPER,
    PIECE_RGB,
    PIP_SPENT,
    RGB,
    TO_MOVE_BAND,
    WHITE,
    blend,
    shape_of,
)
from renderer.cross68.geometry import FADE, FOCUS, HIGHLIGHT, SAFE, Grid, goal_triangle, number_size, number_tile, tint
from renderer.fonts import font
from renderer.sheet import StaticBoard, make_palette
from renderer.sprites import SUPERSAMPLE, draw_shape

# --- the static board -----------------------------------------------------------

def _palette(geo: Cross68) -> Image.Image:
    colours = [PIECE_RGB[c] for c in geo.colours]
    tints = [tint(c) for c in geo.colours]
    faded = [blend(c, PAPER, FADE) for c in colours]
    tiles = [number_tile(c, played) for c in geo.colours for played in (True, False)]
    grounds = [PAPER, WHITE, SAFE, TO_MOVE_BAND, DIE_SPENT, *colours, *tints, *faded, *tiles]
    solid = [INK, HIGHLIGHT, FOCUS, PIP_SPENT, *grounds, blend(WHITE, PAPER, FADE), blend(INK, PAPER, FADE),
             *(blend(t, PAPER, FADE) for t in tints)]   # the corridors no piece follows (no ramp: 256 colours at most)
    ramps = [(INK, g) for g in grounds] + [(HIGHLIGHT, g) for g in grounds[:3] + colours + tints]
    ramps += [(FOCUS, g) for g in grounds[:3] + colours + tints] + [(WHITE, c) for c in colours]
    ramps += [(INK, HIGHLIGHT), (INK, FOCUS), (INK, blend(WHITE, PAPER, FADE))]
    return make_palette(solid, ramps, steps=4)


@lru_cache(maxsize=8)
def static_board(size: int, in_play: frozenset[str]) -> StaticBoard:
    """The board without pieces; houses whose colour is not in play are faded."""
    geo = board()
    k = SUPERSAMPLE // 2            # drawn larger, then reduced: antialiased lines and text
    big = Grid(size * k, geo)
    image = Image.new("RGB", (size * k, size * k), PAPER)
    draw = ImageDraw.Draw(image)
    line = max(2, big.cell // 30)
    houses = {route: (c0, r0, c1, r1) for route, ((c0, r0), (c1, r1)) in geo.houses.items()}
    for route in geo.colours:
        fill = PIECE_RGB[route] if route in in_play else blend(PIECE_RGB[route], PAPER, FADE)
        draw.rectangle(big.house_box(route), fill=fill, outline=INK, width=line)
        panel = WHITE if route in in_play else blend(WHITE, PAPER, FADE)
        draw.rounded_rectangle(big.panel_box(route), radius=big.cell // 3, fill=panel, outline=INK, width=line)
    for x0, y0, x1, y1 in big.number_boxes().values():   # the numbers' tiles, light on the house colours
        x, y = (x0 + x1) / 2, (y0 + y1) / 2
        c, r = (x - big.origin) // big.cell + 1, (y - big.origin) // big.cell + 1
        house = next((h for h, (c0, r0, c1, r1) in houses.items() if c0 <= c <= c1 and r0 <= r <= r1), None)
        if house is not None:
            draw.rectangle((x0, y0, x1, y1), fill=number_tile(house, house in in_play), outline=INK,
                           width=max(1, line // 2))
    number_font = font(number_size(big.size), True)
    numbers = big.number_boxes()
    for square, cell in geo.track_cells.items():
        starts = [c for c, s in geo.start_square.items() if s == square]
        x0, y0, x1, y1 = big.box(*cell)
        draw.rectangle((x0, y0, x1, y1), fill=_ground(geo, square, in_play), outline=INK, width=line)
        if starts:   # the colour's shape, a cue that survives colour blindness
            r = big.cell * 0.36
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            draw_shape(draw, shape_of(starts[0]), (cx - r, cy - r, cx + r, cy + r),
                       outline=WHITE if starts[0] in in_play else blend(INK, PAPER, FADE), width=line * 2)
        elif square in geo.safe_squares:   # a ring marks every safe square
            r, cx, cy = big.cell * 0.36, (x0 + x1) / 2, (y0 + y1) / 2
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=INK, width=line)
        nx0, ny0, nx1, ny1 = numbers[square]
        draw.text(((nx0 + nx1) / 2, (ny0 + ny1) / 2), str(square), font=number_font, fill=INK, anchor="mm")
    for colour, cells in geo.corridor_cells.items():
        for cell in cells:
            draw.rectangle(big.box(*cell), fill=tint(colour) if colour in in_play else blend(tint(colour), PAPER, FADE),
                           outline=INK, width=line)
    gx0, gy0, gx1, gy1 = big.goal_box()
    centre = ((gx0 + gx1) / 2, (gy0 + gy1) / 2)
    for colour in geo.colours:
        draw.polygon(goal_triangle(big, colour), fill=PIECE_RGB[colour], outline=INK, width=line)
    draw.rectangle((gx0, gy0, gx1, gy1), outline=INK, width=line)
    draw.ellipse((centre[0] - line * 3, centre[1] - line * 3, centre[0] + line * 3, centre[1] + line * 3), fill=INK)
    rgb = image.reduce(k)
    return StaticBoard.build(rgb, _palette(geo))


def _ground(geo: Cross68, square: int, in_play: frozenset[str]) -> RGB:
    """A track square's colour: its colour's on a start square (faded where no piece follows that colour's
    route: Maghreb's green and blue, whose pieces follow red's and yellow's), grey on a safe one, else white."""
    starts = [c for c, s in geo.start_square.items() if s == square]
    if starts:
        return PIECE_RGB[starts[0]] if starts[0] in in_play else blend(PIECE_RGB[starts[0]], PAPER, FADE)
    return SAFE if square in geo.safe_squares else WHITE
