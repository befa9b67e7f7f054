"""The custom_ids of every control the bot sends, written and read in one place.

A click reaches the bot with whatever a client put in it: a forged or corrupted custom_id, a select
value that was never offered, a number too big for the database. `decode` reads and bounds every
field once, against the message the control is on, and answers a `Request` or raises `Forged`; the
handlers then trust what they get.

custom_id formats (<= 100 characters):
  tb:a:<game>:<version>:<action>   play an action (or "roll")
  tb:s:<game>:<version>            select menu whose values are actions
  tb:g:<game>:<version>            select menu whose values are action groups (e.g. a pawn)
  tb:c:<game>:<version>            call out a cheat (cheating rulesets)
  tb:x:<game>:<version>            type another move (cheating rulesets: a deliberate act)
  tb:m:<game>:<version>            the modal that other move is typed in (its field: "move")
  tb:l:<game>:<verb>               lobby: join, leave, start, add-bot
  tb:h:<game>:<page>:<slot>        history pages (slot f, p, n or l keeps a message's four ids distinct)
  tb:v:<game>:<seat>:<choice>      vote on an absent seat: computer | end
  tb:u:<game>:<version>            take back one's last move
  tb:r:<game>                      a rematch of this finished game
  tb:t:<game>:<version>:<answer>   the answer of the player to move to a take-back request: yes | no
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.present.lobby import LOBBY_VERBS
from bot.timers import VOTE_CHOICES

ID_LENGTH = 100              # Discord's limit on a custom_id, and so on what one can carry
LARGEST = 2**63 - 1          # game ids, versions, pages and seats are SQLite integers
HISTORY_SLOTS = "fpnl"
MOVE_FIELD = "move"          # the custom_id of the modal's text field
MOVE_LENGTH = 40             # what that field accepts
TAKEBACK_ANSWERS = ("yes", "no")


class Forged(ValueError):
    """The interaction's custom_id, values or fields are not something the bot sent."""


@dataclass(frozen=True)
class Request:
    """A decoded control: `number` is the version (a, s, g, c, x, m, u, t), the page (h), the seat (v) or
    0 (l, r); `value` the action, the picked option, the typed move, the lobby verb, the page slot, the vote
    or the answer to a take-back request."""

    kind: str
    game: int
    number: int
    value: str = ""


def encode(kind: str, game: int, *fields: object) -> str:
    return ":".join(("tb", kind, str(game), *map(str, fields)))


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


# The fields after the game id, by kind; the value of s, g and m comes from the interaction instead.
_FIELDS: dict[str, tuple[Callable[[str], object], ...]] = {
    "a": (_number, _action), "s": (_number,), "g": (_number,), "c": (_number,), "x": (_number,),
    "m": (_number,), "l": (_one_of(LOBBY_VERBS),), "h": (_number, _one_of(HISTORY_SLOTS)),
    "v": (_number, _one_of(VOTE_CHOICES)), "u": (_number,), "r": (), "t": (_number, _one_of(TAKEBACK_ANSWERS)),
}
SELECTS = ("s", "g")


def decode(custom_id: str, shown: Mapping[str, Sequence[str]] | None, *, is_select: bool = False,
           values: Sequence[str] = (), typed: Mapping[str, str] | None = None) -> Request:
    """Read a control. `shown` maps each custom_id of the message the control is on to its select
    options (() for a button): a control must be one of them, a picked value one of its options.
    Modal submissions (`typed`: their fields) come with no such message to check (None)."""
    parts = custom_id.split(":", 2) if isinstance(custom_id, str) and len(custom_id) <= ID_LENGTH else []
    if len(parts) != 3 or parts[0] != "tb" or parts[1] not in _FIELDS:
        raise Forged("shape")
    kind, rest = parts[1], parts[2]
    fields = _FIELDS[kind]
    pieces = rest.split(":", len(fields))
    if len(pieces) != len(fields) + 1:
        raise Forged("shape")
    game = _number(pieces[0])
    parsed = [parse(text) for parse, text in zip(fields, pieces[1:])]
    if kind == "m":
        return Request(kind, game, parsed[0], _typed_move(typed))
    if shown is None or custom_id not in shown or is_select != (kind in SELECTS) or is_select != bool(shown[custom_id]):
        raise Forged("not on its message")
    if is_select:
        if len(values) != 1 or values[0] not in shown[custom_id]:
            raise Forged("value not offered")
        return Request(kind, game, parsed[0], values[0])
    if kind in ("l", "r"):
        return Request(kind, game, 0, parsed[0] if parsed else "")
    return Request(kind, game, parsed[0], parsed[1] if len(parsed) > 1 else "")


def _typed_move(typed: Mapping[str, str] | None) -> str:
    move = (typed or {}).get(MOVE_FIELD)
    if not isinstance(move, str) or not move.strip() or len(move) > MOVE_LENGTH:
        raise Forged("typed move")
    return move.strip()
