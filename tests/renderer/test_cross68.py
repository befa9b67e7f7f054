"""The 68-square board picture: format, size, and pixel probes where pieces stand
(tests/rules/boards.md section 1)."""
from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from bot.games import get_ruleset
from bot.games.base import msg
from bot.games.parcheesi.board import GOAL, HOUSE, Cross68Scene, ScenePawn, board
from renderer import cross68, render_png
from renderer.colours import DIE_SPENT, INK, PAPER, PIECE_RGB, TRACE, WHITE, blend, shape_of
from renderer.legend import PlayerTag
from renderer.sprites import piece_reach

COLOURS = ("yellow", "blue", "red", "green")
PLAYERS = [PlayerTag(f"Player {c}", (c,), to_move=(c == "red")) for c in COLOURS]
LAYOUT = cross68.Grid(cross68.SIZE, board())


class StubRuleset:
    """Stands for a Parcheesi-family ruleset: its state is already a Cross68Scene."""

    board_family = "renderer.cross68"

    def __init__(self, game_id: str = "parcheesi"):
        self.id = game_id

    def scene(self, state: Cross68Scene) -> Cross68Scene:
        return state

    def result(self, state: Cross68Scene) -> None:
        return None


def pawn(colour: str, progress: int, label: str = "1", route: str | None = None) -> ScenePawn:
    return ScenePawn(colour, route or colour, progress, label)


def all_home() -> tuple[ScenePawn, ...]:
    return tuple(pawn(c, HOUSE, str(i)) for c in COLOURS for i in range(1, 5))


def draw(view: Cross68Scene, players=PLAYERS, focus=None, game_id="parcheesi") -> Image.Image:
    data = render_png(StubRuleset(game_id), view, players, "en", focus)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    assert image.mode == "P"
    return image.convert("RGB")


def close(a, b, tolerance=12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def places(view: Cross68Scene) -> dict[ScenePawn, tuple[float, float]]:
    return {place.pawn: place.xy for place in cross68.pawn_places(LAYOUT, view.pawns)}


def probes(view: Cross68Scene) -> dict[ScenePawn, tuple[int, int]]:
    """A point inside each pawn's shape, left of its label."""
    return {place.pawn: (round(place.xy[0] - piece_reach(shape_of(place.pawn.colour), place.diameter, True)
                               * (0.5 if shape_of(place.pawn.colour) == "diamond" else 0.6)),
                         round(place.xy[1])) for place in cross68.pawn_places(LAYOUT, view.pawns)}


def count(image: Image.Image, box, colour, tolerance=12) -> int:
    region = image.crop(box)
    return sum(1 for px in region.get_flattened_data() if close(px, colour, tolerance))


def test_png_size_and_weight():
    view = Cross68Scene(all_home(), dice=(5, 3))
    data = render_png(StubRuleset(), view, PLAYERS, "en", None)
    assert Image.open(io.BytesIO(data)).size == (cross68.SIZE, cross68.SIZE)
    assert len(data) < 150_000


def test_empty_track_square_and_goal_colours():
    image = draw(Cross68Scene(all_home()))
    geo = board()
    cx, cy = LAYOUT.centre(geo.track_cells[1])
    assert close(image.getpixel((round(cx), round(cy + 8))), WHITE)
    start = LAYOUT.centre(geo.track_cells[geo.start_square["blue"]])
    assert close(image.getpixel((round(start[0]), round(start[1] + 8))), PIECE_RGB["blue"])
    for colour in COLOURS:   # each corridor leads to its colour's triangle of the goal
        tri = cross68.geometry.goal_triangle(LAYOUT, colour)
        centroid = (round(sum(x for x, _ in tri) / 3), round(sum(y for _, y in tri) / 3))
        assert close(image.getpixel(centroid), PIECE_RGB[colour])


def test_sixteen_pawns_each_drawn_in_its_colour_where_it_stands():
    """Four pawns per colour spread over house, track, corridor and goal (PM-1.5)."""
    pawns = []
    for i, colour in enumerate(COLOURS):
        pawns += [pawn(colour, HOUSE, "1"), pawn(colour, 3 + 10 * i, "2"), pawn(colour, 66, "3"),
                  pawn(colour, GOAL, "4")]
    view = Cross68Scene(tuple(pawns))
    image = draw(view)
    for p, xy in probes(view).items():
        assert close(image.getpixel(xy), PIECE_RGB[p.colour]), p


def test_house_pawns_stand_in_their_house_and_goal_pawns_in_their_triangle():
    view = Cross68Scene((pawn("green", HOUSE), pawn("blue", GOAL)))
    spots = places(view)
    gx0, gy0, gx1, gy1 = LAYOUT.house_box("green")
    x, y = spots[view.pawns[0]]
    assert gx0 < x < gx1 and gy0 < y < gy1
    goal = LAYOUT.goal_box()
    x, y = spots[view.pawns[1]]
    assert goal[0] < x < goal[2] and goal[1] < y < goal[3] and x > (goal[0] + goal[2]) / 2   # blue: the right-hand side
    image = draw(view)
    for p, xy in probes(view).items():
        assert close(image.getpixel(xy), PIECE_RGB[p.colour])


def square_box(number: int):
    return LAYOUT.box(*board().track_cells[number])


def test_two_pawns_on_a_square_both_stand_inside_it_none_on_a_neighbouring_square():
    """Yellow 1 and 3 both on 5 (yellow 3 was drawn on 6), red 3 and blue 2 on 63
    (red 3 was drawn on 64): each pawn's colour shows inside its square, none on the squares
    around it."""
    geo = board()
    on = {c: lambda square, c=c: (square - geo.start_square[c]) % 68 for c in COLOURS}
    view = Cross68Scene((pawn("yellow", on["yellow"](5), "1"), pawn("yellow", on["yellow"](5), "3"),
                      pawn("red", on["red"](63), "3"), pawn("blue", on["blue"](63), "2")))
    assert {geo.track_square(p.route, p.progress) for p in view.pawns} == {5, 63}
    image = draw(view)
    for square, colours in ((5, ("yellow",)), (63, ("red", "blue"))):
        c, r = geo.track_cells[square]
        for colour in colours:
            assert count(image, square_box(square), PIECE_RGB[colour], 10) > 20, (square, colour)
            for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):   # the squares beside it, and the corridors
                assert count(image, LAYOUT.box(c + dc, r + dr), PIECE_RGB[colour], 10) < 20, (square, colour, dc, dr)


def frame_probe(view: Cross68Scene) -> tuple[int, int]:
    """A point of a shared square's frame, between its two pawns (which stand corner to corner)."""
    first = view.pawns[0]
    x0, y0, x1, y1 = LAYOUT.box(*cross68.geometry.cell_of(board(), first.route, first.progress))
    return x1 - 1, (y0 + y1) // 2


@pytest.mark.parametrize(("pawns", "game_id", "closed"), [
    ((pawn("yellow", 10, "1"), pawn("yellow", 10, "2")), "parcheesi", True),            # a bridge
    ((pawn("yellow", 10, "1"), pawn("red", 44, "2")), "parcheesi", False),              # two colours: no bridge
    ((pawn("yellow", 10, "1"), pawn("blue", 10, "2", route="yellow")), "parchis-maghreb", True),   # one side
    ((pawn("yellow", 10, "1"), pawn("red", 44, "2")), "parchis-maghreb", True),         # mixed door, MG-8.1
])
def test_bridge_or_door_is_marked(pawns, game_id, closed):
    ruleset = get_ruleset(game_id)   # its board view says whether any two pieces close a square
    view = Cross68Scene(pawns, any_pair_blocks=ruleset.scene(ruleset.new_game(2, {}, 1)).any_pair_blocks)
    image = draw(view, game_id=game_id)
    assert close(image.getpixel(frame_probe(view)), INK, 40) == closed


def test_maghreb_pieces_keep_their_colour_on_the_side_route():
    """Green pieces follow the red route (MG-1.3): drawn green, in the red house."""
    pieces = tuple(pawn(c, HOUSE, str(i), route="red") for c in ("red", "green") for i in range(1, 5)) + \
        tuple(pawn(c, HOUSE, str(i), route="yellow") for c in ("yellow", "blue") for i in range(1, 5))
    view = Cross68Scene(pieces)
    players = [PlayerTag("A", ("red", "green"), True), PlayerTag("B", ("yellow", "blue"))]
    image = draw(view, players, game_id="parchis-maghreb")
    hx0, hy0, hx1, hy1 = LAYOUT.house_box("red")
    for p, (x, y) in probes(view).items():
        if p.route == "red":
            assert hx0 < x < hx1 and hy0 < y < hy1
        assert close(image.getpixel((x, y)), PIECE_RGB[p.colour])
    # The blue and green houses are not in play: faded.
    _, by0, bx1, _ = LAYOUT.house_box("blue")   # its outer corner: the inner sides hold square numbers
    assert close(image.getpixel((bx1 - 5, by0 + 5)), blend(PIECE_RGB["blue"], PAPER, cross68.geometry.FADE))


def test_dice_in_the_acting_house_spent_one_grey():
    view = Cross68Scene(all_home(), dice=(5, 3))
    panel = LAYOUT.panel_box("red")     # red is to move
    fresh = draw(view)
    spent = draw(replace(view, used_dice=(True, False)))
    assert count(spent, panel, DIE_SPENT, 3) > count(fresh, panel, DIE_SPENT, 3) + 1000
    assert count(draw(Cross68Scene(all_home())), panel, INK, 30) < count(fresh, panel, INK, 30)


def test_last_move_outlined_with_an_arrow():
    view = Cross68Scene((pawn("red", 30),), last_move=("red", 25, 30))
    image = draw(view)
    geo = board()
    for progress in (25, 30):
        assert count(image, LAYOUT.box(*cross68.geometry.cell_of(geo, "red", progress)), TRACE, 40) > 100
    between = LAYOUT.box(*cross68.geometry.cell_of(geo, "red", 27))
    assert count(image, between, TRACE, 40) > 50     # the arrow runs along the way
    assert count(draw(Cross68Scene((pawn("red", 30),))), between, TRACE, 40) == 0


def test_focus_rings_the_named_pawn():
    view = Cross68Scene((pawn("yellow", 3, "2"), pawn("red", 3, "2")))
    box = LAYOUT.box(*board().track_cells[board().track_square("yellow", 3)])
    assert count(draw(view, focus="Y2"), box, cross68.geometry.FOCUS, 30) > 50
    assert count(draw(view, focus=None), box, cross68.geometry.FOCUS, 30) == 0
    red_box = LAYOUT.box(*board().track_cells[board().track_square("red", 3)])
    assert count(draw(view, focus="Y2"), red_box, cross68.geometry.FOCUS, 30) == 0
    assert cross68.pieces.focused(view.pawns[0], "Y2:5") and not cross68.pieces.focused(view.pawns[0], "Y23")


def test_names_and_notes_are_written_in_the_houses():
    quiet = draw(Cross68Scene(all_home()), players=[])
    named = draw(Cross68Scene(all_home()))
    noted = draw(Cross68Scene(all_home(), notes=(msg("player.default_name", number=7),)))
    for colour in COLOURS:
        x0, y0, x1, y1 = LAYOUT.panel_box(colour)
        top = (x0, y0, x1, y0 + LAYOUT.cell)
        assert count(named, top, INK, 60) > count(quiet, top, INK, 60)
    x0, y0, x1, y1 = LAYOUT.panel_box("red")
    bottom = (x0, (y0 + y1) // 2, x1, y1)
    assert count(noted, bottom, INK, 60) > count(named, bottom, INK, 60)


def test_a_pawn_keeps_its_house_slot_whoever_else_is_home():
    alone = Cross68Scene((pawn("blue", HOUSE, "4"), pawn("blue", 5, "1"), pawn("blue", 6, "2"), pawn("blue", 7, "3")))
    full = Cross68Scene(tuple(pawn("blue", HOUSE, str(i)) for i in range(1, 5)))
    assert places(alone)[alone.pawns[0]] == places(full)[full.pawns[3]]


def test_maghrebs_unused_routes_are_drawn_muted():
    """Maghreb's green and blue pieces follow red's and yellow's routes (MG-1.5), so green's
    and blue's corridors and start squares are nobody's: drawn faded like their houses, the others in full."""
    ruleset = get_ruleset("parchis-maghreb")
    state = ruleset.new_game(2, {}, 1)
    players = [PlayerTag("A", ("red", "green"), True), PlayerTag("B", ("yellow", "blue"))]
    plan = cross68.layout(ruleset, state, players)
    geo = board()
    muted = {item.ref for item in plan.of("square") if item.role == "muted"}
    assert muted == {f"{c} H{k}" for c in ("green", "blue") for k in range(1, 8)} | \
        {str(geo.start_square[c]) for c in ("green", "blue")}
    image = plan.picture().convert("RGB")

    def ground(ref: str) -> tuple[int, int, int]:
        x0, y0, x1, y1 = plan.square(ref).box
        return image.getpixel((round(x0 + 4), round(y0 + 4)))

    for colour in ("green", "blue"):
        assert ground(f"{colour} H3") == blend(cross68.geometry.tint(colour), PAPER, cross68.geometry.FADE)
        assert ground(str(geo.start_square[colour])) == blend(PIECE_RGB[colour], PAPER, cross68.geometry.FADE)
    for colour in ("red", "yellow"):
        assert ground(f"{colour} H3") == cross68.geometry.tint(colour)
        assert ground(str(geo.start_square[colour])) == PIECE_RGB[colour]
    four = get_ruleset("parcheesi")
    assert not [item for item in cross68.layout(four, four.new_game(4, {}, 1), PLAYERS).of("square")
                if item.role == "muted"]
