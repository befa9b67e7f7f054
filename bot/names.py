"""People's names as every message and picture shows them: a name of more than NAME_LIMIT characters
shortened, apart from the others at the table. (Computer players are named by level in our words:
bot.present.words.seat_name.)"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from bot.game_records import GameRecord, Seat

NAME_LIMIT = 12              # characters of a name shown whole: as many as a board's house shows at chat size
FORMER_PLAYER = "privacy.former_player"   # the words a forgotten person's name becomes (bot/services/privacy.py)


def is_former_player(seat: Seat) -> bool:
    """A person who asked to be forgotten: their id became a pseudonym (negative), their name our words."""
    return seat.level is None and seat.user_id < 0


def person_name(record: GameRecord, seat: int) -> str:
    """The name of the person in `seat` among the people seated (short_names); a computer's seat, where the
    services have no words for its level, "🤖"."""
    if record.seats[seat].level is not None:
        return "🤖"
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
        while 0 < end < len(name) and joins_previous(name, end):
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


def joins_previous(text: str, i: int) -> bool:
    """Whether text[i] belongs with the character before it (a combining mark, a variation selector, a
    skin tone, or either side of a zero-width joiner): never cut from it, nor drawn apart from it."""
    ch = text[i]
    return i > 0 and (text[i - 1] == "\u200d" or ord(ch) > 127 and not ch.isspace()
                      and unicodedata.category(ch) in ("Mn", "Me", "Cf", "Sk"))


def _boundary(text: str, i: int) -> int:
    """The nearest place at or before `i` where `text` may be cut."""
    while 0 < i < len(text) and joins_previous(text, i):
        i -= 1
    return i
