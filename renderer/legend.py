"""A player's tag in the legend and the house panels: colour swatches and name, on one line or more."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderer.colours import INK, PIECE_RGB, TO_MOVE_BAND, shape_of
from renderer.sprites import draw_shape
from renderer.writing import FSI, break_lines, draw_text, isolate


@dataclass(frozen=True)
class PlayerTag:
    """A seat as the legend shows it."""

    name: str
    colours: tuple[str, ...]
    to_move: bool = False


def tag_lines(tag: PlayerTag, width: int, size: int, max_lines: int = 1) -> list[str]:
    """The lines draw_player_tag writes `tag`'s name on in a tag `width` px wide: the first beside the
    colour swatches, the others under them across the whole tag (see break_lines); shortened with an ellipsis
    only when `max_lines` lines cannot hold it. Measured in the weight drawn: bold for whoever is to move.
    A bare name is isolated (written in its own direction); a line that holds a name among our words
    (Barricade's "1. name") has it isolated already."""
    room = width - 16
    name = tag.name if FSI in tag.name else isolate(tag.name)
    return break_lines(name, [room - len(tag.colours) * (size + 4) - 4] + [room - 4] * (max_lines - 1), size,
                       tag.to_move)


def tag_step(size: int) -> int:
    """The distance between two lines of a name: set closer than a paragraph's (line_step), one name."""
    return size + 6


def tag_height(lines: int, size: int) -> int:
    """The height of a player tag of `lines` lines (see draw_player_tag)."""
    return size + 12 + (lines - 1) * tag_step(size)


def draw_player_tag(image: Image.Image, origin: tuple[int, int], width: int, tag: PlayerTag, size: int = 22,
                    lines: Sequence[str] = ()) -> int:
    """One seat: colour swatches and name (its `lines` from tag_lines, else one line); whoever must act
    gets an ink-framed band and a bold name (both cues outlast colour blindness; a marker before the
    name would take its room). Returns the height used."""
    draw = ImageDraw.Draw(image)
    x, y = origin
    lines = lines or tag_lines(tag, width, size)
    height = tag_height(len(lines), size)
    if tag.to_move:
        draw.rounded_rectangle((x, y, x + width, y + height - 2), radius=6, fill=TO_MOVE_BAND, outline=INK,
                               width=max(2, size // 10))
    sx = x + 8
    for colour in tag.colours:
        draw_shape(draw, shape_of(colour), (sx, y + 5, sx + size, y + 5 + size), PIECE_RGB[colour], INK, 2)
        sx += size + 4
    for i, line in enumerate(lines):
        draw_text(image, ((sx if i == 0 else x + 8) + 4, y + 4 + i * tag_step(size)), line, size, tag.to_move)
    return height


def shown_name(lines: Sequence[str]) -> str:
    """A name on one line as its tag's lines (tag_lines) show it, shortened or not: what the final banner
    names, so that it reads as the panel does."""
    return "".join(line if line.endswith("-") or not line else line + " " for line in lines).strip()


def sentence_names(players: Sequence[PlayerTag]) -> list[str]:
    """Each player's name as it goes into a sentence of the picture (bot.present.results): isolated."""
    return [isolate(tag.name) for tag in players]
