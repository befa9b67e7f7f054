"""The picture's plan (renderer.layout), checked over random positions of
every ruleset: shared squares, blockades, long traces and finished games. Each piece lies inside
its square's box and on the square the engine says it holds; nothing written over the board
(a badge, a banner, a note, a name, a die) covers a piece or a label; every label a player types
is readable at chat size; the picture paints nothing the plan does not hold."""
from __future__ import annotations

import io
import random
from collections import Counter
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.games import GAME_IDS, get_ruleset
from bot.games.barricade.state import START
from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK, board
from bot.games.pariti import is_pair, number_of, piece_name
from bot.games.pariti_board import SQUARE_NAMES
from renderer import PlayerTag, layout, render_png
from renderer.fonts import CHAT_TEXT, CHAT_WIDTH, digit_height
from renderer.plan import OVERLAYS, TEXTS, Plan, crosses, inside, overlap
from renderer.sheet import badge_radius
from tests.benchmarks.common import random_action

NAMES = ("Ann", "Bob", "Cat", "Dan")


def random_game(game: str, seed: int, teams: bool = False):
    """Every position of a random game played to its end, and its players."""
    ruleset = get_ruleset(game)
    options = {"teams": True} if teams else {}
    n = ruleset.player_range(options)[1]
    state, rng = ruleset.new_game(n, options, seed), random.Random(seed)
    history = [state]
    while ruleset.result(state) is None and len(history) < 20000:
        action = random_action(ruleset, state, rng)
        state = ruleset.apply(state, action).state
        history.append(state)
    return ruleset, history, ruleset.seat_colours(n, options)


@cache
def positions(game: str) -> list[tuple]:
    """(ruleset, state, players, history) for about 40 positions spread over each of two games
    (the second a 2 vs 2 in Parcheesi) and their last, each with the 9 positions before it
    traced (a long absence)."""
    found = []
    for seed, teams in ((1, False), (3, game == "parcheesi")):
        ruleset, history, colours = random_game(game, seed, teams)
        for i in [*range(9, len(history), max(23, len(history) // 40)), len(history) - 1]:
            state = history[i]
            to_move = ruleset.to_move(state)
            players = [PlayerTag(NAMES[s], colours[s], to_move == s) for s in range(len(colours))]
            found.append((ruleset, state, players, history[i - 9:i + 1]))
    return found


def engine_squares(ruleset, state) -> Counter:
    """(piece, square) for every piece, as the engine has them and players name them."""
    if ruleset.id == "barricade":
        names, found = ruleset.board.names, Counter()
        for seat, pawns in enumerate(state.pawns):
            found.update(("start", f"{state.colours[seat]} start") if p == START else (names[p], names[p])
                         for p in pawns)
        found.update(("barricade", names[p]) for p in state.barricades)
        return found
    if ruleset.id == "pariti":
        return Counter((f"pair {number_of(c)}" if is_pair(c) else piece_name(c), SQUARE_NAMES[sq])
                       for sq, c in enumerate(state.board) if c)
    geo, found = board(), Counter()
    for p in ruleset.scene(state).pawns:
        square = (f"{p.route} house" if p.progress == HOUSE else "goal" if p.progress >= GOAL
                  else str(geo.track_square(p.route, p.progress)) if p.progress <= LAST_TRACK
                  else f"{p.route} H{p.progress - LAST_TRACK}")
        found[(f"{p.colour[0].upper()}{p.label}", square)] += 1
    return found


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_piece_is_inside_the_square_the_engine_says_on_no_other_and_over_no_label(game):
    shared = 0
    for ruleset, state, players, history in positions(game):
        plan = layout(ruleset, state, players, "en", traced=history)
        squares = {item.ref: item for item in plan.of("square") if not item.paint}
        pieces = [item for item in plan.of("piece") if item.square in squares or item.square is None]
        labels = plan.of("label")
        assert Counter((p.ref, p.square) for p in pieces) == engine_squares(ruleset, state)
        for piece in pieces:
            assert inside(piece.box, squares[piece.square].box), (piece, squares[piece.square])
            others = [s for ref, s in squares.items() if ref != piece.square and overlap(piece.box, s.box)
                      and not inside(squares[piece.square].box, s.box)]
            assert not others, (piece, others)
            assert not [label for label in labels if overlap(piece.box, label.box)], piece   # e.g. square 39's number
        shared += sum(n > 1 for n in Counter(p.square for p in pieces if "house" not in p.square and p.square != "goal"
                                             and "start" not in p.square).values())
    if "parc" in game:   # the sample holds squares with two pawns (a bridge, a blockade, a door)
        assert shared > 0


@pytest.mark.parametrize("game", GAME_IDS)
def test_no_badge_banner_note_name_or_die_covers_a_piece_a_label_or_another(game):
    kinds = Counter()
    for ruleset, state, players, history in positions(game):
        plan = layout(ruleset, state, players, "en", traced=history)
        covered = plan.of("piece", "label")
        overlays = plan.of(*OVERLAYS)
        for i, item in enumerate(overlays):
            kinds[item.kind] += 1
            assert not [c for c in covered if overlap(item.box, c.box)], item
            assert not [o for o in overlays[i + 1:] if overlap(item.box, o.box)], item   # nor one another
            assert inside(item.box, (0, 0, *plan.size)), item
    assert kinds["badge"] and kinds["banner"] and kinds["name"]


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_label_a_player_types_is_nine_px_high_at_chat_size(game):
    ruleset, state, players, history = positions(game)[3]
    plan = layout(ruleset, state, players, "en", traced=history)
    labels = plan.of("label")
    assert labels
    for label in labels:
        assert (label.box[3] - label.box[1]) * CHAT_WIDTH / plan.size[0] >= CHAT_TEXT - 0.01, label


def focused(game: str) -> list[tuple]:
    """Positions of a Pariti game with each piece the player to move may move chosen (its jump chains traced
    through the squares it can reach, each named); none for the other games, whose choices trace nothing."""
    if game != "pariti":
        return []
    found = []
    for ruleset, state, players, _ in positions(game)[::4]:
        if ruleset.result(state) is None:
            groups = {ruleset.action_group(state, action) for action in ruleset.legal_actions(state)}
            found += [(ruleset, state, players, (), group) for group in sorted(g for g in groups if g)]
    return found


@pytest.mark.parametrize("game", GAME_IDS)
def test_no_traced_line_crosses_a_word(game):
    """A trace (a move, a captured piece's way home, a jump chain) crosses no square number, name, note or
    banner: it goes round them, or leaves a gap where one stands (the way home of a piece captured crossed its
    house's "Goal 0/4")."""
    drawn = Counter()
    for ruleset, state, players, history, *focus in [(*p, None) for p in positions(game)] + focused(game):
        plan = layout(ruleset, state, players, "en", focus[0], traced=history)
        words = plan.of(*TEXTS)
        for trace in plan.of("trace"):
            for stroke in trace.strokes:
                for a, b in zip(stroke, stroke[1:]):
                    assert not [w for w in words if crosses(a, b, w.box)], (trace, a, b)
            drawn["home" if trace.role.startswith("home") else "chain" if focus[0] else "move"] += bool(trace.strokes)
    assert drawn["move"] and (drawn["home"] or "parc" not in game) and (drawn["chain"] or game != "pariti"), drawn


def badge_font(badge) -> int:
    """The font size a badge's digits are drawn at: the largest whose disc (Sheet.badge) its box holds."""
    return max(size for size in range(6, 80) if 2 * badge_radius(badge.ref, size) <= badge.box[2] - badge.box[0] + 0.5)


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_order_badges_digits_are_nine_px_high_at_chat_size(game):
    """As high as the labels a player types, also on shared squares, where the piece that moved is drawn
    smaller than its badge then is; two-digit badges too (a long absence: 30 positions traced)."""
    sizes = Counter()
    ruleset, history, colours = random_game(game, 1)
    longer = [(ruleset, history[i], [PlayerTag(NAMES[s], colours[s], ruleset.to_move(history[i]) == s)
                                     for s in range(len(colours))], history[i - 29:i + 1])
              for i in range(29, len(history), max(37, len(history) // 12))]
    for ruleset, state, players, traced in positions(game) + longer:
        plan = layout(ruleset, state, players, "en", traced=traced)
        for badge in plan.of("badge"):
            high = digit_height(badge_font(badge)) * CHAT_WIDTH / plan.size[0]
            assert high >= CHAT_TEXT - 0.01, (badge, high)
            sizes[len(badge.ref)] += 1
    assert sizes[1] and sizes[2]


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_picture_paints_nothing_outside_its_plan(game):
    """Every pixel that differs from the empty board lies in an item's box (an arrow's head or a
    halo may reach a few px beyond)."""
    ruleset, state, players, history = positions(game)[2]
    plan = layout(ruleset, state, players, "en", traced=history)
    picture = Image.open(io.BytesIO(render_png(ruleset, state, players, "en", traced=history))).convert("RGB")
    empty = Plan(plan.size, (), plan.ground).picture().convert("RGB")
    changed = ImageChops.difference(picture, empty).convert("L").point(lambda v: 255 if v > 24 else 0)
    mask = Image.new("L", picture.size, 0)
    draw = ImageDraw.Draw(mask)
    for item in plan.items:
        if item.paint is not None:
            x0, y0, x1, y1 = item.box
            draw.rectangle((x0 - 12, y0 - 12, x1 + 12, y1 + 12), fill=255)
    outside = ImageChops.subtract(changed, mask)
    assert outside.getbbox() is None, outside.getbbox()
