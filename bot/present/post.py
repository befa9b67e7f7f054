"""A message as every front end sees it: its text, its controls described (the Discord layer makes them
buttons and select menus; the terminal numbers the moves), its picture and who it pings."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Control:
    """One control of a message.

    kind: "lobby" (value: a lobby verb), "roll" and "action" (value: the action sent), "moves" and
    "groups" (a menu of actions or action groups: `options` holds (label, value) pairs, `label` is the
    menu's placeholder), "call" (pick a call-out), "other_move" (type any move), "vote" (value: a choice
    of the vote on an absent seat), "undo" (take back one's last move), "takeback" (value: "yes" or "no",
    the answer of the player to move to a take-back), "rematch" (a lobby for the same game again)."""

    kind: str
    label: str
    value: str = ""
    row: int | None = None
    options: tuple[tuple[str, str], ...] = ()


@dataclass
class Post:
    content: str
    controls: tuple[Control, ...] = ()
    png: bytes | None = None
    mention: int | None = None   # user pinged by this post
