"""A message as every front end sees it: its text, its controls described (the Discord layer makes them
buttons and select menus; the terminal numbers the moves), its picture and who it pings."""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ControlKind(StrEnum):
    """What a control does; `Control.value` holds what the comment says (front ends draw each kind their
    way: bot/cogs/events/controls.py holds Discord's)."""

    LOBBY = "lobby"            # a lobby verb
    ROLL = "roll"              # the roll action
    ACTION = "action"          # the action sent
    MOVES = "moves"            # a menu of actions (`Control.options`: (label, action) pairs)
    GROUPS = "groups"          # a menu of action groups, e.g. pawns (`Control.options`: (label, group) pairs)
    CALL = "call"              # pick a call-out
    OTHER_MOVE = "other_move"  # type any move
    VOTE = "vote"              # a choice of the vote on an absent seat
    UNDO = "undo"              # take back one's last move
    TAKEBACK = "takeback"      # "yes" or "no": the answer of the player to move to a take-back request
    REMATCH = "rematch"        # a lobby for the same game again
    CLAIM = "claim"            # apply the late player's passed deadline now (where deadlines wait for interactions)
    STATUS = "status"          # the position in words, to the one who asks (where only interactions reach)
    SHOW_BOARD = "show_board"  # the board again, at the bottom of the channel (where only interactions reach)


@dataclass(frozen=True)
class Control:
    """One control of a message; a menu's `label` is its placeholder."""

    kind: ControlKind
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
    alt: str | None = None       # the picture in words (bot/present/alt_text.py), for screen readers
    said: tuple[str, ...] = ()   # a board's turns telling what happened, a line each, in order (bot/present/recap.py)
