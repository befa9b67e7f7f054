"""Readable at chat size: Discord shows a board about 400 px wide on a phone, where the square
numbers, the piece numbers and the points' names (Barricade's and Pariti's grid letters and
numbers) must be at least 9 px high; measured on the font sizes the renderers use, relative to
the picture's width."""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from PIL import Image

from bot.games.barricade import Barricade
from bot.games.barricade.state import MOVE, START
from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK, Cross68Scene, ScenePawn, board
from bot.games.pariti import Pariti, PaState, parse_piece
from bot.games.pariti_board import N_SQUARES, SQUARE_INDEX
from renderer import barricade, cross68, pariti
from renderer.colours import INK, PIECE_RGB, shape_of
from renderer.fonts import digit_height, font
from renderer.legend import PlayerTag
from renderer.plan import inside, text_box
from renderer.sprites import label_reach, label_size, piece_reach

CHAT_WIDTH, CHAT_TEXT = 400, 9
COLOURS = ("yellow", "blue", "red", "green")


def high_enough(size: int, width: int) -> bool:
    """Digits at font `size` on a picture `width` px wide are CHAT_TEXT px high once it is CHAT_WIDTH wide."""
    return digit_height(size) * CHAT_WIDTH / width >= CHAT_TEXT


def test_the_cross_boards_square_numbers_are_readable_and_each_fits_its_own_tile():
    layout = cross68.Grid(cross68.SIZE, cross68.geometry.board())
    size = cross68.geometry.number_size(cross68.SIZE)
    assert high_enough(size, cross68.SIZE)
    boxes = layout.number_boxes()
    assert sorted(boxes) == list(range(1, 69))
    for square, (x0, y0, x1, y1) in boxes.items():
        left, top, right, bottom = font(size, True).getbbox(str(square), anchor="mm")
        assert right - left <= x1 - x0 and digit_height(size) <= y1 - y0, square
    for a, b in combinations(boxes.values(), 2):   # no two numbers share room
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_the_cross_boards_pawn_numbers_are_readable_on_the_track_and_at_home():
    layout = cross68.Grid(cross68.SIZE, cross68.geometry.board())
    view = Cross68Scene((ScenePawn("red", "red", 10, "3"), ScenePawn("blue", "blue", HOUSE, "4")))
    for place in cross68.pawn_places(layout, view.pawns):
        assert high_enough(place.text or label_size(place.diameter, place.pawn.label), cross68.SIZE), place


def box(xy: tuple[float, float], half_width: float, half_height: float) -> tuple[float, float, float, float]:
    return xy[0] - half_width, xy[1] - half_height, xy[0] + half_width, xy[1] + half_height


def meet(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def body(pawn: ScenePawn, xy, diameter: int):
    shape = shape_of(pawn.colour)
    return box(xy, piece_reach(shape, diameter, True), piece_reach(shape, diameter, False))


def label(pawn: ScenePawn, xy, diameter: int):
    return box(xy, label_reach(diameter, pawn.label, True), label_reach(diameter, pawn.label, False))


def sharing_every_square():
    """Two pawns on every track square (two of a colour that passes there, two of any two colours)
    with a pawn on the squares before and after it; two pawns on every corridor square."""
    geo = board()
    for square in range(1, 69):
        def at(colour: str, sq: int, name: str) -> ScenePawn | None:
            progress = (sq - geo.start_square[colour]) % 68
            return ScenePawn(colour, colour, progress, name) if progress <= LAST_TRACK else None
        here = [c for c in COLOURS if at(c, square, "1")]
        before = next(p for c in COLOURS if (p := at(c, (square - 2) % 68 + 1, "1")))
        after = next(p for c in COLOURS if (p := at(c, square % 68 + 1, "2")))
        pairs = [(c, c) for c in here] + list(combinations(here, 2))
        for a, b in pairs:
            yield Cross68Scene((before, after, at(a, square, "3"), at(b, square, "4")))
    for colour in COLOURS:
        for progress in range(LAST_TRACK + 1, GOAL):
            yield Cross68Scene((ScenePawn(colour, colour, progress, "3"), ScenePawn(colour, colour, progress, "4")))


def test_pawns_sharing_a_square_stand_inside_it_readable_at_chat_size():
    """Two pawns share a square on a bridge, a door or a safe square: both stand inside that square
    (a pawn beside it read as standing on the next square), corner to corner; legible on a phone:
    at chat size each is 11 px at least on its short side (they were 9), so they overlap a little, and
    their numbers (6 px high at least: they were 5) never meet, each on its own piece."""
    layout = cross68.Grid(cross68.SIZE, board())
    scale = CHAT_WIDTH / cross68.SIZE
    for view in sharing_every_square():
        places = cross68.pawn_places(layout, view.pawns)
        shared = [place for place in places if place.shared]
        assert len(shared) == 2, view
        for place in shared:
            pawn, xy, diameter = place.pawn, place.xy, place.diameter
            cell = layout.box(*layout.cell_at(xy))
            x0, y0, x1, y1 = body(pawn, xy, diameter)
            assert cell[0] <= x0 and cell[1] <= y0 and x1 <= cell[2] and y1 <= cell[3], view
            assert min(x1 - x0, y1 - y0) * scale >= 11, (place, (x1 - x0) * scale, (y1 - y0) * scale)
            assert digit_height(place.text) * scale >= 6, place
            assert inside(text_box(place.number_at, pawn.label, place.text), (x0, y0, x1, y1))
        a, b = (text_box(place.number_at, place.pawn.label, place.text) for place in shared)
        assert not meet(a, b), view


def test_the_numbers_of_two_pawns_on_one_square_are_drawn_whole_over_both():
    """The front pawn overlaps the back one a little: the back one's number is drawn over it, outlined in
    its own colour, so that no pixel of the other pawn's colour lies in either number's box."""
    layout = cross68.Grid(cross68.SIZE, board())
    players = [PlayerTag(c, (c,)) for c in COLOURS]
    for view in list(sharing_every_square())[:68 * 3:7]:
        plan = cross68.plan(view, players)
        image = plan.picture().convert("RGB")
        shared = [place for place in cross68.pawn_places(layout, view.pawns) if place.shared]
        if shared[0].pawn.colour == shared[1].pawn.colour:
            continue
        for place, other in (shared, shared[::-1]):
            x0, y0, x1, y1 = (round(v) for v in text_box(place.number_at, place.pawn.label, place.text))
            theirs = PIECE_RGB[other.pawn.colour]
            seen = [px for px in image.crop((x0, y0, x1, y1)).get_flattened_data()
                    if sum(abs(a - b) for a, b in zip(px, theirs)) < 40]
            assert not seen, (view, place.pawn)


def test_pawns_in_the_goal_carry_no_label_too_small_to_read():
    """Pawns in the goal never move again: no move names them, and their shapes count them."""
    goal = tuple(ScenePawn(c, c, GOAL, str(i)) for c in COLOURS for i in range(1, 5))
    players = [PlayerTag(c, (c,)) for c in COLOURS]
    labelled = cross68.picture(Cross68Scene(goal), players)
    blank = cross68.picture(Cross68Scene(tuple(replace(p, label="") for p in goal)), players)
    assert labelled.tobytes() == blank.tobytes()


def test_barricades_point_names_are_readable_on_the_grids_letters_and_numbers():
    """A point's name is its column's letter and its row's number, printed along the four sides."""
    assert high_enough(barricade.AXIS, barricade.WIDTH)
    game = Barricade()
    height = barricade.height(4, game.board)
    for point, name in enumerate(game.board.names):
        (top, letter), (bottom, _), (left, number), (right, _) = barricade.axis_spots(game.board, point)
        assert letter + number == name
        assert all(0 < x < barricade.WIDTH and 0 < y < height for x, y in (top, bottom, left, right))


def test_barricades_points_pawns_and_barricades_carry_no_name_too_small_to_read():
    """Their names would not fit at a readable size: the grid's letters and numbers name them."""
    game = Barricade()
    ix = game.board.index
    start = game.new_game(4, {}, seed=0)
    red = tuple(sorted([ix["c3"], ix["g5"]] + [START] * 3))
    state = start.evolve(order=(0, 1, 2, 3), ranking=(), stage=MOVE, die=2, pawns=(red,) + start.pawns[1:])
    players = [PlayerTag(f"Player {i + 1}", (c,), i == 0) for i, c in enumerate(state.colours)]
    image = barricade.picture(game, state, players, focus="c3").convert("RGB")
    for point, name in enumerate(game.board.names):
        x, y = barricade.centre(game.board, point)
        assert len(set(image.crop((x - 8, y - 8, x + 9, y + 9)).get_flattened_data())) == 1, name


def test_paritis_square_names_and_piece_numbers_are_readable():
    assert high_enough(pariti.AXIS, pariti.WIDTH)
    assert high_enough(label_size(pariti.PIECE, "16"), pariti.WIDTH)


def test_paritis_reachable_squares_are_named_readably():
    """The squares a chosen piece can reach (empty ones: a partner to pair with leaves no room)."""
    board = [0] * N_SQUARES
    board[SQUARE_INDEX["d4"]], board[SQUARE_INDEX["a10"]] = parse_piece("B4"), parse_piece("B9")
    image = pariti.picture(Pariti(), PaState(seed=0, board=tuple(board), seat=0), [], focus="B4").convert("RGB")
    for name in ("c3", "e4"):   # one step away: no path drawn over them
        x0, y0, x1, y1 = pariti.square_box(SQUARE_INDEX[name])
        inside = image.crop((x0 + 6, y0 + 6, x1 - 6, y1 - 6))   # within the square's frame
        ink = Image.new("1", inside.size)
        ink.putdata([all(abs(a - b) < 40 for a, b in zip(px, INK)) for px in inside.get_flattened_data()])
        left, top, right, bottom = ink.getbbox()
        assert (bottom - top) * CHAT_WIDTH / pariti.WIDTH >= CHAT_TEXT, name
