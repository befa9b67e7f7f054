"""What changes in Pariti's side panel: who is to move, the pairs made, the draw counter, who won or the
focused piece, the last move."""
from __future__ import annotations

from functools import partial

from bot.domain import i18n
from bot.games.base import msg
from bot.games.pariti import (
    DRAW_TURNS,
    PAIRS_TO_WIN,
    Pariti,
    PaState,
    pairs_of,
    piece_message,
)
from bot.games.pariti_board import SQUARE_NAMES
from bot.present.results import result_text
from renderer.colours import INK, RGB
from renderer.fonts import font
from renderer.legend import PlayerTag, sentence_names, shown_name
from renderer.pariti.geometry import (
    AXIS,
    COUNTER_LINES,
    FOCUS,
    LAST,
    LINE,
    NAME_W,
    PANEL_BOTTOM,
    PANEL_W,
    SLOT_PITCH,
    TEXT,
    TEXT_W,
    TEXT_X,
    Tall,
    band,
    counter_bar,
    counter_y,
    parity_y,
    seat_top,
    slot_centre,
)
from renderer.pariti.pieces import pair_sprite
from renderer.plan import Item, centred
from renderer.sheet import Sheet, banner_box, whole_banner
from renderer.writing import wrap_text


def panel_items(ruleset: Pariti, state: PaState, players: list[PlayerTag], shown: list[PlayerTag],
                names: list[list[str]], tall: Tall, locale: str, focus_code: int | None, reach: int) -> list[Item]:
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
