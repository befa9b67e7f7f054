"""Words every message uses: seat names, a Message in a locale, result lines, the game's own wording.

Public messages use the game's locale (chosen with the game, else the server's); replies to one user use
that user's locale.
"""
from __future__ import annotations

from typing import Any

from bot.core.game_records import GameRecord
from bot.domain import i18n
from bot.domain.names import player_name
from bot.games.base import Message, Ruleset

MAX_CONTENT = 2000           # the longest message a chat front end (Discord) takes


def seat_name(record: GameRecord, seat: int, locale: str) -> str:
    """A player's name as every message and picture shows it (bot.domain.names.player_name): a person's
    long name shortened, apart from the others; our words (a computer's level) whole."""
    name = player_name(record, seat)
    return i18n.Word(i18n.render(name, locale)) if isinstance(name, Message) else name


def say(record: GameRecord, message: Message, locale: str) -> str:
    return i18n.render(message, locale, lambda seat: seat_name(record, seat, locale))


def fit(lines: list[str], keep: int = 0) -> str:
    """Lines within Discord's 2000 characters: the oldest lines after the first `keep` go first."""
    lines = [line for line in lines if line]
    while len(lines) > keep + 1 and sum(len(line) + 1 for line in lines) > MAX_CONTENT:
        lines.pop(keep)
    text = "\n".join(lines)
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


def sentence(record: GameRecord, message: Message, locale: str) -> str:
    """`message` as a sentence: our first word capitalised, a player's name at the start left as written."""
    return i18n.render(message, locale, lambda seat: seat_name(record, seat, locale), capitalised=True)


def result_line(record: GameRecord, loc: str) -> str:
    result = record.result or {}
    winners = result.get("winners") or []
    if record.status == "ended" and not winners:
        return i18n.text("result.ended", loc)
    if result.get("draw"):
        return i18n.text("result.draw", loc)
    names = [seat_name(record, s, loc) for s in winners]
    if len(names) == 1:
        line = i18n.text("result.winner", loc, player=names[0])
    else:
        line = i18n.text("result.winners", loc, players=", ".join(names[:-1]), last=names[-1])
    if result.get("details", {}).get("classy"):
        line += " " + i18n.text("result.classy", loc)
    return line


def game_text(ruleset: Ruleset[Any], key: str, locale: str, **params: object) -> str:
    """A shared text in the game's own words when it has them ("<key>.<game id>": what its
    groups are, what a call-out names)."""
    specific = f"{key}.{ruleset.id}"
    return i18n.text(specific if i18n.has_key(specific, locale) else key, locale, **params)
