"""The board tells the truth at a glance: nothing
over a piece or the goal, traces a player can follow, the status in the empty house panels and in
the side panels at chat size, a chosen piece told from where it can go."""
from __future__ import annotations

import io

from PIL import Image

from bot.games import get_ruleset
from bot.games.barricade import Barricade
from bot.games.barricade.state import MOVE, ROLL, START, Held
from bot.games.base import Result, msg
from bot.games.parcheesi.board import GOAL, HOUSE, Cross68Scene, ScenePawn, board
from bot.games.pariti import Pariti, PaState, parse_piece
from bot.games.pariti_board import N_SQUARES, SQUARE_INDEX
from renderer import PlayerTag, barricade, cross68, layout, pariti, render_png
from renderer.colours import CHOICE, INK, TRACE
from renderer.fonts import CHAT_TEXT, CHAT_WIDTH

COLOURS = ("yellow", "blue", "red", "green")
LAYOUT = cross68.Grid(cross68.SIZE, board())
GEO = board()


class StubRuleset:
    """A Parcheesi-family ruleset whose state is already a Cross68Scene."""

    board_family = "renderer.cross68"

    def __init__(self, result: Result | None = None):
        self.id, self._result = "parcheesi", result

    def scene(self, state: Cross68Scene) -> Cross68Scene:
        return state

    def result(self, state: Cross68Scene) -> Result | None:
        return self._result


def on(colour: str, square: int) -> int:
    """The progress of a `colour` pawn standing on track square `square`."""
    return (square - GEO.start_square[colour]) % 68


def rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def near(a, b, tolerance: int = 40) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def count(image: Image.Image, box, colour, tolerance: int = 40) -> int:
    return sum(near(px, colour, tolerance) for px in image.crop(tuple(round(v) for v in box)).get_flattened_data())


PLAYERS = [PlayerTag(f"Player {c}", (c,), c == "red") for c in COLOURS]


# --- point 2: nothing over a piece, a number or the goal ----------------------------

def test_the_winners_banner_leaves_the_goal_and_the_track_visible():
    """Today's banner covered the middle of the board: the goal, the pawns on 22, the winning move."""
    pawns = tuple(ScenePawn("yellow", "yellow", GOAL, str(i)) for i in range(1, 5)) + \
        tuple(ScenePawn(c, c, HOUSE, str(i)) for c in COLOURS[1:] for i in range(1, 5))
    view = Cross68Scene(pawns, last_move=("yellow", 70, GOAL))
    image = rgb(render_png(StubRuleset(Result((0,))), view, PLAYERS))
    x0, y0, x1, y1 = LAYOUT.goal_box()
    assert near(image.getpixel((round((x0 + x1) / 2), round((y0 + y1) / 2))), INK)   # the goal's centre dot
    for square in (22, 56):   # the track beside the goal, across the board
        sx0, sy0, sx1, sy1 = LAYOUT.box(*GEO.track_cells[square])
        assert not near(image.getpixel((round((sx0 + sx1) / 2), round((sy0 + sy1) / 2))), (255, 255, 255), 3) or square


def test_order_badges_cover_no_pawn_number():
    """The board of the review (badge-over-pawn.png): moves starting where pawns now stand."""
    view = Cross68Scene((ScenePawn("yellow", "yellow", on("yellow", 46), "2"),
                         ScenePawn("red", "red", on("red", 45), "1"), ScenePawn("red", "red", on("red", 44), "3"),
                         ScenePawn("green", "green", on("green", 43), "1")))
    moves = [("yellow", on("yellow", 40), on("yellow", 46)), ("red", on("red", 44), on("red", 45)),
             ("red", on("red", 43), on("red", 44))]
    image = cross68.picture(view, PLAYERS, moves=moves).convert("RGB")
    for square in (46, 45, 44, 43):   # the middle of each pawn, where its number is, shows no trace colour
        mx, my = LAYOUT.centre(GEO.track_cells[square])
        assert count(image, (mx - 8, my - 10, mx + 8, my + 10), TRACE, 30) == 0, square


# --- point 3: traces a player can follow ------------------------------------------------

def test_a_one_square_move_is_still_drawn():
    view = Cross68Scene((ScenePawn("red", "red", on("red", 30), "1"),), last_move=("red", on("red", 29), on("red", 30)))
    image = rgb(render_png(StubRuleset(), view, PLAYERS))
    x0, y0, x1, y1 = LAYOUT.box(*GEO.track_cells[29])   # the square left: its inside, apart from its outline
    assert count(image, (x0 + 8, y0 + 8, x1 - 8, y1 - 8), TRACE, 30) > 80


def test_two_moves_over_the_same_squares_run_apart():
    view = Cross68Scene((ScenePawn("red", "red", on("red", 48), "1"), ScenePawn("red", "red", on("red", 49), "2")))
    moves = [("red", on("red", 44), on("red", 48)), ("red", on("red", 45), on("red", 49))]
    image = cross68.picture(view, PLAYERS, moves=moves).convert("RGB")
    assert GEO.track_cells[46][1] == GEO.track_cells[47][1]   # a row: the lines run across 47
    x0, y0, x1, y1 = LAYOUT.box(*GEO.track_cells[47])   # both pass along 47: two lines, not one
    across = [near(image.getpixel((round((x0 + x1) / 2), y)), TRACE, 30) for y in range(y0 + 3, y1 - 3)]
    assert sum(1 for a, b in zip([False] + across, across) if b and not a) == 2


def test_every_trace_is_painted_under_every_piece():
    for game in ("parcheesi", "barricade", "pariti"):
        ruleset = get_ruleset(game)
        plan = layout(ruleset, ruleset.new_game(2, {}, 1), [])
        kinds = [item.kind for item in plan.items]
        traces, pieces = ([i for i, k in enumerate(kinds) if k == "trace"],
                          [i for i, k in enumerate(kinds) if k == "piece"])
        assert not traces or not pieces or max(traces) < min(pieces), game


def test_barricades_traces_follow_the_boards_lines():
    """A pawn from c1 to e3 goes c1-d1-e1-e2-e3 along the lines, not straight across d2."""
    game = Barricade()
    ix = game.board.index
    state = game.new_game(2, {}, 0).evolve(order=(0, 1), ranking=(), stage=MOVE, seat=1,
                                           pawns=((ix["e3"], START, START, START, START), (START,) * 5),
                                           last_move=(0, ix["c1"], ix["e3"]))
    image = rgb(render_png(game, state, [PlayerTag("A", (state.colours[0],)), PlayerTag("B", (state.colours[1],))]))
    (cx, cy), (ex, ey) = barricade.centre(game.board, ix["c1"]), barricade.centre(game.board, ix["e3"])
    straight = ((cx + ex) / 2, (cy + ey) / 2)   # half-way along a straight line: no board line there
    assert count(image, (straight[0] - 4, straight[1] - 4, straight[0] + 4, straight[1] + 4), TRACE, 30) == 0
    dx, dy = barricade.centre(game.board, ix["d1"])
    assert count(image, ((cx + dx) / 2 - 4, dy - 8, (cx + dx) / 2 + 4, dy + 8), TRACE, 30) > 10   # along c1-d1


# --- point 4: the status where there is room, readable at chat size ------------------------

def readable(box, width: int) -> bool:
    return (box[3] - box[1]) * CHAT_WIDTH / width >= CHAT_TEXT


def test_the_house_panels_carry_the_goal_count_the_partner_and_every_note():
    pawns = tuple(ScenePawn("red", "red", GOAL if i < 3 else 5, str(i + 1)) for i in range(4)) + \
        tuple(ScenePawn(c, c, HOUSE, str(i)) for c in ("yellow", "blue", "green") for i in range(1, 5))
    notes = tuple(msg("player.default_name", number=n) for n in range(1, 25))   # more than fit: counted, not dropped
    view = Cross68Scene(pawns, dice=(5, 3), notes=notes)
    players = [PlayerTag(n, (c,), c == "red") for n, c in zip(("Ann", "Bob", "Cat", "Dan"), COLOURS)]
    plan = cross68.plan(view, players, teams=True)
    red = cross68.Grid(cross68.SIZE, board()).panel_box("red")
    in_red = [item for item in plan.of("note")
              if red[0] <= item.box[0] and item.box[2] <= red[2] and red[1] <= item.box[1] and item.box[3] <= red[3]]
    refs = [item.ref for item in in_red]
    assert refs[:2] == ["Goal 3/4", "with Ann"]   # red plays with yellow (seats 0 + 2, PM-10.1)
    assert refs[2] == "Player 1"   # the notes begin in the acting house, go on in the others'
    last = plan.of("note")[-1].ref
    assert last.startswith("and ") and last.endswith("more notes")
    for item in in_red:
        assert readable(item.box, cross68.SIZE), item


def test_barricades_legend_follows_the_rolled_order_with_held_barricades_and_the_movers_die():
    game = Barricade()
    ix = game.board.index
    state = game.new_game(3, {}, 0).evolve(order=(2, 0, 1), ranking=(), stage=MOVE, seat=2, die=4,
                                           held=(Held(0, ix["e5"], False, False),))
    players = [PlayerTag(name, (c,), i == 2) for i, (name, c) in enumerate(zip(("Ann", "Bob", "Cat"), state.colours))]
    plan = layout(game, state, players)
    names = sorted(plan.of("name"), key=lambda item: item.box[1])
    assert [n.ref for n in names] == ["Cat", "Ann", "Bob"]
    assert [d.ref for d in plan.of("die")] == ["4"] and abs(plan.of("die")[0].box[1] - names[0].box[1]) < 10
    held = [p for p in plan.of("piece") if p.square and p.square.endswith(" held")]
    assert len(held) == 1 and abs(held[0].box[1] - names[1].box[1]) < 10   # on Ann's line
    rolled = layout(game, state.evolve(stage=ROLL, seat=0), players)
    assert rolled.of("die") == []   # the next player has not rolled: no die of the previous player


def test_paritis_side_panel_reads_at_chat_size():
    state = PaState(seed=0, board=tuple([0] * N_SQUARES), seat=0, last=(0, parse_piece("B4"), 1, 2))
    plan = layout(Pariti(), state, [PlayerTag("Ann", ()), PlayerTag("Bob", ())])
    words = [item for item in plan.of("note", "name") if item.ref != "draw counter"]
    assert words
    for item in words:
        assert readable(item.box, pariti.WIDTH), item


# --- point 5: the chosen piece and where it can go look different ------------------------

def test_barricades_chosen_pawn_is_framed_its_destinations_ringed():
    game = Barricade()
    ix = game.board.index
    state = game.new_game(2, {}, 0).evolve(order=(0, 1), ranking=(), stage=MOVE, seat=0, die=2,
                                           pawns=((ix["e3"], START, START, START, START), (START,) * 5))
    image = rgb(render_png(game, state,
                           [PlayerTag("A", (state.colours[0],), True), PlayerTag("B", (state.colours[1],))],
                           focus="e3"))
    destinations = [dest for frm, dest in game.moves(state) if frm == ix["e3"]]
    assert destinations
    corner = barricade.RING_R + 1   # a ring leaves the corners of its box empty, a square frame does not
    x, y = barricade.centre(game.board, ix["e3"])
    assert near(image.getpixel((round(x - corner), round(y - corner))), CHOICE)
    for point in destinations:
        x, y = barricade.centre(game.board, point)
        assert near(image.getpixel((round(x + barricade.RING_R - 3), round(y))), CHOICE), point   # ringed
        assert not near(image.getpixel((round(x - corner), round(y - corner))), CHOICE), point


def contrast(a, b) -> float:
    def luminance(c):
        channels = [v / 255 for v in c]
        channels = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in channels]
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_paritis_destination_names_read_on_their_tint():
    """Cyan on light cyan read 2.2:1; a name a player types reads 4.5:1 or more on its square."""
    board_ = [0] * N_SQUARES
    board_[SQUARE_INDEX["d4"]] = parse_piece("B4")
    image = pariti.picture(Pariti(), PaState(seed=0, board=tuple(board_), seat=0), [], focus="B4").convert("RGB")
    x0, y0, x1, y1 = pariti.square_box(SQUARE_INDEX["c3"])
    inside = image.crop((x0 + 8, y0 + 8, x1 - 8, y1 - 8))
    colours = inside.getcolors(1 << 16)
    ground = max(colours)[1]
    ink = min((c for _, c in colours), key=lambda c: sum(c))
    assert contrast(ink, ground) >= 4.5
