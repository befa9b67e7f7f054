"""Position heuristics: the one a game's ruleset names (`Ruleset.heuristic`), a generic one for the rest.

A heuristic scores a position for one seat, relative to its opponents (own
prospects minus the best opponent's), in points of its own scale. The normal
level plays the move whose resulting position scores best; the hard level
turns scores into win chances, ``1 / (1 + exp(-score / scale))`` unless the
heuristic has a win chance of its own (Parcheesi's: a share of the wins, its
scale growing with the squares left), at the end of its short playouts.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Generic, TypeVar, cast

from bot.games.base import Ruleset

# Score of a won (lost) position: beyond any heuristic's reach.
WIN = 1e9


# A heuristic knows its game's ruleset class R and state S (a game's ruleset names its heuristic, found at
# run time); the search reads a ruleset only through the Ruleset API, whatever the game.
R = TypeVar("R", bound=Ruleset[Any])
S = TypeVar("S")


@dataclass(frozen=True)
class Heuristic(Generic[R, S]):
    evaluate: Callable[[R, S, int], float]           # (ruleset, state, seat) -> score of seat, relative
    scale: float = 1.0                                # score gap worth odds of e:1 (or what win_chance makes of it)
    horizon: int | None = None                        # playout length in the seat's turns; None: to the end
    # (ruleset, state, seat, scale) -> seat's win chance in an unfinished game; None: the logistic of
    # evaluate / scale
    win_chance: Callable[[R, S, int, float], float] | None = None


# The heuristic of a game whose ruleset is Ruleset[S], as the search uses it.
GameHeuristic = Heuristic[Ruleset[S], S]


def _no_knowledge(ruleset: Ruleset[Any], state: object, seat: int) -> float:
    return 0.0


# Without game knowledge: every unfinished position is alike, so hard plays its
# playouts to the end of the game and normal only sees wins and losses coming.
GENERIC: Heuristic[Ruleset[Any], Any] = Heuristic(_no_knowledge, scale=1.0, horizon=None)


def load(where: str) -> object:
    """The object a "module:name" string names, imported on first use. Its caller checks what it is (a
    registration naming the wrong object fails there, at the lookup, not deep in a search)."""
    module, name = where.split(":")
    found: object = getattr(import_module(module), name)
    return found


def wrong_kind(where: str, found: object, kind: str) -> TypeError:
    return TypeError(f"{where} names a {type(found).__name__}, not {kind}")


def heuristic_for(ruleset: Ruleset[S]) -> GameHeuristic[S]:
    """The heuristic the ruleset names (for its own class and state, as bot.games registers it), or GENERIC."""
    if ruleset.heuristic is None:
        return GENERIC
    found = load(ruleset.heuristic)
    if not isinstance(found, Heuristic):
        raise wrong_kind(ruleset.heuristic, found, "a Heuristic")
    return cast("GameHeuristic[S]", found)


def outcome(ruleset: Ruleset[S], state: S, seat: int) -> float | None:
    """1 for a win of `seat` (or its team), 0 for a loss, 0.5 for a draw; None while the game goes on."""
    result = ruleset.result(state)
    if result is None:
        return None
    if result.draw:
        return 0.5
    return 1.0 if seat in result.winners else 0.0


def score(ruleset: Ruleset[S], heuristic: GameHeuristic[S], state: S, seat: int) -> float:
    """The heuristic score, or +-WIN once the game is over."""
    done = outcome(ruleset, state, seat)
    if done is not None:
        return (done - 0.5) * 2 * WIN
    return heuristic.evaluate(ruleset, state, seat)


def win_chance(ruleset: Ruleset[S], heuristic: GameHeuristic[S], state: S, seat: int) -> float:
    done = outcome(ruleset, state, seat)
    if done is not None:
        return done
    if heuristic.win_chance is not None:
        return heuristic.win_chance(ruleset, state, seat, heuristic.scale)
    x = heuristic.evaluate(ruleset, state, seat) / heuristic.scale
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


def relative(scores: Sequence[float], seat: int, partners: Sequence[int] = ()) -> float:
    """Seat's score minus the best score among the seats not on its team."""
    others = [s for i, s in enumerate(scores) if i != seat and i not in partners]
    return scores[seat] - (max(others) if others else 0.0)
