"""Colour is never the only cue: every board with every colour present, seen through simulated
deuteranopia, protanopia and tritanopia (Machado, Oliveira & Fernandes 2009, severity 1, applied
with Pillow's Image.convert matrix), keeps pieces of different colours apart: by colour when the
simulated colours stay far apart, else by the shape each colour has on the board."""
from __future__ import annotations

import itertools
import math

import pytest
from PIL import Image, ImageChops, ImageCms

from bot.games import GAME_IDS, get_ruleset
from bot.games.barricade import Barricade
from bot.games.barricade.state import MOVE
from bot.games.parcheesi.board import Cross68Scene, ScenePawn
from renderer import barricade, cross68, pariti
from renderer.colours import CHOICE, PIECE_RGB, TRACE, shape_of
from renderer.legend import PlayerTag

MACHADO = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
# CIE76 colour difference below which two pieces' colours are not a cue of their own. 2.3 is the
# just-noticeable difference between large patches side by side; pieces are about 18 px across on
# a phone (small fields blur hue differences) and must be named from memory, not compared side by
# side: ten times that, rounded up. Red and green under deuteranopia are 10 apart, Barricade's gold
# goal and yellow pieces 13 to 15, blue and green under tritanopia 20.
MIN_DELTA_E = 25
# Two footprints with less overlap than this (intersection over union) are different shapes.
MAX_SAME_SHAPE = 0.85
_LAB = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB"), "RGB", "LAB")


def simulate(image: Image.Image, deficiency: str) -> Image.Image:
    return image.convert("RGB").convert("RGB", tuple(v for row in MACHADO[deficiency] for v in (*row, 0)))


def delta_e(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    def lab(rgb):
        L, A, B = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), _LAB).getpixel((0, 0))
        return L * 100 / 255, A - 128, B - 128
    return math.dist(lab(a), lab(b))


def footprint(picture: Image.Image, empty: Image.Image, box) -> Image.Image:
    """Where a piece changed the board within `box` (1-bit)."""
    diff = ImageChops.difference(picture.convert("RGB").crop(box), empty.convert("RGB").crop(box)).convert("L")
    return diff.point(lambda v: 255 if v > 40 else 0).convert("1")


def overlap(a: Image.Image, b: Image.Image) -> float:
    both = ImageChops.logical_and(a, b).histogram()[255]
    either = ImageChops.logical_or(a, b).histogram()[255]
    return both / either


def assert_apart(fills: dict[str, tuple[int, int, int]], shapes: dict[str, Image.Image], what: str) -> None:
    """Each pair of colours, under each deficiency: far apart in colour, or of different shapes."""
    for deficiency, (a, b) in itertools.product(MACHADO, itertools.combinations(fills, 2)):
        seen = {c: simulate(Image.new("RGB", (1, 1), fills[c]), deficiency).getpixel((0, 0)) for c in (a, b)}
        if delta_e(seen[a], seen[b]) < MIN_DELTA_E:
            assert overlap(shapes[a], shapes[b]) < MAX_SAME_SHAPE, f"{what}: {a} and {b} alike under {deficiency}"


def cross_board(colour: str | None) -> Image.Image:
    """A pawn of `colour` (or none) on square 15 of the yellow route, another far from it."""
    pawns = (ScenePawn("yellow", "yellow", 40, "1"),) + ((ScenePawn(colour, "yellow", 10, "2"),) if colour else ())
    return cross68.picture(Cross68Scene(pawns, any_pair_blocks=True),
                           [PlayerTag("A", ("yellow", "blue", "red", "green"))])


def test_the_cross_boards_pawns_of_every_colour_have_their_own_shape_where_colour_fails():
    layout = cross68.Grid(cross68.SIZE, cross68.geometry.board())
    x, y = layout.centre(layout.geo.track_cells[15])
    box = tuple(round(v) for v in (x - layout.cell, y - layout.cell, x + layout.cell, y + layout.cell))
    empty = cross_board(None)
    colours = ("yellow", "blue", "red", "green")
    assert_apart({c: PIECE_RGB[c] for c in colours}, {c: footprint(cross_board(c), empty, box) for c in colours},
                 "cross board pawns")


def test_the_cross_boards_legend_shows_each_colours_shape():
    view = Cross68Scene(tuple(ScenePawn(c, c, 0, "1") for c in ("yellow", "blue", "red", "green")))
    players = [PlayerTag(n, (c,)) for n, c in zip("ABCD", ("yellow", "blue", "red", "green"))]
    picture = cross68.picture(view, players).convert("RGB")
    layout = cross68.Grid(cross68.SIZE, cross68.geometry.board())
    swatches = {}
    for colour in ("yellow", "blue", "red", "green"):
        x0, y0, _, _ = layout.panel_box(colour)
        pad, size = layout.cell // 5, cross68.geometry.readable_size(cross68.SIZE)
        box = (x0 + pad + 8, y0 + pad + 5, x0 + pad + 8 + size, y0 + pad + 5 + size)
        region = picture.crop(box)
        mask = Image.new("1", region.size)
        mask.putdata([255 if max(abs(p - q) for p, q in zip(px, PIECE_RGB[colour])) < 30 else 0
                      for px in region.get_flattened_data()])
        swatches[colour] = mask
    assert_apart({c: PIECE_RGB[c] for c in swatches}, swatches, "cross board legend")


def barricade_board(colour: str | None) -> Image.Image:
    game = Barricade()
    state = game.new_game(4, {}, seed=0)
    state = state.evolve(order=(0, 1, 2, 3), ranking=(), stage=MOVE, barricades=())
    pawns = [tuple(p for p in seat_pawns) for seat_pawns in state.pawns]
    if colour is not None:
        seat = state.colours.index(colour)
        pawns[seat] = (game.board.index["c5"],) + pawns[seat][1:]
    state = state.evolve(pawns=tuple(pawns))
    players = [PlayerTag(str(i), (c,)) for i, c in enumerate(state.colours)]
    return barricade.picture(game, state, players)


def test_barricade_pieces_and_the_gold_goal_stay_apart():
    game = Barricade()
    x, y = barricade.centre(game.board, game.board.index["c5"])
    r = barricade.RING_R + 14
    box = (x - r, y - r, x + r, y + r)
    empty = barricade_board(None)
    colours = Barricade().new_game(4, {}, seed=0).colours
    shapes = {c: footprint(barricade_board(c), empty, box) for c in colours}
    # The goal: its gold pixels, in a box of the same size around its centre.
    gx, gy = barricade.centre(game.board, game.board.goal)
    region = empty.convert("RGB").crop((gx - r, gy - r, gx + r, gy + r))
    goal = Image.new("1", region.size)
    goal.putdata([255 if max(abs(p - q) for p, q in zip(px, barricade.GOAL_RGB)) < 30 else 0
                  for px in region.get_flattened_data()])
    shapes["goal"] = goal
    assert_apart({**{c: PIECE_RGB[c] for c in colours}, "goal": barricade.GOAL_RGB}, shapes, "Barricade")


def test_paritis_two_sides_stay_apart_by_colour_alone():
    """Blue against a light pink: apart under every deficiency (their lightness differs)."""
    fills = {"blue": pariti.PIECE_FILL[0], "pink": pariti.PIECE_FILL[1]}
    for deficiency in MACHADO:
        seen = [simulate(Image.new("RGB", (1, 1), f), deficiency).getpixel((0, 0)) for f in fills.values()]
        assert delta_e(*seen) >= MIN_DELTA_E, deficiency


@pytest.mark.parametrize("deficiency", list(MACHADO))
def test_simulation_keeps_grey_grey(deficiency):
    """The matrices are applied as intended: each row sums to 1, so neutral colours stay neutral."""
    grey = simulate(Image.new("RGB", (1, 1), (128, 128, 128)), deficiency).getpixel((0, 0))
    assert all(abs(v - 128) <= 2 for v in grey)


def game_fills(game: str) -> dict[str, tuple[int, int, int]]:
    """The pieces' colours of every seat of a game at its largest table (Maghreb: two per side)."""
    ruleset = get_ruleset(game)
    if game == "pariti":
        return {"blue": pariti.PIECE_FILL[0], "pink": pariti.PIECE_FILL[1]}
    return {c: PIECE_RGB[c] for seat in ruleset.seat_colours(ruleset.max_players, {}) for c in seat}


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_trace_and_the_choice_are_no_players_colour_under_any_deficiency(game):
    """The moves traced (a line, numbered rings) and what a player is choosing
    (rings, tinted squares) must not read as a player's piece, whatever the eye: apart from every
    player's colour in this game, and from each other, by MIN_DELTA_E under every simulation."""
    fills = {**game_fills(game), "trace": TRACE, "choice": CHOICE}
    for deficiency, (a, b) in itertools.product(["normal", *MACHADO], itertools.combinations(fills, 2)):
        if {a, b} & {"trace", "choice"}:
            seen = [fills[c] if deficiency == "normal" else
                    simulate(Image.new("RGB", (1, 1), fills[c]), deficiency).getpixel((0, 0)) for c in (a, b)]
            assert delta_e(*seen) >= MIN_DELTA_E, f"{game}: {a} and {b} alike under {deficiency}"


def test_barricades_and_blue_pawns_both_square_stay_apart_by_colour():
    """Blue pawns are squares, as barricades are: a barricade is far darker under every deficiency."""
    for deficiency in MACHADO:
        seen = [simulate(Image.new("RGB", (1, 1), c), deficiency).getpixel((0, 0))
                for c in (PIECE_RGB["blue"], barricade.BAR_RGB)]
        assert delta_e(*seen) >= MIN_DELTA_E, deficiency
    assert shape_of("blue") == "square"


def chroma(rgb: tuple[int, int, int]) -> float:
    """How far from grey a colour looks (CIELAB chroma)."""
    L, A, B = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), _LAB).getpixel((0, 0))
    return math.hypot(A - 128, B - 128)


@pytest.mark.parametrize("deficiency", list(MACHADO))
def test_a_choice_keeps_its_hue_apart_from_the_trace_and_never_looks_disabled(deficiency):
    """The destinations of a chosen piece were a plum that deuteranopia and protanopia turn
    grey, the colour of something disabled (a spent die, an empty point), and close to the trace's purple.
    Seen through each simulation, the choice stays clearly coloured (the plum kept a chroma of 6 under
    deuteranopia; a vivid colour has 40 and more) and far from the trace."""
    seen = {name: simulate(Image.new("RGB", (1, 1), rgb), deficiency).getpixel((0, 0))
            for name, rgb in (("choice", CHOICE), ("trace", TRACE))}
    assert chroma(seen["choice"]) >= 40, seen
    assert delta_e(seen["choice"], seen["trace"]) >= MIN_DELTA_E
