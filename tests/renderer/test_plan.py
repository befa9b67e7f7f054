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
from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK, Cross68Scene, ScenePawn, board
from bot.games.pariti import is_pair, number_of, piece_name
from bot.games.pariti_board import SQUARE_NAMES
from renderer import PlayerTag, layout, render_png
from renderer.fonts import CAPTURE_MARK, CHAT_TEXT, CHAT_WIDTH, PIECE_DIGITS, PIECE_SIDE, WAY_HOME, digit_height
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


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_piece_is_readable_on_a_phone_two_on_a_square_included(game):
    """At chat size (CHAT_WIDTH) every piece is PIECE_SIDE px at least on its short side, a bridge's or a
    blockade's two pieces included, and a piece's number PIECE_DIGITS px high at least: the plan states both
    (the piece's box, its `digits`)."""
    scale = CHAT_WIDTH / 1024
    for ruleset, state, players, history in positions(game):
        plan = layout(ruleset, state, players, "en", traced=history)
        scale = CHAT_WIDTH / plan.size[0]
        for piece in plan.of("piece"):
            x0, y0, x1, y1 = piece.box
            assert min(x1 - x0, y1 - y0) * scale >= PIECE_SIDE - 0.01, (game, piece)
            assert piece.digits == 0 or piece.digits * scale >= PIECE_DIGITS, (game, piece)


@pytest.mark.parametrize("game", [g for g in GAME_IDS if g != "pariti"])
def test_a_capture_is_seen_on_a_phone(game):
    """A piece sent home by a move traced: a ✕ CAPTURE_MARK px wide at chat size where it was taken (the cross
    board's square, beside Barricade's point) and its way home a line WAY_HOME px wide at chat size, to the piece
    ringed in its house or start area (role "captured"). (A capture was a 1 px dashed line at chat size, and
    Barricade drew none.)"""
    seen = 0
    for ruleset, state, players, history in positions(game):
        plan = layout(ruleset, state, players, "en", traced=history)
        scale = CHAT_WIDTH / plan.size[0]
        homes = [t for t in plan.of("trace") if t.role.startswith("home")]
        marks = [t for t in plan.of("trace") if t.role.startswith("capture")]
        for home in homes:   # where it was taken: marked, unless two pieces stand there now (a bridge fills it)
            square = home.ref.split("-")[0]
            assert [m for m in marks if m.ref == square] or sum(p.square == square for p in plan.of("piece")) > 1, \
                (game, home)
        assert len([p for p in plan.of("piece") if p.role == "captured"]) <= len(homes)   # those still there
        for home in homes:
            assert home.width * scale >= WAY_HOME, home
        for mark in marks:
            x0, y0, x1, y1 = mark.box
            assert min(x1 - x0, y1 - y0) * scale >= CAPTURE_MARK, mark
            assert not [p for p in plan.of("piece", "label") if overlap(p.box, mark.box)], mark
        seen += len(homes)
    assert seen, "no capture in the positions"


def _tip_ends_on_its_square(plan: Plan, trace) -> bool:
    """Whether a move's arrow ends on the square it names as reached (its tip inside that square's box)."""
    reached = trace.ref.split("-", 1)[1]
    if not trace.strokes or reached.endswith("house"):
        return True
    x, y = trace.strokes[-1][-1]
    x0, y0, x1, y1 = plan.square(reached).box
    return x0 - 1 <= x <= x1 + 1 and y0 - 1 <= y <= y1 + 1


@pytest.mark.parametrize("game", [g for g in GAME_IDS if get_ruleset(g).board_family == "renderer.cross68"])
def test_every_move_is_traced_from_its_start_to_its_square(game):
    """Each move's arrow, a long absence's included, starts where the move did (a piece brought out: in its
    house) and ends on the square it reached, however many words it goes round: text leaves a gap in it, never
    cuts it short (a green entry was a stub inside the house, a blue one stopped at the row of square numbers)."""
    for ruleset, state, players, history in positions(game):
        plan = layout(ruleset, state, players, "en", traced=history)
        for trace in plan.of("trace"):
            if trace.role.startswith(("home", "capture")) or not trace.strokes:
                continue
            assert _tip_ends_on_its_square(plan, trace), (game, trace.ref, trace.strokes[-1][-2:])
            left = trace.ref.split("-", 1)[0]
            if left.endswith("house"):
                x0, y0, x1, y1 = plan.square(left).box
                x, y = trace.strokes[0][0]
                assert x0 <= x <= x1 and y0 <= y <= y1, (game, trace.ref, trace.strokes[0][:2])


def one_move(route: str, start: int, end: int, others=()):
    """A Cross68Scene after `route`'s piece 1 moved from `start` to `end` (progress), and that move."""
    pawns = (ScenePawn(route, route, end, "1"), *others)
    return Cross68Scene(pawns, last_move=(route, start, end))


@pytest.mark.parametrize("route", ["yellow", "blue", "red", "green"])
def test_a_piece_brought_out_is_traced_to_it_whatever_its_house(route):
    """An entry's arrow leaves the house and ends at the piece on its start square, whatever the names and
    notes in the house (45 of 204 green entries were stubs inside the house; blue's stopped 65 px short)."""
    names = ("Grand-mère Josette", "Bartholomew Fitzgerald", "Éloïse", "小明")
    players = [PlayerTag(n, (c,), c == route) for n, c in zip(names, ("yellow", "blue", "red", "green"))]
    home = tuple(ScenePawn(route, route, HOUSE, str(i)) for i in range(2, 5))
    view = one_move(route, HOUSE, 0, home)
    plan = cross68_plan(view, players)
    (trace,) = [t for t in plan.of("trace") if t.strokes]
    assert _tip_ends_on_its_square(plan, trace), trace
    x0, y0, x1, y1 = plan.square(f"{route} house").box
    assert x0 <= trace.strokes[0][0][0] <= x1 and y0 <= trace.strokes[0][0][1] <= y1


@pytest.mark.parametrize("corner", [9, 26, 43, 60, 8, 25, 42, 59])
def test_an_arrow_into_a_corner_square_ends_on_it(corner):
    """The track turns at the squares beside the cross's inner corners (a diagonal step): an arrow into one
    ended a square early (27 of 1,365 traces)."""
    geo = board()
    players = [PlayerTag(c, (c,), c == "yellow") for c in ("yellow", "blue", "red", "green")]
    for route in ("yellow", "blue", "red", "green"):
        end = (corner - geo.start_square[route]) % 68
        for back in (1, 2, 3, 5):
            if end - back >= 0 and end <= LAST_TRACK:
                plan = cross68_plan(one_move(route, end - back, end), players)
                for trace in (t for t in plan.of("trace") if t.strokes):
                    assert _tip_ends_on_its_square(plan, trace), (route, end - back, end, trace.strokes[-1][-2:])


def cross68_plan(view, players):
    """The plan of `view`, its last move traced as made by the route's piece 1."""
    from renderer import cross68
    route, start, end = view.last_move
    return cross68.plan(view, players, moves=[cross68.Move(route, start, end, f"{route[0].upper()}1")])




@pytest.mark.parametrize("game", [g for g in GAME_IDS if get_ruleset(g).board_family == "renderer.cross68"])
def test_the_pieces_the_player_to_move_may_move_are_ringed(game):
    """On the mover's turn (no roll due), each piece with a legal move is ringed in its own colour and shape
    (role "movable", unless its role says more: a bridge's, a capture's); none other is, and none while a roll
    is due (the picture did not say which pieces could move)."""
    checked = 0
    for ruleset, state, players, history in positions(game):
        plan = layout(ruleset, state, players, "en", traced=history)
        ringed = {p.ref for p in plan.of("piece") if p.role == "movable"}
        if ruleset.result(state) is not None or ruleset.roll_due(state):
            assert not ringed
            continue
        groups = {g for a in ruleset.legal_actions(state) if (g := ruleset.action_group(state, a))}
        assert ringed <= groups
        assert groups <= {p.ref for p in plan.of("piece") if p.role in ("movable", "blockade", "captured")}
        checked += bool(groups)
    assert checked


def test_a_long_absence_in_barricade_stays_between_the_rows_and_the_last_moves_lead():
    """Eleven moves and more since a player's last turn: the traces' lanes spread over LANES px at most (8 px a
    move ran between the rows and off the board), the older ones thin (the last RECENT lead), badges one size."""
    from renderer.barricade import legend_top
    checked = 0
    ruleset, history, colours = random_game("barricade", 1)
    for i in range(40, len(history), 61):
        state = history[i]
        players = [PlayerTag(NAMES[s], colours[s], ruleset.to_move(state) == s) for s in range(len(colours))]
        for length in (24, 40):
            plan = layout(ruleset, state, players, "en", traced=history[i - length:i + 1])
            moves = [t for t in plan.of("trace") if t.strokes and not t.role.startswith(("home", "capture"))]
            if len(moves) < 9:
                continue
            checked += 1
            bottom = legend_top(ruleset.board)   # never over the legend
            assert all(0 <= x <= plan.size[0] and y <= bottom for t in moves for s in t.strokes for x, y in s)
            badges = plan.of("badge")
            assert len({round(b.box[2] - b.box[0], 3) for b in badges}) == 1
    assert checked


@pytest.mark.parametrize("game", [g for g in GAME_IDS if get_ruleset(g).board_family == "renderer.cross68"])
def test_the_house_of_a_player_who_must_roll_says_so_and_shows_no_die(game):
    """While the player to move must roll, their house says so first ("must roll" was written only in the
    message), and the dice of the move before (another player's, spent) are not shown there (Maghreb showed the
    opponent's spent die in the panel of the player who must roll)."""
    checked = 0
    for ruleset, state, players, history in positions(game):
        if ruleset.result(state) is None and ruleset.roll_due(state):
            plan = layout(ruleset, state, players, "en", traced=history)
            assert not plan.of("die")
            assert "Roll the dice." in [note.ref for note in plan.of("note")]
            checked += 1
    assert checked


def test_pariti_s_last_move_stays_seen_while_a_piece_is_chosen():
    """A piece chosen draws the ways it can go; the last move's line is drawn over them (it was hidden)."""
    checked = 0
    for ruleset, state, players, history in positions("pariti"):
        if ruleset.result(state) is not None or not state.last:
            continue
        focus = next((g for a in ruleset.legal_actions(state) if (g := ruleset.action_group(state, a))), None)
        if focus is None:
            continue
        plan = layout(ruleset, state, players, "en", focus, history)
        traces = plan.of("trace")
        last = [i for i, t in enumerate(traces) if t.role == "last"]
        assert len(last) == 1 and last[0] == len(traces) - 1, [t.ref for t in traces]
        checked += 1
    assert checked
