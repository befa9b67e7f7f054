"""The board message: what happened, whose turn it is (the text says in words what the picture shows,
for screen readers and notifications) and the controls for what is legal now; one group's moves; the
call-out menu."""
from __future__ import annotations

from typing import Any

from bot.core.game_records import INTERACTIONS_ONLY, GameRecord
from bot.domain import deadline_math, i18n
from bot.domain.player_actions import ROLL
from bot.domain.positions import position
from bot.games.base import GameError, Message, Ruleset, msg
from bot.present.alt_text import board_alt
from bot.present.moves import label, options
from bot.present.post import Control, ControlKind, Post
from bot.present.recap import recap_lines
from bot.present.recap import turns as recap_turns
from bot.present.words import fit, game_text, result_line, say, seat_name, sentence

MAX_ACTION_BUTTONS = 20      # four rows of five; the fifth row holds Roll / Call out / Other move
MAX_SELECT = 25              # options of one menu


def board_post(record: GameRecord, events: tuple[Message, ...] = (), with_controls: bool = True,
               takeback_seat: int | None = None, recap: bool = True) -> Post:
    """The board: first the call to act (the player pinged, what they must do) or the result, then a short
    recap of what happened since that player last acted (bot/present/recap.py), one line a turn.
    `takeback_seat`: the seat that may take back its last move now (the board offers Undo, in its name);
    `recap`: False, the recap is not shown (the board retired just above tells it), only kept in `said`."""
    loc = record.locale
    ruleset, state = position(record)
    to_move = ruleset.to_move(state) if record.status == "active" else None
    said = [sentence(record, e, loc) for e in events]
    turns = recap_turns(record, events, loc, ended=record.status != "active")
    mention = None
    if record.status != "active":
        first = result_line(record, loc)
    else:
        assert to_move is not None
        seat = record.seats[to_move]
        if seat.level is None:
            mention = seat.user_id
            first = i18n.text("turn.call.roll" if ruleset.roll_due(state) else "turn.call.move", loc,
                              player=f"<@{seat.user_id}>", side=seat_side(record, ruleset, to_move, loc))
        else:   # shown before it plays only where the database stopped the computers mid-way (Recovery)
            first = i18n.text("turn.call.computer", loc, player=seat_name(record, to_move, loc),
                              side=seat_side(record, ruleset, to_move, loc))
    shown: tuple[Control, ...] = ()
    if with_controls and record.status == "active":
        undo = (Control(ControlKind.UNDO, i18n.text("button.undo_for", loc, player=seat_name(
            record, takeback_seat, loc)), row=4),) if takeback_seat is not None else ()
        # Nothing fires there on its own, nor changes the board when time runs out: the others claim a turn
        # whose time ran out (refused before then; the board says when).
        claim = (Control(ControlKind.CLAIM, i18n.text("claims.button", loc), row=4),) \
            if mention is not None and record.options.get("turn_time") \
            and deadline_math.waits_for_interactions(record) else ()
        shown = controls(record, ruleset, state, moves=mention is not None) + undo + claim
        if record.options.get(INTERACTIONS_ONLY):   # what friends without the app have instead of the commands
            shown += _place_controls(shown, loc)
    elif with_controls:   # the final board
        shown = (Control(ControlKind.REMATCH, i18n.text("button.rematch", loc)),)
    shown_recap = recap_lines(turns, loc) if recap else []
    return Post(fit([first, *shown_recap], keep=1), shown, None, mention, alt=board_alt(record, said=said),
                said=tuple(turn.plain for turn in turns))


def _place_controls(shown: tuple[Control, ...], loc: str) -> tuple[Control, ...]:
    """Status and Board, in the first row with room (25 places, a menu takes a row of five), if any."""
    used = sum(5 if control.kind in (ControlKind.MOVES, ControlKind.GROUPS) else 1 for control in shown)
    if used + 2 > 25:
        return ()
    return (Control(ControlKind.STATUS, i18n.text("button.status", loc)),
            Control(ControlKind.SHOW_BOARD, i18n.text("button.board", loc)))


def seat_side(record: GameRecord, ruleset: Ruleset[Any], seat: int, loc: str) -> str:
    """A seat's colours in words ("yellow", "blue + pink")."""
    colours = ruleset.seat_colours(len(record.seats), record.options)
    return " + ".join(i18n.text(f"colour.{c}", loc) for c in colours[seat]) if seat < len(colours) else "?"


def controls(record: GameRecord, ruleset: Ruleset[Any], state: Any, *, moves: bool = True) -> tuple[Control, ...]:
    """Buttons for what is legal now (a menu when more than fit). `moves` False (a computer's turn): only what
    the others may do, nobody's moves."""
    loc = record.locale
    found = _move_controls(record, ruleset, state, loc) if moves else []
    if ruleset.allows_cheating:
        if moves and not ruleset.roll_due(state):
            found.append(Control(ControlKind.OTHER_MOVE, i18n.text("button.other_move", loc), row=4))
        if any(ruleset.call_actions(state, seat) for seat in range(len(record.seats))):
            found.append(Control(ControlKind.CALL, i18n.text("button.call", loc), row=4))
    return tuple(found)


def _move_controls(record: GameRecord, ruleset: Ruleset[Any], state: Any, loc: str) -> list[Control]:
    """Roll, or the moves: buttons, a menu of pieces, or a menu of moves."""
    if ruleset.roll_due(state):
        return [Control(ControlKind.ROLL, i18n.text("button.roll", loc), ROLL, row=4)]
    actions = ruleset.distinct_actions(state, ruleset.legal_actions(state))
    groups, loose = _groups(ruleset, state, actions)
    group_first = ruleset.pick_group_first and len(groups) > 1
    if len(actions) <= MAX_ACTION_BUTTONS and not group_first:
        return _buttons(record, ruleset, state, actions, loc)
    if groups and len(groups) <= MAX_SELECT and len(loose) <= MAX_ACTION_BUTTONS - 5:
        return [Control(ControlKind.GROUPS, game_text(ruleset, "select.group", loc), row=0, options=tuple(
            (say(record, ruleset.group_label(state, g), loc)[:100], g) for g in groups)),
            # e.g. Barricade's "roll first": beside the menu
            *_buttons(record, ruleset, state, loose, loc, first_row=1)]
    return [Control(ControlKind.MOVES, i18n.text("select.move", loc), row=0,
                    options=options(record, ruleset, state, actions[:MAX_SELECT]))]


def group_post(record: GameRecord, group: str, locale: str | None = None) -> Post:
    """The moves of one group (e.g. one pawn), in the locale of the one user who sees them (default: the
    game's), under the menu of every group, so that picking another one edits this panel in place; its
    picture is `picture(record, locale, group)`. GameError when the position has no such group."""
    loc = locale or record.locale
    ruleset, state = position(record)
    legal = ruleset.distinct_actions(state, ruleset.legal_actions(state))
    actions = [a for a in legal if ruleset.action_group(state, a) == group]
    if not actions:   # no group of this position: a menu the bot did not send so (or an older release did)
        raise GameError(msg("controls.error.unknown"))
    groups, _ = _groups(ruleset, state, legal)
    menu: tuple[Control, ...] = ()
    if 1 < len(groups) <= MAX_SELECT and len(actions) <= MAX_ACTION_BUTTONS - 5:
        menu = (Control(ControlKind.GROUPS, game_text(ruleset, "select.group", loc), row=0, options=tuple(
            (say(record, ruleset.group_label(state, g), loc)[:100], g) for g in groups)),)
    if len(actions) <= MAX_ACTION_BUTTONS - 5 * len(menu):
        shown = tuple(_buttons(record, ruleset, state, actions, loc, first_row=len(menu)))
    else:
        shown = (Control(ControlKind.MOVES, i18n.text("select.move", loc),
                         options=options(record, ruleset, state, actions[:MAX_SELECT], loc)),)
    title = i18n.text("select.group_moves", loc, group=say(record, ruleset.group_label(state, group), loc))
    return Post(title, menu + shown, alt=board_alt(record, loc))


def call_post(record: GameRecord, ruleset: Ruleset[Any], state: Any, calls: list[str], locale: str) -> Post:
    """The call-outs a player may make now, as a menu, with what calling out means in this game."""
    menu = Control(ControlKind.MOVES, game_text(ruleset, "select.call", locale),
                   options=options(record, ruleset, state, calls[:MAX_SELECT], locale))
    return Post(game_text(ruleset, "select.call_help", locale), (menu,))


def _buttons(record: GameRecord, ruleset: Ruleset[Any], state: Any, actions: list[str], loc: str,
             first_row: int = 0) -> list[Control]:
    return [Control(ControlKind.ACTION, label(record, ruleset, state, action, loc), action, row=first_row + i // 5)
            for i, action in enumerate(actions)]


def _groups(ruleset: Ruleset[Any], state: Any, actions: list[str]) -> tuple[list[str], list[str]]:
    """The action groups in order of appearance, and the actions that belong to none."""
    seen: dict[str, None] = {}
    loose = []
    for action in actions:
        group = ruleset.action_group(state, action)
        if group is None:
            loose.append(action)
        else:
            seen.setdefault(group)
    return list(seen), loose
