"""Readable at chat size: Discord shows a board about 400 px wide on a phone, where the square
numbers, the piece numbers and the points' names (Barricade's and Pariti's grid letters and
numbers) must be at least 9 px high; measured on the font sizes the renderers use, relative to
the picture's width."""
from __future__ import annotations

from itertools import combinations

from bot.games.parcheesi.board import HOUSE, BoardView, PawnView
from renderer import barricade, cross68, pariti
from renderer.common import digit_height, font, label_size

CHAT_WIDTH, CHAT_TEXT = 400, 9


def high_enough(size: int, width: int) -> bool:
    """Digits at font `size` on a picture `width` px wide are CHAT_TEXT px high once it is CHAT_WIDTH wide."""
    return digit_height(size) * CHAT_WIDTH / width >= CHAT_TEXT


def test_the_cross_boards_square_numbers_are_readable_and_each_fits_its_own_tile():
    layout = cross68.Layout(cross68.SIZE, cross68.board())
    size = cross68.number_size(cross68.SIZE)
    assert high_enough(size, cross68.SIZE)
    boxes = layout.number_boxes()
    assert sorted(boxes) == list(range(1, 69))
    for square, (x0, y0, x1, y1) in boxes.items():
        left, top, right, bottom = font(size, True).getbbox(str(square), anchor="mm")
        assert right - left <= x1 - x0 and digit_height(size) <= y1 - y0, square
    for a, b in combinations(boxes.values(), 2):   # no two numbers share room
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_the_cross_boards_pawn_numbers_are_readable_on_the_track_and_at_home():
    layout = cross68.Layout(cross68.SIZE, cross68.board())
    view = BoardView((PawnView("red", "red", 10, "3"), PawnView("blue", "blue", HOUSE, "4")))
    for pawn, _, diameter, _ in cross68._pawn_places(layout, view.pawns):
        assert high_enough(label_size(diameter, pawn.label), cross68.SIZE), pawn


def test_barricades_point_names_are_readable_on_the_grids_letters_and_numbers():
    """A point's name is its column's letter and its row's number, printed along the four sides."""
    assert high_enough(barricade.AXIS, barricade.WIDTH)


def test_paritis_square_names_and_piece_numbers_are_readable():
    assert high_enough(pariti.AXIS, pariti.WIDTH)
    assert high_enough(label_size(pariti.PIECE, "16"), pariti.WIDTH)
