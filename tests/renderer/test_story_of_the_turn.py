"""The picture tells the story of the turn: every move since the viewer's last turn traced and
numbered in order, and a finished game's board names who won, in every ruleset."""
from __future__ import annotations

import math
import random

import pytest

from bot.games import GAME_IDS, get_ruleset
from bot.games.parcheesi.board import BoardView, PawnView
from renderer import PlayerTag, barricade, cross68, pariti, render_png
from renderer.common import TRACE, Sheet

NAMES = ("Ann", "Bob", "Cat", "Dan")


def close(a, b, tolerance=30) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def test_every_move_is_traced_and_numbered_in_order_on_the_cross_board():
    view = BoardView((PawnView("yellow", "yellow", 10, "1"), PawnView("red", "red", 8, "2")))
    moves = [("yellow", 4, 10), ("red", 3, 8)]
    players = [PlayerTag("A", ("yellow",)), PlayerTag("B", ("red",))]
    image = cross68.picture(view, players, moves=moves).convert("RGB")
    layout = cross68.Layout(cross68.SIZE, cross68.board())
    badges = cross68.plan(view, players, moves=moves).of("badge")
    assert [b.ref for b in badges] == ["1", "2"]
    for (route, start, end), badge in zip(moves, badges):
        for progress in (start, end):   # both squares outlined (a pawn there leaves the corners)
            x0, y0, x1, y1 = layout.box(*cross68._cell(layout.geo, route, progress))
            assert close(image.getpixel((x0 + 4, y0 + 4)), TRACE, 60), (route, progress)
        x0, y0, x1, y1 = badge.box   # its order badge, beside the square it left
        assert close(image.getpixel((round(x0 + (x1 - x0) * 0.2), round((y0 + y1) / 2))), TRACE), (route, start)
        sx0, sy0, sx1, sy1 = layout.box(*cross68._cell(layout.geo, route, start))
        assert abs((x0 + x1) / 2 - (sx0 + sx1) / 2) <= 2 * layout.cell and abs((y0 + y1) / 2 - (sy0 + sy1) / 2) <= 2 * layout.cell
    without = cross68.picture(view, [PlayerTag("A", ("yellow",)), PlayerTag("B", ("red",))],
                              moves=moves[1:]).convert("RGB")
    x0, y0, x1, y1 = layout.box(*cross68._cell(layout.geo, "yellow", 4))
    assert not close(without.getpixel((x0 + 4, y0 + 4)), TRACE)   # only the moves given


def random_history(game: str, seed: int, finish: bool, n: int = 150, teams: bool = False):
    ruleset = get_ruleset(game)
    options = {"teams": True} if teams else {}
    players = ruleset.player_range(options)[1]
    state, rng = ruleset.new_game(players, options, seed), random.Random(seed)
    history = [state]
    while ruleset.result(state) is None and (finish or len(history) <= n):
        action = ruleset.random_roll(state, rng) if ruleset.roll_due(state) else rng.choice(ruleset.legal_actions(state))
        state = ruleset.apply(state, action).state
        history.append(state)
    colours = ruleset.seat_colours(players, options)
    return ruleset, state, [PlayerTag(NAMES[i], colours[i]) for i in range(players)], history


@pytest.mark.parametrize("game, family", [("parcheesi", cross68), ("pariti", pariti)])
def test_the_moves_along_a_history_are_each_move_made_in_order(game, family):
    ruleset, _, _, history = random_history(game, 5, finish=False, n=40)
    found = cross68.moves(ruleset, history) if family is cross68 else family.moves(history)
    last = (lambda s: ruleset.board_view(s).last_move) if family is cross68 else (lambda s: s.last)
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
    assert badge.ref == "2" and math.dist(((badge.box[0] + badge.box[2]) / 2, (badge.box[1] + badge.box[3]) / 2), (x, y)) < 3 * barricade.STEP
    bx0, by0, bx1, by1 = badge.box
    assert close(image.getpixel((round(bx0 + (bx1 - bx0) * 0.2), round((by0 + by1) / 2))), barricade.LAST_MOVE_RGB)   # its number, 2


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_final_board_names_who_won(game, monkeypatch):
    said = []
    monkeypatch.setattr(Sheet, "banner", lambda self, centre, text, width, size: said.append(text))
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
