"""The Barricade board picture: format, size, and pixel probes where pieces stand."""
from __future__ import annotations

import io
from itertools import islice

from PIL import Image

from bot.games.barricade import Barricade
from bot.games.barricade.state import MOVE, START, START_OF_TURN, Held
from renderer import PlayerTag, layout, render_png
from renderer.barricade import BAR_RGB, FREE_RGB, LAST_MOVE_RGB, POINT_R, RING_R, axis_spots, centre, slot_centres
from renderer.colours import CHOICE, PIECE_RGB
from tests.benchmarks.common import random_game

GAME = Barricade()
IX = GAME.board.index


def tags(state) -> list[PlayerTag]:
    return [PlayerTag(f"Player {i + 1}", (c,), i == state.seat) for i, c in enumerate(state.colours)]


def position(n=4, **changes):
    state = GAME.new_game(n, {}, seed=0)
    return state.evolve(**{"order": tuple(range(n)), "ranking": (), "stage": MOVE, **changes})


def image(state, focus=None) -> Image.Image:
    png = render_png(GAME, state, tags(state), "en", focus)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) <= 150_000
    return Image.open(io.BytesIO(png)).convert("RGB")


def near(rgb, expected) -> bool:
    """Colour match, allowing for the palette's approximate nearest-colour search."""
    return sum(abs(a - b) for a, b in zip(rgb, expected)) < 12


def probe(im: Image.Image, point: str, dx: int = 0, dy: int = -14):
    x, y = centre(GAME.board, IX[point])
    return im.getpixel((x + dx, y + dy))


def test_size_format_and_pieces():
    red = tuple(sorted([IX["c3"], IX["g5"]] + [START] * 3))
    state = position(pawns=(red,) + GAME.new_game(4, {}, 0).pawns[1:], die=4)
    png = render_png(GAME, state, tags(state), "en", None)
    raw = Image.open(io.BytesIO(png))
    assert raw.mode == "P" and 1000 <= max(raw.size) <= 1150   # the legend's names are readable at chat size
    im = raw.convert("RGB")
    assert probe(im, "c3") == PIECE_RGB["red"] and probe(im, "g5") == PIECE_RGB["red"]
    assert probe(im, "i3") == BAR_RGB and probe(im, "i13") == BAR_RGB   # black points (BA-2.1)
    assert near(probe(im, "d3"), (255, 255, 255))                            # an empty point
    slots = slot_centres(GAME.board, "red")
    assert im.getpixel((slots[0][0], slots[0][1] - 12)) == PIECE_RGB["red"]   # three in the start area
    assert im.getpixel((slots[3][0], slots[3][1] - 12)) != PIECE_RGB["red"]
    blue_slot = slot_centres(GAME.board, "blue")[4]
    assert im.getpixel((blue_slot[0], blue_slot[1] - 12)) == PIECE_RGB["blue"]


def test_focus_shows_where_the_pawn_can_go_and_last_move():
    red = tuple(sorted([IX["c3"]] + [START] * 4))
    state = position(pawns=(red,) + GAME.new_game(4, {}, 0).pawns[1:], die=2, last_move=(0, IX["c1"], IX["c3"]))
    dests = {a.split("-")[1] for a in GAME.legal_actions(state) if a.startswith("c3-")}
    assert dests == {"a3", "e3", "c5"}
    im = image(state, focus="c3")
    for d in dests:
        assert probe(im, d, dy=-(RING_R - 2)) == CHOICE
    assert probe(im, "d13", dy=-(RING_R - 2)) != CHOICE
    assert probe(im, "c1", dy=-(POINT_R + 3)) in (LAST_MOVE_RGB, CHOICE)
    plain = image(state)
    assert probe(plain, "a3", dy=-(RING_R - 2)) != CHOICE


def highlighted(im: Image.Image, xy) -> int:
    """CHOICE pixels of the grid letter or number around `xy`."""
    x, y = xy
    return sum(1 for px in im.crop((x - 18, y - 18, x + 18, y + 18)).get_flattened_data() if near(px, CHOICE))


def test_the_letters_and_numbers_naming_the_points_to_choose_stand_out():
    """Points carry no names of their own: the grid's letters and numbers of a chosen pawn's
    destinations (columns a, c, e; rows 3, 5) are highlighted, the others not."""
    red = tuple(sorted([IX["c3"]] + [START] * 4))
    state = position(pawns=(red,) + GAME.new_game(4, {}, 0).pawns[1:], die=2)
    focused, plain = image(state, focus="c3"), image(state)
    for point in ("a3", "e3", "c5"):
        for xy, _ in axis_spots(GAME.board, IX[point]):
            assert highlighted(focused, xy) > 40 and highlighted(plain, xy) == 0, point
    for xy, _ in axis_spots(GAME.board, IX["q13"]):
        assert highlighted(focused, xy) == 0


def test_free_points_marked_when_a_barricade_must_be_placed():
    state = position(n=2, stage=START_OF_TURN, held=(Held(0, IX["i3"], False, True),),
                     barricades=tuple(b for b in GAME.board.black_points if b != IX["i3"]))
    im = image(state)
    assert probe(im, "i3", dy=-(POINT_R + 2)) == FREE_RGB
    assert probe(im, "c1", dy=-(POINT_R + 2)) != FREE_RGB    # start line (BA-5.3)
    assert probe(im, "i11", dy=-(POINT_R + 2)) != FREE_RGB   # holds a barricade


def test_focused_area_rings_its_free_points():
    state = position(n=2, stage=START_OF_TURN, held=(Held(0, IX["i3"], False, True),),
                     barricades=tuple(b for b in GAME.board.black_points if b != IX["i3"]))
    area = GAME.action_group(state, "bar:i3")
    im = image(state, focus=area)
    assert probe(im, "i3", dy=-(RING_R - 2)) == CHOICE     # in the area (rows 2 to 3)
    assert probe(im, "e5", dy=-(POINT_R + 2)) == FREE_RGB     # free, in another area


def test_the_legend_numbers_the_order_of_play_but_not_on_the_final_board():
    """Under "X wins", "1. Ann, 2. Bob" would read as a ranking: the order of play is numbered only while
    the game goes on."""
    playing = position()
    assert [item.role for item in layout(GAME, playing, tags(playing), "en").of("name")][:2] == \
        ["1. Player 1", "2. Player 2"]
    final = next(state for seed in range(1, 40) for state in [list(random_game(GAME, 4, seed))[-1]]
                 if GAME.result(state) is not None and state.order)
    names = [item.role for item in layout(GAME, final, tags(final), "en").of("name")]
    assert sorted(names) == [f"Player {i}" for i in range(1, 5)]


def traced_ways(seeds=range(1, 4), length=600):
    """(before, after, the trace's points) of every pawn move of the first `length` positions of random
    games, each traced as the player to move next sees it."""
    for seed in seeds:
        states = list(islice(random_game(GAME, 4, seed), length))
        for before, after in zip(states, states[1:]):
            if after.last_move is not None and after.last_move != before.last_move:
                (trace,) = layout(GAME, after, tags(after), "en", traced=[before, after]).of("trace")
                yield before, after, [IX[name] for name in trace.role.split()]


def test_a_trace_follows_a_way_the_pawn_could_take_never_through_a_barricade():
    """The trace ran i3 -> e1 through the barricade on g3 (the shortest way): it follows a
    way of the die's length from the point left, along the lines, passing no barricade of the position
    before the move and no point twice (a pawn leaving its start area enters by its entry point, BA-3.2;
    a bounce goes onto the goal and back, BA-6.2)."""
    board, count = GAME.board, 0
    for before, after, way in traced_ways():
        seat, frm, dest = after.last_move
        assert way[-1] == dest and all(b in board.neighbours[a] for a, b in zip(way, way[1:])), way
        assert not set(way[:-1]) & set(before.barricades), (before.barricades, way)
        if frm == START:
            assert way[0] == board.entry[before.colours[seat]] and len(way) == before.die, way
        else:
            assert way[0] == frm and len(way) == before.die + 1, way
            assert len(set(way)) == len(way) or way[1] == board.goal, way
        count += 1
    assert count > 300


def test_a_trace_around_a_barricade():
    """The hard case of the review (i3 -> e1 with a barricade on g3) goes round it, along row 1."""
    red = tuple(sorted([IX["i3"]] + [START] * 4))
    before = position(pawns=(red,) + GAME.new_game(4, {}, 0).pawns[1:], die=6,
                      barricades=tuple(sorted(set(GAME.board.black_points) | {IX["g3"]})))
    assert ("i3", "e1") in {tuple(a.split("-")) for a in GAME.legal_actions(before)}
    after = GAME.apply(before, "i3-e1").state
    (trace,) = layout(GAME, after, tags(after), "en", traced=[before, after]).of("trace")
    assert "g3" not in trace.role.split() and trace.role.split()[0] == "i3" and trace.role.split()[-1] == "e1"
