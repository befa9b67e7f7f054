"""The one translation mechanism: every player-facing string lives in
data/i18n/<locale>/*.json (one file per domain, merged), looked up by key.

A value is a template, or for words that agree with a number an object of
templates by CLDR plural category (`{"one": ..., "other": ...}`) chosen by
the message's `count` parameter: French puts 0 and 1 in "one", English only 1.

`render(message, locale, name_of)` turns a Message into text, applying the
parameter conventions of bot.games.base.Message; `capitalised=True` starts a
sentence with a capital letter, only ever one of our own words: a player's
name at the start stays as the player wrote it ("user2 rolls", "éloïse").

Elision: where a French word must elide before a name or a word inserted
after it, the template names the word as the placeholder's format spec, and
the two are written together: "Au tour {seat:de}" gives "Au tour de Paul" but
"Au tour d’Éloïse"; `de`, `que` and `le` are known (ELIDED). A vowel or an h
(taken as mute, as in most first names: "d’Hélène") elides; a digit does not
("le 8", as French writes it). Only templates that ask get it: a post-pass over
the whole text would also change "de" followed by a quoted code.

French typography in the fr catalogue (tests/domain/test_i18n.py checks it): a
no-break space (U+00A0) before : ; ! ? and inside « guillemets », the
typographic apostrophe ’.

Every language joins its words to a value the same way, through the format spec
(data/i18n/README.md for translators): Spanish contracts "de el" and "a el"
({seat:de} -> "del ordenador") and writes "e", "u" for "y", "o" before the
sounds i, o ({last:y} -> "Ana e Inés"); Portuguese contracts de, em, a, por with
an article ({seat:de} -> "do computador", "da Ana" only where our words carry
the article); German puts our words' article in the case its preposition
governs ({seat:von} -> "vom Computer", {seat:acc} -> "den Computer").
Contractions and cases touch only our own words (a Word): a player's name stays
as written ("de El Guapo").

A language is served when its folder exists (LOCALES); a message whose key, or
a key of a message inside it, the language lacks is said wholly in English, never
half in one language and half in another.
"""
from __future__ import annotations

import json
import logging
import string
import unicodedata
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from bot.core.data_files import data_file
from bot.games.base import Message

DEFAULT_LOCALE = "en"
# The languages Tablero can speak, in the order menus show them; each is served once its folder exists.
KNOWN_LOCALES = ("en", "fr", "es", "de", "pt-BR")
# Discord's locales (and a terminal's language codes) for each of ours: one Spanish for Spain and Latin America.
_REGIONS = {"fr": "fr", "es": "es", "de": "de", "pt": "pt-BR"}

log = logging.getLogger(__name__)


def _served() -> tuple[str, ...]:
    folder = data_file("i18n")
    return tuple(locale for locale in KNOWN_LOCALES if (folder / locale).is_dir())


LOCALES = _served()


def locale_of(discord_locale: object) -> str:
    """Our locale for a Discord locale value ("fr", "es-419", "pt-BR", Locale.german...) or a terminal's
    ("es_ES.UTF-8"); English for a language we do not serve."""
    code = str(getattr(discord_locale, "value", discord_locale) or "")
    ours = _REGIONS.get(code.replace("_", "-").split("-")[0].split(".")[0].lower(), DEFAULT_LOCALE)
    return ours if ours in LOCALES else DEFAULT_LOCALE


def terminal_locale(environ: Mapping[str, str]) -> str:
    """Our locale for a terminal's language, as POSIX finds it: LC_ALL, else LC_MESSAGES, else LANG
    ("es_ES.UTF-8" -> "es"; "C", "POSIX" or nothing: English)."""
    found = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), "")
    return locale_of(found)


Template = str | dict[str, str]


@cache
def catalogue(locale: str) -> dict[str, Template]:
    merged: dict[str, Template] = {}
    folder = data_file("i18n", locale)
    files = folder.iterdir() if folder.is_dir() else ()
    domains = sorted((f for f in files if f.name.endswith(".json")), key=lambda f: f.name)
    for domain in domains:   # a locale without a folder has an empty catalogue (render falls back to English)
        merged.update(json.loads(domain.read_text(encoding="utf-8")))
    return merged


def has_key(key: str, locale: str = DEFAULT_LOCALE) -> bool:
    return key in catalogue(locale)


def text(key: str, locale: str, **params: Any) -> str:
    return render(Message(key, params), locale)


class Word(str):
    """Our own words standing where a name goes (a computer player: "l’ordinateur (normal)"): unlike a
    player's name, taken as written, they start a sentence with a capital letter, and the brackets of a
    detail that follows them join theirs ("Computer (easy, red)", not "Computer (easy) (red)")."""


def opening(value: Any) -> Any:
    """`value` opening a sentence or a line: our own words (a Word) take a capital letter, a player's name
    stays as written."""
    return Word(value[:1].upper() + value[1:]) if isinstance(value, Word) else value


def render(message: Message, locale: str, name_of: Callable[[int], str] | None = None, *,
           capitalised: bool = False, nested: bool = False) -> str:
    """Translate `message`; seats are shown with `name_of(seat)` (default "Player N"). `nested`: a part of
    another message's text, which says where sentences start."""
    if locale != DEFAULT_LOCALE and not _has_words(message, catalogue(locale)):
        locale = DEFAULT_LOCALE   # never a sentence half in one language and half in English
    template = catalogue(locale).get(message.key) or catalogue(DEFAULT_LOCALE).get(message.key)
    if template is None:
        log.warning("missing translation key %s", message.key)
        return message.key
    if isinstance(template, dict):
        category = plural_category(message.params.get("count", 0), locale)
        template = template.get(category) or template["other"]
    values = {k: _value(k, v, locale, name_of) for k, v in message.params.items()}
    for name in _sentence_starts(template, at_start=not nested):
        if name in values:
            values[name] = opening(values[name])
    if capitalised:
        lead = _leading_placeholder(template)
        if lead is None:
            template = template[:1].upper() + template[1:]
        elif isinstance(message.params.get(lead), Message):   # a sentence that starts with another
            values[lead] = render(message.params[lead], locale, name_of, capitalised=True)
        elif lead in values and not _is_seat(lead):           # our word ("red 3"), not a player's name
            values[lead] = str(values[lead])[:1].upper() + str(values[lead])[1:]
    try:
        rendered = _format(template, values, locale)
    except (KeyError, IndexError, ValueError):
        log.warning("bad parameters for translation key %s", message.key)
        return template
    for word in {v for v in values.values() if isinstance(v, Word) and v.endswith(")")}:
        rendered = rendered.replace(f"{word} (", f"{word[:-1]}, ")
    lead = _leading_placeholder(template)
    # A part that starts with our words ("la personne oubliée" standing for a name in a stored event) is a
    # Word too: it takes a capital letter where it opens a sentence.
    ours = nested and lead is None
    return Word(rendered) if ours or (lead is not None and isinstance(values.get(lead), Word)) else rendered


def _has_words(message: Message, words: dict[str, Template]) -> bool:
    """Whether `words` (a catalogue) has the key of `message` and of every message inside it."""
    return message.key in words and all(_has_words(v, words) for v in message.params.values()
                                        if isinstance(v, Message))


ELIDED = {"de": "d’", "que": "qu’", "le": "l’"}
_ELIDING_START = "aeiouyhàâäéèêëîïôöùûüœæ"


def elide(word: str, following: str) -> str:
    """`word` then `following`, elided before a vowel or a mute h: ("de", "Éloïse") -> "d’Éloïse"; a y
    before a vowel is a consonant (a semi-vowel: "de Yasmine", but "d’Yves")."""
    first, second = following[:1].casefold(), following[1:2].casefold()
    semi_vowel = first == "y" and second in _ELIDING_START and second.isalpha()
    if first in _ELIDING_START and first.isalpha() and not semi_vowel:
        return ELIDED[word] + following
    return f"{word} {following}"


def _bare(text: str) -> str:
    """`text` casefolded without its accents: "Íñigo" -> "inigo"."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))


def spanish_conjunction(word: str, following: str) -> str:
    """"y" becomes "e" before the sound i ("Ana e Inés", "e Hilda"; not before a diphthong: "y Hielo"),
    "o" becomes "u" before the sound o ("Pablo u Óscar", "u Horacio")."""
    bare = _bare(following)
    sound = bare[1:] if bare.startswith("h") else bare
    if word == "y" and sound[:1] == "i" and not (bare.startswith("h") and sound[1:2] in ("a", "e", "o", "u")):
        return f"e {following}"
    if word == "o" and sound[:1] == "o":
        return f"u {following}"
    return f"{word} {following}"


def _article_join(contracted: dict[tuple[str, str], str]) -> Callable[[str, str], str]:
    """A preposition joined to our words when they start with an article: ("de", "el ordenador") ->
    "del ordenador" where `contracted` has ("de", "el"): "del"."""
    def join(word: str, following: str) -> str:
        article, _, rest = following.partition(" ")
        if isinstance(following, Word) and rest and (word, article) in contracted:
            joined = contracted[word, article]
            return f"{joined} {rest}" if joined else rest
        return f"{word} {following}"
    return join


_SPANISH = _article_join({("de", "el"): "del", ("a", "el"): "al"})
_PORTUGUESE_FORMS = {"de": ("do", "da", "dos", "das"), "em": ("no", "na", "nos", "nas"), "a": ("ao", "à", "aos", "às"),
                     "por": ("pelo", "pela", "pelos", "pelas")}
_PORTUGUESE = _article_join({(p, a): c for p, forms in _PORTUGUESE_FORMS.items()
                             for a, c in zip(("o", "a", "os", "as"), forms, strict=True)})
# German: the article of our words (nominative in the catalogue) in the case its preposition governs, and the
# contractions written with it ("von dem" -> "vom"); `acc` and `dat` give the case alone ("den Computer").
_DATIVE = {"der": "dem", "die": "der", "das": "dem", "ein": "einem", "eine": "einer"}
_ACCUSATIVE = {"der": "den", "ein": "einen"}
_GERMAN_CASES = {**dict.fromkeys(("von", "mit", "zu", "bei", "nach", "aus", "seit", "in", "an", "dat"), _DATIVE),
                 **dict.fromkeys(("für", "gegen", "ohne", "um", "durch", "acc"), _ACCUSATIVE)}
_GERMAN_CONTRACTED = {("von", "dem"): "vom", ("zu", "dem"): "zum", ("zu", "der"): "zur", ("bei", "dem"): "beim",
                      ("in", "dem"): "im", ("an", "dem"): "am"}


_GERMAN_ARTICLES = ("der", "die", "das", "ein", "eine")


def german_case(word: str, following: str) -> str:
    """`word` (a preposition, or the case alone: acc, dat) before `following`, our words' article declined;
    our words opening a sentence ("Der Computer") open it declined ("Den Computer", "Vom Computer")."""
    article, _, rest = following.partition(" ")
    if isinstance(following, Word) and rest and article.lower() in _GERMAN_ARTICLES:
        article, opens = _GERMAN_CASES[word].get(article.lower(), article.lower()), article[:1].isupper()
        if (word, article) in _GERMAN_CONTRACTED:
            joined = f"{_GERMAN_CONTRACTED[word, article]} {rest}"
        else:
            joined = f"{article} {rest}" if word in ("acc", "dat") else f"{word} {article} {rest}"
        return joined[:1].upper() + joined[1:] if opens else joined
    return following if word in ("acc", "dat") else f"{word} {following}"


# The words a template may name as a placeholder's format spec, in each language, and how each joins the value.
JOINS: dict[str, dict[str, Callable[[str, str], str]]] = {
    "fr": dict.fromkeys(ELIDED, elide),
    "es": {"de": _SPANISH, "a": _SPANISH, "y": spanish_conjunction, "o": spanish_conjunction},
    "pt-BR": dict.fromkeys(("de", "em", "a", "por"), _PORTUGUESE),
    "de": dict.fromkeys(_GERMAN_CASES, german_case),
}


class _Formatter(string.Formatter):
    """str.format, where a format spec naming a word of the language ({seat:de}) joins that word to the value
    as the language writes them."""

    def __init__(self, joins: dict[str, Callable[[str, str], str]]) -> None:
        self.joins = joins

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in self.joins:
            shown = format(value)
            return self.joins[format_spec](format_spec, Word(shown) if isinstance(value, Word) else shown)
        return format(value, format_spec)   # what string.Formatter.format_field does


_FORMATTER = _Formatter({})
_FORMATTERS = {locale: _Formatter(joins) for locale, joins in JOINS.items()}


@cache   # a function of the catalogue's templates: parsed once each, not on every message
def _fields(template: str) -> tuple[tuple[str, str | None, str], ...] | None:
    """`template` as (words, parameter, format spec) parts; None when a field is more than a parameter's name
    (a position, an attribute, an index, a conversion, a nested field): such a template goes through the
    whole formatter. Raises ValueError on a malformed template, as formatting it would."""
    parts = []
    for literal, name, spec, conversion in _FORMATTER.parse(template):
        if name is not None and (not name.isidentifier() or conversion or "{" in (spec or "")):
            return None
        parts.append((literal, name, spec or ""))
    return tuple(parts)


def _format(template: str, values: dict[str, Any], locale: str) -> str:
    """The locale's formatter's vformat(template, (), values), without parsing the template again on every
    message (string.Formatter's pure-Python parse was much of the cost of rendering a message)."""
    formatter = _FORMATTERS.get(locale, _FORMATTER)
    parts = _fields(template)
    if parts is None:
        return formatter.vformat(template, (), values)
    return "".join(literal if name is None else literal + formatter.format_field(values[name], spec)
                   for literal, name, spec in parts)


def placeholders(template: Template) -> set[str]:
    """The parameters a template (every form of it) names."""
    forms = template.values() if isinstance(template, dict) else [template]
    return {name for form in forms for _, name, _, _ in string.Formatter().parse(form) if name}


@cache   # a function of the catalogue's templates: parsed once each, not on every message
def _leading_placeholder(template: str) -> str | None:
    """The parameter a template starts with ("{seat} rolls" -> "seat"), None when it starts with words."""
    first = next(iter(string.Formatter().parse(template)), None)
    return first[1] if first is not None and first[0] == "" and first[1] else None


@cache
def _sentence_starts(template: str, at_start: bool) -> tuple[str, ...]:
    """The placeholders of `template` that start a sentence: the first, when the text starts one
    (`at_start`) with nothing before it but a symbol ("🏆 {player} wins"), and any after a full stop, ! or ?."""
    starts, first = [], True
    for literal, name, _, _ in string.Formatter().parse(template):
        opens = first and at_start and not any(c.isalnum() for c in literal)
        if name and (opens or literal.rstrip().endswith((".", "!", "?"))):
            starts.append(name)
        first = False
    return tuple(starts)


def _is_seat(name: str) -> bool:
    return name == "seat" or name.endswith("_seat")


# CLDR's cardinal categories for whole numbers: "one" takes 0 too in French and Portuguese; "many" (whole
# millions in French, Spanish and Portuguese: "un millón de fichas") is optional in a template, "other" stands
# in for it.
_ONE_WITH_ZERO = ("fr", "pt-BR")
_MANY_MILLIONS = ("fr", "es", "pt-BR")
PLURAL_FORMS = {locale: {"one", "other"} | ({"many"} if locale in _MANY_MILLIONS else set())
                for locale in KNOWN_LOCALES}


def plural_category(count: int, locale: str) -> str:
    """CLDR's cardinal category of a whole number in `locale`."""
    if count == 1 or (count == 0 and locale in _ONE_WITH_ZERO):
        return "one"
    if count and count % 1_000_000 == 0 and locale in _MANY_MILLIONS:
        return "many"
    return "other"


def _value(name: str, value: Any, locale: str, name_of: Callable[[int], str] | None) -> Any:
    if isinstance(value, Message):
        return render(value, locale, name_of, nested=True)
    if _is_seat(name):
        return name_of(value) if name_of else text("player.default_name", locale, number=value + 1)
    if name == "colour" or name.endswith("_colour"):
        return text(f"colour.{value}", locale)
    return value
