"""Words every message uses: seat names, a Message in a locale, result lines, the game's own wording.

Public messages use the game's locale (chosen with the game, else the server's); replies to one user use
that user's locale.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from bot import i18n
from bot.games.base import Message, Ruleset
from bot.game_records import GameRecord

MAX_CONTENT = 2000           # the longest message a chat front end (Discord) takes
NAME_LIMIT = 12              # characters of a name shown whole: as many as a board's house shows at chat size


def seat_name(record: GameRecord, seat: int, locale: str) -> str:
    """A player's name as every message and picture shows it: computer players by level, numbered in seat
    order when two seated at the start share one (our words, whole; one seated during the game, by a
    resignation or a vote, carries its number in its name, bot.services.endings.with_computer, so that no
    name changes in the middle of a game); a player's long name shortened, apart from the others
    (short_names)."""
    if record.seats[seat].level is not None:
        return _computer_name(record, seat, locale)
    people = [i for i, s in enumerate(record.seats) if s.level is None]
    return short_names([record.seats[i].name for i in people])[people.index(seat)]


def short_names(names: Sequence[str], limit: int = NAME_LIMIT) -> list[str]:
    """Each name of at most `limit` characters as it is; a longer one cut with "…". Two names that would
    then read the same (a shared beginning) keep as much of their ends as tells them apart:
    "Alexandre Dup…in" and "Alexandre Dup…au". Never cuts an emoji sequence or an accent in two."""
    def cut(name: str, tail: int) -> str:
        if len(name) <= limit:
            return name
        head, end = _boundary(name, limit - 1 - tail), len(name) - tail
        while 0 < end < len(name) and _joins(name, end):
            end -= 1
        return name[:head].rstrip() + "…" + name[end:] if tail else name[:head].rstrip() + "…"

    tails = [0] * len(names)
    while True:
        shown = [cut(name, tail) for name, tail in zip(names, tails)]
        clashes = {i for i, a in enumerate(shown) for j, b in enumerate(shown)
                   if i != j and a == b and names[i] != names[j] and tails[i] < limit // 2}
        if not clashes:
            return shown
        for i in clashes:
            tails[i] += 1


def _joins(text: str, i: int) -> bool:
    """Whether text[i] belongs with the character before it (a combining mark, a variation selector,
    a skin tone, or either side of a zero-width joiner)."""
    return text[i - 1] == "\u200d" or unicodedata.category(text[i]) in ("Mn", "Me", "Cf", "Sk") and ord(text[i]) > 127


def _boundary(text: str, i: int) -> int:
    """The nearest place at or before `i` where `text` may be cut."""
    while 0 < i < len(text) and _joins(text, i):
        i -= 1
    return i


def _computer_name(record: GameRecord, seat: int, locale: str) -> str:
    s = record.seats[seat]
    level = i18n.text(f"level.{s.level}", locale)
    same = [i for i, other in enumerate(record.seats) if other.level == s.level and not other.name]
    if s.name:
        number = int(s.name)
    elif len(same) == 1:
        return i18n.Word(i18n.text("player.computer", locale, level=level))
    else:
        number = same.index(seat) + 1
    return i18n.Word(i18n.text("player.computer_numbered", locale, level=level, number=number))


def say(record: GameRecord, message: Message, locale: str) -> str:
    return i18n.render(message, locale, lambda seat: seat_name(record, seat, locale))


def fit(lines: list[str]) -> str:
    """Lines within Discord's 2000 characters: the oldest (first) lines go first."""
    lines = [line for line in lines if line]
    while len(lines) > 1 and sum(len(line) + 1 for line in lines) > MAX_CONTENT:
        lines.pop(0)
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


def game_text(ruleset: Ruleset, key: str, locale: str) -> str:
    """A shared text in the game's own words when it has them ("<key>.<game id>": what its
    groups are, what a call-out names)."""
    specific = f"{key}.{ruleset.id}"
    return i18n.text(specific if i18n.has_key(specific, locale) else key, locale)
