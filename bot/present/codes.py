"""Move codes as each language writes them: in French a yellow pawn is J (jaune), a green one V (vert),
a pink Pariti piece R (rose); English initials are the canonical ones the rulesets and the store use.

A code's colour letter is the catalogue's `colour.letter.<id>` (the initial of the colour's name where it
can be: Spanish writes amarillo A and azul Z), for the colours a ruleset names in its codes
(`Ruleset.code_colours`). `shown` writes a canonical code
with the letters of a locale, `canonical` reads a typed code back: it takes the letters of every locale,
since no locale's letter stands for another colour of the same game (an initial that would, as German's G
for Gelb and Grün, leaves that colour its canonical letter), so a code typed from either language's list is
understood in any game.
"""
from __future__ import annotations

import re
from functools import cache
from typing import Any

from bot.domain import i18n
from bot.games.base import Ruleset

# A colour letter starts a code or follows its colon ("out:G", "B7:c5") and comes before a number,
# a "+" or the end; the lower-case letters of squares ("c5") and words ("out") are never colours.
_LETTER = re.compile(r"(?:^|(?<=:))([A-Za-z])(?=[0-9+]|$)")


def letter(colour: str, locale: str) -> str:
    """The letter of `colour` in the move codes of `locale`."""
    return i18n.text(f"colour.letter.{colour}", locale)


@cache
def _letters(game_id: str, code_colours: tuple[str, ...], locale: str) -> dict[str, str]:
    """{canonical letter: the locale's letter} for the letters that differ."""
    canonical = {colour: letter(colour, i18n.DEFAULT_LOCALE) for colour in code_colours}
    local = {colour: letter(colour, locale) for colour in code_colours}
    differ = {canonical[c]: local[c] for c in code_colours if local[c] != canonical[c]}
    clash = set(differ.values()) & set(canonical.values())
    assert not clash, f"{game_id}: {locale} letters {clash} already name other colours"
    return differ


def shown(ruleset: Ruleset[Any], action: str, locale: str) -> str:
    """The canonical `action` written with `locale`'s colour letters ("Y2+4" -> "J2+4" in French)."""
    letters = _letters(ruleset.id, ruleset.code_colours, locale)
    if not letters:
        return action
    return _LETTER.sub(lambda m: letters.get(m[1], m[1]), action)


def canonical(ruleset: Ruleset[Any], typed: str) -> str:
    """The code `typed` with any language's colour letters read as the canonical ones ("j2+4" -> "y2+4";
    case is left to the matching of typed codes)."""
    back = {local: letter for locale in i18n.LOCALES
            for letter, local in _letters(ruleset.id, ruleset.code_colours, locale).items()}
    if not back:
        return typed

    def read(m: re.Match[str]) -> str:
        letter = back.get(m[1].upper())
        return m[1] if letter is None else letter if m[1].isupper() else letter.lower()
    return _LETTER.sub(read, typed)
