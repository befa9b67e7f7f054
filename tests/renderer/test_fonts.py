"""Every player's name shows: a character is drawn in the first font of the fallback
chain that has it (the shipped DejaVu, then the system's Noto CJK and colour emoji, when installed); one
that no font has is left out, never drawn as an empty box. These tests hold with or without the system
fonts (CI installs none)."""
from PIL import Image

from renderer import fonts
from renderer.colours import INK, PAPER, WHITE
from renderer.fonts import faces, has_glyph, runs
from renderer.legend import PlayerTag
from renderer.sheet import Sheet, StaticBoard, make_palette
from renderer.writing import printable

NAMES = ("小明", "Grand-mère Josette 🎲", "Дмитрий 👍🏽", "さくら", "Éloïse")


def tag_picture(name: str) -> Image.Image:
    sheet = Sheet(StaticBoard.build(Image.new("RGB", (400, 40), PAPER), make_palette([PAPER, INK, WHITE])))
    sheet.player_tag((0, 0), 400, PlayerTag(name, ()), 20)
    return sheet.finish().convert("RGB")


def test_the_shipped_font_comes_first_in_the_chain():
    assert faces()[0].endswith("DejaVuSans.ttf") and faces(True)[0].endswith("DejaVuSans-Bold.ttf")


def test_a_character_no_font_has_is_left_out_not_drawn_as_a_box():
    missing = "\u0378"   # an unassigned code point: no font has it
    assert not any(has_glyph(path, missing) for path in faces())
    assert printable(f"Bob{missing}") == "Bob"
    assert tag_picture(f"Bob{missing}").tobytes() == tag_picture("Bob").tobytes()


def test_a_name_of_characters_no_font_has_still_reads():
    assert printable("\u0378\u0379") == "??"


def test_a_ranked_name_of_characters_no_font_has_keeps_its_name():
    """Barricade's final legend writes "3. 小明": without a CJK font, "3. ??", not the rank alone."""
    assert printable("3. \u0378\u0379") == "3. ??"
    assert printable("Bob \u0378\u0379!") == "Bob ??!"


def test_every_character_of_every_name_is_drawn_by_a_font_that_has_it():
    for name in NAMES:
        for path, chunk in runs(name):
            assert has_glyph(path, chunk[0]), (name, path, chunk)
        shown = printable(name)
        assert shown and all(any(has_glyph(p, ch) for p in faces()) or ch == "?" for ch in shown if ch.isalnum()), name


def test_the_shipped_font_draws_latin_and_cyrillic_names_itself():
    assert [path for path, _ in runs("Éloïse Дмитрий")] == [faces()[0]]


def test_on_a_machine_without_system_fonts_names_still_read(monkeypatch):
    """As on CI: only the shipped DejaVu."""
    monkeypatch.setattr(fonts, "FONT_DIRS", ())
    fonts._system_font.cache_clear()
    fonts.faces.cache_clear()
    try:
        assert faces() == (faces()[0],)
        assert printable("小明") == "??" and printable("Grand-mère Josette 🎲") == "Grand-mère Josette"
        assert tag_picture("Josette 🎲").tobytes() == tag_picture("Josette").tobytes()
    finally:
        fonts._system_font.cache_clear()
        fonts.faces.cache_clear()


def test_a_combining_mark_the_face_lacks_is_known_lacking_so_no_box_is_drawn():
    """A zalgo name's marks: alone, a mark is drawn on a dotted circle, which passed for a glyph, and the face's
    "no glyph" box was drawn in the name. A mark is tried on a letter."""
    shipped = fonts.faces()[0]
    assert not fonts.has_glyph(shipped, "\u1ab0") and not fonts.has_glyph(shipped, "\u20dd")
    assert fonts.has_glyph(shipped, "\u0301") and fonts.has_glyph(shipped, "\u0337")
