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
    "pariti": ("game.pariti", "rules.pariti", "colour.pink", "pariti"),
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
        needed = [game.name, ruleset.rules_summary().key, *(f"colour.{c}" for c in sorted(colours))]
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
