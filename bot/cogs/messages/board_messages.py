"""What showing a new board does to a channel's board messages: a pure function, `changes`, that the board
publisher (bot/cogs/messages/publisher.py) carries out.

A board is edited in place when the same player goes on. Otherwise a new board is posted and the one it
replaces is retired: its controls and its picture go, and its text becomes the turns the new board tells
that no earlier board this process remembers told (the turns played on it, whole, and the computers' turns
after them: its recap of what its player missed was told by the boards of those turns), or the `retired`
text if given (the lobby, once the game started). A retired board left with
nothing to tell (the board shown again) is deleted once the new one is up, and once it has been up
SETTLED_MS (the publisher waits out the rest). The scrollback so reads as the game's log, each turn
once, and only the live board carries a picture: the position scrolled past is the one the text tells,
and `/game history` shows any earlier one.

Retired boards are then folded together, a few turns a message (LOG_LINES): a later one's turns are
added to the earlier one, and the later one deleted, once it has been up SETTLED_MS (a message that
vanishes as it appears reads as a glitch). After a restart no recent board is known: only the controls of
the replaced board go.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

Said = tuple[int, tuple[str, ...]]   # a board message and the turns it tells, a line each
LOG_LINES = 12                       # turns a retired message gathers at most
LOG_CHARS = 1800                     # and characters (Discord takes 2000)
SETTLED_MS = 1100                    # a message is folded into an earlier one only once up this long
DISCORD_EPOCH_MS = 1420070400000


class Retired(Enum):
    """What becomes of a retired board's text, when it is not new text."""

    KEEP = "keep"       # the text stays, only the controls go
    DELETE = "delete"   # the message goes (it has nothing left to say)


@dataclass(frozen=True)
class Retire:
    """An earlier board: its controls go, and its text becomes `text` (new lines), or stays, or goes (Retired)."""

    message: int
    text: str | Retired


@dataclass(frozen=True)
class Fold:
    """Retired boards gathered into `into`, which tells `text`; `gone` are deleted once it does."""

    into: int
    text: str
    gone: tuple[int, ...]


@dataclass(frozen=True)
class BoardChanges:
    """Edit `edit` in place; or, when it is None, retire `before`, post the new board, retire `after`, then
    carry out `folds`. `kept`: the recent boards to remember (the new board follows them when it is posted)."""

    edit: int | None
    before: tuple[Retire, ...] = ()
    after: tuple[Retire, ...] = ()
    kept: tuple[Said, ...] = ()
    folds: tuple[Fold, ...] = ()


def posted_at(message: int) -> int:
    """When a message was posted (ms since 1970), from its snowflake id."""
    return (message >> 22) + DISCORD_EPOCH_MS


def changes(board: int | None, recent: tuple[Said, ...], said: tuple[str, ...], *, edit: bool,
            retired: str | Retired | None = None, now_ms: int = 0) -> BoardChanges:
    """What to do to show a new board telling `said`. `board`: the game's board message (None: none
    recorded, or deleted); `recent`: the boards this process posted in the channel, oldest first, with
    the turns each tells now; `edit`: the same player goes on; `retired`: the text the replaced board takes
    (None: see above); `now_ms`: the time (what may be folded)."""
    ours = bool(recent) and recent[-1][0] == board
    if edit and board is not None:
        return BoardChanges(board, kept=(*recent[:-1], (board, said)) if ours else ((board, said),))
    if board is None or not ours:
        recent = ()   # not this process's boards (a restart): only the controls go
    kept = list(recent[:-1])
    before: list[Retire] = []
    after: list[Retire] = []
    if board is not None:
        if retired is not None:
            text: str | Retired = retired
        elif recent:   # the turns finished since: the new board's, whole (the replaced one saw them in play)
            own = untold([line for _, lines in kept for line in lines], said)
            text = "\n".join(own) or Retired.DELETE   # nothing new (the board shown again): deleted
            if own:
                kept.append((board, own))
        else:
            text = Retired.KEEP
        (after if text is Retired.DELETE else before).append(Retire(board, text))
    logs, folds = fold(kept, now_ms)
    return BoardChanges(None, tuple(before), tuple(after), logs, folds)


def untold(told: list[str], said: tuple[str, ...]) -> tuple[str, ...]:
    """The turns of `said` after those the retired boards told last (a recap begins where their log ends: the
    same turn said again elsewhere, "carla rolls 4 + 6 and cannot play" twice, is no match)."""
    for taken in range(min(len(told), len(said)), 0, -1):
        if told[-taken:] == list(said[:taken]):
            return said[taken:]
    return said


def settled(message: int, now_ms: int) -> bool:
    """Whether a message has been up long enough to go (SETTLED_MS)."""
    return now_ms - posted_at(message) >= SETTLED_MS


def fold(boards: list[Said], now_ms: int) -> tuple[tuple[Said, ...], tuple[Fold, ...]]:
    """The retired boards gathered a few turns a message: what stays, and the folds that make it so."""
    logs: list[tuple[int, list[str], list[int]]] = []
    for message, lines in boards:
        if logs and settled(message, now_ms) and len(logs[-1][1]) + len(lines) <= LOG_LINES \
                and sum(len(line) + 1 for line in (*logs[-1][1], *lines)) <= LOG_CHARS:
            logs[-1][1].extend(lines)
            logs[-1][2].append(message)
        else:
            logs.append((message, list(lines), []))
    return (tuple((message, tuple(lines)) for message, lines, _ in logs),
            tuple(Fold(message, "\n".join(lines), tuple(gone)) for message, lines, gone in logs if gone))
