"""The ruleset API every game implements (see docs/architecture.md).

A ruleset is pure: no I/O, no discord, no clock, no hidden randomness.
A game is its start options plus its action log; replaying the log through
`apply` reproduces every state exactly. Dice are actions too: the session
draws the values (`random_roll`) and applies them like a move.

Actions are short strings (they travel in button custom_ids, at most ~60
characters). Each ruleset defines its own codes; the player-facing wording of
an action comes from `action_label`, a translatable `Message`.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar


@dataclass(frozen=True)
class Message:
    """Player-facing text: a key of data/i18n/<locale>.json and its parameters.

    Parameter conventions understood by every front end:
    - a parameter named ``seat`` or ending in ``_seat`` (an int) is shown as
      that seat's player (a mention or a name);
    - a parameter named ``colour`` or ending in ``_colour`` (a colour id such
      as ``"yellow"``) is shown as the translated colour name;
    - a parameter whose value is itself a Message is translated recursively.
    """

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "params": {k: (v.to_json() if isinstance(v, Message) else v) for k, v in self.params.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Message:
        params = {k: (cls.from_json(v) if isinstance(v, dict) and "key" in v else v) for k, v in data["params"].items()}
        return cls(data["key"], params)


def msg(key: str, **params: Any) -> Message:
    return Message(key, params)


def joined(items: list[Message], key: str) -> Message:
    """Items as one message: `key` ("{first}, {rest}") nested to the right."""
    together = items[-1]
    for item in reversed(items[:-1]):
        together = msg(key, first=item, rest=together)
    return together


def skip_event(seat: int) -> Message:
    """The first event of a forfeited turn (Ruleset.SKIP): time ran out, the turn is passed."""
    return msg("timers.skipped", seat=seat)


class GameError(Exception):
    """A refusal to show to the user (never a bug). Carries a translatable Message."""

    def __init__(self, message: Message):
        super().__init__(message.key)
        self.message = message


class IllegalAction(GameError):
    """The action is not allowed now; the state is unchanged."""


@dataclass(frozen=True)
class Result:
    """How a finished game ended. `winners` are seat indices (two for a team)."""

    winners: tuple[int, ...]
    draw: bool = False
    # Ruleset-specific facts kept for statistics, e.g. {"classy": True}.
    details: dict[str, Any] = field(default_factory=dict)


# A ruleset's state: each ruleset has its own type of position (a NamedTuple or a frozen dataclass).
StateT = TypeVar("StateT")


class Applied(NamedTuple, Generic[StateT]):
    """What `apply` returns: the new state and what happened, in order.
    A NamedTuple: built on every action of a playout, it costs half a frozen dataclass."""

    state: StateT
    events: tuple[Message, ...] = ()


class Ruleset(ABC, Generic[StateT]):
    """One game's rules, and its registration (bot.games.GAMES): the class says which renderer module
    draws its board and which heuristic guides computer players. Subclasses are singletons
    (bot.games.get_ruleset) whose only state is data about the game; a position is a value passed in and out.

    Caches, and why sharing them is safe. One ruleset object serves two threads: the event loop
    (sessions) and the board-drawing thread (bot/present/picture.py and renderer/: to_move,
    scene, Barricade's moves and free_points). Each computer players' worker process has a copy
    of its own: bot/ai/pool.py sends it the game id and the state as JSON.
    - Per object: the 68-square Parcheesi engine keeps `_memo` (the last state seen and its options)
      and `_occ` (the occupancy of the last position seen, carried from move to move); Parchís Maghreb
      keeps `_memo` (the last state and its legal actions) and `_occ_memo` (the last pieces tuple and
      its occupancy). Each is ONE tuple (key, value) replaced by one assignment, which the GIL makes
      atomic, and read once into a local then checked by identity of the key (`memo[0] is state`).
      So a thread switch between two calls costs at worst a miss (recounted), never one state paired
      with another's value; the values stored are never mutated (callers get copies of the lists).
      The engine's roll table (`_rolls`, a RollTable) and Barricade's `board` are built in __init__ and
      only read.
    - Per module: tables built at import, dicts filled on first use with immutable values (the
      engine's `_ROWS` and `_WEIGHT_ROWS` in engine_state.py, `MOVE_EVENTS` in engine_words.py) and
      functools caches of events and parsed codes. Two threads filling the same entry at once store
      equal values; functools.cache and lru_cache are thread-safe in CPython.
    """

    id: ClassVar[str]                 # "parcheesi", "parcheesi-classic", ...
    name: ClassVar[str]               # i18n key of the game's display name
    # The layers above name what they add to a game here, as importable paths that they import on first use
    # (a ruleset imports nothing above it): the module drawing the board, with a `layout` function
    # (renderer/__init__.py); the computer players' Heuristic, "module:name" (None: bot.ai.heuristics.GENERIC);
    # the hard level's tree search, "module:name" (bot/ai/levels.py; None: Monte-Carlo playouts);
    # in cheating rulesets, the judge of a call-out, "module:name" (bot/ai/calls.py; None: never calls).
    # Each is checked and typed where it is looked up: renderer.family_layout, bot.ai.heuristics.heuristic_for,
    # bot.ai.levels.hard_search_for, bot.ai.calls.call_judge_for.
    board_family: ClassVar[str]
    heuristic: ClassVar[str | None] = None
    hard_search: ClassVar[str | None] = None
    call_judge: ClassVar[str | None] = None
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    has_dice: ClassVar[bool] = True
    # Cheating rulesets accept moves the rules forbid; opponents may call them out.
    allows_cheating: ClassVar[bool] = False
    # The colours whose initial, an upper-case letter, names a piece in action codes ("Y2+4": yellow),
    # so that a front end can write and read codes with the initials of another language.
    code_colours: ClassVar[tuple[str, ...]] = ()
    # Moves along a graph read best piece first: the front end offers a choice of action_group
    # (piece) even when every action would fit as a button, then that piece's moves on a focused board.
    pick_group_first: ClassVar[bool] = False
    # The action that forfeits the turn of the player to move when its deadline passes in a game set to
    # on_timeout "skip": a house rule of the table, not a move (the rules say a player who can move must).
    # `apply` takes it from the player to move only: what remains of the turn (a roll not made, dice not
    # played, pending bonuses...) is lost, its events say so, and the next player's turn begins. It is
    # never among legal_actions or accepted_actions, so nobody can play it by hand; `apply` refuses it
    # where there is no turn to forfeit (the game is over; Barricade's rolls for the order of play).
    SKIP: ClassVar[str] = "skip"
    # Does the `teams` option exist (2 vs 2)?
    has_teams: ClassVar[bool] = False
    # Is the order of play rolled for in the game (Barricade, BA-2.2) rather than seat 0 first?
    order_by_dice: ClassVar[bool] = False

    # --- setup ---------------------------------------------------------
    def check_options(self, options: dict[str, Any]) -> None:
        """Raise GameError when these options do not exist in this game (checked when a lobby opens)."""
        if options.get("teams") and not self.has_teams:
            raise GameError(msg("error.no_teams", game=msg(self.name)))

    def player_range(self, options: dict[str, Any]) -> tuple[int, int]:
        """The fewest and most players these options allow."""
        return self.min_players, self.max_players

    def check_setup(self, n_players: int, options: dict[str, Any]) -> None:
        """Raise GameError when this number of players / these options cannot start."""
        self.check_options(options)
        low, high = self.player_range(options)
        if not low <= n_players <= high:
            raise GameError(msg("error.teams_player_count" if options.get("teams") else "error.player_count",
                                min=low, max=high))

    @abstractmethod
    def seat_colours(self, n_players: int, options: dict[str, Any]) -> list[tuple[str, ...]]:
        """Colour ids of each seat, in seat order (seat 0 plays first, unless `order_by_dice`)."""

    def seat_role(self, seat: int) -> Message | None:
        """What sets a seat apart besides its colours (shown in the lobby), or None."""
        return None

    def teams(self, n_players: int, options: dict[str, Any]) -> list[tuple[int, ...]] | None:
        """Seat indices of each team, or None for an every-player-for-himself game."""
        return None

    @abstractmethod
    def new_game(self, n_players: int, options: dict[str, Any], seed: int) -> StateT:
        """The initial state. `seed` may drive a random set-up (recorded, so replays match)."""

    # --- serialisation ---------------------------------------------------
    @abstractmethod
    def to_json(self, state: StateT) -> dict[str, Any]:
        """Plain JSON data; from_json(to_json(s)) == s."""

    @abstractmethod
    def from_json(self, data: dict[str, Any]) -> StateT: ...

    # --- whose move, what is legal -----------------------------------------
    @abstractmethod
    def to_move(self, state: StateT) -> int | None:
        """Seat that must act now, or None once the game is over."""

    @abstractmethod
    def result(self, state: StateT) -> Result | None:
        """None while the game goes on."""

    def roll_due(self, state: StateT) -> bool:
        """True when the next action must be a roll by `to_move(state)`."""
        return False

    def random_roll(self, state: StateT, rng: random.Random) -> str:
        """The roll action for values drawn from rng (only when roll_due)."""
        raise NotImplementedError

    @abstractmethod
    def legal_actions(self, state: StateT) -> list[str]:
        """Every non-roll action the rules allow `to_move(state)` to take now."""

    def refusal(self, state: StateT, action: str) -> Message | None:
        """Why `action`, not among the accepted actions, is refused, when the rules can say more than "not a move
        you can play now" (a point that is no point, one where the rules forbid it); None: they cannot."""
        return None

    def accepted_actions(self, state: StateT) -> list[str]:
        """Actions the bot accepts (cheating rulesets: wider than legal_actions)."""
        return self.legal_actions(state)

    def distinct_actions(self, state: StateT, actions: list[str]) -> list[str]:
        """`actions` without those that make the same move as an earlier one (two like pieces on one square
        going to the same square with the same die): what a player is offered, each move once."""
        return actions

    def call_actions(self, state: StateT, seat: int) -> list[str]:
        """Call-out actions that `seat` (not necessarily to_move) may take now."""
        return []

    @abstractmethod
    def apply(self, state: StateT, action: str, seat: int | None = None) -> Applied[StateT]:
        """Apply one action by `seat` (default: to_move). Raise IllegalAction when
        it is not accepted now. Never mutates `state`.

        Turns pass by themselves: after a roll whose dice cannot be used, the
        events say why and the next seat is to move."""

    # --- words -------------------------------------------------------------
    @abstractmethod
    def action_label(self, state: StateT, action: str) -> Message:
        """Short wording of an action, for buttons and autocomplete (<= 80 chars)."""

    def action_group(self, state: StateT, action: str) -> str | None:
        """When many actions are offered, the first of two choices they share:
        a short key (<= 20 chars, e.g. the piece "Y2" or an area "r3"), or None
        to offer actions in one list. The renderer's `focus` takes such a key."""
        return None

    def group_label(self, state: StateT, group: str) -> Message:
        """Wording of an action_group key (default: the key itself)."""
        return msg("group.plain", name=group)

    @abstractmethod
    def describe(self, state: StateT) -> list[Message]:
        """The position in words (for /game status and screen readers)."""

    def rules_summary(self) -> Message:
        return msg(f"rules.{self.id}")
