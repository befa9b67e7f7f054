"""People's names as every message and picture shows them: a name of more than NAME_LIMIT letters
shortened, apart from the others at the table. A letter is a grapheme (what a reader counts as one: a
letter and its accents, an emoji sequence), found by the `regex` module's \\X, which follows Unicode's
segmentation as Python's own `re` does not. (Computer players are named by level in our words:
bot.present.words.seat_name.)"""
from __future__ import annotations

from collections.abc import Sequence

import regex

from bot.core.game_records import GameRecord, Seat

NAME_LIMIT = 12              # letters of a name shown whole: as many as a board's house shows at chat size
_GRAPHEME = regex.compile(r"\X")
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


def graphemes(text: str) -> list[str]:
    """`text` cut into graphemes: never an accent apart from its letter, nor an emoji sequence in two."""
    found: list[str] = _GRAPHEME.findall(text)   # the regex module has no type information
    return found


def short_names(names: Sequence[str], limit: int = NAME_LIMIT) -> list[str]:
    """Each name of at most `limit` letters (graphemes: combining marks do not count) as it is; a longer
    one cut with "…". Two names that would then read the same (a shared beginning) keep as much of their
    ends as tells them apart: "Alexandre Dup…in" and "Alexandre Dup…au"."""
    letters = [graphemes(name) for name in names]

    def cut(name: list[str], tail: int) -> str:
        if len(name) <= limit:
            return "".join(name)
        head = "".join(name[:limit - 1 - tail]).rstrip() + "…"
        return head + "".join(name[len(name) - tail:]) if tail else head

    tails = [0] * len(names)
    while True:
        shown = [cut(name, tail) for name, tail in zip(letters, tails)]
        clashes = {i for i, a in enumerate(shown) for j, b in enumerate(shown)
                   if i != j and a == b and names[i] != names[j] and tails[i] < limit // 2}
        if not clashes:
            return shown
        for i in clashes:
            tails[i] += 1
