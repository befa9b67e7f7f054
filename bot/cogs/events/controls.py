"""Every kind of control the bot sends, in one table: its custom_id, how it is read, how it looks, what
answers it.

A control's custom_id carries everything needed to act (the game, the version its board shows, the
action), so a click on any board, even one posted before a restart, can be answered: a board out of date
is refused politely. One decoder reads every interaction (GameEvents.on_interaction calls `read`), forged
ones included: a click reaches the bot with whatever a client put in it (a forged or corrupted
custom_id, a select value never offered, a number too big for the database), and each field is read and
bounded once, against the message the control is on, giving a `Request` or raising `Forged`; the
handlers then trust what they get. discord.py's DynamicItem would keep the same three things together,
but an interaction whose custom_id matches no item's pattern gets no answer at all ("This interaction
failed"), so every view is stopped before it is sent (discord.py keeps no copy to dispatch to).

custom_ids (<= 100 characters) are tb:<code>:<game>[:<number>][:<value>], the fields of each kind below.
Boards already in the channels carry them: a code or a field's meaning never changes.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.cogs.handlers import Request
from bot.cogs.messages.components import button, stopped
from bot.domain.deadline_math import VOTE_CHOICES
from bot.present.lobby import LOBBY_VERBS
from bot.present.post import Control, ControlKind

ID_LENGTH = 100              # Discord's limit on a custom_id, and so on what one can carry
LARGEST = 2**63 - 1          # game ids, versions, pages and seats are SQLite integers
HISTORY_SLOTS = "fpnl"       # first, previous, next, last: keeps the four page buttons' ids distinct
MOVE_FIELD = "move"          # the custom_id of the Other move modal's text field
MOVE_LENGTH = 40             # what that field accepts
TAKEBACK_ANSWERS = ("yes", "no")

Style = discord.ButtonStyle


class Forged(ValueError):
    """The interaction's custom_id, values or fields are not something the bot sent."""


def _number(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 19) or int(text) > LARGEST:
        raise Forged("number")
    return int(text)


def _action(text: str) -> str:
    if not text or not text.isprintable() or any(c.isspace() for c in text):
        raise Forged("action")
    return text


def _one_of(allowed: Sequence[str]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in allowed:
            raise Forged("choice")
        return text
    return parse


@dataclass(frozen=True)
class Look:
    """How a control of the present layer's kind looks on Discord: a button's style (by its value, else
    `style`) and emoji (a menu uses none of them)."""

    style: Style = Style.secondary
    by_value: Mapping[str, Style] = field(default_factory=dict)
    emoji: str | None = None


@dataclass(frozen=True)
class Kind:
    """One kind of control. Its custom_id is tb:<code>:<game>, then <number> if `number` reads one, then
    <value> if `value` reads one; a menu's value is the option picked (`picked`), a modal's the move typed
    (`typed`)."""

    code: str
    handler: str              # what answers it: an attribute path of the Discord layer's parts (bot/cogs/parts.py)
    number: Callable[[str], int] | None = None
    value: Callable[[str], str] | None = None
    picked: bool = False
    typed: bool = False
    on_board: bool = False    # a board's control: its number is the version the board shows
    number_is: str = "version"   # what the number is: "version", "page" or "seat" (Request's fields)
    looks: Mapping[ControlKind, Look] = field(default_factory=dict)   # the present layer's kinds it draws

    def encode(self, game: int, number: int | None = None, value: str | None = None) -> str:
        return ":".join(("tb", self.code, str(game), *(str(f) for f in (number, value) if f is not None)))

    def decode(self, rest: str, picked: str | None, typed: str | None) -> Request:
        """The request of a custom_id's fields after the code (`picked`, `typed`: what the interaction
        holds, checked by the caller)."""
        readers = [r for r in (self.number, self.value) if r is not None]
        pieces = rest.split(":", len(readers))
        if len(pieces) != len(readers) + 1:
            raise Forged("shape")
        game, fields = _number(pieces[0]), iter(pieces[1:])
        number = self.number(next(fields)) if self.number else 0
        value = self.value(next(fields)) if self.value else picked if self.picked else typed if self.typed else ""
        return Request(self.code, game, value or "", version=number if self.number_is == "version" else 0,
                       page=number if self.number_is == "page" else 0, seat=number if self.number_is == "seat" else 0,
                       on_board=self.on_board)


ACTION = Kind("a", "play.on_action", _number, _action, on_board=True,
              looks={ControlKind.ROLL: Look(Style.primary, emoji="🎲"), ControlKind.ACTION: Look(Style.success)})
MOVES = Kind("s", "play.on_action", _number, picked=True, on_board=True,
             looks={ControlKind.MOVES: Look()})
GROUPS = Kind("g", "play.on_group", _number, picked=True, on_board=True,
              looks={ControlKind.GROUPS: Look()})
CALL = Kind("c", "play.on_call_button", _number, on_board=True,
            looks={ControlKind.CALL: Look(Style.danger)})
OTHER_MOVE = Kind("x", "play.on_other_move_button", _number, on_board=True,
                  looks={ControlKind.OTHER_MOVE: Look()})
TYPED_MOVE = Kind("m", "play.on_action", _number, typed=True)   # the Other move modal
UNDO = Kind("u", "takebacks.on_undo_request", _number, on_board=True,
            looks={ControlKind.UNDO: Look()})
LOBBY = Kind("l", "lobby.on_lobby", value=_one_of(LOBBY_VERBS),
             looks={ControlKind.LOBBY: Look(by_value={"join": Style.success, "start": Style.primary})})
REMATCH = Kind("r", "lobby.on_rematch", looks={ControlKind.REMATCH: Look(Style.primary)})
HISTORY_PAGE = Kind("h", "history.on_history_page", _number, _one_of(HISTORY_SLOTS), number_is="page")
VOTE = Kind("v", "deadline_commands.on_vote", _number, _one_of(VOTE_CHOICES), number_is="seat",
            looks={ControlKind.VOTE: Look(Style.primary, {"end": Style.danger})})
TAKEBACK_ANSWER = Kind("t", "takebacks.on_takeback_answer", _number, _one_of(TAKEBACK_ANSWERS),
                       looks={ControlKind.TAKEBACK: Look(Style.danger, {"yes": Style.success})})
# /game forget's confirmation: its "game" field is the id of the user it forgets (only they may click it).
FORGET = Kind("f", "privacy.on_forget")
CLAIM = Kind("d", "deadline_commands.on_claim", _number, on_board=True,
             looks={ControlKind.CLAIM: Look(Style.danger, emoji="⏰")})

# Where only interactions reach a game, what the commands /game status and /game board do, for friends without them.
STATUS = Kind("i", "play.on_status", looks={ControlKind.STATUS: Look(emoji="📋")})
SHOW_BOARD = Kind("b", "play.on_show_board", looks={ControlKind.SHOW_BOARD: Look(emoji="🖼️")})

KINDS = {kind.code: kind for kind in (ACTION, MOVES, GROUPS, CALL, OTHER_MOVE, TYPED_MOVE, UNDO, LOBBY, REMATCH,
                                      HISTORY_PAGE, VOTE, TAKEBACK_ANSWER, FORGET, CLAIM, STATUS, SHOW_BOARD)}
_DRAWN = {shown: kind for kind in KINDS.values() for shown in kind.looks}   # present kind -> its Kind


# --- reading ----------------------------------------------------------------------------
def decode(custom_id: object, shown: Mapping[str, Sequence[str]] | None, *, is_select: bool = False,
           values: Sequence[str] = (), typed: Mapping[str, str] | None = None) -> Request:
    """Read a control (`custom_id` as the payload has it: a forged one may be no string). `shown` maps
    each custom_id of the message the control is on to its select options (() for a button): a control
    must be one of them, a picked value one of its options. Modal submissions (`typed`: their fields)
    come with no such message to check (None)."""
    if not isinstance(custom_id, str) or len(custom_id) > ID_LENGTH:
        raise Forged("shape")
    parts = custom_id.split(":", 2)
    if len(parts) != 3 or parts[0] != "tb" or parts[1] not in KINDS:
        raise Forged("shape")
    kind, rest = KINDS[parts[1]], parts[2]
    if kind.typed:
        return kind.decode(rest, None, _typed_move(typed))
    if shown is None or custom_id not in shown or is_select != kind.picked or is_select != bool(shown[custom_id]):
        raise Forged("not on its message")
    if is_select and (len(values) != 1 or values[0] not in shown[custom_id]):
        raise Forged("value not offered")
    return kind.decode(rest, values[0] if is_select else None, None)


def _typed_move(typed: Mapping[str, str] | None) -> str:
    move = (typed or {}).get(MOVE_FIELD)
    if not isinstance(move, str) or not move.strip() or len(move) > MOVE_LENGTH:
        raise Forged("typed move")
    return move.strip()


def read(interaction: discord.Interaction) -> Request:
    """The control an interaction (a component or a modal submission) names; Forged if none."""
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    if interaction.type == discord.InteractionType.modal_submit:
        return decode(custom_id, None, typed=dict(_typed_fields(data.get("components") or [])))
    values = data.get("values") or []
    return decode(custom_id, _shown(interaction.message),
                  is_select=data.get("component_type") == discord.ComponentType.string_select.value,
                  values=values if isinstance(values, list) else [])


def controls_of(message: discord.Message) -> tuple[int, int | None] | None:
    """(game id, version shown) of a board with controls, (game id, None) of an open lobby; None for
    any other message (controls retired, history pages, votes, take-back requests)."""
    shown = _shown(message)
    for custom_id, options in shown.items():
        try:
            request = decode(custom_id, shown, is_select=bool(options), values=options[:1])   # a menu as if picked
        except Forged:
            continue
        if request.kind == LOBBY.code:
            return request.game, None
        if KINDS[request.kind].on_board:
            return request.game, request.version
    return None


def _shown(message: discord.Message | None) -> dict[str, tuple[str, ...]]:
    """Each control of the message (custom_id) with its select options (() for a button)."""
    shown = {}
    for child in _children(message.components if message else []):
        if isinstance(custom_id := getattr(child, "custom_id", None), str):
            shown[custom_id] = tuple(option.value for option in getattr(child, "options", ()))
    return shown


def _children(components: Iterable[Any]) -> Iterable[Any]:
    for component in components:
        yield from getattr(component, "children", None) or [component]


def _typed_fields(components: Iterable[Any]) -> Iterable[tuple[str, str]]:
    """(custom_id, value) of a modal submission's text fields, in rows or labels."""
    for component in components:
        if not isinstance(component, dict):
            continue
        custom_id, value = component.get("custom_id"), component.get("value")
        if isinstance(custom_id, str) and isinstance(value, str):
            yield custom_id, value
        yield from _typed_fields(component.get("components") or [component.get("component")])


# --- drawing ----------------------------------------------------------------------------
def view_of(game: int, number: int, controls: tuple[Control, ...]) -> discord.ui.View:
    """The Discord controls of a message (bot/present describes them; none: an empty view). `number`: the
    version of the game they act on, or the seat a vote is about."""
    view = discord.ui.View(timeout=None)
    for control in controls:
        view.add_item(_item(game, number, control))
    return stopped(view)


def _item(game: int, number: int, control: Control) -> discord.ui.Item[discord.ui.View]:
    kind = _DRAWN[control.kind]
    custom_id = kind.encode(game, number if kind.number else None, control.value if kind.value else None)
    if kind.picked:
        return discord.ui.Select(custom_id=custom_id, placeholder=control.label, row=control.row,
                                 options=[discord.SelectOption(label=text, value=value)
                                          for text, value in control.options])
    look = kind.looks[control.kind]
    return button(custom_id, control.label, look.by_value.get(control.value, look.style), row=control.row,
                  emoji=look.emoji)
