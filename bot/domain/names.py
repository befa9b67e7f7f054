"""People's names as every message and picture shows them: a name of more than NAME_LIMIT letters
shortened, apart from the others at the table. A letter is a grapheme (what a reader counts as one: a
letter and its accents, an emoji sequence), found by the `regex` module's \\X, which follows Unicode's
segmentation as Python's own `re` does not. Computer players, and people who asked to be forgotten, are
named in our words (player_name), which each message says in its own language."""
from __future__ import annotations

from collections.abc import Sequence

import regex

from bot.core.game_records import GameRecord, Seat
from bot.games.base import Message, msg

NAME_LIMIT = 12              # letters of a name shown whole: as many as a board's house shows at chat size
_GRAPHEME = regex.compile(r"\X")
FORMER_PLAYER = "privacy.former_player"   # the words a forgotten person's name becomes (bot/services/privacy.py)


def is_former_player(seat: Seat) -> bool:
    """A person who asked to be forgotten: their id became a pseudonym (negative), their name our words."""
    return seat.level is None and seat.user_id < 0


def player_name(record: GameRecord, seat: int) -> str | Message:
    """The name of the player in `seat` as messages give it: a person's (person_name), or our words for a
    person who asked to be forgotten (bot/services/privacy.py) and for a computer, by level, numbered in seat
    order when two seated at the start share one. (A computer seated during the game, by a resignation or a
    vote, carries its number in its name, bot.services.endings.with_computer, so that no name changes in the
    middle of a game.)"""
    player = record.seats[seat]
    if player.level is None:
        return msg(FORMER_PLAYER) if is_former_player(player) else person_name(record, seat)
    level = msg(f"level.{player.level}")
    same = [i for i, other in enumerate(record.seats) if other.level == player.level and not other.name]
    if player.name:
        number = int(player.name)
    elif len(same) == 1:
        return msg("player.computer", level=level)
    else:
        number = same.index(seat) + 1
    return msg("player.computer_numbered", level=level, number=number)


def person_name(record: GameRecord, seat: int) -> str:
    """The name of the person in `seat` among the people seated (short_names)."""
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
