"""One translation mechanism: every key in English and French, with the same placeholders,
and every key the code names literally exists."""
import json
import re
from pathlib import Path

import pytest

import bot.games
from bot.domain import i18n
from bot.games import get_ruleset
from bot.games.base import msg

ROOT = Path(__file__).resolve().parents[2]
LITERAL_KEY = re.compile(r"""\b(?:msg|text|Message)\(\s*["']([a-z0-9_.-]+)["']""")


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_language_has_the_keys_of_english(locale):
    en, other = i18n.catalogue("en"), i18n.catalogue(locale)
    assert sorted(set(en) - set(other)) == [] and sorted(set(other) - set(en)) == []


# The catalogue's files by domain, each with the key prefixes it holds (a prefix is its key's leading dotted
# segments: "game.pariti" holds "game.pariti" and "game.pariti.x", not "game.pariti-x"). A key belongs to the
# file of its longest prefix, so that a game's file holds its name, rules summary and colours beside its words.
DOMAINS = {
    "commands": ("cmd", "opt", "choice"),                            # slash-command descriptions, choice names
    "words": ("player", "level", "colour", "list", "group"),          # the words other messages are made of
    "lobby": ("lobby", "seating", "rematch", "thread", "defaults"),   # opening a game, who sits where
    "play": ("game", "turn", "result", "button", "select", "modal", "autocomplete", "ack", "takeback"),
    "errors": ("error", "controls", "boards", "interactions", "storage"),
    "pictures": ("picture", "alt", "animation"),                      # words on the board pictures, alt text
    "deadlines": ("timers", "claims", "away", "mine"),
    "history": ("history", "fair", "verify"),
    "stats": ("stats", "leaderboard"),
    "privacy": ("privacy", "forget"),
    "operations": ("cli", "check", "backup"),                         # the command line, run by operators
    "console": ("console",),                                          # the terminal game
    "parcheesi": ("game.parcheesi", "rules.parcheesi", "game.parcheesi-classic", "rules.parcheesi-classic",
                  "parcheesi"),
    "maghreb": ("game.parchis-maghreb", "rules.parchis-maghreb", "maghreb"),
    "barricade": ("game.barricade", "rules.barricade", "barricade"),
    "pariti": ("game.pariti", "rules.pariti", "colour.pink", "colour.letter.pink", "pariti"),
}


def owner(key: str) -> tuple[str, str] | None:
    """The file (domain) a key belongs to and the prefix it belongs by, None for a key of no domain."""
    found = [(prefix.count("."), domain, prefix) for domain, prefixes in DOMAINS.items() for prefix in prefixes
             if key == prefix or key.startswith(prefix + ".")]
    return max(found)[1:] if found else None


def test_domains_name_each_prefix_once():
    prefixes = [prefix for prefixes in DOMAINS.values() for prefix in prefixes]
    assert sorted(p for p in prefixes if prefixes.count(p) > 1) == []


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_each_file_holds_the_keys_of_its_domain_and_no_other(locale):
    """data/i18n/<locale>/<domain>.json holds every key whose prefix is its domain's, and only those: one
    place for each prefix, the same files in every locale."""
    misplaced = []
    folder = ROOT / "data" / "i18n" / locale
    assert sorted(f.stem for f in folder.glob("*.json")) == sorted(DOMAINS)
    for domain in sorted(folder.glob("*.json")):
        for key in json.loads(domain.read_text(encoding="utf-8")):
            found = owner(key)
            if found is None or found[0] != domain.stem:
                misplaced.append(f"{locale}/{domain.name}: {key} belongs in {found and found[0]}.json")
    assert misplaced == []


def test_no_key_is_written_in_two_files_of_a_locale():
    """The files of a locale are merged: a key in two of them is two sources of one wording, and the file
    read later would silently win."""
    twice = []
    for folder in sorted((ROOT / "data" / "i18n").iterdir()):
        owner: dict[str, str] = {}
        for domain in sorted(folder.glob("*.json")):
            for key in json.loads(domain.read_text(encoding="utf-8")):
                if key in owner:
                    twice.append(f"{folder.name}: {key} in {owner[key]} and {domain.name}")
                owner[key] = domain.name
    assert twice == []


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_registered_game_has_its_words_in_every_locale(locale):
    """What the menus, the lobby and /game rules show of a game: its name, its rules summary and the names
    of the colours its seats take. (GAMES read as the test runs: a game a test registers is checked too.)"""
    catalogue = i18n.catalogue(locale)
    missing = []
    for game in bot.games.GAMES:
        ruleset = get_ruleset(game.id)
        colours = {c for seat in ruleset.seat_colours(game.max_players, {}) for c in seat} | set(game.code_colours)
        needed = [game.name, ruleset.rules_summary().key, *(f"colour.{c}" for c in sorted(colours)),
                  *(f"colour.letter.{c}" for c in game.code_colours)]
        missing += [f"{game.id}: {key}" for key in needed if key not in catalogue]
    assert missing == []


@pytest.mark.parametrize("locale", i18n.LOCALES[1:])
def test_translations_use_the_same_placeholders(locale):
    en, other = i18n.catalogue("en"), i18n.catalogue(locale)
    assert [key for key in sorted(other) if i18n.placeholders(other[key]) != i18n.placeholders(en.get(key, ""))] == []


def test_every_literal_key_in_the_code_exists():
    missing = []
    for path in [*ROOT.glob("bot/**/*.py"), *ROOT.glob("renderer/**/*.py")]:
        for key in LITERAL_KEY.findall(path.read_text(encoding="utf-8")):
            if not i18n.has_key(key) and "." in key:
                missing.append(f"{path.relative_to(ROOT)}: {key}")
    assert missing == []


def test_seats_and_colours_are_rendered_by_convention():
    text = i18n.render(msg("lobby.joined", seat=1), "fr", lambda seat: ["Ann", "Bob"][seat])
    assert text == "Bob prend place."
    assert i18n.render(msg("error.illegal_move", move="Y1+3"), "en").startswith("“Y1+3”")


def test_discord_locales_map_to_ours(monkeypatch):
    """One Spanish for Spain and Latin America; a terminal's locale reads the same way."""
    monkeypatch.setattr(i18n, "LOCALES", i18n.KNOWN_LOCALES)
    said = {code: i18n.locale_of(code) for code in ("fr", "en-GB", None, "es-ES", "es-419", "de", "pt-BR",
                                                    "es_MX.UTF-8", "de_AT", "ja", "zh-CN")}
    assert said == {"fr": "fr", "en-GB": "en", None: "en", "es-ES": "es", "es-419": "es", "de": "de",
                    "pt-BR": "pt-BR", "es_MX.UTF-8": "es", "de_AT": "de", "ja": "en", "zh-CN": "en"}


@pytest.mark.parametrize(("environ", "locale"), [
    ({"LANG": "es_ES.UTF-8"}, "es"), ({"LC_ALL": "fr_FR.UTF-8", "LANG": "es_ES.UTF-8"}, "fr"),
    ({"LC_MESSAGES": "pt_BR.UTF-8", "LANG": "en_GB.UTF-8"}, "pt-BR"), ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_ALL": "", "LANG": "de_DE"}, "de"), ({}, "en"), ({"LANG": "POSIX"}, "en")])
def test_the_terminal_s_language_is_found_as_posix_finds_it(monkeypatch, environ, locale):
    monkeypatch.setattr(i18n, "LOCALES", i18n.KNOWN_LOCALES)
    assert i18n.terminal_locale(environ) == locale


def test_a_language_whose_folder_is_missing_falls_back_to_english(monkeypatch):
    monkeypatch.setattr(i18n, "LOCALES", ("en", "fr"))
    assert i18n.locale_of("es-ES") == "en" and i18n.locale_of("fr") == "fr"


def test_a_message_the_language_lacks_is_said_wholly_in_english(monkeypatch):
    """Never a mix inside one sentence: the nested message's key missing in French makes the whole
    sentence English, not a French sentence around English words (nor the reverse)."""
    monkeypatch.delitem(i18n.catalogue("fr"), "game.pariti")
    said = i18n.render(msg("lobby.created", seat=0, game=msg("game.pariti")), "fr", ["Ève"].__getitem__)
    assert said == "Ève opened a lobby for Pariti."
    monkeypatch.delitem(i18n.catalogue("fr"), "lobby.created")
    assert i18n.render(msg("lobby.created", seat=0, game=msg("game.barricade")), "fr", ["Ève"].__getitem__) == \
        "Ève opened a lobby for Barricade."


def test_plural_forms_follow_the_count_in_each_language(monkeypatch):
    monkeypatch.setitem(i18n.catalogue("en"), "test.pawns", {"one": "{count} pawn", "other": "{count} pawns"})
    monkeypatch.setitem(i18n.catalogue("fr"), "test.pawns", {"one": "{count} pion", "other": "{count} pions"})
    said = {(locale, n): i18n.render(msg("test.pawns", count=n), locale) for locale in ("en", "fr") for n in (0, 1, 2)}
    assert said == {("en", 0): "0 pawns", ("en", 1): "1 pawn", ("en", 2): "2 pawns",
                    ("fr", 0): "0 pion", ("fr", 1): "1 pion", ("fr", 2): "2 pions"}


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_plural_entries_have_the_forms_of_their_language(locale):
    """Every CLDR category a count can fall in, for whole numbers: "one" and "other" always, "many" only
    where the language has it."""
    wrong = [key for key, template in i18n.catalogue(locale).items() if isinstance(template, dict)
             and not {"one", "other"} <= set(template) <= i18n.PLURAL_FORMS[locale]]
    assert wrong == []


@pytest.mark.parametrize(("locale", "counts"), [
    ("en", {"one": [1], "other": [0, 2, 5, 1_000_000]}),
    ("fr", {"one": [0, 1], "other": [2, 5, 100], "many": [1_000_000, 2_000_000]}),
    ("es", {"one": [1], "other": [0, 2, 5, 1_000_001], "many": [1_000_000]}),
    ("pt-BR", {"one": [0, 1], "other": [2, 5], "many": [1_000_000]}),
    ("de", {"one": [1], "other": [0, 2, 5, 1_000_000]}),
])
def test_plural_categories_follow_cldr(locale, counts):
    assert {category: [i18n.plural_category(n, locale) for n in ns] for category, ns in counts.items()} == \
        {category: [category] * len(ns) for category, ns in counts.items()}


def test_a_template_without_many_says_other_for_millions(monkeypatch):
    monkeypatch.setitem(i18n.catalogue("fr"), "test.pawns", {"one": "{count} pion", "other": "{count} pions"})
    assert i18n.render(msg("test.pawns", count=1_000_000), "fr") == "1000000 pions"


SPANISH, PORTUGUESE, GERMAN = (i18n._FORMATTERS[locale] for locale in ("es", "pt-BR", "de"))


@pytest.mark.parametrize(("values", "said"), [
    ({"seat": i18n.Word("el ordenador")}, "Turno del ordenador; al ordenador."),
    ({"seat": "Ana"}, "Turno de Ana; a Ana."),
    ({"seat": "El Guapo"}, "Turno de El Guapo; a El Guapo."),      # a name as written: no contraction
    ({"seat": i18n.Word("la máquina (fácil)")}, "Turno de la máquina (fácil); a la máquina (fácil)."),
])
def test_spanish_contracts_de_and_a_with_our_words_el(values, said):
    assert SPANISH.format("Turno {seat:de}; {seat:a}.", **values) == said


@pytest.mark.parametrize(("name", "y", "o"), [("Luis", "y Luis", "o Luis"), ("Inés", "e Inés", "o Inés"),
                                               ("Hilda", "e Hilda", "o Hilda"), ("Hielo", "y Hielo", "o Hielo"),
                                               ("Óscar", "y Óscar", "u Óscar"), ("Horacio", "y Horacio", "u Horacio"),
                                               ("Yolanda", "y Yolanda", "o Yolanda")])
def test_spanish_y_and_o_before_the_sounds_i_and_o(name, y, o):
    assert (SPANISH.format("{n:y}", n=name), SPANISH.format("{n:o}", n=name)) == (y, o)


def test_portuguese_contracts_prepositions_with_our_words_articles():
    computer, house = i18n.Word("o computador (fácil)"), i18n.Word("a pessoa esquecida")
    assert PORTUGUESE.format("{a:de} {b:de} {a:em} {b:em} {a:a} {b:a} {a:por} {b:por}", a=computer, b=house) == \
        "do computador (fácil) da pessoa esquecida no computador (fácil) na pessoa esquecida " \
        "ao computador (fácil) à pessoa esquecida pelo computador (fácil) pela pessoa esquecida"
    assert PORTUGUESE.format("Vez {s:de}.", s="Ana") == "Vez de Ana."
    assert PORTUGUESE.format("Vez {s:de}.", s="o Zé") == "Vez de o Zé."   # a name as written


def test_german_declines_our_words_after_a_preposition():
    computer, machine = i18n.Word("der Computer"), i18n.Word("die Maschine")
    assert GERMAN.format("{a:von}, {b:von}, {a:zu}, {b:zu}, {a:mit}, {a:gegen}, {b:gegen}, {a:acc}, {a:dat}",
                         a=computer, b=machine) == \
        "vom Computer, von der Maschine, zum Computer, zur Maschine, mit dem Computer, gegen den Computer, " \
        "gegen die Maschine, den Computer, dem Computer"
    assert GERMAN.format("Zug {s:von}; {s:acc}", s="Paul") == "Zug von Paul; Paul"

@pytest.mark.skipif("es" not in i18n.LOCALES, reason="no Spanish catalogue")
def test_the_spanish_catalogue_joins_its_words_to_names_through_the_template():
    """Whatever our words for a player (la máquina, or a masculine name an editor might choose: el ordenador),
    the catalogue writes de, a and y through the template: "del", "al", "e Inés"."""
    names = ["Ana", i18n.Word("la máquina (fácil)"), i18n.Word("el ordenador (difícil)"), "Inés"]
    said = [i18n.render(m, "es", names.__getitem__, capitalised=True) for m in (
        msg("parcheesi.event.next", seat=1), msg("parcheesi.event.next", seat=2),
        msg("parcheesi.note.call_window", seat=2, next_seat=0), msg("result.winners", players="Ana, Luis", last="Inés"),
        msg("parcheesi.event.team_wins", seat=0, partner_seat=3), msg("barricade.event.capture", seat=0, victim_seat=2,
                                                                      at="e5"))]
    assert said == ["Turno de la máquina (fácil).", "Turno del ordenador (difícil).",
                    "Se puede denunciar al ordenador (difícil) hasta que tire Ana.",
                    "🏆 ¡Ana, Luis e Inés ganan la partida!", "¡Ana e Inés ganan!",
                    "Ana manda a casa la ficha del ordenador (difícil) en e5."]


def test_german_our_words_opening_a_sentence_are_declined_too():
    """A button "{seat:acc} melden" opens with our words, which take their capital first: "Den Computer
    (leicht) melden", never "Der Computer (leicht) melden"."""
    computer = i18n.Word("Der Computer")
    assert GERMAN.format("{a:acc}; {a:von}; {a:dat}", a=computer) == "Den Computer; Vom Computer; Dem Computer"
    if "de" not in i18n.LOCALES:
        pytest.skip("no German catalogue")
    ours = i18n.Word(i18n.text("player.computer", "de", level="leicht"))
    assert i18n.render(msg("parcheesi.label.call", seat=0), "de", lambda seat: ours) == \
        "Den Computer (leicht) melden (pusten)"


NO_BREAK = "\u00a0\u202f"
CODE = re.compile(r"`[^`]*`")   # code spans keep their own spelling


def french_forms():
    for key, template in i18n.catalogue("fr").items():
        for form in template.values() if isinstance(template, dict) else [template]:
            yield key, CODE.sub("`…`", form)


def test_french_typography_holds_over_the_whole_catalogue():
    """A no-break space before : ; ! ? and inside « », the apostrophe ’; a colon glued to the next
    character is part of a code (out:G, B7:c5, https://) and left alone."""
    wrong = []
    for key, form in french_forms():
        if re.search(r"[^" + NO_BREAK + r"][;!?»](?!\S)|[^" + NO_BREAK + r"]:(?!\S)|«[^" + NO_BREAK + "]|'", form):
            wrong.append((key, form))
        if form.count("«") != form.count("»"):
            wrong.append((key, form))
    assert wrong == []


def test_no_catalogue_writes_a_plural_as_s_in_brackets():
    assert [key for locale in i18n.LOCALES for key, template in i18n.catalogue(locale).items()
            if re.search(r"\((s|es|n|e)\)", str(template))] == []


@pytest.mark.parametrize(("name", "said"), [("Éloïse", "Au tour d’Éloïse."), ("Paul", "Au tour de Paul."),
                                            ("Hélène", "Au tour d’Hélène."), ("8 ball", "Au tour de 8 ball."),
                                            ("Yasmine", "Au tour de Yasmine."), ("Yves", "Au tour d’Yves.")])
def test_de_elides_before_a_name_that_starts_with_a_vowel(name, said):
    assert i18n.render(msg("parcheesi.event.next", seat=0), "fr", lambda seat: name) == said


def test_elision_only_where_the_template_asks_for_it():
    assert i18n.render(msg("barricade.event.capture", seat=0, victim_seat=1, at="e5"), "fr",
                       ["Paul", "Anne"].__getitem__) == "Paul renvoie au départ le pion d’Anne en e5."
    assert i18n.render(msg("lobby.created", seat=0, game=msg("game.pariti")), "fr", ["Ève"].__getitem__) == \
        "Ève ouvre une partie de Pariti."


def test_barricades_to_place_agree_with_their_count():
    said = {(locale, n): i18n.render(msg("barricade.describe.place", seat=0, count=n), locale, ["Ann"].__getitem__)
            for locale in ("en", "fr") for n in (1, 2)}
    assert said == {("en", 1): "Ann must place 1 barricade.", ("en", 2): "Ann must place 2 barricades.",
                    ("fr", 1): "Ann doit poser 1\u00a0barricade.", ("fr", 2): "Ann doit poser 2\u00a0barricades."}


def test_our_words_after_a_leading_symbol_still_open_the_sentence_and_a_name_stays_as_written():
    computer = i18n.Word(i18n.text("player.computer", "fr", level="facile"))
    assert i18n.render(msg("timers.skipped", seat=0), "fr", lambda seat: "éloïse") == \
        "⏰ Temps écoulé\u00a0: éloïse passe son tour."
    assert i18n.render(msg("takeback.done", seat=0), "fr", lambda seat: computer) == \
        "↩️ L’ordinateur (facile) reprend son dernier coup."
    assert i18n.render(msg("takeback.done", seat=0), "fr", lambda seat: "éloïse").startswith("↩️ éloïse")


def test_our_words_inside_another_message_open_a_sentence_with_a_capital_letter():
    """A stored event holds our words where a name was (a forgotten person's): they are no name."""
    said = msg("game.resigned_replaced", player=msg("privacy.former_player"))
    assert i18n.render(said, "en").startswith("Former player resigns;")
    assert i18n.render(said, "fr").startswith("La personne oubliée abandonne")


# --- every language: limits, English left behind, typography -------------------------------------------------

FIELD = re.compile(r"\{[^{}]*\}")
FILL = "x" * 10   # a placeholder's typical value: a piece, a square, a short name

# Discord's limits for what becomes one of its fields (the code cuts a longer text mid-word).
LIMITS = [
    (re.compile(r"^modal\.other_move\.(title|label|label_plain)$"), 45),      # a modal's title, a text input's label
    (re.compile(r"^modal\.other_move\.placeholder"), 100),                    # a text input's placeholder
    (re.compile(r"(^|\.)button(\.|$)|^privacy\.forget_button$|^[a-z]+\.(action|label)\."), 80),   # button labels
    (re.compile(r"^(select\.(group|move|call)(\.[a-z-]+)?)$"), 150),           # a select menu's placeholder
    (re.compile(r"^([a-z]+\.group\.|group\.|barricade\.pawn\.|autocomplete\.)"), 100),   # select options, autocomplete
    (re.compile(r"^(cmd|opt|choice)\."), 100),                                # command descriptions, choice names
    (re.compile(r"^alt\."), 1024),                                            # alt text
    (re.compile(r""), 2000),                                                  # a message
]


def forms(template):
    return template.values() if isinstance(template, dict) else [template]


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_value_fits_the_discord_field_it_becomes(locale):
    too_long = []
    for key, template in i18n.catalogue(locale).items():
        limit = next(limit for pattern, limit in LIMITS if pattern.search(key))
        too_long += [(key, len(FIELD.sub(FILL, form)), limit) for form in forms(template)
                     if not 1 <= len(FIELD.sub(FILL, form)) <= limit]
    assert too_long == []


# Words that mean nothing in Spanish, German or Portuguese (German's "was", "will", "in", "an", "die" are left
# out): one of them in a translation is English left behind.
ENGLISH = set("""the and your you yours is are not game games turn turns move moves roll rolls rolled with this
that these of to for player players piece pieces pawn pawns board now must can cannot have from on be it its by
at or if yet only every which what who when would there their they here again first into win wins won seat seats
lobby please sorry done nobody someone time left goal house square squares pair pairs""".split())
NOT_WORDS = re.compile(r"`[^`]*`|\{[^{}]*\}|https?://\S+|\b[A-Za-z]+_[A-Za-z_]+\b|--seating lobby|--[a-z-]+|'[^']*'|"
                       r"\b(TABLERO|DISCORD)_[A-Z_]+|/game( [a-z-]+)?|\b[\w-]+\.(png|sqlite3|dump|md)\b|"
                       r"(^|; )(lobby|random):")


@pytest.mark.parametrize("locale", [loc for loc in i18n.LOCALES if loc not in ("en", "fr")])
def test_no_value_is_left_in_english(locale):
    """Codes, placeholders, addresses, identifiers and options are no words; the rest is the language's own.
    A word is read whole, accents included: Portuguese "até" is no English "at"."""
    left = []
    for key, template in i18n.catalogue(locale).items():
        for form in forms(template):
            words = set(re.findall(r"[^\W\d_]+", NOT_WORDS.sub(" ", form)))
            if english := sorted(w for w in words if w.lower() in ENGLISH and not (w.isupper() and len(w) > 1)):
                left.append((key, english))
    assert left == []


def prose(template):
    """A template's forms without code spans, placeholders and the console's keys to type (a lone ?)."""
    for form in forms(template):
        yield re.sub(r"`[^`]*`|\{[^{}]*\}|(?<![\w»”“)}])[?!](?![\w«„“])", " ", form)


QUOTES = {"es": ("«", "»"), "de": ("„", "“"), "pt-BR": ("“", "”"), "en": ("“", "”")}


@pytest.mark.parametrize("locale", [loc for loc in i18n.LOCALES if loc in ("es", "de", "pt-BR")])
def test_quotation_marks_are_the_language_s_own(locale):
    """Spanish « », German „ “, Brazilian Portuguese “ ”: balanced, and no other kind (straight quotes " are
    for code and shell lines)."""
    opening, closing = QUOTES[locale]
    others = {"«", "»", "„", "“", "”"} - {opening, closing}
    wrong = [(key, form) for key, template in i18n.catalogue(locale).items() for form in prose(template)
             if form.count(opening) != form.count(closing) or any(mark in form for mark in others)]
    assert wrong == []


def test_spanish_questions_and_exclamations_open_with_inverted_marks():
    """Every ? and ! that ends a question or an exclamation has its opening ¿ or ¡ before it, in the same
    value, in order."""
    if "es" not in i18n.LOCALES:
        pytest.skip("no Spanish catalogue")
    wrong = []
    for key, template in i18n.catalogue("es").items():
        for form in prose(template):
            for opening, closing in (("¿", "?"), ("¡", "!")):
                depth = 0
                for char in form:
                    depth += (char == opening) - (char == closing)
                    if depth < 0:
                        break
                if depth != 0:
                    wrong.append((key, form))
    assert wrong == []


@pytest.mark.skipif("pt-BR" not in i18n.LOCALES, reason="no Brazilian Portuguese catalogue")
def test_the_portuguese_catalogue_joins_its_words_to_names_through_the_template():
    """Our words for a player carry their article (o computador, a pessoa esquecida): the catalogue writes de, em,
    a and por through the template, "do computador", "da pessoa esquecida", and a name stays as written."""
    names = ["Ana", i18n.Word("o computador (fácil)"), i18n.Word("a pessoa esquecida")]
    said = [i18n.render(m, "pt-BR", names.__getitem__, capitalised=True) for m in (
        msg("parcheesi.event.next", seat=1), msg("parcheesi.event.next", seat=2), msg("parcheesi.event.next", seat=0),
        msg("parcheesi.note.call_window", seat=1, next_seat=0), msg("timers.skipped", seat=2),
        msg("barricade.event.capture", seat=0, victim_seat=1, at="e5"), msg("takeback.refused", seat=1, asked_seat=2))]
    assert said == ["Vez do computador (fácil).", "Vez da pessoa esquecida.", "Vez de Ana.",
                    "A vez do computador (fácil) pode ser denunciada até Ana jogar o dado.",
                    "⏰ O tempo acabou: a vez da pessoa esquecida foi passada.",
                    "Ana manda para casa o peão do computador (fácil) que estava em e5.",
                    "O computador (fácil) recusa: a jogada da pessoa esquecida fica valendo."]
