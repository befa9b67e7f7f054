"""The colours every board family paints with: the players' colours and the shapes that stand for them under
colour blindness, ink and paper, the trace's and the choice's colours, and blending between them."""
from __future__ import annotations

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


def shape_of(colour: str) -> str:
    return SHAPES.get(colour, "circle")


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """The colour a fraction `t` of the way from `a` to `b`."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


def ink_on(fill: RGB) -> RGB:
    """INK or WHITE, whichever reads better on `fill`."""
    r, g, b = fill
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else WHITE
