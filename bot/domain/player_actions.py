"""What a player sends to act, as the front ends and the session service read it alike: ROLL asks for a roll
(the session draws the dice from the game's seed); anything else names one of the ruleset's accepted actions,
perhaps typed by hand (typed_action)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.core.game_records import GameRecord
from bot.domain.names import player_name
from bot.games.base import GameError, Message, Ruleset, msg

ROLL = "roll"
FORCED_MOVES = "forced_moves"     # the game option: a person's only move plays itself (default on)
FORCED_EVENT = msg("game.forced_move")   # said after the events of such a move


def forced_action(ruleset: Ruleset[Any], state: Any, person: bool, options: Mapping[str, Any]) -> str | None:
    """The move that plays itself for the person to move (`person`: the seat to move is one): their only
    one, but never a roll (players roll their own dice) nor where the rules let a player cheat or call out
    (another move is always possible there), nor when the game's `forced_moves` option is off."""
    if not person or ruleset.to_move(state) is None or ruleset.roll_due(state) or ruleset.allows_cheating \
            or not options.get(FORCED_MOVES, True):
        return None
    actions = ruleset.distinct_actions(state, ruleset.legal_actions(state))
    return actions[0] if len(actions) == 1 else None


def check_to_move(record: GameRecord, seat: int | None, to_move: int | None) -> int:
    """`seat`, if it is the player to move (`to_move`, None once nobody is); GameError otherwise: a watcher
    (`seat` None) is told they are not playing, a player whose turn it is not who must play. A move, a roll
    and a piece's moves are refused alike."""
    if seat is None:
        raise GameError(msg("error.not_a_player"))
    if to_move is not None and seat != to_move:
        raise GameError(msg("error.not_your_turn", player=player_name(record, to_move)))
    return seat


def with_forced_note(events: tuple[Message, ...]) -> tuple[Message, ...]:
    return (*events, FORCED_EVENT)


def typed_action(accepted: list[str], typed: str) -> str | None:
    """The accepted action that `typed` stands for: itself, or, typed by hand, the only one
    equal to it regardless of case ("y2+4" means "Y2+4"); None when there is none."""
    if typed in accepted:
        return typed
    same = [a for a in accepted if a.casefold() == typed.casefold()]
    return same[0] if len(same) == 1 else None
