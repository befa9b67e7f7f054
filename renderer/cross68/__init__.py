"""The 68-square cross board (parcheesi, parcheesi-classic, parchis-maghreb).

Geometry comes only from data/boards/cross68.json through
bot.games.parcheesi.board.board(); what stands where comes from
`ruleset.scene(state)`. The static board (cross, numbers, houses, goal)
is drawn once per size and set of houses in play; each picture pastes the
pawns, the last move, the dice and the players onto it (renderer.sheet).

Each house carries its player's name (the legend), the pawns waiting in it,
and, for whoever must act, the dice and the notes.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache, partial
from typing import Protocol, TypeVar, runtime_checkable

from PIL import Image

from bot.domain import i18n
from bot.games.base import Result
from bot.games.parcheesi.board import GOAL, HOUSE, Cross68Scene, board
from renderer.cross68.geometry import SIZE, Grid, home_slots, number_ink, piece_ref, spot_of
from renderer.cross68.paint import static_board
from renderer.cross68.panels import (
    acting_route,
    banner_item,
    name_lines,
    namer,
    note_boxes,
    note_items,
    owners_of,
    panel_items,
    partner_lines,
    partner_of,
)
from renderer.cross68.pieces import capture_spot, focused, pawn_places, piece_item
from renderer.cross68.traces import Around, Move, badge_item, capture_mark, recent_move, trace_item, way_home
from renderer.legend import PlayerTag, shown_name
from renderer.plan import (
    OVERLAYS,
    TEXTS,
    Item,
    Plan,
)

S = TypeVar("S")   # the game's state
S_contra = TypeVar("S_contra", contravariant=True)


class Cross68Game(Protocol[S_contra]):
    """What this family reads of a ruleset (the three Parcheesi rulesets): a position's scene and result."""

    def scene(self, state: S_contra) -> Cross68Scene: ...

    def result(self, state: S_contra) -> Result | None: ...


@runtime_checkable
class Played(Protocol[S_contra]):
    """What the family reads of a ruleset to ring the pieces the player to move may move (a ruleset's own)."""

    def roll_due(self, state: S_contra) -> bool: ...

    def legal_actions(self, state: S_contra) -> list[str]: ...

    def action_group(self, state: S_contra, action: str) -> str | None: ...


def layout(ruleset: Cross68Game[S], state: S, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
           traced: Sequence[S] = ()) -> Plan:
    result = ruleset.result(state)
    return plan(ruleset.scene(state), players, locale, focus, moves=moves(ruleset, traced), result=result,
                teams=getattr(state, "teams", False),
                movable=movable_pieces(ruleset, state) if result is None else frozenset(),
                rolling=result is None and isinstance(ruleset, Played) and ruleset.roll_due(state))


def movable_pieces(ruleset: object, state: S) -> frozenset[str]:
    """The pieces ("Y2") the player to move may move now: none while a roll is due."""
    if not isinstance(ruleset, Played) or ruleset.roll_due(state):
        return frozenset()
    return frozenset(g for action in ruleset.legal_actions(state) if (g := ruleset.action_group(state, action)))


def moves(ruleset: Cross68Game[S], positions: Sequence[S]) -> list[Move]:
    """The moves made along `positions` (oldest first), in order, each with the piece that made it and
    the pieces it captured; a piece sent home by no move (a penalty) is traced as a move of its own."""
    views = [ruleset.scene(state) for state in positions]
    found: list[Move] = []
    for before, after in zip(views, views[1:]):
        home = tuple((b.route, b.progress, piece_ref(b)) for b, a in zip(before.pawns, after.pawns)
                     if a.progress == HOUSE and HOUSE < b.progress < GOAL)
        last = after.last_move
        if last is not None and last != before.last_move:
            route, start, end = last
            piece = next((piece_ref(a) for b, a in zip(before.pawns, after.pawns)
                          if a.route == route and (b.progress, a.progress) == (start, end)), None)
            found.append(Move(route, start, end, piece, tuple(h for h in home if h[2] != piece)))
        else:
            found += [Move(route, progress, HOUSE, piece) for route, progress, piece in home]
    return found


def picture(view: Cross68Scene, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
            size: int = SIZE, moves: Sequence[Move] = (), result: Result | None = None) -> Image.Image:
    """The board for `view` as a palette image (see plan)."""
    return plan(view, players, locale, focus, size, moves, result).picture()


def plan(view: Cross68Scene, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
         size: int = SIZE, moves: Sequence[Move] = (), result: Result | None = None, teams: bool = False,
         movable: frozenset[str] = frozenset(), rolling: bool = False) -> Plan:
    """The picture of `view`: `moves` (oldest first; default: the last move) traced under the
    pieces and numbered beside them; the house panels carry each player's name, pieces in the
    goal, partner, and for whoever acts the dice and notes; `result` names the winner in a panel; the
    `movable` pieces ("Y2") ringed in their colour; while the player to move must roll (`rolling`), their
    house says so first, and no dice stand in it (those of the move before were another player's)."""
    geo = board()
    routes = frozenset(p.route for p in view.pawns)
    owners = owners_of(view.pawns, players)
    names = {route: name_lines(Grid(size, geo), players[seat]) for route, seat in owners.items()}
    partners = {route: partner_lines(Grid(size, geo), partner, locale) for route in owners   # once finished, the
                if result is None and (partner := partner_of(route, owners, players, teams))}   # banner names teams
    lay = Grid(size, geo, teams, frozenset(route for route, lines in names.items() if len(lines) > 1),
               frozenset(route for route, lines in partners.items() if len(lines) > 1),
               frozenset(route for route, lines in names.items() if len(lines) > 2))
    items: list[Item] = [*_squares(size, routes), *_labels(size)]
    traced = [Move(*move) for move in moves] or ([Move(*view.last_move)] if view.last_move else [])
    slots = home_slots(lay, view.pawns)
    captures = [(route, progress, piece) for move in traced for route, progress, piece in move.home if piece in slots]
    marks = {piece: capture_spot(lay, route, progress, view.pawns) for route, progress, piece in captures}
    places = pawn_places(lay, view.pawns, view.any_pair_blocks, slots,
                         frozenset(geo.square_key(route, progress) for route, progress, piece in captures
                                   if marks[piece] is not None))
    captured = {piece for _, _, piece in captures}
    pieces = [piece_item(lay, place, focused(place.pawn, focus),
                         piece_ref(place.pawn) in captured and place.pawn.progress == HOUSE,
                         piece_ref(place.pawn) in movable) for place in places]
    acting = acting_route(view, players, owners) if result is None else None
    words: list[Item] = []   # the panels' words: planned before the traces, which go round them
    for route in sorted(routes, key=geo.colours.index):
        tag = players[owners[route]] if route in owners else None
        words += panel_items(lay, route, view, tag, names.get(route, ()), partners.get(route, ()),
                             route == acting and not rolling, locale)
    if acting is not None:
        notes = [i18n.text("picture.must_roll", locale)] * rolling + \
            [i18n.render(note, locale, namer(players)) for note in view.notes]
        words += note_items(lay, notes, note_boxes(lay, view, acting, owners, routes, words), locale)
    banner = None
    if result is not None:
        shown = {seat: shown_name(names[route]) for route, seat in owners.items()}   # as the panels name them
        winners = [replace(tag, name=shown.get(seat, tag.name)) for seat, tag in enumerate(players)]
        banner = banner_item(lay, result, winners, owners, locale,
                         [i.box for i in (*items, *pieces, *words) if i.kind != "square"])
    around = Around([i.box for i in (*items, *words, *([banner] if banner else [])) if i.kind in TEXTS],
                    [i.box for i in pieces])
    items += [trace_item(lay, move, i, len(traced), slots, around) for i, move in enumerate(traced)]
    items += [way_home(lay, route, progress, slots[piece], piece, around, marks[piece])
              for route, progress, piece in captures]
    items += [capture_mark(lay, route, progress, piece, xy) for route, progress, piece in captures
              if (xy := marks[piece]) is not None]
    items += pieces + words
    taken = [item.box for item in (*items, *([banner] if banner else []))
             if item.kind in ("piece", "label", *OVERLAYS) or item.role.startswith("capture")]
    if len(traced) > 1:   # the order of the moves, beside the square each one left
        for i, move in enumerate(traced):
            start = slots[move.piece] if move.start == HOUSE and move.piece in slots else \
                spot_of(lay, move.route, move.start)
            badge = badge_item(lay, start, str(i + 1), taken, recent_move(i, len(traced)))
            items.append(badge)
            taken.append(badge.box)
    if banner is not None:
        items.append(banner)
    return Plan((size, size), tuple(items), partial(static_board, size, routes))


@lru_cache(maxsize=32)
def _squares(size: int, routes: frozenset[str]) -> tuple[Item, ...]:
    """The squares as players name them; the corridors and start squares of routes no piece follows are
    drawn muted (role "muted")."""
    lay = Grid(size, board())
    geo, found = lay.geo, []
    unused = {geo.start_square[c] for c in geo.colours if c not in routes}
    for square, cell in geo.track_cells.items():
        found.append(Item("square", str(square), lay.box(*cell), role="muted" if square in unused else ""))
    for colour, cells in geo.corridor_cells.items():
        found += [Item("square", f"{colour} H{k + 1}", lay.box(*cell), role="" if colour in routes else "muted")
                  for k, cell in enumerate(cells)]
    found += [Item("square", f"{route} house", lay.house_box(route)) for route in geo.colours]
    return (*found, Item("square", "goal", lay.goal_box()))


@lru_cache(maxsize=8)
def _labels(size: int) -> tuple[Item, ...]:
    return tuple(Item("label", str(square), box) for square, box in number_ink(size).items())
