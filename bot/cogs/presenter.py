"""What a channel sees: the lobby and board messages (text, PNG, controls).

Public messages use the game's locale (its creator's); replies to one user
use that user's locale. The text says in words what the picture shows
(whose turn, dice, last events) for screen readers and notifications.
"""
from __future__ import annotations

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot import dice, i18n, seating, timers
from bot.cogs.components import ActionButton, BoardButton, BoardSelect, LobbyButton
from bot.games.base import Message, Ruleset, msg
from bot.sessions import ROLL, ruleset_of, typed_action
from bot.history import since_turn
from bot.store import GameRecord, LoggedAction
from renderer import PlayerTag, render_png

MAX_CONTENT = 2000
MAX_ACTION_BUTTONS = 20      # four rows of five; the fifth row holds Roll / Call out / Other move
MAX_SELECT = 25
MAX_CHOICES = 25             # autocomplete suggestions

# Boards are drawn one at a time in ONE thread: the drawing holds the GIL most of the time, and
# each thread that wants it takes turns with the event loop (5 ms each), so a pool of drawing
# threads would leave the loop a fraction of the CPU and acknowledgements would wait behind it.
_drawing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="board-picture")


@dataclass
class Post:
    content: str
    view: discord.ui.View | None
    png: bytes | None = None
    mention: int | None = None   # user pinged by this post

    def file(self) -> discord.File | None:
        return None if self.png is None else discord.File(io.BytesIO(self.png), filename="board.png")


def seat_name(record: GameRecord, seat: int, locale: str) -> str:
    s = record.seats[seat]
    if s.level is not None:
        return i18n.text("player.computer", locale, level=i18n.text(f"level.{s.level}", locale))
    return s.name


def say(record: GameRecord, message: Message, locale: str) -> str:
    return i18n.render(message, locale, lambda seat: seat_name(record, seat, locale))


def fit(lines: list[str]) -> str:
    """Lines within Discord's 2000 characters: the oldest (first) lines go first."""
    lines = [line for line in lines if line]
    while len(lines) > 1 and sum(len(line) + 1 for line in lines) > MAX_CONTENT:
        lines.pop(0)
    text = "\n".join(lines)
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- lobby -------------------------------------------------------------------

def lobby_post(record: GameRecord) -> Post:
    loc = record.locale
    ruleset = ruleset_of(record)
    n = len(record.seats)
    colours = ruleset.seat_colours(max(n, ruleset.player_range(record.options)[0]), record.options)
    drawn = seating.of(record) == seating.RANDOM
    lines = [f"**{say(record, msg(ruleset.name), loc)}** — " + i18n.text("lobby.title", loc)]
    if record.options.get("teams") and drawn:
        sides = [seating.side(ruleset, colours, i) for i in range(len(colours))]
        teams = seating.listed(ruleset, len(colours), record.options, sides)
        lines.append(say(record, msg("lobby.teams_random", teams=teams), loc))
    elif record.options.get("teams"):
        lines.append(i18n.text("lobby.teams", loc))
    if record.options.get("turn_time"):
        lines.append(say(record, timers.settings_message(record.options), loc))
    if drawn:
        lines.append(i18n.text("lobby.seating_random", loc, commitment=dice.commitment(record.seed)))
    elif "seating" in record.options:   # lobbies opened before the option: as they always were
        lines.append(i18n.text("lobby.seating_lobby", loc))
    for i, seat in enumerate(record.seats):
        who = seat_name(record, i, loc) if seat.level else f"<@{seat.user_id}>"
        host = " " + i18n.text("lobby.host", loc) if seat.level is None and seat.user_id == record.host_id else ""
        # Drawn seats get their colours at the start; in lobby order they are known now.
        side = "" if drawn else " — " + _lobby_side(ruleset, colours, i, loc)
        lines.append(f"{i + 1}. {who}{side}{host}")
    if record.status == "lobby":
        low, high = ruleset.player_range(record.options)
        players = i18n.text("lobby.players_exact" if low == high else "lobby.players_range", loc, min=low, max=high)
        lines.append(i18n.text("lobby.help", loc, players=players))
    else:
        lines.append(i18n.text("lobby.closed_notice", loc))
    view = discord.ui.View(timeout=None)
    if record.status == "lobby":
        for verb in ("join", "leave", "add-bot", "start"):
            view.add_item(LobbyButton(record.id, verb, i18n.text(f"lobby.button.{verb}", loc)))
    return Post(fit(lines), view if record.status == "lobby" else None)


def _lobby_side(ruleset: Ruleset, colours: list[tuple[str, ...]], seat: int, loc: str) -> str:
    """A lobby-order seat's colours, what sets it apart (Pariti's parity) and whether it plays first."""
    if seat >= len(colours):
        return "?"
    text = " + ".join(i18n.text(f"colour.{c}", loc) for c in colours[seat])
    notes = [i18n.render(role, loc)] if (role := ruleset.seat_role(seat)) is not None else []
    if seat == 0 and not ruleset.order_by_dice:
        notes.append(i18n.text("lobby.plays_first", loc))
    return f"{text} ({', '.join(notes)})" if notes else text


# --- board -------------------------------------------------------------------

def board_post(record: GameRecord, events: tuple[Message, ...] = (), with_controls: bool = True) -> Post:
    loc = record.locale
    ruleset = ruleset_of(record)
    state = ruleset.from_json(record.state)
    to_move = ruleset.to_move(state) if record.status == "active" else None
    lines = [sentence(say(record, e, loc)) for e in events]
    mention = None
    if record.status != "active":
        lines.append(result_line(record, loc))
    elif to_move is not None:
        seat = record.seats[to_move]
        if seat.level is None:
            mention = seat.user_id
        who = f"<@{seat.user_id}>" if seat.level is None else seat_name(record, to_move, loc)
        key = "turn.roll" if ruleset.roll_due(state) else "turn.move"
        lines.append(i18n.text(key, loc, player=who))
    view = controls(record, ruleset, state) if with_controls and record.status == "active" else None
    return Post(fit(lines), view, None, mention)


async def draw(record: GameRecord, locale: str | None = None, focus: str | None = None,
               actions: Sequence[LoggedAction] = ()) -> bytes:
    """`picture` in the drawing thread, so the event loop keeps answering."""
    return await asyncio.get_running_loop().run_in_executor(_drawing, picture, record, locale, focus, actions)


def picture(record: GameRecord, locale: str | None = None, focus: str | None = None,
            actions: Sequence[LoggedAction] = ()) -> bytes:
    """The board PNG with its legend. CPU-bound and discord-free: the bot calls it through `draw`.
    With the game's `actions`, every move since the player to move last played is traced (for a
    finished game: the last player's last turn)."""
    loc = locale or record.locale
    ruleset = ruleset_of(record)
    state = ruleset.from_json(record.state)
    to_move = ruleset.to_move(state) if record.status == "active" else None
    colours = ruleset.seat_colours(len(record.seats), record.options)
    players = [PlayerTag(seat_name(record, i, loc), colours[i], to_move == i) for i in range(len(record.seats))]
    history = since_turn(ruleset, record, actions, to_move) if actions else ()
    return render_png(ruleset, state, players, loc, focus, history)


def result_line(record: GameRecord, loc: str) -> str:
    result = record.result or {}
    winners = result.get("winners") or []
    if record.status == "ended" and not winners:
        return i18n.text("result.ended", loc)
    if result.get("draw"):
        return i18n.text("result.draw", loc)
    names = [seat_name(record, s, loc) for s in winners]
    if len(names) == 1:
        line = i18n.text("result.winner", loc, player=names[0])
    else:
        line = i18n.text("result.winners", loc, players=", ".join(names[:-1]), last=names[-1])
    if result.get("details", {}).get("classy"):
        line += " " + i18n.text("result.classy", loc)
    return line


def controls(record: GameRecord, ruleset: Ruleset, state: Any) -> discord.ui.View:
    """Buttons for what is legal now (a select menu when more than fit)."""
    loc = record.locale
    view = discord.ui.View(timeout=None)
    gid, ver = record.id, record.version
    if ruleset.roll_due(state):
        view.add_item(ActionButton(gid, ver, ROLL, i18n.text("button.roll", loc), discord.ButtonStyle.primary,
                                   row=4, emoji="🎲"))
    else:
        actions = ruleset.legal_actions(state)
        groups, loose = _groups(ruleset, state, actions)
        group_first = ruleset.pick_group_first and len(groups) > 1
        if len(actions) <= MAX_ACTION_BUTTONS and not group_first:
            for i, action in enumerate(actions):
                view.add_item(ActionButton(gid, ver, action, label(record, ruleset, state, action),
                                           discord.ButtonStyle.success, row=i // 5))
        elif groups and len(groups) <= MAX_SELECT and len(loose) <= MAX_ACTION_BUTTONS - 5:
            options = [discord.SelectOption(label=say(record, ruleset.group_label(state, g), loc)[:100], value=g)
                       for g in groups]
            view.add_item(BoardSelect("g", gid, ver, options, game_text(ruleset, "select.group", loc), row=0))
            for i, action in enumerate(loose):   # e.g. Barricade's "roll first": beside the select
                view.add_item(ActionButton(gid, ver, action, label(record, ruleset, state, action),
                                           discord.ButtonStyle.success, row=1 + i // 5))
        else:
            view.add_item(BoardSelect("s", gid, ver, action_options(record, ruleset, state, actions[:MAX_SELECT]),
                                      i18n.text("select.move", loc), row=0))
    if ruleset.allows_cheating:
        if not ruleset.roll_due(state):
            view.add_item(BoardButton("x", gid, ver, i18n.text("button.other_move", loc), row=4))
        view.add_item(BoardButton("c", gid, ver, i18n.text("button.call", loc), row=4))
    return view


def game_text(ruleset: Ruleset, key: str, locale: str) -> str:
    """A shared text in the game's own words when it has them ("<key>.<game id>": what its
    groups are, what a call-out names)."""
    specific = f"{key}.{ruleset.id}"
    return i18n.text(specific if i18n.has_key(specific, locale) else key, locale)


def _groups(ruleset: Ruleset, state: Any, actions: list[str]) -> tuple[list[str], list[str]]:
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


def label(record: GameRecord, ruleset: Ruleset, state: Any, action: str, locale: str | None = None) -> str:
    return say(record, ruleset.action_label(state, action), locale or record.locale)[:80]


def action_options(record: GameRecord, ruleset: Ruleset, state: Any, actions: list[str],
                   locale: str | None = None) -> list[discord.SelectOption]:
    return [discord.SelectOption(label=label(record, ruleset, state, a, locale)[:100], value=a) for a in actions]


def move_choices(record: GameRecord, ruleset: Ruleset, state: Any, typed: str, locale: str) -> list[tuple[str, str]]:
    """What `/game move` suggests for the text typed so far: (name, action) pairs, at most 25, each
    named "code · wording" so that players learn the codes they may type. First the move typed, when
    the bot accepts it (in a cheating ruleset, legal or not: it looks like any other, the player's
    opponents rely on nobody being told), then the legal moves whose name holds the typed text."""
    typed = typed.strip()
    found = typed_action(ruleset.accepted_actions(state), typed) if typed else None
    return suggestions(record, ruleset, state, ruleset.legal_actions(state), typed, locale, found)


def suggestions(record: GameRecord, ruleset: Ruleset, state: Any, actions: list[str], typed: str, locale: str,
                first: str | None = None) -> list[tuple[str, str]]:
    """(name, action) pairs named "code · wording" for autocomplete: `first` if given, then the
    `actions` whose name holds the typed text, at most 25."""
    wanted = typed.strip().casefold()
    choices = []
    for action in ([first] if first is not None else []) + [a for a in actions if a != first]:
        name = i18n.text("autocomplete.move", locale, code=action, move=label(record, ruleset, state, action, locale))
        if action == first or wanted in name.casefold():
            choices.append((name[:100], action[:100]))
        if len(choices) == MAX_CHOICES:
            break
    return choices


def other_move_field(record: GameRecord, ruleset: Ruleset, state: Any, locale: str) -> tuple[str, str]:
    """The label and placeholder of the "Other move…" modal's one field: a code of the position as
    an example (a legal one: the board's buttons show those anyway), and the game's code syntax."""
    example = next(iter(ruleset.legal_actions(state)), None)
    field = i18n.text("modal.other_move.label", locale, example=example) if example else \
        i18n.text("modal.other_move.label_plain", locale)
    return field[:45], game_text(ruleset, "modal.other_move.placeholder", locale)[:100]


def group_view(record: GameRecord, group: str, locale: str | None = None) -> Post:
    """The moves of one group (e.g. one pawn), in the locale of the one user who
    sees them (default: the game's); its picture is `picture(record, locale, group)`."""
    loc = locale or record.locale
    ruleset = ruleset_of(record)
    state = ruleset.from_json(record.state)
    actions = [a for a in ruleset.legal_actions(state) if ruleset.action_group(state, a) == group]
    view = discord.ui.View(timeout=None)
    if len(actions) <= MAX_ACTION_BUTTONS:
        for i, action in enumerate(actions):
            view.add_item(ActionButton(record.id, record.version, action, label(record, ruleset, state, action, loc),
                                       discord.ButtonStyle.success, row=i // 5))
    else:
        view.add_item(BoardSelect("s", record.id, record.version,
                                  action_options(record, ruleset, state, actions[:MAX_SELECT], loc),
                                  i18n.text("select.move", loc)))
    title = i18n.text("select.group_moves", loc, group=say(record, ruleset.group_label(state, group), loc))
    return Post(title, view)
