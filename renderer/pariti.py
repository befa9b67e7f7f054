"""Pariti's 7 x 10 board: numbered blue and pink pieces, pairs, the last
move's path, and the squares a chosen piece can reach.

Geometry comes from bot.games.pariti_board (data/boards/pariti.json), the
position from the PaState. The static board (squares, coordinates, the side
panel's frame) is drawn once; each picture pastes the pieces and writes the
panel (players, pairs made, draw counter, last move) onto it.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from bot.domain import i18n
from bot.games.base import msg
from bot.games.pariti import (
    DRAW_TURNS,
    PAIRS_TO_WIN,
    Pariti,
    PaState,
    colour_of,
    destinations,
    is_pair,
    is_step,
    number_of,
    owner,
    pairs_of,
    parse_piece,
    piece_message,
    piece_name,
)
from bot.games.pariti_board import FILES, N_FILES, N_RANKS, SQUARE_NAMES, file_rank
from bot.present.results import result_text
from renderer.colours import CHOICE, INK, PAPER, PIECE_RGB, RGB, TO_MOVE_BAND, TRACE, WHITE, blend
from renderer.fonts import font, readable_size
from renderer.legend import PlayerTag, sentence_names, shown_name, tag_height, tag_lines
from renderer.plan import FloatBox, Item, Plan, centred, first_clear, gapped, text_box
from renderer.sheet import Sheet, StaticBoard, badge_radius, banner_box, make_palette, whole_banner
from renderer.sprites import SUPERSAMPLE, disc_sprite
from renderer.writing import line_step, wrap_text

WIDTH, HEIGHT = 1024, 1024
CELL = 92
AXIS = readable_size(WIDTH)             # the files' letters and the ranks' numbers: readable at chat size
BOARD_X, BOARD_Y = 52, 54               # top-left corner of the grid (a10)
PANEL_X = BOARD_X + N_FILES * CELL + 48
PANEL_W = WIDTH - PANEL_X - 14
PIECE = round(CELL * 0.86)              # diameter of a single piece

PINK = (246, 143, 192)                  # light, so its numbers are dark: told from blue by lightness too
PIECE_FILL: dict[int, RGB] = {0: PIECE_RGB["blue"], 1: PINK}
LIGHT_SQUARE = (240, 228, 203)
DARK_SQUARE = (225, 207, 172)
LAST = TRACE                            # the last move's path
FOCUS = CHOICE                          # the focused piece and its reachable squares
REACH = blend(FOCUS, WHITE, 0.75)
PAIR_RING = (200, 160, 20)
MUTED = (120, 116, 110)
SLOT = (222, 218, 208)


# --- geometry in pixels --------------------------------------------------------

def square_box(square: int) -> tuple[int, int, int, int]:
    f, r = file_rank(square)
    x0 = BOARD_X + f * CELL
    y0 = BOARD_Y + (N_RANKS - 1 - r) * CELL   # rank 1 at the bottom (boards.md section 3)
    return x0, y0, x0 + CELL, y0 + CELL


def centre(square: int) -> tuple[float, float]:
    x0, y0, x1, y1 = square_box(square)
    return (x0 + x1) / 2, (y0 + y1) / 2


# The side panel, every word readable at chat size: per seat a name band across the panel (up to three
# lines: a name is never cut further than bot.domain.names cuts it), a line of the seat's numbers with the
# pairs made, and eight pair slots; then the draw counter, then notes (who won, the focused
# piece, the last move). `tall`: how many lines each seat's name takes.
TEXT_X, TEXT_W = PANEL_X + 14, PANEL_W - 28
TEXT = readable_size(WIDTH, bold=False)
SLOT_PITCH = TEXT_W // 4
LINE = line_step(TEXT)
PANEL_BOTTOM = HEIGHT - 16                  # inside the panel's frame
COUNTER_LINES = 2                           # "Turns without a new pair", wrapped
Tall = tuple[int, int]
NAME_W = TEXT_W + 6   # a name band across the panel: the pairs made are counted on the numbers' line below


def band(seat: int, tall: Tall) -> int:
    """The height of a seat's name band."""
    return tag_height(tall[seat], AXIS)


def seat_top(seat: int, tall: Tall) -> int:
    return 76 + sum(band(s, tall) + LINE + 2 * SLOT_PITCH + 14 for s in range(seat))


def parity_y(seat: int, tall: Tall) -> int:
    """The top of a seat's parity line, under its name."""
    return seat_top(seat, tall) + band(seat, tall) + 2


def slot_centre(seat: int, i: int, tall: Tall) -> tuple[float, float]:
    return TEXT_X + SLOT_PITCH * (i % 4 + 0.5), parity_y(seat, tall) - 2 + LINE + SLOT_PITCH * (i // 4 + 0.5)


def counter_y(tall: Tall) -> int:
    return seat_top(2, tall)


def counter_bar(tall: Tall) -> tuple[int, int, int, int]:
    y = counter_y(tall) + COUNTER_LINES * LINE
    return TEXT_X, y + 52, TEXT_X + TEXT_W, y + 66


def name_lines(tag: PlayerTag) -> list[str]:
    """A seat's name in its band, beside the pairs made, on as many lines as a name of
    bot.domain.names.NAME_LIMIT wide characters needs (readable_size cannot shrink)."""
    return tag_lines(tag, NAME_W, AXIS, 3)

# --- the static board -----------------------------------------------------------

def _palette() -> Image.Image:
    blue, grounds = PIECE_FILL[0], [PAPER, WHITE, LIGHT_SQUARE, DARK_SQUARE, REACH, TO_MOVE_BAND, SLOT]
    solid = [INK, blue, PINK, LAST, FOCUS, PAIR_RING, MUTED, *grounds]
    ramps = [(INK, g) for g in grounds + [blue, PINK]] + [(WHITE, blue), (INK, PINK), (WHITE, INK)]
    ramps += [(c, g) for c in (LAST, FOCUS, PAIR_RING, MUTED) for g in grounds]
    ramps += [(PAIR_RING, INK), (LAST, INK), (FOCUS, INK), (blue, PINK)] + [(WHITE, g) for g in grounds + [LAST, FOCUS]]
    return make_palette(solid, ramps, steps=4)


@lru_cache(maxsize=16)
def _static(locale: str, tall: Tall) -> StaticBoard:
    """Squares, coordinates, and the panel's fixed words and empty slots."""
    k = SUPERSAMPLE // 2  # drawn larger, then reduced: antialiased text

    def text(
        xy: tuple[float, float], words: str, size: int, bold: bool = False, fill: RGB = INK, anchor: str = "la"
    ) -> None:
        draw.text((xy[0] * k, xy[1] * k), words, font=font(size * k, bold), fill=fill, anchor=anchor)

    image = Image.new("RGB", (WIDTH * k, HEIGHT * k), PAPER)
    draw = ImageDraw.Draw(image)
    for square in range(N_FILES * N_RANKS):
        f, r = file_rank(square)
        x0, y0, x1, y1 = (v * k for v in square_box(square))
        draw.rectangle((x0, y0, x1, y1), fill=DARK_SQUARE if (f + r) % 2 == 0 else LIGHT_SQUARE)
    bx1, by1 = BOARD_X + N_FILES * CELL, BOARD_Y + N_RANKS * CELL
    draw.rectangle((BOARD_X * k, BOARD_Y * k, bx1 * k, by1 * k), outline=INK, width=3 * k)
    for f, name in enumerate(FILES):
        x = BOARD_X + f * CELL + CELL / 2
        text((x, BOARD_Y - 27), name, AXIS, True, anchor="mm")
        text((x, by1 + 27), name, AXIS, True, anchor="mm")
    for r in range(N_RANKS):
        y = BOARD_Y + (N_RANKS - 1 - r) * CELL + CELL / 2
        text((BOARD_X - 26, y), str(r + 1), AXIS, True, anchor="mm")
        text((bx1 + 25, y), str(r + 1), AXIS, True, anchor="mm")
    draw.rounded_rectangle(
        (PANEL_X * k, 12 * k, (WIDTH - 12) * k, (HEIGHT - 12) * k), radius=14 * k, fill=WHITE, outline=INK, width=2 * k
    )
    text((TEXT_X, 26), i18n.text(Pariti.name, locale), 34, True)
    for seat in (0, 1):
        text((TEXT_X + 4, parity_y(seat, tall)), i18n.text(f"pariti.picture.numbers_{seat}", locale), TEXT, fill=MUTED)
        radius = (SLOT_PITCH - 14) / 2
        for i in range(PAIRS_TO_WIN):
            cx, cy = slot_centre(seat, i, tall)
            draw.ellipse(((cx - radius) * k, (cy - radius) * k, (cx + radius) * k, (cy + radius) * k), fill=SLOT)
    for i, line in enumerate(wrap_text(i18n.text("pariti.picture.quiet", locale), TEXT_W * k, TEXT * k, COUNTER_LINES)):
        text((TEXT_X, counter_y(tall) + i * LINE), line, TEXT, fill=MUTED)
    draw.rounded_rectangle(tuple(v * k for v in counter_bar(tall)), radius=8 * k, fill=SLOT)
    return StaticBoard.build(image.reduce(k), _palette())


# --- sprites ---------------------------------------------------------------------

@lru_cache(maxsize=64)
def pair_sprite(number: int, diameter: int, ring: RGB | None = None, ring_width: int = 0) -> Image.Image:
    """A pair: one disc, its left half blue and its right half pink, in a gold
    band (it never moves again), with the number outlined to read on both;
    `ring` as for disc_sprite."""
    k = SUPERSAMPLE
    d = (diameter + 2 * ring_width) * k
    big = Image.new("RGBA", (d, d), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    if ring:
        draw.ellipse((0, 0, d - 1, d - 1), fill=ring)
    o, band = ring_width * k, max(3, diameter // 12) * k
    draw.ellipse((o, o, d - 1 - o, d - 1 - o), fill=PAIR_RING, outline=INK, width=max(1, diameter // 40) * k)
    inner = (o + band, o + band, d - 1 - o - band, d - 1 - o - band)
    draw.pieslice(inner, 90, 270, fill=PIECE_FILL[0])
    draw.pieslice(inner, 270, 90, fill=PINK)
    size = int(diameter * (0.54 if number < 10 else 0.46)) * k
    draw.text((d / 2, d / 2), str(number), font=font(size, True), fill=WHITE, anchor="mm",
              stroke_width=max(2, diameter // 22) * k, stroke_fill=INK)
    return big.reduce(k)


def piece_sprite(code: int, ring: RGB | None = None) -> Image.Image:
    """A single piece or, for a pair's code, the pair; `ring` circles it."""
    width = 5 if ring else 0
    if is_pair(code):
        return pair_sprite(number_of(code), PIECE, ring, width)
    return disc_sprite(PIECE_FILL[colour_of(code)], PIECE, str(number_of(code)), ring, width)


# --- the plan ----------------------------------------------------------------------

def layout(ruleset: Pariti, state: PaState, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
           traced: Sequence[PaState] = ()) -> Plan:
    return plan(ruleset, state, players, locale, focus, moves(traced))


def moves(positions: Sequence[PaState]) -> list[tuple[int, ...]]:
    """The moves made along `positions` (oldest first), in order, as PaState.last."""
    lasts = [state.last for state in positions]
    return [last for before, last in zip(lasts, lasts[1:]) if last and last != before]


def picture(ruleset: Pariti, state: PaState, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
            moves: Sequence[tuple[int, ...]] = ()) -> Image.Image:
    """The board as a palette image (see plan)."""
    return plan(ruleset, state, players, locale, focus, moves).picture()


def plan(ruleset: Pariti, state: PaState, players: list[PlayerTag], locale: str = "en", focus: str | None = None,
         moves: Sequence[tuple[int, ...]] = ()) -> Plan:
    """The board. `focus` is a piece key such as "B7" (an action_group value): the piece is framed,
    its reachable squares tinted and named, its jump paths drawn. `moves` (oldest first; default:
    the last move) are traced under the pieces and numbered beside them; the side panel says who
    moves which numbers, the pairs made, the draw counter, who won and the last move."""
    items = [*_squares_and_labels()]
    focus_code = parse_piece(focus) if focus else None
    focus_square, reach = None, {}
    # Only a piece the player to move may move has anything to show (PA-3.2, PA-4.6).
    if focus_code in state.board and ruleset.to_move(state) == owner(number_of(focus_code)):
        focus_square = state.board.index(focus_code)
        reach = destinations(state.board, focus_square)
    for square in reach:
        items.append(Item("square", SQUARE_NAMES[square], square_box(square), role="destination",
                          paint=partial(_tint, square=square)))
    named: list[Item] = []   # an empty reachable square's name, low in it, dark on its tint, readable at chat size
    for square in reach:   # (a partner to pair with leaves no room: the grid names it)
        x0, y0, x1, y1 = square_box(square)
        if not state.board[square]:
            name = SQUARE_NAMES[square]
            low = ((x0 + x1) / 2, y1 - 4)
            named.append(Item("label", name, text_box(low, name, AXIS, anchor="md"), role="destination",
                              paint=partial(Sheet.label, xy=low, text=name, size=AXIS, bold=True, fill=INK, anchor="md",
                                            halo=REACH)))
    traced = list(moves) or ([state.last] if state.last else [])
    for path in reach.values():
        if not is_step(path):   # round the names of the squares it lands on: its tip short of the last one's
            strokes = gapped([centre(s) for s in path], [item.box for item in named], 4, CELL / 4, 24)
            items.append(Item("trace", "-".join(SQUARE_NAMES[s] for s in path), _span(path),
                              paint=partial(_draw_tree_path, path=path, strokes=strokes),
                              strokes=tuple(map(tuple, strokes))))
    if focus_square is None:   # while choosing, only the choice's paths
        for last in traced:
            path = tuple(last[2:])
            line = _last_move_line(state.board, path)
            items.append(Item("trace", "-".join(SQUARE_NAMES[s] for s in path), _span(path),
                              paint=partial(_draw_last_move, path=path, line=line), strokes=(tuple(line),)))
    moved = {last[-1] for last in traced}
    for square, code in enumerate(state.board):
        if code:
            chosen = square == focus_square
            ring = FOCUS if square in reach else LAST if square in moved and focus_square is None else None
            sprite = piece_sprite(code, ring)
            ref = f"pair {number_of(code)}" if is_pair(code) else piece_name(code)
            items.append(Item("piece", ref, centred(centre(square), PIECE, PIECE), SQUARE_NAMES[square],
                              "chosen" if chosen else "destination" if square in reach else "",
                              partial(_paint_piece, square=square, sprite=sprite, chosen=chosen)))
    items += named
    if focus_square is None and len(traced) > 1:   # their order, beside the square each one started from
        taken = [item.box for item in items if item.kind in ("piece", "label")]
        for i, last in enumerate(traced):
            text, r = str(i + 1), badge_radius(str(i + 1), AXIS)
            x0, y0, x1, y1 = square_box(last[2])
            spots = [(x, y) for x in (x0 + r + 2, x1 - r - 2, x0, x1) for y in (y0 + r + 2, y1 - r - 2, y0, y1)]
            box = first_clear((centred(xy, 2 * r, 2 * r) for xy in spots), taken, (0, 0, WIDTH, HEIGHT))
            if box is not None:
                at = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
                items.append(Item("badge", text, box,
                                  paint=partial(Sheet.badge, xy=at, text=text, size=AXIS, fill=LAST)))
                taken.append(box)
    shown = [PlayerTag(tag.name, (), ruleset.result(state) is None and state.seat == seat)   # no swatch: the numbers
             for seat, tag in enumerate(players[:2])]                                       # tell the colours
    names = [name_lines(tag) for tag in shown]
    tall = (len(names[0]) if names else 1, len(names[1]) if len(names) > 1 else 1)
    items += _panel(
        ruleset,
        state,
        players,
        shown,
        names,
        tall,
        locale,
        focus_code if focus_square is not None else None,
        len(reach),
    )
    return Plan((WIDTH, HEIGHT), tuple(items), partial(_static, locale, tall))


@lru_cache(maxsize=1)
def _squares_and_labels() -> tuple[Item, ...]:
    """The squares; the files' letters above and below the grid, the ranks' numbers left and right."""
    bx1, by1 = BOARD_X + N_FILES * CELL, BOARD_Y + N_RANKS * CELL
    spots: list[tuple[tuple[float, float], str]] = [((BOARD_X + f * CELL + CELL / 2, y), name)
                                                    for f, name in enumerate(FILES) for y in (BOARD_Y - 27, by1 + 27)]
    spots += [((x, BOARD_Y + (N_RANKS - 1 - r) * CELL + CELL / 2), str(r + 1)) for r in range(N_RANKS)
              for x in (BOARD_X - 26, bx1 + 25)]
    return (*(Item("square", name, square_box(sq)) for sq, name in enumerate(SQUARE_NAMES)),
            *(Item("label", text, text_box(xy, text, AXIS)) for xy, text in spots))


def _span(path: Sequence[int]) -> FloatBox:
    boxes = [square_box(s) for s in path]
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def _paint_piece(sheet: Sheet, square: int, sprite: Image.Image, chosen: bool) -> None:
    if chosen:   # the chosen piece: its square framed (its destinations are tinted, their pieces ringed)
        x0, y0, x1, y1 = square_box(square)
        sheet.draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=FOCUS, width=7)
    sheet.paste(sprite, centre(square))


def _tint(sheet: Sheet, square: int) -> None:
    x0, y0, x1, y1 = square_box(square)
    sheet.draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=REACH, outline=FOCUS, width=3)


def _draw_tree_path(sheet: Sheet, path: tuple[int, ...], strokes: list[list[tuple[float, float]]]) -> None:
    """A jump chain the focused piece can make, under the pieces: a thin line
    through its landings (`strokes`: apart round their names), a dot on each landing it goes on from."""
    if strokes:
        sheet.arrow(strokes[-1], FOCUS, 4, lead=strokes[:-1])
    for square in path[1:-1]:
        _dot(sheet, *centre(square), 6, FOCUS)


def _draw_last_move(sheet: Sheet, path: tuple[int, ...], line: list[tuple[float, float]]) -> None:
    """Under the pieces: the start square outlined, then the arrow along `line` (_last_move_line); a dot on
    each landing in between."""
    x0, y0, x1, y1 = square_box(path[0])
    sheet.draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=LAST, width=6)
    sheet.arrow(line, LAST, 8)
    for square in path[1:-1]:
        _dot(sheet, *centre(square), 11, LAST)


def _last_move_line(board: tuple[int, ...], path: tuple[int, ...]) -> list[tuple[float, float]]:
    """The last move's arrow: it steps straight or, jump by jump, arcs beside each jumped piece (PA-4.2,
    PA-4.3), its tip at the edge of the moved piece."""
    points = [centre(path[0])]
    for a, b in zip(path, path[1:]):
        if is_step((a, b)):
            points.append(centre(b))
        else:
            # Of the two arcs, the one that crosses fewer other pieces.
            others = [centre(sq) for sq, code in enumerate(board) if code and sq not in (a, b, (a + b) // 2)]
            points += min((_arc(a, b, side) for side in (1, -1)), key=lambda arc: _crossings(arc, others))
    (ex, ey), reach = centre(path[-1]), PIECE / 2 + 4
    outside = [(x, y) for x, y in points if (x - ex) ** 2 + (y - ey) ** 2 > reach ** 2]
    lx, ly = outside[-1]
    scale = reach / ((lx - ex) ** 2 + (ly - ey) ** 2) ** 0.5
    return outside + [(ex + (lx - ex) * scale, ey + (ly - ey) * scale)]


def _arc(a: int, b: int, side: int) -> list[tuple[float, float]]:
    """Points of a jump from a to b (a excluded): a quadratic curve whose
    control point lies 1.1 cells to one side, so that its apex passes 0.55
    cell from the jumped piece's centre."""
    (ax, ay), (bx, by) = centre(a), centre(b)
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    cx = (ax + bx) / 2 + side * (by - ay) / length * CELL * 1.1
    cy = (ay + by) / 2 - side * (bx - ax) / length * CELL * 1.1
    return [
        ((1 - t) ** 2 * ax + 2 * t * (1 - t) * cx + t * t * bx, (1 - t) ** 2 * ay + 2 * t * (1 - t) * cy + t * t * by)
        for t in (i / 12 for i in range(1, 13))
    ]


def _crossings(points: Iterable[tuple[float, float]], pieces: list[tuple[float, float]]) -> int:
    near = (PIECE / 2 + 6) ** 2
    return sum(1 for x, y in points for px, py in pieces if (x - px) ** 2 + (y - py) ** 2 < near)


def _dot(sheet: Sheet, x: float, y: float, r: float, colour: RGB) -> None:
    sheet.draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=INK, width=2)


def _panel(ruleset: Pariti, state: PaState, players: list[PlayerTag], shown: list[PlayerTag], names: list[list[str]],
           tall: Tall, locale: str, focus_code: int | None, reach: int) -> list[Item]:
    """What changes in the panel: who is to move (the name across the panel), the pairs made
    (PA-1.4, on the parity line), the draw counter (PA-5.2), who won or the focused piece, the last move."""
    result, items = ruleset.result(state), []
    for seat, tag in enumerate(shown):
        top, lines = seat_top(seat, tall), names[seat]
        made = [n for n, _ in pairs_of(state.board, seat)]
        items.append(
            Item(
                "name",
                tag.name,
                (TEXT_X - 6, top, TEXT_X - 6 + NAME_W, top + band(seat, tall)),
                role="\n".join(lines),
                paint=partial(
                    Sheet.player_tag, origin=(TEXT_X - 6, top), width=NAME_W, tag=tag, size=AXIS, lines=lines
                ),
            )
        )
        items.append(
            _panel_text(
                f"{len(made)}/{PAIRS_TO_WIN}", (TEXT_X + TEXT_W, parity_y(seat, tall) + LINE / 2), TEXT, True, INK, "rm"
            )
        )
        for i, number in enumerate(made):
            xy = slot_centre(seat, i, tall)
            items.append(Item("piece", f"pair {number}", centred(xy, SLOT_PITCH - 8, SLOT_PITCH - 8), "panel",
                              paint=partial(_paste_pair, number=number, xy=xy)))
    quiet = state.quiet
    y0 = counter_y(tall) + COUNTER_LINES * LINE
    items.append(
        _panel_text(f"{quiet} / {DRAW_TURNS}", (TEXT_X, y0 + 4), 40, True, LAST if quiet >= DRAW_TURNS - 5 else INK)
    )
    if quiet:
        x0, by0, x1, by1 = counter_bar(tall)
        bar = (x0, by0, x0 + round((x1 - x0) * min(quiet, DRAW_TURNS) / DRAW_TURNS), by1)
        items.append(
            Item(
                "note", "draw counter", bar, paint=lambda sheet: sheet.draw.rounded_rectangle(bar, radius=8, fill=LAST)
            )
        )
    y = counter_bar(tall)[3] + 14
    if result is not None:  # in the panel, where no piece can be
        text = (
            result_text(result, sentence_names([PlayerTag(shown_name(lines), ()) for lines in names]
                                               + players[len(names) :]), locale)
            or ""
        )
        width, max_lines, size = whole_banner(text, PANEL_W - 8, AXIS)
        box, lines = banner_box(text, (TEXT_X + TEXT_W / 2, 0), width, size, max_lines)
        height = box[3] - box[1]
        box = (box[0], y, box[2], y + height)
        at = (TEXT_X + TEXT_W / 2, y + height / 2)
        items.append(Item("banner", text, box, role="\n".join(lines),   # as for a name: its lines as written
                          paint=lambda sheet: sheet.banner(at, text, width, size, max_lines)))
        y = round(box[3]) + 8
    elif focus_code is not None:
        words = msg("pariti.picture.focus", piece=piece_message(focus_code), count=reach)
        y = _paragraph(items, y, i18n.render(words, locale), True, FOCUS, 2)
    if state.last:
        _, code, *path = state.last
        words = msg("pariti.picture.last", piece=piece_message(code), path=" → ".join(SQUARE_NAMES[s] for s in path))
        _paragraph(items, y + 6, i18n.render(words, locale), False, LAST, 3)
    return items


def _paste_pair(sheet: Sheet, number: int, xy: tuple[float, float]) -> None:
    sheet.paste(pair_sprite(number, SLOT_PITCH - 8), xy)


def _panel_text(text: str, xy: tuple[float, float], size: int, bold: bool, fill: RGB, anchor: str = "la") -> Item:
    left, top, right, bottom = font(size, bold).getbbox(text, anchor=anchor)
    return Item("note", text, (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom),
                paint=lambda sheet: sheet.label(xy, text, size, bold, fill, anchor))


def _paragraph(items: list[Item], y: int, text: str, bold: bool, fill: RGB, max_lines: int) -> int:
    """`text` wrapped in the panel from `y`, as readable as the grid's names, on at most `max_lines` lines
    and those the panel still holds (names on several lines leave it fewer). Returns where it ends."""
    max_lines = min(max_lines, (PANEL_BOTTOM - y) // LINE)
    if max_lines < 1:
        return y
    # wrap_text measures the regular face; bold glyphs are up to ~12 % wider.
    for line in wrap_text(text, int(TEXT_W * 0.88) if bold else TEXT_W, TEXT, max_lines):
        items.append(Item("note", line, (TEXT_X, y, TEXT_X + TEXT_W, y + LINE),
                          paint=partial(Sheet.text, xy=(TEXT_X, y), text=line, size=TEXT, bold=bold, fill=fill)))
        y += LINE
    return y
