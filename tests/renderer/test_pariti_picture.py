"""Pariti's board picture: a valid PNG of the posted size, and pixel probes
where pieces, pairs, the last move and the focused piece's squares are."""
from __future__ import annotations

import io

from PIL import Image

from bot.games.pariti import PAIR, Pariti, PaState, parse_piece
from bot.games.pariti_board import N_SQUARES, SQUARE_INDEX
from renderer import render_png
from renderer.colours import PIECE_RGB
from renderer.legend import PlayerTag
from renderer.pariti import (
    DARK_SQUARE,
    HEIGHT,
    LAST,
    LIGHT_SQUARE,
    PAIR_RING,
    PIECE,
    PINK,
    REACH,
    WIDTH,
    centre,
    square_box,
)

GAME = Pariti()
PLAYERS = [PlayerTag("Ann", ("blue", "pink"), True), PlayerTag("Bob", ("blue", "pink"))]


def position(pieces: dict[str, str], pairs: dict[str, int] | None = None, **fields) -> PaState:
    board = [0] * N_SQUARES
    for square, name in pieces.items():
        board[SQUARE_INDEX[square]] = parse_piece(name)
    for square, number in (pairs or {}).items():
        board[SQUARE_INDEX[square]] = PAIR + number
    return PaState(seed=0, board=tuple(board), seat=fields.pop("seat", 0), **fields)


def pixels(state: PaState, focus: str | None = None, locale: str = "en") -> Image.Image:
    data = render_png(GAME, state, PLAYERS, locale, focus)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def near(a, b, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def at(image: Image.Image, square: str, dx: float = 0, dy: float = 0):
    x, y = centre(SQUARE_INDEX[square])
    return image.getpixel((round(x + dx), round(y + dy)))


def test_png_size_and_weight():
    """PA-2.1: the starting position as posted: 1024 px, palette PNG, small."""
    state = GAME.new_game(2, {}, seed=11)
    data = render_png(GAME, state, PLAYERS, "fr")
    image = Image.open(io.BytesIO(data))
    assert image.size == (WIDTH, HEIGHT) == (1024, 1024)
    assert image.mode == "P"
    assert len(data) <= 150_000


def test_pieces_show_their_colour():
    """PA-1.2: blue and pink pieces in their colours; empty squares show the board."""
    image = pixels(position({"d4": "B4", "e5": "P4", "a10": "B9"}))
    top = -PIECE * 0.38   # above the number
    assert near(at(image, "d4", dy=top), PIECE_RGB["blue"])
    assert near(at(image, "e5", dy=top), PINK)
    assert at(image, "c6") in (LIGHT_SQUARE, DARK_SQUARE)
    assert at(image, "a1") != at(image, "a2")     # checkered squares


def test_pairs_are_drawn_as_pairs():
    """PA-1.4, PA-4.5: a pair shows both colours inside a ring."""
    image = pixels(position({"a10": "B9"}, pairs={"d5": 16}))
    assert near(at(image, "d5", -20, -24), PIECE_RGB["blue"])
    assert near(at(image, "d5", 20, -24), PINK)
    assert near(at(image, "d5", 0, -37), PAIR_RING, 30)


def test_last_move_and_its_path():
    """PA-4.3: the start square of the last move is outlined and each square
    landed on in between is marked."""
    board = position({"c3": "B4", "c4": "P9", "d5": "B11", "a10": "B9"})
    state = GAME.apply(board, "B4:e5").state
    assert state.last[2:] == (SQUARE_INDEX["c3"], SQUARE_INDEX["c5"], SQUARE_INDEX["e5"])
    image = pixels(state)
    x0, y0, _, _ = square_box(SQUARE_INDEX["c3"])
    assert near(image.getpixel((x0 + 5, y0 + 30)), LAST)
    assert near(at(image, "c5"), LAST, 20)
    chain = position({"c4": "B4", "d5": "P7", "e5": "P9", "a10": "B1"})
    state = GAME.apply(chain, "B4:c6").state   # c4 -> e6 -> e4 -> c6
    image = pixels(state)
    assert near(at(image, "e6"), LAST, 20) and near(at(image, "e4"), LAST, 20)


def test_focus_tints_reachable_squares():
    """PA-4.1, PA-4.2: the focused piece's steps and jump landings are tinted;
    other squares, and an opponent's piece, are not."""
    state = position({"d4": "B4", "d5": "P7", "a10": "B9"})
    image = pixels(state, focus="B4")
    for square in ("c3", "e4", "d6"):
        x0, y0, _, _ = square_box(SQUARE_INDEX[square])
        assert near(image.getpixel((x0 + 10, y0 + 10)), REACH), square
    x0, y0, _, _ = square_box(SQUARE_INDEX["d8"])
    assert image.getpixel((x0 + 10, y0 + 10)) in (LIGHT_SQUARE, DARK_SQUARE)
    plain = pixels(state)
    assert pixels(state, focus="B9") == plain       # not the mover's piece
    assert pixels(state, focus="zz") == plain       # not a piece at all


def test_finished_game_and_french():
    """PA-5.1, PA-5.2: a finished game renders in both languages."""
    pairs = {sq: n for sq, n in zip(("a1", "b1", "c1", "d1", "e1", "f1", "g1", "a2"), range(2, 17, 2))}
    won = position({"a10": "B9"}, pairs=pairs)
    drawn = position({"d4": "B4", "a10": "B9"}, quiet=30)
    for state in (won, drawn):
        for locale in ("en", "fr"):
            assert pixels(state, "B4", locale).size == (1024, 1024)
