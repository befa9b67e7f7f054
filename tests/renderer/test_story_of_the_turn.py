"""The picture tells the story of the turn: every move since the viewer's last turn traced and
numbered in order, and a finished game's board names who won, in every ruleset."""
from __future__ import annotations

import math
import random

import pytest

from bot.games import GAME_IDS, get_ruleset
from bot.games.parcheesi.board import HOUSE, Cross68Scene, ScenePawn
from renderer import PlayerTag, barricade, cross68, layout, pariti, render_png
from renderer.colours import TRACE
from renderer.sheet import Sheet, badge_radius
from tests.benchmarks.common import random_action

NAMES = ("Ann", "Bob", "Cat", "Dan")


def close(a, b, tolerance=30) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def test_every_move_is_traced_and_numbered_in_order_on_the_cross_board():
    view = Cross68Scene((ScenePawn("yellow", "yellow", 10, "1"), ScenePawn("red", "red", 8, "2")))
    moves = [("yellow", 4, 10), ("red", 3, 8)]
    players = [PlayerTag("A", ("yellow",)), PlayerTag("B", ("red",))]
    image = cross68.picture(view, players, moves=moves).convert("RGB")
    layout = cross68.Grid(cross68.SIZE, cross68.geometry.board())
    badges = cross68.plan(view, players, moves=moves).of("badge")
    assert [b.ref for b in badges] == ["1", "2"]
    for (route, start, end), badge in zip(moves, badges):
        for progress in (start, end):   # both squares outlined (a pawn there leaves the corners)
            x0, y0, x1, y1 = layout.box(*cross68.geometry.cell_of(layout.geo, route, progress))
            assert close(image.getpixel((x0 + 4, y0 + 4)), TRACE, 60), (route, progress)
        x0, y0, x1, y1 = badge.box   # its order badge, beside the square it left
        assert close(image.getpixel((round(x0 + (x1 - x0) * 0.2), round((y0 + y1) / 2))), TRACE), (route, start)
        sx0, sy0, sx1, sy1 = layout.box(*cross68.geometry.cell_of(layout.geo, route, start))
        assert abs((x0 + x1) / 2 - (sx0 + sx1) / 2) <= 2 * layout.cell
        assert abs((y0 + y1) / 2 - (sy0 + sy1) / 2) <= 2 * layout.cell
    without = cross68.picture(view, [PlayerTag("A", ("yellow",)), PlayerTag("B", ("red",))],
                              moves=moves[1:]).convert("RGB")
    x0, y0, x1, y1 = layout.box(*cross68.geometry.cell_of(layout.geo, "yellow", 4))
    assert not close(without.getpixel((x0 + 4, y0 + 4)), TRACE)   # only the moves given


def random_history(game: str, seed: int, finish: bool, n: int = 150, teams: bool = False):
    ruleset = get_ruleset(game)
    options = {"teams": True} if teams else {}
    players = ruleset.player_range(options)[1]
    state, rng = ruleset.new_game(players, options, seed), random.Random(seed)
    history = [state]
    while ruleset.result(state) is None and (finish or len(history) <= n):
        action = random_action(ruleset, state, rng)
        state = ruleset.apply(state, action).state
        history.append(state)
    colours = ruleset.seat_colours(players, options)
    return ruleset, state, [PlayerTag(NAMES[i], colours[i]) for i in range(players)], history


@pytest.mark.parametrize("game, family", [("parcheesi", cross68), ("pariti", pariti)])
def test_the_moves_along_a_history_are_each_move_made_in_order(game, family):
    ruleset, _, _, history = random_history(game, 5, finish=False, n=40)
    found = [move[:3] for move in cross68.moves(ruleset, history)] if family is cross68 else family.moves(history)
    last = (lambda s: ruleset.scene(s).last_move) if family is cross68 else (lambda s: s.last)
    expected = [last(b) for a, b in zip(history, history[1:]) if last(b) and last(b) != last(a)]
    assert found == expected and len(found) >= 3


def test_barricades_pawn_moves_and_placed_barricades_are_traced_in_order():
    game = get_ruleset("barricade")
    board = game.board
    start = game.new_game(2, {}, 0).evolve(order=(0, 1), ranking=(), stage="move")
    a, b, c = (board.index[n] for n in ("e5", "g5", "k5"))
    moved = start.evolve(pawns=((a,) + start.pawns[0][1:], start.pawns[1]), last_move=(0, board.index["e3"], a), seat=1)
    placed = moved.evolve(barricades=tuple(sorted(set(moved.barricades) - {b} | {c})), seat=1)
    assert [move[:3] for move in barricade.moves([start, moved, placed])] == [(0, board.index["e3"], a), (1, None, c)]
    players = [PlayerTag("A", (start.colours[0],)), PlayerTag("B", (start.colours[1],))]
    image = barricade.picture(game, placed, players, moves=barricade.moves([start, moved, placed])).convert("RGB")
    x, y = barricade.centre(board, c)
    assert close(image.getpixel((round(x + barricade.RING_R + 2), round(y))), barricade.LAST_MOVE_RGB)   # ringed
    badge = barricade.plan(game, placed, players, moves=barricade.moves([start, moved, placed])).of("badge")[1]
    bx0, by0, bx1, by1 = badge.box
    assert badge.ref == "2" and math.dist(((bx0 + bx1) / 2, (by0 + by1) / 2), (x, y)) < 3 * barricade.STEP
    # its number, 2
    assert close(image.getpixel((round(bx0 + (bx1 - bx0) * 0.2), round((by0 + by1) / 2))), barricade.LAST_MOVE_RGB)


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_final_board_names_who_won(game, monkeypatch):
    said = []
    monkeypatch.setattr(Sheet, "banner", lambda self, centre, text, *layout: said.append(text))
    ruleset, state, players, history = random_history(game, 2, finish=True, teams=game == "parcheesi")
    render_png(ruleset, state, players, "en", traced=history[-5:])
    result = ruleset.result(state)
    assert result is not None and len(said) == 1
    assert said[0] == "Draw" if result.draw else all(players[s].name in said[0] for s in result.winners)
    if game == "parcheesi":
        assert said[0] == f"{players[result.winners[0]].name} and {players[result.winners[1]].name} win"   # a team
    said.clear()
    render_png(ruleset, history[-2], players, "en")
    assert said == []   # not before the end


class Views:
    """A ruleset whose positions are their own board views (cross68.moves reads only that)."""

    @staticmethod
    def scene(view):
        return view

    @staticmethod
    def result(view):
        return None


def yellow_and_red(yellow: dict, red: dict, last=None) -> Cross68Scene:
    return Cross68Scene(tuple(ScenePawn("yellow", "yellow", yellow.get(i, HOUSE), str(i)) for i in range(1, 5))
                     + tuple(ScenePawn("red", "red", red.get(i, HOUSE), str(i)) for i in range(1, 5)), last_move=last)


PLAYERS = [PlayerTag("A", ("yellow",)), PlayerTag("B", ("red",))]


def test_a_piece_brought_out_is_traced_from_its_own_house_slot():
    """The arrow of yellow 3 coming out started at the house's first slot."""
    before = yellow_and_red({1: 10, 2: 12}, {1: 5})
    after = yellow_and_red({1: 10, 2: 12, 3: 0}, {1: 5}, last=("yellow", HOUSE, 0))
    moves = cross68.moves(Views, [before, after])
    assert moves == [("yellow", HOUSE, 0, "Y3", ())]
    image = cross68.plan(after, PLAYERS, moves=moves).picture().convert("RGB")
    slots = cross68.home_slots(cross68.Grid(cross68.SIZE, cross68.geometry.board()), after.pawns)
    for slot, traced in ((slots["Y3"], True), (slots["Y1"], False)):   # the arrow runs left from the slot
        assert close(image.getpixel((round(slot[0] - 6), round(slot[1]))), TRACE) == traced, slot


def test_a_capture_traces_the_captured_pieces_way_home():
    """Only the captor's move was traced; the captured piece's way home is traced too,
    from the square it was taken on to its own slot in its house (dashed, under the pieces)."""
    geo = cross68.geometry.board()
    square = geo.track_square("yellow", 10)
    red_progress = (square - geo.start_square["red"]) % 68
    before = yellow_and_red({1: 6}, {2: red_progress})
    after = yellow_and_red({1: 10}, {}, last=("yellow", 6, 10))
    moves = cross68.moves(Views, [before, after])
    assert moves == [("yellow", 6, 10, "Y1", (("red", red_progress, "R2"),))]
    plan = cross68.plan(after, PLAYERS, moves=moves)
    (home,) = [item for item in plan.of("trace") if item.role.startswith("home")]
    assert home.ref == f"{square}-red house" and home.role == "home R2"
    r2 = next(item for item in plan.of("piece") if item.ref == "R2")
    x, y = (r2.box[0] + r2.box[2]) / 2, (r2.box[1] + r2.box[3]) / 2
    assert home.box[0] <= x <= home.box[2] and home.box[1] <= y <= home.box[3]   # it ends at R2's slot
    layout = cross68.Grid(cross68.SIZE, geo)
    assert home.strokes[0][0] == layout.centre(geo.track_cells[square])   # from the square it was taken on
    image = plan.picture().convert("RGB")
    along = [(a[0] + (b[0] - a[0]) * t / 20, a[1] + (b[1] - a[1]) * t / 20) for stroke in home.strokes
             for a, b in zip(stroke, stroke[1:]) for t in range(20)]
    traced = [close(image.getpixel((round(a), round(b))), TRACE, 60) for a, b in along]
    assert sum(traced) >= len(along) / 3 and not all(traced)   # dashed


@pytest.mark.parametrize("game", ["parcheesi", "parcheesi-classic"])
def test_every_traced_move_has_its_number_as_large_as_the_square_numbers(game):
    """With ten moves and more traced, a badge found no free spot and one number was
    missing; a badge once shrank to the piece it numbers, unreadable at chat size where that piece
    shares its square: its digits are as large as the square numbers."""
    ruleset = get_ruleset(game)
    state, rng = ruleset.new_game(4, {}, 0), random.Random(0)
    history = [state]
    for _ in range(230):
        state = ruleset.apply(state, random_action(ruleset, state, rng)).state
        history.append(state)
    checked = 0
    for end in range(40, len(history), 37):
        window = history[end - 30:end]
        moves = cross68.moves(ruleset, window)
        plan = render_layout(ruleset, window[-1], window)
        assert [b.ref for b in plan.of("badge")] == [str(i + 1) for i in range(len(moves))]
        size = cross68.geometry.number_size(cross68.SIZE)
        for badge in plan.of("badge"):
            assert badge.box[2] - badge.box[0] >= 2 * badge_radius(badge.ref, size) - 0.5, badge
        checked += len(moves) >= 10
    assert checked


def render_layout(ruleset, state, traced):
    colours = ruleset.seat_colours(4, {})
    return layout(ruleset, state, [PlayerTag(NAMES[i], colours[i], ruleset.to_move(state) == i) for i in range(4)],
                  traced=traced)
