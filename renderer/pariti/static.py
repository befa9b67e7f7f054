"""Pariti's static board, drawn once per language and panel height: squares, coordinates, the panel's
fixed words and empty slots."""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.domain import i18n
from bot.games.pariti import (
    PAIRS_TO_WIN,
    Pariti,
)
from bot.games.pariti_board import FILES, N_FILES, N_RANKS, file_rank
from renderer.colours import INK, PAPER, RGB, TO_MOVE_BAND, WHITE
from renderer.fonts import font
from renderer.pariti.geometry import (
    AXIS,
    BOARD_X,
    BOARD_Y,
    CELL,
    COUNTER_LINES,
    DARK_SQUARE,
    FOCUS,
    HEIGHT,
    LAST,
    LIGHT_SQUARE,
    LINE,
    MUTED,
    PAIR_RING,
    PANEL_X,
    PIECE_FILL,
    PINK,
    REACH,
    SLOT,
    SLOT_PITCH,
    TEXT,
    TEXT_W,
    TEXT_X,
    WIDTH,
    Tall,
    counter_bar,
    counter_y,
    parity_y,
    slot_centre,
    square_box,
)
from renderer.sheet import StaticBoard, make_palette
from renderer.sprites import SUPERSAMPLE
from renderer.writing import wrap_text


def _palette() -> Image.Image:
    blue, grounds = PIECE_FILL[0], [PAPER, WHITE, LIGHT_SQUARE, DARK_SQUARE, REACH, TO_MOVE_BAND, SLOT]
    solid = [INK, blue, PINK, LAST, FOCUS, PAIR_RING, MUTED, *grounds]
    ramps = [(INK, g) for g in grounds + [blue, PINK]] + [(WHITE, blue), (INK, PINK), (WHITE, INK)]
    ramps += [(c, g) for c in (LAST, FOCUS, PAIR_RING, MUTED) for g in grounds]
    ramps += [(PAIR_RING, INK), (LAST, INK), (FOCUS, INK), (blue, PINK)] + [(WHITE, g) for g in grounds + [LAST, FOCUS]]
    return make_palette(solid, ramps, steps=4)


@lru_cache(maxsize=16)
def static_board(locale: str, tall: Tall) -> StaticBoard:
    """Squares, coordinates, and the panel's fixed words and empty slots."""
    k = SUPERSAMPLE // 2  # drawn larger, then reduced: antialiased text

    def text(
        xy: tuple[float, float], words: str, size: int, bold: bool = False, fill: RGB = INK, anchor: str = "la"
    ) -> None:
        draw.text((xy[0] * k, xy[1] * k), words, font=font(size * k, bold), fill=fill, anchor=anchor)

    image = Image.new("RGB", (WIDTH * k, HEIGHT * k), PAPER)
    draw = ImageDraw.Draw(image)
    for square in range(N_FILES * N_RANKS):
        f, r = file_rank(square)
        x0, y0, x1, y1 = (v * k for v in square_box(square))
        draw.rectangle((x0, y0, x1, y1), fill=DARK_SQUARE if (f + r) % 2 == 0 else LIGHT_SQUARE)
    bx1, by1 = BOARD_X + N_FILES * CELL, BOARD_Y + N_RANKS * CELL
    draw.rectangle((BOARD_X * k, BOARD_Y * k, bx1 * k, by1 * k), outline=INK, width=3 * k)
    for f, name in enumerate(FILES):
        x = BOARD_X + f * CELL + CELL / 2
        text((x, BOARD_Y - 27), name, AXIS, True, anchor="mm")
        text((x, by1 + 27), name, AXIS, True, anchor="mm")
    for r in range(N_RANKS):
        y = BOARD_Y + (N_RANKS - 1 - r) * CELL + CELL / 2
        text((BOARD_X - 26, y), str(r + 1), AXIS, True, anchor="mm")
        text((bx1 + 25, y), str(r + 1), AXIS, True, anchor="mm")
    draw.rounded_rectangle(
        (PANEL_X * k, 12 * k, (WIDTH - 12) * k, (HEIGHT - 12) * k), radius=14 * k, fill=WHITE, outline=INK, width=2 * k
    )
    text((TEXT_X, 26), i18n.text(Pariti.name, locale), 34, True)
    for seat in (0, 1):
        text((TEXT_X + 4, parity_y(seat, tall)), i18n.text(f"pariti.picture.numbers_{seat}", locale), TEXT, fill=MUTED)
        radius = (SLOT_PITCH - 14) / 2
        for i in range(PAIRS_TO_WIN):
            cx, cy = slot_centre(seat, i, tall)
            draw.ellipse(((cx - radius) * k, (cy - radius) * k, (cx + radius) * k, (cy + radius) * k), fill=SLOT)
    for i, line in enumerate(wrap_text(i18n.text("pariti.picture.quiet", locale), TEXT_W * k, TEXT * k, COUNTER_LINES)):
        text((TEXT_X, counter_y(tall) + i * LINE), line, TEXT, fill=MUTED)
    draw.rounded_rectangle(tuple(v * k for v in counter_bar(tall)), radius=8 * k, fill=SLOT)
    return StaticBoard.build(image.reduce(k), _palette())
