"""What showing a new board does to a channel's board messages: a pure function, `changes`, that the board
publisher (bot/cogs/messages/publisher.py) carries out.

A board is edited in place when the same player goes on. Otherwise a new board is posted and the one it
replaces is retired: its controls go, and its text becomes the `retired` text if given (the lobby, once the
game started). Else the recent boards this process posted in the channel lose the lines the new board
says again (its recap of what its player missed: bot/present/post.retired), so that each event is said
once; a board left with nothing to say is deleted once the new one, with a newer picture, is up. After a
restart no recent board is known: only the controls of the replaced board go.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.present.post import retired as retired_lines

Said = tuple[int, tuple[str, ...]]   # a board message and its lines telling what happened


class Retired(Enum):
    """What becomes of a retired board's text, when it is not new text."""

    KEEP = "keep"       # the text stays, only the controls go
    DELETE = "delete"   # the message goes (it has nothing left to say)


def _saying(lines: tuple[str, ...]) -> str | Retired:
    """A retired board's new text: its lines, or nothing left to say (deleted)."""
    return "\n".join(lines) or Retired.DELETE


@dataclass(frozen=True)
class Retire:
    """An earlier board: its controls go, and its text becomes `text` (new lines), or stays, or goes (Retired)."""

    message: int
    text: str | Retired


@dataclass(frozen=True)
class BoardChanges:
    """Edit `edit` in place; or, when it is None, retire `before`, post the new board, then retire `after`.
    `kept`: the recent boards to remember (the new board follows them when it is posted)."""

    edit: int | None
    before: tuple[Retire, ...] = ()
    after: tuple[Retire, ...] = ()
    kept: tuple[Said, ...] = ()


def changes(board: int | None, recent: tuple[Said, ...], said: tuple[str, ...], *, edit: bool,
            retired: str | Retired | None = None) -> BoardChanges:
    """What to do to show a new board saying `said`. `board`: the game's board message (None: none
    recorded, or deleted); `recent`: the boards this process posted in the channel, oldest first;
    `edit`: the same player goes on; `retired`: the text the replaced board takes (None: see above)."""
    ours = bool(recent) and recent[-1][0] == board
    if edit and board is not None:
        return BoardChanges(board, kept=(*recent[:-1], (board, said)) if ours else ((board, said),))
    if board is None or not ours:
        recent = ()   # not this process's boards (a restart): only the controls go
    kept = retired_lines([lines for _, lines in recent], said)
    text = retired if retired is not None else _saying(kept[-1]) if recent else Retired.KEEP
    before: list[Retire] = []
    after: list[Retire] = []
    if board is not None:
        (after if text is Retired.DELETE else before).append(Retire(board, text))
    earlier = [Retire(message, _saying(now)) for (message, lines), now in zip(recent[:-1], kept[:-1])
               if now != lines]
    return BoardChanges(None, tuple(before), (*earlier, *after),
                tuple((message, now) for (message, _), now in zip(recent, kept) if now))
