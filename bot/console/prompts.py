"""What the console's player types at a prompt, read; and the prompt that says what may be typed.

An answer is an action to play (a number of the list, a move code in either language's colour letters,
the name of the point a move ends on, `r` or Enter for a roll, a call-out), words to say before asking
again (help, the rules, why a number, point or call-out is not one), or quitting. Nothing here does I/O.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.domain import i18n
from bot.domain.player_actions import ROLL
from bot.domain.positions import position
from bot.games.base import Message, Ruleset, msg
from bot.present.codes import canonical, shown
from bot.present.words import game_text, say
from bot.services import GameRecord

LISTED = 20         # more moves sharing a "prefix:" than this are not listed one by one (Barricade's points)
CALL = "call"       # a call-out's code, alone (classic Parcheesi) or before the piece called out ("call:B1")
QUIT = ("q", "quit", "exit")
HELP = ("?", "help", "h", "aide")
RULES = ("rules", "règles", "regles")


@dataclass(frozen=True)
class Say:
    """Words to show (after the list, just above the question) before asking again."""

    lines: tuple[str, ...]


Answer = str | Say | None   # an action to play, words to say, or None: quit


@dataclass(frozen=True)
class Listing:
    """The moves as the prompt shows them: the numbered ones, and the kinds ("bar:") too many to number,
    typed by the name of their point."""

    numbered: list[str]
    by_name: dict[str, list[str]]


def listing(ruleset: Ruleset[Any], state: Any) -> Listing:
    if ruleset.roll_due(state):
        return Listing([], {})
    actions = ruleset.legal_actions(state)
    kinds: dict[str, list[str]] = {}
    for action in actions:
        kind, colon, _ = action.partition(":")
        kinds.setdefault(kind + colon, []).append(action)
    many = {kind: same for kind, same in kinds.items() if kind.endswith(":") and len(same) > LISTED}
    return Listing([a for a in actions if a.partition(":")[0] + ":" not in many], many)


def read_answer(record: GameRecord, typed: str, locale: str) -> Answer:
    """What `typed` (stripped) asks for. A number picks from the printed list; Enter (or r) rolls when a roll
    is due, and otherwise shows the moves again (Enter never plays a move); r where the list offers a
    roll ("Roll first…") takes it; "call", "call B1" or "call:B1" is a call-out; a point's name stands
    for the one move that ends there (Barricade's "e1" for "start-e1", "bar:e1"); anything else is a
    move code, which the services judge."""
    ruleset, state = position(record)
    word = typed.casefold()
    if word in QUIT:
        return None
    if word in HELP:
        return Say(help_lines(record, locale))
    if word in RULES:
        return Say((i18n.render(ruleset.rules_summary(), locale),))
    if word[:len(CALL)] == CALL and (len(word) == len(CALL) or not word[len(CALL)].isalnum()):
        return _call(record, typed[len(CALL):].strip(" :"), locale)
    if ruleset.roll_due(state) and word in ("", "r"):
        return ROLL
    if word == "r":   # a roll offered among the moves, or the services' "nothing to roll now"
        return ROLL
    if not typed:
        return Say(())   # the moves again
    if ruleset.roll_due(state):   # only a roll (or what is above) is taken here
        code = canonical(ruleset, typed)
        if code == ROLL or code in ruleset.accepted_actions(state):
            return code
        return Say((i18n.text("console.unknown", locale, typed=typed[:20]),))
    shown_moves = listing(ruleset, state)
    if typed.isdigit():
        if 1 <= int(typed) <= len(shown_moves.numbered):
            return shown_moves.numbered[int(typed) - 1]
        count = len(shown_moves.numbered)
        return Say((i18n.text("console.not_listed" if count else "console.no_numbers", locale, number=typed[:20],
                              count=count),))
    ending = [a for a in ruleset.legal_actions(state) if _destination(a) != a and _destination(a).casefold() == word]
    if len(ending) == 1 and typed not in ending:
        return ending[0]
    if len(ending) > 1:
        numbers = [str(shown_moves.numbered.index(a) + 1) for a in ending if a in shown_moves.numbered]
        return Say((i18n.text("console.several_end_there", locale, point=typed, numbers=", ".join(numbers)),))
    code = canonical(ruleset, typed)
    if len(shown_moves.by_name) == 1 and not re.search("[:-]", code):   # a point named where points are asked
        named = next(iter(shown_moves.by_name)) + word
        if ruleset.refusal(state, named) is not None:   # the rules say why it is refused (a barricade's point)
            return named
    return code


def _destination(action: str) -> str:
    """The point a move's code ends on: "e1" of Barricade's "start-e1" or "bar:e1", "b4" of Pariti's "B10:b4"."""
    return re.split("[:-]", action)[-1]


def names_points(record: GameRecord) -> bool:
    ruleset, state = position(record)
    return not ruleset.roll_due(state) and any(_destination(a) != a for a in ruleset.legal_actions(state))


def calls(record: GameRecord, seat: int | None = None) -> list[str]:
    """The call-outs `seat` (default: the player to move) may make now (cheating rulesets: "call", or
    "call:B1" naming a piece)."""
    ruleset, state = position(record)
    seat = ruleset.to_move(state) if seat is None else seat
    return ruleset.call_actions(state, seat) if seat is not None else []


def _call(record: GameRecord, piece: str, locale: str) -> Answer:
    """The call-out meant by "call" and `piece` (maybe ""), or why there is none: the game has no call-outs,
    no call-out is open to the player (the turn on record is his own, or none is open), or which piece to
    name (a real one: one of those he may call out)."""
    ruleset, state = position(record)
    if not ruleset.allows_cheating:
        return Say((i18n.text("error.no_cheating", locale),))
    open_now = calls(record)
    if not open_now:
        mover = ruleset.to_move(state)
        others = any(calls(record, seat) for seat in range(len(record.seats)) if seat != mover)
        return Say((game_text(ruleset, "console.call_own_turn" if others else "console.call_closed", locale),))
    # The call-out names the turn, not a piece (classic Parcheesi): any piece typed is the turn's.
    if open_now == [CALL]:
        return CALL
    pieces = [shown(ruleset, c, locale).partition(":")[2] for c in open_now]
    if piece:
        typed = f"{CALL}:{canonical(ruleset, piece)}"
        found = next((c for c in open_now if c.casefold() == typed.casefold()), None)
        if found is not None:
            return found
        return Say((i18n.text("console.call_unknown", locale, piece=piece[:20], pieces=", ".join(pieces),
                              example=f"{CALL} {pieces[0]}"),))
    return Say((i18n.text("console.call_which", locale, pieces=", ".join(pieces), example=f"{CALL} {pieces[0]}"),))


def prompt(record: GameRecord, locale: str, note: tuple[str, ...] = ()) -> str:
    """The numbered moves, what a call-out is typed as when one is open, `note` (a refusal, the help), then
    the question. Moves of one "prefix:" kind too many to list (a barricade may go on any of 73 points) are
    one line asking for the point's name (its column's letter and row's number, which the picture prints
    along its sides): only the numbers shown are numbers of moves."""
    ruleset, state = position(record)
    open_now = calls(record)
    call = [_call_hint(ruleset, open_now, locale)] if open_now else []
    if ruleset.roll_due(state):
        return "\n".join(call + list(note) + [i18n.text("console.prompt_roll", locale) + " "])
    moves = listing(ruleset, state)
    if not moves.numbered and len(moves.by_name) == 1:   # only points to name (where a barricade goes)
        (same,) = moves.by_name.values()
        points = game_text(ruleset, "console.prompt_points", locale, count=len(same),
                           example=same[0].partition(":")[2])
        return "\n".join([points] + call + list(note) + [i18n.text("console.prompt_point", locale) + " "])
    lines = [f"  {i}. {say(record, ruleset.action_label(state, a), locale)}  [{shown(ruleset, a, locale)}]"
             for i, a in enumerate(moves.numbered, start=1)]
    lines += [i18n.text("console.prompt_label", locale, count=len(same), example=same[0].partition(":")[2])
              for _, same in sorted(moves.by_name.items())]
    return "\n".join(lines + call + list(note) + [i18n.text("console.prompt_move", locale) + " "])


def _call_hint(ruleset: Ruleset[Any], open_now: list[str], locale: str) -> str:
    """How to type the call-out open now: "call" alone, or "call" and a piece that may be named ("call R1")."""
    if open_now == [CALL]:
        return game_text(ruleset, "console.prompt_call_turn", locale)
    return i18n.text("console.prompt_call", locale, example=shown(ruleset, open_now[0], locale).replace(":", " "))


def help_lines(record: GameRecord, locale: str) -> tuple[str, ...]:
    """What may be typed at this prompt, one line each, with examples from the position."""
    ruleset, state = position(record)
    lines = [i18n.text("console.help.title", locale)]
    if ruleset.roll_due(state):
        lines.append(i18n.text("console.help.roll", locale))
    else:
        moves = listing(ruleset, state)
        if moves.numbered:
            lines.append(i18n.text("console.help.number", locale, count=len(moves.numbered)))
        if ROLL in moves.numbered:
            lines.append(i18n.text("console.help.roll_offered", locale,
                                   move=say(record, ruleset.action_label(state, ROLL), locale)))
        codes = [a for a in ruleset.legal_actions(state) if a != ROLL]
        if codes:
            lines.append(i18n.text("console.help.code", locale, example=shown(ruleset, codes[0], locale)))
        if names_points(record):
            lines.append(i18n.text("console.help.point", locale, example=_destination(codes[-1])))
        lines.append(i18n.text("console.help.enter", locale))
    if ruleset.allows_cheating:
        open_now = calls(record)
        lines.append(game_text(ruleset, "console.help.call", locale) if not open_now or open_now == [CALL] else
                     i18n.text("console.help.call_piece", locale,
                               example=shown(ruleset, open_now[0], locale).replace(":", " ")))
    lines += [i18n.text("console.help.rules", locale, game=i18n.render(msg(ruleset.name), locale)),
              i18n.text("console.help.quit", locale)]
    return tuple(lines)


def refusal_line(record: GameRecord, message: Message, locale: str) -> str:
    """A refusal of the services in the terminal's words (Discord's point to slash commands)."""
    key = _CONSOLE_WORDING.get(message.key)
    if key and names_points(record):
        key += "_point"
    return i18n.render(Message(key, message.params) if key else message, locale)


# Refusals whose Discord wording points to slash commands, said the terminal's way.
_CONSOLE_WORDING = {"error.illegal_move": "console.illegal_move"}
