"""Line race's board family: the line's squares, and each pawn on its square, one lane per seat. What it reads of
a ruleset is its contract, LineGame: the family draws any ruleset that hands it a LineScene."""
from __future__ import annotations

from functools import cache
from typing import Any, Protocol

from PIL import Image, ImageDraw

from renderer.colours import INK, PAPER, PIECE_RGB
from renderer.legend import PlayerTag
from renderer.plan import Item, Plan, centred
from renderer.sheet import StaticBoard, make_palette
from renderer.sprites import disc_sprite
from tests.sixth_game.rules import LENGTH, LineScene, LineState

SQUARE = 200   # a square's side: 1,200 x 400 pixels, the size a chat shows a board at
SHADE = (214, 208, 196)   # every other square


class LineGame(Protocol):
    """The family's contract: what it reads of the rulesets that name it (Ruleset.board_family)."""

    def scene(self, state: LineState) -> LineScene: ...


@cache
def _ground() -> StaticBoard:
    palette = make_palette([PAPER, SHADE, INK, *PIECE_RGB.values()],
                           [(c, ground) for c in PIECE_RGB.values() for ground in (PAPER, SHADE)])
    rgb = Image.new("RGB", (SQUARE * LENGTH, SQUARE * 2), PAPER)
    draw = ImageDraw.Draw(rgb)
    for i in range(LENGTH):
        draw.rectangle((i * SQUARE, 0, (i + 1) * SQUARE - 1, 2 * SQUARE - 1), SHADE if i % 2 else PAPER, INK, 3)
    return StaticBoard.build(rgb, palette)


def layout(ruleset: LineGame, state: LineState, players: list[PlayerTag], locale: str = "en",
           focus: str | None = None, traced: Any = ()) -> Plan:
    items = [Item("square", str(i), (i * SQUARE, 0, (i + 1) * SQUARE, 2 * SQUARE)) for i in range(LENGTH)]
    for seat, square in enumerate(ruleset.scene(state).squares):
        sprite = disc_sprite(PIECE_RGB[players[seat].colours[0]], SQUARE // 2)
        xy = ((square + 0.5) * SQUARE, (seat + 0.5) * SQUARE)
        items.append(Item("piece", players[seat].colours[0][0].upper(), centred(xy, *sprite.size), str(square),
                          paint=lambda sheet, sprite=sprite, xy=xy: sheet.paste(sprite, xy)))
    return Plan((SQUARE * LENGTH, SQUARE * 2), tuple(items), _ground)
