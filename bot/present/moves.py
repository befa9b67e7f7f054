"""What a move is called: button labels, `/game move` and `/game call` suggestions, the "Other move…" field."""
from __future__ import annotations

from typing import Any

from bot.core.game_records import GameRecord
from bot.domain import i18n
from bot.domain.player_actions import typed_action
from bot.games.base import Ruleset
from bot.present.codes import canonical, shown
from bot.present.words import game_text, say

MAX_CHOICES = 25             # autocomplete suggestions


def label(record: GameRecord, ruleset: Ruleset[Any], state: Any, action: str, locale: str | None = None) -> str:
    return say(record, ruleset.action_label(state, action), locale or record.locale)[:80]


def options(record: GameRecord, ruleset: Ruleset[Any], state: Any, actions: list[str],
            locale: str | None = None) -> tuple[tuple[str, str], ...]:
    """(label, action) pairs of a menu of moves."""
    return tuple((label(record, ruleset, state, a, locale)[:100], a) for a in actions)


def move_choices(record: GameRecord, ruleset: Ruleset[Any], state: Any, typed: str,
                 locale: str) -> list[tuple[str, str]]:
    """What `/game move` suggests for the text typed so far: (name, action) pairs, at most 25, each
    named "code · wording" so that players learn the codes they may type. First the move typed, when
    the bot accepts it (in a cheating ruleset, legal or not: it looks like any other, the player's
    opponents rely on nobody being told), then the legal moves whose name holds the typed text."""
    typed = typed.strip()
    found = typed_action(ruleset.accepted_actions(state), canonical(ruleset, typed)) if typed else None
    return suggestions(record, ruleset, state, ruleset.legal_actions(state), typed, locale, found)


def suggestions(record: GameRecord, ruleset: Ruleset[Any], state: Any, actions: list[str], typed: str, locale: str,
                first: str | None = None) -> list[tuple[str, str]]:
    """(name, action) pairs named "code · wording" for autocomplete: `first` if given, then the
    `actions` whose name holds the typed text, at most 25. Codes are written in the game's language."""
    wanted = typed.strip().casefold()
    choices = []
    for action in ([first] if first is not None else []) + [a for a in actions if a != first]:
        name = i18n.text("autocomplete.move", locale, code=shown(ruleset, action, record.locale),
                         move=label(record, ruleset, state, action, locale))
        if action == first or wanted in name.casefold():
            choices.append((name[:100], action[:100]))
        if len(choices) == MAX_CHOICES:
            break
    return choices


def other_move_field(record: GameRecord, ruleset: Ruleset[Any], state: Any, locale: str) -> tuple[str, str]:
    """The label and placeholder of the "Other move…" modal's one field: a code of the position as
    an example (a legal one: the board's buttons show those anyway) written in the game's language,
    and the game's code syntax."""
    legal = ruleset.legal_actions(state)   # one with a number reads as a code ("out" alone reads as a word)
    example = next((shown(ruleset, a, record.locale) for a in sorted(legal, key=lambda a: not any(
        c.isdigit() for c in a))), None)
    field = i18n.text("modal.other_move.label", locale, example=example) if example else \
        i18n.text("modal.other_move.label_plain", locale)
    return field[:45], game_text(ruleset, "modal.other_move.placeholder", locale)[:100]
